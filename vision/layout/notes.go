package layout

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/plangraph/plangraph/vision/text"
)

// itemRE is a numbered note's number leading its line ("9.", "20)").
var itemRE = regexp.MustCompile(`^(\d{1,3})[.)]`)

// items are the numbers of the numbered notes in r, and r grown by them:
// the lines whose first word is an item number, the numbers printed just
// left of r included (a column's hanging numbers); none unless r is text
// set apart as notes are (no view title, lettering a good share of it).
func (p *Page) items(r rect, titles []viewTitle) ([]int, rect) {
	if len(titlesIn(r, titles)) > 0 || p.textArea(r) < 0.08*float64(r.area()) {
		return nil, r
	}
	var out []int
	ext := r
	wide := rect{r.x0 - int(4*p.em), r.y0, r.x1, r.y1}
	for _, l := range rowLines(wordsIn(wide, p.mw)) {
		w := l.Words[0]
		if m := itemRE.FindStringSubmatch(strings.TrimSpace(w.Text)); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
			ext = ext.union(rect{int(w.Box.XMin), int(w.Box.YMin), int(math.Ceil(w.Box.XMax)), int(math.Ceil(w.Box.YMax))})
		}
	}
	sort.Ints(out)
	return out, ext
}

// joinNumberedColumns joins notes set in columns side by side whose
// numbering runs on from one column to the next (1–8, 9–19, 20–22): one
// list of notes flowed into columns, one block, whatever the gutter
// between them. Columns that each start at 1, or under headings of their
// own, stay apart.
func (p *Page) joinNumberedColumns(rs []region, titles []viewTitle) []region {
	em := p.em
	for changed := true; changed; {
		changed = false
		for i := range rs {
			a := rs[i]
			if a.tb || a.boxed || a.framed || headingKind(a.r, p.mw, em) != "" {
				continue
			}
			na, ea := p.items(a.r, titles)
			if len(na) < 2 {
				continue
			}
			last := na[len(na)-1]
			for j := range rs {
				b := rs[j]
				if j == i || b.tb || b.boxed || b.framed || b.r.x0 <= a.r.x1 || float64(b.r.x0-a.r.x1) > 12*em ||
					math.Abs(float64(b.r.y0-a.r.y0)) > 3*em || headingKind(b.r, p.mw, em) != "" {
					continue
				}
				nb, eb := p.items(b.r, titles)
				if len(nb) == 0 || nb[0] != last+1 || !firstIsItem(eb, p.mw) {
					continue
				}
				rs[i].r = ea.union(eb)
				rs = append(rs[:j], rs[j+1:]...)
				changed = true
				break
			}
			if changed {
				break
			}
		}
	}
	return rs
}

// firstIsItem reports whether r's top line starts with an item number: the
// column begins with a note, not a heading or a table.
func firstIsItem(r rect, words []text.Word) bool {
	ls := rowLines(wordsIn(r, words))
	top := -1
	for i, l := range ls {
		if top < 0 || l.Box.YMin < ls[top].Box.YMin {
			top = i
		}
	}
	return top >= 0 && itemRE.MatchString(strings.TrimSpace(ls[top].Words[0].Text))
}

// underViewTitle reports whether r, text without a heading, is set just
// under a view's title bar (within four ems, about as wide as it): the view's own notes, SheetNotes, not the sheet's general notes.
func underViewTitle(r rect, titles []viewTitle, em float64) bool {
	for _, t := range titles {
		if t.bar.y1 > r.y0 || float64(r.y0-t.bar.y1) > 4*em {
			continue
		}
		// set under the title, about as wide as it (a sheet-wide strip
		// of notes under a row of views is the sheet's)
		ov := min(r.x1, t.bar.x1) - max(r.x0, t.bar.x0)
		if 2*ov >= min(r.w(), t.bar.w()) && 2*r.w() <= 3*t.bar.w() {
			return true
		}
	}
	return false
}

// joinCutNotes joins notes the cut between two views ran on through: a
// text region without a heading of its own, set beside another text
// region at about the same top (within 2.5 em: a heading line over one)
// and of about its height, the two touching (a gap of at most 2 em),
// neither holding a view's title, is more of the same notes (a sheet's
// notes in columns under two plans, the plans parted at a gutter the
// columns share).
func (p *Page) joinCutNotes(rs []region, titles []viewTitle) []region {
	em := p.em
	textual := func(r region) bool {
		return !r.tb && !r.boxed && !r.framed && !r.note && len(titlesIn(r.r, titles)) == 0 &&
			p.textArea(r.r) > 0.08*float64(r.r.area())
	}
	for changed := true; changed; {
		changed = false
		for i := range rs {
			f := rs[i]
			if !textual(f) || headingKind(f.r, p.mw, em) != "" || headed(f.r, p.mw, em) {
				continue
			}
			for j := range rs {
				a := rs[j]
				if j == i || !textual(a) {
					continue
				}
				gap := float64(max(f.r.x0-a.r.x1, a.r.x0-f.r.x1))
				if gap < -1 || gap > 2*em || math.Abs(float64(f.r.y0-a.r.y0)) > 2.5*em ||
					math.Abs(float64(f.r.h()-a.r.h())) > 0.3*float64(max(f.r.h(), a.r.h())) {
					continue
				}
				rs[j].r = a.r.union(f.r)
				rs = append(rs[:i], rs[i+1:]...)
				changed = true
				break
			}
			if changed {
				break
			}
		}
	}
	return rs
}

// noteHeadingsOnto gives a notes heading standing as a small region of its
// own ("SHEET NOTES", carved out with the first lines under it) to the
// unheaded text region whose top-left corner it lies on or just over: the
// heading names those notes.
func (p *Page) noteHeadingsOnto(rs []region, titles []viewTitle) []region {
	em := p.em
	for i := 0; i < len(rs); i++ {
		h := rs[i]
		if h.tb || h.boxed || !noteKinds[headingKind(h.r, p.mw, em)] {
			continue
		}
		for j := range rs {
			a := rs[j]
			if j == i || a.tb || a.boxed || a.framed || len(titlesIn(a.r, titles)) > 0 || a.r.area() < 4*h.r.area() ||
				math.Abs(float64(h.r.x0-a.r.x0)) > 3*em || float64(h.r.y0) > float64(a.r.y0)+2*em ||
				float64(h.r.y1) < float64(a.r.y0)-em || headingKind(a.r, p.mw, em) != "" ||
				p.textArea(a.r) <= 0.08*float64(a.r.area()) {
				continue
			}
			rs[j].r = a.r.union(h.r)
			rs = append(rs[:i], rs[i+1:]...)
			i--
			break
		}
	}
	return rs
}

// noteKinds are the kinds of notes blocks.
var noteKinds = map[string]bool{"GeneralNotes": true, "SheetNotes": true, "KeyNotes": true}
