// Package legend reads a legend block: its entries, each a label, a
// description and (unless the entry is text only) a symbol graphic.
//
// Parse works on the block's grey image and its words (text layer or OCR),
// with every length measured in "em", the median word height, so the same
// rules hold at every resolution. Steps:
//
//  1. ink is everything darker than inkLevel; table rulings are removed: long
//     horizontal and vertical lines (at least rulingEm and rulingFrac of the
//     block) and the shorter cell dividers whose two ends meet other rulings
//     (not a symbol's hatch drawn from rule to rule: three or more close
//     parallel strokes);
//  2. the ink outside word boxes falls into connected components (slivers
//     of glyphs poking out of their word's box are ignored); a word
//     inside a component's box (the "S3" in a switch's square, the "AF10" in a
//     keynote hexagon), or a short run of at most two words touching one
//     (the "CPT" at the end of an arrow) with more text further along its
//     row, belongs to the graphic, not to the entry's text. Words that are
//     not text are left out first: OCR's readings of marks (ocrNoise) and
//     a text layer's symbol-font glyphs, one or two letters in a box far
//     wider than they need (a switch's stroked "S"). A short run set
//     directly over or under a sample, within its width, with the entry's
//     text beside the sample (a "DD 50/20" tag, a level marker's "+4,37"),
//     is the sample's inscription and part of its graphic;
//  3. components closer than groupEm are one graphic, except parts set one
//     over the other that each have a line of text of their own beside
//     them (a column of swatches); the remaining words
//     make text runs (words on one line closer than runGapEm), and a run
//     directly below another, left-aligned and with the same thing (or
//     nothing) to its left, continues it (multi-line descriptions); a text
//     in the next cell of a table counts as beside it, so a tag column's
//     lines and a description column's lines stay apart;
//  4. headings (a run naming a legend or abbreviations, or one in a much
//     larger font) and column header rows (every word a header word such
//     as SYMBOL, TAG, DESCRIPTION) are dropped;
//  5. graphics and text blocks that overlap vertically make a band (a
//     legend row); a band read left to right splits into entries at each
//     graphic, so a grid of "graphic | text | graphic | text" cells gives
//     two entries, and a label column before the graphic stays with it.
//     A slender graphic reaching across the rows of other graphics (a
//     note's arrow down a table) is no entry's, and a text of several
//     lines does not join rows of another column whose row rules cut
//     across it. Text-only rows of a list set in several term/meaning
//     column pairs split at the pairs' shared left edges. Columns of
//     samples set side by side, each with its texts to its right, band
//     apart where they stand beside each other;
//  6. an entry's first text block is its Label and the rest its
//     Description. With a single text block beside a graphic, Label and
//     Description are both that text (the legend names the symbol only by
//     its description), unless the graphic carries a name of its own: a
//     suffix after the symbol in its cell ("WP") or letters inside it
//     ("SD"; a sample tag with digits such as "101" is no name). A row of
//     text without a graphic is a text-only entry when it has at least two
//     blocks (tag and meaning); a lone run
//     (a note, a sub-heading) and a graphic with no text are not entries.
//     A text led by "=" equates the graphic with it (the "=" is dropped);
//     a column of bare quantities is no description; "TERM = meaning"
//     lines beside a graphic give an entry per term, each with it.
//
// Entries are returned row by row, top to bottom and left to right.
package legend

