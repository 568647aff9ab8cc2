package layout

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// headingKinds are the kinds whose heading sits above a body of text or a
// table, and so may start a block inside a larger region.
var headingKinds = map[string]bool{"KeyNotes": true, "GeneralNotes": true, "SheetNotes": true, "Schedule": true, "Legend": true}

// isHeading reports whether l reads as a notes', legend's or schedule's
// heading: a short line of headline-sized type naming such a kind.
func isHeading(l text.Line, em float64) bool {
	return len(l.Words) <= 8 && hasLetters(l.Text) && headingKinds[kindOf(l.Text)] && lineHeight(l) >= 1.3*em
}

// labelHeading reports whether l is a heading set in the body's type but
// written as a label ("KEY TO DOOR TYPE:", "REMARKS TO DOOR SCHEDULE:"):
// a short line ending in a colon that names a notes', legend's or
// schedule's kind other than own, the kind of the block it is found in (a
// notes column's sub-headings of notes do not part it).
func labelHeading(l text.Line, own string) bool {
	t := strings.TrimSpace(l.Text)
	k := kindOf(t)
	// its head noun phrase is short ("KEY", "GENERAL REQUIREMENTS"): a
	// sentence ending in a colon ("INSTALLED PER CEC REQUIREMENTS:") is none
	head := strings.TrimSuffix(t, ":")
	if m := qualifierRE.FindStringSubmatch(strings.ToUpper(head)); m != nil {
		head = m[1]
	}
	return len(l.Words) <= 8 && len(strings.Fields(head)) <= 3 && strings.HasSuffix(t, ":") && headingKinds[k] && k != own
}

// splitHeadings splits cells that hold more than their own block: a
// heading below a cell's top starts another block. A heading centred over
// the cell (stacked schedules) cuts it across; any other (a notes column
// beside a plan it is not separated from by a clear gap) takes its text
// body out of the cell as a block of its own. Returns the cells and the
// blocks taken out.
func (m *mask) splitHeadings(cells []rect, words []text.Word, em float64, gap int) (out, carved []rect) {
	used := map[geom.Box]bool{}
	queue := append([]rect(nil), cells...)
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		ls := text.Lines(wordsIn(c, words))
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].Box.YMin < ls[j].Box.YMin })
		hi := -1
		// the kind of the cell's top-left line
		own, first := "", -1
		for i, l := range ls {
			if l.Box.YMin <= ls[0].Box.YMin+em && (first < 0 || l.Box.XMin < ls[first].Box.XMin) {
				first = i
			}
		}
		if first >= 0 {
			own = kindOf(ls[first].Text)
		}
		// label-style headings part text, not a drawing's notes ("STAIR
		// NOTE:" in a plan)
		ta := 0.0
		for _, l := range ls {
			for _, w := range l.Words {
				ta += w.Box.Area()
			}
		}
		textual := ta >= 0.08*float64(c.area())
		if x, ok := m.sideHeadingCut(c, ls, em, textual); ok {
			queue = append(queue, m.xycut(rect{c.x0, c.y0, x, c.y1}, gap)...)
			queue = append(queue, m.xycut(rect{x, c.y0, c.x1, c.y1}, gap)...)
			continue
		}
		for i, l := range ls {
			below := l.Box.YMin-float64(c.y0) > 3*em
			if !used[l.Box] && (isHeading(l, em) && below || textual && i != first && labelHeading(l, own) && (below || l.Box.XMin-float64(c.x0) > 10*em)) {
				hi = i
				break
			}
		}
		if hi < 0 {
			out = append(out, c)
			continue
		}
		h := ls[hi]
		used[h.Box] = true
		if hc, cc := (h.Box.XMin+h.Box.XMax)/2, float64(c.x0+c.x1)/2; math.Abs(hc-cc) <= 0.1*float64(c.w()) {
			y := int(h.Box.YMin - 0.3*em)
			queue = append(queue, m.xycut(rect{c.x0, c.y0, c.x1, y}, gap)...)
			queue = append(queue, m.xycut(rect{c.x0, y, c.x1, c.y1}, gap)...)
			continue
		}
		bx := growText(h, ls, em)
		pad := 0.8 * em
		r := rect{int(bx.XMin - pad), int(bx.YMin - pad), int(math.Ceil(bx.XMax + pad)), int(math.Ceil(bx.YMax + pad))}
		r = rect{max(r.x0, c.x0), max(r.y0, c.y0), min(r.x1, c.x1), min(r.y1, c.y1)}
		if r.area() > c.area()/2 {
			out = append(out, c)
			continue
		}
		if ib := m.bbox(r); !ib.empty() {
			carved = append(carved, ib)
		}
		m.clearRect(r)
		queue = append(queue, m.xycut(c, gap)...)
	}
	return out, carved
}

