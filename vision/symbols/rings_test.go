package symbols

import (
	"context"
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveRingPeaks scores one profile at every pixel on its own, the
// definition scanRings computes for many profiles at once.
func naiveRingPeaks(ri *ringImages, q *ringQuery, ringPx []float64) []ringPeak {
	n, w, h := q.n, ri.w, ri.h
	score := make([]float32, w*h)
	for y := n; y < h-n; y++ {
		for x := n; x < w-n; x++ {
			i := y*w + x
			var s1, s2, sp, cov float32
			for k := 0; k < n; k++ {
				a := ri.rings[k][i]
				s1 += a
				s2 += a * a
				sp += a * q.pz[k]
				cov += a * float32(ringPx[k])
			}
			v := float64(s2) - float64(s1)*float64(s1)/float64(n)
			if s1 == 0 || v <= 1e-9 {
				continue
			}
			sc := float64(sp) / (math.Sqrt(v) * q.norm)
			c := float64(cov) / q.area
			r := q.lo / c
			if c > q.lo {
				r = c / max(q.hc, q.lo)
			}
			if r > 1.6 {
				sc -= (r - 1.6) * 0.5
			}
			score[i] = float32(sc)
		}
	}
	var out []ringPeak
	for y := n; y < h-n; y++ {
		for x := n; x < w-n; x++ {
			v := score[y*w+x]
			if float64(v) < q.minScore {
				continue
			}
			peak := true
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if (dx != 0 || dy != 0) && score[(y+dy)*w+x+dx] > v {
						peak = false
					}
				}
			}
			if peak {
				out = append(out, ringPeak{x, y, float64(v)})
			}
		}
	}
	return out
}

// TestScanRingsMatchesNaiveScoring: the banded scan, which shares a pixel's
// ring sums between profiles of as many rings, finds exactly the peaks of
// scoring each profile on its own over ring images of the whole level —
// with ring counts given in any order, bands and chunks that do not divide
// the level, and borders of every width.
func TestScanRingsMatchesNaiveScoring(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	lv := newF(157, 2*ringChunkRows+3*ringBandRows+5)
	// strokes and blobs, so that profiles correlate somewhere
	for i := 0; i < 160; i++ {
		x0, y0 := rng.IntN(lv.w), rng.IntN(lv.h)
		dx, dy := rng.IntN(3)-1, rng.IntN(3)-1
		for s := 0; s < 25; s++ {
			if x, y := x0+s*dx, y0+s*dy; x >= 0 && y >= 0 && x < lv.w && y < lv.h {
				lv.p[y*lv.w+x] = 1
			}
		}
	}
	ri := computeRings(lv, ringCount)
	ringPx := ringPixels(ringCount)
	var qs []*ringQuery
	for _, n := range []int{12, 9, ringCount, 12, 10} {
		p := make([]float64, n)
		for k := range p {
			p[k] = rng.Float64()
		}
		hi := slices.Clone(p)
		hi[0] += 0.5
		q := newRingQuery(p, hi, ringPx[:n], 0.3)
		if q == nil {
			t.Fatal("a random profile came out flat")
		}
		qs = append(qs, q)
	}
	got, err := scanRings(context.Background(), lv, ringCount, qs, ringPx, nil)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i, q := range qs {
		want := naiveRingPeaks(ri, q, ringPx)
		total += len(want)
		if !slices.Equal(got[i], want) {
			t.Errorf("profile %d (%d rings): %d peaks, want %d", i, q.n, len(got[i]), len(want))
		}
	}
	if total == 0 {
		t.Fatal("no peaks at all: the test compares nothing")
	}
}

