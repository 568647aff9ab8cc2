package layout

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

func wordsIn(r rect, words []text.Word) []text.Word {
	var out []text.Word
	for _, w := range words {
		cx, cy := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
		if cx >= float64(r.x0) && cx < float64(r.x1) && cy >= float64(r.y0) && cy < float64(r.y1) {
			out = append(out, w)
		}
	}
	return out
}

// viewKinds are drawn views, whose titles are printed under them; other
// kinds (legends, notes, schedules) carry a heading above.
var viewKinds = map[string]bool{"Plan": true, "Elevation": true, "Section": true, "Detail": true, "Diagram": true}

// headingKind is the kind named by r's title or heading, "" when none.
func headingKind(r rect, words []text.Word, em float64) string {
	b := classify(r, words, em)
	if b.Title == "" || kindOf(b.Title) != b.Type {
		return ""
	}
	return b.Type
}

var (
	scaleRE = regexp.MustCompile(`(?i)((?:\d+(?:\s+|\s*-\s*)\d+\s*/\s*\d+|\d+(?:\s*/\s*\d+)?)\s*(?:"|”|''|IN\b)\s*=\s*\d+\s*'\s*-?\s*\d*(?:\s*/\s*\d+)?\s*"?|\b1\s*:\s*\d+\b|\bN\.?\s*T\.?\s*S\.?\b|\bNOT TO SCALE\b|\bAS NOTED\b)`)
	// kinds in order of precedence: the first that matches a title wins.
	kinds = []struct {
		typ string
		re  *regexp.Regexp
	}{
		{"KeyNotes", regexp.MustCompile(`\bKEY(ED)?\s*NOTES?\b`)},
		{"GeneralNotes", regexp.MustCompile(`\bGENERAL\s+NOTES?\b|\bALLGEMEINE\s+HINWEISE\b|\bNOTES\s+G[ÉE]N[ÉE]RALES\b|\bNOTAS\s+GENERALES\b`)},
		{"SheetNotes", regexp.MustCompile(`\bSHEET\s+NOTES?\b`)},
		{"RevisionHistory", regexp.MustCompile(`\bREVISIONS?\b|\bREVISION\s+(HISTORY|INDEX)\b|\bÄNDERUNGS(INDEX|VERZEICHNIS)\b`)},
		{"Schedule", regexp.MustCompile(`\bSCHEDULES?\b|\bSHEET\s+INDEX\b|\bDRAWING\s+(INDEX|LIST)\b|\bINDEX\s+OF\s+(DRAWINGS|DOCUMENTS|SHEETS)\b|\bJADUAL\b|\bTABELLE\b|\bLISTE\b|機器表|一覧表|リスト`)},
		{"Legend", regexp.MustCompile(`\bLEGENDS?\b|\bSYMBOLS?\b|\bABBREVIATIONS\b|\bLEGENDE\b|\bZEICHENERKL[ÄA]RUNG\b|\bSYMBOLE\b|\bABK[ÜU]RZUNGEN\b|\bL[ÉE]GENDE\b|\bLEYENDA\b|\bSIMBOLOGIA\b|\bPETUNJUK\b|\bKEY\s+TO\b|^\s*KEY\s*:?\s*$|凡例`)},
		{"Image", regexp.MustCompile(`\bPERSPECTIVES?\b|\b(VICINITY|LOCATION|LOCALITY)\s+MAPS?\b|\bVIEWS?\s+FROM\b|\bRENDERINGS?\b|\bPHOTO(GRAPH)?S?\b|\bBIRD'?S?\s*EYE\b|\b3D\s+VIEW\b|\bVISUALI[SZ]ATION\b|\bPERSPEKTIVE\b|パース`)},
		{"Diagram", regexp.MustCompile(`\bDIAGRAM(MATIC|ATIC)?S?\b|\bRISERS?\b|\bONE[- ]LINE\b|\bSINGLE[- ]LINE\b|\bSCHEMATIC\b|\bSCHEMA\b|\bSTRANGSCHEMA\b|系統図|結線図`)},
		{"Elevation", regexp.MustCompile(`\bELEVATIONS?\b|\bANSICHTE?N?\b|\bFA[ÇC]ADES?\b|\bALZADOS?\b|\bPANDANGAN\b|立面図`)},
		{"Section", regexp.MustCompile(`\bSECTIONS?\b|\bSCHNITTE?\b|\bCOUPES?\b|\bCORTES?\b|\bKERATAN\b|断面図|矩計図`)},
		{"Detail", regexp.MustCompile(`\bDETAILS?\b|\bDETALLES?\b|\bD[ÉE]TAILS?\b|\bBUTIRAN\b|詳細図`)},
		{"Plan", regexp.MustCompile(`\bPLANS?\b|\bLAYOUT\b|\bGRUNDRISS\b|\bLAGEPLAN\b|\bDRAUFSICHT\b|\bPLANTA\b|\bPELAN\b|平面図|配置図|伏図`)},
		{"GeneralNotes", regexp.MustCompile(`\bNOTES?\b|\bREQUIREMENTS\b|\bHINWEISE?\b|\bANMERKUNGEN\b|\bNOTAS\b|\bREMARQUES\b|\bCATATAN\b|注記|特記事項`)},
	}
)

