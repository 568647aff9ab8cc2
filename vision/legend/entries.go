package legend

import (
	"image"
	"math"
	"regexp"
	"sort"
	"strings"
)

// Steps 3–5 of Parse (see the package comment): text runs stacked into
// blocks, headings and column headers dropped, and rows of graphics and
// text blocks made into entries.

// block is a text block: one run or several stacked lines.
type block struct {
	lines [][]int // runs, top to bottom
	r     image.Rectangle
	text  string
	lineH float64 // median-ish line height
}

// textBlocks makes the runs and stacks continuation lines into blocks.
func (p *page) textBlocks() []*block {
	runs := p.runs()
	rects := make([]image.Rectangle, len(runs))
	for i, r := range runs {
		rects[i] = p.runRect(r)
	}
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return rects[order[a]].Min.Y < rects[order[b]].Min.Y })
	// side finds what lies nearest on a run's line to its left (dir -1) or
	// right (+1): a run index, -2-component, or -1. A run may lie in the
	// next cell of a table (a tag column's tag beside its description), no
	// further; a component only in the run's own cell.
	side := func(i, dir int, comps bool) int {
		r := rects[i]
		best, bd := -1, math.MaxInt
		consider := func(o image.Rectangle, id int) {
			if vOverlap(o, r)*2 < min(o.Dy(), r.Dy()) {
				return
			}
			d := r.Min.X - o.Max.X
			if dir > 0 {
				d = o.Min.X - r.Max.X
			}
			if d < -p.px(0.2) || d >= bd || p.rulingsBetween(o, r) > 1 || dir > 0 && id >= 0 && p.graphicBetween(r, o) {
				return
			}
			best, bd = id, d
		}
		for j, o := range rects {
			if j != i {
				consider(o, j)
			}
		}
		if comps {
			for ci, c := range p.comps {
				if c.significant() && !p.rulingBetween(c.r, r) {
					consider(c.r, -2-ci)
				}
			}
		}
		return best
	}
	left := func(i int) int { return side(i, -1, true) }
	right := func(i int) int { return side(i, 1, false) }
	next := make([]int, len(runs)) // continuation line below, or -1
	prev := make([]int, len(runs))
	for i := range next {
		next[i], prev[i] = -1, -1
	}
	for _, i := range order {
		a := rects[i]
		for _, j := range order {
			b := rects[j]
			if j == i || prev[j] >= 0 || b.Min.Y <= a.Min.Y {
				continue
			}
			g := b.Min.Y - a.Max.Y
			if float64(g) > contGapEm*p.em || float64(g) < -0.4*float64(a.Dy()) {
				continue
			}
			if math.Abs(float64(b.Min.X-a.Min.X)) > 0.7*p.em || p.rulingAcross(a, b) {
				continue
			}
			// the same thing (or nothing) to the left: a description's next
			// line, not the next row of a list
			li, lj := left(i), left(j)
			if lj != -1 && lj != li && !(lj <= -2 && li <= -2 && p.sameGraphicish(-2-li, -2-lj)) && !p.namesCallout(a, b, li, lj) {
				continue
			}
			// and not two tags each followed by their own text
			ri, rj := right(i), right(j)
			if ri >= 0 && rj >= 0 {
				continue
			}
			// nor a line reaching over the text beside the one under it (a
			// note across the list, "(AS VIEWED FROM EXTERIOR)", over the
			// tag "L" of "L  HINGE ON LEFT"): a tag's column holds no such
			if ri < 0 && rj >= 0 && a.Max.X > rects[rj].Min.X {
				continue
			}
			next[i], prev[j] = j, i
			break
		}
	}
	var out []*block
	for _, i := range order {
		if prev[i] >= 0 {
			continue
		}
		b := &block{r: rects[i]}
		var hs []float64
		var parts []string
		for k := i; k >= 0; k = next[k] {
			b.lines = append(b.lines, runs[k])
			b.r = b.r.Union(rects[k])
			parts = append(parts, runText(p, runs[k]))
			hs = append(hs, float64(rects[k].Dy()))
		}
		sort.Float64s(hs)
		b.lineH = hs[len(hs)/2]
		b.text = strings.Join(parts, " ")
		out = append(out, b)
	}
	return out
}

