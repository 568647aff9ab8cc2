package symbols

// Symbols told apart by their letters. Many symbols are one outline with
// different letters inside: a circle with an S is a switch, with OS an
// occupancy sensor, with M a motor, with J a junction box. Drawn at any
// angle and size, the outlines correlate alike and the letters, a few
// pixels of ink, hardly tell them apart (synthetic seed 21: a switch found
// at 0.99 on an occupancy sensor). Where the drawing's words are known
// (a PDF text layer, confident OCR), they do: a detection whose words —
// those lying mostly inside its box — read as exactly another template's
// Text, and not as its own, is that other symbol, and is dropped as soon
// as it is refined (before it claims the place: the other symbol's
// candidates there are still refined). Words are compared as the letters
// and digits they hold, in any order and case ("OS" and "SO": a turned
// word may be read in either order). A detection with no words inside, or
// with words that read as no template's text (a keynote's number, a tag
// beside it, a legend graphic whose text is a placeholder), is kept: the
// rule only ever picks one legend symbol over another.

import (
	"slices"
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
)

// LetterKey is what a text reads for comparison: its letters and digits,
// upper case, sorted ("" when it holds none). A symbol's tag and a word
// beside a match compare by it (here and in vecsym).
func LetterKey(s string) string {
	var r []rune
	for _, c := range s {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			r = append(r, unicode.ToUpper(c))
		}
	}
	slices.Sort(r)
	return string(r)
}

// letterIndex finds the words inside a detection's box.
type letterIndex struct {
	ix   *textIndex
	keys []string // letterKey of each word
	// tmpl[i] is template i's letterKey ("" without text)
	tmpl []string
}

// newLetterIndex indexes the words moved by (-dx, -dy) for the templates
// (indexed as Match's); nil when no template has text or there are no
// words.
func newLetterIndex(words []Word, tmpls []string, dx, dy float64) *letterIndex {
	if len(words) == 0 || !slices.ContainsFunc(tmpls, func(s string) bool { return s != "" }) {
		return nil
	}
	boxes := make([]geom.Box, len(words))
	keys := make([]string, len(words))
	for i, w := range words {
		boxes[i] = w.Box.Translate(-dx, -dy)
		keys[i] = LetterKey(w.Text)
	}
	return &letterIndex{ix: newTextIndex(boxes), keys: keys, tmpl: tmpls}
}

// inside reads the words lying mostly (by wordInsideShare of their area)
// inside b, as one letterKey.
func (li *letterIndex) inside(b geom.Box) string {
	var sb strings.Builder
	li.ix.overlapping(b, func(i int, o geom.Box) {
		if o.Area() >= wordInsideShare*li.ix.words[i].Area() {
			sb.WriteString(li.keys[i])
		}
	})
	return LetterKey(sb.String())
}

// wordInsideShare: a word with this share of its box inside a detection's
// box is read as part of it.
const wordInsideShare = 0.5

// otherSymbol tells whether d's words read as another template's text and
// not as its own.
func (li *letterIndex) otherSymbol(d Detection) bool {
	if li == nil {
		return false
	}
	k := li.inside(d.Box)
	if k == "" || k == li.tmpl[d.Template] {
		return false
	}
	for i, t := range li.tmpl {
		if i != d.Template && t == k {
			return true
		}
	}
	return false
}
