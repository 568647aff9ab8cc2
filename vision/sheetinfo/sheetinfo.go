// Package sheetinfo reads a sheet's number, title, discipline and revision
// from the words of its title block.
//
// Title blocks label their fields ("SHEET NO.", "Drawing Title",
// "Plan-Nr.", "Planinhalt", "REV", "図面番号"…): a labelled field's value is
// read where the label points — in its ruled cell when the page's layout
// knows the cells (Hints), on the label's line after it, or in the lines
// under it up to the next label — in the label's own reading direction, so
// a title block set sideways reads as well as an upright one. Where no label
// names the number, it is the sheet-number-shaped word printed largest in
// the title block (or, not knowing where that is, the zones where title
// blocks sit: the right and bottom strips); the title is then the
// largest-type paragraph near it that is no other field's value. The
// discipline follows from the number's designator, else from the title's
// words.
package sheetinfo

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Info is what was read.
type Info struct {
	Number     string `json:"sheet_number"`
	Title      string `json:"title"`
	Discipline string `json:"discipline"`
	// Revision is the sheet's current revision mark ("0", "3", "B") when a
	// REV / REVISION field or a revision table of the title block shows one.
	Revision  string   `json:"revision"`
	NumberBox geom.Box `json:"number_box"`
	TitleBox  geom.Box `json:"title_box"`
	// Unread are where a labelled number, title or revision field shows no
	// value the words can be read as (lettering a text layer lacks, or OCR
	// misread in a page-wide pass): reading them again, closely, may.
	Unread []geom.Box `json:"-"`
	// UnreadRevision are the value regions of revision labels with no
	// value read (a mark of one or two characters OCR passed over).
	UnreadRevision []geom.Box `json:"-"`
	// Recheck are the value regions of a labelled title read from OCR's
	// words: a page-wide pass drops a small title's lines and the numbers
	// leading them ("1.", "2."), which a closer reading of the cell reads.
	Recheck []geom.Box `json:"-"`
}

// Hints are what the page's layout knows of its title block.
type Hints struct {
	// TitleBlock is the title block's box (zero: unknown; the zones where
	// title blocks sit are searched).
	TitleBlock geom.Box
	// Cells gives the ruled cell around a box of the page (a zero box when
	// no ruling encloses it); nil when the ruling is not known.
	Cells func(geom.Box) geom.Box
}

// Read finds the sheet's metadata in words on a page of width × height
// pixels, not knowing where its title block is.
func Read(words []text.Word, width, height float64) Info {
	return ReadHints(words, width, height, Hints{})
}

// ReadHints is Read with what the layout knows.
func ReadHints(words []text.Word, width, height float64, hints Hints) Info {
	r := newReader(words, width, height, hints)
	var info Info
	info.Number, info.NumberBox = r.number()
	info.Title, info.TitleBox = r.title(info.NumberBox)
	if info.Number == "" && !r.labelled(fieldTitle) {
		// without a number there is no title block to read a title from
		info.Title, info.TitleBox = "", geom.Box{}
	}
	info.Discipline = r.discipline(info.Number, info.Title)
	info.Revision = r.revision()
	info.Unread = r.unread(info)
	info.Recheck = r.recheck(info)
	if info.Revision == "" {
		for _, lb := range r.labels {
			if lb.kind == fieldRevision {
				info.UnreadRevision = append(info.UnreadRevision, r.valueRegion(lb))
			}
		}
	}
	return info
}

// unread are the value regions of the labels of fields that were not read
// from a label: the label's cell, or the reach of its value.
func (r *reader) unread(info Info) []geom.Box {
	var out []geom.Box
	for _, lb := range r.labels {
		switch {
		case lb.kind == fieldNumber && !r.fromLabel(fieldNumber, info.NumberBox),
			lb.kind == fieldTitle && !r.fromLabel(fieldTitle, info.TitleBox),
			lb.kind == fieldRevision && info.Revision == "":
		default:
			continue
		}
		out = append(out, r.valueRegion(lb))
	}
	return out
}

// recheckMaxArea is the largest title region read again whole, in square
// line heights (a cell of 40 × 10 lines).
const recheckMaxArea = 400

