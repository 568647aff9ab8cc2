package text

import (
	"slices"
	"strings"
	"unicode"
)

// TypeHeight is the median height of the words holding a letter or a
// digit — the page's usual type size — and how many there are. Words of
// marks alone are left out: OCR reads a plan's hatching and dashed lines
// as hundreds of "—" a few pixels tall, which would make the type look a
// tenth of its size.
func TypeHeight(words []Word) (float64, int) {
	var hs []float64
	for _, w := range words {
		if h := w.Box.Height(); h > 0 && HasAlnum(w.Text) {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return 0, 0
	}
	slices.Sort(hs)
	return hs[len(hs)/2], len(hs)
}

// HasAlnum reports whether s holds a letter or a digit.
func HasAlnum(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
