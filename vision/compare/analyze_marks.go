package compare

import (
	"cmp"
	"image"
	"math"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/vector"
)

// revMark is a revision mark found on one side: a cloud (a closed chain of
// arcs bulging outwards) or a delta (a triangle, usually with the
// revision's number inside).
type revMark struct {
	cloud  bool
	box    geom.Box          // the side's own frame
	curves [][4]vector.Point // a vector cloud's arcs (side's frame), for explaining its ink
	width  float64           // stroke width, pixels
	length float64           // outline length, pixels
}

// Vector clouds: a chain of at least cloudMinArcs Bézier arcs, each
// bulging by at least cloudMinBulge of its chord, meeting at cusps (the
// tangent turns by 30° or more) at least cloudMinArcs times, closed.
const (
	cloudMinArcs  = 6
	cloudMinBulge = 0.1
)

// marks finds revision clouds and deltas added or removed: from the page
// geometry when a side has it, then from the shape of the residue ink
// (pixelMarks). A mark is added when the diff shows its outline's ink new
// (at least 30 % of its length in pixels) and no mark of A lies at the
// same place; removed likewise. Its ink is explained (a cloud's outline
// only — what it encloses is reported for itself), and the words inside a
// delta belong to it.
func (an *analysis) marks() {
	bm := revisionMarksOf(an.b.Page, an.dpi)
	am := revisionMarksOf(an.a.Page, an.dpi)
	for _, m := range bm {
		an.vectorMark(m, am, true)
	}
	for _, m := range am {
		an.vectorMark(m, bm, false)
	}
	if an.areas != nil {
		an.pixelMarks(true)
		an.pixelMarks(false)
	}
}

// vectorMark reports one mark of a side's geometry when the diff backs it
// and the other side has no mark at its place.
func (an *analysis) vectorMark(m revMark, others []revMark, added bool) {
	box, toB := m.box, func(p vector.Point) (float64, float64) { return float64(p.X), float64(p.Y) }
	if !added {
		box = an.mapBox(m.box)
		toB = func(p vector.Point) (float64, float64) { return an.t.Apply(float64(p.X), float64(p.Y)) }
	}
	for _, o := range others {
		ob := o.box
		if added {
			ob = an.mapBox(o.box)
		}
		if o.cloud == m.cloud && ob.IoU(box) >= 0.5 {
			return
		}
	}
	if !m.cloud && an.deltaText(m.box, added) == "" {
		return // a triangle with no number is not a delta
	}
	for _, c := range an.out {
		if c.Category == CategoryRevisionMark && c.Kind == map[bool]string{true: KindAdded, false: KindRemoved}[added] && c.Bounds.IoU(box) >= 0.8 {
			return // the same mark drawn twice (stroke and fill)
		}
	}
	var ink int
	if m.cloud {
		// the outline's band: the box less its inside beyond the bumps.
		band := 0.0
		for _, c := range m.curves {
			band = max(band, bulge(c))
		}
		in := growBox(box, -(band*an.t.Scale + m.width + 2*an.tol))
		ink = an.ink(growBox(box, an.tol), added)
		if in.Valid() {
			ink -= an.ink(in, added)
		}
	} else {
		ink = an.ink(growBox(box, an.tol), added)
	}
	if float64(ink) < 0.3*m.length*an.t.Scale {
		return
	}
	if m.cloud {
		rad := m.width/2 + an.tol + 1
		for _, c := range m.curves {
			for _, p := range sampleCurve(c) {
				x, y := toB(p)
				an.explainDisc(x, y, rad, added)
			}
		}
	} else {
		an.explain(growBox(box, an.tol), added, !added)
		an.own(box)
	}
	an.emitMark(m.cloud, box, added, 0.9, m.box)
}