// sideHeadingCut finds where a cell of text columns joined only by their
// headings' rules (notes under headings set side by side, each underlined,
// the rules running on into each other) parts: just left of a heading on
// the cell's top rows that stands well right of its left edge, where no
// word crosses and at most two lines of ink (the rules) do — a table's
// title centred over it has its row rules crossing below — with lines of
// text on either side and a heading on the top rows left of it too. ok is
// false when there is none.
func (m *mask) sideHeadingCut(c rect, ls []text.Line, em float64, textual bool) (int, bool) {
	if !textual {
		return 0, false
	}
	for _, l := range lineRuns(ls, 2*em) {
		if !isHeading(l, em) || l.Box.YMin-float64(c.y0) > 3*em || l.Box.XMin-float64(c.x0) <= 10*em {
			continue
		}
		x := int(l.Box.XMin - 0.5*em)
		clear := true
		for _, o := range ls {
			for _, w := range o.Words {
				clear = clear && (w.Box.XMax <= float64(x) || w.Box.XMin >= float64(x))
			}
		}
		crossings, in := 0, false
		for y := c.y0; y < c.y1 && x >= 0 && x < m.w; y++ {
			if v := m.at(x, y); v != in {
				in = v
				if v {
					crossings++
				}
			}
		}
		// text on both sides, under headings side by side: columns, not a
		// title over a table
		left, right, beside := 0, 0, 0
		for _, o := range ls {
			if o.Box.XMax <= float64(x) {
				left++
			} else if o.Box.XMin >= float64(x) {
				right++
			}
		}
		for _, o := range lineRuns(ls, 2*em) {
			if o.Box.XMax <= float64(x) && o.Box.YMin-float64(c.y0) <= 3*em && len(o.Words) <= 8 && hasLetters(o.Text) && lineHeight(o) >= 1.3*em {
				beside++
			}
		}
		if clear && crossings <= 2 && left >= 3 && right >= 3 && beside > 0 {
			return x, true
		}
	}
	return 0, false
}

// lineRuns splits lines at gaps wider than gap between their words: the
// headings of columns side by side read as one line ("CALCULATIONS
// SHEET NOTES") are two runs.
func lineRuns(ls []text.Line, gap float64) []text.Line {
	var out []text.Line
	for _, l := range ls {
		ws := append([]text.Word(nil), l.Words...)
		sort.Slice(ws, func(i, j int) bool { return ws[i].Box.XMin < ws[j].Box.XMin })
		start := 0
		for i := 1; i <= len(ws); i++ {
			if i < len(ws) && ws[i].Box.XMin-ws[i-1].Box.XMax <= gap {
				continue
			}
			run := text.Line{Words: ws[start:i], Box: ws[start].Box}
			var parts []string
			for _, w := range run.Words {
				run.Box = geom.Box{XMin: math.Min(run.Box.XMin, w.Box.XMin), YMin: math.Min(run.Box.YMin, w.Box.YMin),
					XMax: math.Max(run.Box.XMax, w.Box.XMax), YMax: math.Max(run.Box.YMax, w.Box.YMax)}
				parts = append(parts, w.Text)
			}
			run.Text = strings.Join(parts, " ")
			out = append(out, run)
			start = i
		}
	}
	return out
}