import (
	"image"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Entry is one legend row.
type Entry struct {
	Label       string
	Description string
	HasGraphic  bool
	// Graphic is the symbol's tight box in block pixels (zero without a graphic).
	Graphic geom.Box
	// Box is the whole entry (graphic and text) in block pixels.
	Box geom.Box
	// Exemplar is the graphic cropped tightly, background white (nil without a graphic).
	Exemplar *image.Gray
}

const (
	inkLevel    = 160  // grey below this is ink
	rulingEm    = 4.0  // a long ruling is at least this many em…
	rulingFrac  = 0.4  // …and this fraction of the block's width (height)
	dividerEm   = 1.2  // a cell divider between two rulings is at least this long
	groupEm     = 0.5  // components this close are one graphic
	attachEm    = 0.8  // a short run this close to a component is part of the graphic
	runGapEm    = 1.0  // words on a line closer than this are one run
	contGapEm   = 0.8  // a continuation line starts within this below the previous one
	headingSize = 1.35 // a run this much taller than the median is a heading
	maxSymbolEm = 12.0 // a component enclosing words is at most this big
	inscribeEm  = 0.3  // a sample's tag is set at most this far over or under it
)

// Parse reads the entries of a legend block from its image and its words
// (in block pixels, the origin at the image's top-left corner), in
// reading order.
func Parse(img *image.Gray, words []text.Word) []Entry {
	return ParseWith(img, words, Options{})
}

func parse(img *image.Gray, words []text.Word) []Entry {
	p := newPage(img, ocrNoise(img, words))
	p.findRulings()
	p.findComponents()
	p.classifyWords()
	graphics := p.lettered(p.groupGraphics())
	blocks := p.textBlocks()
	blocks = dropHeadings(blocks, graphics, p.em)
	return splitAbbreviations(p.entries(graphics, blocks), p.words)
}

// page is the working state of one Parse.
type page struct {
	img      *image.Gray
	w, h     int
	em       float64
	ink      []bool
	ruling   []bool
	inWord   []bool // inside a (text) word's box
	label    []int32
	comps    []comp
	words    []text.Word
	graphicW []bool // words[i] is part of a graphic
	wordComp []int  // component a graphic word belongs to (-1: none)
	besideW  []bool // a graphic word set beside its component, not inside it
	// compGraphic is the graphic a component belongs to (its group's
	// root component; set by groupGraphics)
	compGraphic []int
}

// comp is a connected component of non-text ink.
type comp struct {
	r       image.Rectangle
	n       int
	remnant bool // a bit of a glyph outside its word's box
}

func newPage(img *image.Gray, words []text.Word) *page {
	b := img.Bounds()
	p := &page{img: img, w: b.Dx(), h: b.Dy(), words: words}
	p.ink = make([]bool, p.w*p.h)
	for y := 0; y < p.h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+p.w]
		for x, v := range row {
			p.ink[y*p.w+x] = v < inkLevel
		}
	}
	p.words = slices.DeleteFunc(slices.Clone(words), func(w text.Word) bool { return p.unseen(w) })
	var hs []float64
	for _, w := range p.words {
		if h := w.Box.Height(); h > 0 {
			hs = append(hs, h)
		}
	}
	if len(hs) > 0 {
		sort.Float64s(hs)
		p.em = hs[len(hs)/2]
	} else {
		p.em = math.Max(float64(min(p.w, p.h))/40, 8)
	}
	return p
}

func (p *page) px(f float64) int { return int(math.Round(f * p.em)) }

// hatchEm: parallel strokes closer than this, three or more, are hatching.
const hatchEm = 0.8

// wordRect is a word's box in whole pixels, clipped to the image.
func (p *page) wordRect(w text.Word) image.Rectangle {
	return image.Rect(int(math.Floor(w.Box.XMin)), int(math.Floor(w.Box.YMin)),
		int(math.Ceil(w.Box.XMax)), int(math.Ceil(w.Box.YMax))).Intersect(image.Rect(0, 0, p.w, p.h))
}

// findComponents labels the connected components of the ink that is neither
// ruling nor inside a word.
func (p *page) findComponents() {
	p.inWord = make([]bool, p.w*p.h)
	for _, w := range p.words {
		r := p.wordRect(w)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				p.inWord[y*p.w+x] = true
			}
		}
	}
	p.label = make([]int32, p.w*p.h)
	for i := range p.label {
		p.label[i] = -1
	}
	free := func(i int) bool { return p.ink[i] && !p.ruling[i] && !p.inWord[i] && p.label[i] < 0 }
	var stack []int
	for start := range p.ink {
		if !free(start) {
			continue
		}
		id := int32(len(p.comps))
		c := comp{r: image.Rect(start%p.w, start/p.w, start%p.w+1, start/p.w+1)}
		p.label[start] = id
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := i%p.w, i/p.w
			c.n++
			c.r = c.r.Union(image.Rect(x, y, x+1, y+1))
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= p.w || yy >= p.h {
						continue
					}
					if j := yy*p.w + xx; free(j) {
						p.label[j] = id
						stack = append(stack, j)
					}
				}
			}
		}
		p.comps = append(p.comps, c)
	}
	// glyph remnants: small bits just outside a word's box, and thin ones
	// along its side, no longer than it (an "H"'s stem its box cut off)
	small := max(p.px(0.35), 2)
	for i := range p.comps {
		c := &p.comps[i]
		thin := min(c.r.Dx(), c.r.Dy()) <= 3
		short := max(c.r.Dx(), c.r.Dy()) < p.px(0.8)
		if (c.r.Dx() >= small || c.r.Dy() >= small) && !thin {
			continue
		}
		for _, w := range p.words {
			r := p.wordRect(w)
			if gap(c.r, r) <= 2 && (short || c.r.In(r.Inset(-2))) {
				c.remnant = true
				break
			}
		}
	}
}

