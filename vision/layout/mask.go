package layout

import (
	"image"
	"math"

	"github.com/plangraph/plangraph/vision/text"
)

// mask is a binary ink image.
type mask struct {
	w, h int
	ink  []bool
}

func (m *mask) at(x, y int) bool { return m.ink[y*m.w+x] }

// rect is a half-open pixel rectangle of the mask.
type rect struct{ x0, y0, x1, y1 int }

func (r rect) w() int { return r.x1 - r.x0 }

func (r rect) h() int { return r.y1 - r.y0 }

func (r rect) area() int { return max(r.w(), 0) * max(r.h(), 0) }

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

// pool makes the ink mask, each cell inked when any of its f×f pixels is,
// and the dark mask of the cells where dark ink is (grey below darkLevel:
// linework, not the screened backgrounds and faint context behind it), and
// the tone mask of the cells in continuous tone (see toneOf).
func pool(img *image.Gray, f int) (all, dark *mask, tone []bool) {
	b := img.Bounds()
	W, H := b.Dx(), b.Dy()
	all = &mask{w: (W + f - 1) / f, h: (H + f - 1) / f}
	all.ink = make([]bool, all.w*all.h)
	dark = &mask{w: all.w, h: all.h, ink: make([]bool, all.w*all.h)}
	// tone statistics over blocks of t×t pixels
	t := max(f, 4)
	tw, th := (W+t-1)/t, (H+t-1)/t
	mid := make([]int32, tw*th)
	sum := make([]int64, tw*th)
	sq := make([]int64, tw*th)
	for y := 0; y < H; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):][:W]
		out := all.ink[(y/f)*all.w:][:all.w]
		dout := dark.ink[(y/f)*all.w:][:all.w]
		tb := (y / t) * tw
		for x, v := range row {
			if v < inkLevel {
				out[x/f] = true
				if v < darkLevel {
					dout[x/f] = true
				}
				if v >= 60 {
					mid[tb+x/t]++
				}
			}
			if v < 250 {
				k := tb + x/t
				sum[k] += int64(v)
				sq[k] += int64(v) * int64(v)
			}
		}
	}
	tone = make([]bool, all.w*all.h)
	for my := 0; my < all.h; my++ {
		for mx := 0; mx < all.w; mx++ {
			k := (my*f/t)*tw + mx*f/t
			n := int64(t * t)
			if 2*int64(mid[k]) < n {
				continue
			}
			mean := float64(sum[k]) / float64(n)
			if v := float64(sq[k])/float64(n) - mean*mean; v > 36 {
				tone[my*all.w+mx] = true
			}
		}
	}
	return all, dark, tone
}

// emHeight is the median height of the words holding a letter or a
// digit (text.TypeHeight), or a guess from the page size (a 36 in sheet,
// 0.1 in text) without words.
func emHeight(words []text.Word, W, H int) float64 {
	h, n := text.TypeHeight(words)
	if n < 5 {
		return float64(max(W, H)) / 360
	}
	return h
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
	var cands [][2]rect
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
					cands = append(cands, [2]rect{fr, {l.b + 1, t.b + 1, r.a, bo.a}})
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
		// a rectangle inside the outermost with nothing between the two (the
		// page's edge drawn round the sheet's border): the border is the
		// inner one
		for moved := true; moved; {
			moved = false
			for _, c := range cands {
				f, in := c[0], c[1]
				if f.x0 <= inner.x0 || f.y0 <= inner.y0 || f.x1 >= inner.x1 || f.y1 >= inner.y1 {
					continue
				}
				band := m.count(rect{inner.x0 + 2, inner.y0 + 2, inner.x1 - 2, inner.y1 - 2}) - m.count(rect{f.x0 - 2, f.y0 - 2, f.x1 + 3, f.y1 + 3})
				if band <= (inner.w()+inner.h())/20 {
					frame, inner, moved = f, in, true
					break
				}
			}
		}
		return inner, frame, true
	}
	// no four lines meet: the outermost line on each side
	t, bo, l, r := hs[0], hs[len(hs)-1], vs[0], vs[len(vs)-1]
	if t.a > all.y0+bandH || bo.b < all.y1-bandH || l.a > all.x0+bandW || r.b < all.x1-bandW || bo.a <= t.b || r.a <= l.b {
		return inner, frame, false
	}
	// lines that do not meet are a border only when nothing (a title
	// block's cells, a table) lies beyond them: else they are a table's
	fr := rect{lo(l), lo(t), hi(r), hi(bo)}
	if tot, out := m.inkOutside(all, fr); 200*out > tot {
		return inner, frame, false
	}
	return rect{l.b + 1, t.b + 1, r.a, bo.a}, fr, true
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

