package layout

// titlesOntoViews joins to its view a region that is a view's title and
// nothing else (its title line, with its bubble and scale) standing under
// an untitled region that no other region separates from it: the plan's
// title printed well below its drawing (a parking level's shoring plan
// titled 1.3 inches under its dimension strings, further than a caption
// is looked for), which the notes under the title were parted from. The
// title stands at most maxTitleGap of its line heights below the region,
// which holds no view title of its own, no title block, frame or table
// box; a title the sheet's convention reads as over its view is joined so
// only when no untitled drawing lies under it.
func (p *Page) titlesOntoViews(rs []region, titles []viewTitle) []region {
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(rs) && !changed; i++ {
			c := rs[i]
			ts := titlesIn(c.r, titles)
			if c.tb || c.framed || c.boxed || len(ts) != 1 {
				continue
			}
			t := ts[0]
			lh := t.line.Box.Height()
			if lh <= 0 || float64(c.r.h()) > 3*lh || !rectContains(c.r, t.bar) || !t.below && p.drawingUnder(rs, c.r, titles, maxTitleGap*lh) {
				continue
			}
			best, bestGap := -1, maxTitleGap*lh
			for j, a := range rs {
				if j == i || a.tb || a.framed || a.boxed || a.r.y1 > c.r.y0 || a.r.area() <= c.r.area() {
					continue
				}
				if ov := min(a.r.x1, c.r.x1) - max(a.r.x0, c.r.x0); float64(ov) < 0.5*float64(c.r.w()) {
					continue
				}
				if g := float64(c.r.y0 - a.r.y1); g < bestGap && len(titlesIn(a.r, titles)) == 0 && !between(rs, a.r, c.r) {
					best, bestGap = j, g
				}
			}
			if best < 0 {
				continue
			}
			rs[best].r = rs[best].r.union(c.r)
			rs = append(rs[:i], rs[i+1:]...)
			changed = true
		}
	}
	return rs
}

// maxTitleGap: a title stands at most this many of its line heights under
// its view's drawing.
const maxTitleGap = 6.0

// between reports a region of rs lying in the gap from a (above) down to c
// (below), across c's width.
func between(rs []region, a, c rect) bool {
	gap := rect{c.x0, a.y1, c.x1, c.y0}
	for _, o := range rs {
		if o.r != a && o.r != c && o.r.y0 < gap.y1 && o.r.y1 > gap.y0 && o.r.x0 < gap.x1 && o.r.x1 > gap.x0 {
			return true
		}
	}
	return false
}

// drawingUnder reports an untitled region at most gap under c, across half
// of c's width, larger than c and not a body of text (its words cover less
// than a tenth of it): a view the title over it may name.
func (p *Page) drawingUnder(rs []region, c rect, titles []viewTitle, gap float64) bool {
	for _, o := range rs {
		if o.r == c || o.r.y0 < c.y1 || float64(o.r.y0-c.y1) > gap || o.r.area() <= c.area() || len(titlesIn(o.r, titles)) > 0 {
			continue
		}
		if ov := min(o.r.x1, c.x1) - max(o.r.x0, c.x0); float64(ov) < 0.5*float64(c.w()) {
			continue
		}
		ta := 0.0
		for _, w := range wordsIn(o.r, p.mw) {
			ta += w.Box.Area()
		}
		if ta < 0.1*float64(o.r.area()) {
			return true
		}
	}
	return false
}
