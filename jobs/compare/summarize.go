package compare

// The summary: the compare job's plan filled in with its overlays (score,
// transform, changes) and what could not be compared, counted.

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/overlay"
	"github.com/plangraph/plangraph/internal/overlayjson"
	"github.com/plangraph/plangraph/jobs"
	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

// summarize builds the compare job's report from its plan and the
// overlays its children stored.
func (c *Compare) summarize(ctx context.Context, j *ent.Job) (any, error) {
	var in summarizeInput
	if err := json.Unmarshal(j.Input, &in); err != nil || in.CompareJobID == "" {
		return nil, jobs.Fail("BAD_INPUT", "summary job %s has no comparison", j.ID)
	}
	parent, err := c.R.DB.Job.Get(ctx, in.CompareJobID)
	if err != nil {
		return nil, gone(err, "compare job", in.CompareJobID)
	}
	var cin Input
	if err := json.Unmarshal(parent.Input, &cin); err != nil {
		return nil, jobs.Fail("BAD_INPUT", "compare job %s has no valid input", parent.ID)
	}
	ovs, err := c.R.DB.Overlay.Query().Where(overlay.JobID(in.CompareJobID)).All(ctx)
	if err != nil {
		return nil, err
	}
	siblings, err := c.R.DB.Job.Query().Where(job.ParentID(in.CompareJobID), job.TypeIn(jobs.TypeOverlayGenerate, jobs.TypeChangesAnalyze)).All(ctx)
	if err != nil {
		return nil, err
	}
	defer laps("summarize " + in.CompareJobID)("summarize")
	return fillReport(in.Plan, cin.Analyze, ovs, siblings), nil
}

// fillReport fills plan (a compare job's pairing) in with the overlays the
// job stored and the failures of its overlay.generate and changes.analyze
// children (siblings), and counts the changes. An overlay the plan has no
// place for (a sheet or block edited while the job ran) joins its sheet
// pair, or is named in the warnings.
func fillReport(plan engine.Report, analyzed bool, ovs []*ent.Overlay, siblings []*ent.Job) *engine.Report {
	rep := plan
	rep.Analyzed = analyzed
	rep.ByCategory, rep.BySeverity, rep.ByKind = map[string]int{}, map[string]int{}, map[string]int{}
	byPair := map[[2]string]*ent.Overlay{}
	for _, o := range ovs {
		byPair[[2]string{o.BlockAID, o.BlockBID}] = o
	}
	genFailed := map[[2]string]string{}
	anaFailed := map[string]string{}
	for _, s := range siblings {
		if s.Status == job.StatusCompleted {
			continue
		}
		switch s.Type {
		case jobs.TypeOverlayGenerate:
			var in overlayInput
			if json.Unmarshal(s.Input, &in) == nil {
				genFailed[[2]string{in.BlockAID, in.BlockBID}] = failure(s)
			}
		case jobs.TypeChangesAnalyze:
			anaFailed[s.TargetID] = failure(s)
		}
	}
	placed := map[string]bool{}
	rep.Pairs = make([]engine.ReportSheetPair, len(plan.Pairs))
	for i, sp := range plan.Pairs {
		twice := reportedTwice(sp.Overlays, byPair)
		var kept []engine.ReportOverlay
		for _, ro := range sp.Overlays {
			key := [2]string{ro.Old.BlockID, ro.New.BlockID}
			o := byPair[key]
			if o == nil {
				why := genFailed[key]
				if why == "" {
					why = "no overlay was made"
				}
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("blocks %s and %s (sheet %s) were not compared: %s",
					ro.Old.BlockID, ro.New.BlockID, sheetLabel(sp.New), why))
				continue
			}
			placed[o.ID] = true
			kept = append(kept, fillOverlay(ro, o, anaFailed[o.ID], twice, &rep))
		}
		sp.Overlays = kept
		if sp.Overlays == nil {
			sp.Overlays = []engine.ReportOverlay{}
		}
		rep.Pairs[i] = sp
	}
	// overlays of pairs the plan no longer has
	sort.Slice(ovs, func(a, b int) bool { return ovs[a].ID < ovs[b].ID })
	for _, o := range ovs {
		if !placed[o.ID] {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("overlay %s (blocks %s and %s) is not in the pairing any more: "+
				"a sheet or block was edited during the comparison", o.ID, o.BlockAID, o.BlockBID))
		}
	}
	rep.HasChanges = len(rep.SheetsAdded)+len(rep.SheetsRemoved) > 0
	for _, sp := range rep.Pairs {
		rep.HasChanges = rep.HasChanges || len(sp.BlocksAdded)+len(sp.BlocksRemoved) > 0
		for _, ro := range sp.Overlays {
			rep.HasChanges = rep.HasChanges || len(ro.Changes) > 0
		}
	}
	return &rep
}

