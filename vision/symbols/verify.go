package symbols

import (
	"math"

	"gocv.io/x/gocv"
)

// linesRunOn tells whether every free end of t's lines, posed by p on
// level l, runs on in the drawing: ink (within the chamfer tolerance)
// under at least 3/4 of the points that continue the line past its end
// for two strokes' widths or a sixth of the symbol's size, whichever is
// longer, starting a stroke's width out (strokes of the template or of
// the drawing, whichever is wider as posed). False for a symbol without
// free ends.
func (m *matcher) linesRunOn(l int, t *prepared, p pose) bool {
	if len(t.tips) == 0 {
		return false
	}
	lv := m.level(l)
	near := m.near(l)
	pl := p.at(lf(l))
	sw := max(t.sw, (m.sw+2*m.chamferTol(l)/lf(l))/p.scale) // template pixels
	span := max(2*sw, max(t.bw, t.bh)/6)
	step := max(1, 0.5/(p.scale*lf(l))) // half a level pixel, in template pixels
	for _, e := range t.tips {
		n, on := 0, 0
		for d := sw; d <= sw+span; d += step {
			x, y := pl.apply(e.x+e.dx*d, e.y+e.dy*d)
			ix, iy := int(math.Round(x)), int(math.Round(y))
			n++
			if ix >= 0 && iy >= 0 && ix < lv.w && iy < lv.h && near[iy*lv.w+ix] {
				on++
			}
		}
		if 4*on < 3*n {
			return false
		}
	}
	return true
}

// textShare: pieces of ink beside a symbol no longer than this share of
// its smaller side (suffix text, tags) are not part of its surroundings.
const textShare = 0.5

