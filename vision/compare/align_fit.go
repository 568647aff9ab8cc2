package compare

import (
	"math"
	"math/rand/v2"
)

// pair is one correspondence: a mark at (ax, ay) in A's block pixels is at
// (bx, by) in B's (continuous frame).
type pair struct{ ax, ay, bx, by float64 }

// fitSimilarity is the least-squares similarity taking the pairs idx of ps
// (all when idx is nil) from A onto B: with A's and B's points centred,
// a = Σ(a·b)/Σ|a|², b = Σ(a×b)/Σ|a|² give scale·cos θ and scale·sin θ.
// ok is false for fewer than two distinct points.
func fitSimilarity(ps []pair, idx []int) (Transform, bool) {
	each := func(fn func(p pair)) {
		if idx == nil {
			for _, p := range ps {
				fn(p)
			}
			return
		}
		for _, i := range idx {
			fn(ps[i])
		}
	}
	var n, max_, may, mbx, mby float64
	each(func(p pair) { n++; max_ += p.ax; may += p.ay; mbx += p.bx; mby += p.by })
	if n < 2 {
		return Transform{}, false
	}
	max_, may, mbx, mby = max_/n, may/n, mbx/n, mby/n
	var saa, sc, ss float64
	each(func(p pair) {
		ax, ay, bx, by := p.ax-max_, p.ay-may, p.bx-mbx, p.by-mby
		saa += ax*ax + ay*ay
		sc += ax*bx + ay*by
		ss += ax*by - ay*bx
	})
	if saa < 1e-9 {
		return Transform{}, false
	}
	a, b := sc/saa, ss/saa
	t := Transform{Scale: math.Hypot(a, b), RotationDeg: math.Atan2(b, a) * 180 / math.Pi}
	t.Tx = mbx - (a*max_ - b*may)
	t.Ty = mby - (b*max_ + a*may)
	return t, true
}

// pairError is how far, in B's pixels, the map m (a similarity as an
// affine map) puts p's A point from its B point.
func pairError(m affine, p pair) float64 {
	x, y := m.apply(p.ax, p.ay)
	return math.Hypot(x-p.bx, y-p.by)
}

// fitResult is a robust fit: the transform, the inliers' indexes and
// their RMS error (B's pixels).
type fitResult struct {
	t        Transform
	inliers  []int
	residual float64
}

// ransacSimilarity fits a similarity to pairs of which many may be wrong
// (a patch on changed content, a mark matched to its neighbour): it draws
// pairs of pairs (seeded, so the result repeats), keeps the hypothesis
// that the most pairs agree with within tau pixels, then refits by least
// squares on those and re-selects them until the set stops changing.
// Hypotheses whose scale falls outside [sMin, sMax] are skipped.
func ransacSimilarity(ps []pair, tau, sMin, sMax float64) (fitResult, bool) {
	if len(ps) < 2 {
		return fitResult{}, false
	}
	rng := rand.New(rand.NewPCG(uint64(len(ps)), 0x5eed))
	iters := min(400, len(ps)*(len(ps)-1)/2)
	best, bestCost := []int(nil), math.Inf(1)
	idx := make([]int, 2)
	var in []int
	for it := 0; it < iters; it++ {
		i, j := rng.IntN(len(ps)), rng.IntN(len(ps))
		if i == j {
			continue
		}
		idx[0], idx[1] = i, j
		t, ok := fitSimilarity(ps, idx)
		if !ok || t.Scale < sMin || t.Scale > sMax {
			continue
		}
		m := affineOf(t)
		in = in[:0]
		cost := 0.0
		for k, p := range ps {
			if e := pairError(m, p); e <= tau {
				in = append(in, k)
				cost += e * e / (tau * tau)
			} else {
				cost++ // an outlier costs as much as the worst inlier (MSAC)
			}
		}
		if cost < bestCost {
			bestCost = cost
			best = append(best[:0], in...)
		}
	}
	if len(best) < 2 {
		return fitResult{}, false
	}
	t, _ := fitSimilarity(ps, best)
	return refineFit(ps, t, tau)
}

// refineFit takes the pairs that t fits within tau, refits t to them by
// least squares and repeats until the set stops changing.
func refineFit(ps []pair, t Transform, tau float64) (fitResult, bool) {
	var r fitResult
	var cur []int
	for round := 0; round < 8; round++ {
		m := affineOf(t)
		next := make([]int, 0, len(cur))
		sum := 0.0
		for k, p := range ps {
			if e := pairError(m, p); e <= tau {
				next = append(next, k)
				sum += e * e
			}
		}
		r = fitResult{t: t, inliers: next, residual: math.Sqrt(sum / float64(max(1, len(next))))}
		if len(next) < 2 || equalInts(next, cur) {
			break
		}
		cur = next
		nt, ok := fitSimilarity(ps, cur)
		if !ok {
			break
		}
		t = nt
	}
	r.t.ResidualPx = r.residual
	return r, len(r.inliers) >= 2
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
