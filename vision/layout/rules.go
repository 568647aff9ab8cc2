package layout

import (
	"math"
	"sort"

	"github.com/plangraph/plangraph/vision/text"
)

// seg is a ruling line of the mask: horizontal at row pos (or vertical at
// column pos) from a to b (half-open), thick rows (columns) thick.
type seg struct {
	pos, a, b, thick int
}

func (s seg) len() int { return s.b - s.a }

// rules are the straight, thin ruling lines of a mask: table and title-block
// cell edges, frames, underlines. Solid fills (poché, thick bars) are not
// rules; neither is text.
type rules struct {
	h, v []seg // by pos, then a
}

// findRules finds the horizontal and vertical lines at least minLen long and
// at most maxThick thick.
func (m *mask) findRules(minLen, maxThick int) *rules {
	r := &rules{}
	r.h = bands(m.h, m.w, minLen, maxThick, func(i, j int) bool { return m.ink[i*m.w+j] })
	r.v = bands(m.w, m.h, minLen, maxThick, func(i, j int) bool { return m.ink[j*m.w+i] })
	return r
}

// bands finds, along lines i of length n (rows or columns), the runs of at
// least minLen and joins the runs of consecutive lines that overlap over
// half the longer into bands; a band of at most maxThick lines is a rule at
// its middle line.
func bands(lines, n, minLen, maxThick int, at func(i, j int) bool) []seg {
	type band struct {
		i0, i1, a, b int // lines [i0, i1], union extent [a, b)
		lastA, lastB int // the run on the band's last line
		done         bool
	}
	var open, closed []*band
	for i := 0; i < lines; i++ {
		var runs [][2]int
		for j := 0; j < n; {
			if !at(i, j) {
				j++
				continue
			}
			k := j
			for k < n && at(i, k) {
				k++
			}
			if k-j >= minLen {
				runs = append(runs, [2]int{j, k})
			}
			j = k
		}
		var next []*band
		used := make([]bool, len(open))
		for _, rn := range runs {
			joined := false
			for bi, b := range open {
				if used[bi] {
					continue
				}
				// the same line seen on the next row (column) has about its
				// extent: a short line drawn beside a long one (a box's side
				// a few pixels from a title strip's rule) is a line of its
				// own, not a thickening of the long one into a fill
				ov := min(rn[1], b.lastB) - max(rn[0], b.lastA)
				if 2*ov >= max(rn[1]-rn[0], b.lastB-b.lastA) {
					b.i1, b.a, b.b, b.lastA, b.lastB = i, min(b.a, rn[0]), max(b.b, rn[1]), rn[0], rn[1]
					used[bi] = true
					next = append(next, b)
					joined = true
					break
				}
			}
			if !joined {
				next = append(next, &band{i0: i, i1: i, a: rn[0], b: rn[1], lastA: rn[0], lastB: rn[1]})
			}
		}
		for bi, b := range open {
			if !used[bi] {
				closed = append(closed, b)
			}
		}
		open = next
	}
	closed = append(closed, open...)
	var out []seg
	for _, b := range closed {
		if t := b.i1 - b.i0 + 1; t <= maxThick {
			out = append(out, seg{pos: (b.i0 + b.i1) / 2, a: b.a, b: b.b, thick: t})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].pos != out[j].pos {
			return out[i].pos < out[j].pos
		}
		return out[i].a < out[j].a
	})
	return out
}

// cover is the length of [a, b) covered by the rules within tol of pos.
func cover(ss []seg, pos, tol, a, b int) int {
	var iv [][2]int
	for _, s := range ss {
		if s.pos < pos-tol || s.pos > pos+tol || s.b <= a || s.a >= b {
			continue
		}
		iv = append(iv, [2]int{max(s.a, a), min(s.b, b)})
	}
	sort.Slice(iv, func(i, j int) bool { return iv[i][0] < iv[j][0] })
	n, end := 0, a
	for _, x := range iv {
		if x[1] <= end {
			continue
		}
		n += x[1] - max(x[0], end)
		end = x[1]
	}
	return n
}

