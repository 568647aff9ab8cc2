// Package layout segments a rendered sheet into blocks (plan views,
// legends, notes, schedules, the title block…) and types each from its
// text.
//
// The work is done on a binary mask of the page, min-pooled so that the
// long side is at most maxSide pixels (min-pooling rather than averaging
// keeps hairlines inked). Steps:
//
//  1. find the sheet border (long lines near the edges) and work inside it;
//  2. find separator lines spanning most of the frame; the title block is the
//     strip beyond the separator nearest the sheet number;
//  3. split the rest by the remaining separators, then by recursive XY-cut
//     on whitespace gaps wider than cutGapEm text heights;
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
	if tb, rest, ok := titleBlock(inner, frame, vs, hs, num); ok {
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
	for _, c := range parts {
		cells = append(cells, m.xycut(c, gap)...)
	}
	for _, c := range cells {
		regions = append(regions, region{r: c, framed: m.framed(c)})
	}

	// words in mask coordinates
	mw := make([]text.Word, len(words))
	for i, w := range words {
		mw[i] = w
		mw[i].Box = geom.Box{XMin: (w.Box.XMin - float64(b.Min.X)) * k, YMin: (w.Box.YMin - float64(b.Min.Y)) * k,
			XMax: (w.Box.XMax - float64(b.Min.X)) * k, YMax: (w.Box.YMax - float64(b.Min.Y)) * k}
	}
	regions = attachCaptions(regions, mw, em)
	regions = joinFragments(regions, mw, em)
	regions = absorbSmall(regions, em)

	margin := marginEm * em
	out := make([]Block, 0, len(regions))
	for _, rg := range regions {
		bx := geom.Box{XMin: float64(rg.r.x0), YMin: float64(rg.r.y0), XMax: float64(rg.r.x1), YMax: float64(rg.r.y1)}
		if !rg.tb && !m.framed(rg.r) { // a frame is the block's edge; else add the margin
			bx = geom.Box{XMin: bx.XMin - margin, YMin: bx.YMin - margin, XMax: bx.XMax + margin, YMax: bx.YMax + margin}
		}
		var blk Block
		if rg.tb {
			blk.Type = "TitleBlock"
		} else {
			blk = classify(rg.r, mw, em)
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

// frame finds the sheet border: the outermost long lines near each edge.
// It returns the area inside the border lines and the border itself (the
// lines' centres); both are the ink box when there is no border.
func (m *mask) frame() (inner, frame rect, ok bool) {
	all := m.bbox(rect{0, 0, m.w, m.h})
	inner, frame = all, all
	// top/bottom
	var hl []int
	for y := all.y0; y < all.y1; y++ {
		if m.hRun(y, all.x0, all.x1) >= int(frameFrac*float64(all.w())) {
			hl = append(hl, y)
		}
	}
	var vl []int
	for x := all.x0; x < all.x1; x++ {
		if m.vRun(x, all.y0, all.y1) >= int(frameFrac*float64(all.h())) {
			vl = append(vl, x)
		}
	}
	edge := func(ls []int, lo, hi int, fromLow bool) (in, centre int, ok bool) {
		band := (hi - lo) / 6
		if len(ls) == 0 {
			return 0, 0, false
		}
		if fromLow {
			if ls[0] > lo+band {
				return 0, 0, false
			}
			e := ls[0]
			for i := 1; i < len(ls) && ls[i] == e+1; i++ {
				e = ls[i]
			}
			return e + 1, (ls[0] + e) / 2, true
		}
		n := len(ls) - 1
		if ls[n] < hi-band {
			return 0, 0, false
		}
		s := ls[n]
		for i := n - 1; i >= 0 && ls[i] == s-1; i-- {
			s = ls[i]
		}
		return s, (s + ls[n] + 1) / 2, true
	}
	t, tc, okT := edge(hl, all.y0, all.y1, true)
	bo, bc, okB := edge(hl, all.y0, all.y1, false)
	l, lc, okL := edge(vl, all.x0, all.x1, true)
	r, rc, okR := edge(vl, all.x0, all.x1, false)
	if okT && okB && okL && okR && bo > t && r > l {
		inner = rect{l, t, r, bo}
		frame = rect{lc, tc, rc, bc}
		ok = true
	}
	return inner, frame, ok
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
			if c.tb || c.framed || float64(c.r.h()) > 6*em {
				continue
			}
			ls := text.Lines(wordsIn(c.r, words))
			if len(ls) == 0 || len(ls) > 3 {
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
		blk.Title = cs[title].l.Text
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
