package vecsym

import (
	"math"
	"math/cmplx"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/vector"
)

// verify scores pose P: the share of the template's marks found
// (Covered), the share of the drawing's marks in the posed box that the
// template accounts for (Explained), and from them a confidence.
func (sc *scorer) verify(ti int, t *Template, P pose) (Candidate, bool) {
	k := P.scale()
	tol := sc.tol(t, k)
	d := sc.d
	// covered
	total := t.weight
	hit, ok := sc.coveredWeight(t, P, tol, (1-minCovered)*total)
	if !ok {
		return Candidate{}, false
	}
	for _, g := range t.m.glyphs {
		w := glyphWeight * g.size
		hit += d.gix.agreement(P.apply(g.c), k*g.size, g.r) * w
	}
	covered := min(hit/total, 1)
	if covered < minCovered {
		return Candidate{}, false
	}
	if sc.runsOn(t, P, tol) {
		return Candidate{}, false
	}
	// explained: the drawing's marks near the symbol's (within a band
	// around them, or inside one of its closed outlines: a letter drawn in
	// strokes in a circle) that reach into its posed box — a line running on from
	// the symbol shows it is a part of something larger, while a neighbour
	// or a tag beside it does not reach in, and a wall drawn around a corner
	// guard's L lies off its marks. A line passing through the box that
	// the symbol does not account for (a wall, a pipe crossing it) is left
	// out, also when drawn dash by dash; one the symbol lies along counts
	// inside the box.
	box := t.posedBox(P)
	diag := k * t.size
	sc.stamp++
	if sc.stamp == 0 {
		clear(sc.seen)
		sc.stamp = 1
	}
	step := t.step * k * explainStep
	var tot, expl float64
	tight := vector.Rect{X0: float32(box.XMin - tol), Y0: float32(box.YMin - tol), X1: float32(box.XMax + tol), Y1: float32(box.YMax + tol)}
	wide := tight.Grow(float32(max(tol, marginShare*diag)))
	ttol := tol / k
	band := max(2*tol, bandShare*diag) / k // in the template's pixels
	acc := newDescAcc(P.apply(t.centre), descRadius*diag)
	centre := P.apply(t.centre)
	d.ix.visit(float64(wide.X0), float64(wide.Y0), float64(wide.X1), float64(wide.Y1), sc.seen, sc.stamp, func(id int32) {
		s := &d.m.segs[id]
		// faint linework is another layer's (a screened background, a
		// grid), but for a fill inside the symbol's outline: a plot style
		// prints a symbol's fill grey where the legend prints it black
		shaded := s.faint && s.fill && !t.faint
		if s.faint && !t.faint && !shaded {
			return
		}
		if _, _, in := clipSeg(s.a, s.b, tight); !in {
			return
		}
		a, b, ok := clipSeg(s.a, s.b, wide)
		if !ok {
			return
		}
		// through: the line it is a piece of (a grid line drawn dash by
		// dash) starts and ends outside the box
		reach := d.reach[id]
		through := !tight.Contains(toPoint(reach[0])) && !tight.Contains(toPoint(reach[1])) ||
			attached(reach, tight, centre, t, P, ttol, diag)
		// a line drawn in pieces end to end (a wall outline drawn cell by
		// cell) that passes the box crosses it as a whole line does, when
		// the symbol does not account for it; along the symbol its pieces
		// count as before (a line running on from the symbol). Not for a
		// simple symbol (an L, a bar): drawn in the plan's own kind of
		// lines, it is told from the linework about it only by that
		// linework, pieces and all (the corners of walls drawn in pieces)
		splitThrough := false
		if !t.simple && d.split != nil && d.split[id] != ([2]pt{}) {
			r := d.split[id]
			splitThrough = !tight.Contains(toPoint(r[0])) && !tight.Contains(toPoint(r[1]))
		}
		if !through && !t.simple && d.closedBeside(id, box, tol) {
			return // a neighbour set against the symbol (a switch's dot at an outlet's stem)
		}
		l := dist(a, b)
		n := max(int(math.Ceil(l/step)), 1)
		// the segment's direction in the template's frame
		c := lineCos
		if s.curve {
			c = curveCos
		}
		w := want{u: P.inverseDir(s.u), cosTol: c, fill: s.fill, stroke: s.stroke && !s.fill, dashed: s.dashed}
		bar := !s.curve && !through && t.barDir(w.u)
		stol := ttol
		if s.curve {
			stol = (tol + P.slack) / k // as sampleTol
		}
		// samples near the symbol's marks, and those of them inside the box
		var st, se, it, ie float64
		var pts []pt
		for j := 0; j < n; j++ {
			q := a + (b-a)*complex((float64(j)+0.5)/float64(n), 0)
			p := P.inverse(q)
			if shaded && !t.enclosed(p) {
				continue
			}
			ok := t.ix.near(p, stol, w) // explained, so within the band
			if !ok && !t.ix.near(p, band, anyMark) && !t.enclosed(p) {
				continue
			}
			inside := tight.Contains(toPoint(q))
			if through && !inside {
				continue // of a line through the box, only what lies in it
			}
			st += l / float64(n)
			if ok {
				se += l / float64(n)
			} else if bar && t.enclosed(p) {
				st += (interiorWeight - 1) * l / float64(n)
			}
			if inside {
				it += l / float64(n)
				if ok {
					ie += l / float64(n)
				}
			}
			pts = append(pts, q)
		}
		if (through || splitThrough) && ie < 0.5*it {
			return // crossing the symbol
		}
		tot += st
		expl += se
		for _, q := range pts { // the same marks, for the descriptor
			acc.add(q, l/float64(n))
		}
	})
	d.gix.each(complex((box.XMin+box.XMax)/2, (box.YMin+box.YMax)/2), diag/2, func(j int32) {
		D := &d.m.glyphs[j]
		// a symbol's letters lie well inside it; a tag beside it may reach in
		ix, iy := 0.1*box.Width(), 0.1*box.Height()
		if px(D.c) < box.XMin+ix || px(D.c) > box.XMax-ix || py(D.c) < box.YMin+iy || py(D.c) > box.YMax-iy {
			return
		}
		if numberTag(t, D) {
			return
		}
		w := glyphWeight * D.size
		tot += w
		acc.addGlyph(D, 1, D.c, D.ang)
		expl += t.gix.agreement(P.inverse(D.c), D.size/k, D.r) * w
	})
	explained := 1.0
	if tot > 0 {
		explained = expl / tot
	}
	c := Candidate{Template: ti, Box: box, Scale: k, Angle: P.angleDeg(), Mirrored: P.mirror,
		Covered: covered, Explained: explained, Described: cosine(t.desc, acc.vec())}
	c.simple = t.simple
	c.Confidence = confidence(covered, explained, c.Described, t.simple)
	c.support = expl - (1-covered)*t.weight*k
	return c, true
}