// TestRenderCacheGivesTheSameCorrelation: refinement's correlation through
// the drawing cache equals drawing the symbol afresh for every pose, over a
// climb-like walk of whole-pixel moves, turns, rescalings, mirror images
// and returns to earlier poses — more poses than the cache holds.
func TestRenderCacheGivesTheSameCorrelation(t *testing.T) {
	img, tmpls, _ := scene(t)
	p, reason := prepare(0, tmpls[0], Options{}, 0)
	if p == nil {
		t.Fatal(reason)
	}
	cov := coverage(img)
	m := &matcher{opt: Options{MinScale: 0.5, MaxScale: 2}, levels: []*fimg{cov}, sw: strokeWidth(cov)}
	var rc renders
	rng := rand.New(rand.NewPCG(3, 4))
	q := pose{cx: 150.25, cy: 140.5, angle: 0.3, scale: 1}
	var seen []pose
	hits := 0
	for i := 0; i < 200; i++ {
		switch rng.IntN(6) {
		case 0, 1:
			q.cx += float64(rng.IntN(5) - 2)
		case 2:
			q.cy += float64(rng.IntN(5) - 2)
		case 3:
			q.angle += 0.05 * float64(rng.IntN(3)-1)
		case 4:
			q.scale *= 1 + 0.03*float64(rng.IntN(3)-1)
		case 5:
			if len(seen) > 0 {
				q = seen[rng.IntN(len(seen))]
			}
			q.flip = rng.IntN(4) == 0
		}
		seen = append(seen, q)
		l := rng.IntN(2)
		qa := q
		qa.cx, qa.cy = q.cx*lf(l), q.cy*lf(l)
		n0 := rc.drawn
		want := m.ncc(m.blurred(l), m.rowSums(l), lf(l), p, qa, nil, nil)
		got := m.ncc(m.blurred(l), m.rowSums(l), lf(l), p, qa, &rc, nil)
		if rc.drawn == n0 {
			hits++
		}
		if got != want {
			t.Fatalf("pose %d %+v level %d: %v through the cache, %v drawn afresh", i, qa, l, got, want)
		}
	}
	if hits == 0 || rc.drawn < maxRenders {
		t.Fatalf("%d drawings served from the cache, %d made: the walk does not test both", hits, rc.drawn)
	}
	t.Logf("%d of 200 drawings served from the cache", hits)
}

// A ceiling diffuser (nested squares, their corners joined) is as heavy on
// every side and along every axis: its first two angular components are
// noise. Normalised and correlated as they were, they passed or failed its
// true centres at random (0.27–0.53 against the 0.4 threshold on a
// synthetic sheet, where tags and lines near it shape the plan's
// components); they now count by their strength, so whatever the plan's
// angular components are, the score holds.
func TestHarmonicsPassASquareSymbolAtAnyAngle(t *testing.T) {
	draw := func(img *image.Gray, cx, cy, deg float64) {
		s, c := math.Sincos(deg * math.Pi / 180)
		at := func(x, y float64) (float64, float64) { return cx + c*x + s*y, cy - s*x + c*y }
		seg := func(x0, y0, x1, y1 float64) {
			a, b := at(x0, y0)
			e, f := at(x1, y1)
			line(img, a, b, e, f, 3)
		}
		for _, r := range []float64{30, 15} {
			seg(-r, -r, r, -r)
			seg(r, -r, r, r)
			seg(r, r, -r, r)
			seg(-r, r, -r, -r)
		}
		for _, d := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			seg(30*d[0], 30*d[1], 15*d[0], 15*d[1])
		}
	}
	tm := canvas(100, 100)
	draw(tm, 49.5, 49.5, 0) // centred on pixel (12, 12) at a quarter
	// at the ring pass's level for it: 42 px of radius at a quarter
	const n = 12
	th := harmonics(coverage(tm).halve().halve(), 12, 12, n)
	if th.strength[1] >= harmonicFlat/2 || th.strength[2] >= harmonicFlat/2 {
		t.Fatalf("the square's angular strengths %.3f, %.3f: not the flat case this tests", th.strength[1], th.strength[2])
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for deg := 0.0; deg < 90; deg += 5 {
		img := canvas(100, 100)
		draw(img, 51.5, 48.5, deg)
		line(img, 70, 88, 84, 88, 3) // a tag beside it
		pd := harmonics(coverage(img).halve().halve(), 12, 12, n)
		v := harmonicScore(pd, th)
		if v < harmonicThreshold {
			t.Errorf("turned %g°: harmonics score %.3f, under %g", deg, v, harmonicThreshold)
		}
		// the plan's angular components replaced by any others
		for i := 1; i < 3; i++ {
			pd.v[i] = [ringCount]float64{}
			for k := range n {
				pd.v[i][k] = rng.NormFloat64()
			}
			zeroMean(pd.v[i][:n])
		}
		if w := harmonicScore(pd, th); math.Abs(w-v) > 0.1 {
			t.Errorf("turned %g°: score %.3f, %.3f with other angular components", deg, v, w)
		}
	}
}

