package layout

import (
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/vision/text"
)

// byContent types a region its heading did not name (blk is what classify
// made of it) by what it holds: a table of ruled rows and columns holding
// text is a schedule (a legend when a column heading says so); a picture (a
// photograph, a rendering) is an Image; an empty frame is nothing ("").
// Else classify's reading stands.
func (p *Page) byContent(r rect, words []text.Word, blk Block) string {
	ws := wordsIn(r, words)
	// the rules along its sides are its frame's (a double line, a cell's
	// edge inset from the cut), not content
	if in := (rect{r.x0 + 3, r.y0 + 3, r.x1 - 3, r.y1 - 3}); len(ws) == 0 && p.m.count(in)-p.sideRuleInk(in, int(2*p.em)) < r.area()/400 {
		return ""
	}
	if blk.Title != "" && kindOf(blk.Title) == blk.Type {
		return blk.Type // named by its heading
	}
	// a box holding a graphic scale or a north arrow and nothing else, in
	// a small part of it (a stamp's empty box a scale bar was set in), is
	// no block
	if arrowOrScale(ws) && p.dark.bbox(rect{r.x0 + 3, r.y0 + 3, r.x1 - 3, r.y1 - 3}).area() < r.area()/4 {
		return ""
	}
	if p.picture(r) {
		return "Image"
	}
	if k := p.untitledKind(r, ws, blk.Type == "GeneralNotes"); k != "" {
		return k
	}
	if p.ruledTable(r, ws) {
		for _, l := range text.Lines(ws) {
			if kindOf(l.Text) == "Legend" && len(l.Words) <= 4 {
				return "Legend"
			}
		}
		if revisionTable(rowLines(ws)) {
			return "RevisionHistory"
		}
		return "Schedule"
	}
	if blk.Type == "Plan" && blk.Title == "" && p.textBody(r, ws) {
		return "GeneralNotes"
	}
	return blk.Type
}

// textBody reports whether r holds a body of text and little else: twenty
// words or more, and less dark linework outside them (rules, underlines,
// bullets; r's frame left out) than 0.4 of their area. Its words may
// still cover little of it (a column of notes OCR boxed tightly, its lines
// spaced wide), which classify's share of text does not allow for.
func (p *Page) textBody(r rect, ws []text.Word) bool {
	if len(ws) < 20 {
		return false
	}
	ta := wordsArea(ws)
	g := p.graphics().count(rect{r.x0 + 3, r.y0 + 3, r.x1 - 3, r.y1 - 3})
	return float64(g) < 0.4*ta
}

// ruledTable reports whether r holds a table: rules crossing it in three
// rows or more and two columns or more, at most maxRowPitchEm apart on
// average, with text (ws, its words) in it.
func (p *Page) ruledTable(r rect, ws []text.Word) bool {
	rows, cols := p.tableRules(r)
	return rows >= 3 && cols >= 2 && len(ws) >= 8 && float64(r.h()) <= maxRowPitchEm*p.em*float64(rows+1)
}

// maxRowPitchEm is the largest mean pitch (em) of a table's rows: a
// plan's walls and grid lines crossing it from side to side are rules
// too, but a room or a bay apart (the care home's plan, scanned, had 7
// such rows and 12 columns over 180 em and its words read by OCR named no
// view: it was typed a Schedule).
const maxRowPitchEm = 10

// tableRules counts the rules that cross r from side to side (rows) and
// from top to bottom (columns), pieces of cell edges joined.
func (p *Page) tableRules(r rect) (rows, cols int) {
	for _, y := range clusters(p.rules.h, 1) {
		if y > r.y0+2 && y < r.y1-2 && cover(p.rules.h, y, 1, r.x0, r.x1) >= r.w()*6/10 {
			rows++
		}
	}
	return rows, len(p.columnRules(r))
}

// ruleInk is the ink of the rules inside r (their length times thickness).
func (p *Page) ruleInk(r rect) int { return p.sideRuleInk(r, max(r.w(), r.h())) }

// sideRuleInk is the ink of the rules inside r within near of its sides
// and along them.
func (p *Page) sideRuleInk(r rect, near int) int {
	n := 0
	for _, s := range p.rules.h {
		if s.pos >= r.y0 && s.pos < r.y1 && (s.pos-r.y0 <= near || r.y1-s.pos <= near) {
			n += max(0, min(s.b, r.x1)-max(s.a, r.x0)) * s.thick
		}
	}
	for _, s := range p.rules.v {
		if s.pos >= r.x0 && s.pos < r.x1 && (s.pos-r.x0 <= near || r.x1-s.pos <= near) {
			n += max(0, min(s.b, r.y1)-max(s.a, r.y0)) * s.thick
		}
	}
	return n
}

// picture reports whether r is mostly continuous tone: cells of the page
// whose pixels are mostly mid-grey and vary (a photograph, a rendering),
// not line art (black and white) nor flat fills (one grey).
func (p *Page) picture(r rect) bool {
	if p.tone == nil || r.area() == 0 {
		return false
	}
	n := 0
	for y := max(r.y0, 0); y < min(r.y1, p.m.h); y++ {
		for _, v := range p.tone[y*p.m.w+max(r.x0, 0) : y*p.m.w+min(r.x1, p.m.w)] {
			if v {
				n++
			}
		}
	}
	return 10*n >= 4*r.area()
}

// revisionTable is whether a table's lines hold a column-heading row (the
// lines level with one another, cells apart) of a revision table.
func revisionTable(ls []text.Line) bool {
	for _, l := range ls {
		row, n := "", 0
		for _, o := range ls {
			if cy := (o.Box.YMin + o.Box.YMax) / 2; cy >= l.Box.YMin && cy <= l.Box.YMax {
				row += " " + o.Text
				n += len(o.Words)
			}
		}
		if n <= 10 && revisionHeader(row) {
			return true
		}
	}
	return false
}

// revisionHeader is a table's column-heading row naming a revision (or
// index, issue, change) and its date: a revision table untitled
// ("REV DESCRIPTION DATE", "INDEX BESCHREIBUNG DER ÄNDERUNG DATUM").
func revisionHeader(s string) bool {
	var rev, date bool
	for _, w := range strings.FieldsFunc(strings.ToUpper(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch w {
		case "REV", "REVISION", "REVISIONS", "INDEX", "ISSUE", "ÄNDERUNG", "REVISIÓN":
			rev = true
		case "DATE", "DATUM", "FECHA", "TARIKH":
			date = true
		}
	}
	return rev && date
}
