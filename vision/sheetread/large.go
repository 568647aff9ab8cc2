package sheetread

import (
	"context"
	"image"
	"math"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/ocr"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/text"
)

// largeLetterPx are the heights lettering too large for OCR is shrunk to
// before it is read, each tried: Tesseract reads capitals 30–80 px tall
// best, but which of them reads a given line right varies (a scanned
// "A11.4" an inch tall reads "A114" at 80 px and right at 48; "S2.01"
// reads "$2.01" at 48 and right at 80), so the more confident reading is
// kept.
var largeLetterPx = [...]float64{48, 80}

// largeMinConf: a word read from large lettering is kept at this
// confidence; below it, a logo's or a stamp's shapes read as letters.
const largeMinConf = 0.6

// readLarge reads the lines of large lettering in tb no word covers
// (largeRuns), each alone at the sizes of largeLetterPx, and returns the
// words of its most confident reading that are of about its height
// (boxes in img's pixels), read with confidence and holding two letters or
// digits (a letter alone is as likely a north arrow's or a logo's shape).
func readLarge(ctx context.Context, img *image.Gray, words []text.Word, tb geom.Box, langs []string) ([]text.Word, error) {
	var out []text.Word
	b := img.Bounds()
	line := 0
	for _, r := range largeRuns(img, tb, words) {
		h := r.Height()
		pad := 0.4 * h
		crop := image.Rect(int(r.XMin-pad), int(r.YMin-pad), int(math.Ceil(r.XMax+pad)), int(math.Ceil(r.YMax+pad))).Add(b.Min).Intersect(b)
		if crop.Empty() {
			continue
		}
		sub := img.SubImage(crop).(*image.Gray)
		var best []text.Word
		bestConf := 0.0
		for _, px := range largeLetterPx {
			f := math.Min(1, px/h)
			work := sub
			if f < 1 {
				work = render.Resize(sub, max(1, int(float64(crop.Dx())*f)), max(1, int(float64(crop.Dy())*f)))
			}
			// the image's DPI is not passed: Tesseract's own estimate
			// from the lettering serves better than a nominal one
			ws, err := ocr.Words(ctx, work, 0, ocr.Options{MinConf: -1, Block: true, Languages: langs})
			if err != nil {
				return nil, err
			}
			var got []text.Word
			sum := 0.0
			for _, w := range ws {
				// the box, to the run's rows: Tesseract's may take in
				// the lower half of a label over the lettering
				w.Box = geom.Box{
					XMin: w.Box.XMin/f + float64(crop.Min.X-b.Min.X), YMin: max(w.Box.YMin/f+float64(crop.Min.Y-b.Min.Y), r.YMin-0.15*h),
					XMax: w.Box.XMax/f + float64(crop.Min.X-b.Min.X), YMax: min(w.Box.YMax/f+float64(crop.Min.Y-b.Min.Y), r.YMax+0.15*h),
				}
				if w.Box.Height() < 0.5*h || alnums(w.Text) < 2 {
					continue
				}
				got = append(got, w)
				sum += w.Conf
			}
			if len(got) > 0 && sum/float64(len(got)) > bestConf {
				best, bestConf = got, sum/float64(len(got))
			}
			if f == 1 {
				break // lettering this small is read as it is
			}
		}
		maxLine := 0
		for _, w := range best {
			maxLine = max(maxLine, w.Line)
			if w.Conf >= largeMinConf {
				w.Line += line
				out = append(out, w)
			}
		}
		line += maxLine
	}
	return out, nil
}

// largeRuns finds, in tb (img's pixels, relative to its bounds), the
// lines of lettering too large for the page's reading: inkLines from two
// to thirty text heights tall, of two pieces or more (a piece alone is as
// likely a symbol: a north arrow, a stamp's ring). A box over half of the
// page is no title block's (and not worth the pass).
func largeRuns(img *image.Gray, tb geom.Box, words []text.Word) []geom.Box {
	b := img.Bounds()
	if 2*tb.Width()*tb.Height() > float64(b.Dx()*b.Dy()) {
		return nil
	}
	var out []geom.Box
	for _, l := range inkLines(img, tb, words, 2, 30) {
		if l.pieces >= 2 {
			out = append(out, l.Box)
		}
	}
	return out
}

// inkLine is a line of lettering no word covers and the pieces of ink it
// is made of.
type inkLine struct {
	geom.Box
	pieces int
}

