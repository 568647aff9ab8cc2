package compare

import (
	"image"
	"math"
	"testing"

	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

// TestCutBlocksTurnedLayout: the newer sheet is the older turned a quarter
// clockwise, and its layout cut the page otherwise: the plan alike, the
// general notes at another line (the title block's top swallowed into the
// notes), the title block shorter. The plan is compared as it is; the
// notes and the title block are compared with the older sheet cut at their
// places; a view the newer sheet drew where the older had nothing stays
// added, and nothing reads removed.
func TestCutBlocksTurnedLayout(t *testing.T) {
	const sw, sh = 3000.0, 2000.0 // the older sheet
	turn := engine.Transform{Scale: 1, RotationDeg: 90, Tx: sh}
	old := []BlockInfo{
		{ID: "plan", Type: "Plan", Box: geom.Box{XMin: 100, YMin: 100, XMax: 2400, YMax: 1900}},
		{ID: "notes", Type: "GeneralNotes", Box: geom.Box{XMin: 2500, YMin: 100, XMax: 2900, YMax: 1300}},
		{ID: "tb", Type: "TitleBlock", Box: geom.Box{XMin: 2500, YMin: 1350, XMax: 2900, YMax: 1900}},
	}
	on := func(b geom.Box) geom.Box { return turn.ApplyBox(b) }
	new := []BlockInfo{
		{ID: "plan'", Type: "Plan", Box: on(old[0].Box)},
		{ID: "notes'", Type: "GeneralNotes", Box: on(geom.Box{XMin: 2500, YMin: 100, XMax: 2900, YMax: 1600})},
		{ID: "tb'", Type: "TitleBlock", Box: on(geom.Box{XMin: 2500, YMin: 1620, XMax: 2900, YMax: 1900})},
		{ID: "detail'", Type: "Detail", Box: geom.Box{XMin: 50, YMin: 2920, XMax: 400, YMax: 2990}},
	}
	for i := range old {
		old[i].SheetW, old[i].SheetH = sw, sh
	}
	for i := range new {
		new[i].SheetW, new[i].SheetH = sh, sw
	}
	ps, added, removed := PairBlocksIn(old, new, turn)
	pairs, added, removed := CutBlocksIn(old, new, turn, ps, added, removed, int(sw), int(sh))
	got := map[string]FramedPair{}
	for _, p := range pairs {
		got[p.New.ID] = p
	}
	if p, ok := got["plan'"]; !ok || p.Old.ID != "plan" || p.CutA != nil {
		t.Errorf("plan: %+v, want paired with the older plan, not cut", p)
	}
	for _, id := range []string{"notes'", "tb'"} {
		p, ok := got[id]
		if !ok || p.CutA == nil {
			t.Errorf("%s: %+v, want compared with a cut of the older sheet", id, p)
			continue
		}
		// the cut holds the newer block's place, padded, within the sheet
		place := turn.Inverse().ApplyBox(new[slicesIndex(new, id)].Box)
		r := *p.CutA
		if float64(r.Min.X) > place.XMin || float64(r.Min.Y) > place.YMin || float64(r.Max.X) < place.XMax ||
			float64(r.Max.Y) < place.YMax || !r.In(image.Rect(0, 0, int(sw), int(sh))) {
			t.Errorf("%s: cut %v does not hold its place %+v within the sheet", id, r, place)
		}
	}
	if p := got["tb'"]; p.Old.ID != "tb" {
		t.Errorf("title block cut named after %q, want the older title block", p.Old.ID)
	}
	if len(added) != 1 || added[0].ID != "detail'" {
		t.Errorf("added %v, want the new detail only", blockIDs(added))
	}
	if len(removed) != 0 {
		t.Errorf("removed %v, want none (compared within the cuts)", blockIDs(removed))
	}
}

func slicesIndex(bs []BlockInfo, id string) int {
	for i, b := range bs {
		if b.ID == id {
			return i
		}
	}
	return -1
}

func blockIDs(bs []BlockInfo) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return out
}

// TestPairFrameTransforms: the prior of a pair and the restatement of a
// cut's transform for the older block's pixels put every sheet point where
// the sheets' transform does.
func TestPairFrameTransforms(t *testing.T) {
	sheet := engine.Transform{Scale: 0.93, RotationDeg: 91.5, Tx: 2100.5, Ty: -40.25}
	cutAt, blockAt, bAt := image.Pt(1200, 300), image.Pt(1250, 410), image.Pt(700, 1100)
	prior := PairPrior(sheet, cutAt, bAt)
	block := ShiftSource(prior, cutAt, blockAt)
	for _, p := range [][2]float64{{1300, 500}, {1250, 410}, {1900.5, 777.25}} {
		wx, wy := sheet.Apply(p[0], p[1])
		wx, wy = wx-float64(bAt.X), wy-float64(bAt.Y)
		for _, c := range []struct {
			name string
			t    engine.Transform
			at   image.Point
		}{{"cut", prior, cutAt}, {"block", block, blockAt}} {
			x, y := c.t.Apply(p[0]-float64(c.at.X), p[1]-float64(c.at.Y))
			if math.Hypot(x-wx, y-wy) > 1e-6 {
				t.Errorf("%s: sheet point %v lands at (%.3f, %.3f), want (%.3f, %.3f)", c.name, p, x, y, wx, wy)
			}
		}
	}
	back := ShiftSource(block, blockAt, cutAt)
	if math.Abs(back.Tx-prior.Tx) > 1e-6 || math.Abs(back.Ty-prior.Ty) > 1e-6 {
		t.Errorf("restated back %+v, want %+v", back, prior)
	}
}
