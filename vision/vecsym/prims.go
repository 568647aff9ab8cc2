package vecsym

import (
	"math"
	"math/cmplx"
	"sort"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/vector"
)

// seg is a straight piece of a mark: a line of a path, or a piece of a
// flattened curve.
type seg struct {
	a, b   pt
	ang    float64    // direction, mod π
	u      complex128 // direction, a unit vector from a to b
	length float64
	fill   bool // an edge of a filled area
	stroke bool // a stroked line
	curve  bool // a piece of a curve
	// faint: drawn in a light grey (tile grids, hatching and backgrounds
	// that CAD sheets plot in a screened pen)
	faint  bool
	dashed bool
	path   int32 // the path it came from
}

// arc is a circular arc recognised among a path's curves.
type arc struct {
	c      pt
	r      float64
	a0     float64 // start angle, radians (atan2 in page pixels)
	sweep  float64 // signed, radians
	p0, p1 pt      // ends
	full   bool    // a whole circle
	fill   bool
	stroke bool
}

// glyph is a character of text.
type glyph struct {
	r    rune // upper case
	c    pt   // the middle of its em box at cap height
	size float64
	ang  float64 // baseline direction, radians (atan2 in page pixels)
}

// marks is the geometry of a region: its segments, arcs and glyphs, in the
// region's pixels.
type marks struct {
	segs   []seg
	arcs   []arc
	glyphs []glyph
	// loops are the closed outlines (a legend graphic's only): what lies
	// inside one is a part of what the symbol shows
	loops [][]pt
	box   vector.Rect // of everything
}

// regionMode says how marks crossing the region's edge are taken.
type regionMode int

const (
	// clipToRegion cuts marks at the region's edge (a view block).
	clipToRegion regionMode = iota
	// insideRegion keeps only paths wholly inside (a legend graphic: the
	// legend's frame and table lines cross its box, the symbol does not).
	insideRegion
)

// faintGrey: paint at least this light is faint linework.
const faintGrey = 0.35

// inkGrey: paint lighter than this is paper (white fills behind text,
// wipeouts), not a mark.
const inkGrey = 0.85

// curveTol is the flattening tolerance, pixels.
const curveTol = 0.25

// readMarks collects the marks of pg inside r, moved so that r's corner is
// the origin.
func readMarks(pg *vector.Page, r vector.Rect, mode regionMode) *marks {
	return readMarksSkipping(pg, r, mode, nil)
}

// readMarksSkipping is readMarks leaving out the paths and glyphs that lie
// wholly inside one of skip.
func readMarksSkipping(pg *vector.Page, r vector.Rect, mode regionMode, skip []vector.Rect) *marks {
	m := &marks{box: vector.NoRect}
	within := func(b vector.Rect) bool {
		for _, s := range skip {
			if b.X0 >= s.X0 && b.Y0 >= s.Y0 && b.X1 <= s.X1 && b.Y1 <= s.Y1 {
				return true
			}
		}
		return false
	}
	off := complex(float64(r.X0), float64(r.Y0))
	grow := float32(2)
	for i := range pg.Paths {
		pa := &pg.Paths[i]
		if pa.Alpha < 0.05 || pa.Grey < 0 || pa.Grey > inkGrey {
			continue
		}
		cmds, k := pg.PathCmds(i)
		bb := pathBox(pg, cmds, k)
		if !bb.Intersects(r) || !bb.Intersects(pa.Clip) || len(skip) > 0 && (within(bb) || within(curveBox(pg, cmds, k))) {
			continue
		}
		lim := r
		if mode == insideRegion {
			g := r.Grow(grow + pa.Width/2)
			out := func(b vector.Rect) bool { return b.X0 < g.X0 || b.Y0 < g.Y0 || b.X1 > g.X1 || b.Y1 > g.Y1 }
			// a curve's control points lie outside it (a quarter circle's by
			// 14 % of the radius): only what it draws must be inside
			if out(bb) && out(curveBox(pg, cmds, k)) {
				continue
			}
			lim = g
		}
		clip := intersect(lim, pa.Clip)
		m.addPath(pg, cmds, k, pa, int32(i), clip, off)
		if mode == insideRegion {
			m.loops = append(m.loops, pathLoops(pg, cmds, k, off)...)
		}
	}
	m.joinCircles()
	for _, g := range pg.Glyphs {
		if g.Grey < 0 || g.Grey > inkGrey || unicode.IsSpace(g.Rune) || g.Rune == 0 {
			continue
		}
		gl := newGlyph(g)
		c := vector.Point{X: float32(px(gl.c)), Y: float32(py(gl.c))}
		if !r.Contains(c) || within(g.Box) {
			continue
		}
		gl.c -= off
		m.glyphs = append(m.glyphs, gl)
		m.box = m.box.Union(moveRect(g.Box, -r.X0, -r.Y0))
	}
	return m
}