// namesCallout reports whether run a, over run b, is the underlined name
// of a callout symbol whose leaders point at b (a section bubble's "CROSS
// SECTION" over the "SECTION NUMBER" and "SHEET NUMBER" its arrows name):
// a has nothing to its left, b a component (li, lj as side gives them)
// ending at its start.
func (p *page) namesCallout(a, b image.Rectangle, li, lj int) bool {
	return li == -1 && lj <= -2 && p.comps[-2-lj].r.Max.X >= b.Min.X-p.px(0.5) && p.underline(a) >= 0
}

// graphicBetween reports a significant component between a run and a
// run to its right, on its line: the other run is another entry's text
// (the next column of a legend), not the run's own.
func (p *page) graphicBetween(r, o image.Rectangle) bool {
	for _, c := range p.comps {
		if c.significant() && c.r.Min.X >= r.Max.X && c.r.Max.X <= o.Min.X && vOverlap(c.r, r) > 0 {
			return true
		}
	}
	return false
}

// sameGraphicish reports whether two components are of one graphic (to
// the left of both lines of a description).
func (p *page) sameGraphicish(a, b int) bool {
	if p.compGraphic != nil {
		return p.compGraphic[a] == p.compGraphic[b]
	}
	return a == b || gap(p.comps[a].r, p.comps[b].r) <= p.px(groupEm)
}

// rulingAcross reports a horizontal ruling between a run and the run
// below it.
func (p *page) rulingAcross(a, b image.Rectangle) bool {
	x := (max(a.Min.X, b.Min.X) + min(a.Max.X, b.Max.X)) / 2
	if x < 0 || x >= p.w {
		return false
	}
	// between the lines' middles: OCR's boxes may reach over a rule
	for y := max((a.Min.Y+a.Max.Y)/2, 0); y < min((b.Min.Y+b.Max.Y)/2, p.h); y++ {
		if p.ruling[y*p.w+x] {
			return true
		}
	}
	return false
}

// underline is the last row of the line drawn under run a as its
// underline (a thin straight line under its baseline, from about its start
// to about its end, over most of its width), or -1.
func (p *page) underline(a image.Rectangle) int {
	x, slack := (a.Min.X+a.Max.X)/2, p.px(0.6)
	if x < 0 || x >= p.w {
		return -1
	}
	for y := max(a.Max.Y-a.Dy()/4, 0); y < min(a.Max.Y+slack, p.h); y++ {
		if !p.ink[y*p.w+x] {
			continue
		}
		x0, x1 := x, x
		for x0 > 0 && p.ink[y*p.w+x0-1] {
			x0--
		}
		for x1 < p.w-1 && p.ink[y*p.w+x1+1] {
			x1++
		}
		if x0 < a.Min.X-slack || x1 > a.Max.X+slack || 10*(x1-x0) < 8*a.Dx() {
			continue // a letter's stroke, or a line running on past the run
		}
		last := y
		for last+1 < p.h && p.ink[(last+1)*p.w+x] {
			last++
		}
		if last-y > p.px(0.3) {
			return -1 // a bar, not a line
		}
		return last
	}
	return -1
}

var (
	// quantity is a text of numbers only: a count per type
	quantity  = regexp.MustCompile(`^[\d\s/,.&+-]+$`)
	headingRE = regexp.MustCompile(`\bLEGENDS?\b|\bLEGENDE\b|\bABBREVIATIONS?\b|^KEY\b|^SYMBOLS?( LIST)?:?$|ABKÜRZUNGEN|ZEICHENERKLÄRUNG`)
	// nameWord is a word that can name a symbol: letters and digits with
	// the punctuation of tags ("WP/GFI", "D.O.", "+42\"", "240v").
	nameWord   = regexp.MustCompile(`^[\p{L}\p{N}+(][\p{L}\p{N}/.,+\-"'#()]*$`)
	headerWord = map[string]bool{
		"SYMBOL": true, "SYMBOLS": true, "SYM": true, "TAG": true, "TAGS": true, "LABEL": true, "MARK": true,
		"DESCRIPTION": true, "DESC": true, "ABBREVIATION": true, "ABBREVIATIONS": true, "ABBR": true,
		"ITEM": true, "KEY": true, "TYPE": true, "NAME": true, "REMARKS": true, "MEANING": true,
		"DESIGNATION": true, "GRAPHIC": true, "CODE": true, "NOTES": true, "DEFINITION": true, "&": true, "/": true,
		"DESCRIPTIONS": true, "QTY": true, "QUANTITY": true, "UNITS": true, "TYP": true, "NO": true,
	}
)

