package legend

import (
	"image"
	"unicode/utf8"

	"github.com/plangraph/plangraph/vision/text"
)

// nameKind is how a graphic's own words name it (graphicName).
type nameKind int

const (
	unnamed    nameKind = iota
	suffixName          // set after the symbol in its cell
	insideName          // letters inside it
	numberTag           // a tag with digits inside it
)

// namedBy is how an entry's graphic (its box r) names the entry, with
// the name; zero when it does not.
type namedBy struct {
	kind nameKind
	name string
	r    image.Rectangle
}

// numberedTags names the entries whose graphic holds a tag with digits
// (es, and by entry how its graphic names it) by that tag when the legend
// names the entries of that kind of graphic by their tags: another graphic
// of the same size in the same column is named by the letters inside it (a
// wall-types table tagging its triangles TB, W3, W4). Elsewhere a number
// inside a graphic is a sample number (a door tag's "101", a fixture
// type's "G2" beside a T in a box named TRANS) and names nothing.
func numberedTags(es []Entry, tags []namedBy) {
	for i, t := range tags {
		if t.kind != numberTag {
			continue
		}
		for _, o := range tags {
			if o.kind == insideName && sameColumnSize(t.r, o.r) {
				es[i].Label = t.name
				break
			}
		}
	}
}

// sameColumnSize reports two graphics of one size (within a tenth) in one
// column (their spans across overlapping by most of the narrower).
func sameColumnSize(a, b image.Rectangle) bool {
	near := func(x, y int) bool { return 10*abs(x-y) <= max(x, y) }
	ov := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X)
	return near(a.Dx(), b.Dx()) && near(a.Dy(), b.Dy()) && 2*ov > min(a.Dx(), b.Dx())
}

// unseen reports a word of two or more characters whose box's middle (its
// inner three fifths each way) is all ink, a twentieth of it blank at
// most: a text layer's word drawn in the colour of the fill under it (a
// filled triangle holding its code in black), which the sheet does not
// show. Letters drawn, in any colour, leave gaps between and inside them
// there; a lone bold mark (an "x", a bullet) may not.
func (p *page) unseen(w text.Word) bool {
	if utf8.RuneCountInString(w.Text) < 2 {
		return false
	}
	r := p.wordRect(w)
	dx, dy := r.Dx()/5, r.Dy()/5
	r = image.Rect(r.Min.X+dx, r.Min.Y+dy, r.Max.X-dx, r.Max.Y-dy)
	if r.Empty() {
		return false
	}
	blank := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !p.ink[y*p.w+x] {
				blank++
			}
		}
	}
	return 20*blank <= r.Dx()*r.Dy()
}

// strayTags puts a lone tag on the row of the symbol it stands before: a
// short word set a little lower or higher than its symbol, in the symbol's
// cell (a corner guard's "CG" at the foot of its L mark), which a text
// layer's boxes (a font's ascent and descent) set on the symbol's row but
// OCR's boxes, tight to the ink, leave on a row of its own, an entry of
// nothing. The tag is a row of its own of one short word on one line; the
// graphic starts its row, up to two ems right of the tag with no ruling
// between, less than half the tag's height above or below it, and the tag
// lies within the row's height in part. A tag beside two such rows stays.
func (p *page) strayTags(items []item, find func(int) int, parent []int) {
	size := map[int]int{}
	span := map[int]image.Rectangle{}
	first := map[int]int{} // a row's leftmost item
	for i, it := range items {
		rt := find(i)
		if size[rt] == 0 {
			span[rt], first[rt] = it.r, i
		}
		size[rt]++
		span[rt] = span[rt].Union(it.r)
		if it.r.Min.X < items[first[rt]].r.Min.X {
			first[rt] = i
		}
	}
	for i, it := range items {
		if it.b == nil || size[find(i)] != 1 || len(it.b.lines) != 1 || !tagText.MatchString(it.b.text) {
			continue
		}
		to := -1
		for rt, j := range first {
			g := items[j]
			dy := max(it.r.Min.Y-g.r.Max.Y, g.r.Min.Y-it.r.Max.Y, 0)
			if rt == find(i) || g.g == nil || g.r.Min.X < it.r.Max.X || g.r.Min.X-it.r.Max.X > p.px(2) ||
				2*dy >= it.r.Dy() || vOverlap(it.r, span[rt]) == 0 || p.rulingBetween(it.r, g.r) {
				continue
			}
			if to >= 0 {
				to = -1
				break
			}
			to = j
		}
		if to >= 0 {
			parent[find(i)] = find(to)
		}
	}
}
