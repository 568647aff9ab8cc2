package vecsym

import (
	"context"
	"math"
	"math/cmplx"
	"sort"
)

// scorer searches one template at a time; each worker has its own.
type scorer struct {
	d     *Drawing
	o     Options
	seen  []uint32
	stamp uint32
}

var (
	// the least |cos| of the angle between a line and a mark that may be
	// taken for it: 12°, and for pieces of curves (flattened differently
	// in the legend and on the plan) 35°
	lineCos  = math.Cos(12 * math.Pi / 180)
	curveCos = math.Cos(35 * math.Pi / 180)
)

const (
	// a pose is verified when its quick test misses at most this many probes
	probeMisses = 2
	// poses covering less of the template than this are not kept
	minCovered = 0.7
	// the margin around a posed symbol whose marks reaching into it count
	// against it, as a share of the symbol's diagonal
	marginShare = 0.2
	// the band around a posed symbol's marks whose drawing marks it must
	// account for, as a share of its diagonal (and at least two tolerances)
	bandShare = 0.12
	// the drawing's marks are sampled this many times more sparsely than
	// the template's for the explained share
	explainStep = 3
)

// anyMark asks for a mark of any kind and direction.
var anyMark = want{anyDash: true}

// search finds every pose of t on the drawing.
func (sc *scorer) search(ctx context.Context, ti int, t *Template) []Candidate {
	found := newCandSet(t.size)
	tries, stopped := 0, false
	try := func(P pose) {
		if tries++; stopped || tries%1024 == 0 && ctx.Err() != nil {
			stopped = true // cancelled: the rest of the anchors cost nothing
			return
		}
		k := P.scale()
		if k < sc.o.MinScale*0.97 || k > sc.o.MaxScale*1.03 {
			return
		}
		if !sc.quick(t, P) {
			return
		}
		at := P.apply(t.centre)
		if found.settled(at, P) {
			return // another anchor found this pose already
		}
		if c, ok := sc.verify(ti, t, P); ok {
			found.add(c, at, P.turn())
		}
	}
	for _, a := range sc.anchors(t) {
		a.run(try)
	}
	return found.list()
}

// anchor is one of a template's anchors with the drawing's marks it is
// tried on: run calls try with every pose they give, cost estimates the
// probe lookups that takes.
type anchor struct {
	cost float64
	run  func(try func(pose))
}

// anchorBudget: anchors are tried from the cheapest on while their total
// cost stays within 3 times the cheapest's, or within this many probe
// lookups — on a sparse drawing every anchor is tried, on a dense one
// (hatching drawn as lines, every short stroke a line anchor's candidate)
// the rarest kinds of mark carry the search.
const anchorBudget = 300_000

// anchors returns the anchors to try, cheapest first.
func (sc *scorer) anchors(t *Template) []anchor {
	d := sc.d
	lo, hi := sc.o.MinScale*0.97, sc.o.MaxScale*1.03
	var as []anchor
	for _, ai := range t.lineAnchors {
		A := t.lines[ai]
		i0 := sort.Search(len(d.lines), func(i int) bool { return d.lines[i].length >= A.length*lo })
		i1 := sort.Search(len(d.lines), func(i int) bool { return d.lines[i].length > A.length*hi })
		cands := d.lines[i0:max(i0, i1)]
		as = append(as, anchor{cost: 4 * 2.5 * float64(len(cands)), run: func(try func(pose)) {
			for i := range cands {
				D := &cands[i]
				if A.fill && !D.fill || !A.fill && A.stroke && !D.stroke {
					continue // not the same kind of mark (see sampleWant)
				}
				for _, mirror := range [2]bool{false, true} {
					if P, ok := poseFrom(A.a, A.b, D.a, D.b, mirror); ok {
						try(P)
					}
					if P, ok := poseFrom(A.a, A.b, D.b, D.a, mirror); ok {
						try(P)
					}
				}
			}
		}})
	}
	for _, ai := range t.arcAnchors {
		A := t.m.arcs[ai]
		var cands []*arc
		for _, di := range d.arcs {
			D := &d.m.arcs[di]
			if k := D.r / A.r; k >= lo && k <= hi && math.Abs(math.Abs(D.sweep)-math.Abs(A.sweep)) <= 0.1*math.Abs(A.sweep)+0.05 {
				cands = append(cands, D)
			}
		}
		as = append(as, anchor{cost: 4 * 2.5 * float64(len(cands)), run: func(try func(pose)) {
			for _, D := range cands {
				for _, mirror := range [2]bool{false, true} {
					if P, ok := poseFrom(A.p0, A.p1, D.p0, D.p1, mirror); ok {
						try(P)
					}
					if P, ok := poseFrom(A.p0, A.p1, D.p1, D.p0, mirror); ok {
						try(P)
					}
				}
			}
		}})
	}
	if t.glyphAnchor >= 0 {
		G := t.m.glyphs[t.glyphAnchor]
		var cands []*glyph
		for i := range d.m.glyphs {
			if D := &d.m.glyphs[i]; D.r == G.r {
				cands = append(cands, D)
			}
		}
		as = append(as, anchor{cost: 2.5 * float64(len(cands)), run: func(try func(pose)) {
			for _, D := range cands {
				try(poseAt(G.c, D.c, D.size/G.size, D.ang-G.ang, false))
			}
		}})
	}
	if t.circle >= 0 {
		C := t.m.arcs[t.circle]
		var cands []*arc
		for _, di := range d.circles {
			if D := &d.m.arcs[di]; D.r/C.r >= lo && D.r/C.r <= hi {
				cands = append(cands, D)
			}
		}
		if len(t.lineAnchors) > 0 {
			as = append(as, sc.circleLine(t, cands))
		}
		as = append(as, anchor{cost: 2 * sweepSteps * float64(len(t.probes)) * float64(len(cands)), run: func(try func(pose)) {
			for _, D := range cands {
				sc.sweep(t, C.c, D.c, D.r/C.r, try)
			}
		}})
	}
	sort.SliceStable(as, func(i, j int) bool { return as[i].cost < as[j].cost })
	total := 0.0
	for i, a := range as {
		if total += a.cost; i > 0 && total > max(3*as[0].cost, anchorBudget) {
			return as[:i]
		}
	}
	return as
}