func newGlyph(g vector.Glyph) glyph {
	// the middle of the advance at half the cap height (0.35 em)
	x, y := float64(g.Adv)/2, 0.35
	c := complex(float64(g.A)*x+float64(g.C)*y+float64(g.E), float64(g.B)*x+float64(g.D)*y+float64(g.F))
	return glyph{r: unicode.ToUpper(g.Rune), c: c, size: g.Size(), ang: math.Atan2(float64(g.B), float64(g.A))}
}

func moveRect(r vector.Rect, dx, dy float32) vector.Rect {
	return vector.Rect{X0: r.X0 + dx, Y0: r.Y0 + dy, X1: r.X1 + dx, Y1: r.Y1 + dy}
}

func intersect(a, b vector.Rect) vector.Rect {
	return vector.Rect{X0: max(a.X0, b.X0), Y0: max(a.Y0, b.Y0), X1: min(a.X1, b.X1), Y1: min(a.Y1, b.Y1)}
}

func pathBox(pg *vector.Page, cmds []vector.Cmd, k int) vector.Rect {
	b := vector.NoRect
	n := 0
	for _, c := range cmds {
		switch c {
		case vector.MoveTo, vector.LineTo:
			n++
		case vector.CurveTo:
			n += 3
		}
	}
	for _, p := range pg.Pts[k : k+n] {
		b = b.AddPoint(p)
	}
	return b
}

// pathLoops returns a path's closed subpaths (closed, or ending where they
// began), curves flattened, moved by -off.
func pathLoops(pg *vector.Page, cmds []vector.Cmd, k int, off pt) [][]pt {
	at := func(j int) pt { return complex(float64(pg.Pts[j].X), float64(pg.Pts[j].Y)) - off }
	var out [][]pt
	var cur []pt
	done := func(closed bool) {
		if len(cur) >= 3 && (closed || dist(cur[0], cur[len(cur)-1]) < 0.25) {
			out = append(out, cur)
		}
		cur = nil
	}
	for _, c := range cmds {
		switch c {
		case vector.MoveTo:
			done(false)
			cur = []pt{at(k)}
			k++
		case vector.LineTo:
			cur = append(cur, at(k))
			k++
		case vector.CurveTo:
			if len(cur) == 0 {
				cur = []pt{0}
			}
			flatten(bezier{cur[len(cur)-1], at(k), at(k + 1), at(k + 2)}, func(_, b pt) { cur = append(cur, b) })
			k += 3
		case vector.Close:
			done(true)
		}
	}
	done(false)
	return out
}

// inside reports whether p lies inside the polygon (even-odd).
func inside(poly []pt, p pt) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (py(a) > py(p)) != (py(b) > py(p)) && px(p) < (px(b)-px(a))*(py(p)-py(a))/(py(b)-py(a))+px(a) {
			in = !in
		}
	}
	return in
}

// curveBox is the box of what a path draws: its curves' points, not their
// control points.
func curveBox(pg *vector.Page, cmds []vector.Cmd, k int) vector.Rect {
	b := vector.NoRect
	at := func(j int) pt { return complex(float64(pg.Pts[j].X), float64(pg.Pts[j].Y)) }
	var cur pt
	for _, c := range cmds {
		switch c {
		case vector.MoveTo, vector.LineTo:
			cur = at(k)
			b = b.AddPoint(pg.Pts[k])
			k++
		case vector.CurveTo:
			bz := bezier{cur, at(k), at(k + 1), at(k + 2)}
			for i := 1; i <= 16; i++ {
				b = b.AddPoint(toPoint(bz.at(float64(i) / 16)))
			}
			cur = bz[3]
			k += 3
		}
	}
	return b
}

