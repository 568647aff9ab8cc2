package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/plangraph/plangraph/vision/geom"
)

// inkPiece is a piece of residue linework: residue ink of one side
// gathered by proximity.
type inkPiece struct {
	c     inkComp
	box   geom.Box // B's frame
	hatch bool
	used  bool
	grown *bitmap // c dilated by the tolerance, made when first needed
}

// linework reports the ink no other step explained. Pieces are residue
// ink within max(3·tolerance, 1/30 in) of each other, of at least 40
// pixels at 300 DPI (scaled with the resolution's square). A removed and
// an added piece of the same shape (the removed one, shifted, lands
// within the tolerance of the added one for 60 % of both their pixels), of
// similar size, apart by no more than their own extent or an inch, are one
// piece moved; pieces moved by the same shift side by side are one change
// ("wall moved …" when two or more long parallel pieces move together).
// The rest is grouped across sides, pieces within 1/12 in of each other
// together: added and removed ink together is linework changed
// (modified), alone added or removed. Hatches and screened fills
// (hatchLike) are reported as such, or left out under
// Options.IgnoreHatches.
func (an *analysis) linework() {
	if an.areas == nil {
		an.regionLinework()
		return
	}
	minInk := max(20, int(40*an.dpi*an.dpi/(300*300)))
	gap := max(3*an.tol, an.dpi/30)
	var adds, dels []*inkPiece
	for _, added := range []bool{true, false} {
		for _, g := range an.residue(added, gap) {
			b := g.box()
			if len(g.px) < minInk || max(b.Width(), b.Height()) < max(2*an.tol, an.dpi/50) {
				continue
			}
			if an.redrawn(b) {
				g.explain()
				continue
			}
			p := &inkPiece{c: g, box: b, hatch: an.hatchLike(&g)}
			if p.hatch && an.opt.IgnoreHatches {
				g.explain()
				continue
			}
			if added {
				adds = append(adds, p)
			} else {
				dels = append(dels, p)
			}
		}
	}
	an.movedPieces(adds, dels, minInk)
	var rest []*inkPiece
	for _, p := range append(slices.Clone(adds), dels...) {
		if !p.used {
			rest = append(rest, p)
		}
	}
	boxes := make([]geom.Box, len(rest))
	for i, p := range rest {
		boxes[i] = p.box
	}
	// One change per neighbourhood: pieces within 1/12 in (25 px at 300
	// DPI) of each other are one edit's (a wall and its door swing).
	for _, cl := range ClusterBoxes(boxes, max(gap, an.dpi/12)) {
		var c Change
		var ba geom.Box
		nAdd, nDel, n, hatch := 0, 0, 0, true
		for _, i := range cl {
			p := rest[i]
			c.Bounds = unionBox(c.Bounds, p.box)
			n += len(p.c.px)
			hatch = hatch && p.hatch
			if p.c.added {
				nAdd++
			} else {
				nDel++
				ba = unionBox(ba, an.unmapBox(p.box))
			}
		}
		switch {
		case nAdd > 0 && nDel > 0:
			c.Kind = KindModified
		case nAdd > 0:
			c.Kind = KindAdded
		default:
			c.Kind = KindRemoved
		}
		if nDel > 0 {
			c.BoundsA = &ba
		}
		c.Category = CategoryLinework
		verb := map[string]string{KindModified: "changed", KindAdded: "added", KindRemoved: "removed"}[c.Kind]
		what := "linework"
		if hatch {
			what = "hatch"
		}
		c.Description = an.where(what+" "+verb, c.Bounds)
		c.Severity = lineworkSeverity(c.Bounds, an.dpi, hatch)
		c.Confidence = 0.5 + 0.5*min(1, float64(n)/float64(10*minInk))
		an.emit(c)
	}
}

