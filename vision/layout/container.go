package layout

import (
	"math"
	"sort"

	"github.com/plangraph/plangraph/vision/text"
)

// containerParts reports whether frame f is a panel holding blocks of its
// own rather than one block: a frame headed "DOOR SCHEDULE" round the
// schedule's table, its general requirements, its remarks and its keys.
// It is one when, outside the tables framed within it, a heading of
// another kind than the panel's own (notes, a legend under a schedule's
// panel) stands over a body of text — and there is such a table, or two
// such headed bodies. A table whose title row or notes cell shares its
// frame is no panel (its notes are under no heading, or under the
// table's own kind), nor a legend with sub-headings of legends. It
// returns the framed tables within f (outermost), which are blocks by
// their frames, and the containers (f, and panels within it: two panels
// drawn side by side share a frame round both); the rest of f is cut as
// the drawing area is.
func (p *Page) containerParts(f rect, fs []rect) (parts, containers []rect, ok bool) {
	em := p.em
	var inner []rect
	for _, g := range fs { // largest first
		if g == f || g.x0 < f.x0-1 || g.y0 < f.y0-1 || g.x1 > f.x1+1 || g.y1 > f.y1+1 || 10*g.area() >= 9*f.area() {
			continue
		}
		if float64(g.w()) < 8*em || float64(g.h()) < 4*em || len(wordsIn(g, p.mw)) < 3 {
			continue
		}
		in := false
		for _, o := range inner {
			in = in || g.x0 >= o.x0-1 && g.y0 >= o.y0-1 && g.x1 <= o.x1+1 && g.y1 <= o.y1+1
		}
		if !in {
			inner = append(inner, g)
		}
	}
	all := wordsIn(f, p.mw)
	var ws []text.Word
	for _, w := range all {
		free := true
		for _, g := range inner {
			free = free && len(wordsIn(g, []text.Word{w})) == 0
		}
		if free {
			ws = append(ws, w)
		}
	}
	// the panel's own kind: its headline's (a legend's sub-headings of
	// legends part nothing)
	own := classify(f, p.mw, em).Type
	if k := kindOf(firstLine(all)); k != "" {
		own = k
	}
	ls := rowLines(ws)
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].Box.YMin < ls[j].Box.YMin })
	bodies := 0
	for i, l := range ls {
		// a line pointing elsewhere ("… CONTROLLER- SEE SCHEDULE", an
		// entry of a legend) heads nothing
		k := kindOf(l.Text)
		if !headingKinds[k] || k == own || len(l.Words) > 8 || annotationRE.MatchString(l.Text) {
			continue
		}
		// a heading starts its text: a line going on from the one over it
		// is a note's (a leader's words in a drawing of sign types)
		lh := lineHeight(l)
		if continuesLine(l, ls, lh) {
			continue
		}
		// lines of text under it, in its column, each close to the last
		n, last := 0, l.Box.YMax
		for _, o := range ls[i+1:] {
			if o.Box.YMin < l.Box.YMax-0.2*lh || math.Abs(o.Box.XMin-l.Box.XMin) > 4*lh || !hasLetters(o.Text) {
				continue
			}
			if o.Box.YMin-last > 2.5*lh {
				break
			}
			n++
			last = o.Box.YMax
		}
		if n >= 2 {
			bodies++
		}
	}
	if bodies == 0 && len(ws) <= 2 && len(inner) > 1 {
		// a frame round panels: a container when one of them is
		for _, g := range inner {
			if ps, cs, ok := p.containerParts(g, fs); ok {
				parts, containers = append(parts, ps...), append(containers, cs...)
			} else {
				parts = append(parts, g)
			}
		}
		if len(containers) > 0 {
			return parts, append(containers, f), true
		}
		return nil, nil, false
	}
	if bodies == 0 || len(inner) == 0 && bodies < 2 {
		return nil, nil, false
	}
	return inner, []rect{f}, true
}

// clearPanel removes a container's frame from the mask, and the rules
// that run across all of it (the line under its panels' headings, the
// line between two panels): lines t thick or less, which would join the
// blocks inside it.
func (p *Page) clearPanel(m *mask, r rect, t int) {
	m.clearSides(r, t)
	for _, y := range clusters(p.rules.h, 1) {
		if y > r.y0 && y < r.y1 && cover(p.rules.h, y, 1, r.x0, r.x1) >= r.w()*9/10 {
			m.clearRect(rect{r.x0 - t, y - t, r.x1 + t + 1, y + t + 1})
		}
	}
	for _, x := range clusters(p.rules.v, 1) {
		if x > r.x0 && x < r.x1 && cover(p.rules.v, x, 1, r.y0, r.y1) >= r.h()*9/10 {
			m.clearRect(rect{x - t, r.y0 - t, x + t + 1, r.y1 + t + 1})
		}
	}
}

// clearSides removes the lines along r's four sides from the mask.
func (m *mask) clearSides(r rect, t int) {
	m.clearRect(rect{r.x0 - t, r.y0 - t, r.x1 + t + 1, r.y0 + t + 1})
	m.clearRect(rect{r.x0 - t, r.y1 - t, r.x1 + t + 1, r.y1 + t + 1})
	m.clearRect(rect{r.x0 - t, r.y0 - t, r.x0 + t + 1, r.y1 + t + 1})
	m.clearRect(rect{r.x1 - t, r.y0 - t, r.x1 + t + 1, r.y1 + t + 1})
}