// recheck are the value regions of the title labels the title was read
// from when OCR read a word of it.
func (r *reader) recheck(info Info) []geom.Box {
	if !r.fromLabel(fieldTitle, info.TitleBox) {
		return nil
	}
	var out []geom.Box
	for _, lb := range r.labels {
		if lb.kind != fieldTitle {
			continue
		}
		rg := r.valueRegion(lb)
		lh := 0.0 // the title's tallest OCR word
		for _, w := range r.words {
			if w.Conf < 1 && containsBox(info.TitleBox, w.Box) && containsBox(rg, w.Box) {
				lh = max(lh, w.Box.Height())
			}
		}
		if lh == 0 {
			continue
		}
		// a region found without its cell (a strip of the title block)
		// is read round the title only: from two lines over it to four
		// under it
		if rg.Area() > recheckMaxArea*lh*lh && info.TitleBox.Width() >= info.TitleBox.Height() {
			rg.YMin, rg.YMax = max(rg.YMin, info.TitleBox.YMin-2*lh), min(rg.YMax, info.TitleBox.YMax+4*lh)
		}
		out = append(out, rg)
	}
	return out
}

// fromLabel reports whether the field read at b is a value of a label of
// kind.
func (r *reader) fromLabel(kind string, b geom.Box) bool {
	if !b.Valid() {
		return false
	}
	for _, lb := range r.labels {
		if lb.kind != kind {
			continue
		}
		for _, w := range r.valueWords(lb) {
			if containsBox(b, w.Box) || containsBox(w.Box, b) {
				return true
			}
		}
	}
	return false
}

// orient is a line's reading direction on the page.
type orient int

const (
	horizontal orient = iota
	up                // turned a quarter anticlockwise: reads bottom to top
	down              // turned a quarter clockwise: reads top to bottom
)

// tline is a line of text with its reading direction.
type tline struct {
	text   string
	box    geom.Box
	words  []text.Word
	orient orient
}

// toFrame maps a page box into the reading frame of o: x along the line,
// y down the lines.
func toFrame(o orient, b geom.Box) geom.Box {
	switch o {
	case up:
		return geom.Box{XMin: -b.YMax, XMax: -b.YMin, YMin: b.XMin, YMax: b.XMax}
	case down:
		return geom.Box{XMin: b.YMin, XMax: b.YMax, YMin: -b.XMax, YMax: -b.XMin}
	}
	return b
}

// typeSize is a line's type height (its extent across the line).
func (l *tline) typeSize() float64 {
	hs := make([]float64, 0, len(l.words))
	for _, w := range l.words {
		hs = append(hs, toFrame(l.orient, w.Box).Height())
	}
	sort.Float64s(hs)
	return hs[len(hs)/2]
}

// reader holds a page's lines and labels.
type reader struct {
	w, h        float64
	hints       Hints
	words       []text.Word
	lines       []*tline
	labels      []label
	isLabelLine map[*tline]bool
	// claimed are the lines that are the values of labels of other fields
	claimed map[*tline]bool
}

func newReader(words []text.Word, w, h float64, hints Hints) *reader {
	r := &reader{w: w, h: h, hints: hints, words: words, isLabelLine: map[*tline]bool{}, claimed: map[*tline]bool{}}
	r.lines = orientedLines(words)
	r.labels = findLabels(r.lines, r.inTB)
	for _, lb := range r.labels {
		if lb.inline == nil {
			r.isLabelLine[lb.line] = true
		}
	}
	for _, lb := range r.labels {
		if lb.kind != fieldOther || lb.inline != nil {
			continue
		}
		for _, l := range r.valueLines(lb) {
			r.claimed[l] = true
			break // the first line under or beside it: "PROJECT" values run on, but the first is surely its
		}
	}
	return r
}

