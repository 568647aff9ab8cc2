package vecsym

import (
	"math"
)

// dropWires leaves out of a legend graphic's marks the wire it draws to
// its symbol (a switched outlet's wire curving away to its switch): a
// stroked line (a polyline, its pieces often paths of their own) that
// starts on a whole circle's outline, lies outside the circle, runs out
// more than the circle's diameter beyond it, curving (a wire is drawn as
// an arc, a symbol's stub straight: a hose bibb's pipe), and ends free,
// touching nothing. The plan draws each instance's wires as it is
// connected; they are no part of the symbol. A line that ends on another
// mark (a junction box's stub to its bar, a power strip's line) stays.
func dropWires(m *marks, tol float64) {
	chains := strokeChains(m, tol)
	drop := map[int]bool{}
	for _, a := range m.arcs {
		if !a.full {
			continue
		}
		for _, ids := range chains {
			near, far := 1e18, 0.0
			var nearEnd, farEnd pt
			outside := true
			for _, i := range ids {
				s := &m.segs[i]
				for _, p := range [2]pt{s.a, s.b} {
					d := dist(p, a.c)
					if d < a.r-tol {
						outside = false
					}
					if d < near {
						near, nearEnd = d, p
					}
					if d > far {
						far, farEnd = d, p
					}
				}
			}
			if !outside || near > a.r+tol || far < 3*a.r || !freeEnd(m, ids, farEnd, tol) || !bends(m, ids, nearEnd, farEnd, a.r/4) {
				continue
			}
			for _, i := range ids {
				drop[i] = true
			}
		}
	}
	if len(drop) == 0 {
		return
	}
	segs := m.segs[:0:0]
	for i, s := range m.segs {
		if !drop[i] {
			segs = append(segs, s)
		}
	}
	m.segs = segs
	m.rebox()
}

// freeEnd reports whether p, an end of the path made of segments ids,
// touches no other segment.
func freeEnd(m *marks, ids []int, p pt, tol float64) bool {
	for j := range m.segs {
		own := false
		for _, i := range ids {
			own = own || i == j
		}
		if !own && segDist(p, &m.segs[j]) <= tol {
			return false
		}
	}
	return true
}

// strokeChains groups m's stroked straight segments into chains joined end
// to end (within tol): the polylines they draw, whichever paths they came
// from.
func strokeChains(m *marks, tol float64) [][]int {
	parent := make([]int, len(m.segs))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	line := func(s *seg) bool { return s.stroke && !s.fill && !s.curve }
	for i := range m.segs {
		a := &m.segs[i]
		if !line(a) {
			continue
		}
		for j := i + 1; j < len(m.segs); j++ {
			b := &m.segs[j]
			if line(b) && min(dist(a.a, b.a), dist(a.a, b.b), dist(a.b, b.a), dist(a.b, b.b)) <= tol {
				parent[find(i)] = find(j)
			}
		}
	}
	groups := map[int][]int{}
	for i := range m.segs {
		if line(&m.segs[i]) {
			groups[find(i)] = append(groups[find(i)], i)
		}
	}
	out := make([][]int, 0, len(groups))
	for _, g := range groups {
		out = append(out, g)
	}
	return out
}

// bends reports whether a point of the segments ids lies farther than dev
// from the line through a and b.
func bends(m *marks, ids []int, a, b pt, dev float64) bool {
	u := b - a
	l := dist(a, b)
	if l == 0 {
		return false
	}
	for _, i := range ids {
		for _, p := range [2]pt{m.segs[i].a, m.segs[i].b} {
			if math.Abs(imag((p-a)*complex(real(u), -imag(u))))/l > dev {
				return true
			}
		}
	}
	return false
}
