package vecsym

import (
	"math"
	"math/cmplx"
	"testing"

	"github.com/plangraph/plangraph/vision/vector"
)

// capOf is the part of a circle (centre 0, radius r, unit coordinates
// mapped by f) beyond the chord at y: a closed polygon.
func capOf(f func(pt) pt, r, y float64) []pt {
	a0 := math.Asin(y / r) // y < 0: the cap above the chord
	var pts []pt
	for i := 0; i <= 16; i++ {
		a := math.Pi - a0 + (2*math.Pi+2*a0-math.Pi)*float64(i)/16
		pts = append(pts, f(cmplx.Rect(r, a)))
	}
	return append(pts, pts[0])
}

// A switched outlet — a receptacle with the part of its circle beyond one
// bar filled — is found where the plan draws it without the wire its
// legend graphic curves away to the switch and prints its fill grey where
// the legend's is black (lamb's A1.3 DISP receptacle); a plain receptacle
// is not one, nor is the switched outlet a plain one. The legend's wire
// is drawn piece by piece, each a path of its own, as lamb's is.
func TestSwitchedOutletWire(t *testing.T) {
	switched := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		legendReceptacle(b, f, half, turn)
		b.path(filled, capOf(f, 0.6, -0.18))
		prev := f(cmplx.Rect(0.6, -math.Pi/3))
		for i := 1; i <= 12; i++ {
			x := 0.3 + 0.45*float64(i)
			q := f(complex(x, -0.5+0.35*math.Sin(float64(i)/2)))
			b.path(ink, []pt{prev, q})
			prev = q
		}
	}
	shaded := style{vector.Fill, 0.55}
	plan := func(fill bool) shape {
		return func(b *pageBuilder, f func(pt) pt, half, turn float64) {
			b.circle(ink, f(0), 0.62*half, 4, false, turn)
			b.path(ink, []pt{f(complex(-0.97, -0.22)), f(complex(0.97, -0.22))})
			b.path(ink, []pt{f(complex(-0.97, 0.22)), f(complex(0.97, 0.22))})
			if fill {
				b.path(shaded, capOf(f, 0.62, -0.22))
			}
		}
	}
	so := templateOf(t, "SO", switched)
	if so.size > 100 {
		t.Fatalf("the switched outlet's template is %.0f px across: its wire is still in it", so.size)
	}
	ts := []*Template{templateOf(t, "R", legendReceptacle), so}
	b := newPage(2000, 600)
	var ins []placed
	for i, turn := range []float64{0, math.Pi / 2, 0.7, 3.5} {
		c := complex(float64(250+450*i), 150)
		ins = append(ins, placed{"SO", plan(true), c, 30 * []float64{0.9, 1, 1.1, 0.8}[i], turn, i%2 == 1},
			placed{"R", plan(false), c + 300i, 30 * []float64{1, 0.9, 0.8, 1.1}[i], turn, i%2 == 0})
	}
	truth := drawAll(b, ins)
	if c := score(matchPage(t, b, ts), truth); c.TP != len(truth) || c.FP != 0 {
		t.Errorf("%d receptacles, half of them switched: TP %d FP %d FN %d", len(truth), c.TP, c.FP, c.FN)
	}
}

// A line from a circle that ends on another mark — a junction box's stub
// to its bar, drawn long — is the symbol's, not a wire.
func TestStubToBarKept(t *testing.T) {
	jb := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(complex(0.6, 0)), 0.4*half, 4, false, turn)
		b.path(ink, []pt{f(complex(0.2, 0)), f(complex(-1, 0))})
		b.path(ink, []pt{f(complex(-1, -0.3)), f(complex(-1, 0.3))})
	}
	tm := templateOf(t, "JB", jb)
	for _, s := range tm.m.segs {
		if s.length > 30 {
			return
		}
	}
	t.Errorf("the stub was dropped: %d segments left", len(tm.m.segs))
}