// addPath adds one path's segments (lines joined end to end in one
// direction merged) and arcs, cut to clip.
func (m *marks) addPath(pg *vector.Page, cmds []vector.Cmd, k int, pa *vector.Path, id int32, clip vector.Rect, off pt) {
	fill := pa.Flags&vector.Fill != 0
	stroke := pa.Flags&vector.Stroke != 0
	faint := pa.Grey >= faintGrey
	dashed := pa.Flags&vector.Dashed != 0
	at := func(j int) pt { return complex(float64(pg.Pts[j].X), float64(pg.Pts[j].Y)) }
	var cur, start pt
	open := -1 // index in m.segs of the last line of this subpath, for merging
	var run []bezier
	var poly []int // this subpath's last lines joined end to end, in m.segs
	closed := false
	flushPoly := func() {
		if l := len(poly); l > 2 && dist(m.segs[poly[0]].a, m.segs[poly[l-1]].b) < 0.25 {
			closed = true // back at its start, closed or not
		}
		m.polyArcs(poly, closed)
		poly = poly[:0]
		closed = false
	}
	flushRun := func() {
		for _, a := range fitArcs(run) {
			if !clip.Contains(toPoint(a.c)) {
				continue
			}
			a.c -= off
			a.p0 -= off
			a.p1 -= off
			a.fill, a.stroke = fill, stroke
			m.arcs = append(m.arcs, a)
		}
		run = run[:0]
	}
	line := func(a, b pt, curve bool) {
		a2, b2, ok := clipSeg(a, b, clip)
		if !ok {
			open = -1
			return
		}
		a2 -= off
		b2 -= off
		s := seg{a: a2, b: b2, ang: lineAngle(a2, b2), u: unitDir(a2, b2), length: dist(a2, b2), fill: fill, stroke: stroke, curve: curve, path: id, faint: faint, dashed: dashed}
		if s.length < 1e-3 {
			return
		}
		if !curve && open >= 0 {
			o := &m.segs[open]
			if dist(o.b, a2) < 1e-3 && angleDiff(o.ang, s.ang) < 0.2*math.Pi/180 && real((o.b-o.a)*cmplx.Conj(b2-a2)) > 0 {
				o.b = b2
				o.length = dist(o.a, o.b)
				o.ang = lineAngle(o.a, o.b)
				o.u = unitDir(o.a, o.b)
				m.box = m.box.AddPoint(toPoint(b2))
				return
			}
		}
		m.segs = append(m.segs, s)
		m.box = m.box.AddPoint(toPoint(a2)).AddPoint(toPoint(b2))
		if curve {
			open = -1
		} else {
			open = len(m.segs) - 1
			if l := len(poly); l > 0 && dist(m.segs[poly[l-1]].b, a2) > 1e-3 {
				flushPoly()
			}
			poly = append(poly, open)
		}
	}
	for _, c := range cmds {
		switch c {
		case vector.MoveTo:
			flushRun()
			flushPoly()
			cur = at(k)
			start = cur
			open = -1
			k++
		case vector.LineTo:
			flushRun()
			p := at(k)
			line(cur, p, false)
			cur = p
			k++
		case vector.CurveTo:
			flushPoly()
			b := bezier{cur, at(k), at(k + 1), at(k + 2)}
			k += 3
			run = append(run, b)
			flatten(b, func(a, b pt) { line(a, b, true) })
			open = -1
			cur = b[3]
		case vector.Close:
			flushRun()
			if dist(cur, start) > 1e-3 {
				line(cur, start, false)
			}
			closed = true
			flushPoly()
			cur = start
			open = -1
		}
	}
	flushRun()
	flushPoly()
}

