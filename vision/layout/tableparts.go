package layout

import (
	"math"

	"github.com/plangraph/plangraph/vision/text"
)

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

// endAtTitles ends a view at its title bar: a title printed under its view
// is the view's last line, so a body of text a region holds below the bar
// of its one view title (a band of notes running under the views, a table
// of text under a plan) is a region of its own. The bar must end the
// drawing — little ink level with it beside it (a title printed inside a
// plan's extent, drawing on both sides, ends nothing) — and what lies
// below must be text (three lines or more, lettering over an eighth of its
// box): a north arrow or a scale under the title stays with its view.
func (p *Page) endAtTitles(m *mask, rs []region, titles []viewTitle, em float64) []region {
	var out []region
	for _, rg := range rs {
		ts := titlesIn(rg.r, titles)
		if rg.tb || rg.framed || rg.boxed || len(ts) != 1 || !ts[0].below || float64(rg.r.y1-ts[0].bar.y1) < 3*em {
			out = append(out, rg)
			continue
		}
		bar := ts[0].bar
		cut := bar.y1 + 1
		band := rect{rg.r.x0, bar.y0, rg.r.x1, bar.y1}
		pad := int(2 * em)
		near := rect{max(bar.x0-pad, band.x0), bar.y0, min(bar.x1+pad, band.x1), bar.y1}
		beside := m.count(band) - m.count(near)
		low := m.bbox(rect{rg.r.x0, cut, rg.r.x1, rg.r.y1})
		if low.empty() || 20*beside > band.area()-near.area() || p.textArea(low) < 0.12*float64(low.area()) || len(text.Lines(wordsIn(low, p.mw))) < 3 {
			out = append(out, rg)
			continue
		}
		up := rg
		up.r.y1 = cut
		out = append(out, up, region{r: low})
	}
	return out
}
