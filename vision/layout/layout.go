// Package layout segments a rendered sheet into blocks (plan views,
// legends, notes, schedules, the title block…) and types each from its
// text.
//
// The work is done on a binary mask of the page, min-pooled so that the
// long side is at most maxSide pixels (min-pooling rather than averaging
// keeps hairlines inked). Steps:
//
//  1. find the sheet border (four long lines meeting at their ends, so a
//     page-edge line or a ruler band is not taken for it) and work inside it;
//  2. find separator lines spanning most of the frame; the title block is the
//     strip beyond the separator nearest the sheet number — or, failing
//     one, beyond the nearest long (possibly cell-by-cell) line above or
//     left of the number;
//  3. split the rest by the remaining separators, then by recursive XY-cut
//     on whitespace gaps wider than cutGapEm text heights; a notes', legend's
//     or schedule's heading found below a cell's top splits the cell (across
//     when centred, else by taking out the heading's text column); without
//     a title block, the cells stacked round the sheet number become one;
//  4. re-join what the cut split too finely: a view's title (a short text
//     region just under a drawing) joins the view above it, a legend's,
//     notes' or schedule's heading joins the body below it, an untitled
//     fragment (a legend's symbol column) joins its aligned titled
//     neighbour, and tiny leftovers fold into their nearest block;
//  5. type each block from its heading or title line, and read the scale
//     printed nearest that title.
//
// Lengths are measured in units of the median word height ("em"), so the
// same parameters work at every resolution and sheet size.
package layout

