package layout

import (
	"cmp"
	"image"
	"maps"
	"math"
	"slices"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Page is what is known of a sheet before its blocks are cut: its ink at
// working resolution, its border, its ruling lines and its title block.
// Analyze makes it; sheetinfo reads fields in its cells (Cell), Blocks cuts
// the blocks.
type Page struct {
	m, dark      *mask
	k            float64 // mask pixels per image pixel
	em           float64 // median word height, mask pixels
	bounds       image.Rectangle
	inner, frame rect
	bordered     bool
	rules        *rules
	mw           []text.Word // the words in mask pixels

	// the title block found by its ruling and content (tbOK), the drawing
	// area beside it, and the parts of its strip that are other blocks
	tb, tbRest rect
	tbOK       bool
	tbCorner   bool // tb is a box in a corner: the area beside it is not one rectangle
	tbOthers   []rect
	tbGuess    rect // a ruled strip or box that may be the title block, when none was found

	gfx, agfx *mask // dark ink, all ink, less the words (graphics)
	// tone marks the cells in continuous tone (photographs, renderings)
	tone []bool
}

// Analyze finds a page's border, ruling and title block. words are the
// page's words in img's pixels. It returns nil for an empty page.
func Analyze(img *image.Gray, words []text.Word) *Page {
	if img == nil {
		return nil
	}
	b := img.Bounds()
	W, H := b.Dx(), b.Dy()
	if W < 4 || H < 4 {
		return nil
	}
	f := (max(W, H) + maxSide - 1) / maxSide
	p := &Page{k: 1 / float64(f), bounds: b}
	p.m, p.dark, p.tone = pool(img, f)
	p.em = emHeight(words, W, H) * p.k
	if p.m.bbox(rect{0, 0, p.m.w, p.m.h}).empty() {
		return nil
	}
	p.inner, p.frame, p.bordered = p.m.frame()
	p.rules = p.m.findRules(max(int(3*p.em), 6), max(3, int(math.Round(0.6*p.em))))
	p.mw = make([]text.Word, len(words))
	for i, w := range words {
		p.mw[i] = w
		p.mw[i].Box = p.toMask(w.Box)
	}
	p.rules.dropText(p.mw)
	p.findTitleBlock()
	return p
}

// toMask maps a box of image pixels to mask pixels (zero stays zero).
func (p *Page) toMask(b geom.Box) geom.Box {
	if !b.Valid() {
		return geom.Box{}
	}
	o := p.bounds.Min
	return geom.Box{XMin: (b.XMin - float64(o.X)) * p.k, YMin: (b.YMin - float64(o.Y)) * p.k,
		XMax: (b.XMax - float64(o.X)) * p.k, YMax: (b.YMax - float64(o.Y)) * p.k}
}

// toImage maps a mask rectangle to image pixels.
func (p *Page) toImage(r rect) geom.Box {
	o := p.bounds.Min
	return geom.Box{XMin: float64(r.x0)/p.k + float64(o.X), YMin: float64(r.y0)/p.k + float64(o.Y),
		XMax: float64(r.x1)/p.k + float64(o.X), YMax: float64(r.y1)/p.k + float64(o.Y)}
}

// TitleBlock is the title block found by its ruling and what it holds,
// in image pixels; false when none was (an unruled title block is then
// found by Blocks from the sheet number).
func (p *Page) TitleBlock() (geom.Box, bool) {
	if p == nil || !p.tbOK {
		return geom.Box{}, false
	}
	return p.toImage(p.tb), true
}

// TitleBlockGuess is where the title block probably is when TitleBlock
// found none: a ruled strip or corner box divided into cells whose words do
// not read as one (outlined lettering the text layer lacks). Reading it by
// OCR and analysing again may find it.
func (p *Page) TitleBlockGuess() (geom.Box, bool) {
	if p == nil || p.tbOK || p.tbGuess.empty() {
		return geom.Box{}, false
	}
	return p.toImage(p.tbGuess), true
}

// Cell is the ruled cell around b (image pixels): the nearest ruling lines
// above, below, left and right of it; a zero box when no line encloses it
// on any side.
func (p *Page) Cell(b geom.Box) geom.Box {
	if p == nil || !b.Valid() {
		return geom.Box{}
	}
	mb := p.toMask(b)
	r := rect{int(mb.XMin), int(mb.YMin), int(math.Ceil(mb.XMax)), int(math.Ceil(mb.YMax))}
	lim := rect{0, 0, p.m.w, p.m.h}
	c := p.rules.cell(r, lim)
	if c == lim {
		return geom.Box{}
	}
	return p.toImage(c)
}

// clone copies the mask (cutting blocks clears parts of it).
func (m *mask) clone() *mask {
	return &mask{w: m.w, h: m.h, ink: append([]bool(nil), m.ink...)}
}

// UnreadText counts, in b (image pixels), the pieces of ink shaped like
// lettering — a letter or a word, from a third of a text height to three
// text heights tall and less than forty long — and how many of them no
// word covers: lettering the words (a text layer) lack, drawn as outlines.
func (p *Page) UnreadText(b geom.Box) (unread, total int) {
	if p == nil || !b.Valid() {
		return 0, 0
	}
	mb := p.toMask(b)
	r := rect{max(int(mb.XMin), 0), max(int(mb.YMin), 0), min(int(math.Ceil(mb.XMax)), p.m.w), min(int(math.Ceil(mb.YMax)), p.m.h)}
	if r.empty() {
		return 0, 0
	}
	covered := make([]bool, p.m.w*p.m.h)
	for _, w := range p.mw {
		for y := max(int(w.Box.YMin)-1, r.y0); y < min(int(math.Ceil(w.Box.YMax))+1, r.y1); y++ {
			for x := max(int(w.Box.XMin)-1, r.x0); x < min(int(math.Ceil(w.Box.XMax))+1, r.x1); x++ {
				covered[y*p.m.w+x] = true
			}
		}
	}
	seen := make([]bool, p.m.w*p.m.h)
	var stack []int
	em := math.Max(p.em, 2)
	for y := r.y0; y < r.y1; y++ {
		for x := r.x0; x < r.x1; x++ {
			i := y*p.m.w + x
			if !p.m.ink[i] || seen[i] {
				continue
			}
			// one 8-connected piece
			seen[i] = true
			stack = append(stack[:0], i)
			x0, y0, x1, y1, cov, n := x, y, x, y, 0, 0
			for len(stack) > 0 {
				j := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				jx, jy := j%p.m.w, j/p.m.w
				x0, y0, x1, y1 = min(x0, jx), min(y0, jy), max(x1, jx), max(y1, jy)
				n++
				if covered[j] {
					cov++
				}
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						nx, ny := jx+dx, jy+dy
						if nx < r.x0 || ny < r.y0 || nx >= r.x1 || ny >= r.y1 {
							continue
						}
						if k := ny*p.m.w + nx; p.m.ink[k] && !seen[k] {
							seen[k] = true
							stack = append(stack, k)
						}
					}
				}
			}
			h, w := float64(y1-y0+1), float64(x1-x0+1)
			if h < em/3 || h > 3*em || w > 40*em {
				continue
			}
			total++
			if 2*cov < n {
				unread++
			}
		}
	}
	return unread, total
}

