package symbols

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Per-call costs of refinement's and the ring pass's inner loops (the
// profile's top entries): go test -run '^$' -bench . ./vision/symbols

// benchLevel is a level image with ink on about a tenth of its pixels and
// a symbol's worth of centre-line points (300, in template pixels).
func benchLevel() (*fimg, [][2]float64) {
	lv := newF(2000, 2000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range lv.p {
		if rng.IntN(10) == 0 {
			lv.p[i] = rng.Float32()
		}
	}
	var pts [][2]float64
	for i := 0; i < 300; i++ {
		a := float64(i) / 300 * 2 * math.Pi
		pts = append(pts, [2]float64{40 * math.Cos(a), 30 * math.Sin(3*a)})
	}
	return lv, pts
}

func BenchmarkSumBilinear(b *testing.B) {
	lv, pts := benchLevel()
	p := pose{cx: 1000.3, cy: 999.7, angle: 0.3, scale: 1.1, flip: true}
	pl := p.at(0.5)
	s := 0.0
	for b.Loop() {
		s += sumBilinear(lv, pl, pts)
	}
	_ = s
}

func BenchmarkHarmonics(b *testing.B) {
	lv, _ := benchLevel()
	for b.Loop() {
		for i := 0; i < 9; i++ {
			_ = harmonics(lv, 1000+i, 1000, 17)
		}
	}
}

// BenchmarkInkBitsHarmonics is BenchmarkHarmonics as the ring pass reads
// them, stepping over paper.
func BenchmarkInkBitsHarmonics(b *testing.B) {
	lv, _ := benchLevel()
	ink := newInkBits(lv)
	for b.Loop() {
		for i := 0; i < 9; i++ {
			_ = ink.harmonics(1000+i, 1000, 17)
		}
	}
}

func BenchmarkSplat(b *testing.B) {
	_, pts := benchLevel()
	dst := newF(200, 200)
	p := pose{cx: 100.3, cy: 99.7, angle: 0.3, scale: 1.1, flip: true}
	for b.Loop() {
		splat(dst, pts, p, 1, 2.1)
	}
}
