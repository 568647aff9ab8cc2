package parse

import (
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
	"github.com/plangraph/plangraph/vision/vector"
)

// maxTagChars: a legend entry's label of at most this many letters and
// digits, apart from its description, is a tag the plan may write beside
// the symbol ("GFI", "+42\"", "WP").
const maxTagChars = 6

// entryTag is the tag that tells a legend entry's symbol from others drawn
// alike (vecsym.Options.Tags): its label when that is a short code, not
// its description; "" otherwise.
func entryTag(label, description string) string {
	if label == "" || labelIsDescription(label, description) {
		return ""
	}
	n := 0
	for _, c := range label {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			n++
		}
	}
	if n == 0 || n > maxTagChars {
		return ""
	}
	return label
}

// labelIsDescription: the legend has no label apart from the description
// (the label is the description, read as both).
func labelIsDescription(label, description string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(label), " "), strings.Join(strings.Fields(description), " "))
}

// graphicText is the boxes of the words of a legend block (lwords, in its
// pixels; the block's corner at (ox, oy) on its sheet) that lie in its
// graphic g, on the sheet: the text vecsym.NewTemplateBeside leaves out
// when it is set beside the symbol.
func graphicText(g geom.Box, lwords []text.Word, ox, oy float64) []vector.Rect {
	var out []vector.Rect
	for _, w := range graphicWords(g, lwords) {
		out = append(out, boxRect(w.Box.Translate(ox, oy)))
	}
	return out
}

// drawingWords are a searched block's words sure enough to be read, for
// vecsym.Options.Words.
func drawingWords(words []text.Word) []symbols.Word {
	var out []symbols.Word
	for _, w := range words {
		if w.Conf >= wordConf {
			out = append(out, symbols.Word{Box: w.Box, Text: w.Text})
		}
	}
	return out
}