// cell is the smallest box of rules around r: the nearest horizontal rule
// above and below r that spans r's middle column, and the nearest vertical
// ones left and right that span its middle row. A side without such a rule
// stays at lim's edge. r's underline (a rule within a line's height under
// it, no longer than r and half a height on either side: "TITLE:" set
// underlined, whose OCR box stops above the line) is no cell edge.
func (rs *rules) cell(r, lim rect) rect {
	cx, cy := (r.x0+r.x1)/2, (r.y0+r.y1)/2
	pad := (r.h() + 1) / 2
	out := lim
	for _, s := range rs.h {
		if s.a > cx || s.b <= cx {
			continue
		}
		if s.pos >= r.y1 && s.pos < r.y1+r.h() && s.a >= r.x0-pad && s.b <= r.x1+pad {
			continue
		}
		if s.pos < r.y0 && s.pos >= out.y0 {
			out.y0 = s.pos
		}
		if s.pos >= r.y1 && s.pos < out.y1 {
			out.y1 = s.pos
		}
	}
	for _, s := range rs.v {
		if s.a > cy || s.b <= cy {
			continue
		}
		if s.pos < r.x0 && s.pos >= out.x0 {
			out.x0 = s.pos
		}
		if s.pos >= r.x1 && s.pos < out.x1 {
			out.x1 = s.pos
		}
	}
	return out
}

// dropText removes the "rules" that are lettering: a line of large or bold
// type pooled to the working resolution runs on along its strokes. A rule
// lying more than half within words' boxes is one.
func (rs *rules) dropText(words []text.Word) {
	keep := func(ss []seg, horiz bool) []seg {
		out := ss[:0]
		for _, s := range ss {
			var iv [][2]int
			for _, w := range words {
				b := w.Box
				if horiz {
					if float64(s.pos) < b.YMin || float64(s.pos) > b.YMax || b.XMax < float64(s.a) || b.XMin > float64(s.b) {
						continue
					}
					iv = append(iv, [2]int{int(b.XMin), int(math.Ceil(b.XMax))})
				} else {
					if float64(s.pos) < b.XMin || float64(s.pos) > b.XMax || b.YMax < float64(s.a) || b.YMin > float64(s.b) {
						continue
					}
					iv = append(iv, [2]int{int(b.YMin), int(math.Ceil(b.YMax))})
				}
			}
			if 2*covered(iv, s.a, s.b) <= s.len() {
				out = append(out, s)
			}
		}
		return out
	}
	rs.h = keep(rs.h, true)
	rs.v = keep(rs.v, false)
}

// covered is the length of [a, b) the intervals cover.
func covered(iv [][2]int, a, b int) int {
	sort.Slice(iv, func(i, j int) bool { return iv[i][0] < iv[j][0] })
	n, end := 0, a
	for _, x := range iv {
		lo, hi := max(x[0], end), min(x[1], b)
		if hi > lo {
			n += hi - lo
			end = hi
		}
	}
	return n
}

// frames are the rectangles the rules draw within r: a top and a bottom rule
// and a left and a right one that meet at the corners (each side covered to
// 95 % by rules, pieces of cell edges included). Nested rectangles are
// returned too; callers keep the outermost they want.
func (rs *rules) frames(r rect, tol int) []rect {
	var out []rect
	seen := map[rect]bool{}
	for _, t := range rs.h {
		if t.pos < r.y0 || t.pos >= r.y1 {
			continue
		}
		for _, l := range rs.v {
			// a left side starting at the top rule's left end
			if abs(l.pos-t.a) > tol || abs(l.a-t.pos) > tol || l.pos < r.x0 {
				continue
			}
			x0, y0 := l.pos, t.pos
			x1 := runFrom(rs.h, y0, tol, t.a, 2*tol)
			y1 := runFrom(rs.v, x0, tol, l.a, 2*tol)
			if x1-x0 < 4 || y1-y0 < 4 || x1 > r.x1 || y1 > r.y1 {
				continue
			}
			c := rect{x0, y0, x1, y1}
			if seen[c] {
				continue
			}
			seen[c] = true
			w, h := x1-x0, y1-y0
			if cover(rs.h, y1, tol, x0, x1) < w*95/100 || cover(rs.v, x1, tol, y0, y1) < h*95/100 {
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

// runFrom follows the rules along pos (within tol) from start onwards,
// bridging gaps up to gap, and returns where the run ends.
func runFrom(ss []seg, pos, tol, start, gap int) int {
	var iv [][2]int
	for _, s := range ss {
		if s.pos >= pos-tol && s.pos <= pos+tol && s.b > start {
			iv = append(iv, [2]int{s.a, s.b})
		}
	}
	sort.Slice(iv, func(i, j int) bool { return iv[i][0] < iv[j][0] })
	end := start
	for _, x := range iv {
		if x[0] > end+gap {
			break
		}
		end = max(end, x[1])
	}
	return end
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