// growText is the box of heading h and the text below it: lines starting
// in its column, each within a few line gaps of the last, up to the next
// heading; then the item numbers and tags printed left of those lines (a
// circuiting legend's "N-3", "E-3" beside its notes), itemReachEm at most.
func growText(h text.Line, ls []text.Line, em float64) geom.Box {
	cur := h.Box
	lim := max(2.5*em, 2*lineHeight(h))
	for _, l := range ls {
		if l.Box.YMin < h.Box.YMax-0.5*em || !hasLetters(l.Text) {
			continue
		}
		if l.Box.XMin < cur.XMin-15*em || l.Box.XMin > cur.XMax+3*em {
			continue
		}
		if l.Box.YMin-cur.YMax > lim || isHeading(l, em) {
			break
		}
		cur = cur.Union(l.Box)
		lim = 2.5 * em
	}
	for _, l := range ls {
		tag := len(l.Words) == 1 && lineTagRE.MatchString(l.Text)
		if (!hasLetters(l.Text) || tag) && l.Box.XMin >= cur.XMin-itemReachEm*em &&
			l.Box.YMin >= cur.YMin && l.Box.YMax <= cur.YMax+0.5*em && l.Box.XMax <= cur.XMax {
			cur = cur.Union(l.Box)
		}
	}
	return cur
}

// itemReachEm: an item number or tag stands at most this far left of its
// line (a hanging indent to a half-inch tab: "1." 4.6 ems before
// "PROVIDE POWER REQUIREMENTS…" at 3/32-inch lettering).
const itemReachEm = 6.0

// lineTagRE is a tag set before a line: a letter or three and a number
// ("N-3", "G2", "EL-12").
var lineTagRE = regexp.MustCompile(`^[A-Z]{1,3}[-.]?\d{1,3}$`)

// attachCaptions merges short text regions into the block they label: a
// view's title (and scale) into the view just above it, a legend's, notes'
// or schedule's heading into the body just below it.
func attachCaptions(rs []region, words []text.Word, em float64) []region {
	for changed := true; changed; {
		changed = false
		for i := range rs {
			c := rs[i]
			if c.tb || c.framed || float64(c.r.h()) > 10*em {
				continue
			}
			ls := text.Lines(wordsIn(c.r, words))
			lettered := 0 // a scale bar's figures are not caption lines
			for _, l := range ls {
				if hasLetters(l.Text) {
					lettered++
				}
			}
			if len(ls) == 0 || lettered > 3 {
				continue
			}
			if c.note {
				continue
			}
			if notesLine(ls) && boxAbove(rs, i, em) {
				// a note printed under a table is a block of its own, not
				// the table's caption nor a heading of what lies below
				// (however strip-like its one line)
				rs[i].note = true
				changed = true
				break
			}
			kind := headingKind(c.r, words, em)
			// a picture is titled under it as a view is; so is what a
			// title with a scale under it names ("WINDOW SCHEDULE" over
			// "1 : 50" under the drawn schedule)
			up := kind == "" || viewKinds[kind] || kind == "Image" || scaledCaption(ls)
			best, bestGap := -1, 8*em
			if !up {
				bestGap = 5 * em
			}
			for j := range rs {
				a := rs[j]
				if j == i || a.tb || a.r.area() <= c.r.area() {
					continue
				}
				var g float64
				if up {
					if a.r.y1 > c.r.y0 {
						continue
					}
					g = float64(c.r.y0 - a.r.y1)
				} else {
					if a.r.y0 < c.r.y1 || !a.boxed && headingKind(a.r, words, em) != "" {
						continue
					}
					g = float64(a.r.y0 - c.r.y1)
				}
				ov := min(a.r.x1, c.r.x1) - max(a.r.x0, c.r.x0)
				if float64(ov) < 0.5*float64(min(c.r.w(), a.r.w())) {
					continue
				}
				if up && kind != "" && float64(ov) >= 0.8*float64(a.r.w()) {
					// a view's title bar, ruled under its whole width,
					// may sit further below it
					g /= 2
				}
				if g < bestGap {
					best, bestGap = j, g
				}
			}
			if up && kind == "" {
				// a table's heading is printed over its frame: a line just
				// above a box, starting at its left edge and nearer it than
				// the block above, names the box
				if j, g := boxBelow(rs, i, em); j >= 0 && (best < 0 || g <= bestGap) {
					rs[j].heading = append(rs[j].heading, wordsIn(c.r, words)...)
					rs = append(rs[:i], rs[i+1:]...)
					changed = true
					break
				}
			}
			if best < 0 {
				continue
			}
			if rs[best].boxed {
				// a box keeps its frame; a heading over it names it, as
				// does a titled caption with a scale under it
				if !up || kind != "" && scaledCaption(ls) {
					rs[best].heading = append(rs[best].heading, wordsIn(c.r, words)...)
				}
			} else {
				rs[best].r = rs[best].r.union(c.r)
				rs[best].framed = false
			}
			rs = append(rs[:i], rs[i+1:]...)
			changed = true
			break
		}
	}
	return rs
}