// dropHeadings removes legend headings and column header rows.
func dropHeadings(blocks []*block, graphics []*graphic, em float64) []*block {
	var hs []float64
	for _, b := range blocks {
		hs = append(hs, b.lineH)
	}
	med := em
	if len(hs) > 0 {
		sort.Float64s(hs)
		med = hs[len(hs)/2]
	}
	graphicBeside := func(r image.Rectangle) bool {
		for _, g := range graphics {
			if vOverlap(g.r, r)*2 >= min(g.r.Dy(), r.Dy()) && g.r.Dy() >= r.Dy()/2 {
				return true
			}
		}
		return false
	}
	// column header rows: every block on the row made only of header words
	isHeaderText := func(s string) bool {
		f := strings.Fields(strings.ToUpper(s))
		for _, w := range f {
			if !headerWord[strings.Trim(w, ":.,()|")] {
				return false
			}
		}
		return len(f) > 0
	}
	drop := make([]bool, len(blocks))
	for i, b := range blocks {
		up := strings.ToUpper(b.text)
		if graphicBeside(b.r) {
			continue
		}
		if headingRE.MatchString(up) || b.lineH >= headingSize*med {
			drop[i] = true
			continue
		}
		if !isHeaderText(b.text) {
			continue
		}
		all := true
		for _, o := range blocks {
			if vOverlap(o.r, b.r)*2 >= min(o.r.Dy(), b.r.Dy()) && !isHeaderText(o.text) {
				all = false
				break
			}
		}
		if all {
			drop[i] = true
		}
	}
	var out []*block
	for i, b := range blocks {
		if !drop[i] {
			out = append(out, b)
		}
	}
	return out
}

// item is a graphic or a text block placed in a band.
type item struct {
	g *graphic
	b *block
	r image.Rectangle
}