// reportedTwice finds, among a sheet pair's overlays (stored in byPair),
// the changes another overlay of the pair reports already: newer blocks
// that overlap (a plan whose layout took in the notes, and the notes) each
// find a change in their common part. A change is the same when it has
// the same kind, category and description and the two places on the newer
// sheet overlap by half (IoU), or one holds the other. The overlay of the
// smaller newer block keeps it. The result maps a change's id to the
// overlay that keeps it.
func reportedTwice(planned []engine.ReportOverlay, byPair map[[2]string]*ent.Overlay) map[string]string {
	type placed struct {
		ch    overlayjson.Change
		sheet geom.Box
		ovl   string
	}
	ros := slices.Clone(planned)
	slices.SortStableFunc(ros, func(x, y engine.ReportOverlay) int { return cmp.Compare(x.New.Bounds.Area(), y.New.Bounds.Area()) })
	var seen []placed
	twice := map[string]string{}
	for _, ro := range ros {
		o := byPair[[2]string{ro.Old.BlockID, ro.New.BlockID}]
		if o == nil {
			continue
		}
		at := imageOrigin(ro.New.Bounds)
		var mine []placed
		for _, ch := range o.Changes {
			p := placed{ch, ch.Bounds.Translate(float64(at.X), float64(at.Y)), o.ID}
			dup := slices.IndexFunc(seen, func(q placed) bool {
				in := p.sheet.Intersect(q.sheet).Area()
				return q.ch.Kind == ch.Kind && q.ch.Category == ch.Category && q.ch.Description == ch.Description &&
					(p.sheet.IoU(q.sheet) >= 0.5 || in > 0 && in >= 0.95*min(p.sheet.Area(), q.sheet.Area()))
			})
			if dup >= 0 {
				twice[ch.ID] = seen[dup].ovl
				continue
			}
			mine = append(mine, p)
		}
		seen = append(seen, mine...)
	}
	return twice
}

// fillOverlay is a planned block pair with its stored overlay o, less the
// changes another overlay reports (twice, see reportedTwice).
func fillOverlay(ro engine.ReportOverlay, o *ent.Overlay, analysisFailed string, twice map[string]string, rep *engine.Report) engine.ReportOverlay {
	ro.OverlayID = o.ID
	if o.Score != nil {
		ro.Score = *o.Score
	}
	if o.Transform != nil {
		ro.Transform = engine.Transform(*o.Transform)
	}
	ro.URI = o.URI // "" when the difference was not computed
	ro.Registered = o.Registered
	ro.Warnings = append([]string(nil), o.Warnings...)
	if !o.Registered && len(ro.Warnings) == 0 {
		ro.Warnings = append(ro.Warnings, "the blocks did not register; they are compared as placed")
	}
	if analysisFailed != "" {
		ro.Warnings = append(ro.Warnings, "change analysis failed: "+analysisFailed)
	}
	ro.Changes = []engine.ReportChange{}
	ro.ByCategory = map[string]int{}
	elsewhere := map[string]int{}
	for _, ch := range o.Changes {
		if other := twice[ch.ID]; other != "" {
			elsewhere[other]++
			continue
		}
		rc := engine.ReportChange{ID: ch.ID, Change: engine.Change{Kind: ch.Kind, Category: ch.Category, Description: ch.Description,
			Bounds: ch.Bounds, BoundsA: ch.BoundsA, Severity: ch.Severity, Confidence: ch.Confidence}}
		ro.Changes = append(ro.Changes, rc)
		ro.ByCategory[ch.Category]++
		rep.ByCategory[ch.Category]++
		rep.BySeverity[ch.Severity]++
		rep.ByKind[ch.Kind]++
	}
	for _, other := range slices.Sorted(maps.Keys(elsewhere)) {
		ro.Warnings = append(ro.Warnings, fmt.Sprintf("%d change(s) of this overlay lie where overlay %s's block overlaps this one and are listed there", elsewhere[other], other))
	}
	return ro
}

// sheetLabel names a sheet in a warning.
func sheetLabel(s engine.ReportSheet) string {
	if s.Number != "" {
		return s.Number
	}
	return fmt.Sprintf("page %d", s.Page)
}
