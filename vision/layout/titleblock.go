package layout

import (
	"regexp"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// titleBlock picks the strip beyond the separator nearest the sheet number
// (or, without a number, the outermost strip within the last 30% of the
// sheet's width or height). rest is what remains for drawing.
func titleBlock(inner, frame rect, vs, hs []line, num geom.Box) (tb, rest rect, ok bool) {
	type cand struct{ tb, rest rect }
	var cs []cand
	if num.Valid() {
		cx, cy := (num.XMin+num.XMax)/2, (num.YMin+num.YMax)/2
		for i := len(vs) - 1; i >= 0; i-- {
			if float64(vs[i].b) < cx && cx-float64(vs[i].b) < 0.5*float64(inner.w()) {
				// the strip nearest the number on its right
				if cx > float64(inner.x0+inner.w()/2) {
					cs = append(cs, cand{rect{(vs[i].a + vs[i].b) / 2, frame.y0, frame.x1, frame.y1}, rect{inner.x0, inner.y0, vs[i].a, inner.y1}})
				}
				break
			}
		}
		for i := len(hs) - 1; i >= 0; i-- {
			if float64(hs[i].b) < cy && cy-float64(hs[i].b) < 0.5*float64(inner.h()) {
				if cy > float64(inner.y0+inner.h()/2) {
					cs = append(cs, cand{rect{frame.x0, (hs[i].a + hs[i].b) / 2, frame.x1, frame.y1}, rect{inner.x0, inner.y0, inner.x1, hs[i].a}})
				}
				break
			}
		}
	} else {
		for _, v := range vs {
			if v.a > inner.x0+inner.w()*7/10 {
				cs = append(cs, cand{rect{(v.a + v.b) / 2, frame.y0, frame.x1, frame.y1}, rect{inner.x0, inner.y0, v.a, inner.y1}})
				break
			}
		}
		for _, h := range hs {
			if h.a > inner.y0+inner.h()*7/10 {
				cs = append(cs, cand{rect{frame.x0, (h.a + h.b) / 2, frame.x1, frame.y1}, rect{inner.x0, inner.y0, inner.x1, h.a}})
				break
			}
		}
	}
	if len(cs) == 0 {
		return rect{}, inner, false
	}
	best := cs[0]
	for _, c := range cs[1:] {
		if c.tb.area() < best.tb.area() {
			best = c
		}
	}
	return best.tb, best.rest, true
}

// numberStrip finds the title block from the sheet number when no line
// spans the whole frame: the strip below the nearest long horizontal line
// above the number, or right of the nearest long vertical line left of it
// (a line crossing the number's centre and spanning stripFrac of the
// frame; title strips are often built of separate cells, so the dividing
// line may stop short of the border). The smaller strip wins.
func (m *mask) numberStrip(inner, frame rect, num geom.Box, gapEm float64) (tb, rest rect, ok bool) {
	cx, cy := int((num.XMin+num.XMax)/2), int((num.YMin+num.YMax)/2)
	if cx < inner.x0 || cx >= inner.x1 || cy < inner.y0 || cy >= inner.y1 {
		return rect{}, inner, false
	}
	// the line through (cx, y) or (x, cy), bridging gaps of up to g
	// between a strip's cells; a line is nearly all ink, text is not
	g := max(int(gapEm), 1)
	span := func(at func(int) bool, c, lo, hi int) int {
		if !at(c) {
			return 0
		}
		a, b, n := c, c, 1
		for i, last := c-1, c; i >= lo && last-i <= g; i-- {
			if at(i) {
				a, last = i, i
				n++
			}
		}
		for i, last := c+1, c; i < hi && i-last <= g; i++ {
			if at(i) {
				b, last = i, i
				n++
			}
		}
		if float64(n) < 0.9*float64(b-a+1) {
			return 0
		}
		return b - a + 1
	}
	runH := func(y int) int { return span(func(x int) bool { return m.at(x, y) }, cx, inner.x0, inner.x1) }
	runV := func(x int) int { return span(func(y int) bool { return m.at(x, y) }, cy, inner.y0, inner.y1) }
	type cand struct{ tb, rest rect }
	var cs []cand
	if cy > inner.y0+inner.h()/2 {
		for y := int(num.YMin) - 1; y > inner.y0+inner.h()/2; y-- {
			if float64(runH(y)) < stripFrac*float64(inner.w()) {
				continue
			}
			a := y
			for a-1 > inner.y0 && float64(runH(a-1)) >= stripFrac*float64(inner.w()) {
				a--
			}
			cs = append(cs, cand{rect{frame.x0, (a + y) / 2, frame.x1, frame.y1}, rect{inner.x0, inner.y0, inner.x1, a}})
			break
		}
	}
	if cx > inner.x0+inner.w()/2 {
		for x := int(num.XMin) - 1; x > inner.x0+inner.w()/2; x-- {
			if float64(runV(x)) < stripFrac*float64(inner.h()) {
				continue
			}
			a := x
			for a-1 > inner.x0 && float64(runV(a-1)) >= stripFrac*float64(inner.h()) {
				a--
			}
			cs = append(cs, cand{rect{(a + x) / 2, frame.y0, frame.x1, frame.y1}, rect{inner.x0, inner.y0, a, inner.y1}})
			break
		}
	}
	if len(cs) == 0 {
		return rect{}, inner, false
	}
	best := cs[0]
	for _, c := range cs[1:] {
		if c.tb.area() < best.tb.area() {
			best = c
		}
	}
	return best.tb, best.rest, true
}

// numberCluster makes a title block, when no line set one apart, of the
// region holding the sheet number and the small regions stacked with it
// in its column (an unframed title block's name, date and number cells).
func numberCluster(rs []region, num geom.Box, inner rect, em float64, words []text.Word) []region {
	cx, cy := (num.XMin+num.XMax)/2, (num.YMin+num.YMax)/2
	small := func(r rect) bool { return r.area() <= inner.area()/12 }
	ti := -1
	for i, rg := range rs {
		if cx >= float64(rg.r.x0) && cx < float64(rg.r.x1) && cy >= float64(rg.r.y0) && cy < float64(rg.r.y1) && small(rg.r) {
			ti = i
			break
		}
	}
	if ti < 0 {
		return rs
	}
	rs[ti].tb = true
	for changed := true; changed; {
		changed = false
		for i, rg := range rs {
			t := rs[ti].r
			if i == ti || !small(rg.r) || headingKinds[headingKind(rg.r, words, em)] {
				continue
			}
			ov := min(t.x1, rg.r.x1) - max(t.x0, rg.r.x0)
			g := max(t.y0-rg.r.y1, rg.r.y0-t.y1)
			if float64(ov) < 0.5*float64(min(t.w(), rg.r.w())) || float64(g) > 4*cutGapEm*em || !small(t.union(rg.r)) {
				continue
			}
			rs[ti].r = t.union(rg.r)
			rs = append(rs[:i], rs[i+1:]...)
			if i < ti {
				ti--
			}
			changed = true
			break
		}
	}
	return rs
}

// tbLabelRE matches words title blocks print as field labels, in the
// languages drawings are made in.
var tbLabelRE = regexp.MustCompile(`(?i)^(date|scale|drawn|checked|approved|designed|project|job|client|owner|sheet|drawing|dwg|drg|title|rev|revision|revisions|issue|number|architect|architects|engineer|engineers|consultant|contractor|seal|stamp|phase|datum|maßstab|massstab|gezeichnet|geprüft|projekt|bauherr|vorhabenträger|auftraggeber|plannummer|planinhalt|index|blatt|format|description|status|copyright|日付|縮尺|図面番号|図番|図面名称|図名|設計|承認|工事名称)[:.#]?$`)

// tbNumberRE is a word shaped like a sheet number.
var tbNumberRE = regexp.MustCompile(`^[A-Z]{1,3}[-.]?\d{1,4}(?:\.\d{1,3})?[A-Z]?$|^[A-Z0-9]{1,10}(?:[-_][A-Z0-9]{1,10}){3,}$`)

// cand is a place the title block may be.
type cand struct {
	r      rect
	rest   rect
	corner bool
	strip  string // "right", "bottom", "left" or ""
	top    int    // where a strip's title-block cells begin
}

// tbCandidates are the strips along the frame's edges set off by a line
// over most of it, and the ruled boxes in its bottom-right corner.
func (p *Page) tbCandidates() []cand {
	in := p.inner
	W, H := in.w(), in.h()
	var cs []cand
	tol := 2
	for _, cl := range clusters(p.rules.v, tol) {
		cov := cover(p.rules.v, cl, tol, in.y0, in.y1)
		switch {
		case cl > in.x0+W*55/100 && cl < in.x1-W*3/100 && cov >= H*55/100:
			cs = append(cs, cand{r: rect{cl, in.y0, in.x1, in.y1}, rest: rect{in.x0, in.y0, cl, in.y1}, strip: "right"})
		case cl < in.x0+W*30/100 && cl > in.x0+W*3/100 && cov >= H*55/100:
			cs = append(cs, cand{r: rect{in.x0, in.y0, cl, in.y1}, rest: rect{cl, in.y0, in.x1, in.y1}, strip: "left"})
		}
		// a box in the bottom-right corner: a line down to the bottom from a
		// line across to the right edge
		if cl > in.x0+W*40/100 && cl < in.x1-W*5/100 {
			if top, ok := runToEnd(p.rules.v, cl, tol, in.y1, H/100); ok && top > in.y0+H*25/100 {
				// its top line runs from it to the right edge, not on across the
				// frame (that would be a strip's cell divider)
				if cover(p.rules.h, top, tol+1, cl, in.x1) >= (in.x1-cl)*80/100 &&
					cover(p.rules.h, top, tol+1, in.x0, cl) < (cl-in.x0)*30/100 {
					cs = append(cs, cand{r: rect{cl, top, in.x1, in.y1}, rest: in, corner: true})
				}
			}
		}
	}
	for _, cl := range clusters(p.rules.h, tol) {
		if cl > in.y0+H*55/100 && cl < in.y1-H*3/100 && cover(p.rules.h, cl, tol, in.x0, in.x1) >= W*55/100 {
			cs = append(cs, cand{r: rect{in.x0, cl, in.x1, in.y1}, rest: rect{in.x0, in.y0, in.x1, cl}, strip: "bottom"})
		}
	}
	return cs
}

// findTitleBlock looks for the title block by its ruling: a strip along
// the right, bottom or left edge set off by a line over most of the frame,
// or a ruled box in the bottom-right corner; the candidate holding the most
// title-block labels and a sheet number, for its size, wins. A strip whose
// upper cells are other blocks (notes, a legend stacked above the title
// block) keeps only the cells from the sheet number's up to the first such.
func (p *Page) findTitleBlock() {
	in := p.inner
	W, H := in.w(), in.h()
	if W < 20 || H < 20 {
		return
	}
	cs := p.tbCandidates()
	tol := 2
	// a vertical strip keeps its cells from the bottom up while they read
	// as title-block parts (notes or a legend stacked over it are not)
	for i := range cs {
		if cs[i].strip == "right" || cs[i].strip == "left" {
			cs[i].top = p.stripTop(cs[i].r)
		} else {
			cs[i].top = cs[i].r.y0
		}
	}
	score := func(c cand) (float64, bool) {
		r := rect{c.r.x0, c.top, c.r.x1, c.r.y1}
		labels, number := p.tbContent(r)
		frac := float64(r.area()) / float64(in.area())
		if frac > 0.4 || (labels < 2 && !number) {
			return 0, false
		}
		sc := float64(labels) - 30*frac - 0.2*float64(p.runningLines(r))
		if number {
			sc += 3
		}
		return sc, sc >= 2
	}
	best, bestScore := -1, 0.0
	for i, c := range cs {
		if sc, ok := score(c); ok && (best < 0 || sc > bestScore) {
			best, bestScore = i, sc
		}
	}
	if best >= 0 && cs[best].corner {
		// a box in the corner that is the foot of a title strip whose cells
		// above are title-block parts too: the title block is that strip's
		for _, c := range cs {
			if c.strip == "right" && c.r.x0 <= cs[best].r.x0+2 && c.r.x0 >= cs[best].r.x0-p.inner.w()/20 &&
				c.top < cs[best].r.y0-2 {
				if _, ok := score(c); ok {
					best = slicesIndex(cs, c)
					break
				}
			}
		}
	}
	if best < 0 {
		// nothing reads as a title block (its lettering may be outlines a
		// text layer lacks): the widest ruled strip or corner box with
		// cells is the guess to read by OCR (TitleBlockGuess)
		guessCells := 0
		for _, c := range cs {
			if float64(c.r.area()) > 0.3*float64(in.area()) {
				continue
			}
			n := 0
			if c.strip == "bottom" {
				for _, v := range clusters(p.rules.v, tol) {
					if v > c.r.x0+2 && v < c.r.x1-2 && cover(p.rules.v, v, tol, c.r.y0, c.r.y1) >= c.r.h()*80/100 {
						n++
					}
				}
			} else {
				for _, h := range clusters(p.rules.h, tol) {
					if h > c.r.y0+2 && h < c.r.y1-2 && cover(p.rules.h, h, tol, c.r.x0, c.r.x1) >= c.r.w()*80/100 {
						n++
					}
				}
			}
			if n >= 3 && (n > guessCells || n == guessCells && c.r.area() > p.tbGuess.area()) {
				p.tbGuess, guessCells = c.r, n
			}
		}
		return
	}
	c := cs[best]
	p.tb, p.tbRest, p.tbOK, p.tbCorner = c.r, c.rest, true, c.corner
	if c.top > c.r.y0+2 {
		p.tbOthers = append(p.tbOthers, rect{c.r.x0, c.r.y0, c.r.x1, c.top})
		p.tb.y0 = c.top
	}
	p.tb = p.trimBlank(p.tb)
}

// trimBlank takes off a title block's sides at the paper's edge the bands
// wider than two type heights that hold none of its words and none of its
// long rules: a title strip on a sheet without a border (crop marks at its
// corners) runs to the page's edge, but the title block ends at its own
// rules.
func (p *Page) trimBlank(r rect) rect {
	ext := boxOfWords(wordsIn(r, p.mw))
	// a line along the page's very edge is the paper's edge, not a rule
	edge := func(pos, n int) bool { return pos <= 1 || pos >= n-2 }
	for _, s := range p.rules.h {
		if !edge(s.pos, p.m.h) && s.pos >= r.y0 && s.pos < r.y1 && 2*(min(s.b, r.x1)-max(s.a, r.x0)) >= r.w() {
			ext = ext.union(rect{max(s.a, r.x0), s.pos, min(s.b, r.x1), s.pos + 1})
		}
	}
	for _, s := range p.rules.v {
		if !edge(s.pos, p.m.w) && s.pos >= r.x0 && s.pos < r.x1 && 2*(min(s.b, r.y1)-max(s.a, r.y0)) >= r.h() {
			ext = ext.union(rect{s.pos, max(s.a, r.y0), s.pos + 1, min(s.b, r.y1)})
		}
	}
	if ext.empty() {
		return r
	}
	gap := max(2, int(2*p.em))
	// only a side at the paper's edge: within a border, a blank cell at
	// the strip's end is the title block's still
	if r.x0 <= 2 && ext.x0-r.x0 > gap {
		r.x0 = ext.x0
	}
	if r.y0 <= 2 && ext.y0-r.y0 > gap {
		r.y0 = ext.y0
	}
	if r.x1 >= p.m.w-2 && r.x1-ext.x1 > gap {
		r.x1 = ext.x1
	}
	if r.y1 >= p.m.h-2 && r.y1-ext.y1 > gap {
		r.y1 = ext.y1
	}
	return r
}

func slicesIndex[T comparable](xs []T, x T) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// runningLines counts the lines of running text (four words or more,
// across the page) in r.
func (p *Page) runningLines(r rect) int {
	n := 0
	for _, l := range text.Lines(wordsIn(r, p.mw)) {
		if len(l.Words) >= 4 && l.Box.Width() > l.Box.Height() && !noticeRE.MatchString(l.Text) {
			n++
		}
	}
	return n
}

// tbContent counts the distinct title-block label words in r and tells
// whether a sheet-number-shaped word is there.
func (p *Page) tbContent(r rect) (labels int, number bool) {
	seen := map[string]bool{}
	for _, w := range wordsIn(r, p.mw) {
		t := strings.TrimSpace(w.Text)
		if tbLabelRE.MatchString(t) {
			k := strings.ToLower(strings.TrimRight(t, ":.#"))
			if !seen[k] {
				seen[k] = true
				labels++
			}
		}
		if tbNumberRE.MatchString(strings.Trim(strings.ToUpper(t), " :;,()")) {
			number = true
		}
	}
	return labels, number
}

// stripTop is where the title block of a vertical title strip s begins:
// of its cells (between lines across it), those from the bottom up to the
// last that reads as part of a title block. Above a cell that holds a
// notes', legend's or schedule's heading or running text, the strip's
// cells are blocks of their own (a notes column, a legend or a revision
// index stacked over the title block). Empty cells (a stamp's space) are
// kept only when a title-block part lies above them, or when they are thin
// (a revision table's unfilled rows).
func (p *Page) stripTop(s rect) int {
	ys := []int{s.y0}
	for _, cl := range clusters(p.rules.h, 2) {
		if cl > s.y0+2 && cl < s.y1-2 && cover(p.rules.h, cl, 2, s.x0, s.x1) >= s.w()*90/100 {
			ys = append(ys, cl)
		}
	}
	ys = append(ys, s.y1)
	if len(ys) < 3 {
		return s.y0
	}
	top := s.y1
	for i := len(ys) - 2; i >= 0; i-- {
		c := rect{s.x0, ys[i], s.x1, ys[i+1]}
		part, empty := p.titlePart(c)
		if !part {
			break
		}
		// thin empty cells are the unfilled rows of a ruled table (a
		// revision table filling up from its header), the title block's
		if !empty || float64(c.h()) < 3*p.em {
			top = ys[i]
		}
	}
	if top <= s.y0+2 || s.y1-top < s.h()/10 {
		return s.y0
	}
	return top
}

// titlePart reports whether a cell of a title strip reads as part of a
// title block rather than a block of its own — no notes', legend's or
// schedule's heading, no running text (three lines of four words or more,
// unless a copyright notice) — and whether it holds no words at all.
func (p *Page) titlePart(c rect) (part, empty bool) {
	ws := wordsIn(c, p.mw)
	if len(ws) == 0 {
		return true, true
	}
	ls := text.Lines(ws)
	running := 0
	notice := false
	// a field's label ("DRAWING", "TITLE") on a line of its own: the words
	// by it are the field's value, which may name a kind (the sheet's title
	// "ALUMINIUM SCHEDULE"), not a heading
	field := false
	for _, l := range ls {
		field = field || len(l.Words) <= 2 && tbLabelRE.MatchString(strings.TrimSpace(l.Words[0].Text))
	}
	for _, l := range ls {
		// a line of running text fills the cell's width; lines set sideways
		// (a firm's address up the strip) and a firm's address and numbers
		// are not notes
		if len(l.Words) >= 4 && l.Box.Width() > l.Box.Height() && l.Box.Width() >= 0.6*float64(c.w()) && !contactRE.MatchString(l.Text) {
			running++
		}
		if noticeRE.MatchString(l.Text) {
			notice = true
		}
		if !field && (isHeading(l, p.em) || (headingKinds[kindOf(l.Text)] && len(l.Words) <= 6)) {
			return false, false
		}
	}
	// a copyright notice runs to a few lines; a column of numbered notes
	// that mentions copyright is notes
	return running < 3 || notice && len(ls) <= 8, false
}

// contactRE marks a firm's address and numbers.
var contactRE = regexp.MustCompile(`(?i)@|www\.|https?:|\b(tel|fax|phone|t|f|p)\s*[:.]?\s*\+?\(?\d|\+\d|\b(road|street|st\.|avenue|ave\.?|suite|floor|po box|straße|strasse|str\.)\b`)

// noticeRE marks the small print title blocks carry (copyright, use of the
// drawings), which reads as running text but belongs to them.
var noticeRE = regexp.MustCompile(`(?i)copyright|©|reproduc|property of|written consent|urheberrecht|these drawings|this drawing`)

// clusters are the positions of rules grouped within tol: one position per
// group of rules lying along the same line.
func clusters(ss []seg, tol int) []int {
	if len(ss) == 0 {
		return nil
	}
	pos := make([]int, len(ss))
	for i, s := range ss {
		pos[i] = s.pos
	}
	sort.Ints(pos)
	var out []int
	start := pos[0]
	last := pos[0]
	for _, x := range pos[1:] {
		if x-last > tol {
			out = append(out, (start+last)/2)
			start = x
		}
		last = x
	}
	return append(out, (start+last)/2)
}

// runToEnd follows the rules along pos (within tol) up from end, bridging
// gaps up to gap, and returns where the run starts when it reaches end.
func runToEnd(ss []seg, pos, tol, end, gap int) (int, bool) {
	var iv [][2]int
	for _, s := range ss {
		if s.pos >= pos-tol && s.pos <= pos+tol {
			iv = append(iv, [2]int{s.a, s.b})
		}
	}
	if len(iv) == 0 {
		return 0, false
	}
	sort.Slice(iv, func(i, j int) bool { return iv[i][1] > iv[j][1] })
	if iv[0][1] < end-gap-2 {
		return 0, false
	}
	top := iv[0][0]
	for _, x := range iv[1:] {
		if x[1] >= top-gap {
			top = min(top, x[0])
		}
	}
	return top, true
}

// standaloneFrames are the outermost rectangles of rules within work that
// stand alone: the linework joined to a frame (its connected piece) is the
// frame itself, or frames side by side (tables touching) — not a room's
// outline joined to the walls and grid of a plan — and no line runs through
// their sides. Specks and most of the sheet are not blocks. A panel
// holding blocks of its own (containerParts) gives the tables framed in it
// instead, and is returned among the containers, whose frames are no ink
// of any block.
func (p *Page) standaloneFrames(work rect, g *mask) (out, containers []rect) {
	em := p.em
	fs := p.rules.frames(work, 2)
	// a box drawn against the border shares the border's line as a side:
	// it ends where the border's inside begins
	lim := rect{p.inner.x0 - 1, p.inner.y0 - 1, p.inner.x1 + 1, p.inner.y1 + 1}
	for i, f := range fs {
		fs[i] = rect{max(f.x0, lim.x0), max(f.y0, lim.y0), min(f.x1, lim.x1), min(f.y1, lim.y1)}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].area() > fs[j].area() })
	var outer []rect
	for _, f := range fs {
		// a table or a legend holds lines of text; a framed view is large
		// (a piece of furniture drawn as a rectangle is neither)
		if float64(f.w()) < 8*em || float64(f.h()) < 4*em || f.area() > work.area()*6/10 ||
			len(wordsIn(f, p.mw)) < 3 && float64(f.area()) < 300*em*em {
			continue
		}
		inside := false
		for _, o := range outer {
			if f.x0 >= o.x0-1 && f.y0 >= o.y0-1 && f.x1 <= o.x1+1 && f.y1 <= o.y1+1 {
				inside = true
				break
			}
		}
		if !inside {
			outer = append(outer, f)
		}
	}
	if len(outer) == 0 {
		return nil, nil
	}
	lab, boxes := g.components()
	for i := 0; i < len(outer); i++ {
		f := outer[i]
		// the piece of linework the frame's top side belongs to
		id := int32(-1)
		for x := f.x0; x <= f.x1 && id < 0; x++ {
			for y := f.y0 - 1; y <= f.y0+1; y++ {
				if x >= 0 && y >= 0 && x < g.w && y < g.h && lab[y*g.w+x] >= 0 {
					id = lab[y*g.w+x]
					break
				}
			}
		}
		if id < 0 {
			continue
		}
		c := boxes[id]
		if top, rest, ok := p.stackedBoxes(f, c, fs); ok {
			// boxes stacked a hair apart, their sides read as one: the
			// top one is the frame, the rest are looked at in turn
			f, outer[i] = top, top
			outer = append(outer, rest)
		}
		covered := 0
		for _, o := range outer {
			if o.x0 >= c.x0-2 && o.y0 >= c.y0-2 && o.x1 <= c.x1+2 && o.y1 <= c.y1+2 {
				covered += o.area()
			}
		}
		if 10*covered < 9*c.area() || crossings(g, f) > max(4, (f.w()+f.h())/50) {
			continue
		}
		if inner, cs, ok := p.containerParts(f, fs); ok {
			containers = append(containers, cs...)
			for _, in := range inner {
				out = append(out, p.splitStacked(in)...)
			}
			continue
		}
		out = append(out, p.splitStacked(f)...)
	}
	return out, containers
}

