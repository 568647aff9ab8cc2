package text

import (
	"math"
	"sort"
	"unicode"
	"unicode/utf8"
)

// JoinSpacedLetters joins letter-spaced lettering — a heading set with wide
// tracking ("L E G E N D", "K E Y   P L A N"), which text layers and OCR
// give as one word per letter — into words. On each line, a run of three
// or more single letters or digits of one size, each within 1.6 letter
// heights of the next, is one word, split where a gap is clearly wider
// than the run's own letter spacing (a word space). Other words are kept
// as they are, in their order.
func JoinSpacedLetters(ws []Word) []Word {
	single := func(w Word) bool { return utf8.RuneCountInString(w.Text) == 1 && hasLetterOrDigit(w.Text) }
	// the words of each line, left to right (lines of upright text only)
	lines := map[int][]int{}
	for i, w := range ws {
		lines[w.Line] = append(lines[w.Line], i)
	}
	merged := map[int]Word{} // first word of a joined run → the run as one word
	gone := map[int]bool{}   // the other words of joined runs
	for _, idx := range lines {
		sort.SliceStable(idx, func(a, b int) bool { return ws[idx[a]].Box.XMin < ws[idx[b]].Box.XMin })
		for i := 0; i < len(idx); {
			j := i
			for j+1 < len(idx) && single(ws[idx[j]]) && single(ws[idx[j+1]]) && spacedPair(ws[idx[j]], ws[idx[j+1]]) {
				j++
			}
			if j-i+1 >= 3 {
				joinRun(ws, idx[i:j+1], merged, gone)
			}
			i = j + 1
		}
	}
	if len(gone) == 0 {
		return ws
	}
	out := make([]Word, 0, len(ws)-len(gone))
	for i, w := range ws {
		if gone[i] {
			continue
		}
		if m, ok := merged[i]; ok {
			w = m
		}
		out = append(out, w)
	}
	return out
}

// spacedPair: b follows a on its line as the next letter of spaced
// lettering: upright, of like height, overlapping vertically, within 1.6
// letter heights.
func spacedPair(a, b Word) bool {
	ha, hb := a.Box.Height(), b.Box.Height()
	h := math.Max(ha, hb)
	if h <= 0 || math.Min(ha, hb) < 0.6*h || a.Box.Width() > 1.5*h || b.Box.Width() > 1.5*h {
		return false
	}
	if math.Min(a.Box.YMax, b.Box.YMax)-math.Max(a.Box.YMin, b.Box.YMin) < 0.5*h {
		return false
	}
	gap := b.Box.XMin - a.Box.XMax
	return gap >= -0.1*h && gap <= 1.6*h
}

// joinRun joins the words idx (one line, left to right) into words split
// at word spaces: gaps over 1.8 times the run's median gap and clearly
// wider than it.
func joinRun(ws []Word, idx []int, merged map[int]Word, gone map[int]bool) {
	gaps := make([]float64, len(idx)-1)
	for k := range gaps {
		gaps[k] = ws[idx[k+1]].Box.XMin - ws[idx[k]].Box.XMax
	}
	sorted := append([]float64(nil), gaps...)
	sort.Float64s(sorted)
	med := sorted[len(sorted)/2]
	h := ws[idx[0]].Box.Height()
	start := 0
	flush := func(end int) { // idx[start:end] is one word
		if end-start < 2 {
			return
		}
		w := ws[idx[start]]
		for _, i := range idx[start+1 : end] {
			w.Text += ws[i].Text
			w.Box = w.Box.Union(ws[i].Box)
			w.Conf = math.Min(w.Conf, ws[i].Conf)
			gone[i] = true
		}
		merged[idx[start]] = w
	}
	for k, g := range gaps {
		if g > 1.8*med && g > med+0.3*h {
			flush(k + 1)
			start = k + 1
		}
	}
	flush(len(idx))
}

// hasLetterOrDigit: a Latin letter (accented too) or a digit; ideographs
// are words of one character each and are not joined.
func hasLetterOrDigit(s string) bool {
	for _, r := range s {
		if r < 0x250 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return true
		}
	}
	return false
}
