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

// viewTitle is a drawn view's title as drawings print it: a line of
// headline type naming the view ("UPPER FLOOR PLAN", "SECTION A-A",
// "DETAIL 3"), with its scale on the line or under it, often underlined and
// led by a view-number bubble. Boxes are in mask pixels.
type viewTitle struct {
	line  text.Line
	bar   rect // the title with its bubble, underline and scale
	head  rect // the title's words and its bubble: where the title is across
	kind  string
	title string
	scale string
	// below: the title is printed under its view (the usual way); else
	// over it
	below bool
	// inches is the left side of an imperial scale OCR read only in part
	// ("Scale: 3\"" with "= 1'-0\"" lost), 0 when none
	inches float64
}

// viewTitles finds the view titles of the page: lines that name a view
// (or carry a scale) and are set apart as titles are — a scale under or
// beside them, an underline, a bubble or item number before them, type
// larger than the notes' — and are not a line of a paragraph.
func (p *Page) viewTitles() []viewTitle {
	em := p.em
	ls := p.atBubbles(rowLines(p.mw))
	var out []viewTitle
	for i, l := range ls {
		if len(l.Words) > 12 || !hasLetters(l.Text) || l.Box.Height() > 2.5*l.Box.Width() {
			continue
		}
		// a view number ringed by its bubble, or an item number ("2."),
		// leading the line is not part of the title
		var lead *text.Word
		// a bubble's glyph the text layer gives as a symbol ("@", "©")
		// before the number is no word of the title
		for len(l.Words) > 2 && !text.HasAlnum(l.Words[0].Text) {
			l = lineOf(l.Words[1:])
		}
		if len(l.Words) > 1 {
			if w := l.Words[0]; leadNumberRE.MatchString(strings.TrimLeftFunc(strings.TrimSpace(w.Text), isSymbol)) || ringRead(w) {
				lead = &l.Words[0]
				l = lineOf(l.Words[1:])
			}
		}
		lh := lineHeight(l)
		kind := kindOf(l.Text)
		if kind != "" && !viewKinds[kind] && kind != "Image" {
			continue // a notes', legend's or schedule's heading
		}
		var hasScale, underlined, bubbled bool
		inches := 0.0
		bar := rect{int(l.Box.XMin), int(l.Box.YMin), int(math.Ceil(l.Box.XMax)), int(math.Ceil(l.Box.YMax))}
		head := bar
		scale := ""
		if loc := findScale(l.Text); loc != nil {
			scale = strings.TrimSpace(l.Text[loc[0]:loc[1]])
			hasScale = true
		} else {
			// a scale line just under the title, starting near its start
			for j, o := range ls {
				if j == i || len(o.Words) > 8 {
					continue
				}
				loc, whole := findScale(o.Text), true
				if loc == nil {
					// OCR may lose the rest of a ratio ("Scale: 1\"" and
					// "1'-0\"" apart): the label and its first number
					// still mark the line as the title's scale, of
					// unknown value
					loc, whole = scaleLabelRE.FindStringIndex(o.Text), false
				}
				if loc == nil {
					continue
				}
				// where the scale's own words are (a bubble may share its row)
				sb := wordsBox(o, loc[0], loc[1])
				dy := sb.YMin - l.Box.YMax
				if dy < -0.2*lh || dy > 2.5*lh || sb.XMin > l.Box.XMin+12*lh || sb.XMax < l.Box.XMin-2*lh {
					continue
				}
				if whole {
					scale = strings.TrimSpace(o.Text[loc[0]:loc[1]])
				} else {
					inches = partInches(o.Text)
				}
				hasScale = true
				bar = bar.union(rect{int(o.Box.XMin), int(o.Box.YMin), int(math.Ceil(o.Box.XMax)), int(math.Ceil(o.Box.YMax))})
				break
			}
		}
		// an underline
		for _, s := range p.rules.h {
			if float64(s.pos) >= l.Box.YMax-1 && float64(s.pos) <= l.Box.YMax+0.9*lh &&
				float64(min(s.b, int(l.Box.XMax))-max(s.a, int(l.Box.XMin))) >= 0.6*l.Box.Width() {
				underlined = true
				bar = bar.union(rect{s.a, s.pos - 1, s.b, s.pos + 1})
				break
			}
		}
		// a view-number bubble (a number ringed by ink) or an item number
		// ("2.") just before it
		cands := p.mw
		if lead != nil {
			cands = []text.Word{*lead}
		}
		for _, w := range cands {
			t := strings.TrimLeftFunc(strings.TrimSpace(w.Text), isSymbol)
			if len(t) == 0 || len(t) > 5 || w.Box.XMax > l.Box.XMin || l.Box.XMin-w.Box.XMax > 4*lh ||
				math.Abs((w.Box.YMin+w.Box.YMax)/2-(l.Box.YMin+l.Box.YMax)/2) > 1.5*lh ||
				strings.IndexAny(t, "0123456789") < 0 {
				continue
			}
			item := itemNumberRE.MatchString(t) && l.Box.XMin-w.Box.XMax < 1.5*lh
			g := int(0.8 * lh)
			around := rect{int(w.Box.XMin) - g, int(w.Box.YMin) - g, int(math.Ceil(w.Box.XMax)) + g, int(math.Ceil(w.Box.YMax)) + g}
			if !item && !p.ringed(w.Box, lh) && !ringRead(w) {
				continue
			}
			bubbled = true
			bar = bar.union(around)
			head = head.union(around)
			break
		}
		big := lh >= 1.25*em
		if p.inParagraph(l, ls, lh) || annotationRE.MatchString(l.Text) {
			continue
		}
		// a title names its view and is set apart as one: by its scale, or
		// by headline type with an underline or a bubble, or by both of
		// those; one without a kind word needs a scale and words of its own
		named := kind != "" && (hasScale || big && (underlined || bubbled) || underlined && bubbled)
		unnamed := kind == "" && hasScale && (big || underlined || bubbled) &&
			letterCount(scaleWordRE.ReplaceAllString(scaleRE.ReplaceAllString(l.Text, ""), "")) >= 4
		traceTitle(l.Text, kind, hasScale, big, underlined, bubbled)
		if !named && !unnamed {
			continue
		}
		if p.tbOK && rectContains(p.tb, bar) {
			continue // the sheet's title in the title block
		}
		title := strings.TrimSpace(l.Text)
		if scale != "" && strings.Contains(title, scale) {
			title = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(strings.Replace(title, scale, "", 1)), ":"))
			title = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(title), "SCALE"))
			title = strings.TrimRight(strings.TrimSpace(strings.TrimSuffix(title, "Scale")), ":")
		}
		vt := viewTitle{line: l, bar: bar, head: head, kind: kind, title: strings.TrimSpace(title), scale: scale, inches: inches}
		// printed under its view unless nothing is drawn over it and
		// something under it
		vt.below = !(p.inkAbove(vt.bar, lh)*20 < p.inkBelow(vt.bar, lh))
		out = append(out, vt)
	}
	// a sheet titles its views one way: where most titles stand under
	// their views, one with nothing drawn just over it (its view's
	// dimensions end well above it) and the next row's view close under
	// it is under its view too
	under := 0
	for _, t := range out {
		if t.below {
			under++
		}
	}
	if 3*under >= 2*len(out) {
		for i := range out {
			out[i].below = true
		}
	}
	return out
}

