package legend

import (
	"image"
	"regexp"
	"strings"

	"github.com/plangraph/plangraph/vision/text"
)

// Options tune ParseWith.
type Options struct {
	// ReadTag reads a crop of the legend holding one short word (a tag
	// OCR's reading of the page passed over, left a graphic): its text and
	// confidence in 0..1. Nil reads nothing again.
	ReadTag func(img *image.Gray) (string, float64)
}

// ParseWith is Parse with options.
//
// With ReadTag, a graphic of letter size standing in a column of tags
// (the terms of an abbreviation list, the codes of a finish legend) whose
// other rows' tags are words is read again as a word: a scan's "SS" or "P"
// that page OCR did not read is its row's tag, not a symbol to search the
// drawings for. The entries are then read with those words.
func ParseWith(img *image.Gray, words []text.Word, opt Options) []Entry {
	if img == nil || img.Bounds().Empty() {
		return nil
	}
	if opt.ReadTag != nil {
		if more := unreadTags(img, words, opt.ReadTag); len(more) > 0 {
			words = append(append([]text.Word(nil), words...), more...)
		}
	}
	return parse(img, words)
}

// Thresholds of unreadTags.
const (
	tagMaxEm    = 4.0 // a tag is at most this many em wide…
	tagColumnN  = 3   // …in a column of at least this many tags read as words,
	tagMinConf  = 0.6 // and read again with at least this confidence
	tagMaxRunes = 8
)

// tagText is a tag's reading: a short token, no spaces ("SS", "RES-W",
// "A/C", "&").
var tagText = regexp.MustCompile(`^\S{1,8}$`)

// unreadTags reads again the graphics of letter size that lead a row in a
// column of tags: at their left edge (within an em) at least tagColumnN
// short words start their lines, more than the graphics that do. It
// returns the words read.
func unreadTags(img *image.Gray, words []text.Word, read func(*image.Gray) (string, float64)) []text.Word {
	p := newPage(img, ocrNoise(img, words))
	p.findRulings()
	p.findComponents()
	p.classifyWords()
	graphics := p.lettered(p.groupGraphics())
	var out []text.Word
	for _, g := range graphics {
		if len(g.words) > 0 || float64(g.r.Dy()) > letterEm*p.em || float64(g.r.Dy()) < 0.5*p.em || float64(g.r.Dx()) > tagMaxEm*p.em {
			continue
		}
		n, caps := p.tagsAt(g.r.Min.X)
		if !p.leadsRow(g.r) || n < max(tagColumnN, p.graphicsAt(graphics, g.r.Min.X)+1) {
			continue
		}
		pad := p.px(0.4)
		crop := g.r.Inset(-pad).Intersect(img.Bounds())
		s, conf := read(img.SubImage(crop).(*image.Gray))
		if conf < tagMinConf || !tagText.MatchString(s) {
			continue
		}
		if caps {
			s = strings.ToUpper(s) // "Ss" in a column of capitals is "SS"
		}
		// read where a tag stands, and read surely: as sure as the page's
		// own text (a "&" is then no mark OCR made of a graphic)
		out = append(out, text.Word{Text: s, Conf: 1, Box: rectBox(g.r)})
	}
	return out
}

// leadsRow reports nothing on r's line to its left.
func (p *page) leadsRow(r image.Rectangle) bool {
	for _, w := range p.words {
		if wr := p.wordRect(w); wr.Max.X <= r.Min.X && vOverlap(wr, r)*2 >= min(wr.Dy(), r.Dy()) {
			return false
		}
	}
	for _, c := range p.comps {
		if c.significant() && c.r.Max.X <= r.Min.X && vOverlap(c.r, r)*2 >= min(c.r.Dy(), r.Dy()) {
			return false
		}
	}
	return true
}

// tagsAt counts the short words starting their lines within an em of x,
// with more text to their right on the line, and reports whether three in
// four or more of them have no lower-case letter (a column of capitals, a
// misread among them).
func (p *page) tagsAt(x int) (n int, caps bool) {
	upper := 0
	for i, w := range p.words {
		wr := p.wordRect(w)
		if abs(wr.Min.X-x) > p.px(1) || len([]rune(w.Text)) > tagMaxRunes || !text.HasAlnum(w.Text) || !p.leadsRow(wr) {
			continue
		}
		for j, o := range p.words {
			if or := p.wordRect(o); j != i && or.Min.X >= wr.Max.X && vOverlap(or, wr)*2 >= min(or.Dy(), wr.Dy()) {
				n++
				if strings.ToUpper(w.Text) == w.Text {
					upper++
				}
				break
			}
		}
	}
	return n, n > 0 && 4*upper >= 3*n
}

// graphicsAt counts the graphics starting within an em of x.
func (p *page) graphicsAt(graphics []*graphic, x int) int {
	n := 0
	for _, g := range graphics {
		if abs(g.r.Min.X-x) <= p.px(1) {
			n++
		}
	}
	return n
}
