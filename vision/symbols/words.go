package symbols

// Symbols on words. A symbol whose graphic holds no text (Template.NoText)
// is not a word of the drawing: a strip light (a bar with a dot at each
// end) or a circle matches bold letters well enough in shape, but where the
// drawing's text (Options.Words) has a word, it is text. Such a symbol's
// detections whose boxes words cover by WordCover or more are dropped, and
// its ring-pass candidates are not refined at all when they lie on text:
//   - their middle — a square as wide as the symbol's radius at the
//     candidate's scale, around its centre — words cover by WordCover or
//     more: on plans with text a third of the candidates lie inside words
//     (synthetic seeds 1–2: 32 % and 35 % of the probe work), and no right
//     detection's middle was covered by more than 20 %;
//   - or TextInk or more of the ink in the square as wide as the symbol
//     around its centre lies inside words: a candidate among a room's name
//     and number, a line of a title or a dimension string, whose middle
//     falls between words or on a short one. Traced (synthetic seeds 1–2,
//     after the first rule): 43–45 % of the remaining probe work went to
//     candidates at 0.6 or more, while no right detection passed 0.11.
//     A symbol that carries a number or a tag inside on the plan but not
//     in the legend (a keynote's hexagon, a door tag) keeps its outline
//     outside the word: its share stays near a third.
//
// A symbol whose graphic holds words (a square with an F, GFI beside a
// receptacle) keeps its detections on words — its instances are words
// too — but not a candidate with nearly all the ink around it on words:
// when its legend's words are known (Template.WordsKnown), one with more
// than its own share of ink in words (Template.WordInk) plus TextInk of
// the rest is not refined (textInkFor). Synthetic seed 2's pull station
// (a square with an F, at half size as small as a capital) had 5,800
// candidates, none right, most on the letters of room names and numbers:
// 13 % of the probe work left, the same detections without it. A graphic
// mostly in words (over maxWordInk of its ink) is not held to it.

import (
	"image"
	"math"

	"github.com/plangraph/plangraph/vision/geom"
)

// WordCover is the share of a box that words must cover for what is in it
// to be text. A tag beside a symbol overlaps its box by a fraction of it.
const WordCover = 0.6

// TextInk is the share of the ink around a candidate that must lie inside
// words for the candidate to be on text (see above).
const TextInk = 0.7

// maxWordInk: a symbol whose graphic has more of its ink in words is
// mostly text, and its instances are mostly words: the ink rule does not
// apply to it.
const maxWordInk = 0.5

// textInkFor is the share of the ink around a candidate of t that words
// may hold before the candidate is taken to lie on text: TextInk for a
// graphic without text, more for one with TextInk's margin on the rest of
// its ink (a graphic with a third of its ink in words: 0.8); 0 when not
// known or when the graphic is mostly text.
func textInkFor(t Template) float64 {
	switch {
	case t.NoText:
		return TextInk
	case !t.WordsKnown || t.WordInk > maxWordInk:
		return 0
	}
	return TextInk + (1-TextInk)*max(t.WordInk, 0)
}

// textCell is the side of textIndex's cells, pixels.
const textCell = 256

// textIndex finds the words near a box: word boxes by cell.
type textIndex struct {
	words []geom.Box
	cells map[[2]int][]int
}

// newTextIndex indexes the words (nil when there are none).
func newTextIndex(words []geom.Box) *textIndex {
	if len(words) == 0 {
		return nil
	}
	ix := &textIndex{words: words, cells: map[[2]int][]int{}}
	for i, w := range words {
		if !w.Valid() || w.Area() == 0 {
			continue
		}
		x0, y0, x1, y1 := textCells(w)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				ix.cells[[2]int{x, y}] = append(ix.cells[[2]int{x, y}], i)
			}
		}
	}
	return ix
}

func textCells(b geom.Box) (x0, y0, x1, y1 int) {
	return int(math.Floor(b.XMin / textCell)), int(math.Floor(b.YMin / textCell)),
		int(math.Floor(b.XMax / textCell)), int(math.Floor(b.YMax / textCell))
}

