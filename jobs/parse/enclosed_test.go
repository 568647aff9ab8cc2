package parse

import (
	"image"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
)

// A legend drawn inside a plan's frame is left out of the plan's search:
// its box, moved into the plan's pixels, is cleared and the detections
// centred in it are dropped; a block beside the plan, one only partly
// inside it and one as large as most of the plan are not.
func TestEnclosedBlocksLeftOut(t *testing.T) {
	view := geom.Box{XMin: 100.5, YMin: 200.2, XMax: 1100, YMax: 1200}
	legend := geom.Box{XMin: 800, YMin: 300, XMax: 1000, YMax: 700}
	got := enclosedIn(view, []geom.Box{
		legend,
		{XMin: 1200, YMin: 300, XMax: 1400, YMax: 500},  // beside
		{XMin: 1000, YMin: 900, XMax: 1200, YMax: 1100}, // half inside
		{XMin: 150, YMin: 250, XMax: 1050, YMax: 1150},  // most of the view
	})
	want := legend.Translate(-100, -200)
	if len(got) != 1 || got[0] != want {
		t.Fatalf("enclosed %v, want [%v]", got, want)
	}
	img := image.NewGray(image.Rect(0, 0, 1010, 1010))
	clearBoxes(img, got, image.Pt(5, 5))
	for _, c := range []struct {
		x, y  int
		paper bool
	}{{705, 105, true}, {904, 504, true}, {704, 104, false}, {905, 300, false}, {600, 300, false}} {
		if v := img.GrayAt(c.x, c.y).Y; (v == 255) != c.paper {
			t.Errorf("pixel %d,%d is %d", c.x, c.y, v)
		}
	}
	dets := outsideBoxes([]symbols.Detection{
		{Label: "in", Box: geom.Box{XMin: 750, YMin: 150, XMax: 790, YMax: 190}},
		{Label: "out", Box: geom.Box{XMin: 100, YMin: 150, XMax: 140, YMax: 190}},
		{Label: "edge", Box: geom.Box{XMin: 680, YMin: 150, XMax: 710, YMax: 190}}, // centred outside
	}, got)
	if len(dets) != 2 || dets[0].Label != "out" || dets[1].Label != "edge" {
		t.Errorf("kept %v", dets)
	}
}