// inParagraph reports whether l is a line of running text: a line of a
// like type size and three or more words directly above or under it, in
// its column.
func (p *Page) inParagraph(l text.Line, ls []text.Line, lh float64) bool {
	for _, o := range ls {
		if o.Box != l.Box && len(o.Words) >= 3 && nextLines(l, o, lh) {
			return true
		}
	}
	return false
}

// continuesLine reports whether l goes on from a line of text just over it,
// as a paragraph's lines follow each other: a note broken over lines
// ("PICTOGRAMS; / SYMBOL OF / ACCESSIBILITY" at a leader) and not a heading,
// which stands clear of the text before it.
func continuesLine(l text.Line, ls []text.Line, lh float64) bool {
	for _, o := range ls {
		if o.Box != l.Box && o.Box.YMin < l.Box.YMin && hasLetters(o.Text) && nextLines(l, o, lh) {
			return true
		}
	}
	return false
}

// nextLines reports whether lines l and o (l's line height lh) follow each
// other in a paragraph: type of about one size, set at a line's spacing,
// starting together.
func nextLines(l, o text.Line, lh float64) bool {
	oh := lineHeight(o)
	if oh < 0.75*lh || oh > 1.33*lh {
		return false
	}
	gap := math.Max(o.Box.YMin-l.Box.YMax, l.Box.YMin-o.Box.YMax)
	return gap >= -0.3*lh && gap <= 0.8*lh && math.Abs(o.Box.XMin-l.Box.XMin) < 2*lh
}