// scaledCaption reports a caption one of whose lines is a scale.
func scaledCaption(ls []text.Line) bool {
	for _, l := range ls {
		if findScale(l.Text) != nil {
			return true
		}
	}
	return false
}

// nearestStacked is the region nearest above (below: under) region i
// among those its columns overlap, and the gap to it; -1 when there is none.
func nearestStacked(rs []region, i int, below bool) (int, float64) {
	c := rs[i].r
	best, bestGap := -1, math.Inf(1)
	for j, a := range rs {
		if j == i || a.tb || below && a.r.y0 < c.y1 || !below && a.r.y1 > c.y0 {
			continue
		}
		if min(a.r.x1, c.x1) <= max(a.r.x0, c.x0) {
			continue
		}
		g := float64(a.r.y0 - c.y1)
		if !below {
			g = float64(c.y0 - a.r.y1)
		}
		if g < bestGap {
			best, bestGap = j, g
		}
	}
	return best, bestGap
}

// boxBelow is the boxed region just under region i when that box starts
// at i's left edge within an em and lies within two em: i is then its
// heading. Returns -1 when there is none, else the box and the gap.
func boxBelow(rs []region, i int, em float64) (int, float64) {
	j, g := nearestStacked(rs, i, true)
	if j < 0 || !rs[j].boxed || g > 2*em || math.Abs(float64(rs[j].r.x0-rs[i].r.x0)) > em {
		return -1, 0
	}
	return j, g
}

// boxAbove reports whether the region just over region i is a boxed one
// (a table's frame) within two em.
func boxAbove(rs []region, i int, em float64) bool {
	j, g := nearestStacked(rs, i, false)
	return j >= 0 && rs[j].boxed && g <= 2*em
}

// notesLine reports whether ls (a short run of text) is a note: its first
// line starts with NOTE or NOTES and a colon ("NOTE : INDICATED DIMENSIONS…").
func notesLine(ls []text.Line) bool {
	if len(ls) == 0 {
		return false
	}
	top := ls[0]
	for _, l := range ls {
		if l.Box.YMin < top.Box.YMin {
			top = l
		}
	}
	return noteLeadRE.MatchString(top.Text)
}

var noteLeadRE = regexp.MustCompile(`(?i)^\s*NOTES?\s*[:：]`)