// cover is the share of b's area that words cover (words do not overlap
// one another; the share is capped at 1). 0 for a nil index.
func (ix *textIndex) cover(b geom.Box) float64 {
	a := b.Area()
	if ix == nil || a <= 0 {
		return 0
	}
	in := 0.0
	ix.overlapping(b, func(_ int, o geom.Box) { in += o.Area() })
	return min(in/a, 1)
}

// overlapping calls f once for each word that overlaps b, with the word's
// index and its overlap with b (a word in several cells is visited in the
// one that holds the corner of its overlap).
func (ix *textIndex) overlapping(b geom.Box, f func(i int, o geom.Box)) {
	x0, y0, x1, y1 := textCells(b)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, i := range ix.cells[[2]int{x, y}] {
				o := b.Intersect(ix.words[i])
				if o.Area() > 0 {
					if cx, cy, _, _ := textCells(o); cx == x && cy == y {
						f(i, o)
					}
				}
			}
		}
	}
}

// onText tells whether a candidate of a textless symbol centred at (x, y)
// with the given radius (pixels of the searched image) lies on words.
func (ix *textIndex) onText(x, y, radius float64) bool {
	h := radius / 2
	return ix.cover(geom.Box{XMin: x - h, YMin: y - h, XMax: x + h, YMax: y + h}) >= WordCover
}

// mask marks the pixels of a w×h level at scale f (level pixels per
// full-resolution pixel) that words cover, wholly or in part.
func (ix *textIndex) mask(w, h int, f float64) []bool {
	out := make([]bool, w*h)
	for _, b := range ix.words {
		if !b.Valid() || b.Area() == 0 {
			continue
		}
		x0, y0 := max(int(math.Floor(b.XMin*f)), 0), max(int(math.Floor(b.YMin*f)), 0)
		x1, y1 := min(int(math.Ceil(b.XMax*f)), w), min(int(math.Ceil(b.YMax*f)), h)
		for y := y0; y < y1; y++ {
			row := out[y*w : y*w+w]
			for x := x0; x < x1; x++ {
				row[x] = true
			}
		}
	}
	return out
}

// inkOnWords is the share of lv's ink in the square of half-side h around
// (x, y) (level pixels) that lies on words (mask, as made by
// textIndex.mask for lv); 0 when the square holds no ink.
func inkOnWords(lv *fimg, words []bool, x, y, h int) float64 {
	var all, on float64
	for yy := max(y-h, 0); yy <= min(y+h, lv.h-1); yy++ {
		for xx := max(x-h, 0); xx <= min(x+h, lv.w-1); xx++ {
			i := yy*lv.w + xx
			v := float64(lv.p[i])
			all += v
			if words[i] {
				on += v
			}
		}
	}
	if all <= 0 {
		return 0
	}
	return on / all
}

// translated returns the words moved by (-dx, -dy): in the pixels of a
// part of the image whose origin is at (dx, dy).
func translated(words []geom.Box, dx, dy float64) []geom.Box {
	if len(words) == 0 {
		return nil
	}
	out := make([]geom.Box, len(words))
	for i, w := range words {
		out[i] = w.Translate(-dx, -dy)
	}
	return out
}

// WordInk is the share of img's ink that lies inside words (boxes in
// img's own coordinates, its Bounds): for Template.WordInk, with a legend
// graphic and the legend's words that are surely text. 0 when img has no
// ink.
func WordInk(img *image.Gray, words []geom.Box) float64 {
	b := img.Bounds()
	var near []geom.Box // the words over img
	for _, w := range words {
		if w.XMax > float64(b.Min.X) && w.XMin < float64(b.Max.X) && w.YMax > float64(b.Min.Y) && w.YMin < float64(b.Max.Y) {
			near = append(near, w)
		}
	}
	all, on := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.Pix[img.PixOffset(x, y)] >= inkLevel {
				continue
			}
			all++
			px, py := float64(x)+0.5, float64(y)+0.5
			for _, w := range near {
				if px >= w.XMin && px < w.XMax && py >= w.YMin && py < w.YMax {
					on++
					break
				}
			}
		}
	}
	if all == 0 {
		return 0
	}
	return float64(on) / float64(all)
}
