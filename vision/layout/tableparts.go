package layout

import "math"

// joinTableParts gives a table the parts drawn with it that the cut set
// apart: a row of drawings standing exactly over its columns (a door or
// window schedule's elevations of each type, as wide as the table and
// right on top of it), and a title bar under it whose lettering the text
// layer lacks (drawn as outlines: ink and no words, at the table's left
// edge just below it). A region with words under a table is a note or
// caption the other steps judge.
func (p *Page) joinTableParts(rs []region, em float64) []region {
	for changed := true; changed; {
		changed = false
		for i := range rs {
			if !rs[i].boxed {
				continue
			}
			t := rs[i].r
			if rs[i].table.empty() {
				rs[i].table = t
			}
			if j, g := nearestStacked(rs, i, false); j >= 0 && g <= em && p.drawingStrip(rs[j], t, em) {
				rs[i].r = t.union(rs[j].r)
				rs = append(rs[:j], rs[j+1:]...)
				changed = true
				break
			}
			if j, g := nearestStacked(rs, i, true); j >= 0 && g <= 2*em && p.wordlessBar(rs[j], t, em) {
				rs[i].r = t.union(rs[j].r)
				rs = append(rs[:j], rs[j+1:]...)
				changed = true
				break
			}
		}
	}
	return rs
}

// drawingStrip reports whether a is a band of drawings as wide as the
// table t (both sides within an em), no taller than t, holding little
// lettering (dimensions, a level mark).
func (p *Page) drawingStrip(a region, t rect, em float64) bool {
	if a.tb || a.boxed || a.note || math.Abs(float64(a.r.x0-t.x0)) > em || math.Abs(float64(a.r.x1-t.x1)) > em || a.r.h() > t.h() {
		return false
	}
	return p.textArea(a.r) < 0.05*float64(a.r.area())
}

// wordlessBar reports whether b is a title bar's ink with no words read
// in it: a line's height or so (at most four em), starting at the table
// t's left edge and no wider than t.
func (p *Page) wordlessBar(b region, t rect, em float64) bool {
	if b.tb || b.boxed || b.note || float64(b.r.h()) > 4*em || math.Abs(float64(b.r.x0-t.x0)) > em || b.r.x1 > t.x1+int(em) {
		return false
	}
	return len(wordsIn(b.r, p.mw)) == 0
}