// slopeRE ends the text before a ratio that is a fall, not a scale
// ("LAID TO MIN FALL 1:60", "SLOPE 1:50").
var slopeRE = regexp.MustCompile(`(?i)\b(FALLS?|SLOPED?|SLOPING|GRADIENT|GRADE|PITCH|INCLINE)\s*(OF|AT|@)?\s*$`)

// findScale is where the first scale printed in s is ([start, end), nil
// when none): a ratio after a fall's or slope's word is none.
func findScale(s string) []int {
	up := strings.ToUpper(s)
	for _, loc := range scaleRE.FindAllStringIndex(up, -1) {
		if !slopeRE.MatchString(up[:loc[0]]) {
			return loc
		}
	}
	return nil
}

// qualifierRE splits a title at its first "TO" / "FOR": the words before
// are its head noun, those after qualify it ("REMARKS TO DOOR SCHEDULE",
// "GENERAL REQUIREMENTS FOR WINDOW SCHEDULE", "NOTES FOR FOUNDATION PLAN").
var (
	qualifierRE = regexp.MustCompile(`^(.*?\S)\s+(?:TO|FOR)\s+\S`)
	clauseRE    = regexp.MustCompile(`\s[-–—]\s|:\s*\S`)
)

// schematicModRE is "SCHEMATIC" qualifying a noun that is no diagram
// ("SCHEMATIC DRAWING", "SCHEMATIC DESIGN": a design stage, not a kind).
var remarksRE = regexp.MustCompile(`^\s*REMARKS\s+(TO|FOR|ON)\s+\S`)

var schematicModRE = regexp.MustCompile(`\bSCHEMATIC\s+(DRAWINGS?|DESIGN|LAYOUT)\b`)

// kindOf is the kind a title names: its head noun's kind, so that a kind
// word in a qualifier ("… TO DOOR SCHEDULE") names another block, not
// this one; "" when the head names none.
func kindOf(s string) string {
	s = strings.ToUpper(s)
	// "REMARKS TO DOOR SCHEDULE": the numbered notes a table's remarks
	// column refers to (a column headed REMARKS names no block)
	if remarksRE.MatchString(s) {
		return "KeyNotes"
	}
	// a title of two clauses ("EXTENSION TO REAR - GROUND FLOOR PLAN")
	// is named by its last, so only a single clause is split
	if m := qualifierRE.FindStringSubmatch(s); m != nil && !clauseRE.MatchString(s) {
		return headKind(m[1])
	}
	return headKind(s)
}