// splitBySeparators cuts r at lines spanning it, clearing the lines.
func (m *mask) splitBySeparators(r rect, on *mask) []rect {
	vs, hs := on.separators(r)
	edge := max(r.w(), r.h()) / 50
	for _, b := range on.borderLines(r) {
		m.clearRect(b)
	}
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
	if max(r.x0, 0) >= min(r.x1, m.w) {
		return
	}
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

func dist(a, b rect) float64 {
	dx := max(0, max(a.x0-b.x1, b.x0-a.x1))
	dy := max(0, max(a.y0-b.y1, b.y0-a.y1))
	return math.Hypot(float64(dx), float64(dy))
}

// inkOutside counts the ink pixels of r, and those outside fr.
func (m *mask) inkOutside(r, fr rect) (total, outside int) {
	for y := r.y0; y < r.y1; y++ {
		row := m.ink[y*m.w:]
		for x := r.x0; x < r.x1; x++ {
			if row[x] {
				total++
				if x < fr.x0-1 || x > fr.x1+1 || y < fr.y0-1 || y > fr.y1+1 {
					outside++
				}
			}
		}
	}
	return total, outside
}

// keepOnly is a copy of m with ink only inside the rects.
func (m *mask) keepOnly(rs []rect) *mask {
	out := &mask{w: m.w, h: m.h, ink: make([]bool, len(m.ink))}
	for _, r := range rs {
		r = rect{max(r.x0, 0), max(r.y0, 0), min(r.x1, m.w), min(r.y1, m.h)}
		for y := r.y0; y < r.y1; y++ {
			copy(out.ink[y*m.w+r.x0:y*m.w+r.x1], m.ink[y*m.w+r.x0:y*m.w+r.x1])
		}
	}
	return out
}

// borderLines are the rows and columns near r's edges (within a fiftieth of
// it) that a line runs along over half their length from one of r's ends: a
// border inside the one found (the page's edge drawn round the sheet's), or
// what is left of one beside a title block taken out. They separate nothing
// and join everything. A box's side near the edge that reaches neither end
// (a frame drawn just inside the border, clear of its corners) is no border.
func (m *mask) borderLines(r rect) []rect {
	edge := max(r.w(), r.h()) / 50
	fromEnd := func(s, e, lo, hi int) bool {
		return e-s >= (hi-lo)/2 && (s-lo <= edge || hi-e <= edge)
	}
	var out []rect
	for x := r.x0; x < r.x1; x++ {
		if x-r.x0 > edge && r.x1-1-x > edge {
			continue
		}
		if s, e := m.vRunExt(x, r.y0, r.y1); fromEnd(s, e, r.y0, r.y1) {
			out = append(out, rect{x, r.y0, x + 1, r.y1})
		}
	}
	for y := r.y0; y < r.y1; y++ {
		if y-r.y0 > edge && r.y1-1-y > edge {
			continue
		}
		if s, e := m.hRunExt(y, r.x0, r.x1); fromEnd(s, e, r.x0, r.x1) {
			out = append(out, rect{r.x0, y, r.x1, y + 1})
		}
	}
	return out
}

// and is the ink of m that o also has.
func (m *mask) and(o *mask) *mask {
	out := &mask{w: m.w, h: m.h, ink: make([]bool, len(m.ink))}
	for i, v := range m.ink {
		out.ink[i] = v && o.ink[i]
	}
	return out
}
