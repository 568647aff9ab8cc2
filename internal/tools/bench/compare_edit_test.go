package bench

import (
	"path/filepath"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
)

// TestReprintPDFEdits: the edited reprint renders as the plain reprint
// does but for new ink inside each recorded edit box (turned into the
// rendered page's pixels), and none elsewhere.
func TestReprintPDFEdits(t *testing.T) {
	in, dir := synthSheetPDF(t, 5)
	plain, edited := filepath.Join(dir, "plain.pdf"), filepath.Join(dir, "edited.pdf")
	if edits, err := reprintPDF(in, plain, 0.97, 9, false); err != nil || len(edits) != 0 {
		t.Fatalf("plain reprint: %v, %d edits", err, len(edits))
	}
	edits, err := reprintPDF(in, edited, 0.97, 9, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != len(editSpots) {
		t.Fatalf("%d edits, want %d", len(edits), len(editSpots))
	}
	const dpi = render.DefaultDPI
	a, err := loadRaster(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadRaster(edited)
	if err != nil {
		t.Fatal(err)
	}
	if a.Bounds() != b.Bounds() {
		t.Fatalf("edited page %v, plain %v", b.Bounds(), a.Bounds())
	}
	boxes := make([]geom.Box, len(edits))
	for i, e := range edits {
		boxes[i] = e.Pixels(dpi)
		if e.Page != 1 || !boxes[i].Valid() || boxes[i].XMin < 0 || boxes[i].YMin < 0 ||
			boxes[i].XMax > float64(b.Rect.Dx()) || boxes[i].YMax > float64(b.Rect.Dy()) {
			t.Fatalf("edit %d: page %d box %v outside the %v page", i, e.Page, boxes[i], b.Rect)
		}
	}
	added := make([]int, len(edits))
	stray := 0
	for y := 0; y < b.Rect.Dy(); y++ {
		for x := 0; x < b.Rect.Dx(); x++ {
			if int(a.GrayAt(x, y).Y)-int(b.GrayAt(x, y).Y) < 96 { // no new ink
				continue
			}
			in := false
			for i, bx := range boxes {
				// a pixel of margin for anti-aliasing
				if float64(x) >= bx.XMin-1 && float64(x) < bx.XMax+1 && float64(y) >= bx.YMin-1 && float64(y) < bx.YMax+1 {
					added[i]++
					in = true
				}
			}
			if !in {
				stray++
			}
		}
	}
	for i, n := range added {
		// the box's outline alone is ~2×(w+h) pixels
		if min := int(boxes[i].Width() + boxes[i].Height()); n < min {
			t.Errorf("edit %d at %v: %d new ink pixels, want ≥ %d", i, boxes[i], n, min)
		}
	}
	if stray > 0 {
		t.Errorf("%d new ink pixels outside the edit boxes", stray)
	}
}

// TestEditPixels: user-space boxes to the rendered page's pixels, upright
// and turned.
func TestEditPixels(t *testing.T) {
	e := pdfEdit{Box: *types.NewRectangle(110, 150, 130, 190), Visible: *types.NewRectangle(100, 100, 400, 300)}
	for _, c := range []struct {
		rotate int
		want   geom.Box
	}{
		{0, geom.Box{XMin: 10, YMin: 110, XMax: 30, YMax: 150}},
		{90, geom.Box{XMin: 50, YMin: 10, XMax: 90, YMax: 30}},
		{180, geom.Box{XMin: 270, YMin: 50, XMax: 290, YMax: 90}},
		{-90, geom.Box{XMin: 110, YMin: 270, XMax: 150, YMax: 290}},
	} {
		e.Rotate = c.rotate
		if got := e.Pixels(144); got != (geom.Box{XMin: 2 * c.want.XMin, YMin: 2 * c.want.YMin, XMax: 2 * c.want.XMax, YMax: 2 * c.want.YMax}) {
			t.Errorf("rotate %d: %v, want 2 × %v", c.rotate, got, c.want)
		}
	}
}

// TestScoreEdits: an edit is found by an overlapping change of any kind on
// its page; changes on no edit, or on another page, are the others.
func TestScoreEdits(t *testing.T) {
	vis := *types.NewRectangle(0, 0, 720, 360)
	edits := []pdfEdit{
		{Page: 1, Label: "EDIT 1", Box: *types.NewRectangle(72, 216, 144, 288), Visible: vis}, // px [100,100 100×100] at 100 DPI
		{Page: 1, Label: "EDIT 2", Box: *types.NewRectangle(360, 72, 432, 144), Visible: vis}, // px [500,300 100×100]
		{Page: 2, Label: "EDIT 1", Box: *types.NewRectangle(72, 216, 144, 288), Visible: vis},
	}
	ch := func(sheet int, kind string, b geom.Box) pageChange {
		return pageChange{ReportChange: compare.ReportChange{Change: compare.Change{Kind: kind}}, page: b, sheet: sheet}
	}
	changes := []pageChange{
		ch(1, "added", geom.Box{XMin: 105, YMin: 95, XMax: 205, YMax: 190}),     // edit 1 (IoU ≥ 0.3)
		ch(1, "modified", geom.Box{XMin: 480, YMin: 280, XMax: 900, YMax: 700}), // contains edit 2
		ch(1, "removed", geom.Box{XMin: 800, YMin: 10, XMax: 840, YMax: 40}),    // on no edit
		ch(2, "added", geom.Box{XMin: 500, YMin: 300, XMax: 600, YMax: 400}),    // edit 2's place, but page 2
	}
	s := scoreEdits("set", edits, 100, changes)
	if s.Total != 3 || s.Found != 2 || s.Other != 2 {
		t.Errorf("found %d of %d, %d other; want 2 of 3, 2 other", s.Found, s.Total, s.Other)
	}
	if len(s.Misses) != 1 || len(s.Extras) != 2 {
		t.Errorf("misses %q, extras %q", s.Misses, s.Extras)
	}
}

// TestAddedBlocks: a block of the newer sheet matching none of the older's
// is an added change on its sheet, and finds the edit it covers.
func TestAddedBlocks(t *testing.T) {
	var ran CompareRan
	ran.Report.Pairs = []compare.ReportSheetPair{
		{New: compare.ReportSheet{Page: 1}},
		{New: compare.ReportSheet{Page: 2}, BlocksAdded: []compare.ReportBlock{{Type: "Detail", Bounds: geom.Box{XMin: 95, YMin: 98, XMax: 205, YMax: 204}}}},
	}
	vis := *types.NewRectangle(0, 0, 720, 360)
	edits := []pdfEdit{{Page: 2, Label: "EDIT 1", Box: *types.NewRectangle(72, 216, 144, 288), Visible: vis}}
	added := addedBlocks(ran)
	if len(added) != 1 || added[0].sheet != 2 || added[0].Kind != "added" {
		t.Fatalf("added blocks %+v", added)
	}
	if s := scoreEdits("set", edits, 100, added); s.Found != 1 || s.Other != 0 {
		t.Errorf("found %d of %d, %d other; want 1 of 1, 0 other", s.Found, s.Total, s.Other)
	}
}