// gap is the distance between two rectangles along the axis where they
// are furthest apart (0 when they touch or overlap).
func gap(a, b image.Rectangle) int {
	dx := max(a.Min.X-b.Max.X, b.Min.X-a.Max.X, 0)
	dy := max(a.Min.Y-b.Max.Y, b.Min.Y-a.Max.Y, 0)
	return max(dx, dy)
}

// vOverlap is the vertical overlap of two rectangles in pixels.
func vOverlap(a, b image.Rectangle) int {
	return max(min(a.Max.Y, b.Max.Y)-max(a.Min.Y, b.Min.Y), 0)
}

// significant reports whether a component is more than specks.
func (c comp) significant() bool { return c.n >= 4 && !c.remnant }

// classifyWords decides which words belong to graphics: those inside a
// component's box, and short runs touching a component.
func (p *page) classifyWords() {
	p.graphicW = make([]bool, len(p.words))
	p.wordComp = make([]int, len(p.words))
	p.besideW = make([]bool, len(p.words))
	maxSym := p.px(maxSymbolEm)
	for i, w := range p.words {
		p.wordComp[i] = -1
		r := p.wordRect(w)
		cx, cy := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
		for ci, c := range p.comps {
			if !c.significant() || c.r.Dx() > maxSym || c.r.Dy() > maxSym {
				continue
			}
			if image.Pt(cx, cy).In(c.r) && c.r.Dx()*c.r.Dy() > 2*r.Dx()*r.Dy() && r.Dy() < c.r.Dy() {
				p.graphicW[i], p.wordComp[i] = true, ci
				break
			}
		}
	}
	// short runs touching a component, when more text follows on the row
	// (else the run is the entry's only text, not part of its graphic)
	attach := p.px(attachEm)
	runs := p.runs()
	rects := make([]image.Rectangle, len(runs))
	for i, run := range runs {
		rects[i] = p.runRect(run)
	}
	textBeyond := func(i int, c image.Rectangle) bool {
		x := max(rects[i].Max.X, c.Max.X)
		for j, o := range rects {
			if j != i && o.Min.X >= x && vOverlap(o, c)*10 >= 3*min(o.Dy(), c.Dy()) {
				return true
			}
		}
		return false
	}
	for ri, run := range runs {
		if len(run) > 2 {
			continue
		}
		rr := p.runRect(run)
		if float64(rr.Dx()) > 3*p.em {
			continue
		}
		for ci, c := range p.comps {
			if !c.significant() || c.r.Dx() > maxSym || c.r.Dy() > maxSym {
				continue
			}
			dx := max(rr.Min.X-c.r.Max.X, c.r.Min.X-rr.Max.X)
			if dx <= attach && vOverlap(rr, c.r)*10 >= 3*min(rr.Dy(), c.r.Dy()) &&
				!p.rulingBetween(rr, c.r) && c.r.Dx()+c.r.Dy() > rr.Dy() && textBeyond(ri, c.r) {
				for _, i := range run {
					p.graphicW[i], p.wordComp[i], p.besideW[i] = true, ci, true
				}
				break
			}
		}
	}
	p.inscriptions(runs, rects, maxSym)
}

// inscriptions makes a sample's inscription part of its graphic: a short
// run set directly on or under a component (a gap of at most inscribeEm),
// lying mostly within the component's width (the "DD 50/20" tag over an
// opening's rectangle, the "+4,37" on a level marker's line), while the
// entry's own text stands beside the component further along its row. The
// run goes to the nearest such component. A run whose first words are
// such an inscription and whose rest is the entry's text beside the
// component (OCR's "+4,37°" boxed a word space from "FFB = Fertigfußboden")
// gives those words.
func (p *page) inscriptions(runs [][]int, rects []image.Rectangle, maxSym int) {
	for ri, run := range runs {
		if p.graphicW[run[0]] {
			continue
		}
		for k := min(len(run), 4); k >= 1; k-- {
			var rest image.Rectangle
			if k < len(run) {
				rest = p.runRect(run[k:])
			}
			if best := p.inscribed(p.runRect(run[:k]), ri, rest, rects, maxSym); best >= 0 {
				for _, i := range run[:k] {
					p.graphicW[i], p.wordComp[i] = true, best
				}
				break
			}
		}
	}
}

