package vecsym

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

// stripedDisc: a filled disc exported as a stack of filled and stroked
// strips a pixel apart (as some CAD exports fill a circle), on a bar.
func stripedDisc(b *pageBuilder, f func(pt) pt, half, turn float64) {
	r := 0.6
	n := int(math.Max(2*r*half, 4))
	for i := 0; i <= n; i++ {
		y := -r + 2*r*float64(i)/float64(n)
		x := math.Sqrt(math.Max(r*r-y*y, 0))
		h := 1 / half // a pixel high
		strip := []pt{f(complex(-x, y)), f(complex(x, y)), f(complex(x, y+h)), f(complex(-x, y+h)), f(complex(-x, y))}
		b.path(filled, strip)
	}
	b.path(ink, []pt{f(complex(-1, 0)), f(complex(-0.7, 0))})
	b.path(ink, []pt{f(complex(0.7, 0)), f(complex(1, 0))})
}

// A template drawn with many marks over one another is looked up by
// groups of samples, and the weight found at any pose — near its
// instances, shifted, scaled and turned a little so that samples fall on
// either side of the tolerance — is the weight found sample by sample.
func TestSampleGroupsAnswerAsSamples(t *testing.T) {
	tm := templateOf(t, "D", stripedDisc)
	if tm.groups == nil || float64(len(tm.groups)) > groupGain*float64(len(tm.pts)) {
		t.Fatalf("%d samples in %d groups", len(tm.pts), len(tm.groups))
	}
	plain := *tm
	plain.groups, plain.members = nil, nil
	b := newPage(1200, 800)
	var ins []placed
	for i := 0; i < 6; i++ {
		ins = append(ins, placed{"D", stripedDisc, complex(float64(150+i*180), 300), 20 + 4*float64(i), 0.4 * float64(i), i%2 == 1})
	}
	truth := drawAll(b, ins)
	for i := 0; i < 60; i++ { // strokes about them
		a := complex(float64(40+i*19), float64(200+(i%7)*30))
		b.path(ink, []pt{a, a + cmplx.Rect(40, float64(i))})
	}
	d := NewDrawing(b.pg, vector.Rect{X1: 1200, Y1: 800})
	sc := &scorer{d: d, seen: make([]uint32, len(d.m.segs))}
	rng := rand.New(rand.NewPCG(3, 4))
	differ, tried := 0, 0
	for _, in := range ins {
		for j := 0; j < 200; j++ {
			k := in.half / 30 * (0.9 + 0.2*rng.Float64())
			turn := in.turn + 0.1*(rng.Float64()-0.5)
			at := in.c + complex(6*(rng.Float64()-0.5), 6*(rng.Float64()-0.5))
			P := poseAt(tm.centre, at, k, turn, in.mirror)
			tol := sc.tol(tm, k)
			budget := 0.6 * tm.weight // deep enough that most poses are scored to the end
			h1, ok1 := sc.coveredWeight(tm, P, tol, budget)
			h2, ok2 := sc.coveredWeight(&plain, P, tol, budget)
			tried++
			if ok1 != ok2 || ok1 && math.Abs(h1-h2) > 1e-6*tm.weight {
				differ++
				if differ <= 3 {
					t.Errorf("pose %v: groups %.3f %v, samples %.3f %v", P, h1, ok1, h2, ok2)
				}
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d poses scored otherwise by groups", differ, tried)
	}
	// and the search finds what it finds sample by sample
	grouped, plainly := matchPage(t, b, []*Template{tm}), matchPage(t, b, []*Template{&plain})
	if c := score(grouped, truth); c.TP < len(truth)-1 || c.FP != 0 || !sameDetections(grouped, plainly) {
		t.Errorf("%d instances: TP %d FP %d FN %d; %d detections, sample by sample %d", len(truth), c.TP, c.FP, c.FN,
			len(grouped), len(plainly))
	}
}

// sameDetections: the same symbols in the same boxes, their confidences
// equal but for rounding.
func sameDetections(a, b []symbols.Detection) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Label != y.Label || x.Box != y.Box || x.Mirrored != y.Mirrored || math.Abs(x.Confidence-y.Confidence) > 1e-9 {
			return false
		}
	}
	return true
}
