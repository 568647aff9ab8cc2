package compare

// The summary: the compare job's plan filled in with its overlays (score,
// transform, changes) and what could not be compared, counted.

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/overlay"
	"github.com/plangraph/plangraph/jobs"
	engine "github.com/plangraph/plangraph/vision/compare"
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
			kept = append(kept, fillOverlay(ro, o, anaFailed[o.ID], &rep))
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

// fillOverlay is a planned block pair with its stored overlay o.
func fillOverlay(ro engine.ReportOverlay, o *ent.Overlay, analysisFailed string, rep *engine.Report) engine.ReportOverlay {
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
	for _, ch := range o.Changes {
		rc := engine.ReportChange{ID: ch.ID, Change: engine.Change{Kind: ch.Kind, Category: ch.Category, Description: ch.Description,
			Bounds: ch.Bounds, BoundsA: ch.BoundsA, Severity: ch.Severity, Confidence: ch.Confidence}}
		ro.Changes = append(ro.Changes, rc)
		ro.ByCategory[ch.Category]++
		rep.ByCategory[ch.Category]++
		rep.BySeverity[ch.Severity]++
		rep.ByKind[ch.Kind]++
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