// emitMark emits a revision-mark change; boxSide is the mark's box in its
// own side's frame (for BoundsA of a removed one).
func (an *analysis) emitMark(cloud bool, box geom.Box, added bool, conf float64, boxSide geom.Box) {
	c := Change{Kind: KindAdded, Category: CategoryRevisionMark, Bounds: box, Severity: SeverityMinor, Confidence: conf}
	if !added {
		c.Kind = KindRemoved
		c.BoundsA = &boxSide
	}
	if cloud {
		c.Description = "revision cloud " + c.Kind
	} else {
		c.Description = "revision delta " + c.Kind
		if n := an.deltaText(boxSide, added); n != "" && n != "?" {
			c.Description = "revision delta " + n + " " + c.Kind
		}
	}
	an.emit(c)
}

// deltaText is the revision number inside a delta's box (in its side's
// frame): the words whose centres lie inside it, else the page's glyphs
// there; "" when there is none or it is longer than three characters (a
// triangle around other text is no delta).
func (an *analysis) deltaText(b geom.Box, added bool) string {
	s := an.b
	if !added {
		s = an.a
	}
	inside := func(x, y float64) bool { return x > b.XMin && x < b.XMax && y > b.YMin && y < b.YMax }
	var parts []string
	for _, w := range s.Words {
		if x, y := centerOf(w.Box); inside(x, y) {
			parts = append(parts, strings.TrimSpace(w.Text))
		}
	}
	if len(parts) == 0 && s.Page != nil {
		var rs []rune
		for _, g := range s.Page.Glyphs {
			if inside(float64(g.Box.X0+g.Box.X1)/2, float64(g.Box.Y0+g.Box.Y1)/2) {
				rs = append(rs, g.Rune)
			}
		}
		parts = append(parts, string(rs))
	}
	t := strings.Join(parts, "")
	if n := len([]rune(t)); n == 0 || n > 3 {
		return ""
	}
	return t
}

// revisionMarksOf finds clouds and deltas in a page's geometry.
func revisionMarksOf(p *vector.Page, dpi float64) []revMark {
	if p == nil {
		return nil
	}
	var out []revMark
	var open []arcRun
	for i := range p.Paths {
		pa := p.Paths[i]
		cmds, pt := p.PathCmds(i)
		var start, cur vector.Point
		var segs [][4]vector.Point // a line's controls are its ends
		var kinds []bool           // true for a curve
		flush := func(closed bool) {
			if len(segs) == 0 {
				return
			}
			if !closed && len(segs) > 0 && dist32(segs[len(segs)-1][3], start) <= max(1, 0.02*chordSum(segs)) {
				closed = true
			}
			if m, ok := cloudOf(segs, kinds, closed, pa.Width); ok {
				out = append(out, m)
			} else if m, ok := deltaOf(segs, kinds, closed, pa.Width, dpi); ok {
				out = append(out, m)
			} else if !closed {
				open = append(open, curveRuns(segs, kinds, pa.Width)...)
			}
			segs, kinds = segs[:0], kinds[:0]
		}
		for _, c := range cmds {
			switch c {
			case vector.MoveTo:
				flush(false)
				start, cur = p.Pts[pt], p.Pts[pt]
				pt++
			case vector.LineTo:
				segs = append(segs, [4]vector.Point{cur, cur, p.Pts[pt], p.Pts[pt]})
				kinds = append(kinds, false)
				cur = p.Pts[pt]
				pt++
			case vector.CurveTo:
				segs = append(segs, [4]vector.Point{cur, p.Pts[pt], p.Pts[pt+1], p.Pts[pt+2]})
				kinds = append(kinds, true)
				cur = p.Pts[pt+2]
				pt += 3
			case vector.Close:
				if len(segs) > 0 && dist32(cur, start) > 0 {
					segs = append(segs, [4]vector.Point{cur, cur, start, start})
					kinds = append(kinds, false)
				}
				flush(true)
				cur = start
			}
		}
		flush(false)
	}
	return append(out, linkRuns(open)...)
}

// arcRun is an open chain of arcs (a cloud drawn as separate paths).
type arcRun struct {
	curves [][4]vector.Point
	width  float64
}

// curveRuns cuts a subpath into its runs of consecutive curves.
func curveRuns(segs [][4]vector.Point, kinds []bool, width float32) []arcRun {
	var out []arcRun
	var cur []([4]vector.Point)
	for i, s := range segs {
		if kinds[i] {
			cur = append(cur, s)
			continue
		}
		if len(cur) > 0 {
			out = append(out, arcRun{curves: cur, width: float64(width)})
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, arcRun{curves: cur, width: float64(width)})
	}
	return out
}