// joinFragments merges an untitled region into a titled neighbour beside,
// above or below it when the two are close and aligned: the symbol column
// of a legend, a table's body cut off by a wide gutter. A body of text
// (a notes column) is no fragment of a drawn view — a region holding a
// view title — beside it.
func (p *Page) joinFragments(rs []region, words []text.Word, em float64, titles []viewTitle) []region {
	for changed := true; changed; {
		changed = false
		for i := range rs {
			f := rs[i]
			// a view's title cut off under its view, alone, is a piece of
			// the view over it
			lone := loneTitle(f.r, words, titles)
			if f.tb || f.boxed || !lone && (headingKind(f.r, words, em) != "" || headed(f.r, words, em)) {
				continue
			}
			textual := p.textArea(f.r) > 0.12*float64(f.r.area())
			best, bestGap := -1, 5*em
			if lone {
				// a title may stand well under its view's dimensions
				bestGap = loneTitleGapEm * em
			}
			for j := range rs {
				a := rs[j]
				if lone && (a.r.y1 > f.r.y0+int(em) || len(titlesIn(a.r, titles)) > 0) {
					continue
				}
				// a fragment is a piece of a larger block: a plan wider
				// and taller than the legend carved out of its corner is
				// no fragment of it
				if j == i || a.tb || a.boxed || f.r.w() > a.r.w() && f.r.h() > a.r.h() || textual && len(titlesIn(a.r, titles)) > 0 {
					continue
				}
				yov := min(a.r.y1, f.r.y1) - max(a.r.y0, f.r.y0)
				xov := min(a.r.x1, f.r.x1) - max(a.r.x0, f.r.x0)
				if xov > 0 && yov > 0 && 5*xov*yov >= 4*a.r.area() {
					// a block taken out of f (a notes column within a
					// plan's extent) is not a fragment's neighbour
					continue
				}
				var g float64
				switch {
				case yov > 0 && float64(yov) >= 0.6*float64(min(a.r.h(), f.r.h())):
					g = float64(max(a.r.x0-f.r.x1, f.r.x0-a.r.x1))
				case xov > 0 && float64(xov) >= 0.8*float64(f.r.w()):
					g = float64(max(a.r.y0-f.r.y1, f.r.y0-a.r.y1))
				default:
					continue
				}
				if g < bestGap {
					best, bestGap = j, g
				}
			}
			if best < 0 {
				continue
			}
			rs[best].r = rs[best].r.union(f.r)
			rs[best].framed = false
			rs = append(rs[:i], rs[i+1:]...)
			changed = true
			break
		}
	}
	return rs
}

// loneTitleGapEm is how far (em) under an untitled region a lone view
// title may stand and still be its title (lamb's scanned EAST ELEVATION:
// 10.7 em under the view's ground line).
const loneTitleGapEm = 12

// loneTitle reports whether r holds a view title printed under its view
// and nothing else: one title whose bar (its words, scale, bubble and
// underline) holds every word of r.
func loneTitle(r rect, words []text.Word, titles []viewTitle) bool {
	ts := titlesIn(r, titles)
	if len(ts) != 1 || !ts[0].below {
		return false
	}
	b := ts[0].bar
	for _, w := range wordsIn(r, words) {
		if !rectContains(b, rect{int(w.Box.XMin), int(w.Box.YMin), int(math.Ceil(w.Box.XMax)), int(math.Ceil(w.Box.YMax))}) {
			return false
		}
	}
	return true
}

// headed reports whether r's top line is a heading in headline type (at
// least 1.3 em, a few words of letters) at its top, at its left or
// centred over it (a schedule's title row): a block under a
// heading of its own ("MECHANICAL VENTILATION CALCULATIONS"), whatever
// kind it names, is no fragment of its neighbour.
func headed(r rect, words []text.Word, em float64) bool {
	ls := text.Lines(wordsIn(r, words))
	top := -1
	for i, l := range ls {
		if top < 0 || l.Box.YMin < ls[top].Box.YMin {
			top = i
		}
	}
	if top < 0 {
		return false
	}
	l := ls[top]
	left := l.Box.XMin-float64(r.x0) < 3*em
	return l.Box.YMin-float64(r.y0) < 1.5*em && (left || centredOver(l, r)) && len(l.Words) <= 8 &&
		hasLetters(l.Text) && lineHeight(l) >= 1.3*em
}

