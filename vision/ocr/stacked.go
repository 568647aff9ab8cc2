package ocr

import (
	"cmp"
	"image"
	"math"
	"slices"

	"github.com/otiai10/gosseract/v2"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A word Tesseract's sparse reading boxes across two text lines — a large
// title drawn tight over the first row of its table, whose glyph under the
// title's end became part of the title's word ("ABBREVIATIO" reaching down
// over the "IN" below it, and "NS" a word of its own) — is read again a
// line at a time: its box holds a band of white rows across its whole width
// between two bands of ink, which no word of one line has (the dots of
// "i" and "j" stand too close and too small for the thresholds below).

// Thresholds of stackedBands, as fractions of the ink's height in the box.
const (
	stackedMinGap = 0.2 // the white band between the two lines
	// a word 1.6 times as tall as the other words of its line (its line's
	// "PLAN" boxed up over a grid label just above it) needs only a few
	// white rows between the two
	stackedTallGap = 0.05
	stackedMinBand = 0.1 // each line's ink
	// A line read again is kept where Tesseract is sure of it: a band of
	// hatching or linework under a word reads as letters too ("NOY").
	stackedMinConf = 0.75
)

// band is a run of rows [y0, y1) in image pixels.
type band struct{ y0, y1 int }

// stackedBands returns the two bands of ink a word's box b holds, one over
// the other with white rows between them across b's width, or ok false.
// A row is ink where two or more of its pixels in b are dark.
func stackedBands(img *image.Gray, b geom.Box, minBand int, minGap float64) (top, bottom band, ok bool) {
	r := image.Rect(int(b.XMin), int(b.YMin), int(math.Ceil(b.XMax)), int(math.Ceil(b.YMax))).Add(img.Bounds().Min).Intersect(img.Bounds())
	if r.Dx() < r.Dy() || r.Dy() < 2*minBand {
		return band{}, band{}, false
	}
	// A rule drawn across the word (a title's underline, the line under a
	// table's heading) is no line of text: in a box at least twice as wide
	// as it is high, a row dark over nine tenths of its width is white.
	rules := r.Dx() >= 2*r.Dy()
	ink := make([]bool, r.Dy())
	first, last := -1, -1
	for y := r.Min.Y; y < r.Max.Y; y++ {
		n := 0
		i := img.PixOffset(r.Min.X, y)
		for _, p := range img.Pix[i : i+r.Dx()] {
			if p < 128 {
				n++
			}
		}
		if n >= 2 && !(rules && n >= r.Dx()*9/10) {
			ink[y-r.Min.Y] = true
			if first < 0 {
				first = y - r.Min.Y
			}
			last = y - r.Min.Y
		}
	}
	if first < 0 {
		return band{}, band{}, false
	}
	// The longest run of white rows between the first and last ink rows.
	g0, g1 := 0, 0
	for y := first; y <= last; {
		if ink[y] {
			y++
			continue
		}
		s := y
		for y <= last && !ink[y] {
			y++
		}
		if y-s > g1-g0 {
			g0, g1 = s, y
		}
	}
	h := float64(last + 1 - first)
	lo, hi := min(g0-first, last+1-g1), max(g0-first, last+1-g1)
	if float64(g1-g0) < minGap*h || g1-g0 < 3 || float64(lo) < stackedMinBand*h || lo < minBand/2 || hi < minBand {
		return band{}, band{}, false
	}
	y := r.Min.Y - img.Bounds().Min.Y
	return band{y + first, y + g0}, band{y + g1, y + last + 1}, true
}

// splitStacked reads again, a line at a time, every word of ws (read from
// img, boxes relative to img.Bounds().Min; lines numbered up to n) whose box
// holds two lines of text. A line's reading takes the words standing
// beside it at that height, at most that line's height apart (the title's
// "NS" beside "ABBREVIATIO"): they are read again as one line. Words whose
// reading finds nothing sure, or nothing across half the word, are kept as
// they were. It returns the words and the number of lines.
func splitStacked(img *image.Gray, dpi int, ws []text.Word, n int, opt Options) ([]text.Word, int, error) {
	var line *gosseract.Client
	defer func() {
		if line != nil {
			line.Close()
		}
	}()
	// The smallest lettering read again, in pixels: a line's ink at least
	// 2.4 pt high (1.2 pt for the smaller of the two, a row of digits under
	// a title), 300 DPI when dpi is unknown.
	if dpi <= 0 {
		dpi = 300
	}
	minBand := max(4, dpi/30)
	// each line's height: the median of its words' heights
	byLine := map[int][]float64{}
	for _, w := range ws {
		byLine[w.Line] = append(byLine[w.Line], w.Box.Height())
	}
	lineHeights := map[int]float64{}
	for ln, hs := range byLine {
		if len(hs) >= 2 {
			slices.Sort(hs)
			lineHeights[ln] = hs[(len(hs)-1)/2]
		}
	}
	gone := make([]bool, len(ws))
	var add []text.Word
	for i, w := range ws {
		if gone[i] {
			continue
		}
		minGap := stackedMinGap
		if h := lineHeights[w.Line]; h > 0 && w.Box.Height() >= 1.6*h {
			minGap = stackedTallGap
		}
		top, bottom, ok := stackedBands(img, w.Box, minBand, minGap)
		if !ok {
			continue
		}
		if line == nil {
			var err error
			if line, err = newClient(opt, dpi, gosseract.PSM_SINGLE_LINE); err != nil {
				return nil, 0, err
			}
		}
		var got []text.Word
		var absorbed []int
		kept := false // a band's reading keeps w's line number
		gap := float64(bottom.y0 - top.y1)
		for _, bd := range []band{top, bottom} {
			y0, y1 := float64(bd.y0), float64(bd.y1)
			cover := geom.Box{XMin: w.Box.XMin, YMin: y0, XMax: w.Box.XMax, YMax: y1}
			var with []int
			for grew := true; grew; {
				grew = false
				for j, o := range ws {
					if j == i || gone[j] || slices.Contains(with, j) {
						continue
					}
					across := math.Min(o.Box.YMax, y1) - math.Max(o.Box.YMin, y0)
					apart := max(o.Box.XMin-cover.XMax, cover.XMin-o.Box.XMax)
					if across >= 0.6*o.Box.Height() && o.Box.Height() <= 1.5*(y1-y0) && apart <= y1-y0 {
						with = append(with, j)
						cover = cover.Union(o.Box)
						grew = true
					}
				}
			}
			pad := 0.25 * (y1 - y0)
			region := geom.Box{
				XMin: cover.XMin - pad, XMax: cover.XMax + pad,
				YMin: cover.YMin - min(pad, gap/2), YMax: cover.YMax + min(pad, gap/2),
			}
			if bd == bottom {
				region.YMin = max(region.YMin, float64(top.y1)+gap/2)
			} else {
				region.YMax = min(region.YMax, float64(bottom.y0)-gap/2)
			}
			rr := image.Rect(int(region.XMin), int(region.YMin), int(math.Ceil(region.XMax)), int(math.Ceil(region.YMax))).Add(img.Bounds().Min).Intersect(img.Bounds())
			if rr.Empty() {
				continue
			}
			rws, _, err := recognize(line, img.SubImage(rr).(*image.Gray), dpi, opt)
			if err != nil {
				return nil, 0, err
			}
			rws = slices.DeleteFunc(rws, func(rw text.Word) bool { return rw.Conf < stackedMinConf || !text.HasAlnum(rw.Text) })
			if len(rws) == 0 {
				continue
			}
			ln := w.Line
			if kept {
				n++
				ln = n
			}
			kept = true
			dx, dy := float64(rr.Min.X-img.Bounds().Min.X), float64(rr.Min.Y-img.Bounds().Min.Y)
			for _, rw := range rws {
				rw.Box = rw.Box.Translate(dx, dy)
				rw.Line = ln
				got = append(got, rw)
			}
			absorbed = append(absorbed, with...)
		}
		if !spans(got, w.Box) {
			continue // the word's own letters not read again
		}
		gone[i] = true
		for _, j := range absorbed {
			gone[j] = true
		}
		add = append(add, got...)
	}
	if len(add) == 0 {
		return ws, n, nil
	}
	out := make([]text.Word, 0, len(ws)+len(add))
	for i, w := range ws {
		if !gone[i] {
			out = append(out, w)
		}
	}
	return append(out, add...), n, nil
}

// spans reports words covering at least half of b's width between them
// (on any line).
func spans(ws []text.Word, b geom.Box) bool {
	var xs [][2]float64
	for _, w := range ws {
		if x0, x1 := max(w.Box.XMin, b.XMin), min(w.Box.XMax, b.XMax); x1 > x0 {
			xs = append(xs, [2]float64{x0, x1})
		}
	}
	slices.SortFunc(xs, func(a, c [2]float64) int { return cmp.Compare(a[0], c[0]) })
	covered, end := 0.0, b.XMin
	for _, x := range xs {
		if x[1] > end {
			covered += x[1] - max(x[0], end)
			end = x[1]
		}
	}
	return covered >= 0.5*b.Width()
}