// linkRuns joins runs whose ends meet (within 1.5 px) and keeps the closed
// chains that are clouds.
func linkRuns(runs []arcRun) []revMark {
	ends := func(r arcRun) [2]vector.Point { return [2]vector.Point{r.curves[0][0], r.curves[len(r.curves)-1][3]} }
	deg := make([][2]int, len(runs))
	boxes := make([]geom.Box, len(runs))
	for i, r := range runs {
		e := ends(r)
		boxes[i] = geom.Box{XMin: float64(min(e[0].X, e[1].X)), YMin: float64(min(e[0].Y, e[1].Y)),
			XMax: float64(max(e[0].X, e[1].X)), YMax: float64(max(e[0].Y, e[1].Y))}
	}
	gs := linkGroups(boxes, 1.5, func(i, j int) bool {
		ei, ej := ends(runs[i]), ends(runs[j])
		meet := false
		for a := 0; a < 2; a++ {
			for b := 0; b < 2; b++ {
				if dist32(ei[a], ej[b]) <= 1.5 {
					deg[i][a]++
					deg[j][b]++
					meet = true
				}
			}
		}
		return meet
	})
	var out []revMark
	for _, g := range gs {
		var segs [][4]vector.Point
		closed, w := true, 0.0
		for _, i := range g {
			if deg[i][0] == 0 || deg[i][1] == 0 {
				closed = false
			}
			segs = append(segs, runs[i].curves...)
			w = max(w, runs[i].width)
		}
		kinds := make([]bool, len(segs))
		for i := range kinds {
			kinds[i] = true
		}
		if len(g) > 1 && closed {
			if m, ok := cloudOf(segs, kinds, true, float32(w)); ok {
				out = append(out, m)
			}
		}
	}
	slices.SortFunc(out, func(x, y revMark) int {
		return cmp.Or(cmp.Compare(x.box.YMin, y.box.YMin), cmp.Compare(x.box.XMin, y.box.XMin))
	})
	return out
}

// cloudOf tells whether a closed chain of segments is a cloud.
func cloudOf(segs [][4]vector.Point, kinds []bool, closed bool, width float32) (revMark, bool) {
	var curves [][4]vector.Point
	for i, s := range segs {
		if kinds[i] {
			curves = append(curves, s)
		}
	}
	if !closed || len(curves) < cloudMinArcs || float64(len(curves)) < 0.8*float64(len(segs)) {
		return revMark{}, false
	}
	bulging, cusps := 0, 0
	for i, c := range curves {
		if ch := dist32(c[0], c[3]); ch > 0 && bulge(c) >= cloudMinBulge*ch {
			bulging++
		}
		next := curves[(i+1)%len(curves)]
		if dist32(c[3], next[0]) <= 1.5 && turnAngle(tangentOut(c), tangentIn(next)) >= 30 {
			cusps++
		}
	}
	if float64(bulging) < 0.8*float64(len(curves)) || cusps < cloudMinArcs {
		return revMark{}, false
	}
	m := revMark{cloud: true, curves: slices.Clone(curves), width: max(1, float64(width)), box: geom.Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}}
	for _, c := range curves {
		for _, p := range sampleCurve(c) {
			m.box = geom.Box{XMin: min(m.box.XMin, float64(p.X)), YMin: min(m.box.YMin, float64(p.Y)),
				XMax: max(m.box.XMax, float64(p.X)), YMax: max(m.box.YMax, float64(p.Y))}
		}
		m.length += arcLength(c)
	}
	return m, true
}