// absorbSmall folds regions too small to be a block into their nearest
// neighbour, so that every inked pixel belongs to some block.
func absorbSmall(rs []region, em float64) []region {
	small := func(r region) bool {
		// a thin strip (a margin's line, a file path printed up the margin)
		// is no leftover of a block beside it: dropStrips drops it
		return !r.tb && !r.note && (float64(r.r.w()) < 4*em || float64(r.r.h()) < 2*em) && float64(r.r.area()) < 40*em*em && !isStrip(r, em)
	}
	for changed := true; changed; {
		changed = false
		for i := range rs {
			if !small(rs[i]) {
				continue
			}
			best, bestD := -1, math.Inf(1)
			for j := range rs {
				if j == i || rs[j].tb {
					continue
				}
				if d := dist(rs[i].r, rs[j].r); d < bestD {
					best, bestD = j, d
				}
			}
			switch {
			case best >= 0 && bestD <= 3*cutGapEm*em && rs[best].boxed:
				// a box keeps its frame
			case best >= 0 && bestD <= 3*cutGapEm*em:
				rs[best].r = rs[best].r.union(rs[i].r)
			case float64(rs[i].r.area()) < em*em:
				// a speck far from everything: residue of a border or
				// separator line, not content
			default:
				continue
			}
			rs = append(rs[:i], rs[i+1:]...)
			changed = true
			break
		}
	}
	return rs
}

// ownWords is the words of region i, less those of any other region lying
// within it (a notes column taken out of a plan's extent).
func ownWords(rs []region, i int, words []text.Word) []text.Word {
	r := rs[i].r
	var inside []rect
	for j, o := range rs {
		if j == i {
			continue
		}
		ix := rect{max(r.x0, o.r.x0), max(r.y0, o.r.y0), min(r.x1, o.r.x1), min(r.y1, o.r.y1)}
		if !ix.empty() && 5*ix.area() >= 4*o.r.area() {
			inside = append(inside, o.r)
		}
	}
	if len(inside) == 0 {
		return words
	}
	var out []text.Word
	for _, w := range wordsIn(r, words) {
		cx, cy := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
		in := false
		for _, o := range inside {
			in = in || cx >= float64(o.x0) && cx < float64(o.x1) && cy >= float64(o.y0) && cy < float64(o.y1)
		}
		if !in {
			out = append(out, w)
		}
	}
	return out
}

// dropStrips removes long thin regions, a few text heights across and
// many times as long: a line of margin text (a file path printed up the
// sheet's edge) or the residue of a rule, never a block of its own.
// isStrip reports whether r is a thin strip: under four type heights
// across and more than fifteen times as long.
func isStrip(r region, em float64) bool {
	short, long := min(r.r.w(), r.r.h()), max(r.r.w(), r.r.h())
	return !r.tb && !r.note && float64(short) < 4*em && long > 15*short
}

