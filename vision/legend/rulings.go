package legend

import (
	"image"
	"sort"
)

// Rulings: the long straight runs of ink that frame a legend's table —
// found once per page, with a symbol's hatching told apart from them, and
// asked whether one lies between two things (cells, rows) or along a line.

// findRulings marks table lines: long lines first, then dividers that run
// from one ruling to another.
func (p *page) findRulings() {
	p.ruling = make([]bool, p.w*p.h)
	hLen := max(p.px(rulingEm), int(rulingFrac*float64(p.w)))
	vLen := max(p.px(rulingEm), int(rulingFrac*float64(p.h)))
	p.markRuns(true, func(_, a0, a1 int) bool { return a1-a0 >= hLen })
	p.markRuns(false, func(_, a0, a1 int) bool { return a1-a0 >= vLen })
	div := max(p.px(dividerEm), 4)
	for _, horiz := range []bool{false, true} {
		var cands [][3]int
		p.markRuns(horiz, func(line, a0, a1 int) bool {
			x0, y0, x1, y1 := line, a0, line, a1-1
			if horiz {
				x0, y0, x1, y1 = a0, line, a1-1, line
			}
			if a1-a0 >= div && (p.rulingNear(x0, y0) && p.rulingNear(x1, y1) || p.crossings(horiz, line, a0, a1) >= 2) && !p.rulingAlong(horiz, line, a0, a1) {
				cands = append(cands, [3]int{line, a0, a1})
			}
			return false
		})
		for _, c := range hatchingDropped(cands, p.px(hatchEm)) {
			for a := c[1]; a < c[2]; a++ {
				p.ruling[p.at(horiz, c[0], a)] = true
			}
		}
	}
}

// crossings counts the rulings a run crosses (the rulings already marked
// on its own pixels, each crossing counted once). A line crossing two row
// rules spans a whole row from rule to rule: a table's column line, though
// it stops short of the table's edge at one end or runs on past the last
// rule into a heading row (a column line drawn into "CEILING FINISHES").
func (p *page) crossings(horiz bool, line, a0, a1 int) int {
	n, in := 0, false
	for a := a0; a < a1; a++ {
		r := p.ruling[p.at(horiz, line, a)]
		if r && !in {
			n++
		}
		in = r
	}
	return n
}

// hatchingDropped leaves out of the cell dividers (runs [line, a0, a1])
// those that are hatching: three or more parallel strokes, each within
// near of the next and over the same extent — a symbol's fill drawn from
// rule to rule in its cell (a covered walkway's vertical hatch), not the
// table's column lines, which stand far apart.
func hatchingDropped(runs [][3]int, near int) [][3]int {
	sort.Slice(runs, func(i, j int) bool { return runs[i][0] < runs[j][0] })
	type stroke struct{ l0, l1, a0, a1 int }
	overlap := func(a0, a1, b0, b1 int) bool { return 2*(min(a1, b1)-max(a0, b0)) >= min(a1-a0, b1-b0) }
	// strokes: runs on adjacent lines over the same extent (a thick line)
	var ss []stroke
	of := make([]int, len(runs))
	for i, r := range runs {
		of[i] = -1
		for k := len(ss) - 1; k >= 0 && ss[k].l1 >= r[0]-1; k-- {
			if overlap(ss[k].a0, ss[k].a1, r[1], r[2]) {
				ss[k].l1, ss[k].a0, ss[k].a1 = r[0], min(ss[k].a0, r[1]), max(ss[k].a1, r[2])
				of[i] = k
				break
			}
		}
		if of[i] < 0 {
			of[i] = len(ss)
			ss = append(ss, stroke{r[0], r[0], r[1], r[2]})
		}
	}
	// strokes chained by parallel neighbours within near
	find, parent := unionFind(len(ss))
	for i := range ss {
		for j := i + 1; j < len(ss) && ss[j].l0-ss[i].l1 <= near; j++ {
			if ss[j].l0 > ss[i].l1+1 && overlap(ss[i].a0, ss[i].a1, ss[j].a0, ss[j].a1) {
				parent[find(i)] = find(j)
			}
		}
	}
	size := map[int]int{}
	for i := range ss {
		size[find(i)]++
	}
	var out [][3]int
	for i, r := range runs {
		if size[find(of[i])] < 3 {
			out = append(out, r)
		}
	}
	return out
}

// rulingNear reports a ruling pixel within 2 px of (x, y).
func (p *page) rulingNear(x, y int) bool {
	for yy := max(y-2, 0); yy <= min(y+2, p.h-1); yy++ {
		for xx := max(x-2, 0); xx <= min(x+2, p.w-1); xx++ {
			if p.ruling[yy*p.w+xx] {
				return true
			}
		}
	}
	return false
}

// at is the pixel index of position pos along a row (horiz) or column.
func (p *page) at(horiz bool, line, pos int) int {
	if horiz {
		return line*p.w + pos
	}
	return pos*p.w + line
}

// rulingAlong reports whether most of a run already is ruling (a run
// inside a thick crossing line, not a divider).
func (p *page) rulingAlong(horiz bool, line, a0, a1 int) bool {
	n := 0
	for a := a0; a < a1; a++ {
		if p.ruling[p.at(horiz, line, a)] {
			n++
		}
	}
	return n*2 > a1-a0
}

// markRuns marks as ruling every ink run along rows (horiz) or columns
// that keep accepts.
func (p *page) markRuns(horiz bool, keep func(line, a0, a1 int) bool) {
	lines, length := p.h, p.w
	if !horiz {
		lines, length = p.w, p.h
	}
	var marks [][3]int
	for l := 0; l < lines; l++ {
		for a := 0; a < length; {
			if !p.ink[p.at(horiz, l, a)] {
				a++
				continue
			}
			a0 := a
			for a < length && p.ink[p.at(horiz, l, a)] {
				a++
			}
			if keep(l, a0, a) {
				marks = append(marks, [3]int{l, a0, a})
			}
		}
	}
	for _, m := range marks {
		for a := m[1]; a < m[2]; a++ {
			p.ruling[p.at(horiz, m[0], a)] = true
		}
	}
}

// rulingBetween reports a ruling crossing the horizontal gap between two
// rectangles at the height of their common part.
func (p *page) rulingBetween(a, b image.Rectangle) bool {
	return p.rulingsBetween(a, b) > 0
}

// rulingsBetween counts the rulings crossing the horizontal gap between
// two rectangles at the height of their common part.
func (p *page) rulingsBetween(a, b image.Rectangle) int {
	if a.Min.X > b.Min.X {
		a, b = b, a
	}
	y0, y1 := max(a.Min.Y, b.Min.Y), min(a.Max.Y, b.Max.Y)
	if y1 <= y0 {
		y0, y1 = (a.Min.Y+a.Max.Y)/2, (a.Min.Y+a.Max.Y)/2+1
	}
	y := (y0 + y1) / 2
	n, in := 0, false
	for x := max(a.Max.X, 0); x < min(b.Min.X, p.w); x++ {
		r := p.ruling[y*p.w+x]
		if r && !in {
			n++
		}
		in = r
	}
	return n
}

// ruled reports a ruling across the gap between two rectangles one above
// the other: a table's row rule between the symbols of two rows.
func (p *page) ruled(a, b image.Rectangle) bool {
	switch {
	case a.Max.Y <= b.Min.Y+2:
		return p.rulingAcross(a, b)
	case b.Max.Y <= a.Min.Y+2:
		return p.rulingAcross(b, a)
	}
	return false
}