// inkAbove and inkBelow count the dark linework (not lettering) in a band
// four lines high over and under a title bar, from its left to well beyond
// its right (a view spreads right of its title).
func (p *Page) inkAbove(b rect, lh float64) int {
	h := int(4 * lh)
	return p.graphics().count(rect{b.x0 - int(2*lh), b.y0 - h, b.x1 + int(10*lh), b.y0 - 1})
}

func (p *Page) inkBelow(b rect, lh float64) int {
	h := int(4 * lh)
	return p.graphics().count(rect{b.x0 - int(2*lh), b.y1 + 1, b.x1 + int(10*lh), b.y1 + h})
}

// graphics is the dark mask less the words' boxes: the page's linework.
func (p *Page) graphics() *mask {
	if p.gfx == nil {
		p.gfx = p.dark.lessWords(p.mw)
	}
	return p.gfx
}

// allGraphics is the whole ink mask less the words' boxes: linework, faint
// frames and backgrounds included.
func (p *Page) allGraphics() *mask {
	if p.agfx == nil {
		p.agfx = p.m.lessWords(p.mw)
	}
	return p.agfx
}

// lessWords is a copy of m without the insides of words' boxes (a pixel
// in, so that a frame line a word touches stays whole).
func (m *mask) lessWords(words []text.Word) *mask {
	g := m.clone()
	for _, w := range words {
		g.clearRect(rect{int(w.Box.XMin) + 1, int(w.Box.YMin) + 1, int(math.Ceil(w.Box.XMax)) - 1, int(math.Ceil(w.Box.YMax)) - 1})
	}
	return g
}

// ringed reports whether ink surrounds b on all four sides within a line's
// height: the circle or box of a view-number bubble around its number.
func (p *Page) ringed(b geom.Box, lh float64) bool {
	g := p.graphics()
	cx, cy := int((b.XMin+b.XMax)/2), int((b.YMin+b.YMax)/2)
	d, hw := int(math.Ceil(1.3*lh)), max(int(0.5*lh), 1)
	x0, y0, x1, y1 := int(b.XMin), int(b.YMin), int(math.Ceil(b.XMax)), int(math.Ceil(b.YMax))
	return g.count(rect{x0 - d, cy - hw, x0, cy + hw}) > 0 && g.count(rect{x1, cy - hw, x1 + d, cy + hw}) > 0 &&
		g.count(rect{cx - hw, y0 - d, cx + hw, y0}) > 0 && g.count(rect{cx - hw, y1, cx + hw, y1 + d}) > 0
}

// annotationRE is a note pointing elsewhere ("SEE DETAIL 3", "TO LATER
// DETAIL", "REFER TO SECTION"), not a view's title.
var annotationRE = regexp.MustCompile(`(?i)^(to|see|refer|as|per|for|with|by|on|in|from|at|and|or|the)\b|\b(see|refer)\b`)