// inscribed is the component run rr (rects[ri], or its first words with
// the rest of its run at rest) is the inscription of, or -1.
func (p *page) inscribed(rr image.Rectangle, ri int, rest image.Rectangle, rects []image.Rectangle, maxSym int) int {
	near := p.px(inscribeEm)
	// the components over or under the run (not beside it: most of
	// the run's height is clear of them), near enough
	var cand []int
	var span image.Rectangle
	for ci, c := range p.comps {
		// a thin line under a run is its underline, not a sample
		if !c.significant() || c.r.Dx() > maxSym || c.r.Dy() > maxSym || c.r.Dy() <= p.px(0.25) || vOverlap(rr, c.r)*2 > rr.Dy() {
			continue
		}
		if d := max(c.r.Min.Y-rr.Max.Y, rr.Min.Y-c.r.Max.Y); d > near || min(rr.Max.X, c.r.Max.X) <= max(rr.Min.X, c.r.Min.X) {
			continue
		}
		cand = append(cand, ci)
		span = span.Union(c.r)
	}
	// the run lies mostly within their width
	xov := min(rr.Max.X, span.Max.X) - max(rr.Min.X, span.Min.X)
	if len(cand) == 0 || xov*5 < rr.Dx()*2 || rr.Dx() > span.Dx()+p.px(2) {
		return -1
	}
	best, bd := -1, math.MaxInt
	for _, ci := range cand {
		c := p.comps[ci]
		// the nearest; of two as near, the one under the run (a tag
		// is written over its sample)
		d := 2 * max(c.r.Min.Y-rr.Max.Y, rr.Min.Y-c.r.Max.Y)
		if c.r.Min.Y < rr.Min.Y {
			d++
		}
		if d >= bd {
			continue
		}
		// the entry's text beside the component, right of the run
		x := max(rr.Max.X, c.r.Max.X)
		beside := func(o image.Rectangle) bool {
			return !o.Empty() && o.Min.X >= x && o.Min.X-x <= p.px(3) && vOverlap(o, c.r) > 0
		}
		if beside(rest) {
			best, bd = ci, d
			continue
		}
		for j, o := range rects {
			if j != ri && beside(o) {
				best, bd = ci, d
				break
			}
		}
	}
	return best
}

// runs groups the words that are not part of a graphic into runs: words
// on one line with small gaps, no ruling between them. Each run lists word
// indexes left to right.
func (p *page) runs() [][]int {
	var idx []int
	for i := range p.words {
		if !p.graphicW[i] && p.words[i].Box.Valid() {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return p.words[idx[a]].Box.XMin < p.words[idx[b]].Box.XMin })
	maxGap := runGapEm * p.em
	var out [][]int
	used := make([]bool, len(p.words))
	for _, i := range idx {
		if used[i] {
			continue
		}
		used[i] = true
		run := []int{i}
		last := p.words[i].Box
		for _, j := range idx {
			if used[j] {
				continue
			}
			b := p.words[j].Box
			ov := math.Min(last.YMax, b.YMax) - math.Max(last.YMin, b.YMin)
			if ov < 0.5*math.Min(last.Height(), b.Height()) {
				continue
			}
			if g := b.XMin - last.XMax; g > maxGap || g < -0.5*p.em {
				continue
			}
			if p.rulingBetween(p.wordRect(p.words[run[len(run)-1]]), p.wordRect(p.words[j])) {
				continue
			}
			used[j] = true
			run = append(run, j)
			last = b
		}
		out = append(out, run)
	}
	return out
}

func (p *page) runRect(run []int) image.Rectangle {
	var r image.Rectangle
	for k, i := range run {
		if k == 0 {
			r = p.wordRect(p.words[i])
		} else {
			r = r.Union(p.wordRect(p.words[i]))
		}
	}
	return r
}