// where completes a linework description with the nearest label and the
// block's title: "linework added near OFFICE 104 in FIRST FLOOR PLAN".
func (an *analysis) where(s string, b geom.Box) string {
	if l := an.nearLabel(b); l != "" {
		s += " near " + l
	}
	if an.b.Title != "" {
		s += " in " + an.b.Title
	}
	return s
}

// movedPieces pairs removed and added pieces of the same shape a short way
// apart and reports them as moved.
func (an *analysis) movedPieces(adds, dels []*inkPiece, minInk int) {
	if len(adds)*len(dels) > 250_000 {
		return // a block that changed everywhere: no moves worth the search
	}
	type cand struct {
		d, a   *inkPiece
		dx, dy float64
		score  float64
	}
	var cs []cand
	for _, d := range dels {
		for _, a := range adds {
			if d.hatch != a.hatch || !similarSize(d, a, an.tol) {
				continue
			}
			best := cand{score: -1}
			for _, dx := range spanShifts(d.box.XMin, d.box.XMax, a.box.XMin, a.box.XMax) {
				for _, dy := range spanShifts(d.box.YMin, d.box.YMax, a.box.YMin, a.box.YMax) {
					dd := math.Hypot(dx, dy)
					if dd <= 2*an.tol || dd > max(d.box.Width(), d.box.Height(), an.dpi) {
						continue
					}
					s := min(an.landing(d, a, dx, dy), an.landing(a, d, -dx, -dy))
					if s > best.score {
						best = cand{d, a, dx, dy, s}
					}
				}
			}
			if best.score >= 0.6 {
				cs = append(cs, best)
			}
		}
	}
	// Prefer shifts other candidates share (a wall's two faces move
	// together), then the better fit (to a tenth), then the shorter move.
	support := make([]int, len(cs))
	for i := range cs {
		for j := range cs {
			if math.Hypot(cs[i].dx-cs[j].dx, cs[i].dy-cs[j].dy) <= 2*an.tol+2 {
				support[i]++
			}
		}
	}
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		x, y := cs[i], cs[j]
		return cmp.Or(cmp.Compare(support[j], support[i]), cmp.Compare(math.Round(y.score*10), math.Round(x.score*10)),
			cmp.Compare(math.Hypot(x.dx, x.dy), math.Hypot(y.dx, y.dy)))
	})
	sorted := make([]cand, len(cs))
	for k, i := range order {
		sorted[k] = cs[i]
	}
	cs = sorted
	var pairs []cand
	for _, c := range cs {
		if !c.d.used && !c.a.used {
			c.d.used, c.a.used = true, true
			pairs = append(pairs, c)
		}
	}
	// Pieces moved by one shift side by side are one change.
	boxes := make([]geom.Box, len(pairs))
	for i, p := range pairs {
		boxes[i] = unionBox(p.a.box, p.d.box)
	}
	var groups [][]int
	for _, cl := range ClusterBoxes(boxes, an.dpi/2) {
		for len(cl) > 0 {
			ref := pairs[cl[0]]
			var same, other []int
			for _, i := range cl {
				if math.Hypot(pairs[i].dx-ref.dx, pairs[i].dy-ref.dy) <= 2*an.tol+2 {
					same = append(same, i)
				} else {
					other = append(other, i)
				}
			}
			groups = append(groups, same)
			cl = other
		}
	}
	for _, g := range groups {
		var c Change
		var ba geom.Box
		n, dx, dy := 0, 0.0, 0.0
		var long []geom.Box
		for _, i := range g {
			p := pairs[i]
			c.Bounds = unionBox(c.Bounds, p.a.box)
			ba = unionBox(ba, an.unmapBox(p.d.box))
			n += len(p.a.c.px) + len(p.d.c.px)
			dx += p.dx
			dy += p.dy
			if w, h := p.a.box.Width(), p.a.box.Height(); max(w, h) >= 6*min(w, h) {
				long = append(long, p.a.box)
			}
		}
		dx, dy = dx/float64(len(g)), dy/float64(len(g))
		what := "linework"
		if pairs[g[0]].a.hatch {
			what = "hatch"
		} else if parallelPair(long, an.dpi) {
			what = "wall"
		}
		c.Kind, c.Category, c.BoundsA = KindMoved, CategoryLinework, &ba
		c.Description = an.where(fmt.Sprintf("%s moved %s %s", what, an.distance(math.Hypot(dx, dy)), directionWord(dx, dy)), c.Bounds)
		c.Severity = SeverityModerate
		if max(c.Bounds.Width(), c.Bounds.Height()) >= an.dpi {
			c.Severity = SeverityMajor
		}
		c.Confidence = 0.5 + 0.5*min(1, float64(n)/float64(20*minInk))
		an.emit(c)
	}
}

