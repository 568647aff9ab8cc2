package search_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/overlayjson"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/vision/geom"
)

// testChanges seeds a revision of three sheets (marked revision 2; the
// fixture's sheets are marked 1) and a completed comparison of it with the
// fixture's drawing, as jobs/compare stores one: a report pairing the first
// two sheets and naming the third added, an analysed overlay with two
// changes on the first and one without changes on the second. (Runs after
// testRevisions: it adds rows.)
func testChanges(t *testing.T, f *fixture) {
	db := f.svc.DB
	ctx := f.ctx
	for _, s := range f.sheets {
		db.Sheet.UpdateOne(s).SetRevision("1").ExecX(ctx)
	}
	if err := f.svc.Index().RebuildDrawing(ctx, f.drawing); err != nil {
		t.Fatal(err)
	}
	d := db.Drawing.Create().SetProjectID(f.project).SetName("set-rev2.pdf").SetStatus("ready").SaveX(ctx)
	var news []*ent.Sheet
	var plans []*ent.Block // the first plan of each new sheet
	for i, old := range f.sheets[1:4] {
		s := db.Sheet.Create().SetProjectID(f.project).SetDrawingID(d.ID).SetPageNumber(i + 1).SetSheetNumber(old.SheetNumber).
			SetSheetNumberNorm(old.SheetNumberNorm).SetTitle(old.Title).SetDiscipline(old.Discipline).SetRevision("REV 02").
			SetWidth(old.Width).SetHeight(old.Height).SaveX(ctx)
		news = append(news, s)
		var plan *ent.Block
		for _, b := range f.blocks[i+1] {
			nb := db.Block.Create().SetProjectID(f.project).SetSheetID(s.ID).SetType(b.Type).SetTitle(b.Title).SetBounds(b.Bounds).SaveX(ctx)
			if plan == nil && b.Type == "Plan" {
				plan = nb
			}
		}
		plans = append(plans, plan)
	}
	oldPlan := func(i int) *ent.Block {
		for _, b := range f.blocks[i+1] {
			if b.Type == "Plan" {
				return b
			}
		}
		t.Fatalf("sheet %d has no plan", i+1)
		return nil
	}
	sheetOf := func(s *ent.Sheet) map[string]any {
		return map[string]any{"sheet_id": s.ID, "number": s.SheetNumber, "title": s.Title, "page": s.PageNumber}
	}
	report := map[string]any{
		"type": "Drawing", "analyzed": true, "has_changes": true,
		"old":          map[string]any{"id": f.drawing, "name": "set.pdf"},
		"new":          map[string]any{"id": d.ID, "name": "set-rev2.pdf"},
		"sheets_added": []any{sheetOf(news[2])},
		"pairs": []any{
			map[string]any{"old": sheetOf(f.sheets[1]), "new": sheetOf(news[0])},
			map[string]any{"old": sheetOf(f.sheets[2]), "new": sheetOf(news[1])},
		},
	}
	res, _ := json.Marshal(report)
	cj := db.Job.Create().SetProjectID(f.project).SetType("compare").SetStatus(job.StatusCompleted).
		SetTargetType(job.TargetTypeDrawing).SetTargetID(d.ID).SetResult(res).SaveX(ctx)
	in := geom.Box{XMin: 10, YMin: 20, XMax: 60, YMax: 80}
	ov := db.Overlay.Create().SetProjectID(f.project).SetJobID(cj.ID).SetBlockAID(oldPlan(0).ID).SetBlockBID(plans[0].ID).
		SetHasChanges(true).SaveX(ctx)
	changes := []overlayjson.Change{
		{ID: overlayjson.ChangeID(ov.ID, 0), Kind: "added", Category: "symbol", Description: "added EXHAUST FAN in room 104", Bounds: in, Severity: "medium", Confidence: 0.9},
		{ID: overlayjson.ChangeID(ov.ID, 1), Kind: "modified", Category: "text", Description: "room 105 renamed from STORAGE to OFFICE", Bounds: in, Severity: "low", Confidence: 0.8},
	}
	db.Overlay.UpdateOne(ov).SetChanges(changes).ExecX(ctx)
	db.Overlay.Create().SetProjectID(f.project).SetJobID(cj.ID).SetBlockAID(oldPlan(1).ID).SetBlockBID(plans[1].ID).SetHasChanges(true).SaveX(ctx)
	if err := f.svc.Index().RebuildDrawing(ctx, d.ID); err != nil {
		t.Fatal(err)
	}

	a := ask(t, f, "Which sheets changed in revision 2?")
	if a.QuestionType != "changes" || !strings.HasPrefix(a.Answer, "2 sheets") ||
		!strings.Contains(a.Answer, news[0].SheetNumber) || !strings.Contains(a.Answer, "2 changes") ||
		!strings.Contains(a.Answer, news[2].SheetNumber+" "+news[2].Title+" (added)") ||
		!strings.Contains(a.Answer, "Compared without changes: "+news[1].SheetNumber) {
		t.Errorf("which sheets changed: %q", a.Answer)
	}
	if len(a.Sources) != 2 || a.Sources[0].SheetID != news[0].ID && a.Sources[1].SheetID != news[0].ID {
		t.Errorf("which sheets changed: sources %+v", a.Sources)
	}
	for _, src := range a.Sources {
		if src.SourceType != "change" || src.SourceID != cj.ID {
			t.Errorf("which sheets changed: source %+v is not a comparison's summary", src)
		}
	}
	// the sheet's newest compared drawing answers; changes cited with their place on the sheet
	a = ask(t, f, "What changed on sheet "+news[0].SheetNumber+"?")
	if a.QuestionType != "changes" || !strings.Contains(a.Answer, "2 changes") ||
		!strings.Contains(a.Answer, "added EXHAUST FAN in room 104") || !strings.Contains(a.Answer, "renamed from STORAGE to OFFICE") {
		t.Errorf("what changed: %q", a.Answer)
	}
	var ids []string
	for _, src := range a.Sources {
		ids = append(ids, src.SourceID)
		if src.SourceID == changes[0].ID {
			want := in.Translate(plans[0].Bounds.XMin, plans[0].Bounds.YMin)
			if src.Bounds == nil || *src.Bounds != want || src.SheetID != news[0].ID {
				t.Errorf("change source %+v, want bounds %+v on sheet %s", src, want, news[0].ID)
			}
		}
	}
	if !slices.Contains(ids, changes[0].ID) || !slices.Contains(ids, changes[1].ID) {
		t.Errorf("what changed: sources %v lack the changes", ids)
	}
	a = ask(t, f, "how many changes on "+news[1].SheetNumber)
	if !strings.Contains(a.Answer, ": 0 changes") || a.Confidence < 0.5 {
		t.Errorf("how many changes on an unchanged sheet: %q", a.Answer)
	}
	a = ask(t, f, "which sheets changed in revision 7?")
	if !strings.Contains(a.Answer, "No sheet") || !strings.Contains(a.Answer, "1, 2") || len(a.Sources) != 0 {
		t.Errorf("an unknown revision: %q", a.Answer)
	}
	a = ask(t, f, "what changed in rev 1")
	if !strings.Contains(a.Answer, "has been compared") || len(a.Sources) != 0 {
		t.Errorf("a revision never compared: %q", a.Answer)
	}
	// search finds changes by their words, and types: [change] keeps only them
	r, err := f.svc.Search(ctx, f.project, search.Input{Query: "exhaust fan added", Types: []string{index.TypeChange}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Hits) == 0 || r.Hits[0].SourceID != changes[0].ID || r.Hits[0].BlockID == nil || *r.Hits[0].BlockID != plans[0].ID {
		t.Errorf("search of a change: %+v", r.Hits)
	}
	// a comparison run again without the second change replaces the rows
	db.Overlay.UpdateOne(ov).SetChanges(changes[:1]).ExecX(ctx)
	if err := f.svc.Index().RebuildSheets(ctx, []string{news[0].ID}); err != nil {
		t.Fatal(err)
	}
	if n, _ := f.svc.Index().Count(ctx, index.Scope{ProjectID: f.project, Types: []string{index.TypeChange}, DrawingID: d.ID}); n != 4 {
		t.Errorf("%d change rows after the rebuild, want 4 (3 sheet summaries, 1 change)", n)
	}
}