// verify measures, at level l: the share of the template's centre-line
// points lying on ink (chamfer) and the share of the ink inside the
// template's turned box, grown by a quarter of its size and two strokes on
// every side, that lies along the template (explained): a symbol stands on
// its own, while a match on part of a longer line or of a larger shape
// leaves the rest of it unexplained around the box. Pieces of ink that
// lie in that margin without reaching the box (suffix text, a tag) are
// set beside the symbol, not part of it, and left out. net is the ink the
// template covers less the template's own ink (drawn at the drawing's
// stroke width) with no drawing ink within the tolerance, in
// full-resolution pixels: suppression ranks overlapping detections by it.
// crossed tells that long lines cross the symbol, and wires, when set,
// marks the ink of shorter straight lines drawn through it (see
// throughLines) that the template does not lie along: both are left out
// of the surroundings.
func (m *matcher) verify(l int, t *prepared, p pose) (chamfer, explained, net float64, crossed bool, wires *windowMask) {
	lv := m.level(l)
	f := lf(l)
	tol := m.chamferTol(l)
	near := m.near(l)
	hid := m.hiddenAt(l, t, p)
	on, off := 0, 0
	pts := t.pointsFor(p.scale * f)
	pl := p.at(f)
	for _, q := range pts {
		x, y := pl.apply(q[0], q[1])
		ix, iy := int(math.Round(x)), int(math.Round(y))
		if ix < 0 || iy < 0 || ix >= lv.w || iy >= lv.h {
			continue
		}
		switch i := iy*lv.w + ix; {
		case near[i]:
			on++
		case hid != nil && hid[i]:
			off++
		}
	}
	// points on a cleared fill (and no ink) are hidden: left out, unless
	// so many are that too little of the symbol is seen
	var hidden []bool
	if off > 0 && !tooHidden(float64(off), float64(len(pts))) {
		hidden = hid
	} else {
		off = 0
	}
	chamfer = float64(on) / float64(len(pts)-off)
	// draw the template thick enough to cover the tolerance, then count the
	// ink inside the turned box that it covers
	x0, y0, size := m.window(l, t, p)
	buf := newF(size, size)
	q := p
	q.cx -= float64(x0)
	q.cy -= float64(y0)
	t.drawPosed(buf, q, f, m.sw*f/2, tol)
	// and as drawn, at the drawing's stroke width: its ink that has no
	// drawing ink within the tolerance is missing from the drawing
	thin := getScratch(size, size)
	defer putScratch(thin)
	t.drawPosed(thin, q, f, m.sw*f/2, 0)
	var missing float64
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			v := thin.p[y*size+x]
			if v == 0 {
				continue
			}
			px, py := x+x0, y+y0
			switch out := px < 0 || py < 0 || px >= lv.w || py >= lv.h; {
			case out:
				missing += float64(v)
			case !near[py*lv.w+px] && (hidden == nil || !hidden[py*lv.w+px]):
				missing += float64(v)
			}
		}
	}
	sn, cs := math.Sincos(p.angle)
	long := m.longLines(l)
	// (only about a symbol whose lines have no free ends: where one has,
	// the lines running on from them tell what it is, see linesRunOn;
	// with wires cleared, a switch's stroke and dot matched 44 wall
	// junctions on crayfish p7, 11 before)
	var through []bool
	if len(t.tips) == 0 {
		through = m.throughLines(l, t, p, x0, y0, size, thin)
	}
	// the box grown by a margin: ink right around a symbol that the
	// template does not explain means it is part of something else,
	// unless it is a piece of its own that stays in the margin, not
	// reaching the box (a tag or suffix text set beside the symbol)
	hw, hh := t.bw/2*p.scale*f*1.5+2*m.sw*f, t.bh/2*p.scale*f*1.5+2*m.sw*f
	iw, ih := t.bw/2*p.scale*f+tol, t.bh/2*p.scale*f+tol
	lab, extent := windowPieces(lv, x0, y0, size)
	// pieces that count: those reaching the box, and those not much
	// smaller than the symbol (a glyph matched as a symbol has its
	// neighbours, its own size, on either side)
	counts := make([]bool, len(extent))
	for k, e := range extent {
		counts[k] = e > textShare*min(t.bw, t.bh)*p.scale*f
	}
	frame := func(x, y int) (u, v float64) {
		dx, dy := float64(x)-q.cx, float64(y)-q.cy
		return math.Abs(cs*dx - sn*dy), math.Abs(sn*dx + cs*dy)
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			if u, v := frame(x, y); u <= iw && v <= ih {
				counts[lab[y*size+x]] = true
			}
		}
	}
	var ink, cov, longInk, longOff, wireInk, wireOff float64
	offT := make([]bool, size*size) // through lines' ink off the template
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			// into the template's frame
			u, v := frame(x, y)
			if u > hw || v > hh {
				continue
			}
			px, py := x+x0, y+y0
			if px < 0 || py < 0 || px >= lv.w || py >= lv.h {
				continue
			}
			if !counts[lab[y*size+x]] {
				continue
			}
			a := float64(lv.p[py*lv.w+px])
			on := buf.p[y*size+x] > 0.5
			if on {
				cov += a
			}
			switch {
			case long[py*lv.w+px]:
				longInk += a
				if !on {
					longOff += a
				}
			case through != nil && through[y*size+x]:
				wireInk += a
				if !on {
					wireOff += a
					offT[y*size+x] = true
				}
			}
			ink += a
		}
	}
	// long lines that cross the symbol (the template lies along little of
	// them) are not its surroundings; lines it lies along, as a symbol set
	// against a wall, or as an outline taken for one that lies on a wall's
	// faces, still count
	crossed = longInk > 0 && longInk-longOff < 0.5*longInk
	if crossed {
		ink -= longOff
	}
	// and so are shorter lines through it; unlike long lines they leave
	// the test of its line ends (linesRunOn) to be made: the sides of a
	// rectangle run through an L taken at its corner
	if wireInk > 0 && wireInk-wireOff < 0.5*wireInk {
		ink -= wireOff
		wires = &windowMask{x0: x0, y0: y0, size: size, on: offT}
	}
	net = (cov - missing) / (f * f)
	if ink <= 0 {
		return chamfer, 0, net, crossed, wires
	}
	return chamfer, min(cov/ink, 1), net, crossed, wires
}

// windowMask marks pixels of a size × size window of a level, its corner
// at (x0, y0).
type windowMask struct {
	x0, y0, size int
	on           []bool
}

// at tells whether the level's pixel (x, y) is marked.
func (w *windowMask) at(x, y int) bool {
	if w == nil {
		return false
	}
	u, v := x-w.x0, y-w.y0
	return u >= 0 && v >= 0 && u < w.size && v < w.size && w.on[v*w.size+u]
}

// window is the square (level l's pixels: corner x0, y0 and side size)
// about t posed by p that verify looks at: its box grown by a quarter of
// its size and two strokes on every side, whatever its angle.
func (m *matcher) window(l int, t *prepared, p pose) (x0, y0, size int) {
	r := t.radius*p.scale*lf(l)*1.6 + 2 + 2*m.sw*lf(l)
	return int(math.Floor(p.cx - r)), int(math.Floor(p.cy - r)), int(2*r) + 3
}

// throughLen is how much longer than the radius of a symbol's ink (as
// posed) a straight stroke must be for throughLines to take it for a line
// drawn through the symbol, and throughOut how far out of that radius one
// of its ends must lie: no stroke of its own reaches out of it.
const (
	throughLen = 1.2
	throughOut = 1.25
)