func headKind(s string) string {
	s = schematicModRE.ReplaceAllString(s, "$1")
	for _, k := range kinds {
		if k.re.MatchString(s) {
			return k.typ
		}
	}
	// a kind word misspelt by a letter or two swapped ("ELEVAITON")
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) < 6 {
			continue
		}
		for _, f := range fuzzyKinds {
			if w != f.word && editDistance(w, f.word) <= 1 {
				return f.typ
			}
		}
	}
	return ""
}

// fuzzyKinds are the kind words long enough to recognise misspelt.
var fuzzyKinds = []struct{ word, typ string }{
	{"ELEVATION", "Elevation"}, {"ELEVATIONS", "Elevation"}, {"SECTION", "Section"}, {"SECTIONS", "Section"},
	{"SCHEDULE", "Schedule"}, {"LEGEND", "Legend"}, {"DIAGRAM", "Diagram"}, {"DETAILS", "Detail"},
}

// editDistance is the Damerau–Levenshtein distance of a and b (adjacent
// letters swapped count one).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// sentenceLike reports whether a line naming a kind is a piece of running
// text, not a heading: in mixed case, it ends a sentence ("… to Engr's
// Detail.") or writes its kind word in small letters ("Manufr's and
// Engr's detail").
func sentenceLike(s string) bool {
	s = strings.TrimSpace(s)
	if strings.ToUpper(s) == s {
		return false // headings are set in capitals
	}
	if strings.HasSuffix(s, ".") {
		return true
	}
	for _, w := range strings.Fields(s) {
		if strings.ToLower(w) == w && headKind(strings.ToUpper(w)) != "" {
			return true
		}
	}
	return false
}

// continued is a title line joined with the line under it when the title
// ends with a connector ("ROOM FINISH LEGEND &" / "ABBREVIATIONS"): the
// next line of the same type size, starting within a line height of it.
func continued(t text.Line, ls []text.Line) string {
	txt := strings.TrimSpace(t.Text)
	up := strings.ToUpper(txt)
	if !(strings.HasSuffix(up, "&") || strings.HasSuffix(up, " AND") || strings.HasSuffix(up, "-") || strings.HasSuffix(up, ",")) {
		return txt
	}
	h := lineHeight(t)
	for _, l := range ls {
		dy := l.Box.YMin - t.Box.YMax
		if dy >= -0.2*h && dy < 0.8*h && math.Abs(l.Box.XMin-t.Box.XMin) < 1.5*h && math.Abs(lineHeight(l)-h) < 0.25*h && hasLetters(l.Text) {
			return txt + " " + strings.TrimSpace(l.Text)
		}
	}
	return txt
}

// classify types a region from its heading or title line.
// doubtfulLine reports a line OCR read with little confidence (a mean
// below minLineConf): the arcs of a revision cloud read as "Asa 7 PAA",
// taller than any heading, are no title.
func doubtfulLine(l text.Line) bool {
	sum := 0.0
	for _, w := range l.Words {
		if w.Conf <= 0 || w.Conf >= 1 {
			return false // a text layer's word (or one of unknown confidence)
		}
		sum += w.Conf
	}
	return len(l.Words) > 0 && sum < minLineConf*float64(len(l.Words))
}

// stretchedLine reports a line OCR read whose every word's box is
// stretched beyond its letters: over a rule it read into the word as a bar
// or an unmatched bracket ("|JANITOR'S", "[TEEN"), or, for a word of four
// capitals or digits or more, less than 0.35 of its height wide a
// character (capitals are 0.5–0.9 of their height wide, condensed ones
// included) over a mark beside it. Its height is no type size, and so it
// ranks no title.
func stretchedLine(l text.Line) bool {
	for _, w := range l.Words {
		if w.Conf <= 0 || w.Conf >= 1 {
			return false // a text layer's word
		}
		if !stretchedWord(w) {
			return false
		}
	}
	return len(l.Words) > 0
}