// inkLines finds, in r (img's pixels, relative to its bounds), lines of
// lettering no word covers: pieces of dark ink off the ruling lines (runs
// of ink eight text heights long: big lettering often stands on a cell's
// edge; a piece running from one rule to another is theirs, spansRules)
// that no word covers, from minEm to maxEm text heights tall
// (text.TypeHeight), at most twelve times as long and more than a twelfth
// as wide (a rule's short stretch is not a letter), inked over a twelfth
// of their box (not a frame or a stamp's ring), joined along a row with
// pieces of about their height less than a height apart (the letters of a
// word, the words of a line).
func inkLines(img *image.Gray, box geom.Box, words []text.Word, minEm, maxEm float64) []inkLine {
	b := img.Bounds()
	r := image.Rect(int(box.XMin), int(box.YMin), int(math.Ceil(box.XMax)), int(math.Ceil(box.YMax))).Intersect(image.Rect(0, 0, b.Dx(), b.Dy()))
	em, _ := text.TypeHeight(words)
	if r.Empty() || em <= 0 {
		return nil
	}
	w, h := r.Dx(), r.Dy()
	// 0 paper, 1 ink, 2 ink a word covers (4 marks a rule's, cleared
	// before the pieces are found)
	grid := make([]uint8, w*h)
	long := int(8 * em)
	for y := 0; y < h; y++ {
		row := img.Pix[img.PixOffset(b.Min.X+r.Min.X, b.Min.Y+r.Min.Y+y):]
		for x := 0; x < w; x++ {
			if row[x] < 128 {
				grid[y*w+x] = 1
			}
		}
	}
	fill := func(bx geom.Box, pad float64, v uint8) {
		x0, y0 := max(int(bx.XMin-pad)-r.Min.X, 0), max(int(bx.YMin-pad)-r.Min.Y, 0)
		x1, y1 := min(int(math.Ceil(bx.XMax+pad))-r.Min.X, w), min(int(math.Ceil(bx.YMax+pad))-r.Min.Y, h)
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				if grid[y*w+x] != 0 {
					grid[y*w+x] = v
				}
			}
		}
	}
	for _, wd := range words {
		fill(wd.Box, 2, 2)
	}
	// rules: runs of ink long enough along a row or a column (marked, so
	// that a rule crossing another is found whole, then cleared)
	const rule = 4
	runs := func(n, m int, at func(i, j int) int) {
		for i := 0; i < n; i++ {
			for j := 0; j < m; {
				if grid[at(i, j)] == 0 {
					j++
					continue
				}
				k := j
				for k < m && grid[at(i, k)] != 0 {
					k++
				}
				if k-j >= long {
					for t := j; t < k; t++ {
						grid[at(i, t)] |= rule
					}
				}
				j = k
			}
		}
	}
	runs(h, w, func(y, x int) int { return y*w + x })
	runs(w, h, func(x, y int) int { return y*w + x })
	var pieces []geom.Box
	var stack, touch []int
	for i, v := range grid {
		if v == 0 || v&rule != 0 {
			continue
		}
		stack = append(stack[:0], i)
		x0, y0, x1, y1, n, cov := w, h, 0, 0, 0, 0
		touch = touch[:0] // the rule pixels next to the piece
		if v == 2 {
			cov++
		}
		grid[i] = 0
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := j%w, j/w
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x+1), max(y1, y+1)
			n++
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					if k := ny*w + nx; grid[k]&rule != 0 {
						touch = append(touch, k)
					} else if grid[k] != 0 {
						if grid[k] == 2 {
							cov++
						}
						grid[k] = 0
						stack = append(stack, k)
					}
				}
			}
		}
		pw, ph := float64(x1-x0), float64(y1-y0)
		if spansRules(touch, w, x0, y0, x1, y1) || 2*cov >= n || ph < minEm*em || ph > maxEm*em || pw > 12*ph || pw < 0.08*ph || 12*n < (x1-x0)*(y1-y0) {
			continue
		}
		pieces = append(pieces, geom.Box{XMin: float64(x0 + r.Min.X), YMin: float64(y0 + r.Min.Y), XMax: float64(x1 + r.Min.X), YMax: float64(y1 + r.Min.Y)})
	}
	// join the pieces of one line: of about one height, overlapping across
	// the line by half, less than a height apart along it
	count := make([]int, len(pieces))
	for i := range count {
		count[i] = 1
	}
	for joined := true; joined; {
		joined = false
		for i := 0; i < len(pieces) && !joined; i++ {
			for j := i + 1; j < len(pieces); j++ {
				a, c := pieces[i], pieces[j]
				ha, hc := a.Height(), c.Height()
				across := math.Min(a.YMax, c.YMax) - math.Max(a.YMin, c.YMin)
				gap := math.Max(a.XMin, c.XMin) - math.Min(a.XMax, c.XMax)
				if math.Max(ha, hc) < 1.5*math.Min(ha, hc) && across >= 0.5*math.Min(ha, hc) && gap < math.Max(ha, hc) {
					pieces[i] = a.Union(c)
					pieces = append(pieces[:j], pieces[j+1:]...)
					count[i] += count[j]
					count = append(count[:j], count[j+1:]...)
					joined = true
					break
				}
			}
		}
	}
	lines := make([]inkLine, len(pieces))
	for i, p := range pieces {
		lines[i] = inkLine{p, count[i]}
	}
	return lines
}

// spansRules tells whether a piece of ink boxed [x0,x1)×[y0,y1) (grid
// cells) runs from one rule to another, touching rule pixels (touch: grid
// indices, rows w wide) over its top and under its bottom, or left and
// right of it: a cell's divider shorter than a rule is linework, not a
// "1" or an "I". Lettering stands on one rule at most.
func spansRules(touch []int, w, x0, y0, x1, y1 int) bool {
	var above, below, left, right bool
	for _, k := range touch {
		x, y := k%w, k/w
		inX, inY := x >= x0 && x < x1, y >= y0 && y < y1
		above = above || (inX && y < y0)
		below = below || (inX && y >= y1)
		left = left || (inY && x < x0)
		right = right || (inY && x >= x1)
	}
	return (above && below) || (left && right)
}

// alnums counts the letters and digits of s.
func alnums(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}
