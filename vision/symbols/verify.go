package symbols

import "math"

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
func (m *matcher) verify(l int, t *prepared, p pose) (chamfer, explained, net float64, crossed bool) {
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
	r := t.radius*p.scale*f*1.6 + 2 + 2*m.sw*f
	x0, y0 := int(math.Floor(p.cx-r)), int(math.Floor(p.cy-r))
	size := int(2*r) + 3
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
	var ink, cov, longInk, longOff float64
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
			if long[py*lv.w+px] {
				longInk += a
				if !on {
					longOff += a
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
	net = (cov - missing) / (f * f)
	if ink <= 0 {
		return chamfer, 0, net, crossed
	}
	return chamfer, min(cov/ink, 1), net, crossed
}

// windowPieces labels the 8-connected pieces of lv's ink (any coverage)
// in the size × size window at (x0, y0), from 1 (0: paper, or outside
// lv), with each label's extent (the longer side of its box; paper's is
// the window's).
func windowPieces(lv *fimg, x0, y0, size int) (lab []int32, extent []float64) {
	bin := make([]byte, size*size)
	for y := 0; y < size; y++ {
		py := y + y0
		if py < 0 || py >= lv.h {
			continue
		}
		for x := 0; x < size; x++ {
			if px := x + x0; px >= 0 && px < lv.w && lv.p[py*lv.w+px] > 0 {
				bin[y*size+x] = 255
			}
		}
	}
	return pieces(bin, size, size)
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