// closedBeside reports whether segment id is a piece of a filled area or a
// closed outline (three pieces or more, back at its start) that lies
// outside box but for
// tol: a neighbour drawn against the symbol — a switch's filled dot
// touching an outlet's stem — not a part of it nor a line running on from
// it.
func (d *Drawing) closedBeside(id int32, box geom.Box, tol float64) bool {
	segs := d.m.segs
	if s := &segs[id]; min(max(px(s.a), px(s.b)), box.XMax)-max(min(px(s.a), px(s.b)), box.XMin) > tol &&
		min(max(py(s.a), py(s.b)), box.YMax)-max(min(py(s.a), py(s.b)), box.YMin) > tol {
		return false // the piece itself reaches well into the box: so does its outline
	}
	p := segs[id].path
	i, j := int(id), int(id)
	for i > 0 && segs[i-1].path == p && int(id)-i < maxOutline {
		i--
	}
	for j+1 < len(segs) && segs[j+1].path == p && j-int(id) < maxOutline {
		j++
	}
	if j-i < 1 || j-i >= maxOutline || !segs[id].fill && (j-i < 2 || dist(segs[i].a, segs[j].b) > 0.25) {
		return false
	}
	e := geom.Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}
	for k := i; k <= j; k++ {
		for _, q := range []pt{segs[k].a, segs[k].b} {
			e.XMin, e.YMin = min(e.XMin, px(q)), min(e.YMin, py(q))
			e.XMax, e.YMax = max(e.XMax, px(q)), max(e.YMax, py(q))
		}
	}
	w := min(e.XMax, box.XMax) - max(e.XMin, box.XMin)
	h := min(e.YMax, box.YMax) - max(e.YMin, box.YMin)
	return w <= tol || h <= tol
}

// maxOutline: closedBeside looks at outlines of up to this many pieces.
const maxOutline = 64

// interiorWeight: an extra bar — a straight line inside one of a closed
// symbol's outlines, along the symbol's own lines but not on one of them,
// that the symbol does not account for — counts this many times against
// its pose. The count of bars across an outline is what tells the symbols
// of a family apart (a duplex receptacle's two bars from a 240 V one's
// three), while a mark beside the symbol is as often its tag or its
// neighbour, and one drawn across it askew a wire's arrow.
const interiorWeight = 2

// barDir reports whether direction u (the template's frame) runs along
// one of the template's straight lines.
func (t *Template) barDir(u complex128) bool {
	for i := range t.m.segs {
		s := &t.m.segs[i]
		if !s.curve && math.Abs(real(u)*real(s.u)+imag(u)*imag(s.u)) >= lineCos {
			return true
		}
	}
	return false
}

