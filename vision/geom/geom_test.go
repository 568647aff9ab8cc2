package geom

import (
	"math"
	"testing"
)

func TestClipSegment(t *testing.T) {
	b := Box{XMin: 0, YMin: 0, XMax: 10, YMax: 10}
	for _, c := range []struct {
		ax, ay, bx, by float64
		t0, t1         float64
		ok             bool
	}{
		{2, 2, 8, 8, 0, 1, true},              // inside
		{-10, 5, 20, 5, 1. / 3, 2. / 3, true}, // across
		{5, 5, 5, 20, 0, 1. / 3, true},        // out of one side
		{-5, -5, -1, 20, 0, 0, false},         // beside
		{10, -5, 10, 5, 0.5, 1, true},         // along an edge
		{11, 0, 11, 10, 0, 0, false},          // parallel, outside
		{-2, 2, 2, -2, 0.5, 0.5, true},        // touching a corner
		{-2, 4, 4, -2, 1. / 3, 2. / 3, true},  // across a corner
		{3, 3, 3, 3, 0, 1, true},              // a point inside
		{12, 3, 12, 3, 0, 0, false},           // a point outside
	} {
		t0, t1, ok := b.ClipSegment(c.ax, c.ay, c.bx, c.by)
		if ok != c.ok || ok && (math.Abs(t0-c.t0) > 1e-12 || math.Abs(t1-c.t1) > 1e-12) {
			t.Errorf("(%g,%g)–(%g,%g): %g %g %v, want %g %g %v", c.ax, c.ay, c.bx, c.by, t0, t1, ok, c.t0, c.t1, c.ok)
		}
	}
}
