package vecsym

import (
	"math"
	"testing"
)

// outlet: a socket outlet drawn as a stem, a half circle on one side of it
// and two arms meeting at its middle on the other (the arms' tips touch
// the wall it is set on).
func outlet(b *pageBuilder, f func(pt) pt, half, turn float64) {
	b.path(ink, []pt{f(complex(0, -0.95)), f(complex(0, 0.95))})
	b.arc(ink, f(0), 0.8*half, turn-math.Pi/2, turn+math.Pi/2, 4, false, false)
	b.path(ink, []pt{f(complex(-0.8, -0.75)), f(0), f(complex(-0.8, 0.75))})
}

// piecewise draws the line from a to b as touching pieces of length step:
// a wall outline drawn cell by cell (each cell its own rectangle), a line
// split wherever others meet it.
func piecewise(b *pageBuilder, a, c pt, step float64) {
	n := int(math.Ceil(dist(a, c) / step))
	for i := 0; i < n; i++ {
		b.path(ink, []pt{a + (c-a)*complex(float64(i)/float64(n), 0), a + (c-a)*complex(float64(i+1)/float64(n), 0)})
	}
}

// A wall drawn cell by cell, its outline a line of touching pieces, passes
// the outlets set against it as a whole line does: it is the wall's, not
// a part of the outlet, so the outlets against it are found as those
// against a wall drawn whole. Lines in pieces that run on from a symbol
// still count against it, and a simple symbol (an L) is told from the
// linework about it by all of it: an L at the corner of a rectangle drawn
// in pieces, or where lines drawn in pieces cross, is not an L.
func TestWallDrawnInPieces(t *testing.T) {
	ell := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.path(ink, []pt{f(complex(-1, -1)), f(complex(-1, 1)), f(complex(1, 1))})
	}
	ts := []*Template{templateOf(t, "O", outlet), templateOf(t, "CG", ell)}
	b := newPage(1600, 900)
	var ins []placed
	for i, y := range []float64{150, 400, 650} {
		// the outlet's arms touch the wall's outline, three strokes a
		// fraction of a pixel apart, in cells 12 px long
		x := 300 + 400*float64(i)
		ins = append(ins, placed{"O", outlet, complex(x, y), 15, 0, false})
		for _, dx := range []float64{-0.5, 0, 0.5} {
			w := x - 0.8*15 + dx
			piecewise(b, complex(w, y-300), complex(w, y+300), 12)
			piecewise(b, complex(w-20, y-300), complex(w-20, y+300), 12)
		}
	}
	truth := drawAll(b, ins)
	// a rectangle drawn in pieces: corners, none of them an L alone
	for _, s := range [][2]pt{{complex(1300, 100), complex(1550, 100)}, {complex(1550, 100), complex(1550, 400)},
		{complex(1550, 400), complex(1300, 400)}, {complex(1300, 400), complex(1300, 100)}} {
		piecewise(b, s[0], s[1], 12)
	}
	// an L's lines at a corner where the lines drawn in pieces cross and
	// run on: a corner of the linework, not an L
	for _, s := range [][2]pt{{complex(1300, 600), complex(1550, 600)}, {complex(1320, 450), complex(1320, 850)},
		{complex(1310, 620), complex(1550, 620)}} {
		piecewise(b, s[0], s[1], 12)
	}
	dets := matchPage(t, b, ts)
	if c := score(dets, truth); c.TP != 3 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d: %+v", c.TP, c.FP, c.FN, dets)
	}
}

// A neighbour drawn against a symbol — a switch's filled dot touching an
// outlet's stem, drawn as thin filled slivers as some CAD programs export
// a solid fill — is no part of it: a filled area or a closed outline that
// lies outside the symbol's box but for the tolerance does not count
// against it.
func TestFilledNeighbourTouching(t *testing.T) {
	ts := []*Template{templateOf(t, "O", outlet)}
	b := newPage(1200, 600)
	var ins []placed
	for i, x := range []float64{200, 600, 1000} {
		ins = append(ins, placed{"O", outlet, complex(x, 300), 15, 0, false})
		// the dot below the stem's lower end (y 300+0.95*15), radius 12,
		// as vertical slivers (each a filled triangle of its own)
		c := complex(x+float64(i)*2, 300+0.95*15+12.3)
		for dx := -11.0; dx < 11; dx += 1.5 {
			h := math.Sqrt(144 - dx*dx)
			p, q := c+complex(dx, -h), c+complex(dx+1.5, -math.Sqrt(max(0, 144-(dx+1.5)*(dx+1.5))))
			b.path(filled, []pt{p, q, c + complex(dx+1.5, h), p})
		}
	}
	truth := drawAll(b, ins)
	dets := matchPage(t, b, ts)
	if c := score(dets, truth); c.TP != 3 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d: %+v", c.TP, c.FP, c.FN, dets)
	}
}