// attached reports whether line reach is a leader or a wire drawn to a
// closed symbol (one without free line ends, a light's circle): a straight
// line that starts on the symbol's outline or inside it and runs out of its
// box, away from its centre. It says where the symbol is connected, not
// that the symbol is a piece of something larger.
func attached(reach [2]pt, tight vector.Rect, centre pt, t *Template, P pose, ttol, diag float64) bool {
	if len(t.ends) > 0 {
		return false
	}
	a, b := reach[0], reach[1]
	inA, inB := tight.Contains(toPoint(a)), tight.Contains(toPoint(b))
	if inA == inB {
		return false
	}
	if inB {
		a, b = b, a
	}
	// a is the end inside the box: on the outline or within it
	p := P.inverse(a)
	if !t.ix.near(p, ttol, anyMark) && !t.enclosed(p) {
		return false
	}
	out, r := b-a, a-centre
	if cmplx.Abs(r) < attachedCentre*diag {
		return true // from the symbol's middle, any way out
	}
	cos := (real(out)*real(r) + imag(out)*imag(r)) / (cmplx.Abs(out) * cmplx.Abs(r))
	if cos > attachedCos {
		return true
	}
	// leaving the outline outwards but askew (a wire drawn to a fixture's
	// side): attached unless it carries on one of the symbol's lines (a
	// grid running on from a square's side)
	return cos > 0 && !t.ix.near(p, ttol, want{u: P.inverseDir(out / complex(cmplx.Abs(out), 0)), cosTol: lineCos, anyDash: true})
}

// attachedCentre: a line from within this share of the symbol's size of
// its centre is attached whichever way it leaves.
const attachedCentre = 0.2

// attachedCos: an attached line leaves the outline within about 35° of the
// direction away from the symbol's centre.
const attachedCos = 0.8

// runsOn reports whether every free line end of the template (if it has
// any) runs on in the drawing at pose P: the drawing's line continues past
// it, straight on, for a sixth of the symbol — the pose has found a piece
// of a larger drawing, as an L-shaped symbol is found at every corner of a
// rectangle.
func (sc *scorer) runsOn(t *Template, P pose, tol float64) bool {
	if len(t.ends) == 0 {
		return false
	}
	const n = 6
	reach := max(3*tol, P.scale()*t.size/6)
	for _, e := range t.ends {
		q := P.apply(e.p)
		d := P.dir(e.out)
		w := want{u: d, cosTol: lineCos, anyDash: true, dark: !t.faint}
		on := 0
		for i := 0; i < n; i++ {
			s := 1.5*tol + reach*float64(i)/float64(n-1)
			if sc.d.ix.near(q+d*complex(s, 0), tol, w) {
				on++
			}
		}
		if on < n-1 {
			return false
		}
	}
	return true
}

func toPoint(p pt) vector.Point { return vector.Point{X: float32(px(p)), Y: float32(py(p))} }

// confidence maps the three similarities to 0..1. Its direction and its
// 0.5 boundary are a logistic regression fitted (TestFitConfidence, ridge
// 1) to every pose verified on synthetic sheets of seeds 3–5, drawn as
// their legends draw them and varied (synth --vary), labelled right when an
// instance of the symbol overlaps it with IoU ≥ 0.5: among poses, a symbol
// found on a part of a larger one (a circle in a circle with a cross) looks
// as right as can be, and suppression removes it. Among the detections
// that survive suppression (on seeds 1–24, with no floor), that boundary
// keeps every right one and no wrong one; being separable there, they
// cannot fix the slope, which is set so that a pose with every mark found
// and explained, described alike, scores 0.98. A simple symbol (an L, a
// tick, a triangle) is found in every drawing's corners and junctions, and
// the synthetic sheets hold too few of them to learn that from: its pose
// must explain a fifth more of the marks around it.
func confidence(covered, explained, described float64, simple bool) float64 {
	z := confW[0] + confW[1]*covered + confW[2]*explained + confW[3]*described
	if simple {
		z -= confW[2] * simpleExplain
	}
	return 1 / (1 + math.Exp(-confSlope*z))
}

// simpleExplain is how much more of the marks about it a simple symbol's
// pose must explain.
const simpleExplain = 0.2

// confW are confidence's coefficients: intercept, covered, explained,
// described; confSlope scales them (see confidence).
var (
	confW     = [4]float64{-14.17, 6.76, 5.07, 3.71}
	confSlope = math.Log(0.98/0.02) / (confW[0] + confW[1] + confW[2] + confW[3])
)

// posedBox is the box of the template's marks at pose P, its strokes'
// width included.
func (t *Template) posedBox(P pose) geom.Box {
	b := geom.Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}
	add := func(p pt) {
		q := P.apply(p)
		b.XMin, b.YMin = min(b.XMin, px(q)), min(b.YMin, py(q))
		b.XMax, b.YMax = max(b.XMax, px(q)), max(b.YMax, py(q))
	}
	for _, s := range t.m.segs {
		add(s.a)
		add(s.b)
	}
	for _, g := range t.m.glyphs {
		add(g.c)
	}
	h := t.width / 2
	return geom.Box{XMin: b.XMin - h, YMin: b.YMin - h, XMax: b.XMax + h, YMax: b.YMax + h}
}

// numberTag reports whether glyph D, inside a posed symbol, is a digit of
// a number written in it while the symbol's legend graphic has no letters:
// drawings write an instance's number in its symbol (a fixture's type, a
// circuit), which the legend leaves out; letters in a symbol stay part of
// what it is (a smoke detector's SD).
func numberTag(t *Template, D *glyph) bool {
	return len(t.m.glyphs) == 0 && D.r >= '0' && D.r <= '9'
}