// entries bands the items into rows and splits each row into entries.
func (p *page) entries(graphics []*graphic, blocks []*block) []Entry {
	var items []item
	for _, g := range connectorsDropped(graphics) {
		items = append(items, item{g: g, r: g.r})
	}
	for _, b := range blocks {
		items = append(items, item{b: b, r: b.r})
	}
	n := len(items)
	find, parent := unionFind(n)
	colStarts, span := sampleColumns(items)
	column := make([]int, n)
	for i, it := range items {
		column[i] = columnOf(it.r, colStarts, span)
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			ra, rb := items[a].r, items[b].r
			ov := vOverlap(ra, rb)
			if ov == 0 || column[a] >= 0 && column[b] >= 0 && column[a] != column[b] {
				continue
			}
			same := ov*2 >= min(ra.Dy(), rb.Dy())
			if !same && (items[a].g != nil) != (items[b].g != nil) {
				// a graphic's centre within a text block, or the reverse
				ca, cb := (ra.Min.Y+ra.Max.Y)/2, (rb.Min.Y+rb.Max.Y)/2
				same = (ca >= rb.Min.Y && ca < rb.Max.Y) || (cb >= ra.Min.Y && cb < ra.Max.Y)
			}
			if same && (p.rowRuleBeside(items[a], rb) || p.rowRuleBeside(items[b], ra) || p.rowsDiffer(ra, rb)) {
				// a text of several lines in one column of a table does
				// not join the rows of another column whose row rules cut
				// across its height (a two-line note beside two rows)
				same = false
			}
			if same {
				parent[find(a)] = find(b)
			}
		}
	}
	p.strayTags(items, find, parent)
	bands := map[int][]item{}
	var roots []int
	for i := range items {
		rt := find(i)
		if _, ok := bands[rt]; !ok {
			roots = append(roots, rt)
		}
		bands[rt] = append(bands[rt], items[i])
	}
	top := func(rt int) int {
		y := math.MaxInt
		for _, it := range bands[rt] {
			y = min(y, it.r.Min.Y)
		}
		return y
	}
	sort.SliceStable(roots, func(a, b int) bool { return top(roots[a]) < top(roots[b]) })
	// graphics lead their text (the usual) or close it: a legend whose rows
	// start with text and end with a graphic more often than they start
	// with one sets its graphics right of their text
	lead, trail := 0, 0
	var starts []int // where entries start, text first: a row's start, or just after a graphic
	for _, rt := range roots {
		row := bands[rt]
		sort.SliceStable(row, func(a, b int) bool { return row[a].r.Min.X < row[b].r.Min.X })
		switch {
		case row[0].g != nil:
			lead++
		case row[len(row)-1].g != nil:
			trail++
		}
		for i, it := range row {
			if it.g == nil && (i == 0 || row[i-1].g != nil) {
				starts = append(starts, it.r.Min.X)
			}
		}
	}
	if lead > trail {
		for _, rt := range roots {
			p.ocrGlyphLeads(bands[rt], bands, roots)
		}
	}
	// a text starting where other rows' entries start begins an entry (a
	// text-only entry before a graphic's entry on its row)
	startsEntry := func(x int) bool {
		for _, s := range starts {
			if abs(x-s) <= p.px(1) {
				return true
			}
		}
		return false
	}
	textCols := textColumns(bands, roots, p.px(1))
	var out []Entry
	var tags []namedBy // by entry: how its graphic names it
	for _, rt := range roots {
		row := bands[rt]
		var cur []item
		if textCols != nil && (textOnly(row) || p.termGraphics(row, textCols)) {
			es := p.textRowEntries(row, textCols)
			out = append(out, es...)
			tags = append(tags, make([]namedBy, len(es))...)
			continue
		}
		flush := func() {
			if e, tag, ok := p.entry(cur); ok {
				out = append(out, e)
				tags = append(tags, tag)
			}
			cur = nil
		}
		for _, it := range row {
			if trail > lead {
				// text, then the graphic that ends the entry
				if it.g == nil && len(cur) > 0 && startsEntry(it.r.Min.X) {
					flush()
				}
				cur = append(cur, it)
				if it.g != nil {
					flush()
				}
				continue
			}
			if it.g != nil {
				hasG, texts := false, 0
				for _, c := range cur {
					if c.g != nil {
						hasG = true
					} else {
						texts++
					}
				}
				if hasG || texts > 1 {
					flush()
				}
			}
			cur = append(cur, it)
		}
		flush()
	}
	numberedTags(out, tags)
	return out
}

// entry makes an Entry from a row's items: at most one graphic (several
// are joined) and its text blocks, left to right.
func (p *page) entry(items []item) (e Entry, tag namedBy, ok bool) {
	var g *graphic
	var texts []*block
	var box image.Rectangle
	for i, it := range items {
		if i == 0 {
			box = it.r
		} else {
			box = box.Union(it.r)
		}
		if it.g != nil {
			if g == nil {
				g = &graphic{r: it.g.r}
			}
			g.comps = append(g.comps, it.g.comps...)
			g.words = append(g.words, it.g.words...)
			g.r = g.r.Union(it.g.r)
		} else {
			texts = append(texts, it.b)
		}
	}
	if len(texts) == 0 || (g == nil && len(texts) < 2) {
		return Entry{}, namedBy{}, false
	}
	// "(m) = water meter": the text equates the graphic with its meaning,
	// which names the symbol (the letters drawn in it are its drawing)
	label, equated := strings.CutPrefix(texts[0].text, "=")
	label = strings.TrimSpace(label)
	if label == "" {
		return Entry{}, namedBy{}, false
	}
	e = Entry{Box: rectBox(box), Label: label}
	if t := texts[0]; g != nil && len(texts) == 1 && len(t.lines) > 1 && !equated && p.underline(p.runRect(t.lines[0])) >= 0 {
		// an underlined first line names the symbol the lines under it
		// annotate ("DETAIL CUT" over "DETAIL NUMBER", "SHEET NUMBER")
		e.Label, e.Description = runText(p, t.lines[0]), label
		e.HasGraphic = true
		e.Exemplar, e.Graphic = p.exemplar(g)
		return e, namedBy{}, true
	}
	var desc []string
	for _, t := range texts[1:] {
		// a column of quantities ("1", "1 / 4 / 2" units of each type) is
		// no description
		if g != nil && quantity.MatchString(t.text) {
			continue
		}
		desc = append(desc, strings.TrimSpace(strings.TrimPrefix(t.text, "=")))
	}
	e.Description = strings.Join(desc, " ")
	if g != nil {
		name, kind := p.graphicName(g)
		switch {
		case e.Description == "":
			e.Description = e.Label
			if equated {
				break
			}
			if kind == numberTag {
				tag = namedBy{kind, name, g.r} // numberedTags' to decide
			} else if name != "" {
				e.Label = name
				tag = namedBy{kind, name, g.r}
			}
		case kind == suffixName:
			// the name set after the symbol is its label, and the texts
			// beside it (a description, a note such as
			// "TAMPER-RESISTANT") describe it
			e.Description = e.Label + " " + e.Description
			e.Label = name
		}
		e.HasGraphic = true
		e.Exemplar, e.Graphic = p.exemplar(g)
	}
	return e, tag, true
}