// scaleWordRE is the word a scale is labelled with.
var scaleWordRE = regexp.MustCompile(`(?i)\b(scale|maßstab|massstab|masstab|échelle|escala|scala|schaal|skala|ukuran|縮尺)\b`)

// scaleLabelRE is a scale's label and the first number of its ratio.
var scaleLabelRE = regexp.MustCompile(`(?i)\b(scale|maßstab|massstab|masstab|échelle|escala|scala|schaal|skala)\s*:\s*\d`)

// scalePartRE is a scale's label and the left side of an imperial ratio
// in inches ("Scale: 3\"", "SCALE: 1 1/2\"").
var scalePartRE = regexp.MustCompile(`(?i)\bscale\s*:\s*(?:(\d+)\s+)?(?:(\d+)\s*/\s*(\d+)|(\d+))\s*(?:"|”|'')`)

// partInches is the inches of the imperial scale s reads in part (0 when
// none).
func partInches(s string) float64 {
	m := scalePartRE.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	atoi := func(t string) float64 {
		n, _ := strconv.Atoi(t)
		return float64(n)
	}
	in := atoi(m[1]) + atoi(m[4])
	if d := atoi(m[3]); d > 0 {
		in += atoi(m[2]) / d
	}
	return in
}

// leadNumberRE is a view or item number leading a title's line.
var leadNumberRE = regexp.MustCompile(`^[A-Z]?\d{1,3}[.)]?$`)

// ringReadRE is a view number whose bubble OCR read into it: as brackets
// around it ("(3>", "(2»", "<10)"; "(10" when the ring's right half is
// lost) or as a symbol and a letter or two before it ("@o6."): the ring's
// own evidence, where ringed finds none outside the word's box because the
// box holds the ring.
var ringReadRE = regexp.MustCompile(`^[(\[{<«‹@©®][^\d\s]{0,2}[A-Z]?\d{1,3}\s*[.)\]}>»›]?$`)

// ringRead reports a word OCR read as a view number with its bubble's ring
// (ringReadRE); a text layer's "(3)" is a note's reference, not a ring.
func ringRead(w text.Word) bool {
	return w.Conf > 0 && w.Conf < 1 && ringReadRE.MatchString(w.Text)
}

// itemNumberRE is a title's item number ("2.", "12)").
var itemNumberRE = regexp.MustCompile(`^\d{1,2}[.)]$`)

func rectContains(outer, inner rect) bool {
	cx, cy := (inner.x0+inner.x1)/2, (inner.y0+inner.y1)/2
	return cx >= outer.x0 && cx < outer.x1 && cy >= outer.y0 && cy < outer.y1
}

// isSymbol is a rune that is neither a letter, a digit nor a space: a
// bubble's glyph read into its number ("@5.").
func isSymbol(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r) }

func letterCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// count is the number of inked pixels of r (clipped to the mask).
func (m *mask) count(r rect) int {
	r = rect{max(r.x0, 0), max(r.y0, 0), min(r.x1, m.w), min(r.y1, m.h)}
	if r.empty() {
		return 0
	}
	n := 0
	for y := r.y0; y < r.y1; y++ {
		for _, v := range m.ink[y*m.w+r.x0 : y*m.w+r.x1] {
			if v {
				n++
			}
		}
	}
	return n
}

// titlesIn are the titles whose bars' centres lie in r.
func titlesIn(r rect, ts []viewTitle) []viewTitle {
	var out []viewTitle
	for _, t := range ts {
		cx, cy := (t.bar.x0+t.bar.x1)/2, (t.bar.y0+t.bar.y1)/2
		if cx >= r.x0 && cx < r.x1 && cy >= r.y0 && cy < r.y1 {
			out = append(out, t)
		}
	}
	return out
}

