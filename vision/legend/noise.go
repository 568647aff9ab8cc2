package legend

import (
	"image"
	"math"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Words that are not text: OCR's readings of marks and a symbol font's
// glyphs, left out of the words so that their ink is a graphic's — unless
// they stand within a line of text.

// ocrNoise leaves out the words OCR made of graphics, and glyphs of a
// symbol font (glyphSymbol): a symbol read as
// "©", "@", "=" or "——" (no letter or digit; a lone "&" is a word), read with low confidence,
// or drawn solid (a row of filled switch glyphs read as "666": letters are
// strokes, not filled shapes). Their ink is then a graphic's, as it is.
// Words of a text layer (confidence 1) and words of unknown confidence (0)
// are all kept.
//
// A word OCR doubts that stands in a line of text is the line's, though:
// a legend sets its symbols apart from their text, in a column or a cell
// of their own, never between two words of a sentence, so a mark read
// between two words ("200mm(W) x 300mm", "Spec & Arch", "coat + paint"),
// or a word starting a continuation line under its paragraph's left edge
// with the line going on after it, is a letter or a word of that text
// (a bold "x" filled at its crossing, a misread "manuf's"), not a graphic
// to search the drawings for.
func ocrNoise(img *image.Gray, words []text.Word) []text.Word {
	noise := make([]bool, len(words))
	for i, w := range words {
		noise[i] = w.Conf > 0 && w.Conf < 1 && (w.Conf < ocrMinConf || !hasAlnum(w.Text) && w.Text != "&" || solidShare(img, w.Box) > maxSolidShare)
	}
	out := words[:0:0]
	for i, w := range words {
		if noise[i] && !inLine(i, words, noise) || glyphSymbol(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// inLine reports a doubtful word (noise[i]) set within a line of text:
// a sure word beside it on each side, each within a word space (runGapEm
// of its height) and of about its height; or, at the start of a line, a
// sure word beside it on its right and another starting at its left edge
// in the line just above (a paragraph's continuation line).
func inLine(i int, words []text.Word, noise []bool) bool {
	w := words[i].Box
	if w.Height() <= 0 {
		return false
	}
	var left, right, above bool
	for j, o := range words {
		b := o.Box
		if j == i || noise[j] || !hasAlnum(o.Text) || b.Height() <= 0 || w.Height() > 1.5*b.Height() {
			continue
		}
		space := runGapEm * b.Height()
		ov := math.Min(w.YMax, b.YMax) - math.Max(w.YMin, b.YMin)
		if ov >= 0.5*math.Min(w.Height(), b.Height()) {
			if g := w.XMin - b.XMax; g >= -0.2*b.Height() && g <= space {
				left = true
			}
			if g := b.XMin - w.XMax; g >= -0.2*b.Height() && g <= space {
				right = true
			}
			continue
		}
		if g := w.YMin - b.YMax; g >= -0.2*b.Height() && g <= contGapEm*b.Height() && math.Abs(b.XMin-w.XMin) <= 0.5*b.Height() {
			above = true
		}
	}
	return right && (left || above)
}

// glyphSymbol reports a word of one or two characters whose box is far
// wider than its letters: a symbol drawn with a font (a switch's "$"
// stroked through, a text layer's "S"; a dimmer's "D" with its lead), or a
// digit set sideways on a symbol. Its ink is the graphic's.
func glyphSymbol(w text.Word) bool {
	n := len([]rune(w.Text))
	return n <= 2 && w.Box.Height() > 0 && w.Box.Width() > 1.6*float64(n)*w.Box.Height()
}

// maxSolidShare: a word with more of its ink in solid areas is a graphic.
const maxSolidShare = 0.25

// solidShare is the share of the ink inside box that lies in solid areas:
// ink at the centre of an all-ink square a third of the box's height
// across. A letter's strokes are thinner than that, even where they meet.
func solidShare(img *image.Gray, box geom.Box) float64 {
	r := image.Rect(int(box.XMin), int(box.YMin), int(math.Ceil(box.XMax)), int(math.Ceil(box.YMax))).Intersect(img.Bounds())
	k := r.Dy() / 3
	if r.Dx() < k || k < 3 {
		return 0
	}
	w, h := r.Dx(), r.Dy()
	// sum[(y)*(w+1)+x]: ink pixels above and left of (x, y).
	sum := make([]int, (w+1)*(h+1))
	ink := 0
	for y := 0; y < h; y++ {
		row := 0
		for x := 0; x < w; x++ {
			if img.GrayAt(r.Min.X+x, r.Min.Y+y).Y < inkLevel {
				row++
				ink++
			}
			sum[(y+1)*(w+1)+x+1] = sum[y*(w+1)+x+1] + row
		}
	}
	if ink == 0 {
		return 0
	}
	// cover: a difference array of the all-ink squares; its prefix sums
	// count the squares over each pixel.
	cover := make([]int, (w+1)*(h+1))
	for y := 0; y+k <= h; y++ {
		for x := 0; x+k <= w; x++ {
			if sum[(y+k)*(w+1)+x+k]-sum[y*(w+1)+x+k]-sum[(y+k)*(w+1)+x]+sum[y*(w+1)+x] == k*k {
				cover[y*(w+1)+x]++
				cover[y*(w+1)+x+k]--
				cover[(y+k)*(w+1)+x]--
				cover[(y+k)*(w+1)+x+k]++
			}
		}
	}
	n := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*(w+1) + x
			if x > 0 {
				cover[i] += cover[i-1]
			}
			if y > 0 {
				cover[i] += cover[i-(w+1)]
			}
			if x > 0 && y > 0 {
				cover[i] -= cover[i-(w+1)-1]
			}
			if cover[i] > 0 {
				n++
			}
		}
	}
	return float64(n) / float64(ink)
}

// ocrMinConf: OCR words read with less confidence are taken for graphics.
const ocrMinConf = 0.5

func hasAlnum(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}