// polyArcs finds circles and arcs drawn as polygons — as some CAD programs
// export every curve — among lines joined end to end (idx, in m.segs; closed
// when the last meets the first): a run of five or more lines that turn
// one way by 2–40° at each corner and whose corners lie on one circle is an
// arc, and its lines are taken as pieces of a curve.
func (m *marks) polyArcs(idx []int, closed bool) {
	n := len(idx)
	if n < 5 {
		return
	}
	turn := func(i, j int) float64 {
		a, b := &m.segs[idx[i]], &m.segs[idx[j]]
		return wrapPi(cmplx.Phase(b.b-b.a) - cmplx.Phase(a.b-a.a))
	}
	ok := func(t, sign float64) bool {
		a := math.Abs(t)
		return a >= 2*math.Pi/180 && a <= 40*math.Pi/180 && (sign == 0 || math.Signbit(t) == math.Signbit(sign))
	}
	try := func(i, j int) bool { // lines i..j inclusive
		var pts []pt
		for k := i; k <= j; k++ {
			pts = append(pts, m.segs[idx[k]].a)
		}
		pts = append(pts, m.segs[idx[j]].b)
		c, r, fits := fitPoints(pts, 0.01, 0.3)
		if !fits {
			return false
		}
		sweep := 0.0
		for k := i; k <= j; k++ {
			s := &m.segs[idx[k]]
			sweep += wrapPi(cmplx.Phase(s.b-c) - cmplx.Phase(s.a-c))
		}
		if math.Abs(sweep) < 30*math.Pi/180 {
			return false
		}
		full := math.Abs(sweep) >= 2*math.Pi-0.05 && dist(pts[0], pts[len(pts)-1]) <= 0.05*r+0.5
		a := arc{c: c, r: r, a0: cmplx.Phase(pts[0] - c), sweep: sweep, p0: pts[0], p1: pts[len(pts)-1], full: full,
			fill: m.segs[idx[i]].fill, stroke: m.segs[idx[i]].stroke}
		m.arcs = append(m.arcs, a)
		for k := i; k <= j; k++ {
			m.segs[idx[k]].curve = true
		}
		return true
	}
	// a closed polygon turning evenly all the way round is a circle
	if closed {
		sign := turn(n-1, 0)
		all := ok(sign, 0)
		for i := 0; all && i+1 < n; i++ {
			all = ok(turn(i, i+1), sign)
		}
		if all && try(0, n-1) {
			return
		}
	}
	for i := 0; i < n; {
		j := i
		sign := 0.0
		for j+1 < n && ok(turn(j, j+1), sign) {
			if sign == 0 {
				sign = turn(j, j+1)
			}
			j++
		}
		if j-i+1 >= 5 && try(i, j) {
			i = j + 1
			continue
		}
		i = max(j, i+1)
	}
}

// fitPoints fits a circle to points by least squares (Kåsa); fits is false
// when one lies off it by more than rel of the radius plus abs pixels.
func fitPoints(pts []pt, rel, abs float64) (c pt, r float64, fits bool) {
	var mean pt
	for _, p := range pts {
		mean += p
	}
	mean /= complex(float64(len(pts)), 0)
	var sxx, sxy, syy, sx, sy, sxz, syz, sz float64
	for _, p := range pts {
		x, y := px(p-mean), py(p-mean)
		z := x*x + y*y
		sxx += x * x
		sxy += x * y
		syy += y * y
		sx += x
		sy += y
		sxz += x * z
		syz += y * z
		sz += z
	}
	sol, ok := solve3([3][4]float64{{sxx, sxy, sx, -sxz}, {sxy, syy, sy, -syz}, {sx, sy, float64(len(pts)), -sz}})
	if !ok {
		return 0, 0, false
	}
	c = complex(-sol[0]/2, -sol[1]/2)
	r2 := real(c)*real(c) + imag(c)*imag(c) - sol[2]
	if r2 <= 0 {
		return 0, 0, false
	}
	c += mean
	r = math.Sqrt(r2)
	if r < 0.5 || r > 1e5 {
		return 0, 0, false
	}
	for _, p := range pts {
		if math.Abs(dist(p, c)-r) > rel*r+abs {
			return 0, 0, false
		}
	}
	return c, r, true
}

// bezier is a cubic Bézier curve: its ends and two control points.
type bezier [4]pt

func (b bezier) at(t float64) pt { return bez(b[0], b[1], b[2], b[3], t) }

// fitArcs finds the circular arcs among a run of curves joined end to end
// (PDF writers draw a circle as four to eight such curves): each longest
// stretch of curves that one circle fits is an arc.
func fitArcs(run []bezier) []arc {
	var out []arc
	for i := 0; i < len(run); {
		j := i + 1
		a, ok := fitCircle(run[i:j])
		if !ok {
			i++
			continue
		}
		for j < len(run) {
			b, ok := fitCircle(run[i : j+1])
			if !ok {
				break
			}
			a = b
			j++
		}
		out = append(out, a)
		i = j
	}
	return out
}