// runText is a run's words joined with spaces; a word set over most of
// the one before it (the "L" drawn over the "C" of a centreline mark ℄)
// is one mark with it and joins it without a space.
func runText(p *page, run []int) string {
	var b strings.Builder
	for k, i := range run {
		if k > 0 {
			a, w := p.words[run[k-1]].Box, p.words[i].Box
			if ov := math.Min(a.XMax, w.XMax) - math.Max(a.XMin, w.XMin); ov <= 0.5*math.Min(a.Width(), w.Width()) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(p.words[i].Text)
	}
	return b.String()
}

// graphic is a group of components (and graphic words) drawn as one symbol.
type graphic struct {
	comps []int
	words []int
	r     image.Rectangle
}

// groupGraphics joins components closer than groupEm; graphic words join
// their component.
func (p *page) groupGraphics() []*graphic {
	var ids []int
	for i, c := range p.comps {
		if c.significant() {
			ids = append(ids, i)
		}
	}
	find, parent := unionFind(len(p.comps))
	near := p.px(groupEm)
	// graphic words count as part of their component's extent
	ext := make([]image.Rectangle, len(p.comps))
	for _, i := range ids {
		ext[i] = p.comps[i].r
	}
	for wi, ci := range p.wordComp {
		if ci >= 0 {
			ext[ci] = ext[ci].Union(p.wordRect(p.words[wi]))
		}
	}
	// side by side or overlapping first; then parts set one over the
	// other, unless each part (with what joined it) has its own row of
	// text beside it: a column of samples (hatch swatches, a meter over a
	// tap) drawn closer than groupEm is one sample per row
	grp := map[int]image.Rectangle{}
	const stackPx = 2 // parts overlapping by no more are one over the other
	var runRects []image.Rectangle
	for _, run := range p.runs() {
		runRects = append(runRects, p.runRect(run))
	}
	for _, i := range ids {
		grp[i] = ext[i]
	}
	join := func(a, b int) {
		ra, rb := find(a), find(b)
		if ra != rb {
			parent[ra] = rb
			grp[rb] = grp[rb].Union(grp[ra])
		}
	}
	for pass := 0; pass < 2; pass++ {
		for a := 0; a < len(ids); a++ {
			for b := a + 1; b < len(ids); b++ {
				ea, eb := ext[ids[a]], ext[ids[b]]
				if gap(ea, eb) > near || p.ruled(ea, eb) || (vOverlap(ea, eb) > stackPx) != (pass == 0) {
					continue
				}
				if pass == 1 {
					ga, gb := grp[find(ids[a])], grp[find(ids[b])]
					if vOverlap(ga, gb) <= stackPx && ownRow(runRects, ga, gb) && ownRow(runRects, gb, ga) {
						continue
					}
				}
				join(ids[a], ids[b])
			}
		}
	}
	p.compGraphic = make([]int, len(p.comps))
	for i := range p.compGraphic {
		p.compGraphic[i] = find(i)
	}
	byRoot := map[int]*graphic{}
	var out []*graphic
	for _, i := range ids {
		rt := find(i)
		g := byRoot[rt]
		if g == nil {
			g = &graphic{r: ext[i]}
			byRoot[rt] = g
			out = append(out, g)
		}
		g.comps = append(g.comps, i)
		g.r = g.r.Union(ext[i])
	}
	for wi, ci := range p.wordComp {
		if ci >= 0 {
			g := byRoot[find(ci)]
			g.words = append(g.words, wi)
		}
	}
	return out
}

// lettered leaves out the graphics that are a word OCR did not read: three
// or more pieces of letter size (each at least half an em tall, at most an
// em wide and letterEm tall) set side by side on one line, with no word in
// them, standing in a text: a word beside it at most half an em away, or
// a word just above or below starting at its left edge (the other line of
// a "FLOOR / FINISHES" heading). A symbol drawn as a row of pieces (a stop
// cock's) stands apart from its text, in a column of its own.
func (p *page) lettered(graphics []*graphic) []*graphic {
	out := graphics[:0]
	for _, g := range graphics {
		if !p.letterRow(g) {
			out = append(out, g)
		}
	}
	return out
}

// letterEm: a letter is at most this many em tall; parenEm: a bracket.
const (
	letterEm = 1.3
	parenEm  = 1.5
)

// One or two narrow pieces (each at most half an em wide, parenEm tall) set against a
// word, at most a quarter em from its end or start on its line, are its
// punctuation OCR left out (the ")" closing "(H\" x W\")").
func (p *page) letterRow(g *graphic) bool {
	few := len(g.comps) < 3
	if len(g.words) > 0 || float64(g.r.Dy()) > letterEm*p.em && !few || float64(g.r.Dy()) > parenEm*p.em {
		return false
	}
	rs := make([]image.Rectangle, len(g.comps))
	for i, ci := range g.comps {
		r := p.comps[ci].r
		if float64(r.Dy()) < 0.5*p.em || float64(r.Dx()) > p.em || few && float64(r.Dx()) > 0.5*p.em {
			return false
		}
		rs[i] = r
	}
	sort.Slice(rs, func(a, b int) bool { return rs[a].Min.X < rs[b].Min.X })
	for i := 1; i < len(rs); i++ {
		if rs[i].Min.X < rs[i-1].Max.X-1 {
			return false
		}
	}
	r := g.r
	for _, w := range p.words {
		wr := p.wordRect(w)
		if !text.HasAlnum(w.Text) {
			continue
		}
		if vOverlap(wr, r)*2 >= min(wr.Dy(), r.Dy()) && (gap(wr, r) <= p.px(0.5) && !few || gap(wr, r) <= p.px(0.25)) {
			return true
		}
		if few {
			continue
		}
		if g := max(r.Min.Y-wr.Max.Y, wr.Min.Y-r.Max.Y); g >= -2 && g <= p.px(contGapEm) && abs(wr.Min.X-r.Min.X) <= p.px(0.5) {
			return true
		}
	}
	return false
}

// ownRow reports a run of text beside g (left or right of it, on its
// line) that is clear of other's height: g is the sample of a row of its
// own.
func ownRow(runs []image.Rectangle, g, other image.Rectangle) bool {
	for _, o := range runs {
		if (o.Min.X >= g.Max.X || o.Max.X <= g.Min.X) && vOverlap(o, g)*2 >= min(o.Dy(), g.Dy()) && vOverlap(o, other) == 0 {
			return true
		}
	}
	return false
}

// unionFind makes n singleton sets: find returns a set's root and
// parent[find(a)] = find(b) joins two sets.
func unionFind(n int) (find func(int) int, parent []int) {
	parent = make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	return find, parent
}

func rectBox(r image.Rectangle) geom.Box {
	return geom.Box{XMin: float64(r.Min.X), YMin: float64(r.Min.Y), XMax: float64(r.Max.X), YMax: float64(r.Max.Y)}
}

// exemplar crops a graphic from the image: its components' pixels (and the
// ink of its words) with a one-pixel rim for anti-aliasing, everything else
// white. It returns the crop and its tight box in block pixels.
func (p *page) exemplar(g *graphic) (*image.Gray, geom.Box) {
	keep := make([]bool, p.w*p.h)
	mine := map[int32]bool{}
	for _, c := range g.comps {
		mine[int32(c)] = true
	}
	r := g.r.Inset(-2).Intersect(image.Rect(0, 0, p.w, p.h))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if l := p.label[y*p.w+x]; l >= 0 && mine[l] {
				keep[y*p.w+x] = true
			}
		}
	}
	for _, wi := range g.words {
		wr := p.wordRect(p.words[wi])
		for y := wr.Min.Y; y < wr.Max.Y; y++ {
			for x := wr.Min.X; x < wr.Max.X; x++ {
				if i := y*p.w + x; p.ink[i] && !p.ruling[i] {
					keep[i] = true
				}
			}
		}
	}
	// tight box of the kept ink
	tight := image.Rectangle{}
	first := true
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if keep[y*p.w+x] {
				pr := image.Rect(x, y, x+1, y+1)
				if first {
					tight, first = pr, false
				} else {
					tight = tight.Union(pr)
				}
			}
		}
	}
	if first {
		return nil, geom.Box{}
	}
	out := image.NewGray(image.Rect(0, 0, tight.Dx(), tight.Dy()))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	for y := tight.Min.Y; y < tight.Max.Y; y++ {
		for x := tight.Min.X; x < tight.Max.X; x++ {
			// a kept pixel or a light neighbour of one (the anti-aliased rim)
			v := p.img.Pix[y*p.img.Stride+x]
			in := keep[y*p.w+x]
			if !in && !p.ruling[y*p.w+x] && !p.ink[y*p.w+x] {
				for dy := -1; dy <= 1 && !in; dy++ {
					for dx := -1; dx <= 1 && !in; dx++ {
						xx, yy := x+dx, y+dy
						in = xx >= 0 && yy >= 0 && xx < p.w && yy < p.h && keep[yy*p.w+xx]
					}
				}
			}
			if in {
				out.Pix[(y-tight.Min.Y)*out.Stride+x-tight.Min.X] = v
			}
		}
	}
	return out, rectBox(tight)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
