package compare

import (
	"math"

	"github.com/plangraph/plangraph/vision/vector"
)

// Registration on the page geometry. A PDF page records where each glyph's
// origin and each path's vertices are, exactly; two revisions of a CAD
// sheet put the marks they share at the same places up to the page
// transform. Each mark of A is looked for near where the pixel transform
// puts it in B — a glyph among B's glyphs of the same character and a
// consistent size, a vertex among B's vertices — and kept when the nearest
// candidate is clearly nearer than the next. RANSAC and least squares on
// those pairs (align_fit.go) give the transform to a hundredth of a pixel
// when the drawings are vector.

// mark is a glyph origin or a path vertex of a page.
type mark struct {
	x, y float64
	key  int64   // the glyph's rune, or vertexKey
	size float64 // the glyph's em size (pixels), 0 for a vertex
}

const vertexKey = -1

// Bounds of the vector registration.
const (
	// maxMarks caps the marks taken from a page (vertices are thinned
	// evenly past it): enough for any fit, bounded work on dense sheets.
	maxMarks = 200_000
	// vecRadius300 is how far, in pixels at 300 DPI, a mark may be from
	// where the pixel transform puts it: the pixel registration of the
	// level before full resolution is good to a pixel or two.
	vecRadius300 = 4.0
	// vecTol is the fit's inlier tolerance and vecMaxResidual its largest
	// accepted RMS residual, in pixels: recorded positions are exact, so
	// shared marks agree to far less.
	vecTol         = 0.5
	vecMaxResidual = 0.2
	// vecMinInliers and vecMinFrac: the fewest agreeing marks, and their
	// smallest share of the pairs, of a trusted fit.
	vecMinInliers = 20
	vecMinFrac    = 0.3
)

// vecResult is a vector registration: the fit and how many pairs it saw.
type vecResult struct {
	fitResult
	pairs int
}

// vectorAlign registers page a onto page b starting from t (the pixel
// registration), prior the expected scale and dpi B's resolution.
func vectorAlign(a, b *vector.Page, t Transform, prior, dpi float64) (vecResult, bool) {
	ma, mb := pageMarks(a), pageMarks(b)
	if len(ma) < vecMinInliers || len(mb) < vecMinInliers {
		return vecResult{}, false
	}
	radius := max(2, vecRadius300*dpi/300)
	idx := newMarkGrid(mb, radius)
	ps := matchMarks(ma, idx, t, radius)
	if len(ps) < vecMinInliers {
		return vecResult{}, false
	}
	// hypotheses on an even sample of the pairs, then the fit on all
	sub := ps
	if len(ps) > 3000 {
		sub = make([]pair, 0, 3000)
		for i := 0; i < len(ps); i += len(ps)/3000 + 1 {
			sub = append(sub, ps[i])
		}
	}
	fit, ok := ransacSimilarity(sub, vecTol, minScale*prior*0.9, maxScale*prior*1.1)
	if !ok {
		return vecResult{}, false
	}
	if fit, ok = refineFit(ps, fit.t, vecTol); !ok {
		return vecResult{}, false
	}
	// once more, matched through the exact transform
	ps = matchMarks(ma, idx, fit.t, 1)
	if fit, ok = refineFit(ps, fit.t, vecTol); !ok {
		return vecResult{}, false
	}
	r := vecResult{fitResult: fit, pairs: len(ps)}
	good := len(fit.inliers) >= vecMinInliers && float64(len(fit.inliers)) >= vecMinFrac*float64(len(ps)) &&
		fit.residual <= vecMaxResidual
	return r, good
}

// pageMarks lists a page's glyph origins and its paths' distinct vertices
// (the end points of their segments and curves).
func pageMarks(p *vector.Page) []mark {
	out := make([]mark, 0, len(p.Glyphs))
	for _, g := range p.Glyphs {
		out = append(out, mark{x: float64(g.E), y: float64(g.F), key: int64(g.Rune), size: g.Size()})
	}
	seen := map[[2]int32]bool{}
	var verts []mark
	for i := range p.Paths {
		cmds, k := p.PathCmds(i)
		for _, c := range cmds {
			var pt vector.Point
			switch c {
			case vector.MoveTo, vector.LineTo:
				pt = p.Pts[k]
				k++
			case vector.CurveTo:
				pt = p.Pts[k+2]
				k += 3
			default:
				continue
			}
			q := [2]int32{int32(math.Round(float64(pt.X) * 10)), int32(math.Round(float64(pt.Y) * 10))}
			if seen[q] {
				continue
			}
			seen[q] = true
			verts = append(verts, mark{x: float64(pt.X), y: float64(pt.Y), key: vertexKey})
		}
	}
	if room := maxMarks - len(out); len(verts) > room && room > 0 {
		step := float64(len(verts)) / float64(room)
		for i := 0.0; int(i) < len(verts); i += step {
			out = append(out, verts[int(i)])
		}
		return out
	}
	return append(out, verts...)
}

// markGrid buckets marks by cell for the nearest-mark searches.
type markGrid struct {
	cell  float64
	cells map[[2]int32][]int32
	marks []mark
}

func newMarkGrid(ms []mark, cell float64) *markGrid {
	g := &markGrid{cell: cell, cells: map[[2]int32][]int32{}, marks: ms}
	for i, m := range ms {
		k := g.key(m.x, m.y)
		g.cells[k] = append(g.cells[k], int32(i))
	}
	return g
}

func (g *markGrid) key(x, y float64) [2]int32 {
	return [2]int32{int32(math.Floor(x / g.cell)), int32(math.Floor(y / g.cell))}
}

// matchMarks pairs each mark of A with the mark of B of the same kind
// nearest to where t puts it, within radius, when the next nearest is at
// least twice as far; glyphs must also agree in size with t's scale
// (within 15 %).
func matchMarks(ma []mark, g *markGrid, t Transform, radius float64) []pair {
	m := affineOf(t)
	var out []pair
	for _, a := range ma {
		x, y := m.apply(a.x, a.y)
		k := g.key(x, y)
		best, second := math.Inf(1), math.Inf(1)
		bi := -1
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				for _, j := range g.cells[[2]int32{k[0] + dx, k[1] + dy}] {
					b := g.marks[j]
					if b.key != a.key {
						continue
					}
					if a.key != vertexKey && math.Abs(b.size/(a.size*t.Scale)-1) > 0.15 {
						continue
					}
					d := math.Hypot(b.x-x, b.y-y)
					if d < best {
						best, second, bi = d, best, int(j)
					} else if d < second {
						second = d
					}
				}
			}
		}
		if bi < 0 || best > radius || second < 2*best+0.05 {
			continue
		}
		b := g.marks[bi]
		out = append(out, pair{a.x, a.y, b.x, b.y})
	}
	return out
}
