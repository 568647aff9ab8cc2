package vecsym

import (
	"math"
	"math/cmplx"
)

// joinCircles adds a whole circle for every set of arcs that lie on one
// circle and together go all the way round it: a writer may draw a circle
// as two half circles (or four quarters) in separate subpaths or paths,
// and the same symbol elsewhere as one closed curve. The arcs are kept
// too, so that either drawing anchors a pose from either kind of mark.
func (m *marks) joinCircles() {
	n := len(m.arcs)
	if n < 2 {
		return
	}
	// arcs bucketed by their centre, in cells of cell pixels
	const cell = 4.0
	key := func(p pt) [2]int32 {
		return [2]int32{int32(math.Floor(px(p) / cell)), int32(math.Floor(py(p) / cell))}
	}
	cells := map[[2]int32][]int{}
	for i := range m.arcs {
		if !m.arcs[i].full {
			k := key(m.arcs[i].c)
			cells[k] = append(cells[k], i)
		}
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(i int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for i := range m.arcs {
		a := &m.arcs[i]
		if a.full {
			continue
		}
		k := key(a.c)
		for y := k[1] - 1; y <= k[1]+1; y++ {
			for x := k[0] - 1; x <= k[0]+1; x++ {
				for _, j := range cells[[2]int32{x, y}] {
					if j <= i {
						continue
					}
					if b := &m.arcs[j]; sameCircle(a, b) {
						parent[find(j)] = find(i)
					}
				}
			}
		}
	}
	groups := map[int][]int{}
	for i := range m.arcs {
		if !m.arcs[i].full {
			r := find(i)
			groups[r] = append(groups[r], i)
		}
	}
	for _, g := range groups {
		if len(g) < 2 || !goesRound(m.arcs, g) {
			continue
		}
		var c pt
		var r float64
		for _, i := range g {
			c += m.arcs[i].c
			r += m.arcs[i].r
		}
		c /= complex(float64(len(g)), 0)
		r /= float64(len(g))
		f := m.arcs[g[0]]
		p := c + cmplx.Rect(r, f.a0)
		m.arcs = append(m.arcs, arc{c: c, r: r, a0: f.a0, sweep: 2 * math.Pi, p0: p, p1: p, full: true, fill: f.fill, stroke: f.stroke})
	}
}

// sameCircle: two arcs whose centres and radii agree within 2 % of the
// radius (and half a pixel).
func sameCircle(a, b *arc) bool {
	r := max(a.r, b.r)
	return dist(a.c, b.c) <= 0.02*r+0.5 && math.Abs(a.r-b.r) <= 0.02*r+0.5
}

// goesRound reports whether the arcs g (of one circle) cover every
// direction from its centre, in steps of 5°, within 3° of their ends.
func goesRound(arcs []arc, g []int) bool {
	const bins = 72
	var seen [bins]bool
	slack := 3 * math.Pi / 180
	for _, i := range g {
		a := &arcs[i]
		lo, sw := a.a0, a.sweep
		if sw < 0 {
			lo, sw = lo+sw, -sw
		}
		for b := 0; b < bins; b++ {
			ang := (float64(b) + 0.5) * 2 * math.Pi / bins
			if d := math.Mod(ang-lo+4*math.Pi+slack, 2*math.Pi); d <= sw+2*slack {
				seen[b] = true
			}
		}
	}
	for _, s := range seen {
		if !s {
			return false
		}
	}
	return true
}

// circleLine is the anchor of a symbol with a circle and straight lines
// (a receptacle's circle and bars, a wall light's circle and bracket): the
// circle fixes the centre and scale, and each direction of the straight
// lines about a drawing's circle of the right size gives the turn that
// lays the template's longest line along it. Far cheaper than sweeping
// every turn (sweep), and exact where the symbol is drawn with other
// proportions than the legend's (bars shorter beside a larger circle),
// which line anchors alone would scale wrongly.
func (sc *scorer) circleLine(t *Template, cands []*arc) anchor {
	C := t.m.arcs[t.circle]
	A := t.lines[t.lineAnchors[0]]
	d := sc.d
	const perCircle = 4 * 4 * 2.5 // directions about a circle, poses each, lookups a pose
	// the line's offset from the circle's centre: where the drawing sets
	// its line otherwise against the circle (a downlight's circle inside
	// its square or touching its sides), the offset gives the lines' scale
	aOff := lineOffset(C.c, &A)
	type dir struct {
		u complex128
		k float64 // the lines' scale, or 0
	}
	return anchor{cost: perCircle * float64(len(cands)), run: func(try func(pose)) {
		var dirs []dir
		for _, D := range cands {
			k := D.r / C.r
			reach := 0.6 * k * t.size
			dirs = dirs[:0]
			sc.stamp++
			if sc.stamp == 0 {
				clear(sc.seen)
				sc.stamp = 1
			}
			d.ix.visit(px(D.c)-reach, py(D.c)-reach, px(D.c)+reach, py(D.c)+reach, sc.seen, sc.stamp, func(id int32) {
				s := &d.m.segs[id]
				if s.curve || s.faint && !t.faint || s.length < 0.3*k*A.length || s.length > 1.5*k*A.length {
					return
				}
				if segDist(D.c, s) > reach {
					return
				}
				kl := 0.0
				if aOff > 0.1*t.size {
					if kl = lineOffset(D.c, s) / aOff; math.Abs(kl/k-1) <= 0.02 || math.Abs(kl/k-1) > 0.25 {
						kl = 0
					}
				}
				for _, o := range dirs {
					if math.Abs(real(o.u)*real(s.u)+imag(o.u)*imag(s.u)) >= math.Cos(math.Pi/180) && (o.k == kl || math.Abs(o.k-kl) <= 0.02*k) {
						return // a direction tried already
					}
				}
				dirs = append(dirs, dir{s.u, kl})
			})
			for _, o := range dirs {
				for _, su := range [2]complex128{o.u, -o.u} {
					for _, mirror := range [2]bool{false, true} {
						au := A.u
						if mirror {
							au = cmplx.Conj(au)
						}
						try(poseAt(C.c, D.c, k, cmplx.Phase(su/au), mirror))
						if o.k > 0 {
							// the circle drafted a pen's width in or out
							// against the lines (ink or middle line on them)
							P := poseAt(C.c, D.c, o.k, cmplx.Phase(su/au), mirror)
							P.slack = t.width / 2
							try(P)
						}
					}
				}
			}
		}
	}}
}

// lineOffset is the distance from p to the line through s.
func lineOffset(p pt, s *seg) float64 {
	return math.Abs(imag((p - s.a) * cmplx.Conj(s.u)))
}