// sweepSteps are the turns a circle anchor tries (every 3°).
const sweepSteps = 120

// sweep tries every turn about a circle's centre (a symbol whose only
// anchor is a circle: its turn is read from its other marks).
func (sc *scorer) sweep(t *Template, c, q pt, k float64, try func(pose)) {
	const steps = sweepSteps
	for _, mirror := range [2]bool{false, true} {
		best, bestHits := -1, -1
		for i := 0; i < steps; i++ {
			P := poseAt(c, q, k, 2*math.Pi*float64(i)/steps, mirror)
			if h, _ := sc.probe(t, P, false); h > bestHits {
				best, bestHits = i, h
			}
		}
		if bestHits < len(t.probes)-probeMisses {
			continue
		}
		// refine the best turn
		phi := 2 * math.Pi * float64(best) / steps
		for _, d := range []float64{-1, -0.5, 0, 0.5, 1} {
			try(poseAt(c, q, k, phi+d*2*math.Pi/steps, mirror))
		}
	}
}

func (sc *scorer) tol(t *Template, k float64) float64 { return 1 + 0.015*k*t.size }

// sampleTol is how far from template sample s posed by P the drawing's
// mark may lie: tol, and for a piece of a curve P's slack more.
func sampleTol(P pose, tol float64, s *sample) float64 {
	if s.curve {
		return tol + P.slack
	}
	return tol
}

// sampleWant is what the drawing must have at a template sample posed:
// a mark along the sample's direction turned by the pose (turn, mirror)
// and of its kind — a filled edge for an edge of a filled area, outlined
// or not (plot styles differ on whether a fill's outline is drawn), a
// stroked line for a stroked line.
func sampleWant(turn complex128, mirror bool, s *sample) want {
	u := s.u
	if mirror {
		u = cmplx.Conj(u)
	}
	c := lineCos
	if s.curve {
		c = curveCos
	}
	return want{u: turn * u, cosTol: c, fill: s.fill, stroke: s.stroke && !s.fill, dashed: s.dashed, dark: !s.faint && !s.fill}
}

// probe looks for the template's probes at pose P: hits counts those
// found, and ok says whether the pose passes the quick test — two of the
// first four missed, or three in all, fail it (most wrong poses are given
// up after two looks). With early, it stops as soon as the pose fails.
func (sc *scorer) probe(t *Template, P pose, early bool) (hits int, ok bool) {
	tol := sc.tol(t, P.scale())
	turn := P.turn()
	miss := 0
	ok = true
	for n, i := range t.probes {
		s := &t.pts[i]
		if sc.d.ix.near(P.apply(s.p), sampleTol(P, tol, s), sampleWant(turn, P.mirror, s)) {
			hits++
			continue
		}
		if miss++; miss > probeMisses || miss == 2 && n < 4 {
			ok = false
			if early {
				return hits, false
			}
		}
	}
	return hits, ok
}

// quick tests P on the probes.
func (sc *scorer) quick(t *Template, P pose) bool {
	_, ok := sc.probe(t, P, true)
	return ok
}
