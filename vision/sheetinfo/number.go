package sheetinfo

import (
	"math"
	"regexp"
	"strings"

	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

var (
	// numberRE is a sheet number standing alone: an NCS designator and
	// number (A3, E201A, M-101, S3.1, FP-2.01, A.100).
	numberRE = regexp.MustCompile(`^[A-Z]{1,3}[-.]?\d{1,4}(?:\.\d{1,3})?[A-Z]?$`)
	// isoNumberRE is a long structured drawing number (ISO 19650 and
	// company schemes): four or more fields joined by hyphens or
	// underscores, letters and digits both present.
	isoNumberRE = regexp.MustCompile(`^[A-Z0-9]{1,10}(?:[-_][A-Z0-9]{1,10}){3,}$`)
	// slashNumberRE is a drawing number in fields joined by slashes and
	// hyphens (WD-1/01, C8/253/1/A): three fields or more.
	slashNumberRE = regexp.MustCompile(`^[A-Z0-9]{1,8}(?:[-/][A-Z0-9]{1,8}){2,}$`)
	// fieldValueRE is what a labelled number field may hold: letters,
	// digits and separators, at least one digit.
	fieldValueRE = regexp.MustCompile(`^[A-Z0-9](?:[A-Z0-9./_\-]{0,48}[A-Z0-9])?$`)
	sheetCountRE = regexp.MustCompile(`^\d+\s*(OF|/|VON|DE)\s*\d+$`)
	scaleTextRE  = regexp.MustCompile(`^1\s*:\s*\d+$`)
	// slashDateRE is a date no sheet number looks like (5.1.00 may be either)
	slashDateRE = regexp.MustCompile(`^\d{1,2}/\d{1,2}/\d{2,4}$|^\d{1,2}[./-]\d{1,2}[./-]\d{4}$`)
)

// number reads the sheet number: a labelled field's value when a label
// names it, else the number-shaped word printed largest in the title block.
func (r *reader) number() (string, geom.Box) {
	best, bestBox, bestSize := "", geom.Box{}, 0.0
	for _, lb := range r.labels {
		if lb.kind != fieldNumber {
			continue
		}
		for _, w := range joinPrefix(joinClose(r.valueWords(lb))) {
			tok := cleanToken(w.Text)
			if !labelledNumber(tok) {
				continue
			}
			if s := toFrame(lb.line.orient, w.Box).Height(); s > bestSize {
				best, bestBox, bestSize = tok, w.Box, s
			}
			break // the first number-shaped word of this label's value
		}
	}
	if best != "" {
		return best, bestBox
	}
	return r.unlabelledNumber()
}

// valueWords are the words of a label's value: its inline words, else the
// words of the lines its value may be in, in reading order.
func (r *reader) valueWords(lb label) []text.Word {
	if lb.inline != nil {
		if t := joinWords(lb.inline); sheetCountRE.MatchString(strings.ToUpper(strings.TrimSpace(t))) {
			return nil
		}
		return lb.inline
	}
	o := lb.line.orient
	lf := toFrame(o, lb.box)
	lh := lf.Height()
	var out []text.Word
	for _, l := range r.valueLines(lb) {
		if sheetCountRE.MatchString(strings.ToUpper(l.text)) {
			continue
		}
		lb := toFrame(o, l.box)
		below := under(lb, lf)
		for _, w := range l.words {
			// under the label, only the words in its column (a line of
			// values may run under the next field's label too)
			if wb := toFrame(o, w.Box); below && (wb.XMax < lf.XMin-lh || wb.XMin > lf.XMax+4*lh) {
				continue
			}
			out = append(out, w)
		}
	}
	return out
}

// labelledNumber reports whether tok can be a labelled sheet number field's
// value: letters, digits and separators with a digit, not a date or a scale.
func labelledNumber(tok string) bool {
	if !fieldValueRE.MatchString(tok) || !strings.ContainsAny(tok, "0123456789") {
		return false
	}
	return !slashDateRE.MatchString(tok) && !scaleTextRE.MatchString(tok)
}

// unlabelledNumber is the best number-shaped word in the title block:
// largest type, an NCS designator or a long structured number, in the
// title-block zones, not another field's value.
func (r *reader) unlabelledNumber() (string, geom.Box) {
	var nearLabels []geom.Box
	for _, lb := range r.labels {
		if lb.kind == fieldNumber {
			nearLabels = append(nearLabels, lb.box)
		}
	}
	claimedWord := map[geom.Box]bool{}
	for l := range r.claimed {
		for _, w := range l.words {
			claimedWord[w.Box] = true
		}
	}
	best, bestScore := -1, 0.0
	for i, wd := range r.words {
		tok := cleanToken(wd.Text)
		iso := (isoNumberRE.MatchString(tok) || slashNumberRE.MatchString(tok) && strings.Contains(tok, "/")) &&
			strings.ContainsAny(tok, "0123456789") && strings.IndexFunc(tok, isLetter) >= 0 && !slashDateRE.MatchString(tok)
		if !numberRE.MatchString(tok) && !iso {
			continue
		}
		if !r.inTB(wd.Box) || claimedWord[wd.Box] {
			continue
		}
		score := math.Min(wd.Box.Height(), wd.Box.Width())
		if !r.hints.TitleBlock.Valid() {
			score *= zoneWeight(wd.Box, r.w, r.h)
		}
		if sheetmeta.Discipline(tok) == "" && !iso {
			score *= 0.3 // not an NCS designator: possible, but less likely
		}
		for _, lb := range nearLabels {
			if near(lb, wd.Box, 6*lb.Height()) {
				score *= 3
				break
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return "", geom.Box{}
	}
	return cleanToken(r.words[best].Text), r.words[best].Box
}

func isLetter(r rune) bool { return r >= 'A' && r <= 'Z' }

// near reports whether b starts within d below or right of label.
func near(label, b geom.Box, d float64) bool {
	dx := b.XMin - label.XMin
	dy := b.YMin - label.YMin
	return dx > -d && dx < 4*d && dy > -label.Height() && dy < d
}

// prefixRE is a discipline designator read apart from its number.
var prefixRE = regexp.MustCompile(`^[A-Z]{1,3}[-.]?$`)

// joinPrefix joins, in a number field's value, a word of one to three
// capitals (a discipline designator) to the number that follows it on its
// line within a letter's height: OCR reads "AF101" printed with its
// letters spaced as "AF" and "101" (the scanned VA finish plan's number
// came out as "101").
func joinPrefix(ws []text.Word) []text.Word {
	var out []text.Word
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if i+1 < len(ws) && prefixRE.MatchString(cleanToken(w.Text)) {
			n := ws[i+1]
			h := math.Max(w.Box.Height(), n.Box.Height())
			gap := n.Box.XMin - w.Box.XMax
			if t := cleanToken(n.Text); t != "" && t[0] >= '0' && t[0] <= '9' &&
				math.Abs((w.Box.YMin+w.Box.YMax)/2-(n.Box.YMin+n.Box.YMax)/2) < 0.3*h && gap > -0.1*h && gap < h {
				w.Text += n.Text
				w.Box = union(w.Box, n.Box)
				i++
			}
		}
		out = append(out, w)
	}
	return out
}

// joinClose joins words that follow each other on a row with less than a
// letter's gap between them: OCR splits a long drawing number
// (L05-E06D06-RVS-13-00-D WG-GA-30001) where a font spaces two letters.
func joinClose(ws []text.Word) []text.Word {
	var out []text.Word
	for _, w := range ws {
		if n := len(out); n > 0 {
			last := out[n-1]
			h := math.Max(last.Box.Height(), w.Box.Height())
			gap := w.Box.XMin - last.Box.XMax
			if math.Abs((last.Box.YMin+last.Box.YMax)/2-(w.Box.YMin+w.Box.YMax)/2) < 0.3*h && gap > -0.1*h && gap < 0.22*h {
				out[n-1].Text += w.Text
				out[n-1].Box = union(last.Box, w.Box)
				continue
			}
		}
		out = append(out, w)
	}
	return out
}