// throughLines marks the ink of level l in the size × size window at
// (x0, y0) about t posed by p that lies along a straight stroke passing
// into the disk of t's ink and running out of it (throughLen, throughOut):
// a wire, a pipe or a setting-out line drawn into or through a symbol is
// no part of it, however much shorter it is than the walls longLines
// knows (crayfish's downlighters, each with a wire drawn to its centre or
// through it, correlated at 0.73–0.76 and were missed). A line beside the
// symbol, as the side of a frame it is drawn in, is its surroundings, and
// so is a line the template lies along: one whose part within the disk
// lies for the most part on drawn, the template drawn in the window at
// the drawing's stroke width (a square symbol set on a longer line along
// its side).
func (m *matcher) throughLines(l int, t *prepared, p pose, x0, y0, size int, drawn *fimg) []bool {
	lv, f := m.level(l), lf(l)
	bin := windowInk(lv, x0, y0, size, 0.25)
	out := make([]bool, size*size)
	src, err := gocv.NewMatFromBytes(size, size, gocv.MatTypeCV8U, bin)
	if err != nil {
		return out
	}
	defer src.Close()
	rad := t.radius * p.scale * f
	n := int(math.Ceil(rad*throughLen)) + 2
	cx, cy := p.cx-float64(x0), p.cy-float64(y0)
	straightRuns(src, bin, size, size, n, max(1.5, m.sw*f/2+0.5), out, func(ax, ay, bx, by float64) bool {
		reach := max(math.Hypot(ax-cx, ay-cy), math.Hypot(bx-cx, by-cy))
		if segmentDist(cx, cy, ax, ay, bx, by) >= rad || reach <= rad*throughOut+2 {
			return false
		}
		// how much of its part within the disk lies on the template
		d := math.Hypot(bx-ax, by-ay)
		in, on := 0, 0
		for u := 0.0; u <= d; u++ {
			x, y := ax+(bx-ax)*u/d, ay+(by-ay)*u/d
			if math.Hypot(x-cx, y-cy) > rad {
				continue
			}
			in++
			if ix, iy := int(x), int(y); ix >= 0 && iy >= 0 && ix < size && iy < size && drawn.p[iy*size+ix] > 0.5 {
				on++
			}
		}
		return 2*on < in
	})
	return out
}

// segmentDist is the distance from (x, y) to the segment from (ax, ay) to
// (bx, by).
func segmentDist(x, y, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	d2 := dx*dx + dy*dy
	if d2 == 0 {
		return math.Hypot(x-ax, y-ay)
	}
	u := min(max(((x-ax)*dx+(y-ay)*dy)/d2, 0), 1)
	return math.Hypot(x-ax-u*dx, y-ay-u*dy)
}

// windowPieces labels the 8-connected pieces of lv's ink (any coverage)
// in the size × size window at (x0, y0), from 1 (0: paper, or outside
// lv), with each label's extent (the longer side of its box; paper's is
// the window's).
func windowPieces(lv *fimg, x0, y0, size int) (lab []int32, extent []float64) {
	return pieces(windowInk(lv, x0, y0, size, 0), size, size)
}

// windowInk is the size × size window at (x0, y0) of lv, 255 where its
// coverage is over thr (0 outside lv).
func windowInk(lv *fimg, x0, y0, size int, thr float32) []byte {
	bin := make([]byte, size*size)
	for y := 0; y < size; y++ {
		py := y + y0
		if py < 0 || py >= lv.h {
			continue
		}
		for x := 0; x < size; x++ {
			if px := x + x0; px >= 0 && px < lv.w && lv.p[py*lv.w+px] > thr {
				bin[y*size+x] = 255
			}
		}
	}
	return bin
}

// confidence maps the three similarities to 0..1: a logistic regression
// fitted to traced candidates (TestTraceSESYDPlan, TestTraceSynth) that
// survive suppression, labelled right when a ground-truth instance of
// their symbol overlaps them with IoU ≥ 0.5 — SESYD plans 0, 2, 4, 6, 8
// and synthetic sheets of seeds 3–5, refitted three times as the fitted
// confidence changes which candidates survive suppression. Held out (SESYD
// plans 1, 3, 5, 7, 9; synthetic seeds 1–2) it puts right and wrong on
// either side of 0.5: precision 1.000 and 0.989, recall 0.962 and 0.865
// (BENCHMARKS.md). Correlation dominates: a candidate that lies on ink and
// explains its surroundings but correlates at 0.6 is a different symbol
// of similar shape (the filled triangle of a voice/data outlet on a wall
// sconce's half-disc). scripts/fit-confidence.py refits it from traces.
func confidence(ncc, chamfer, explained float64) float64 {
	z := -49.67 + 41.55*ncc + 1.66*chamfer + 18.41*explained
	return 1 / (1 + math.Exp(-z))
}