// SplitAtRules is words with each line OCR read cut where a vertical
// ruling line runs between two of its words: OCR reads the labels and
// values of a title block's cells side by side as one line ("… ROSEWORTHY
// WAREHOUSE … FOOTING PLAN" over four cells). The words after a cut are
// numbered as a line of their own, after words' last. A text layer's
// lines are as the PDF sets them and stay.
func (p *Page) SplitAtRules(words []text.Word) []text.Word {
	if p == nil || p.rules == nil || len(p.rules.v) == 0 {
		return words
	}
	byLine := map[int][]int{}
	maxLine := 0
	for i, w := range words {
		byLine[w.Line] = append(byLine[w.Line], i)
		maxLine = max(maxLine, w.Line)
	}
	out := append([]text.Word(nil), words...)
	// ruled reports a vertical rule between mask columns x0 and x1 crossing
	// row y
	ruled := func(x0, x1, y float64) bool {
		for _, s := range p.rules.v {
			if float64(s.pos) >= x0 && float64(s.pos+s.thick) <= x1 && float64(s.a) <= y && float64(s.b) > y {
				return true
			}
		}
		return false
	}
	for _, ln := range slices.Sorted(maps.Keys(byLine)) {
		idx := byLine[ln]
		if len(idx) < 2 {
			continue
		}
		ocr := true
		for _, i := range idx {
			if c := words[i].Conf; c <= 0 || c >= 1 {
				ocr = false
			}
		}
		if !ocr {
			continue
		}
		slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(words[a].Box.XMin, words[b].Box.XMin) })
		line := words[idx[0]].Line
		for k := 1; k < len(idx); k++ {
			a, b := p.toMask(words[idx[k-1]].Box), p.toMask(words[idx[k]].Box)
			y := (max(a.YMin, b.YMin) + min(a.YMax, b.YMax)) / 2
			if ruled(a.XMax, b.XMin, y) {
				maxLine++
				line = maxLine
			}
			out[idx[k]].Line = line
		}
	}
	return out
}