// fitCircle fits one circle to curves joined end to end, by least squares
// (Kåsa) on points along them; ok is false when a point lies off it by
// more than 0.5 % of the radius (and a tenth of a pixel) or the curves do
// not turn one way about its centre.
func fitCircle(run []bezier) (arc, bool) {
	var pts []pt
	for _, b := range run {
		for _, t := range []float64{0, 0.25, 0.5, 0.75} {
			pts = append(pts, b.at(t))
		}
	}
	pts = append(pts, run[len(run)-1][3])
	c, r, fits := fitPoints(pts, 0.005, 0.1)
	if !fits {
		return arc{}, false
	}
	// the sweep, curve by curve through each one's middle
	sweep := 0.0
	for _, b := range run {
		a0, am, a1 := cmplx.Phase(b[0]-c), cmplx.Phase(b.at(0.5)-c), cmplx.Phase(b[3]-c)
		s1, s2 := wrapPi(am-a0), wrapPi(a1-am)
		if math.Signbit(s1) != math.Signbit(s2) || (sweep != 0 && math.Signbit(s1) != math.Signbit(sweep)) {
			return arc{}, false
		}
		sweep += s1 + s2
	}
	if math.Abs(sweep) > 2*math.Pi+0.05 {
		return arc{}, false
	}
	p0, p1 := run[0][0], run[len(run)-1][3]
	return arc{c: c, r: r, a0: cmplx.Phase(p0 - c), sweep: sweep, p0: p0, p1: p1,
		full: math.Abs(sweep) >= 2*math.Pi-0.05}, true
}

// solve3 solves a 3×3 linear system given as an augmented matrix.
func solve3(a [3][4]float64) ([3]float64, bool) {
	for c := 0; c < 3; c++ {
		p := c
		for r := c + 1; r < 3; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return [3]float64{}, false
		}
		a[c], a[p] = a[p], a[c]
		for r := 0; r < 3; r++ {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k < 4; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	return [3]float64{a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]}, true
}

func wrapPi(a float64) float64 {
	for a > math.Pi {
		a -= 2 * math.Pi
	}
	for a <= -math.Pi {
		a += 2 * math.Pi
	}
	return a
}

func bez(p0, c1, c2, p3 pt, t float64) pt {
	u := 1 - t
	return complex(u*u*u, 0)*p0 + complex(3*u*u*t, 0)*c1 + complex(3*u*t*t, 0)*c2 + complex(t*t*t, 0)*p3
}

// flatten emits a cubic Bézier as straight pieces within curveTol.
func flatten(b bezier, emit func(a, b pt)) {
	p0, c1, c2, p3 := b[0], b[1], b[2], b[3]
	// the control polygon's deviation bounds the pieces needed
	d := max(dist(c1, p0+(p3-p0)/3), dist(c2, p0+(p3-p0)*2/3))
	n := int(math.Ceil(math.Sqrt(d / curveTol)))
	n = min(max(n, 1), 64)
	prev := p0
	for i := 1; i <= n; i++ {
		q := bez(p0, c1, c2, p3, float64(i)/float64(n))
		emit(prev, q)
		prev = q
	}
}

// clipSeg cuts a segment to r.
func clipSeg(a, b pt, r vector.Rect) (pt, pt, bool) {
	box := geom.Box{XMin: float64(r.X0), YMin: float64(r.Y0), XMax: float64(r.X1), YMax: float64(r.Y1)}
	t0, t1, ok := box.ClipSegment(px(a), py(a), px(b), py(b))
	if !ok {
		return 0, 0, false
	}
	d := b - a
	return a + d*complex(t0, 0), a + d*complex(t1, 0), true
}

// mergedLines joins the straight segments that lie on one line and touch
// or overlap (flags alike): a line broken into pieces — by a program that
// splits lines where others cross them, or draws each piece of a dashed
// line apart — is one line again. It returns the joined lines and, with
// pieces true, also every piece that was joined to another.
func mergedLines(segs []seg, pieces bool) []seg {
	var out []seg
	collinearRuns(segs, 0.5, func(run []int, a, b pt, _ float64) {
		if len(run) == 1 {
			out = append(out, segs[run[0]])
			return
		}
		m := segs[run[0]]
		m.a, m.b = a, b
		m.length = dist(a, b)
		m.ang = lineAngle(m.a, m.b)
		m.u = unitDir(m.a, m.b)
		out = append(out, m)
		if pieces {
			for _, i := range run {
				out = append(out, segs[i])
			}
		}
	})
	return out
}

// reachGap is the widest gap (page pixels at 300 DPI, 3 mm on paper)
// between pieces of one line drawn apart: the dashes of a dash-dot grid
// line that CAD programs export one by one.
const reachGap = 36.0

