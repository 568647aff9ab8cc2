package layout

import (
	"sort"
)

// tableColumns finds schedules drawn without an outer frame: a column of
// ruled boxes (a title bar, a header row, groups of rows) stacked one
// under another between the same left and right edges, their column
// dividers at the same places, with at most a few lines of text (a room's
// number and name) between the groups. Several such schedules printed side
// by side have only a narrow gutter between them — narrower than a gap
// between blocks — so the cut would take them as one region; their own
// ruling parts them. A column is a table when at least three of its boxes
// share two dividers (a header row over its rows); a stack of framed
// views of one width shares none. It returns each table's extent, from
// its title bar's top (a box without dividers just over the first row)
// to the last rule its dividers reach.
func (p *Page) tableColumns(work rect) []rect {
	em := p.em
	const tol = 2
	// frames of rules, gaps of a pixel or two bridged only: the gutter
	// between two tables is not bridged
	fs := p.rules.frames(work, 1)
	type edges struct{ x0, x1 int }
	var keys []edges
	groups := map[edges][]rect{}
	for _, f := range fs {
		if float64(f.w()) < 12*em {
			continue
		}
		k := edges{f.x0, f.x1}
		for _, g := range keys {
			if abs(g.x0-f.x0) <= tol && abs(g.x1-f.x1) <= tol {
				k = g
				break
			}
		}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], f)
	}
	var out []rect
	for _, k := range keys {
		g := groups[k]
		if len(g) < 3 {
			continue
		}
		divs := p.sharedDividers(g, k.x0, k.x1)
		if len(divs) < 2 {
			continue
		}
		// the rows: rules from edge to edge, two of them the dividers
		// join (a text line between groups has no dividers)
		var hs []int
		for _, h := range p.rules.h {
			if abs(h.a-k.x0) <= tol && abs(h.b-k.x1) <= tol && (len(hs) == 0 || h.pos > hs[len(hs)-1]+1) {
				hs = append(hs, h.pos)
			}
		}
		sort.Ints(hs)
		// the stretches the dividers join, chained over the text lines
		// between groups of rows
		type run struct{ y0, y1, rows int }
		var runs []run
		for i := 0; i+1 < len(hs); i++ {
			if p.dividersJoin(divs, hs[i], hs[i+1]) < 2 {
				continue
			}
			if n := len(runs); n > 0 && float64(hs[i]-runs[n-1].y1) <= 10*em {
				runs[n-1].y1, runs[n-1].rows = hs[i+1], runs[n-1].rows+1
				continue
			}
			runs = append(runs, run{hs[i], hs[i+1], 1})
		}
		best := run{}
		for _, r := range runs {
			if r.rows > best.rows {
				best = r
			}
		}
		if best.rows < 4 {
			continue
		}
		top, bot := best.y0, best.y1
		// the title bar: a box of the same edges just over the first row
		for _, f := range g {
			if f.y0 < top && float64(top-f.y1) <= 5*em && len(wordsIn(f, p.mw)) > 0 {
				top = min(top, f.y0)
			}
		}
		out = append(out, rect{k.x0, top, k.x1 + 1, bot + 1})
	}
	return out
}

// sharedDividers are the x positions of the vertical rules that cross at
// least three of the boxes fs (from top to bottom, within x0..x1).
func (p *Page) sharedDividers(fs []rect, x0, x1 int) []int {
	const tol = 2
	// divider positions (the first seen of each), boxes crossed, last box
	var xs, count, last []int
	for i, f := range fs {
		for _, v := range p.rules.v {
			if v.pos <= x0+tol || v.pos >= x1-tol || v.a > f.y0+tol || v.b < f.y1-tol {
				continue
			}
			k := -1
			for j, x := range xs {
				if abs(x-v.pos) <= tol {
					k = j
					break
				}
			}
			if k < 0 {
				xs, count, last = append(xs, v.pos), append(count, 0), append(last, -1)
				k = len(xs) - 1
			}
			if last[k] != i { // once per box
				count[k]++
				last[k] = i
			}
		}
	}
	var out []int
	for j, x := range xs {
		if count[j] >= 3 {
			out = append(out, x)
		}
	}
	sort.Ints(out)
	return out
}

// dividersJoin counts the dividers at xs drawn from row y0 down to row
// y1 (inked over 90 % of the way, a pixel either side).
func (p *Page) dividersJoin(xs []int, y0, y1 int) int {
	n := 0
	for _, x := range xs {
		in := 0
		for y := y0; y <= y1; y++ {
			for dx := -1; dx <= 1; dx++ {
				if x+dx >= 0 && x+dx < p.m.w && p.m.at(x+dx, y) {
					in++
					break
				}
			}
		}
		if 10*in >= 9*(y1-y0+1) {
			n++
		}
	}
	return n
}
