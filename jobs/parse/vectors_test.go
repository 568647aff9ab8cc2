package parse

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
)

// Detections of symbols searched as pixels and as geometry overlap when a
// symbol is supplied both ways: the more confident one is kept; within one
// search, its own suppression decided already.
func TestSuppressAcross(t *testing.T) {
	box := func(x float64) geom.Box { return geom.Box{XMin: x, YMin: 0, XMax: x + 10, YMax: 10} }
	dets := []symbols.Detection{
		{Template: 0, Box: box(0), Confidence: 0.7},  // pixels
		{Template: 1, Box: box(1), Confidence: 0.6},  // pixels, overlapping the first: kept (same search)
		{Template: 2, Box: box(0), Confidence: 0.9},  // geometry: beats both
		{Template: 2, Box: box(50), Confidence: 0.8}, // alone
	}
	got := suppressAcross(dets, 2)
	if len(got) != 2 || got[0].Template != 2 || got[0].Box != box(0) || got[1].Box != box(50) {
		t.Errorf("kept %+v", got)
	}
}