// stackedBoxes parts frame f when the linework of its top side, c, is a
// box of f's width that closes above f's bottom: boxes drawn under each
// other a gap narrower than the rules' bridging (a column of legends and
// notes boxes) are read as one frame by their sides, but their lines do
// not touch. It returns the top box and the frame of the rest (from fs).
func (p *Page) stackedBoxes(f, c rect, fs []rect) (top, rest rect, ok bool) {
	const tol = 2
	if abs(c.x0-f.x0) > tol || abs(c.x1-f.x1) > tol || c.y0 < f.y0-tol || c.y1 >= f.y1-tol ||
		cover(p.rules.h, c.y1, tol, f.x0, f.x1) < f.w()*95/100 {
		return rect{}, rect{}, false
	}
	for _, g := range fs {
		if abs(g.x0-f.x0) <= tol && abs(g.x1-f.x1) <= tol && abs(g.y1-f.y1) <= tol && g.y0 > c.y1 && (rest.empty() || g.y0 < rest.y0) {
			rest = g
		}
	}
	if rest.empty() || float64(rest.y0-c.y1) > p.em {
		return rect{}, rect{}, false
	}
	return rect{f.x0, f.y0, f.x1, c.y1}, rest, true
}

// splitStacked parts a frame holding two boxes stacked full width, the
// upper one of notes ("NOTE:- ALL DIMENSIONS ARE IN mm.") and the lower
// one a legend or schedule: drawn against each other they share a frame,
// but they are two blocks. A table's title row over its body is not
// parted: its body names no other kind.
func (p *Page) splitStacked(f rect) []rect {
	notes := map[string]bool{"GeneralNotes": true, "KeyNotes": true, "SheetNotes": true}
	var ys []int
	for _, h := range p.rules.h {
		if float64(h.pos-f.y0) >= 2*p.em && float64(f.y1-h.pos) >= 3*p.em && cover(p.rules.h, h.pos, 2, f.x0, f.x1) >= f.w()*95/100 {
			ys = append(ys, h.pos)
		}
	}
	sort.Ints(ys)
	for _, y := range ys {
		top, low := rect{f.x0, f.y0, f.x1, y}, rect{f.x0, y, f.x1, f.y1}
		tw := wordsIn(top, p.mw)
		if len(rowLines(tw)) < 2 {
			continue // a title row
		}
		if tk, lk := kindOf(firstLine(tw)), kindOf(firstLine(wordsIn(low, p.mw))); notes[tk] && lk != "" && !notes[lk] {
			return []rect{top, low}
		}
		return []rect{f} // the first box under the top one decides
	}
	return []rect{f}
}