// similarSize: boxes within a quarter (or twice the tolerance) of each
// other's width and height, ink counts within a factor of 1.5.
func similarSize(p, q *inkPiece, tol float64) bool {
	near := func(a, b float64) bool { return math.Abs(a-b) <= max(2*tol, 0.25*max(a, b)) }
	np, nq := float64(len(p.c.px)), float64(len(q.c.px))
	return near(p.box.Width(), q.box.Width()) && near(p.box.Height(), q.box.Height()) && max(np, nq) <= 1.5*min(np, nq)
}

// spanShifts are the candidate shifts along one axis that carry the span
// [a0, a1] onto [b0, b1]: centres, starts or ends aligned.
func spanShifts(a0, a1, b0, b1 float64) []float64 {
	return []float64{(b0 + b1 - a0 - a1) / 2, b0 - a0, b1 - a1}
}

// landing is the share of p's pixels that, shifted by (dx, dy), land
// within the tolerance of q's.
func (an *analysis) landing(p, q *inkPiece, dx, dy float64) float64 {
	r := int(math.Ceil(an.tol)) + 1
	if q.grown == nil {
		q.grown = q.c.toBitmap(r).dilate(r)
	}
	aw := p.c.ar.r.Dx()
	ix, iy := int(math.Round(dx)), int(math.Round(dy))
	hit := 0
	for _, i := range p.c.px {
		x := int(i)%aw + p.c.ar.r.Min.X + ix - q.grown.origin.X
		y := int(i)/aw + p.c.ar.r.Min.Y + iy - q.grown.origin.Y
		if q.grown.at(x, y) {
			hit++
		}
	}
	return float64(hit) / float64(max(1, len(p.c.px)))
}

// parallelPair reports whether at least two long boxes run the same way
// side by side, 0.03–0.5 in apart: the two faces of a wall.
func parallelPair(bs []geom.Box, dpi float64) bool {
	for i := range bs {
		for j := i + 1; j < len(bs); j++ {
			p, q := bs[i], bs[j]
			ph, qh := p.Width() >= p.Height(), q.Width() >= q.Height()
			if ph != qh {
				continue
			}
			var gap float64
			if ph {
				gap = math.Abs((p.YMin+p.YMax)/2 - (q.YMin+q.YMax)/2)
			} else {
				gap = math.Abs((p.XMin+p.XMax)/2 - (q.XMin+q.XMax)/2)
			}
			if gap >= 0.03*dpi && gap <= 0.5*dpi {
				return true
			}
		}
	}
	return false
}

// directionWord names a shift in image terms: "right", "up-left", ….
func directionWord(dx, dy float64) string {
	var v, h string
	if math.Abs(dy) >= 0.4*math.Abs(dx) {
		v = map[bool]string{true: "down", false: "up"}[dy > 0]
	}
	if math.Abs(dx) >= 0.4*math.Abs(dy) {
		h = map[bool]string{true: "right", false: "left"}[dx > 0]
	}
	switch {
	case v != "" && h != "":
		return v + "-" + h
	case v != "":
		return v
	}
	return h
}

