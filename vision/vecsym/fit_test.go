package vecsym

import (
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/plangraph/plangraph/internal/geom"
	"github.com/plangraph/plangraph/internal/synth"
)

// TestFitConfidence fits confidence's logistic regression to every pose
// verified on synthetic sheets (VECSYM_FIT_SEEDS of them from seed 1, as
// the legend draws them and varied: synth --vary), labelled right when an
// instance of the symbol overlaps it with IoU ≥ 0.5. Seeds 3–5 train it;
// the others test it. It prints the coefficients for confidence.
func TestFitConfidence(t *testing.T) {
	seeds, _ := strconv.Atoi(os.Getenv("VECSYM_FIT_SEEDS"))
	if seeds == 0 {
		t.Skip("VECSYM_FIT_SEEDS not set")
	}
	type row struct {
		x     [4]float64
		right bool
		train bool
	}
	var rows []row
	for _, vary := range []bool{false, true} {
		for seed := 1; seed <= seeds; seed++ {
			for _, sh := range synthSheets(t, int64(seed), 1, vary) {
				matchSheet(t, sh, func(c Candidate, l string, blk geom.Box, tr *synth.SheetTruth) {
					r := row{train: seed >= 3 && seed <= 5}
					r.x = [4]float64{1, c.Covered, c.Explained, c.Described}
					for _, in := range tr.Instances {
						if in.Label == l && c.Box.IoU(in.Box.Translate(-blk.XMin, -blk.YMin)) >= 0.5 {
							r.right = true
						}
					}
					rows = append(rows, r)
				})
			}
		}
	}
	// Newton's method with a small ridge penalty
	var w [4]float64
	const lambda = 1.0
	for it := 0; it < 50; it++ {
		var g [4]float64
		var h [5][4]float64
		for _, r := range rows {
			if !r.train {
				continue
			}
			z := 0.0
			for i := range w {
				z += w[i] * r.x[i]
			}
			p := 1 / (1 + math.Exp(-z))
			y := 0.0
			if r.right {
				y = 1
			}
			for i := range w {
				g[i] += (p - y) * r.x[i]
				for j := range w {
					h[i][j] += p * (1 - p) * r.x[i] * r.x[j]
				}
			}
		}
		for i := 1; i < len(w); i++ {
			g[i] += lambda * w[i]
			h[i][i] += lambda
		}
		d := solveN(h, g)
		for i := range w {
			w[i] -= d[i]
		}
	}
	t.Logf("z = %.2f + %.2f·covered + %.2f·explained + %.2f·described", w[0], w[1], w[2], w[3])
	for _, train := range []bool{true, false} {
		var tp, fp, fn, n int
		for _, r := range rows {
			if r.train != train {
				continue
			}
			n++
			z := 0.0
			for i := range w {
				z += w[i] * r.x[i]
			}
			switch pos := z > 0; {
			case pos && r.right:
				tp++
			case pos && !r.right:
				fp++
			case !pos && r.right:
				fn++
			}
		}
		t.Logf("train %v: %d poses, right %d, at 0.5: TP %d FP %d FN %d", train, n, tp+fn, tp, fp, fn)
	}
}

// solveN solves h·x = g (Gaussian elimination with partial pivoting).
func solveN(h [5][4]float64, g [4]float64) [4]float64 {
	const n = 4
	var a [n][n + 1]float64
	for i := 0; i < n; i++ {
		copy(a[i][:n], h[i][:])
		a[i][n] = g[i]
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		if a[c][c] == 0 {
			continue
		}
		for r := 0; r < n; r++ {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k <= n; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	var x [4]float64
	for i := 0; i < n; i++ {
		if a[i][i] != 0 {
			x[i] = a[i][n] / a[i][i]
		}
	}
	return x
}