// firstLine is the text of the topmost row of words: every word whose
// middle lies within a line height and a half of the top (a table's
// header cells across its columns), left to right.
func firstLine(ws []text.Word) string {
	if len(ws) == 0 {
		return ""
	}
	top := ws[0].Box
	for _, w := range ws {
		if w.Box.YMin < top.YMin {
			top = w.Box
		}
	}
	var row []text.Word
	for _, w := range ws {
		if (w.Box.YMin+w.Box.YMax)/2 <= top.YMin+1.5*top.Height() {
			row = append(row, w)
		}
	}
	sort.SliceStable(row, func(i, j int) bool { return row[i].Box.XMin < row[j].Box.XMin })
	var parts []string
	for _, w := range row {
		parts = append(parts, w.Text)
	}
	return strings.Join(parts, " ")
}

// components labels the 8-connected pieces of ink (-1 where none) and
// gives each piece's box.
func (m *mask) components() ([]int32, []rect) {
	lab := make([]int32, len(m.ink))
	for i := range lab {
		lab[i] = -1
	}
	var boxes []rect
	var stack []int
	for i, v := range m.ink {
		if !v || lab[i] >= 0 {
			continue
		}
		id := int32(len(boxes))
		b := rect{i % m.w, i / m.w, i%m.w + 1, i/m.w + 1}
		lab[i] = id
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := j%m.w, j/m.w
			b = rect{min(b.x0, x), min(b.y0, y), max(b.x1, x+1), max(b.y1, y+1)}
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= m.w || ny >= m.h {
						continue
					}
					if k := ny*m.w + nx; m.ink[k] && lab[k] < 0 {
						lab[k] = id
						stack = append(stack, k)
					}
				}
			}
		}
		boxes = append(boxes, b)
	}
	return lab, boxes
}

// crossings counts the places where linework runs through a frame's sides:
// dark graphics (not lettering) just outside and just inside at once.
func crossings(g *mask, f rect) int {
	at := func(x, y int) bool { return x >= 0 && y >= 0 && x < g.w && y < g.h && g.ink[y*g.w+x] }
	n := 0
	const d = 3
	run := false
	count := func(out, in bool) {
		if out && in {
			if !run {
				n++
			}
			run = true
		} else {
			run = false
		}
	}
	for x := f.x0 + d; x < f.x1-d; x++ {
		count(at(x, f.y0-d), at(x, f.y0+d))
	}
	run = false
	for x := f.x0 + d; x < f.x1-d; x++ {
		count(at(x, f.y1+d), at(x, f.y1-d))
	}
	run = false
	for y := f.y0 + d; y < f.y1-d; y++ {
		count(at(f.x0-d, y), at(f.x0+d, y))
	}
	run = false
	for y := f.y0 + d; y < f.y1-d; y++ {
		count(at(f.x1+d, y), at(f.x1-d, y))
	}
	return n
}
