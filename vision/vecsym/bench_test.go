package vecsym

import (
	"context"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/plangraph/plangraph/vision/vector"
)

// BenchmarkDense searches 10 symbols (one drawn 50 times) on a plan of
// 300,000 short random strokes, 10000×7000 px: the cost of a dense sheet,
// where most straight marks are anchors' candidates.
func BenchmarkDense(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	pb := newPage(10000, 7000)
	var ins []placed
	for i := 0; i < 50; i++ {
		ins = append(ins, placed{"R", receptacle, complex(200+float64(i%10)*950, 300+float64(i/10)*1300), 30 + float64(i%5)*5, float64(i), i%2 == 0})
	}
	for n := 0; n < 300000; {
		a := complex(r.Float64()*10000, r.Float64()*7000)
		clear := true
		for _, in := range ins { // the strokes keep off the symbols
			if cmplx.Abs(a-in.c) < 3*in.half+70 {
				clear = false
				break
			}
		}
		if clear {
			pb.path(ink, []pt{a, a + cmplx.Rect(10+r.Float64()*60, r.Float64()*6.3)})
			n++
		}
	}
	drawAll(pb, ins)
	var ts []*Template
	for i := 0; i < 10; i++ {
		ts = append(ts, templateOf(b, "R", receptacle))
	}
	d := NewDrawing(pb.pg, vector.Rect{X1: 10000, Y1: 7000})
	b.ResetTimer()
	for b.Loop() {
		dets, err := Match(context.Background(), d, ts, Options{})
		if err != nil || len(dets) < 45 {
			b.Fatalf("%d detections, %v", len(dets), err)
		}
	}
}