// connectorsDropped leaves out the graphics that reach across the rows of
// other graphics: an arrow or bracket drawn from a note down several rows
// of a table ("TAMPER-RESISTANT" with its arrow) is no entry's symbol, and
// banded with the rows it crosses it would run them into one entry. A tall
// graphic beside several lines of its own text (a callout's "DETAIL CUT /
// DETAIL NUMBER / SHEET NUMBER") crosses no other graphic and stays; so
// does any graphic that is not slender (four times as tall as wide).
func connectorsDropped(graphics []*graphic) []*graphic {
	var out []*graphic
	for _, g := range graphics {
		if g.r.Dx()*4 >= g.r.Dy() {
			out = append(out, g)
			continue
		}
		var rows []image.Rectangle // other graphics centred within g's height, one per row
		for _, o := range graphics {
			cy := (o.r.Min.Y + o.r.Max.Y) / 2
			if o == g || o.r.Dy() >= g.r.Dy() || cy < g.r.Min.Y || cy >= g.r.Max.Y {
				continue
			}
			fresh := true
			for _, r := range rows {
				fresh = fresh && vOverlap(r, o.r) == 0
			}
			if fresh {
				rows = append(rows, o.r)
			}
		}
		if len(rows) < 2 {
			out = append(out, g)
		}
	}
	return out
}

// graphicName is the name a graphic carries in its own words, and how: a
// suffix set after the symbol in its cell (the "WP" of a waterproof
// socket, the "QUAD" of a quad receptacle), else the letters inside it
// (the "SD" in a smoke detector's circle). A tag with digits inside it
// ("101" in a door tag, "G2") is a numberTag: a sample number, which names
// no symbol unless the legend names its kind so (numberedTags). Words
// between the parts of a graphic (the "CPT" and "VCT" of a
// floor-transition mark) are part of its drawing.
func (p *page) graphicName(g *graphic) (name string, kind nameKind) {
	if len(g.comps) == 0 {
		return "", unnamed // a mark OCR read as a character
	}
	ink := p.comps[g.comps[0]].r
	for _, c := range g.comps {
		ink = ink.Union(p.comps[c].r)
	}
	var after, inside []int
	for _, wi := range g.words {
		r := p.wordRect(p.words[wi])
		switch {
		case !p.besideW[wi] || image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2).In(ink):
			inside = append(inside, wi)
		case r.Min.X >= ink.Max.X-p.px(0.2):
			after = append(after, wi)
		default:
			return "", unnamed
		}
	}
	ws, kind := after, suffixName
	if len(ws) == 0 {
		ws, kind = inside, insideName
		for _, wi := range inside {
			if strings.ContainsAny(p.words[wi].Text, "0123456789") {
				kind = numberTag
			}
		}
	}
	sort.Slice(ws, func(a, b int) bool { return p.words[ws[a]].Box.XMin < p.words[ws[b]].Box.XMin })
	var parts []string
	for _, wi := range ws {
		if !nameWord.MatchString(p.words[wi].Text) {
			return "", unnamed // OCR's reading of a mark ("‘S|"), not a name
		}
		parts = append(parts, p.words[wi].Text)
	}
	if len(parts) == 0 {
		return "", unnamed
	}
	return strings.Join(parts, " "), kind
}