// orientedLines groups words into lines and tells each line's direction: a
// line of words stacked down the page is turned; its words' order (the
// reading order the text layer or OCR gives) tells which way. A one-word
// line much taller than wide is turned the way most turned lines are.
func orientedLines(words []text.Word) []*tline {
	var out []*tline
	ups, downs := 0, 0
	var unsure []*tline
	for _, l := range text.Lines(words) {
		tl := &tline{text: strings.TrimSpace(l.Text), box: l.Box, words: l.Words}
		switch {
		case len(l.Words) >= 2:
			a, b := l.Words[0].Box, l.Words[len(l.Words)-1].Box
			dx, dy := (b.XMin+b.XMax-a.XMin-a.XMax)/2, (b.YMin+b.YMax-a.YMin-a.YMax)/2
			if math.Abs(dy) > 2*math.Abs(dx) {
				if dy < 0 {
					tl.orient = up
					ups++
				} else {
					tl.orient = down
					downs++
				}
			}
		case len([]rune(tl.text)) >= 3 && l.Box.Height() > 2*l.Box.Width():
			unsure = append(unsure, tl)
		}
		out = append(out, tl)
	}
	for _, tl := range unsure {
		tl.orient = up
		if downs > ups {
			tl.orient = down
		}
	}
	return out
}

// inTB reports whether b lies in the title block (or, not knowing it, in
// the zones where title blocks sit).
func (r *reader) inTB(b geom.Box) bool {
	cx, cy := (b.XMin+b.XMax)/2, (b.YMin+b.YMax)/2
	if tb := r.hints.TitleBlock; tb.Valid() {
		return cx >= tb.XMin && cx <= tb.XMax && cy >= tb.YMin && cy <= tb.YMax
	}
	return zoneWeight(b, r.w, r.h) >= 1.5
}

// labelled reports whether a label of kind was found.
func (r *reader) labelled(kind string) bool {
	for _, lb := range r.labels {
		if lb.kind == kind {
			return true
		}
	}
	return false
}

// zoneWeight favours the title-block zones of a sheet.
func zoneWeight(b geom.Box, w, h float64) float64 {
	cx, cy := (b.XMin+b.XMax)/2/w, (b.YMin+b.YMax)/2/h
	switch {
	case cx > 0.75 && cy > 0.75:
		return 3
	case cx > 0.8 || cy > 0.85:
		return 1.5
	}
	return 0.2
}

// dashes are the hyphens and dashes fonts encode apart from '-'.
var dashes = strings.NewReplacer("\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2212", "-", "\uFF0D", "-")

func cleanToken(s string) string {
	return strings.Trim(dashes.Replace(strings.ToUpper(s)), " :;,()[]‘’“”'\"`")
}

func hasLetters(s string) bool {
	for _, r := range s {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0x2E80 {
			return true
		}
	}
	return false
}

var (
	// ncsRE is a sheet number whose letters are an NCS designator: letters,
	// then digits with dots or hyphens (A1.1, E201A, M-03-01) — not a
	// scheme of its own (WD-1/01, C8/253/1/A), whose letters mean
	// something else.
	ncsRE = regexp.MustCompile(`^[A-Z]{1,3}[-. ]?\d[\d.\-]*[A-Z]?$`)
	// commonDiscipline are the disciplines of the designators in common use
	commonDiscipline = map[string]bool{"architectural": true, "structural": true, "mechanical": true, "electrical": true,
		"plumbing": true, "civil": true, "landscape": true, "general": true, "interiors": true, "telecommunications": true}
	architectRE = regexp.MustCompile(`(?i)architect|architekt|arkitek|architecte|arquitect|architett|建築`)
)

// discipline is the sheet's discipline: from the number's NCS designator,
// else from the title's words, else architectural when the title block
// names the author an architect (an architect's sheets are architectural
// unless they say otherwise), else "".
func (r *reader) discipline(number, title string) string {
	if number == "" {
		return ""
	}
	var byNumber string
	if ncsRE.MatchString(number) {
		byNumber = sheetmeta.Discipline(number)
	}
	// the designators every office uses decide; a rarer one (F, W, Q…)
	// is often an office's own letter: the title's words then decide
	if commonDiscipline[byNumber] {
		return byNumber
	}
	if d := sheetmeta.DisciplineOfTitle(title); d != "" {
		return d
	}
	if byNumber != "" {
		return byNumber
	}
	for _, w := range r.words {
		if r.inTB(w.Box) && architectRE.MatchString(w.Text) {
			return "architectural"
		}
	}
	// the notes stacked over a title strip may name the office ("…
	// COPYRIGHT … REMAINS WITH ALSFINE AND ANGUS ARCHITECTS")
	for _, w := range r.words {
		if architectRE.MatchString(w.Text) {
			return "architectural"
		}
	}
	return ""
}