// deltaOf tells whether a closed subpath is a delta: three straight sides
// of similar length (within a ratio of 1.6), the longest between 0.08 and
// 1 inch.
func deltaOf(segs [][4]vector.Point, kinds []bool, closed bool, width float32, dpi float64) (revMark, bool) {
	if !closed || len(segs) != 3 || slices.Contains(kinds, true) {
		return revMark{}, false
	}
	lo, hi, per := math.Inf(1), 0.0, 0.0
	box := geom.Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}
	for _, s := range segs {
		l := dist32(s[0], s[3])
		lo, hi, per = min(lo, l), max(hi, l), per+l
		box = geom.Box{XMin: min(box.XMin, float64(s[0].X)), YMin: min(box.YMin, float64(s[0].Y)),
			XMax: max(box.XMax, float64(s[0].X)), YMax: max(box.YMax, float64(s[0].Y))}
	}
	if lo <= 0 || hi/lo > 1.6 || hi < 0.08*dpi || hi > dpi {
		return revMark{}, false
	}
	return revMark{box: growBox(box, float64(width)/2), width: float64(width), length: per}, true
}

// pixelMarks finds clouds and deltas in the shape of one side's residue
// ink (pixelCloud, pixelDelta), for sides without geometry or marks the
// geometry did not show.
func (an *analysis) pixelMarks(added bool) {
	// Closing by rc bridges the breaks a stroke-tolerant diff leaves
	// where a cloud crosses older lines (and keeps the cusps between bumps
	// of 0.1 in or more several pixels deep).
	rc := int(math.Ceil(an.tol/2)) + 1
	for _, g := range an.residue(added, 2*an.tol+4) {
		b := g.box()
		w, h := b.Width(), b.Height()
		// Marks from 0.08 in to 12 in (larger clouds are found in the page
		// geometry only: their bitmaps would cost hundreds of MB).
		if max(w, h) < 0.08*an.dpi || min(w, h) < 0.05*an.dpi || max(w, h) > 12*an.dpi {
			continue
		}
		bm := g.toBitmap(rc + 2)
		f := bm.dilate(rc).filled().erode(rc)
		area := f.count()
		fill := float64(area) / (w * h)
		cloudLike := min(w, h) >= an.dpi/6 && float64(len(g.px)) <= 0.5*float64(area)
		triLike := max(w, h) <= an.dpi && fill >= 0.35 && fill <= 0.65
		if area == 0 || !cloudLike && !triLike {
			continue
		}
		pts := f.contour()
		if len(pts) < 12 {
			continue
		}
		hull := hullIdx(pts)
		boxSide := b
		if !added {
			boxSide = an.unmapBox(b)
		}
		switch {
		case cloudLike && scalloped(pts, hull):
			// The outline is the parts that reach the shape's outer band;
			// what the cloud encloses stays for the other steps.
			band := f.outside().dilate(rc + 2)
			var outline []inkComp
			n := 0
			for _, p := range g.parts {
				if p.within(band) >= 0.5 {
					outline = append(outline, p)
					n += len(p.px)
				}
			}
			if float64(n) > 0.35*float64(area) {
				continue
			}
			for i := range outline {
				outline[i].explain()
			}
			an.emitMark(true, b, added, 0.75, boxSide)
		case triLike && isTriangle(pts, hull, area, w*h):
			// A delta holds its number: a word or a separate mark inside.
			inner := an.deltaText(boxSide, added) != ""
			for _, p := range g.parts {
				if pb := p.box(); pb.Intersect(b).Area() >= 0.9*pb.Area() && pb.Area() < 0.25*b.Area() {
					inner = true
				}
			}
			if !inner {
				continue
			}
			an.explain(growBox(b, an.tol), added, !added)
			an.own(b)
			an.emitMark(false, b, added, 0.75, boxSide)
		}
	}
}

// scalloped reports whether a filled shape's outline is a loop of bumps:
// at least cloudMinArcs concavities of 4 px or more and at least 40 % of
// the median such depth, spread all round (no gap between neighbours over
// 35 % of the outline).
func scalloped(pts []image.Point, hull []int) bool {
	var deep []defect
	var depths []float64
	for _, d := range defects(pts, hull) {
		if d.depth >= 4 {
			deep = append(deep, d)
			depths = append(depths, d.depth)
		}
	}
	if len(deep) < cloudMinArcs {
		return false
	}
	slices.Sort(depths)
	med := depths[len(depths)/2]
	var at []int
	for _, d := range deep {
		if d.depth >= 0.4*med {
			at = append(at, d.at)
		}
	}
	if len(at) < cloudMinArcs {
		return false
	}
	n := len(pts)
	for k := range at {
		gap := (at[(k+1)%len(at)] - at[k] + n) % n
		if float64(gap) > 0.35*float64(n) {
			return false
		}
	}
	return true
}

