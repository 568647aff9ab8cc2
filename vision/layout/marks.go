package layout

import (
	"regexp"
	"strings"

	"github.com/plangraph/plangraph/vision/text"
)

// North arrows and graphic scales set apart from the views they serve
// (beside a plan, or one for the whole sheet) are no blocks of their own:
// not views, notes nor legends (lamb's "REFERENCE NORTH" arrows came out
// as GeneralNotes, their circles as untitled Plans, and its sheets'
// "SCALE: 1/4"=1'-0"" lines as notes). Nor is a plot stamp, the date and
// time a sheet was printed at (crayfish's "2017/05/28 13:07:43" under
// its views came out as GeneralNotes on five sheets).
var (
	// a plot stamp's words: a date, a time, AM/PM
	stampRE = regexp.MustCompile(`(?i)^(\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4}|\d{1,2}:\d{2}(:\d{2})?|[ap]\.?m\.?)$`)
	// a word that names a north arrow or a scale
	arrowNameRE = regexp.MustCompile(`(?i)^(north|nord|n|scale:?)$`)
	// words such a figure carries besides: a graphic scale's marks, ratio
	// and units
	arrowMarkRE = regexp.MustCompile(`(?i)^[0-9'"’”/\-=.:,]*(ft|feet|m|mm|cm|in)?\.?$`)
	// and the kind of north and a graphic scale's name; a text layer may
	// give a label set at a slant in pieces ("TRU", "E", "NO", "RTH"), so
	// a piece of one of them is one too
	arrowWords = []string{"TRUE", "REFERENCE", "PLAN", "PROJECT", "MAGNETIC", "GRID", "NORTH", "GRAPHIC", "SCALE", "BAR"}
)

// arrowWord tells whether s is a word a north arrow or a graphic scale
// carries besides its name.
func arrowWord(s string) bool {
	if arrowMarkRE.MatchString(s) {
		return true
	}
	u := strings.ToUpper(s)
	for _, w := range arrowWords {
		if strings.Contains(w, u) {
			return true
		}
	}
	return false
}

// maxArrowEm is the largest side (in em) of a north arrow or graphic
// scale standing alone, or of the two stacked (lamb's scanned roof plan:
// an arrow over its scale bar, 31 em).
const maxArrowEm = 40

// arrowOrScale tells whether words are those of a north arrow or a
// graphic scale alone: at least one names it and the others are of the
// kinds it carries, or OCR's doubtful readings of its marks (below
// minLineConf: "gy" read off an arrow's head).
func arrowOrScale(words []text.Word) bool {
	named := false
	for _, w := range words {
		s := strings.TrimSpace(w.Text)
		switch {
		case w.Conf > 0 && w.Conf < minLineConf:
		case arrowNameRE.MatchString(s):
			named = true
		case arrowWord(s):
		default:
			return false
		}
	}
	return named
}

// plotStamp tells whether words are a plot stamp's alone: a date or a
// time, on one line.
func plotStamp(words []text.Word) bool {
	for _, w := range words {
		if !stampRE.MatchString(strings.TrimSpace(w.Text)) || w.Line != words[0].Line {
			return false
		}
	}
	return len(words) > 0
}

// markEm: a wordless region at most this many em across is a mark.
const markEm = 2

// dropMarks removes the regions that hold a north arrow, a graphic scale
// or a plot stamp alone (small, unframed, their words all such words),
// and the small wordless regions beside them (an arrow's circle cut apart
// from its label), and wordless marks no bigger than a couple of letters
// (markEm: a sheet's corner or crop mark, a stray tick).
func dropMarks(rs []region, words []text.Word, em float64) []region {
	small := func(r region) bool {
		return !r.tb && !r.framed && !r.boxed && !r.note &&
			float64(max(r.r.w(), r.r.h())) <= maxArrowEm*em
	}
	own := make([][]text.Word, len(rs))
	arrow, mark := make([]bool, len(rs)), make([]bool, len(rs))
	found := false
	for i, r := range rs {
		own[i] = wordsIn(r.r, ownWords(rs, i, words))
		ws := own[i]
		if small(r) && (arrowOrScale(ws) || plotStamp(ws)) {
			arrow[i], found = true, true
		}
		if small(r) && len(ws) == 0 && float64(max(r.r.w(), r.r.h())) <= markEm*em {
			mark[i], found = true, true
		}
	}
	if !found {
		return rs
	}
	out := rs[:0:0]
	for i, r := range rs {
		if arrow[i] || mark[i] {
			continue
		}
		if small(r) && len(own[i]) == 0 {
			beside := false
			for j, o := range rs {
				beside = beside || arrow[j] && dist(r.r, o.r) <= cutGapEm*em
			}
			if beside {
				continue
			}
		}
		out = append(out, r)
	}
	return out
}