func stretchedWord(w text.Word) bool {
	t := strings.TrimSpace(w.Text)
	if strings.HasPrefix(t, "|") || strings.HasSuffix(t, "|") ||
		strings.Count(t, "[") != strings.Count(t, "]") {
		return true
	}
	n := len([]rune(t))
	caps := n >= 4 && strings.IndexFunc(t, func(r rune) bool { return !unicode.IsUpper(r) && !unicode.IsDigit(r) }) < 0
	return caps && w.Box.Width() < 0.35*float64(n)*w.Box.Height()
}

// verticalLine reports a line set on end (most of its words of three
// letters or more boxed taller than wide: a north arrow's "REFERENCE
// NORTH" along its shaft): its height is its length, no type size, and it
// titles no block.
func verticalLine(l text.Line) bool {
	n, up := 0, 0
	for _, w := range l.Words {
		if len([]rune(w.Text)) >= 3 {
			n++
			if w.Box.Height() > w.Box.Width() {
				up++
			}
		}
	}
	return n > 0 && 2*up > n
}

// centredOver reports a line centred over r (within a tenth of its width).
func centredOver(l text.Line, r rect) bool {
	return math.Abs((l.Box.XMin+l.Box.XMax)/2-float64(r.x0+r.x1)/2) < 0.1*float64(r.w())
}

// minLineConf: OCR's headings read at 0.73–0.97 a word, its readings of
// linework at 0.4–0.7.
const minLineConf = 0.6

func classify(r rect, words []text.Word, em float64) Block {
	ws := wordsIn(r, words)
	// lines by where the words are: a heading a text layer gives as two
	// lines ("KEY" "PLAN" set with wide tracking) is one
	ls := rowLines(ws)
	var blk Block
	// Title candidates: the largest-type lines, then the top line. Body
	// text (room names, descriptions) is smaller than headings.
	type cand struct {
		l     text.Line
		score float64
	}
	var cs []cand
	for _, l := range ls {
		if !hasLetters(l.Text) || doubtfulLine(l) || verticalLine(l) || stretchedLine(l) {
			continue
		}
		h := lineHeight(l)
		s := h / em
		// a centred heading naming a kind (a schedule's title row)
		centred := centredOver(l, r) && kindOf(l.Text) != ""
		if l.Box.YMin-float64(r.y0) < 3*em && (l.Box.XMin-float64(r.x0) < 3*em || centred) {
			s += 0.5 // heading at the top left, or centred at the top
		}
		cs = append(cs, cand{l, s})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	title := -1
	for i, c := range cs {
		if c.score < cs[0].score-0.35 { // only headline-sized lines
			break
		}
		// a heading names its block; a note pointing elsewhere ("TO LATER
		// DETAIL", "SEE SECTION 3") or a sentence does not
		if kindOf(c.l.Text) != "" && len(c.l.Words) <= 10 && !annotationRE.MatchString(c.l.Text) && !sentenceLike(c.l.Text) {
			title = i
			break
		}
	}
	// of lines of one size naming a kind, the topmost: a table's title
	// row over its column headers ("WINDOW SCHEDULE" over "… LAYOUT
	// REMARKS LOCATION"); lines of a title set close may touch
	// ("ROOM FINISH LEGEND &" over "ABBREVIATIONS")
	for j := title + 1; title >= 0 && j < len(cs) && cs[j].score >= cs[title].score-0.1; j++ {
		if c := cs[j]; c.l.Box.YMax <= cs[title].l.Box.YMin+0.2*lineHeight(c.l) && c.l.Box.YMin < cs[title].l.Box.YMin && kindOf(c.l.Text) != "" && len(c.l.Words) <= 10 && !annotationRE.MatchString(c.l.Text) && !sentenceLike(c.l.Text) {
			title = j
		}
	}
	if title >= 0 {
		blk.Title = continued(cs[title].l, ls)
		blk.Type = kindOf(blk.Title)
	} else {
		// untitled: by what it holds
		textArea := wordsArea(ws)
		// a heading at its top names a body of notes
		if len(cs) > 0 && cs[0].score >= 1.5 && len(cs[0].l.Words) <= 6 {
			blk.heading = cs[0].l.Text
		}
		if float64(r.area()) > 0 && textArea/float64(r.area()) > 0.12 {
			blk.Type, blk.Title = "GeneralNotes", blk.heading
		} else {
			blk.Type = "Plan"
		}
	}
	// scale nearest the title
	if title >= 0 {
		tb := cs[title].l.Box
		best := math.Inf(1)
		for _, l := range ls {
			loc := findScale(l.Text)
			if loc == nil {
				continue
			}
			d := boxDist(l.Box, tb)
			if d < best && d < 4*em {
				best = d
				blk.Scale = strings.TrimSpace(l.Text[loc[0]:loc[1]])
			}
		}
	}
	return blk
}

// wordsArea is the area the words' boxes cover, summed.
func wordsArea(ws []text.Word) float64 {
	a := 0.0
	for _, w := range ws {
		a += w.Box.Area()
	}
	return a
}

func lineHeight(l text.Line) float64 {
	hs := make([]float64, 0, len(l.Words))
	for _, w := range l.Words {
		hs = append(hs, w.Box.Height())
	}
	sort.Float64s(hs)
	return hs[len(hs)/2]
}

func hasLetters(s string) bool {
	n := 0
	for _, c := range s {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
			n++
		}
	}
	return n >= 3
}