// lineReach gives each segment the ends of the dashed line it is a piece
// of: straight pieces on one line with gaps up to reachGap between them
// (a grid line exported dash by dash). Other segments reach their own
// ends. It also gives the ends of the line that pieces touching end to end
// make up (split, by segment; zero for a segment in no such run): a wall
// outline drawn cell by cell, a line split wherever others meet it.
func lineReach(segs []seg) (reach, split [][2]pt) {
	reach = make([][2]pt, len(segs))
	for i := range segs {
		reach[i] = [2]pt{segs[i].a, segs[i].b}
	}
	collinearRuns(segs, reachGap, func(run []int, a, b pt, gaps float64) {
		if len(run) < 3 {
			return
		}
		// a dashed line: three pieces or more, a tenth of it or more gaps
		// (edges of a filled area, or lines split where others meet them,
		// touch; a wall's pieces beside a door are two)
		if gaps >= 0.1*dist(a, b) {
			for _, i := range run {
				reach[i] = [2]pt{a, b}
			}
			return
		}
		if split == nil {
			split = make([][2]pt, len(segs))
		}
		for _, i := range run {
			split[i] = [2]pt{a, b}
		}
	})
	return reach, split
}

// collinearRuns calls emit with each run of straight segments (their
// indices in segs) that lie on one line, flags alike, with gaps of at most
// gap between them, the run's ends and the length of its gaps.
func collinearRuns(segs []seg, gap float64, emit func(run []int, a, b pt, gaps float64)) {
	const angTol = 0.2 * math.Pi / 180
	type item struct {
		s       *seg
		i       int
		ang     float64 // direction in [-angTol, π-angTol)
		rho     float64 // offset of its line from the origin
		t0, t1  float64 // its extent along the line
		dx, dy  float64
		flagKey uint8
	}
	var items []item
	for i := range segs {
		s := &segs[i]
		if s.curve {
			continue
		}
		a := s.ang
		if a >= math.Pi-angTol {
			a -= math.Pi
		}
		dx, dy := math.Cos(a), math.Sin(a)
		var key uint8
		for k, f := range []bool{s.fill, s.stroke, s.faint, s.dashed} {
			if f {
				key |= 1 << k
			}
		}
		items = append(items, item{s: s, i: i, ang: a, dx: dx, dy: dy, flagKey: key})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].ang < items[j].ang })
	var run []int
	group := func(group []item) {
		// offsets and extents along one direction for the whole group: the
		// pieces of a line differ in direction by rounding, and an offset
		// taken at each one's own direction would differ with the distance
		// from the origin
		ref := group[0]
		for i := range group {
			it := &group[i]
			s := it.s
			ta := px(s.a)*ref.dx + py(s.a)*ref.dy
			tb := px(s.b)*ref.dx + py(s.b)*ref.dy
			it.t0, it.t1 = min(ta, tb), max(ta, tb)
			it.rho = -px(s.a)*ref.dy + py(s.a)*ref.dx
			it.dx, it.dy = ref.dx, ref.dy
		}
		sort.Slice(group, func(i, j int) bool {
			if group[i].flagKey != group[j].flagKey {
				return group[i].flagKey < group[j].flagKey
			}
			return group[i].rho < group[j].rho
		})
		for i := 0; i < len(group); {
			// one line: same flags, offsets each within half a pixel of the
			// one before
			j := i + 1
			for j < len(group) && group[j].flagKey == group[i].flagKey && group[j].rho-group[j-1].rho <= 0.5 {
				j++
			}
			line := group[i:j]
			sort.Slice(line, func(a, b int) bool { return line[a].t0 < line[b].t0 })
			for a := 0; a < len(line); {
				b, end, gaps := a+1, line[a].t1, 0.0
				for b < len(line) && line[b].t0 <= end+gap {
					gaps += max(line[b].t0-end, 0)
					end = max(end, line[b].t1)
					b++
				}
				first := line[a]
				rho := first.rho
				at := func(t float64) pt { return complex(t*first.dx-rho*first.dy, t*first.dy+rho*first.dx) }
				run = run[:0]
				for _, it := range line[a:b] {
					run = append(run, it.i)
				}
				emit(run, at(first.t0), at(end), gaps)
				a = b
			}
			i = j
		}
	}
	start := 0
	for i := 1; i <= len(items); i++ {
		if i == len(items) || items[i].ang-items[i-1].ang > angTol {
			group(items[start:i])
			start = i
		}
	}
}