// rowRuleBeside reports a horizontal ruling at the other item's middle,
// strictly within the item's height: the other item's row of the table is
// shorter than the item (a text block of several lines beside two rows),
// or the two sit in tables side by side whose rows are offset (a
// sub-table's row rule crosses the item's height), so their rows are not
// one.
func (p *page) rowRuleBeside(it item, other image.Rectangle) bool {
	x, d := (other.Min.X+other.Max.X)/2, p.px(0.5)
	if x-d < 0 || x+d >= p.w {
		return false
	}
	for y := max(it.r.Min.Y+p.px(0.25), 0); y < min(it.r.Max.Y-p.px(0.25), p.h); y++ {
		// horizontal: ruling on either side of x too (not a column rule)
		if i := y*p.w + x; p.ruling[i] && p.ruling[i-d] && p.ruling[i+d] {
			return true
		}
	}
	return false
}

// rowsDiffer reports two items whose table rows differ: the horizontal
// rulings nearest above (or below) each, found on both, are not the same
// line. Sub-tables set side by side in one legend ("DEVICES" beside
// "FIXTURE ABBREVIATIONS") have rows of their own, offset from each
// other; items of one row of one table share its rules.
func (p *page) rowsDiffer(a, b image.Rectangle) bool {
	tol := p.px(0.3)
	at, ab := p.rowRules(a)
	bt, bb := p.rowRules(b)
	return at >= 0 && bt >= 0 && abs(at-bt) > tol || ab >= 0 && bb >= 0 && abs(ab-bb) > tol
}

// rowRules finds the horizontal rulings just above and below r at its
// middle (-1 where none lies within r's height and an em of it).
func (p *page) rowRules(r image.Rectangle) (top, bottom int) {
	x, d := (r.Min.X+r.Max.X)/2, p.px(0.5)
	if x-d < 0 || x+d >= p.w {
		return -1, -1
	}
	horiz := func(y int) bool {
		i := y*p.w + x
		return p.ruling[i] && p.ruling[i-d] && p.ruling[i+d]
	}
	reach := r.Dy() + p.px(1)
	top, bottom = -1, -1
	for y := min(r.Min.Y+r.Dy()/4, p.h-1); y >= max(r.Min.Y-reach, 0); y-- {
		if horiz(y) {
			top = y
			break
		}
	}
	for y := max(r.Max.Y-r.Dy()/4, 0); y < min(r.Max.Y+reach, p.h); y++ {
		if horiz(y) {
			bottom = y
			break
		}
	}
	return top, bottom
}

// ocrGlyphLeads turns the first item of a row into its graphic when it is
// a lone character OCR read where the other rows have their symbols (a
// bell's mark read "h"), with the row's text after it: in a legend whose
// graphics lead their rows, that character is the row's symbol — unless
// it stands in a column of tags that are words.
func (p *page) ocrGlyphLeads(row []item, bands map[int][]item, roots []int) {
	if len(row) < 2 || row[0].b == nil || row[1].g != nil || len(row[0].b.lines) != 1 || len(row[0].b.lines[0]) != 1 {
		return
	}
	wi := row[0].b.lines[0][0]
	if w := p.words[wi]; w.Conf <= 0 || w.Conf >= 1 || len([]rune(w.Text)) != 1 {
		return
	}
	r := row[0].r
	// in a column of tags read as words (a finish legend's codes under its
	// symbols), the character is one more tag ("P" for paint)
	if n, _ := p.tagsAt(r.Min.X); n >= tagColumnN {
		leads := 0
		for _, rt := range roots {
			if o := bands[rt]; o[0].g != nil && abs(o[0].r.Min.X-r.Min.X) <= p.px(1) {
				leads++
			}
		}
		if n > leads {
			return
		}
	}
	for _, rt := range roots {
		if o := bands[rt]; o[0].g != nil && o[0].r.Min.X <= r.Max.X && r.Min.X <= o[0].r.Max.X {
			row[0] = item{g: &graphic{words: []int{wi}, r: r}, r: r}
			return
		}
	}
}
