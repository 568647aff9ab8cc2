package legend

import (
	"image"
	"math"
	"slices"
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
// between two words ("200mm(W) x 300mm", "Spec & Arch", "coat + paint",
// "AK = Außenkante"), or a word starting a continuation line under its
// paragraph's left edge with the line going on after it, is a letter or a
// word of that text (a bold "x" filled at its crossing, a misread
// "manuf's"), not a graphic to search the drawings for. So is a word of
// letters OCR doubts (an umlaut read by an English model:
// "Brüstungshöhe" at 0.38) that follows a word or mark kept within a
// word space. A word kept so stands beside the next: the judgement
// repeats until nothing more is kept. Before it, a word OCR boxed over
// several rows is boxed by its own band of ink (trimTall), and a reading
// of a letter or two far taller than the lettering is a symbol
// (bigLetter).
func ocrNoise(img *image.Gray, words []text.Word) []text.Word {
	words = trimTall(img, words)
	em, _ := text.TypeHeight(words)
	noise := make([]bool, len(words))
	for i, w := range words {
		noise[i] = w.Conf > 0 && w.Conf < 1 && (w.Conf < ocrMinConf || !text.HasAlnum(w.Text) && w.Text != "&" ||
			solidShare(img, w.Box) > maxSolidShare || bigLetter(w, em))
	}
	doubted := slices.Clone(noise)
	for changed := true; changed; {
		changed = false
		for i := range words {
			if noise[i] && inLine(i, words, noise) {
				noise[i], changed = false, true
			}
		}
	}
	out := words[:0:0]
	for i, w := range words {
		if noise[i] || !doubted[i] && glyphSymbol(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// inLine reports a doubtful word (noise[i]) set within a line of text: a
// word not doubted beside it on each side, each within a word space
// (runGapEm of the taller's height; markSpace of them for a mark) and of
// about its height — beside a word, a mark kept will do; beside a mark,
// only a word, and on its right a doubted word of letters; at the start
// of a line, one beside it on its right and a sure word starting at its
// left edge in the line just above (a paragraph's continuation line); or,
// for a word of letters (wordLike), one beside it on its left.
func inLine(i int, words []text.Word, noise []bool) bool {
	w := words[i].Box
	if w.Height() <= 0 {
		return false
	}
	mark := !text.HasAlnum(words[i].Text)
	var left, right, above bool
	for j, o := range words {
		b := o.Box
		// a doubted word of letters serves as the word after a mark
		// ("BRH = Brüstungshöhe"): each then keeps the other
		after := mark && noise[j] && wordLike(o.Text)
		if j == i || noise[j] && !after || b.Height() <= 0 || mark && !text.HasAlnum(o.Text) {
			continue // two marks side by side are no text
		}
		space := runGapEm * math.Max(b.Height(), w.Height())
		if mark {
			space *= markSpace
		}
		ov := math.Min(w.YMax, b.YMax) - math.Max(w.YMin, b.YMin)
		if ov >= 0.5*math.Min(w.Height(), b.Height()) {
			if w.Height() > 1.5*b.Height() && text.HasAlnum(o.Text) {
				continue
			}
			if g := w.XMin - b.XMax; g >= -0.2*b.Height() && g <= space && !after {
				left = true
			}
			if g := b.XMin - w.XMax; g >= -0.2*b.Height() && g <= space {
				right = true
			}
			continue
		}
		if after || !text.HasAlnum(o.Text) || w.Height() > 1.5*b.Height() {
			continue
		}
		if g := w.YMin - b.YMax; g >= -0.2*b.Height() && g <= contGapEm*b.Height() && math.Abs(b.XMin-w.XMin) <= 0.5*b.Height() {
			above = true
		}
	}
	return right && (left || above) || left && wordLike(words[i].Text)
}

// bigLetter reports a reading of one or two characters far taller than
// the legend's lettering (em: its median word height): a symbol drawn
// like a letter (a corner guard's "L"), not a word of the text.
func bigLetter(w text.Word, em float64) bool {
	return em > 0 && len([]rune(w.Text)) <= 2 && text.HasAlnum(w.Text) && w.Box.Height() > 1.4*em
}

// markSpace: a mark may stand this many word spaces from its words (a
// list aligns its "=" signs with extra spaces: "TS  = Trennschiene").
const markSpace = 1.5

// wordLike: at least four characters, nearly all letters (a reading of
// a word, not of a mark or a hatch).
func wordLike(s string) bool {
	n, letters := 0, 0
	for _, r := range s {
		n++
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return n >= 4 && 5*letters >= 4*n
}

// trimTall shrinks the box of each OCR word that is taller than the
// words about it (1.5 em) to the band of ink inside it that holds most
// ink: OCR can box a word, or a column's "=", over two or three rows
// ("AK = Außenkante" over "AS = Anschlagschiene", "GWB" from the row above
// to the row below), which stands in no line; the glyphs themselves do.
func trimTall(img *image.Gray, words []text.Word) []text.Word {
	em, _ := text.TypeHeight(words)
	if em <= 0 {
		return words
	}
	out := slices.Clone(words)
	for i, w := range out {
		if w.Conf <= 0 || w.Conf >= 1 || w.Box.Height() <= 1.5*em {
			continue
		}
		// a heading's lettering fills its box; a box over several rows
		// holds the word's band and bits of others
		if b, ok := inkBand(img, w.Box, max(2, int(0.35*em))); ok && b.Height() < 0.6*w.Box.Height() {
			out[i].Box = b
		}
	}
	return out
}

// inkBand is the tight box of the ink inside box in its band of rows with
// the most ink, bands parted by at least gap rows without ink (false
// without ink).
func inkBand(img *image.Gray, box geom.Box, gap int) (geom.Box, bool) {
	r := image.Rect(int(box.XMin), int(box.YMin), int(math.Ceil(box.XMax)), int(math.Ceil(box.YMax))).Intersect(img.Bounds())
	best, bestInk := image.Rectangle{}, 0
	cur, ink, blank := image.Rectangle{}, 0, 0
	flush := func() {
		if ink > bestInk {
			best, bestInk = cur, ink
		}
		cur, ink = image.Rectangle{}, 0
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		n, x0, x1 := 0, r.Max.X, r.Min.X
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.GrayAt(x, y).Y < inkLevel {
				n++
				x0, x1 = min(x0, x), max(x1, x+1)
			}
		}
		if n > 0 {
			cur = cur.Union(image.Rect(x0, y, x1, y+1))
		}
		if n == 0 {
			if blank++; blank == gap {
				flush()
			}
			continue
		}
		blank = 0
		ink += n
	}
	flush()
	if bestInk == 0 {
		return geom.Box{}, false
	}
	return geom.Box{XMin: float64(best.Min.X), YMin: float64(best.Min.Y), XMax: float64(best.Max.X), YMax: float64(best.Max.Y)}, true
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