func dropStrips(rs []region, em float64) []region {
	out := rs[:0]
	for _, r := range rs {
		if isStrip(r, em) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// boxOfWords is the box (mask pixels) of words; empty for none.
func boxOfWords(ws []text.Word) rect {
	var r rect
	for _, w := range ws {
		r = r.union(rect{int(w.Box.XMin), int(w.Box.YMin), int(math.Ceil(w.Box.XMax)), int(math.Ceil(w.Box.YMax))})
	}
	return r
}

// splitNotes cuts a column of notes under several headings of one size
// ("GENERAL", "DRAINAGE RETICULATION", "FIRE RETICULATION") into one block
// per heading: a heading is a short line (five words at most) set larger
// than the column's text, with text under it. Sub-headings set smaller than
// the first heading (a "SHEET NOTES" block's "GENERAL", "STRUCTURAL") do not
// cut, nor does a region holding a view's title.
func (p *Page) splitNotes(rs []region, titles []viewTitle) []region {
	var out []region
	for _, rg := range rs {
		if rg.tb || rg.boxed {
			out = append(out, rg)
			continue
		}
		ls := text.Lines(wordsIn(rg.r, p.mw))
		if len(ls) < 6 {
			out = append(out, rg)
			continue
		}
		var hs []float64
		for _, l := range ls {
			hs = append(hs, typeHeight(l))
		}
		sort.Float64s(hs)
		body := hs[len(hs)/2]
		var heads []text.Line
		top := 0.0
		for _, l := range ls {
			if len(l.Words) <= 5 && hasLetters(l.Text) && typeHeight(l) >= 1.3*body && textUnder(l, ls, body) {
				heads = append(heads, l)
				top = math.Max(top, lineHeight(l))
			}
		}
		// a drawn view's labels ("ROOF BEAM LEVEL", "GRD. FLOOR LEVEL" on a
		// diagram: a view's title over mostly linework) head no notes
		if len(titlesIn(rg.r, titles)) > 0 && p.textArea(rg.r) < 0.2*float64(rg.r.area()) {
			out = append(out, rg)
			continue
		}
		var cuts []int
		for _, h := range heads {
			if lineHeight(h) >= 0.85*top && h.Box.YMin > float64(rg.r.y0)+2*body && !secondLine(h, heads) {
				cuts = append(cuts, int(h.Box.YMin-0.5*body))
			}
		}
		// a ruled table's rows are no notes under headings (OCR boxes a
		// word a revision cloud crosses as tall as a heading)
		if len(cuts) == 0 || float64(p.textArea(rg.r)) < 0.08*float64(rg.r.area()) || p.ruledTable(rg.r, wordsIn(rg.r, p.mw)) {
			out = append(out, rg)
			continue
		}
		sort.Ints(cuts)
		y0 := rg.r.y0
		for _, c := range append(cuts, rg.r.y1) {
			if part := p.m.bbox(rect{rg.r.x0, y0, rg.r.x1, c}); !part.empty() {
				out = append(out, region{r: part})
			}
			y0 = c
		}
	}
	return out
}

// typeHeight is a line's height measured on its words without brackets
// (a "(48 HOURS NOTICE PLEASE)." is boxed down to its parentheses' tails,
// no larger type), or lineHeight when every word has one.
func typeHeight(l text.Line) float64 {
	var hs []float64
	for _, w := range l.Words {
		if !strings.ContainsAny(w.Text, "()[]{}") {
			hs = append(hs, w.Box.Height())
		}
	}
	if len(hs) == 0 {
		return lineHeight(l)
	}
	sort.Float64s(hs)
	return hs[len(hs)/2]
}

// textUnder reports whether a line of ls starts within two body lines
// under l, across from it: a heading heads text.
func textUnder(l text.Line, ls []text.Line, body float64) bool {
	for _, o := range ls {
		g := o.Box.YMin - l.Box.YMax
		xov := math.Min(o.Box.XMax, l.Box.XMax) - math.Max(o.Box.XMin, l.Box.XMin)
		if g >= -0.2*body && g <= 2*body && xov > 0 {
			return true
		}
	}
	return false
}

// secondLine reports a heading line set directly under another of heads
// of its size, over it (a line space at most, overlapping it across): a
// heading of two lines ("ROOM FINISH LEGEND &" over "ABBREVIATIONS"), not
// two headings.
func secondLine(h text.Line, heads []text.Line) bool {
	hh := lineHeight(h)
	for _, o := range heads {
		oh := lineHeight(o)
		gap := h.Box.YMin - o.Box.YMax
		xov := math.Min(h.Box.XMax, o.Box.XMax) - math.Max(h.Box.XMin, o.Box.XMin)
		if gap >= -0.2*hh && gap <= 0.6*hh && xov > 0 && math.Abs(oh-hh) <= 0.15*hh {
			return true
		}
	}
	return false
}

// textArea is the area of the words' boxes in r (mask pixels).
func (p *Page) textArea(r rect) float64 {
	return wordsArea(wordsIn(r, p.mw))
}

// enclosedFrames folds into a view the frames found standing alone that
// lie inside the view's own region: a building's outline drawn as one
// rectangle with a few room names in it stands alone as a table's frame
// does, but the view's dimensions, grid and title were cut around it. A
// frame full of lettering (a legend or key notes set in a plan's corner)
// stays a block of its own.
func (p *Page) enclosedFrames(rs []region) []region {
	var out []region
	for i, f := range rs {
		if f.boxed && p.textArea(f.r) < 0.04*float64(f.r.area()) {
			enclosed := false
			for j, v := range rs {
				if j != i && !v.boxed && !v.tb && v.r.x0 <= f.r.x0+2 && v.r.y0 <= f.r.y0+2 && v.r.x1 >= f.r.x1-2 && v.r.y1 >= f.r.y1-2 {
					enclosed = true
					break
				}
			}
			if enclosed {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}