// TestHarmonicsMatchDefinition holds harmonics, which reads each offset's
// ring and angle from a table, to the descriptor computed from its
// definition, pixel by pixel — centres near every edge included.
func TestHarmonicsMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	img := newF(61, 47)
	for i := range img.p {
		if rng.IntN(3) == 0 {
			img.p[i] = rng.Float32()
		}
	}
	naive := func(m *fimg, cx, cy, n int) harmDesc {
		var h harmSums
		for y := 0; y < m.h; y++ {
			for x := 0; x < m.w; x++ {
				dx, dy := float64(x-cx), float64(y-cy)
				d := math.Sqrt(dx*dx + dy*dy)
				k := int(d)
				if k >= n || abs(x-cx) > n || abs(y-cy) > n {
					continue
				}
				h.cnt[k]++
				v := float64(m.p[y*m.w+x])
				if v == 0 || k == 0 {
					continue
				}
				c, s := dx/d, -dy/d
				c2, s2 := c*c-s*s, 2*s*c
				h.sum[k] += v
				h.re1[k] += v * c
				h.im1[k] += v * s
				h.re2[k] += v * c2
				h.im2[k] += v * s2
			}
		}
		return h.desc(n)
	}
	for _, n := range []int{3, 9, ringCount} {
		for _, c := range [][2]int{{0, 0}, {30, 23}, {60, 46}, {2, 40}, {55, 5}, {17, 0}} {
			got, want := harmonics(img, c[0], c[1], n), naive(img, c[0], c[1], n)
			if got.n != want.n || got.strength != want.strength {
				t.Fatalf("n %d at %v: strengths %v, want %v", n, c, got.strength, want.strength)
			}
			for i := range got.v {
				for k := range n {
					if math.Abs(got.v[i][k]-want.v[i][k]) > 1e-12 {
						t.Fatalf("n %d at %v: component %d ring %d %.15g, want %.15g", n, c, i, k, got.v[i][k], want.v[i][k])
					}
				}
			}
		}
	}
}

// TestInkBitsHarmonicsSameBits holds the ring pass's harmonics, which
// step from ink pixel to ink pixel, to harmonics bit for bit: at every
// centre of a sparse image wider than two words of bits, edges included.
func TestInkBitsHarmonicsSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	img := newF(157, 45)
	for i := range img.p {
		if rng.IntN(5) == 0 {
			img.p[i] = rng.Float32()
		}
	}
	ink := newInkBits(img)
	for _, n := range []int{1, 9, ringCount} {
		for cy := 0; cy < img.h; cy++ {
			for cx := 0; cx < img.w; cx++ {
				if got, want := ink.harmonics(cx, cy, n), harmonics(img, cx, cy, n); got != want {
					t.Fatalf("n %d at (%d, %d): %v, want %v", n, cx, cy, got, want)
				}
			}
		}
	}
}

// TestComputeRingsSkipsOnlyPaper holds computeRings, which filters only
// the column tiles with ink in reach, to the rings' definition (the mean
// of the pixels whose distance rounds down to k) at every pixel of a
// level with ink on either side of tile edges and wide stretches of paper.
func TestComputeRingsSkipsOnlyPaper(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	img := newF(3*ringTileCols+40, 50)
	for _, x0 := range []int{ringTileCols - 3*ringCount/2, ringTileCols + 5, 3 * ringTileCols} {
		for y := 10; y < 40; y++ {
			for x := x0; x < x0+ringCount/2 && x < img.w; x++ {
				if rng.IntN(3) == 0 {
					img.p[y*img.w+x] = rng.Float32()
				}
			}
		}
	}
	ri := computeRings(img, ringCount)
	area := ringPixels(ringCount)
	for y := 0; y < img.h; y++ {
		for x := 0; x < img.w; x++ {
			var sum [ringCount]float64
			for dy := -ringCount; dy <= ringCount; dy++ {
				for dx := -ringCount; dx <= ringCount; dx++ {
					k := int(math.Sqrt(float64(dx*dx + dy*dy)))
					xx, yy := x+dx, y+dy
					if k < ringCount && xx >= 0 && yy >= 0 && xx < img.w && yy < img.h {
						sum[k] += float64(img.p[yy*img.w+xx])
					}
				}
			}
			for k := range ringCount {
				want := sum[k] / area[k]
				if got := float64(ri.rings[k][y*img.w+x]); math.Abs(got-want) > 1e-5 {
					t.Fatalf("ring %d at (%d, %d): %g, want %g", k, x, y, got, want)
				}
			}
		}
	}
}

// TestNearBestKeepsEachSymbolsBestScores: a symbol keeps its candidates
// within bestWindow of its own best, whatever another symbol scores.
func TestNearBestKeepsEachSymbolsBestScores(t *testing.T) {
	a, b := &prepared{idx: 0}, &prepared{idx: 1}
	in := []candidate{{t: a, score: 0.97}, {t: a, score: 0.80}, {t: b, score: 0.74}, {t: a, score: 0.76}, {t: b, score: 0.56}, {t: a, score: 0.70}}
	var got []float64
	for _, c := range nearBest(in) {
		got = append(got, c.score)
	}
	if want := []float64{0.97, 0.80, 0.74, 0.56}; !slices.Equal(got, want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
}