// boxDist is the gap between two boxes (0 when they touch or overlap).
func boxDist(a, b geom.Box) float64 {
	dx := max(0, a.XMin-b.XMax, b.XMin-a.XMax)
	dy := max(0, a.YMin-b.YMax, b.YMin-a.YMax)
	return math.Hypot(dx, dy)
}

// kindOfScale types a view its title does not name by its scale: drawn at
// 1:24 or larger (1/2" = 1'-0", 1:20) it is a detail; else a plan.
func kindOfScale(scale string) string {
	if r := scaleRatio(scale); r > 0 && r <= 24 {
		return "Detail"
	}
	return "Plan"
}

// kindOfInches types a view by the left side of an imperial scale whose
// right side was not read: an architect's scale reads X" = 1'-0" (a
// detail at 1/2" or more: 1:24 or larger), an engineer's 1" = N' (a plan),
// so only a left side other than 1" tells; "" when it does not.
func kindOfInches(in float64) string {
	switch {
	case in <= 0 || in == 1:
		return ""
	case 12/in <= 24:
		return "Detail"
	}
	return "Plan"
}

var (
	imperialScaleRE = regexp.MustCompile(`(\d+)?\s*-?\s*(?:(\d+)\s*/\s*(\d+))?\s*(?:"|”|''|IN\b)\s*=\s*(\d+)\s*'`)
	metricScaleRE   = regexp.MustCompile(`\b1\s*:\s*(\d+)\b`)
)

// scaleRatio is the scale's ratio (48 for 1/4" = 1'-0", 100 for 1:100),
// 0 when it is not one.
func scaleRatio(scale string) float64 {
	if m := metricScaleRE.FindStringSubmatch(scale); m != nil {
		n, _ := strconv.Atoi(m[1])
		return float64(n)
	}
	m := imperialScaleRE.FindStringSubmatch(strings.ToUpper(scale))
	if m == nil {
		return 0
	}
	inches := 0.0
	if m[1] != "" {
		w, _ := strconv.Atoi(m[1])
		inches = float64(w)
	}
	if m[2] != "" {
		a, _ := strconv.Atoi(m[2])
		b, _ := strconv.Atoi(m[3])
		if b > 0 {
			inches += float64(a) / float64(b)
		}
	}
	feet, _ := strconv.Atoi(m[4])
	if inches <= 0 {
		return 0
	}
	return float64(feet) * 12 / inches
}
