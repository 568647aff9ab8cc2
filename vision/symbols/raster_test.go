package symbols

import (
	"math/rand/v2"
	"testing"
)

// TestLevelPassesMatchDefinitions: the blur, the row prefix sums and the
// halving, made in bands of rows on all CPUs and (the blur) without bounds
// tests inside the image, give bit for bit what the one-pixel-at-a-time
// definitions give, edges included.
func TestLevelPassesMatchDefinitions(t *testing.T) {
	lv := newF(601, 497) // large enough to be made in bands (vision/par)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range lv.p {
		if rng.IntN(4) == 0 {
			lv.p[i] = rng.Float32()
		}
	}
	blur := box3(lv)
	for y := 0; y < lv.h; y++ {
		for x := 0; x < lv.w; x++ {
			var s float32
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					s += lv.at(x+dx, y+dy)
				}
			}
			if got := blur.p[y*lv.w+x]; got != s/9 {
				t.Fatalf("box3 at %d,%d: %v, want %v", x, y, got, s/9)
			}
		}
	}
	sums := prefixSums(lv)
	w1 := lv.w + 1
	for y := 0; y < lv.h; y++ {
		var a, b float32
		for x := 0; x < lv.w; x++ {
			v := lv.p[y*lv.w+x]
			a += v
			b += v * v
			if sums.s1[y*w1+x+1] != a || sums.s2[y*w1+x+1] != b || sums.s1[y*w1] != 0 {
				t.Fatalf("prefix sums at %d,%d differ", x, y)
			}
		}
	}
	half := lv.halve()
	if half.w != 301 || half.h != 249 {
		t.Fatalf("halved to %d×%d", half.w, half.h)
	}
	for y := 0; y < half.h; y++ {
		for x := 0; x < half.w; x++ {
			x0, y0, x1, y1 := 2*x, 2*y, min(2*x+1, lv.w-1), min(2*y+1, lv.h-1)
			want := (lv.p[y0*lv.w+x0] + lv.p[y0*lv.w+x1] + lv.p[y1*lv.w+x0] + lv.p[y1*lv.w+x1]) / 4
			if half.p[y*half.w+x] != want {
				t.Fatalf("halve at %d,%d: %v, want %v", x, y, half.p[y*half.w+x], want)
			}
		}
	}
}
