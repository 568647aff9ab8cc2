package vecsym

import (
	"math"
)

// segIndex finds the segments near a point: a uniform grid whose cells
// list the segments passing through them.
type segIndex struct {
	segs   []seg
	cell   float64
	x0, y0 float64
	nx, ny int
	start  []int32 // cell c's segments are items[start[c]:start[c+1]]
	items  []int32
}

func newSegIndex(segs []seg, cell float64) *segIndex {
	ix := &segIndex{segs: segs, cell: cell}
	if len(segs) == 0 {
		ix.nx, ix.ny = 1, 1
		ix.start = make([]int32, 2)
		return ix
	}
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, s := range segs {
		x0 = min(x0, px(s.a), px(s.b))
		y0 = min(y0, py(s.a), py(s.b))
		x1 = max(x1, px(s.a), px(s.b))
		y1 = max(y1, py(s.a), py(s.b))
	}
	ix.x0, ix.y0 = x0-cell, y0-cell
	ix.nx = int((x1-ix.x0)/cell) + 2
	ix.ny = int((y1-ix.y0)/cell) + 2
	// cap the grid at ~16M cells: a coarser grid for a huge region
	for float64(ix.nx)*float64(ix.ny) > 16e6 {
		ix.cell *= 2
		cell = ix.cell
		ix.x0, ix.y0 = x0-cell, y0-cell
		ix.nx = int((x1-ix.x0)/cell) + 2
		ix.ny = int((y1-ix.y0)/cell) + 2
	}
	counts := make([]int32, ix.nx*ix.ny+1)
	for i := range segs {
		ix.cells(&segs[i], func(c int) { counts[c]++ })
	}
	ix.start = make([]int32, len(counts))
	var sum int32
	for c, n := range counts[:len(counts)-1] {
		ix.start[c] = sum
		sum += n
	}
	ix.start[len(counts)-1] = sum
	ix.items = make([]int32, sum)
	fill := append([]int32(nil), ix.start...)
	for i := range segs {
		ix.cells(&segs[i], func(c int) {
			ix.items[fill[c]] = int32(i)
			fill[c]++
		})
	}
	return ix
}

// cells calls f with every cell the segment passes through.
func (ix *segIndex) cells(s *seg, f func(c int)) {
	ax, ay := (px(s.a)-ix.x0)/ix.cell, (py(s.a)-ix.y0)/ix.cell
	bx, by := (px(s.b)-ix.x0)/ix.cell, (py(s.b)-ix.y0)/ix.cell
	n := int(math.Ceil(max(math.Abs(bx-ax), math.Abs(by-ay))*2)) + 1
	last := -1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		cx, cy := int(ax+(bx-ax)*t), int(ay+(by-ay)*t)
		if cx < 0 || cy < 0 || cx >= ix.nx || cy >= ix.ny {
			continue
		}
		c := cy*ix.nx + cx
		if c != last {
			f(c)
			last = c
		}
	}
}

// segDist is the distance from p to s.
func segDist(p pt, s *seg) float64 { return math.Sqrt(segDist2(p, s)) }

// segDist2 is the square of the distance from p to s.
func segDist2(p pt, s *seg) float64 {
	dx, dy := px(s.b)-px(s.a), py(s.b)-py(s.a)
	qx, qy := px(p)-px(s.a), py(p)-py(s.a)
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = min(max((qx*dx+qy*dy)/l2, 0), 1)
	}
	ex, ey := qx-t*dx, qy-t*dy
	return ex*ex + ey*ey
}

// want says which segments a query accepts.
type want struct {
	// u is the direction wanted (a unit vector; either way along it), and
	// cosTol the least |cos| of the angle between it and a segment's; 0
	// accepts any direction
	u      complex128
	cosTol float64
	// fill and stroke: a filled edge, and a stroked line, are needed there
	// (both: each, from one path or two)
	fill, stroke bool
	// dashed: the line's pattern, dashed or solid, must be the same
	dashed  bool
	anyDash bool // dashed or solid
	// dark: faint linework does not count
	dark bool
}

func (w want) accepts(s *seg, fill, stroke bool) bool {
	if fill && !s.fill || stroke && !s.stroke || w.dark && s.faint || !w.anyDash && s.dashed != w.dashed {
		return false
	}
	return w.cosTol <= 0 || math.Abs(real(w.u)*real(s.u)+imag(w.u)*imag(s.u)) >= w.cosTol
}

// near reports whether the marks w asks for lie within tol of p.
func (ix *segIndex) near(p pt, tol float64, w want) bool {
	if w.fill && w.stroke {
		return ix.near1(p, tol, w, true, false) && ix.near1(p, tol, w, false, true)
	}
	return ix.near1(p, tol, w, w.fill, w.stroke)
}

func (ix *segIndex) near1(p pt, tol float64, w want, fill, stroke bool) bool {
	return ix.classify1(p, tol, tol, w, fill, stroke) == allNear
}

// span is the range of cells [lo, hi] covering [a, b] on one axis (empty
// when hi < lo).
func (ix *segIndex) span(a, b, origin float64, n int) (int, int) {
	lo := int(math.Floor((a - origin) / ix.cell))
	hi := int(math.Floor((b - origin) / ix.cell))
	return max(lo, 0), min(hi, n-1)
}

// visit calls f once per segment passing through the cells that r covers
// (seen is a scratch slice as long as segs, all values below stamp).
func (ix *segIndex) visit(x0, y0, x1, y1 float64, seen []uint32, stamp uint32, f func(id int32)) {
	cx0, cx1 := ix.span(x0, x1, ix.x0, ix.nx)
	cy0, cy1 := ix.span(y0, y1, ix.y0, ix.ny)
	for cy := cy0; cy <= cy1; cy++ {
		row := cy * ix.nx
		for cx := cx0; cx <= cx1; cx++ {
			c := row + cx
			for _, id := range ix.items[ix.start[c]:ix.start[c+1]] {
				if seen[id] == stamp {
					continue
				}
				seen[id] = stamp
				f(id)
			}
		}
	}
}
