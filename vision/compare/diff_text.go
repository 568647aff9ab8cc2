package compare

import (
	"image"
	"math"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
	"github.com/plangraph/plangraph/vision/vector"
)

// Text that changed in place. A letter replaced by another of the same
// size ("REV A" → "REV B", "104" → "105") moves little ink: most of the
// new letter's strokes lie within the tolerance of the old one's, and the
// few pixels left are no further than a stroke from it, so the pixel rules
// alone drop them as residue. Where the sides carry their text — the
// glyphs of a PDF page's geometry, or the words of a PDF text layer (not
// OCR, whose misreadings would be taken for edits) — a glyph or word of
// one side with no glyph or word of the same text at its place on the
// other marks its box: pixel differences there are kept whatever their
// size or distance. Text that only reads differently while its ink is the
// same has no pixel difference, so it makes no region.

// minWordConf is the confidence of a word from a PDF text layer (OCR
// words have less).
const minWordConf = 0.99

// textChanges returns the boxes, in B's pixels, of the glyphs and words
// of either side that the other side does not have at the same place
// (A's moved into B through t).
func textChanges(a, b *Side, t Transform) []image.Rectangle {
	var out []image.Rectangle
	if a.Page != nil && b.Page != nil {
		out = append(out, glyphChanges(a.Page, b.Page, t)...)
	}
	wa, wb := layerWords(a.Words), layerWords(b.Words)
	if len(wa) > 0 && len(wb) > 0 {
		out = append(out, wordChanges(wa, wb, t)...)
	}
	return out
}

// glyphChanges: a glyph matches one of the other page's of the same
// character whose origin is within a fifth of its size of its own
// (through t), and of a size within 15 %.
func glyphChanges(pa, pb *vector.Page, t Transform) []image.Rectangle {
	m, inv := affineOf(t), affineOf(t.Inverse())
	var out []image.Rectangle
	unmatched := func(from, to *vector.Page, mp affine, k float64, box func(vector.Rect) geom.Box) {
		cell := 0.0
		for _, g := range to.Glyphs {
			cell = max(cell, g.Size()/5)
		}
		idx := newGlyphIndex(to.Glyphs, cell)
		for _, g := range from.Glyphs {
			x, y := mp.apply(float64(g.E), float64(g.F))
			size := g.Size() * k
			if !idx.has(g.Rune, x, y, size) {
				out = append(out, paddedPixelRect(box(g.Box)))
			}
		}
	}
	unmatched(pa, pb, m, t.Scale, func(r vector.Rect) geom.Box { return t.ApplyBox(vecRectBox(r)) })
	unmatched(pb, pa, inv, 1/t.Scale, func(r vector.Rect) geom.Box { return vecRectBox(r) })
	return out
}

// glyphIndex buckets glyphs by rune and cell.
type glyphIndex struct {
	cell float64
	m    map[glyphKey][]vector.Glyph
}

type glyphKey struct {
	r    rune
	x, y int32
}

func newGlyphIndex(gs []vector.Glyph, cell float64) *glyphIndex {
	ix := &glyphIndex{cell: max(cell, 4), m: map[glyphKey][]vector.Glyph{}}
	for _, g := range gs {
		k := ix.key(g.Rune, float64(g.E), float64(g.F))
		ix.m[k] = append(ix.m[k], g)
	}
	return ix
}

func (ix *glyphIndex) key(r rune, x, y float64) glyphKey {
	return glyphKey{r, int32(math.Floor(x / ix.cell)), int32(math.Floor(y / ix.cell))}
}

// has reports whether a glyph of rune r and about size lies with its
// origin within size/5 of (x, y).
func (ix *glyphIndex) has(r rune, x, y, size float64) bool {
	k := ix.key(r, x, y)
	for dy := int32(-1); dy <= 1; dy++ {
		for dx := int32(-1); dx <= 1; dx++ {
			for _, g := range ix.m[glyphKey{r, k.x + dx, k.y + dy}] {
				if math.Hypot(float64(g.E)-x, float64(g.F)-y) <= max(1, size/5) &&
					math.Abs(g.Size()/size-1) <= 0.15 {
					return true
				}
			}
		}
	}
	return false
}

// layerWords keeps the words of a PDF text layer.
func layerWords(ws []text.Word) []text.Word {
	var out []text.Word
	for _, w := range ws {
		if w.Conf >= minWordConf && strings.TrimSpace(w.Text) != "" && w.Box.Valid() {
			out = append(out, w)
		}
	}
	return out
}

// wordChanges: a word matches a word of the other side with the same text
// whose box overlaps its own (through t) by half (IoU).
func wordChanges(wa, wb []text.Word, t Transform) []image.Rectangle {
	var out []image.Rectangle
	ma := make([]geom.Box, len(wa))
	for i, w := range wa {
		ma[i] = t.ApplyBox(w.Box)
	}
	matched := func(box geom.Box, s string, others []text.Word, obox func(int) geom.Box) bool {
		for j, o := range others {
			if o.Text == s && box.IoU(obox(j)) >= 0.5 {
				return true
			}
		}
		return false
	}
	for i, w := range wa {
		if !matched(ma[i], w.Text, wb, func(j int) geom.Box { return wb[j].Box }) {
			out = append(out, paddedPixelRect(ma[i]))
		}
	}
	for _, w := range wb {
		if !matched(w.Box, w.Text, wa, func(j int) geom.Box { return ma[j] }) {
			out = append(out, paddedPixelRect(w.Box))
		}
	}
	return out
}

// vecRectBox is the box of a rectangle of page geometry.
func vecRectBox(r vector.Rect) geom.Box {
	return geom.Box{XMin: float64(r.X0), YMin: float64(r.Y0), XMax: float64(r.X1), YMax: float64(r.Y1)}
}

// paddedPixelRect is the pixel rectangle holding a box, a pixel wider on each
// side (antialiasing).
func paddedPixelRect(b geom.Box) image.Rectangle {
	return image.Rect(int(math.Floor(b.XMin))-1, int(math.Floor(b.YMin))-1, int(math.Ceil(b.XMax))+1, int(math.Ceil(b.YMax))+1)
}