// splitViews cuts r, which holds several view titles, into one part per
// view: recursively along the straight line — across under a row of titles
// printed under their views (over them when printed over), or down beside a
// column of titles — that crosses the least dark ink, until each part holds
// one title. Parts are trimmed to their ink.
func (p *Page) splitViews(m *mask, r rect, ts []viewTitle) []rect {
	r = m.bbox(r)
	if r.empty() {
		return nil
	}
	if len(ts) < 2 {
		return []rect{r}
	}
	type cut struct {
		horiz bool
		at    int
		cost  float64
	}
	best := cut{cost: math.Inf(1)}
	// across: titles above the line and titles below it
	byY := append([]viewTitle(nil), ts...)
	sort.Slice(byY, func(i, j int) bool { return byY[i].bar.y1 < byY[j].bar.y1 })
	for i := 0; i+1 < len(byY); i++ {
		u := byY[i].bar.y1
		l := math.MaxInt
		for _, t := range byY[i+1:] {
			l = min(l, t.bar.y0)
		}
		for _, t := range byY[:i+1] {
			u = max(u, t.bar.y1)
		}
		if l <= u+1 {
			continue
		}
		below := 0
		for _, t := range ts {
			if t.below {
				below++
			}
		}
		// under titles printed below their views, the cut follows the upper
		// titles; over titles printed above, it precedes the lower ones
		lo, hi := u+1, u+1+(l-u)/2
		if 2*below < len(ts) {
			lo, hi = l-1-(l-u)/2, l-1
		}
		at, ink := m.minRow(r, lo, hi, 2*below >= len(ts))
		c := float64(ink) / float64(r.w())
		if 2*below >= len(ts) {
			// a view ends at its title bar: the cut (ranked by the least
			// ink of its band) is the first row under the bars crossing
			// little more ink than the least — a drawing of the row below
			// may start right under the bars
			for y := lo; y < at; y++ {
				if n := m.count(rect{r.x0, y, r.x1, y + 1}); n <= 2*ink+r.w()/100 {
					at = y
					break
				}
			}
		}
		if c < best.cost && !partsTitle(m, at, byY[i+1:]) {
			best = cut{true, at, c}
		}
	}
	// down: titles left of the line and titles right of it
	byX := append([]viewTitle(nil), ts...)
	sort.Slice(byX, func(i, j int) bool { return byX[i].head.x0 < byX[j].head.x0 })
	for i := 0; i+1 < len(byX); i++ {
		lx := 0
		for _, t := range byX[:i+1] {
			lx = max(lx, t.head.x1)
		}
		rx := math.MaxInt
		for _, t := range byX[i+1:] {
			rx = min(rx, t.head.x0)
		}
		if rx <= lx+1 {
			continue
		}
		// not through a title's underline (it spans its view)
		var bars [][2]int
		g := max(3, int(p.em))
		for _, t := range ts {
			bars = append(bars, [2]int{t.bar.x0 + g, t.bar.x1 - g})
		}
		at, ink := m.minCol(r, lx+1, rx-1, bars)
		if at < 0 {
			continue
		}
		if c := float64(ink) / float64(r.h()); c < best.cost {
			best = cut{false, at, c}
		}
	}
	if math.IsInf(best.cost, 1) {
		return []rect{r}
	}
	traceCut(r, best.horiz, best.at, best.cost, len(ts))
	var a, b rect
	if best.horiz {
		a, b = rect{r.x0, r.y0, r.x1, best.at}, rect{r.x0, best.at + 1, r.x1, r.y1}
	} else {
		a, b = rect{r.x0, r.y0, best.at, r.y1}, rect{best.at + 1, r.y0, r.x1, r.y1}
	}
	return append(p.splitViews(m, a, titlesIn(a, ts)), p.splitViews(m, b, titlesIn(b, ts))...)
}

// partsTitle reports whether a cut across at row y parts one of the titles
// under it from its view: a title printed under its view with no ink
// between the cut and its bar has its view above the cut (a tall view
// beside a row of shorter ones, its title level with their notes).
func partsTitle(m *mask, y int, under []viewTitle) bool {
	for _, t := range under {
		if t.below && m.count(rect{t.bar.x0, y + 1, t.bar.x1, t.bar.y0}) <= t.bar.w()/10 {
			return true
		}
	}
	return false
}

