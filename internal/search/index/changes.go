package index

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/overlay"
	"github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/vision/geom"
)

// compareJob and summarizeJob are jobs.TypeCompare and
// jobs.TypeChangesSummarize (jobs imports this package's callers).
const compareJob, summarizeJob = "compare", "changes.summarize"

// Change row kinds that are not an overlay change's own kind.
const (
	// ChangeSheetAdded: the sheet has no counterpart in the older revision.
	ChangeSheetAdded = "sheet_added"
	// ChangeSheetCompared: the summary row of a compared sheet; its Count is
	// the number of changes found on it.
	ChangeSheetCompared = "sheet_compared"
	// ChangeSheetNotAnalysed: the summary row of a sheet whose overlays
	// were made without change analysis (analyze: []); Count is its blocks
	// added and removed only.
	ChangeSheetNotAnalysed = "sheet_compared_not_analysed"
	ChangeBlockAdded       = "block_added"
	ChangeBlockRemoved     = "block_removed"
)

// ChangeKind is a change row's kind: the first word of its body (an
// overlay change's kind, or one of the Change* constants).
func ChangeKind(d Doc) string {
	if f := strings.Fields(d.Body); len(f) > 0 {
		return f[0]
	}
	return ""
}

// compareReport holds the fields of a compare job's result
// (vision/compare.Report, which links OpenCV) that the index reads.
type compareReport struct {
	Type     string `json:"type"`
	Analyzed bool   `json:"analyzed"`
	Old      struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"old"`
	SheetsAdded []reportSheet `json:"sheets_added"`
	Pairs       []reportPair  `json:"pairs"`
}

type reportPair struct {
	Old           reportSheet   `json:"old"`
	New           reportSheet   `json:"new"`
	BlocksAdded   []reportBlock `json:"blocks_added"`
	BlocksRemoved []reportBlock `json:"blocks_removed"`
}

type reportSheet struct {
	SheetID string `json:"sheet_id"`
	Number  string `json:"number"`
	Title   string `json:"title"`
}

type reportBlock struct {
	BlockID string   `json:"block_id"`
	Type    string   `json:"type"`
	Title   string   `json:"title"`
	Bounds  geom.Box `json:"bounds"`
}

// changeDocs are the change rows of a sheet from its latest completed
// comparison with an older revision (a compare job whose newer side is the
// sheet, its drawing or one of its blocks): one summary row
// (ChangeSheetCompared with the number of changes as Count, or
// ChangeSheetAdded when no older sheet pairs with it), one row per
// described change of its overlays (their kind, in sheet pixels), and one
// per block added to or removed from it. A sheet never compared has none.
// The row's Revision stays the sheet's own (the newer side's).
func changeDocs(ctx context.Context, db *ent.Client, base Doc, s *ent.Sheet, blks []*ent.Block) ([]Doc, error) {
	targets := []string{s.ID, s.DrawingID}
	byID := map[string]*ent.Block{}
	for _, b := range blks {
		targets = append(targets, b.ID)
		byID[b.ID] = b
	}
	cj, rep, err := latestReport(ctx, db, targets)
	if cj == nil || err != nil {
		return nil, err
	}
	sum := base
	sum.SourceType, sum.SourceID = TypeChange, cj.ID
	if s.Width > 0 && s.Height > 0 {
		sum.Bounds = &geom.Box{XMax: float64(s.Width), YMax: float64(s.Height)}
	}
	name := strings.TrimSpace(s.SheetNumber + " " + s.Title)
	if slices.ContainsFunc(rep.SheetsAdded, func(r reportSheet) bool { return r.SheetID == s.ID }) {
		sum.Label = fmt.Sprintf("Sheet %s added: no sheet of %s pairs with it", name, older(rep))
		sum.Body = ChangeSheetAdded
		sum.Count = 1
		return []Doc{withTerms(sum, sum.Label, kindWords(sum.Body), "change")}, nil
	}
	pi := slices.IndexFunc(rep.Pairs, func(p reportPair) bool { return p.New.SheetID == s.ID })
	if pi < 0 {
		return nil, nil
	}
	pair := rep.Pairs[pi]
	var out []Doc
	for _, b := range pair.BlocksAdded {
		d := base
		d.SourceType, d.SourceID, d.BlockID = TypeChange, b.BlockID, b.BlockID
		d.BlockType, d.BlockTitle = b.Type, b.Title
		d.Label = fmt.Sprintf("%s added", blockName(b))
		d.Body = ChangeBlockAdded
		bb := b.Bounds
		d.Bounds = &bb
		out = append(out, withTerms(d, d.Label, kindWords(d.Body), "change"))
	}
	for _, b := range pair.BlocksRemoved {
		d := base
		d.SourceType, d.SourceID = TypeChange, b.BlockID
		d.Label = fmt.Sprintf("%s removed (it was on %s)", blockName(b), sheetName(pair.Old))
		d.Body = ChangeBlockRemoved
		out = append(out, withTerms(d, d.Label, kindWords(d.Body), "change"))
	}
	ovs, err := db.Overlay.Query().Where(overlay.JobID(cj.ID), overlay.BlockBIDIn(targets[2:]...)).
		Order(ent.Asc(overlay.FieldCreatedAt), ent.Asc(overlay.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	analyzed := false
	for _, o := range ovs {
		analyzed = analyzed || o.HasChanges
		b := byID[o.BlockBID]
		for _, ch := range o.Changes {
			d := base
			d.SourceType, d.SourceID, d.BlockID = TypeChange, ch.ID, b.ID
			d.BlockType, d.BlockTitle = string(b.Type), b.Title
			d.Label = ch.Description
			d.Body = strings.TrimSpace(ch.Kind + " " + ch.Category + " " + ch.Severity)
			d.Bounds = onSheet(ch.Bounds, b)
			out = append(out, withTerms(d, d.Label, kindWords(d.Body), "change"))
		}
	}
	sum.Body = ChangeSheetCompared
	sum.Count = len(out)
	switch {
	case !analyzed && len(ovs) > 0:
		sum.Label = fmt.Sprintf("Sheet %s compared with %s; its changes were not analysed", name, sheetName(pair.Old))
		sum.Body = ChangeSheetNotAnalysed
	default:
		sum.Label = fmt.Sprintf("Sheet %s compared with %s: %d %s", name, sheetName(pair.Old), len(out), plural(len(out), "change", "changes"))
	}
	if rep.Old.Name != "" {
		sum.Label += " (older revision: " + rep.Old.Name + ")"
	}
	return append([]Doc{withTerms(sum, sum.Label, kindWords(sum.Body), "change")}, out...), nil
}

// latestReport is the newest comparison of targets whose report exists:
// a completed compare job's result, or — while its finalizer runs (and
// indexes before completing it) — its completed summary child's.
func latestReport(ctx context.Context, db *ent.Client, targets []string) (*ent.Job, compareReport, error) {
	var rep compareReport
	jobs, err := db.Job.Query().Where(job.Type(compareJob), job.StatusIn(job.StatusCompleted, job.StatusStarted, job.StatusQueued),
		job.TargetIDIn(targets...)).Order(ent.Desc(job.FieldCreatedAt), ent.Desc(job.FieldID)).Limit(5).All(ctx)
	if err != nil {
		return nil, rep, err
	}
	for _, j := range jobs {
		result := j.Result
		if j.Status != job.StatusCompleted {
			sum, err := db.Job.Query().Where(job.ParentID(j.ID), job.Type(summarizeJob), job.StatusEQ(job.StatusCompleted)).First(ctx)
			if ent.IsNotFound(err) {
				continue
			}
			if err != nil {
				return nil, rep, err
			}
			result = sum.Result
		}
		if json.Unmarshal(result, &rep) == nil {
			return j, rep, nil
		}
	}
	return nil, rep, nil
}

func withTerms(d Doc, texts ...string) Doc {
	d.Terms = search.Terms(texts...)
	return d
}

func older(rep compareReport) string {
	if rep.Old.Name != "" {
		return "the older revision (" + rep.Old.Name + ")"
	}
	return "the older revision"
}

func sheetName(r reportSheet) string {
	if r.Number != "" {
		return "sheet " + r.Number
	}
	if r.Title != "" {
		return "sheet " + r.Title
	}
	return "the older sheet"
}

func blockName(b reportBlock) string {
	if b.Title != "" {
		return "View " + b.Title
	}
	return "A " + BlockTypeWords(b.Type) + " block"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// kindWords spells a change body's kinds as words ("symbol_added" → "symbol
// added") for the full-text terms.
func kindWords(body string) string { return strings.ReplaceAll(body, "_", " ") }
