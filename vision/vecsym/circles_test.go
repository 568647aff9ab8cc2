package vecsym

import (
	"math"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
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

// legendReceptacle is lamb's legend duplex receptacle: its circle drawn as
// two half circles, its bars a little below the circle's middle.
func legendReceptacle(b *pageBuilder, f func(pt) pt, half, turn float64) {
	c := f(0)
	b.arcPath(ink, c, 0.6*half, turn, turn+math.Pi, 2)
	b.arcPath(ink, c, 0.6*half, turn+math.Pi, turn+2*math.Pi, 2)
	b.path(ink, []pt{f(complex(-1, -0.18)), f(complex(1, -0.18))})
	b.path(ink, []pt{f(complex(-1, 0.26)), f(complex(1, 0.26))})
}

// A legend receptacle whose circle is two half circles, its bars drawn a
// little below the circle's middle, is found where the plan draws the
// circle whole and the symbol with other proportions — bars centred, 6 %
// shorter beside the circle (lamb's A1.3 against its legend): the circle
// fixes the pose, which the bars alone would scale and place wrongly.
func TestCircleOfHalves(t *testing.T) {
	plan := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.62*half, 4, false, turn)
		b.path(ink, []pt{f(complex(-0.97, -0.22)), f(complex(0.97, -0.22))})
		b.path(ink, []pt{f(complex(-0.97, 0.22)), f(complex(0.97, 0.22))})
	}
	ts := []*Template{templateOf(t, "R", legendReceptacle)}
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

// A downlight — a circle in a square — drawn in the legend with its circle
// inside the square's sides by about a pen's width, is found where the
// plan draws the circle touching the sides, with the fixture's type number
// written in the circle and a wire leaving a side askew (lamb's A1.3): the
// lines about the circle give the scale, the circle is met within a pen's
// width, the number is the instance's tag and the wire is attached. A
// square of a grid whose lines run on from its sides is not a downlight.
func TestDownlightInSquare(t *testing.T) {
	square := func(b *pageBuilder, f func(pt) pt) {
		for _, s := range [][2]pt{{-1 - 1i, 1 - 1i}, {1 - 1i, 1 + 1i}, {1 + 1i, -1 + 1i}, {-1 + 1i, -1 - 1i}} {
			b.path(ink, []pt{f(s[0]), f(s[1])})
		}
	}
	legend := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		square(b, f)
		b.circle(ink, f(0), 0.887*half, 4, false, turn)
	}
	plan := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		square(b, f)
		b.circle(ink, f(0), half, 4, false, turn)
		b.glyph('0', f(-0.22), 0.6*half, turn)
		b.glyph('2', f(0.22), 0.6*half, turn)
		b.path(ink, []pt{f(1), f(complex(1.8, -1.5)), f(complex(2.6, -2.2))}) // the wire
	}
	pens := func(pg *vector.Page) {
		for i := range pg.Paths {
			pg.Paths[i].Width = 3.5
		}
	}
	lb := newPage(200, 200)
	legend(lb, place(complex(100, 100), 30, 0, false), 30, 0)
	pens(lb.pg)
	tm, err := NewTemplate("DL", lb.pg, vector.Rect{X0: 60, Y0: 60, X1: 140, Y1: 140})
	if err != nil {
		t.Fatal(err)
	}
	b := newPage(2000, 600)
	var ins []placed
	for i, turn := range []float64{0, math.Pi / 2, math.Pi, 3 * math.Pi / 2} {
		ins = append(ins, placed{"DL", plan, complex(float64(250+400*i), 250), 33, turn, false})
	}
	truth := drawAll(b, ins)
	// truth is the symbol's box, not its wire's
	for i := range truth {
		c := ins[i].c
		truth[i].Box = geom.Box{XMin: real(c) - 33, YMin: imag(c) - 33, XMax: real(c) + 33, YMax: imag(c) + 33}
	}
	// a grid of squares the downlight's size
	for x := 100.0; x <= 1900; x += 66 {
		b.path(ink, []pt{complex(x, 480), complex(x, 590)})
	}
	for _, y := range []float64{480, 546} {
		b.path(ink, []pt{complex(100, y), complex(1900, y)})
	}
	pens(b.pg)
	if c := score(matchPage(t, b, []*Template{tm}), truth); c.TP != len(truth) || c.FP != 0 {
		t.Errorf("%d downlights: TP %d FP %d FN %d", len(truth), c.TP, c.FP, c.FN)
	}
}