import (
	"image"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/internal/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Block is one region of a sheet. Box is in the input image's pixels.
type Block struct {
	Type  string
	Title string
	Scale string
	Box   geom.Box
}

const (
	maxSide   = 2000 // long side of the working mask, pixels
	inkLevel  = 200  // grey below this is ink
	cutGapEm  = 2.6  // whitespace gap (in em) that may separate blocks (≈0.25 in)
	marginEm  = 0.9  // margin reported around a block's ink (≈1/9 in)
	sepFrac   = 0.97 // a separator spans (nearly) all of its area, end to end
	frameFrac = 0.5  // a border line spans this fraction of the page
	stripFrac = 0.3  // a title strip's dividing line spans this fraction of the frame
)

// mask is a binary ink image.
type mask struct {
	w, h int
	ink  []bool
}

func (m *mask) at(x, y int) bool { return m.ink[y*m.w+x] }

// rect is a half-open pixel rectangle of the mask.
type rect struct{ x0, y0, x1, y1 int }

func (r rect) w() int      { return r.x1 - r.x0 }
func (r rect) h() int      { return r.y1 - r.y0 }
func (r rect) area() int   { return max(r.w(), 0) * max(r.h(), 0) }
func (r rect) empty() bool { return r.x1 <= r.x0 || r.y1 <= r.y0 }
func (r rect) union(o rect) rect {
	if r.empty() {
		return o
	}
	if o.empty() {
		return r
	}
	return rect{min(r.x0, o.x0), min(r.y0, o.y0), max(r.x1, o.x1), max(r.y1, o.y1)}
}

// region is a block being built, in mask pixels.
type region struct {
	r      rect
	framed bool
	tb     bool
}

// Segment splits img into blocks. words are the page's words in img's
// pixels; titleNumber is the sheet number's box (zero if unknown), used to
// find the title block.
func Segment(img *image.Gray, words []text.Word, titleNumber geom.Box) []Block {
	if img == nil {
		return nil
	}
	b := img.Bounds()
	W, H := b.Dx(), b.Dy()
	if W < 4 || H < 4 {
		return nil
	}
	f := (max(W, H) + maxSide - 1) / maxSide
	m := pool(img, f)
	k := 1 / float64(f) // mask pixels per image pixel
	em := emHeight(words, W, H) * k
	gap := max(int(math.Round(cutGapEm*em)), 3)

	all := m.bbox(rect{0, 0, m.w, m.h})
	if all.empty() {
		return nil
	}
	inner, frame, bordered := m.frame()
	var regions []region
	work := inner
	// title block
	num := titleNumber
	num = geom.Box{XMin: (num.XMin - float64(b.Min.X)) * k, YMin: (num.YMin - float64(b.Min.Y)) * k,
		XMax: (num.XMax - float64(b.Min.X)) * k, YMax: (num.YMax - float64(b.Min.Y)) * k}
	// Without a border, lines spanning the ink are as likely a view's frame
	// as a separator: only the sheet number can then place a title block.
	vs, hs := m.separators(inner)
	if !bordered && !num.Valid() {
		vs, hs = nil, nil
	}
	tb, rest, ok := titleBlock(inner, frame, vs, hs, num)
	if !ok && bordered && num.Valid() {
		tb, rest, ok = m.numberStrip(inner, frame, num, em)
	}
	if ok {
		regions = append(regions, region{r: tb, tb: true})
		work = rest
	}
	// one pixel in from the border and separator lines, whose
	// anti-aliased edges are not content
	work = rect{work.x0 + 1, work.y0 + 1, work.x1 - 1, work.y1 - 1}
	m.clearOutside(work)
	// split the work area at separators that span it, then XY-cut
	var cells []rect
	parts := []rect{work}
	if bordered {
		parts = m.splitBySeparators(work)
	}
	// words in mask coordinates
	mw := make([]text.Word, len(words))
	for i, w := range words {
		mw[i] = w
		mw[i].Box = geom.Box{XMin: (w.Box.XMin - float64(b.Min.X)) * k, YMin: (w.Box.YMin - float64(b.Min.Y)) * k,
			XMax: (w.Box.XMax - float64(b.Min.X)) * k, YMax: (w.Box.YMax - float64(b.Min.Y)) * k}
	}
	for _, c := range parts {
		cells = append(cells, m.xycut(c, gap)...)
	}
	cells, carved := m.splitHeadings(cells, mw, em, gap)
	for _, c := range cells {
		regions = append(regions, region{r: c, framed: m.framed(c)})
	}
	for _, c := range carved {
		regions = append(regions, region{r: c})
	}
	hasTB := false
	for _, rg := range regions {
		hasTB = hasTB || rg.tb
	}
	if !hasTB && num.Valid() {
		regions = numberCluster(regions, num, inner, em, mw)
	}

	regions = attachCaptions(regions, mw, em)
	regions = joinFragments(regions, mw, em)
	regions = absorbSmall(regions, em)
	regions = dropStrips(regions, em)

	margin := marginEm * em
	out := make([]Block, 0, len(regions))
	for i, rg := range regions {
		bx := geom.Box{XMin: float64(rg.r.x0), YMin: float64(rg.r.y0), XMax: float64(rg.r.x1), YMax: float64(rg.r.y1)}
		if !rg.tb && !m.framed(rg.r) { // a frame is the block's edge; else add the margin
			bx = geom.Box{XMin: bx.XMin - margin, YMin: bx.YMin - margin, XMax: bx.XMax + margin, YMax: bx.YMax + margin}
		}
		var blk Block
		if rg.tb {
			blk.Type = "TitleBlock"
		} else {
			blk = classify(rg.r, ownWords(regions, i, mw), em)
		}
		blk.Box = geom.Box{
			XMin: clampF(bx.XMin/k+float64(b.Min.X), float64(b.Min.X), float64(b.Max.X)),
			YMin: clampF(bx.YMin/k+float64(b.Min.Y), float64(b.Min.Y), float64(b.Max.Y)),
			XMax: clampF(bx.XMax/k+float64(b.Min.X), float64(b.Min.X), float64(b.Max.X)),
			YMax: clampF(bx.YMax/k+float64(b.Min.Y), float64(b.Min.Y), float64(b.Max.Y)),
		}
		out = append(out, blk)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Box.YMin != out[j].Box.YMin {
			return out[i].Box.YMin < out[j].Box.YMin
		}
		return out[i].Box.XMin < out[j].Box.XMin
	})
	return out
}

func clampF(v, lo, hi float64) float64 { return min(max(v, lo), hi) }

// pool makes the ink mask, each cell inked when any of its f×f pixels is.
func pool(img *image.Gray, f int) *mask {
	b := img.Bounds()
	W, H := b.Dx(), b.Dy()
	m := &mask{w: (W + f - 1) / f, h: (H + f - 1) / f}
	m.ink = make([]bool, m.w*m.h)
	for y := 0; y < H; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):][:W]
		out := m.ink[(y/f)*m.w:][:m.w]
		for x, v := range row {
			if v < inkLevel {
				out[x/f] = true
			}
		}
	}
	return m
}

// emHeight is the median word height, or a guess from the page size (a
// 36 in sheet, 0.1 in text) without words.
func emHeight(words []text.Word, W, H int) float64 {
	var hs []float64
	for _, w := range words {
		if h := w.Box.Height(); h > 0 {
			hs = append(hs, h)
		}
	}
	if len(hs) < 5 {
		return float64(max(W, H)) / 360
	}
	sort.Float64s(hs)
	return hs[len(hs)/2]
}

