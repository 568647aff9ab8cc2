package ocr

import (
	"unicode"

	"github.com/plangraph/plangraph/vision/text"
)

// Thresholds of Needed.
const (
	// minWords is the fewest readable words a usable text layer has: a
	// drawing always carries at least its title block.
	minWords = 10
	// minGoodShare is the least share of readable words; broken font
	// encodings yield mostly symbol soup.
	minGoodShare = 0.5
)

// Needed reports whether a page's text layer (words, for a w × h px page)
// is missing or unusable so that the page should be OCRed: fewer than 10
// readable words on the page, or mostly garbage words such as those from
// fonts without a usable encoding (private-use, replacement or control
// characters, symbol runs without letters or digits).
func Needed(words []text.Word, w, h int) bool {
	good, total := 0, 0
	for _, wd := range words {
		if w > 0 && h > 0 {
			cx, cy := (wd.Box.XMin+wd.Box.XMax)/2, (wd.Box.YMin+wd.Box.YMax)/2
			if cx < 0 || cy < 0 || cx > float64(w) || cy > float64(h) {
				continue // off the page: not visible text
			}
		}
		if wd.Text == "" {
			continue
		}
		total++
		if readable(wd.Text) {
			good++
		}
	}
	return good < minWords || float64(good) < minGoodShare*float64(total)
}

// readable reports a word at least a third of whose characters are letters
// or digits and at least three quarters letters, digits, punctuation or
// symbols (not private-use, replacement or control characters).
func readable(s string) bool {
	alnum, ok, n := 0, 0, 0
	for _, r := range s {
		n++
		switch {
		case r == unicode.ReplacementChar, unicode.Is(unicode.Co, r), unicode.IsControl(r):
			// private use, U+FFFD, controls: undecodable glyphs
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			alnum++
			ok++
		case unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r):
			ok++
		}
	}
	return alnum > 0 && 3*alnum >= n && 4*ok >= 3*n
}
