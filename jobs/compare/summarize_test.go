package compare

import (
	"testing"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/overlayjson"
	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

// Two newer blocks that overlap (the revision's plan took the notes in) each
// find the change in their common part: the report lists it once, in the
// smaller block's overlay, and counts it once.
func TestFillReportCountsAChangeOfOverlappingBlocksOnce(t *testing.T) {
	box := func(x0, y0, x1, y1 float64) geom.Box { return geom.Box{XMin: x0, YMin: y0, XMax: x1, YMax: y1} }
	plan := engine.ReportOverlay{Old: engine.ReportBlock{BlockID: "a1"}, New: engine.ReportBlock{BlockID: "b1", Bounds: box(100, 100, 5000, 4000)}}
	notes := engine.ReportOverlay{Old: engine.ReportBlock{BlockID: "a2"}, New: engine.ReportBlock{BlockID: "b2", Bounds: box(3000, 2000, 4200, 3000)}}
	line := overlayjson.Change{Kind: engine.KindModified, Category: "text", Description: "CODE → CODES", Severity: engine.SeverityModerate}
	inPlan, inNotes := line, line
	inPlan.ID, inPlan.Bounds = "chg_p1", box(3000-100+110, 2000-100+150, 3000-100+580, 2000-100+199) // the same sheet place
	inNotes.ID, inNotes.Bounds = "chg_n1", box(110, 150, 580, 199)
	other := overlayjson.Change{ID: "chg_p2", Kind: engine.KindAdded, Category: "symbol", Description: "1 × OUTLET added",
		Bounds: box(200, 200, 240, 240), Severity: engine.SeverityMinor}
	elsewhere := line // the same words elsewhere on the sheet: another change
	elsewhere.ID, elsewhere.Bounds = "chg_p3", box(200, 3000, 670, 3049)
	ovs := []*ent.Overlay{
		{ID: "ovl_plan", BlockAID: "a1", BlockBID: "b1", Registered: true, Changes: []overlayjson.Change{inPlan, other, elsewhere}},
		{ID: "ovl_notes", BlockAID: "a2", BlockBID: "b2", Registered: true, Changes: []overlayjson.Change{inNotes}},
	}
	rep := fillReport(engine.Report{Pairs: []engine.ReportSheetPair{{Overlays: []engine.ReportOverlay{plan, notes}}}}, true, ovs, nil)
	got := rep.Pairs[0].Overlays
	if len(got) != 2 || len(got[0].Changes) != 2 || len(got[1].Changes) != 1 || got[1].Changes[0].ID != "chg_n1" {
		t.Fatalf("overlays' changes %+v", got)
	}
	if got[0].Changes[0].ID != "chg_p2" || got[0].Changes[1].ID != "chg_p3" || len(got[0].Warnings) != 1 {
		t.Errorf("plan overlay %+v", got[0])
	}
	if rep.ByCategory["text"] != 2 || rep.ByCategory["symbol"] != 1 || rep.ByKind[engine.KindModified] != 2 {
		t.Errorf("counts %v %v", rep.ByCategory, rep.ByKind)
	}
}
