//go:build devtools

package vecsym

import (
	"math"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
)

// TestFitConfidence fits confidence's logistic regression on synthetic
// sheets (VECSYM_FIT_SEEDS of them from seed 1, each drawn as its legend
// draws it and varied: synth --vary) and reports how the confidence in use
// separates the detections that survive suppression:
//   - the pose model: every pose verified on seeds 3–5, labelled right when
//     an instance of its symbol overlaps it with IoU ≥ 0.5;
//   - the detections that survive suppression with no floor, labelled right
//     when an instance of their symbol not yet taken overlaps them, at the
//     floor of 0.5 as Match applies it (odd seeds and even ones apart), and
//     the most confident wrong one.
func TestFitConfidence(t *testing.T) {
	seeds, _ := strconv.Atoi(os.Getenv("VECSYM_FIT_SEEDS"))
	if seeds == 0 {
		t.Skip("VECSYM_FIT_SEEDS not set")
	}
	var blocks []*fitBlock
	for _, vary := range []bool{false, true} {
		for seed := 1; seed <= seeds; seed++ {
			for _, sh := range synthSheets(t, int64(seed), 1, vary) {
				byBlock := map[geom.Box]*fitBlock{}
				matchSheet(t, sh, func(c Candidate, l string, blk geom.Box, tr *synth.SheetTruth) {
					b := byBlock[blk]
					if b == nil {
						b = &fitBlock{seed: seed, names: map[int]string{}}
						for _, in := range tr.Instances {
							if tr.Blocks[in.Block].Box == blk {
								b.truth = append(b.truth, symbols.Truth{Label: in.Label, Box: in.Box.Translate(-blk.XMin, -blk.YMin)})
							}
						}
						byBlock[blk] = b
						blocks = append(blocks, b)
					}
					b.cands = append(b.cands, c)
					b.names[c.Template] = l
				})
			}
		}
	}
	// the pose model: every verified pose of seeds 3-5
	var poses []fitRow
	for _, b := range blocks {
		if b.seed < 3 || b.seed > 5 {
			continue
		}
		for _, c := range b.cands {
			r := fitRow{x: features(c)}
			for _, tr := range b.truth {
				if tr.Label == b.names[c.Template] && c.Box.IoU(tr.Box) >= 0.5 {
					r.right = true
				}
			}
			poses = append(poses, r)
		}
	}
	w := fitLogistic(poses)
	t.Logf("pose model (%d poses): z = %.2f + %.2f·covered + %.2f·explained + %.2f·described (in use: %.2f %.2f %.2f %.2f)",
		len(poses), w[0], w[1], w[2], w[3], confW[0], confW[1], confW[2], confW[3])
	// the detections that survive suppression, by the confidence in use
	for _, odd := range []bool{true, false} {
		var c symbols.Counts
		var rows []fitRow
		for _, b := range blocks {
			if b.seed%2 == 1 != odd {
				continue
			}
			for _, r := range b.survivors(0.5) {
				if r.right {
					c.TP++
				} else {
					c.FP++
				}
			}
			c.FN += len(b.truth)
			rows = append(rows, b.survivors(0)...)
		}
		c.FN -= c.TP
		wrong, best := 0, 0.0
		for _, r := range rows {
			if !r.right {
				wrong++
				best = max(best, confidenceOf(r.x))
			}
		}
		t.Logf("odd seeds %v: at 0.5 TP %d FP %d FN %d; surviving with no floor %d, %d wrong, the most confident of them %.3f",
			odd, c.TP, c.FP, c.FN, len(rows), wrong, best)
	}
	t.Logf("a pose with every mark found and explained, described alike: %.3f (a simple symbol: %.3f)",
		confidence(1, 1, 1, false), confidence(1, 1, 1, true))
}

// features are a candidate's inputs to confidence: 1, covered, explained
// (less simpleExplain for a simple symbol), described.
func features(c Candidate) [4]float64 {
	e := c.Explained
	if c.simple {
		e -= simpleExplain
	}
	return [4]float64{1, c.Covered, e, c.Described}
}

// confidenceOf is confidence of features' inputs.
func confidenceOf(x [4]float64) float64 {
	z := confW[0]*x[0] + confW[1]*x[1] + confW[2]*x[2] + confW[3]*x[3]
	return 1 / (1 + math.Exp(-confSlope*z))
}

// fitBlock is one plan's verified poses and its instances.
type fitBlock struct {
	seed  int
	cands []Candidate
	names map[int]string // templates' labels
	truth []symbols.Truth
}

type fitRow struct {
	x     [4]float64 // features
	right bool
}

// survivors keeps the block's poses of confidence ≥ floor that
// suppression leaves, and labels them.
func (b *fitBlock) survivors(floor float64) []fitRow {
	var all []Candidate
	for _, c := range b.cands {
		if c.Confidence >= floor {
			all = append(all, c)
		}
	}
	kept := suppress(all)
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Confidence > kept[j].Confidence })
	used := make([]bool, len(b.truth))
	var rows []fitRow
	for _, c := range kept {
		r := fitRow{x: features(c)}
		for j, tr := range b.truth {
			if !used[j] && tr.Label == b.names[c.Template] && c.Box.IoU(tr.Box) >= 0.5 {
				used[j], r.right = true, true
				break
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// fitLogistic fits a logistic regression by Newton's method, with a ridge
// of 1 on the coefficients other than the intercept.
func fitLogistic(rows []fitRow) [4]float64 {
	var w [4]float64
	const lambda = 1.0
	for it := 0; it < 50; it++ {
		var g [4]float64
		var h [4][4]float64
		for _, r := range rows {
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
		d := solve4(h, g)
		for i := range w {
			w[i] -= d[i]
		}
	}
	return w
}

// solve4 solves h·x = g (Gaussian elimination with partial pivoting).
func solve4(h [4][4]float64, g [4]float64) [4]float64 {
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