// hatchLike reports whether a residue group is hatching or a screened
// fill: at least 1/6 in on both sides (and at most 144 in²), and either many evenly spaced
// strokes (a median of 3 or more ink runs per row and per column, the
// gaps between runs along rows varying by at most 35 % of their mean), or
// a light solid area (covering half its box, median grey 100 or lighter in
// the diff image).
func (an *analysis) hatchLike(g *inkComp) bool {
	b := g.box()
	if min(b.Width(), b.Height()) < an.dpi/6 || b.Area() > 144*an.dpi*an.dpi {
		return false // too small to tell, or larger than 12 × 12 in: not judged
	}
	bm := g.toBitmap(0)
	if n := len(g.px); float64(n) >= 0.5*b.Area() {
		src := an.ov.Addition
		if !g.added {
			src = an.ov.Deletion
		}
		var greys []int
		aw := g.ar.r.Dx()
		for _, i := range g.px {
			greys = append(greys, int(src.GrayAt(int(i)%aw+g.ar.r.Min.X, int(i)/aw+g.ar.r.Min.Y).Y))
		}
		slices.Sort(greys)
		return greys[len(greys)/2] >= 100
	}
	runs := func(n, m int, at func(i, j int) bool) (int, []float64) {
		var counts []int
		var gaps []float64
		for i := 0; i < n; i++ {
			c, last, in := 0, -1, false
			for j := 0; j < m; j++ {
				on := at(i, j)
				if on && !in {
					c++
					if last >= 0 {
						gaps = append(gaps, float64(j-last))
					}
				}
				if !on && in {
					last = j
				}
				in = on
			}
			if c > 0 {
				counts = append(counts, c)
			}
		}
		if len(counts) == 0 {
			return 0, nil
		}
		slices.Sort(counts)
		return counts[len(counts)/2], gaps
	}
	rowRuns, gaps := runs(bm.h, bm.w, func(i, j int) bool { return bm.on[i*bm.w+j] })
	colRuns, _ := runs(bm.w, bm.h, func(i, j int) bool { return bm.on[j*bm.w+i] })
	if rowRuns < 3 || colRuns < 3 || len(gaps) < 4 {
		return false
	}
	mean, sd := 0.0, 0.0
	for _, g := range gaps {
		mean += g
	}
	mean /= float64(len(gaps))
	for _, g := range gaps {
		sd += (g - mean) * (g - mean)
	}
	sd = math.Sqrt(sd / float64(len(gaps)))
	return sd <= 0.35*mean
}

// regionLinework reports, without diff images, each region that the
// changes found so far do not cover for 70 % of its area: added when its
// removed pixels are at most a fifth of its added ones, removed in the
// opposite case, else modified.
func (an *analysis) regionLinework() {
	for _, rg := range an.ov.Regions {
		a := rg.Bounds.Area()
		if a == 0 || rg.Added+rg.Removed == 0 {
			continue
		}
		cov := 0.0
		for _, bs := range an.explainedBoxes {
			for _, e := range bs {
				cov = max(cov, e.Intersect(rg.Bounds).Area()/a)
			}
		}
		if cov >= 0.7 {
			continue
		}
		c := Change{Category: CategoryLinework, Bounds: rg.Bounds}
		switch {
		case 5*rg.Removed <= rg.Added:
			c.Kind = KindAdded
		case 5*rg.Added <= rg.Removed:
			c.Kind = KindRemoved
		default:
			c.Kind = KindModified
		}
		if c.Kind != KindAdded {
			ba := an.unmapBox(rg.Bounds)
			c.BoundsA = &ba
		}
		verb := map[string]string{KindModified: "changed", KindAdded: "added", KindRemoved: "removed"}[c.Kind]
		c.Description = an.where("linework "+verb, c.Bounds)
		c.Severity = lineworkSeverity(c.Bounds, an.dpi, false)
		c.Confidence = 0.5 // no pixels to judge the evidence by
		an.emit(c)
	}
}
