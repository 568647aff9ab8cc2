package vecsym

import (
	"math"
	"testing"

	"github.com/plangraph/plangraph/vision/vector"
)

// arcPath adds an open arc of the circle (c, r) from angle a0 to a1 drawn
// as n Bézier curves, as a path of its own.
func (b *pageBuilder) arcPath(st style, c pt, r, a0, a1 float64, n int) {
	b.arc(st, c, r, a0, a1, n, false, false)
}

// A circle drawn as two half circles, each a path of its own, is a whole
// circle too; arcs that leave a gap, or lie on different circles, are not.
func TestJoinCircles(t *testing.T) {
	b := newPage(600, 200)
	b.arcPath(ink, complex(100, 100), 30, 0, math.Pi, 2)
	b.arcPath(ink, complex(100, 100.3), 30.2, math.Pi, 2*math.Pi, 2)
	b.arcPath(ink, complex(300, 100), 30, 0, math.Pi, 2)
	b.arcPath(ink, complex(300, 100), 30, math.Pi+0.4, 2*math.Pi, 2) // a gap of 23°
	b.arcPath(ink, complex(500, 100), 30, 0, math.Pi, 2)
	b.arcPath(ink, complex(500, 100), 20, math.Pi, 2*math.Pi, 2) // another radius
	m := readMarks(b.pg, vector.Rect{X0: 0, Y0: 0, X1: 600, Y1: 200}, clipToRegion)
	var full []arc
	for _, a := range m.arcs {
		if a.full {
			full = append(full, a)
		}
	}
	if len(full) != 1 || dist(full[0].c, complex(100, 100)) > 1 || math.Abs(full[0].r-30) > 0.5 {
		t.Fatalf("whole circles %+v, want one at 100,100 r 30", full)
	}
	if len(m.arcs) != 7 {
		t.Errorf("%d arcs, want the 6 drawn and the circle", len(m.arcs))
	}
}

// A legend receptacle whose circle is two half circles, its bars drawn a
// little below the circle's middle, is found where the plan draws the
// circle whole and the symbol with other proportions — bars centred, 6 %
// shorter beside the circle (lamb's A1.3 against its legend): the circle
// fixes the pose, which the bars alone would scale and place wrongly.
func TestCircleOfHalves(t *testing.T) {
	legend := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		c := f(0)
		b.arcPath(ink, c, 0.6*half, turn, turn+math.Pi, 2)
		b.arcPath(ink, c, 0.6*half, turn+math.Pi, turn+2*math.Pi, 2)
		b.path(ink, []pt{f(complex(-1, -0.18)), f(complex(1, -0.18))})
		b.path(ink, []pt{f(complex(-1, 0.26)), f(complex(1, 0.26))})
	}
	plan := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.62*half, 4, false, turn)
		b.path(ink, []pt{f(complex(-0.97, -0.22)), f(complex(0.97, -0.22))})
		b.path(ink, []pt{f(complex(-0.97, 0.22)), f(complex(0.97, 0.22))})
	}
	ts := []*Template{templateOf(t, "R", legend)}
	if ts[0].circle < 0 {
		t.Fatal("the legend's circle of two halves is no circle")
	}
	b := newPage(2000, 700)
	var ins []placed
	for i, turn := range []float64{0, math.Pi / 2, 0.7, 3.5} {
		ins = append(ins, placed{"R", plan, complex(float64(250+450*i), 250), 30 * []float64{0.9, 1, 1.1, 0.7}[i], turn, i%2 == 1})
	}
	truth := drawAll(b, ins)
	// a wall that the receptacles on the bottom row stand against
	b.path(ink, []pt{complex(100, 570.6), complex(1900, 570.6)})
	for i := range 4 {
		truth = append(truth, drawAll(b, []placed{{"R", plan, complex(float64(250+450*i), 540), 30, math.Pi / 2, false}})...)
	}
	if c := score(matchPage(t, b, ts), truth); c.TP != len(truth) || c.FP != 0 {
		t.Errorf("%d instances: TP %d FP %d FN %d", len(truth), c.TP, c.FP, c.FN)
	}
}
