package legend

import (
	"image"
	"regexp"
	"slices"
	"strings"
	"unicode"

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
		words = slices.Clone(words)
		words = append(words, unreadTags(img, words, opt.ReadTag)...)
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
// returns the words read, and mends in words the tags there that read one
// glyph as a letter twice (oneGlyph).
func unreadTags(img *image.Gray, words []text.Word, read func(*image.Gray) (string, float64)) []text.Word {
	p := newPage(img, ocrNoise(img, words))
	p.findRulings()
	p.findComponents()
	p.classifyWords()
	for _, w := range p.words {
		wr := p.wordRect(w)
		if w.Conf >= tagSure || !p.leadsRow(wr) {
			continue
		}
		if n, caps := p.tagsAt(wr.Min.X); n < tagColumnN || !caps {
			continue
		}
		if s, ok := oneGlyph(w.Text, p.piecesIn(wr), wr.Dx(), p.px(1)); ok {
			for i := range words {
				if words[i].Box == w.Box && words[i].Text == w.Text {
					words[i].Text = strings.ToUpper(s)
				}
			}
		}
	}
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
		s, _ = oneGlyph(s, p.piecesIn(g.r), g.r.Dx(), p.px(1))
		if caps {
			s = strings.ToUpper(s) // "Ss" in a column of capitals is "SS"
		}
		// read where a tag stands, and read surely: as sure as the page's
		// own text (a "&" is then no mark OCR made of a graphic)
		out = append(out, text.Word{Text: s, Conf: 1, Box: rectBox(g.r)})
	}
	return out
}

// tagSure: a tag word read this surely is not mended.
const tagSure = 0.8

// oneGlyph is a reading of one glyph as its letter twice, mended: OCR
// reads a lone capital in a column of tags as itself doubled ("Pp", "Ss",
// "SS" for "P", "S"). Where the ink read is one piece at most an em (w and
// em in pixels) wide, two letters that are one letter in either case are
// that letter once; two glyphs, or one of two letters' width (touching
// letters), keep their reading.
func oneGlyph(s string, pieces, w, em int) (string, bool) {
	r := []rune(s)
	if pieces != 1 || w > em || len(r) != 2 || !unicode.IsLetter(r[0]) || unicode.ToUpper(r[0]) != unicode.ToUpper(r[1]) {
		return s, false
	}
	return string(r[0]), true
}

// piecesIn counts the pieces of ink in r (8-connected, within r, four
// pixels or more; rulings left out).
func (p *page) piecesIn(r image.Rectangle) int {
	r = r.Intersect(image.Rect(0, 0, p.w, p.h))
	seen := make([]bool, r.Dx()*r.Dy())
	at := func(x, y int) int { return (y-r.Min.Y)*r.Dx() + x - r.Min.X }
	n := 0
	var stack []image.Point
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if i := y*p.w + x; !p.ink[i] || p.ruling[i] || seen[at(x, y)] {
				continue
			}
			seen[at(x, y)] = true
			size := 0
			stack = append(stack[:0], image.Pt(x, y))
			for len(stack) > 0 {
				q := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				size++
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						o := q.Add(image.Pt(dx, dy))
						if o.In(r) && p.ink[o.Y*p.w+o.X] && !p.ruling[o.Y*p.w+o.X] && !seen[at(o.X, o.Y)] {
							seen[at(o.X, o.Y)] = true
							stack = append(stack, o)
						}
					}
				}
			}
			if size >= 4 {
				n++
			}
		}
	}
	return n
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