// minRow is the row of [lo, hi] within r's columns with the least ink, the
// first such (last when !first), and its ink.
func (m *mask) minRow(r rect, lo, hi int, first bool) (int, int) {
	lo, hi = max(lo, r.y0), min(hi, r.y1-1)
	at, best := lo, math.MaxInt
	for y := lo; y <= hi; y++ {
		n := m.count(rect{r.x0, y, r.x1, y + 1})
		if n < best || n == best && !first {
			at, best = y, n
		}
	}
	return at, best
}

// minCol is the column of [lo, hi] within r's rows, outside the intervals
// not, with the least ink — the last such (nearest the right-hand titles,
// whose views start just left of them) — and its ink; -1 when none.
func (m *mask) minCol(r rect, lo, hi int, not [][2]int) (int, int) {
	lo, hi = max(lo, r.x0), min(hi, r.x1-1)
	at, best := -1, math.MaxInt
cols:
	for x := hi; x >= lo; x-- {
		for _, iv := range not {
			if x > iv[0] && x < iv[1] {
				continue cols
			}
		}
		n := 0
		for y := r.y0; y < r.y1; y++ {
			if m.ink[y*m.w+x] {
				n++
			}
		}
		if n < best {
			at, best = x, n
		}
	}
	return at, best
}

// splitGaps splits lines at gaps of more than two and a half type heights:
// a text layer may join the titles of views side by side into one line.
func splitGaps(ls []text.Line) []text.Line {
	var out []text.Line
	for _, l := range ls {
		h := lineHeight(l)
		if l.Box.Width() >= l.Box.Height() {
			// a text layer's line may hold words out of order (a bubble's
			// number met between two words of a scale)
			l.Words = append([]text.Word(nil), l.Words...)
			sort.SliceStable(l.Words, func(i, j int) bool { return l.Words[i].Box.XMin < l.Words[j].Box.XMin })
		}
		start := 0
		for i := 1; i <= len(l.Words); i++ {
			if i < len(l.Words) {
				a, b := l.Words[i-1].Box, l.Words[i].Box
				if b.XMin-a.XMax <= 2.5*h && a.XMin-b.XMax <= 2.5*h {
					continue
				}
			}
			out = append(out, lineOf(l.Words[start:i]))
			start = i
		}
	}
	return out
}

// lineOf is a line made of words.
func lineOf(ws []text.Word) text.Line {
	l := text.Line{Box: ws[0].Box, Words: ws}
	for i, w := range ws {
		if i > 0 {
			l.Text += " "
			l.Box = l.Box.Union(w.Box)
		}
		l.Text += w.Text
	}
	return l
}

var (
	traceTitle = func(string, string, ...bool) {}
	traceCut   = func(rect, bool, int, float64, int) {}
)

// rowLines groups words into lines by where they are, not by the order a
// text layer gives (which may join the titles of views side by side, or
// put a bubble's number between two words of a scale): a word joins the
// line ending just before it on its row (overlapping it by half a height,
// within a gap of a type height and a half). Lines set sideways keep the
// text layer's grouping.
func rowLines(words []text.Word) []text.Line {
	var flat, sideways []text.Word
	for _, w := range words {
		if w.Box.Height() > 2*w.Box.Width() && len([]rune(w.Text)) >= 2 {
			sideways = append(sideways, w)
		} else {
			flat = append(flat, w)
		}
	}
	sort.SliceStable(flat, func(i, j int) bool { return flat[i].Box.XMin < flat[j].Box.XMin })
	var rows [][]text.Word
	for _, w := range flat {
		h := w.Box.Height()
		best, bestGap := -1, math.Inf(1)
		for i, r := range rows {
			last := r[len(r)-1]
			gap := w.Box.XMin - last.Box.XMax
			ov := math.Min(w.Box.YMax, last.Box.YMax) - math.Max(w.Box.YMin, last.Box.YMin)
			lh := math.Max(h, last.Box.Height())
			if gap < -0.3*lh || gap > 2.5*lh || ov < 0.5*math.Min(h, last.Box.Height()) || h > 1.6*last.Box.Height() || last.Box.Height() > 1.6*h {
				continue
			}
			if gap < bestGap {
				best, bestGap = i, gap
			}
		}
		if best < 0 {
			rows = append(rows, []text.Word{w})
			continue
		}
		rows[best] = append(rows[best], w)
	}
	out := make([]text.Line, 0, len(rows))
	for _, r := range rows {
		out = append(out, lineOf(r))
	}
	return append(out, text.Lines(sideways)...)
}