// isTriangle reports whether a filled shape is a triangle: three hull
// corners, convex (its area at least 85 % of its hull's) and filling
// 35–65 % of its box.
func isTriangle(pts []image.Point, hull []int, area int, boxArea float64) bool {
	if hullCorners(pts, hull) != 3 {
		return false
	}
	var hp []image.Point
	for _, i := range hull {
		hp = append(hp, pts[i])
	}
	ha := polyArea(hp)
	fill := float64(area) / boxArea
	return ha > 0 && polyArea(pts) >= 0.85*ha && fill >= 0.35 && fill <= 0.65
}

// Bézier helpers.

func dist32(a, b vector.Point) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

// bulge is how far a cubic's midpoint stands off its chord.
func bulge(c [4]vector.Point) float64 {
	mx := (float64(c[0].X) + 3*float64(c[1].X) + 3*float64(c[2].X) + float64(c[3].X)) / 8
	my := (float64(c[0].Y) + 3*float64(c[1].Y) + 3*float64(c[2].Y) + float64(c[3].Y)) / 8
	ex, ey := float64(c[3].X-c[0].X), float64(c[3].Y-c[0].Y)
	l := math.Hypot(ex, ey)
	if l == 0 {
		return 0
	}
	return math.Abs(ex*(my-float64(c[0].Y))-ey*(mx-float64(c[0].X))) / l
}

func tangentIn(c [4]vector.Point) [2]float64 {
	for _, p := range []vector.Point{c[1], c[2], c[3]} {
		if p != c[0] {
			return [2]float64{float64(p.X - c[0].X), float64(p.Y - c[0].Y)}
		}
	}
	return [2]float64{}
}

func tangentOut(c [4]vector.Point) [2]float64 {
	for _, p := range []vector.Point{c[2], c[1], c[0]} {
		if p != c[3] {
			return [2]float64{float64(c[3].X - p.X), float64(c[3].Y - p.Y)}
		}
	}
	return [2]float64{}
}

// turnAngle is the angle between two directions, degrees.
func turnAngle(a, b [2]float64) float64 {
	la, lb := math.Hypot(a[0], a[1]), math.Hypot(b[0], b[1])
	if la == 0 || lb == 0 {
		return 0
	}
	c := (a[0]*b[0] + a[1]*b[1]) / (la * lb)
	return math.Acos(max(-1, min(1, c))) * 180 / math.Pi
}

// sampleCurve samples a cubic about every pixel of its length.
func sampleCurve(c [4]vector.Point) []vector.Point {
	n := max(2, int(math.Ceil(arcLength(c))))
	out := make([]vector.Point, 0, n+1)
	for i := 0; i <= n; i++ {
		out = append(out, cubicAt(c, float64(i)/float64(n)))
	}
	return out
}

func cubicAt(c [4]vector.Point, t float64) vector.Point {
	u := 1 - t
	a, b, cc, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
	return vector.Point{
		X: float32(a*float64(c[0].X) + b*float64(c[1].X) + cc*float64(c[2].X) + d*float64(c[3].X)),
		Y: float32(a*float64(c[0].Y) + b*float64(c[1].Y) + cc*float64(c[2].Y) + d*float64(c[3].Y)),
	}
}

// arcLength approximates a cubic's length by its control polygon and chord.
func arcLength(c [4]vector.Point) float64 {
	poly := dist32(c[0], c[1]) + dist32(c[1], c[2]) + dist32(c[2], c[3])
	return (poly + dist32(c[0], c[3])) / 2
}

func chordSum(segs [][4]vector.Point) float64 {
	s := 0.0
	for _, c := range segs {
		s += dist32(c[0], c[3])
	}
	return s
}
