package vecsym

import (
	"math"
)

// Sample groups: a template drawn with many marks over one another (a
// filled circle exported as fifty stroked and filled strips half a pixel
// apart: 1,600 pieces, 72,000 samples in a 25 px symbol) costs verify a
// drawing lookup per sample for every pose. Samples that ask the same of
// the drawing (kind, direction either way along it) and lie close together
// are looked up once for the group: by the triangle inequality, when the
// drawing's nearest accepted mark lies within tol − r of the group's
// centre (r its radius, posed) every sample of it is met, and when none
// lies within tol + r none is; only groups between the two look at their
// samples one by one. The answer is the one sample by sample gives.

// sampleGroup is a set of a template's samples that want the same marks.
type sampleGroup struct {
	c     pt      // centre, template pixels
	r     float64 // the farthest member's distance from c
	w     float64 // the members' weight
	proto int32   // a member: what the group wants (sampleWant, sampleTol)
	first int32   // members are t.members[first:first+n]
	n     int32
}

// groupShare: samples are grouped in cells of this share of the symbol's
// size (posed, a group's radius stays below the tolerance's part that
// grows with the symbol, 0.015 of its size).
const groupShare = 0.02

// groupGain: a template's samples are looked up by group only when the
// groups are at most this share of its samples (a template drawn once
// over, each sample its own lookup, is verified sample by sample).
const groupGain = 0.25

// groupKey is what a sample wants of the drawing, and its cell.
type groupKey struct {
	cx, cy                             int32
	ux, uy                             float64 // direction, sign-normalised
	curve, fill, stroke, faint, dashed bool
}

// groupSamples groups t's samples (t.groups stays nil when that would not
// save lookups).
func (t *Template) groupSamples() {
	cell := max(groupShare*t.size, 1e-6)
	byKey := map[groupKey]int{}
	var keys []groupKey
	var lists [][]int32
	for i := range t.pts {
		s := &t.pts[i]
		u := s.u
		if real(u) < 0 || real(u) == 0 && imag(u) < 0 {
			u = -u // accepts reads a direction either way along it
		}
		k := groupKey{int32(math.Floor(px(s.p) / cell)), int32(math.Floor(py(s.p) / cell)), real(u), imag(u),
			s.curve, s.fill, s.stroke, s.faint, s.dashed}
		j, ok := byKey[k]
		if !ok {
			j = len(keys)
			byKey[k] = j
			keys = append(keys, k)
			lists = append(lists, nil)
		}
		lists[j] = append(lists[j], int32(i))
	}
	if float64(len(keys)) > groupGain*float64(len(t.pts)) {
		return
	}
	t.groups = make([]sampleGroup, len(keys))
	t.members = make([]int32, 0, len(t.pts))
	for j, l := range lists {
		var c pt
		var w float64
		for _, i := range l {
			c += t.pts[i].p
			w += t.pts[i].w
		}
		c /= complex(float64(len(l)), 0)
		r := 0.0
		for _, i := range l {
			r = max(r, dist(t.pts[i].p, c))
		}
		t.groups[j] = sampleGroup{c: c, r: r, w: w, proto: l[0], first: int32(len(t.members)), n: int32(len(l))}
		t.members = append(t.members, l...)
	}
}

// coveredWeight is the weight of t's samples that the drawing meets at pose
// P (tol the pose's tolerance); ok is false as soon as the samples missed
// weigh more than budget.
func (sc *scorer) coveredWeight(t *Template, P pose, tol, budget float64) (hit float64, ok bool) {
	d := sc.d
	turn := P.turn()
	missed := 0.0
	one := func(s *sample) bool {
		if d.ix.near(P.apply(s.p), sampleTol(P, tol, s), sampleWant(turn, P.mirror, s)) {
			hit += s.w
			return true
		}
		missed += s.w
		return missed <= budget
	}
	if t.groups == nil {
		for i := range t.pts {
			if !one(&t.pts[i]) {
				return hit, false
			}
		}
		return hit, true
	}
	k := P.scale()
	for gi := range t.groups {
		g := &t.groups[gi]
		s := &t.pts[g.proto]
		st := sampleTol(P, tol, s)
		// the posed radius, a hair wider: rounding must not decide a sample
		r := k*g.r*(1+1e-9) + 1e-9
		switch d.ix.classify(P.apply(g.c), st-r, st+r, sampleWant(turn, P.mirror, s)) {
		case allNear:
			hit += g.w
		case noneNear:
			if missed += g.w; missed > budget {
				return hit, false
			}
		default:
			for _, i := range t.members[g.first : g.first+g.n] {
				if !one(&t.pts[i]) {
					return hit, false
				}
			}
		}
	}
	return hit, true
}

// classify's answers: every point within r of p has the marks w asks for
// within tol (allNear), none has (noneNear), or some may (someNear).
const (
	allNear = iota
	someNear
	noneNear
)

// classify tells, for the points within r of p, whether the marks w asks
// for lie within tol of them, given lo = tol − r and hi = tol + r.
func (ix *segIndex) classify(p pt, lo, hi float64, w want) int {
	if w.fill && w.stroke {
		a := ix.classify1(p, lo, hi, w, true, false)
		if a == noneNear {
			return noneNear
		}
		return max(a, ix.classify1(p, lo, hi, w, false, true))
	}
	return ix.classify1(p, lo, hi, w, w.fill, w.stroke)
}

// classify1 classifies for the marks of one kind (fill or stroke); with
// lo = hi = tol it is near1's test.
func (ix *segIndex) classify1(p pt, lo, hi float64, w want, fill, stroke bool) int {
	lo2 := -1.0
	if lo > 0 {
		lo2 = lo * lo
	}
	hi2 := hi * hi
	cx0, cx1 := ix.span(px(p)-hi, px(p)+hi, ix.x0, ix.nx)
	cy0, cy1 := ix.span(py(p)-hi, py(p)+hi, ix.y0, ix.ny)
	out := noneNear
	for cy := cy0; cy <= cy1; cy++ {
		row := cy * ix.nx
		for cx := cx0; cx <= cx1; cx++ {
			c := row + cx
			for _, id := range ix.items[ix.start[c]:ix.start[c+1]] {
				s := &ix.segs[id]
				// the cheap test first: most segments near a dense region's
				// point are of another direction or kind
				if !w.accepts(s, fill, stroke) {
					continue
				}
				if d2 := segDist2(p, s); d2 <= lo2 {
					return allNear
				} else if d2 <= hi2 {
					out = someNear
				}
			}
		}
	}
	return out
}