// bbox is the ink bounding box of r (empty when r holds no ink).
func (m *mask) bbox(r rect) rect {
	out := rect{r.x1, r.y1, r.x0, r.y0}
	for y := r.y0; y < r.y1; y++ {
		row := m.ink[y*m.w:]
		for x := r.x0; x < r.x1; x++ {
			if row[x] {
				out.x0, out.x1 = min(out.x0, x), max(out.x1, x+1)
				out.y0, out.y1 = min(out.y0, y), max(out.y1, y+1)
			}
		}
	}
	if out.empty() {
		return rect{}
	}
	return out
}

// hRun is the longest horizontal ink run on row y within [x0, x1).
func (m *mask) hRun(y, x0, x1 int) int {
	best, cur := 0, 0
	row := m.ink[y*m.w:]
	for x := x0; x < x1; x++ {
		if row[x] {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// vRun is the longest vertical ink run on column x within [y0, y1).
func (m *mask) vRun(x, y0, y1 int) int {
	best, cur := 0, 0
	for y := y0; y < y1; y++ {
		if m.ink[y*m.w+x] {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// frame finds the sheet border: long lines near each edge, the four
// meeting at their ends (so that a page-edge line or a ruler band's outer
// line is not taken for one side of an inner border). Among such
// rectangles the outermost wins; failing any, the outermost long line on
// each side is used. It returns the area inside the border lines and the
// border itself (the lines' centres); both are the ink box when there is
// no border.
func (m *mask) frame() (inner, frame rect, ok bool) {
	all := m.bbox(rect{0, 0, m.w, m.h})
	inner, frame = all, all
	if all.empty() {
		return inner, frame, false
	}
	// a long line: its rows (or columns) [a, b] and its longest run [s, e)
	type fl struct{ a, b, s, e int }
	var hl, vl []int
	for y := all.y0; y < all.y1; y++ {
		if m.hRun(y, all.x0, all.x1) >= int(frameFrac*float64(all.w())) {
			hl = append(hl, y)
		}
	}
	for x := all.x0; x < all.x1; x++ {
		if m.vRun(x, all.y0, all.y1) >= int(frameFrac*float64(all.h())) {
			vl = append(vl, x)
		}
	}
	var hs, vs []fl
	for _, g := range groups(hl) {
		best := fl{a: g.a, b: g.b}
		for y := g.a; y <= g.b; y++ {
			if s, e := m.hRunExt(y, all.x0, all.x1); e-s > best.e-best.s {
				best.s, best.e = s, e
			}
		}
		hs = append(hs, best)
	}
	for _, g := range groups(vl) {
		best := fl{a: g.a, b: g.b}
		for x := g.a; x <= g.b; x++ {
			if s, e := m.vRunExt(x, all.y0, all.y1); e-s > best.e-best.s {
				best.s, best.e = s, e
			}
		}
		vs = append(vs, best)
	}
	if len(hs) < 2 || len(vs) < 2 {
		return inner, frame, false
	}
	bandH, bandW := all.h()/6, all.w()/6
	lo := func(g fl) int { return (g.a + g.b) / 2 }
	hi := func(g fl) int { return (g.a + g.b + 1) / 2 }
	tol := max(all.w(), all.h()) / 50
	near := func(a, b int) bool { return a-b <= tol && b-a <= tol }
	bestArea := -1
	for _, t := range hs {
		if t.a > all.y0+bandH {
			continue
		}
		for _, bo := range hs {
			if bo.b < all.y1-bandH || bo.a <= t.b {
				continue
			}
			for _, l := range vs {
				if l.a > all.x0+bandW {
					continue
				}
				for _, r := range vs {
					if r.b < all.x1-bandW || r.a <= l.b {
						continue
					}
					fr := rect{lo(l), lo(t), hi(r), hi(bo)}
					if !near(t.s, fr.x0) || !near(t.e, fr.x1) || !near(bo.s, fr.x0) || !near(bo.e, fr.x1) ||
						!near(l.s, fr.y0) || !near(l.e, fr.y1) || !near(r.s, fr.y0) || !near(r.e, fr.y1) {
						continue
					}
					if a := fr.area(); a > bestArea {
						bestArea = a
						frame = fr
						inner = rect{l.b + 1, t.b + 1, r.a, bo.a}
					}
				}
			}
		}
	}
	if bestArea >= 0 {
		return inner, frame, true
	}
	// no four lines meet: the outermost line on each side
	t, bo, l, r := hs[0], hs[len(hs)-1], vs[0], vs[len(vs)-1]
	if t.a > all.y0+bandH || bo.b < all.y1-bandH || l.a > all.x0+bandW || r.b < all.x1-bandW || bo.a <= t.b || r.a <= l.b {
		return inner, frame, false
	}
	return rect{l.b + 1, t.b + 1, r.a, bo.a}, rect{lo(l), lo(t), hi(r), hi(bo)}, true
}

// hRunExt is the longest horizontal ink run [s, e) on row y within [x0, x1).
func (m *mask) hRunExt(y, x0, x1 int) (s, e int) {
	row := m.ink[y*m.w:]
	cur := x0
	for x := x0; x < x1; x++ {
		if !row[x] {
			cur = x + 1
			continue
		}
		if x+1-cur > e-s {
			s, e = cur, x+1
		}
	}
	return s, e
}

// vRunExt is the longest vertical ink run [s, e) on column x within [y0, y1).
func (m *mask) vRunExt(x, y0, y1 int) (s, e int) {
	cur := y0
	for y := y0; y < y1; y++ {
		if !m.ink[y*m.w+x] {
			cur = y + 1
			continue
		}
		if y+1-cur > e-s {
			s, e = cur, y+1
		}
	}
	return s, e
}

// clearOutside removes ink outside r.
func (m *mask) clearOutside(r rect) {
	for y := 0; y < m.h; y++ {
		row := m.ink[y*m.w : (y+1)*m.w]
		if y < r.y0 || y >= r.y1 {
			clear(row)
			continue
		}
		clear(row[:max(r.x0, 0)])
		clear(row[min(r.x1, m.w):])
	}
}

// line is a group of adjacent separator rows or columns [a, b].
type line struct{ a, b int }

func groups(idx []int) []line {
	var out []line
	for _, i := range idx {
		if n := len(out); n > 0 && out[n-1].b+1 >= i {
			out[n-1].b = i
			continue
		}
		out = append(out, line{i, i})
	}
	return out
}

// separators finds vertical and horizontal lines spanning most of r.
func (m *mask) separators(r rect) (vs, hs []line) {
	var vx, hy []int
	for x := r.x0; x < r.x1; x++ {
		if m.vRun(x, r.y0, r.y1) >= int(sepFrac*float64(r.h())) {
			vx = append(vx, x)
		}
	}
	for y := r.y0; y < r.y1; y++ {
		if m.hRun(y, r.x0, r.x1) >= int(sepFrac*float64(r.w())) {
			hy = append(hy, y)
		}
	}
	return groups(vx), groups(hy)
}

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

// headingKinds are the kinds whose heading sits above a body of text or a
// table, and so may start a block inside a larger region.
var headingKinds = map[string]bool{"KeyNotes": true, "GeneralNotes": true, "SheetNotes": true, "Schedule": true, "Legend": true}

// isHeading reports whether l reads as a notes', legend's or schedule's
// heading: a short line of headline-sized type naming such a kind.
func isHeading(l text.Line, em float64) bool {
	return len(l.Words) <= 8 && hasLetters(l.Text) && headingKinds[kindOf(l.Text)] && lineHeight(l) >= 1.3*em
}

// splitHeadings splits cells that hold more than their own block: a
// heading below a cell's top starts another block. A heading centred over
// the cell (stacked schedules) cuts it across; any other (a notes column
// beside a plan it is not separated from by a clear gap) takes its text
// body out of the cell as a block of its own. Returns the cells and the
// blocks taken out.
func (m *mask) splitHeadings(cells []rect, words []text.Word, em float64, gap int) (out, carved []rect) {
	used := map[geom.Box]bool{}
	queue := append([]rect(nil), cells...)
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		ls := text.Lines(wordsIn(c, words))
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].Box.YMin < ls[j].Box.YMin })
		hi := -1
		for i, l := range ls {
			if !used[l.Box] && isHeading(l, em) && l.Box.YMin-float64(c.y0) > 3*em {
				hi = i
				break
			}
		}
		if hi < 0 {
			out = append(out, c)
			continue
		}
		h := ls[hi]
		used[h.Box] = true
		if hc, cc := (h.Box.XMin+h.Box.XMax)/2, float64(c.x0+c.x1)/2; math.Abs(hc-cc) <= 0.1*float64(c.w()) {
			y := int(h.Box.YMin - 0.3*em)
			queue = append(queue, m.xycut(rect{c.x0, c.y0, c.x1, y}, gap)...)
			queue = append(queue, m.xycut(rect{c.x0, y, c.x1, c.y1}, gap)...)
			continue
		}
		bx := growText(h, ls, em)
		pad := 0.8 * em
		r := rect{int(bx.XMin - pad), int(bx.YMin - pad), int(math.Ceil(bx.XMax + pad)), int(math.Ceil(bx.YMax + pad))}
		r = rect{max(r.x0, c.x0), max(r.y0, c.y0), min(r.x1, c.x1), min(r.y1, c.y1)}
		if r.area() > c.area()/2 {
			out = append(out, c)
			continue
		}
		if ib := m.bbox(r); !ib.empty() {
			carved = append(carved, ib)
		}
		m.clearRect(r)
		queue = append(queue, m.xycut(c, gap)...)
	}
	return out, carved
}

// growText is the box of heading h and the text below it: lines starting
// in its column, each within a few line gaps of the last, up to the next
// heading; then the item numbers printed left of those lines.
func growText(h text.Line, ls []text.Line, em float64) geom.Box {
	cur := h.Box
	lim := max(2.5*em, 2*lineHeight(h))
	for _, l := range ls {
		if l.Box.YMin < h.Box.YMax-0.5*em || !hasLetters(l.Text) {
			continue
		}
		if l.Box.XMin < cur.XMin-15*em || l.Box.XMin > cur.XMax+3*em {
			continue
		}
		if l.Box.YMin-cur.YMax > lim || isHeading(l, em) {
			break
		}
		cur = boxUnion(cur, l.Box)
		lim = 2.5 * em
	}
	for _, l := range ls {
		if !hasLetters(l.Text) && l.Box.YMin >= cur.YMin && l.Box.YMax <= cur.YMax+0.5*em &&
			l.Box.XMax <= cur.XMax && l.Box.XMin >= cur.XMin-4*em {
			cur = boxUnion(cur, l.Box)
		}
	}
	return cur
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

// splitBySeparators cuts r at lines spanning it, clearing the lines.
func (m *mask) splitBySeparators(r rect) []rect {
	vs, hs := m.separators(r)
	edge := max(r.w(), r.h()) / 50
	var xs, ys []int
	xs = append(xs, r.x0)
	for _, v := range vs {
		if v.a-r.x0 > edge && r.x1-v.b > edge {
			xs = append(xs, v.a, v.b+1)
			m.clearRect(rect{v.a, r.y0, v.b + 1, r.y1})
		}
	}
	xs = append(xs, r.x1)
	ys = append(ys, r.y0)
	for _, h := range hs {
		if h.a-r.y0 > edge && r.y1-h.b > edge {
			ys = append(ys, h.a, h.b+1)
			m.clearRect(rect{r.x0, h.a, r.x1, h.b + 1})
		}
	}
	ys = append(ys, r.y1)
	var out []rect
	for i := 0; i+1 < len(xs); i += 2 {
		for j := 0; j+1 < len(ys); j += 2 {
			out = append(out, rect{xs[i], ys[j], xs[i+1], ys[j+1]})
		}
	}
	return out
}

func (m *mask) clearRect(r rect) {
	for y := max(r.y0, 0); y < min(r.y1, m.h); y++ {
		clear(m.ink[y*m.w+max(r.x0, 0) : y*m.w+min(r.x1, m.w)])
	}
}

// xycut splits r recursively at whitespace gaps of at least gap pixels and
// returns the leaves' ink boxes.
func (m *mask) xycut(r rect, gap int) []rect {
	r = m.bbox(r)
	if r.empty() {
		return nil
	}
	rows := make([]int, r.h())
	cols := make([]int, r.w())
	for y := r.y0; y < r.y1; y++ {
		row := m.ink[y*m.w:]
		for x := r.x0; x < r.x1; x++ {
			if row[x] {
				rows[y-r.y0]++
				cols[x-r.x0]++
			}
		}
	}
	cutsR, wr := gaps(rows, gap)
	cutsC, wc := gaps(cols, gap)
	if len(cutsR) == 0 && len(cutsC) == 0 {
		return []rect{r}
	}
	var parts []rect
	if wr >= wc {
		prev := r.y0
		for _, c := range cutsR {
			parts = append(parts, rect{r.x0, prev, r.x1, r.y0 + c})
			prev = r.y0 + c
		}
		parts = append(parts, rect{r.x0, prev, r.x1, r.y1})
	} else {
		prev := r.x0
		for _, c := range cutsC {
			parts = append(parts, rect{prev, r.y0, r.x0 + c, r.y1})
			prev = r.x0 + c
		}
		parts = append(parts, rect{prev, r.y0, r.x1, r.y1})
	}
	var out []rect
	for _, p := range parts {
		out = append(out, m.xycut(p, gap)...)
	}
	return out
}

// gaps returns the middles of interior zero runs of at least n in prof,
// and the widest such run.
func gaps(prof []int, n int) ([]int, int) {
	var cuts []int
	widest := 0
	start := -1
	for i, v := range prof {
		if v == 0 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start > 0 && i-start >= n {
			cuts = append(cuts, (start+i)/2)
			widest = max(widest, i-start)
		}
		start = -1
	}
	return cuts, widest
}

// framed reports whether r's ink is enclosed by a rectangle on its edges.
func (m *mask) framed(r rect) bool {
	if r.w() < 8 || r.h() < 8 {
		return false
	}
	full := func(n, of int) bool { return float64(n) >= 0.97*float64(of) }
	return full(m.hRun(r.y0, r.x0, r.x1), r.w()) && full(m.hRun(r.y1-1, r.x0, r.x1), r.w()) &&
		full(m.vRun(r.x0, r.y0, r.y1), r.h()) && full(m.vRun(r.x1-1, r.y0, r.y1), r.h())
}

func wordsIn(r rect, words []text.Word) []text.Word {
	var out []text.Word
	for _, w := range words {
		cx, cy := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
		if cx >= float64(r.x0) && cx < float64(r.x1) && cy >= float64(r.y0) && cy < float64(r.y1) {
			out = append(out, w)
		}
	}
	return out
}

// viewKinds are drawn views, whose titles are printed under them; other
// kinds (legends, notes, schedules) carry a heading above.
var viewKinds = map[string]bool{"Plan": true, "Elevation": true, "Section": true, "Detail": true, "Diagram": true}

// headingKind is the kind named by r's title or heading, "" when none.
func headingKind(r rect, words []text.Word, em float64) string {
	b := classify(r, words, em)
	if b.Title == "" || kindOf(b.Title) != b.Type {
		return ""
	}
	return b.Type
}

// attachCaptions merges short text regions into the block they label: a
// view's title (and scale) into the view just above it, a legend's, notes'
// or schedule's heading into the body just below it.
func attachCaptions(rs []region, words []text.Word, em float64) []region {
	for changed := true; changed; {
		changed = false
		for i := range rs {
			c := rs[i]
			if c.tb || c.framed || float64(c.r.h()) > 10*em {
				continue
			}
			ls := text.Lines(wordsIn(c.r, words))
			lettered := 0 // a scale bar's figures are not caption lines
			for _, l := range ls {
				if hasLetters(l.Text) {
					lettered++
				}
			}
			if len(ls) == 0 || lettered > 3 {
				continue
			}
			kind := headingKind(c.r, words, em)
			up := kind == "" || viewKinds[kind]
			best, bestGap := -1, 8*em
			if !up {
				bestGap = 5 * em
			}
			for j := range rs {
				a := rs[j]
				if j == i || a.tb || a.r.area() <= c.r.area() {
					continue
				}
				var g float64
				if up {
					if a.r.y1 > c.r.y0 {
						continue
					}
					g = float64(c.r.y0 - a.r.y1)
				} else {
					if a.r.y0 < c.r.y1 || headingKind(a.r, words, em) != "" {
						continue
					}
					g = float64(a.r.y0 - c.r.y1)
				}
				ov := min(a.r.x1, c.r.x1) - max(a.r.x0, c.r.x0)
				if float64(ov) < 0.5*float64(min(c.r.w(), a.r.w())) {
					continue
				}
				if up && kind != "" && float64(ov) >= 0.8*float64(a.r.w()) {
					// a view's title bar, ruled under its whole width,
					// may sit further below it
					g /= 2
				}
				if g < bestGap {
					best, bestGap = j, g
				}
			}
			if best < 0 {
				continue
			}
			rs[best].r = rs[best].r.union(c.r)
			rs[best].framed = false
			rs = append(rs[:i], rs[i+1:]...)
			changed = true
			break
		}
	}
	return rs
}

// joinFragments merges an untitled region into a titled neighbour beside,
// above or below it when the two are close and aligned: the symbol column
// of a legend, a table's body cut off by a wide gutter.
func joinFragments(rs []region, words []text.Word, em float64) []region {
	for changed := true; changed; {
		changed = false
		for i := range rs {
			f := rs[i]
			if f.tb || headingKind(f.r, words, em) != "" {
				continue
			}
			best, bestGap := -1, 5*em
			for j := range rs {
				a := rs[j]
				if j == i || a.tb {
					continue
				}
				yov := min(a.r.y1, f.r.y1) - max(a.r.y0, f.r.y0)
				xov := min(a.r.x1, f.r.x1) - max(a.r.x0, f.r.x0)
				if xov > 0 && yov > 0 && 5*xov*yov >= 4*a.r.area() {
					// a block taken out of f (a notes column within a
					// plan's extent) is not a fragment's neighbour
					continue
				}
				var g float64
				switch {
				case yov > 0 && float64(yov) >= 0.6*float64(min(a.r.h(), f.r.h())):
					g = float64(max(a.r.x0-f.r.x1, f.r.x0-a.r.x1))
				case xov > 0 && float64(xov) >= 0.8*float64(f.r.w()):
					g = float64(max(a.r.y0-f.r.y1, f.r.y0-a.r.y1))
				default:
					continue
				}
				if g < bestGap {
					best, bestGap = j, g
				}
			}
			if best < 0 {
				continue
			}
			rs[best].r = rs[best].r.union(f.r)
			rs[best].framed = false
			rs = append(rs[:i], rs[i+1:]...)
			changed = true
			break
		}
	}
	return rs
}

// absorbSmall folds regions too small to be a block into their nearest
// neighbour, so that every inked pixel belongs to some block.
func absorbSmall(rs []region, em float64) []region {
	small := func(r region) bool {
		return !r.tb && (float64(r.r.w()) < 4*em || float64(r.r.h()) < 2*em) && float64(r.r.area()) < 40*em*em
	}
	for changed := true; changed; {
		changed = false
		for i := range rs {
			if !small(rs[i]) {
				continue
			}
			best, bestD := -1, math.Inf(1)
			for j := range rs {
				if j == i || rs[j].tb {
					continue
				}
				if d := dist(rs[i].r, rs[j].r); d < bestD {
					best, bestD = j, d
				}
			}
			switch {
			case best >= 0 && bestD <= 3*cutGapEm*em:
				rs[best].r = rs[best].r.union(rs[i].r)
			case float64(rs[i].r.area()) < em*em:
				// a speck far from everything: residue of a border or
				// separator line, not content
			default:
				continue
			}
			rs = append(rs[:i], rs[i+1:]...)
			changed = true
			break
		}
	}
	return rs
}

func dist(a, b rect) float64 {
	dx := max(0, max(a.x0-b.x1, b.x0-a.x1))
	dy := max(0, max(a.y0-b.y1, b.y0-a.y1))
	return math.Hypot(float64(dx), float64(dy))
}

var (
	scaleRE = regexp.MustCompile(`(?i)(\d+(?:\s*/\s*\d+)?\s*(?:"|”|''|IN\b)\s*=\s*\d+\s*'\s*-?\s*\d*(?:\s*/\s*\d+)?\s*"?|\b1\s*:\s*\d+\b|\bN\.?\s*T\.?\s*S\.?\b|\bNOT TO SCALE\b|\bAS NOTED\b)`)
	// kinds in order of precedence: the first that matches a title wins.
	kinds = []struct {
		typ string
		re  *regexp.Regexp
	}{
		{"KeyNotes", regexp.MustCompile(`\bKEY(ED)?\s*NOTES?\b`)},
		{"GeneralNotes", regexp.MustCompile(`\bGENERAL\s+NOTES?\b`)},
		{"SheetNotes", regexp.MustCompile(`\bSHEET\s+NOTES?\b`)},
		{"RevisionHistory", regexp.MustCompile(`\bREVISIONS?\b`)},
		{"Schedule", regexp.MustCompile(`\bSCHEDULES?\b`)},
		{"Legend", regexp.MustCompile(`\bLEGENDS?\b|\bSYMBOLS?\b|\bABBREVIATIONS\b`)},
		{"Diagram", regexp.MustCompile(`\bDIAGRAMS?\b|\bRISERS?\b|\bONE[- ]LINE\b|\bSINGLE[- ]LINE\b`)},
		{"Elevation", regexp.MustCompile(`\bELEVATIONS?\b`)},
		{"Section", regexp.MustCompile(`\bSECTIONS?\b`)},
		{"Detail", regexp.MustCompile(`\bDETAILS?\b`)},
		{"Plan", regexp.MustCompile(`\bPLANS?\b`)},
		{"GeneralNotes", regexp.MustCompile(`\bNOTES?\b`)},
	}
)

func kindOf(s string) string {
	s = strings.ToUpper(s)
	for _, k := range kinds {
		if k.re.MatchString(s) {
			return k.typ
		}
	}
	return ""
}

// continued is a title line joined with the line under it when the title
// ends with a connector ("ROOM FINISH LEGEND &" / "ABBREVIATIONS"): the
// next line of the same type size, starting within a line height of it.
func continued(t text.Line, ls []text.Line) string {
	txt := strings.TrimSpace(t.Text)
	up := strings.ToUpper(txt)
	if !(strings.HasSuffix(up, "&") || strings.HasSuffix(up, " AND") || strings.HasSuffix(up, "-") || strings.HasSuffix(up, ",")) {
		return txt
	}
	h := lineHeight(t)
	for _, l := range ls {
		dy := l.Box.YMin - t.Box.YMax
		if dy >= -0.2*h && dy < 0.8*h && math.Abs(l.Box.XMin-t.Box.XMin) < 1.5*h && math.Abs(lineHeight(l)-h) < 0.25*h && hasLetters(l.Text) {
			return txt + " " + strings.TrimSpace(l.Text)
		}
	}
	return txt
}

// classify types a region from its heading or title line.
func classify(r rect, words []text.Word, em float64) Block {
	ws := wordsIn(r, words)
	ls := text.Lines(ws)
	var blk Block
	// Title candidates: the largest-type lines, then the top line. Body
	// text (room names, descriptions) is smaller than headings.
	type cand struct {
		l     text.Line
		score float64
	}
	var cs []cand
	for _, l := range ls {
		if !hasLetters(l.Text) {
			continue
		}
		h := lineHeight(l)
		s := h / em
		if l.Box.YMin-float64(r.y0) < 3*em && l.Box.XMin-float64(r.x0) < 3*em {
			s += 0.5 // heading at the top left
		}
		cs = append(cs, cand{l, s})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	title := -1
	for i, c := range cs {
		if c.score < cs[0].score-0.35 { // only headline-sized lines
			break
		}
		if kindOf(c.l.Text) != "" {
			title = i
			break
		}
	}
	if title >= 0 {
		blk.Title = continued(cs[title].l, ls)
		blk.Type = kindOf(blk.Title)
	} else {
		// fallback by content
		textArea := 0.0
		for _, w := range ws {
			textArea += w.Box.Area()
		}
		if float64(r.area()) > 0 && textArea/float64(r.area()) > 0.12 {
			blk.Type = "GeneralNotes"
		} else {
			blk.Type = "Plan"
		}
		if len(cs) > 0 {
			blk.Title = cs[0].l.Text
		}
	}
	// scale nearest the title
	if title >= 0 {
		tb := cs[title].l.Box
		best := math.Inf(1)
		for _, l := range ls {
			loc := scaleRE.FindStringIndex(strings.ToUpper(l.Text))
			if loc == nil {
				continue
			}
			d := boxDist(l.Box, tb)
			if d < best && d < 4*em {
				best = d
				blk.Scale = strings.TrimSpace(l.Text[loc[0]:loc[1]])
			}
		}
	}
	return blk
}

func lineHeight(l text.Line) float64 {
	hs := make([]float64, 0, len(l.Words))
	for _, w := range l.Words {
		hs = append(hs, w.Box.Height())
	}
	sort.Float64s(hs)
	return hs[len(hs)/2]
}

func hasLetters(s string) bool {
	n := 0
	for _, c := range s {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
			n++
		}
	}
	return n >= 3
}

// boxDist is the gap between two boxes (0 when they touch or overlap).
func boxDist(a, b geom.Box) float64 {
	dx := max(0, a.XMin-b.XMax, b.XMin-a.XMax)
	dy := max(0, a.YMin-b.YMax, b.YMin-a.YMax)
	return math.Hypot(dx, dy)
}

func boxUnion(a, b geom.Box) geom.Box {
	return geom.Box{XMin: min(a.XMin, b.XMin), YMin: min(a.YMin, b.YMin), XMax: max(a.XMax, b.XMax), YMax: max(a.YMax, b.YMax)}
}

// ownWords is the words of region i, less those of any other region lying
// within it (a notes column taken out of a plan's extent).
func ownWords(rs []region, i int, words []text.Word) []text.Word {
	r := rs[i].r
	var inside []rect
	for j, o := range rs {
		if j == i {
			continue
		}
		ix := rect{max(r.x0, o.r.x0), max(r.y0, o.r.y0), min(r.x1, o.r.x1), min(r.y1, o.r.y1)}
		if !ix.empty() && 5*ix.area() >= 4*o.r.area() {
			inside = append(inside, o.r)
		}
	}
	if len(inside) == 0 {
		return words
	}
	var out []text.Word
	for _, w := range wordsIn(r, words) {
		cx, cy := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
		in := false
		for _, o := range inside {
			in = in || cx >= float64(o.x0) && cx < float64(o.x1) && cy >= float64(o.y0) && cy < float64(o.y1)
		}
		if !in {
			out = append(out, w)
		}
	}
	return out
}

// dropStrips removes long thin regions, a few text heights across and
// many times as long: a line of margin text (a file path printed up the
// sheet's edge) or the residue of a rule, never a block of its own.
func dropStrips(rs []region, em float64) []region {
	out := rs[:0]
	for _, r := range rs {
		short, long := min(r.r.w(), r.r.h()), max(r.r.w(), r.r.h())
		if !r.tb && float64(short) < 4*em && long > 15*short {
			continue
		}
		out = append(out, r)
	}
	return out
}