// atBubbles splits lines before a view number ringed by its bubble: the
// titles of two views side by side may run into one line. A bubble OCR
// read as a doubtful word standing apart between two titles ("THRESHOLD
// an WINDOW- SILL", the bubble "1 / A4.2" read "an") is a line of its own.
func (p *Page) atBubbles(ls []text.Line) []text.Line {
	var out []text.Line
	for _, l := range ls {
		start := 0
		lh := lineHeight(l)
		cut := func(end int) {
			if end > start {
				out = append(out, lineOf(l.Words[start:end]))
			}
			start = end
		}
		for i := 1; i < len(l.Words); i++ {
			w := l.Words[i]
			if apartMisread(l.Words, i, lh) {
				cut(i)
				cut(i + 1)
				continue
			}
			if leadNumberRE.MatchString(strings.TrimSpace(w.Text)) && p.ringed(w.Box, lh) || ringRead(w) {
				cut(i)
			}
		}
		cut(len(l.Words))
	}
	return out
}

// apartMisread reports the word ws[i] of a line, OCR doubting it (under
// half sure), set apart from the words on both sides of it by most of a
// line height: a mark read as letters between two runs of text, not a
// word of either.
func apartMisread(ws []text.Word, i int, lh float64) bool {
	w := ws[i]
	if w.Conf <= 0 || w.Conf >= 0.5 || i == 0 || i+1 >= len(ws) {
		return false
	}
	return w.Box.XMin-ws[i-1].Box.XMax >= 0.8*lh && ws[i+1].Box.XMin-w.Box.XMax >= 0.8*lh
}

// wordsBox is the box of the words of l that the text span [a, b) of
// l.Text covers (words joined by single spaces).
func wordsBox(l text.Line, a, b int) geom.Box {
	var box geom.Box
	pos := 0
	for _, w := range l.Words {
		end := pos + len(w.Text)
		if end > a && pos < b {
			if !box.Valid() {
				box = w.Box
			} else {
				box = box.Union(w.Box)
			}
		}
		pos = end + 1
	}
	if !box.Valid() {
		return l.Box
	}
	return box
}

// joinOverlapping merges unframed regions that hold the same view title:
// parts of one view the cut parted (a detail's notes and title, cut off
// under its drawing by a cut across the sheet) that the merges before put
// back beside its drawing on one side only, so that two regions now
// overlap over the title. A frame, a table's box and the title block keep
// theirs.
func joinOverlapping(rs []region, titles []viewTitle) []region {
	shared := func(a, b rect) bool {
		for _, t := range titlesIn(a, titles) {
			if len(titlesIn(b, []viewTitle{t})) == 1 {
				return true
			}
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(rs) && !changed; i++ {
			for j := i + 1; j < len(rs); j++ {
				a, b := rs[i], rs[j]
				if a.tb || b.tb || a.framed || b.framed || a.boxed || b.boxed || a.note || b.note || !shared(a.r, b.r) {
					continue
				}
				rs[i].r = a.r.union(b.r)
				rs = append(rs[:j], rs[j+1:]...)
				changed = true
				break
			}
		}
	}
	return rs
}
