package symbols

import (
	"context"
	"fmt"
	"image"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"gocv.io/x/gocv"

	"github.com/plangraph/plangraph/internal/geom"
	"github.com/plangraph/plangraph/internal/par"
)

// MinSymbolPx is the smallest symbol side searched (at 300 DPI).
const MinSymbolPx = 10

// Match searches img for every template at any rotation angle, mirrored or
// not, at MinScale..MaxScale of the template's size.
//
// The search is coarse to fine. (1) Rotation-invariant ring profiles find
// candidate centres and scales on a pyramid level where the symbol is 8–16
// pixels in radius. (2) At a level four times finer, the angle comes from
// correlating polar histograms, and a local search refines position, angle
// and scale by masked normalised correlation. (3) Verification measures a
// different similarity: how much of the template's centre lines lie on
// ink (a chamfer test) and how much of the ink under the symbol the
// template explains. (4) Detections of different symbols that overlap are
// resolved in favour of the one that explains the pixels best.
//
// Strokes are compared at one width: the template is reduced to its centre
// lines and redrawn at the drawing's stroke width, so legend and plan line
// weights may differ.
func Match(ctx context.Context, img *image.Gray, tmpls []Template, opt Options) (Result, error) {
	if opt.MinScale <= 0 {
		opt.MinScale = 0.5
	}
	if opt.MinConfidence <= 0 {
		opt.MinConfidence = 0.5
	}
	if opt.MaxScale <= 0 {
		opt.MaxScale = 2
	}
	if opt.MaxScale < opt.MinScale {
		return Result{}, fmt.Errorf("symbols: max scale %g below min scale %g", opt.MaxScale, opt.MinScale)
	}
	var res Result
	var prep []*prepared
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	// faint linework (grey tile and ceiling grids, hatching) is not
	// searched, nor part of a symbol, unless a symbol is mostly drawn so
	for _, t := range tmpls {
		if t.Image != nil {
			c, n := clearFaint(coverage(t.Image), t.Image)
			opt.keepFaint = opt.keepFaint || c*2 > n
		}
	}
	crops := make([]crop, len(tmpls))
	opt.noText = make([]bool, len(tmpls))
	opt.onWords = make([]float64, len(tmpls))
	opt.letterKeys = make([]string, len(tmpls))
	for i, t := range tmpls {
		crops[i] = cropTemplate(t, opt)
		opt.noText[i] = t.NoText
		opt.onWords[i] = textInkFor(t)
		opt.letterKeys[i] = letterKey(t.Text)
	}
	pen := legendPen(crops)
	for i, cr := range crops {
		p, reason := prepareCrop(i, cr, pen)
		if reason != "" {
			res.Skipped = append(res.Skipped, Skipped{Template: i, Reason: reason})
			continue
		}
		if p.bw*opt.MinScale > float64(w) || p.bh*opt.MinScale > float64(h) {
			res.Skipped = append(res.Skipped, Skipped{Template: i, Reason: "the symbol is larger than the searched image"})
			continue
		}
		prep = append(prep, p)
	}
	if len(prep) == 0 {
		return res, nil
	}
	var err error
	sctx := ctx
	if !opt.Deadline.IsZero() {
		var cancel context.CancelFunc
		sctx, cancel = context.WithDeadline(ctx, opt.Deadline)
		defer cancel()
	}
	// out of budget: the caller's context is live, the search's is not
	overBudget := func(err error) bool { return err != nil && ctx.Err() == nil && sctx.Err() != nil }
	if w*h <= tileMinArea {
		res.Detections, res.Stats, err = search(sctx, img, prep, opt, 0, image.Point{}, image.Rect(0, 0, w, h))
		if overBudget(err) {
			// stopped in the refinement, the likeliest places were
			// examined; stopped before, none was
			if res.Stats.Unrefined == 0 || res.Stats.Unrefined >= res.Stats.Candidates {
				res.Detections, res.Unsearched = nil, []image.Rectangle{img.Bounds()}
			}
			err = nil
		}
	} else {
		res.Detections, res.Stats, res.Unsearched, err = searchTiled(sctx, img, prep, opt, overBudget)
	}
	if err != nil {
		return res, err
	}
	for i := range res.Detections {
		res.Detections[i].Label = tmpls[res.Detections[i].Template].Label
	}
	return res, nil
}

// search runs the whole search on img (sw > 0: the drawing's stroke width,
// else measured on img). Detections are suppressed across symbols. origin
// places img in the image Match was given (traces only). core is the part
// of img (in img's own pixels, from 0) whose detections are kept: a tile's
// own region; candidates centred farther outside it than half their
// radius are not refined (refinement moves a pose by less, and a
// detection centred outside the core is dropped).
func search(ctx context.Context, img *image.Gray, prep []*prepared, opt Options, sw float64, origin image.Point, core image.Rectangle) ([]Detection, Stats, error) {
	var st Stats
	cov := opt.coverage(img)
	if sw <= 0 {
		sw = strokeWidth(cov)
	}
	keep := 0.0
	for _, p := range prep {
		keep = max(keep, max(p.bw, p.bh)*opt.MaxScale)
	}
	hidden := removeFills(cov, sw, keep)
	if nothingDrawn(cov) {
		return nil, st, nil
	}
	m := &matcher{opt: opt, levels: []*fimg{cov}, sw: sw, origin: origin, longRun: keep * 1.25, hidden: hidden}
	for _, p := range prep {
		if opt.onWords[p.idx] > 0 { // every textless template's is
			m.text = newTextIndex(translated(opt.Words, float64(origin.X), float64(origin.Y)))
			break
		}
	}
	m.letters = newLetterIndex(opt.Letters, opt.letterKeys, float64(origin.X), float64(origin.Y))
	st.StrokeWidth = sw
	t0 := time.Now()
	cands, err := m.ringPass(ctx, prep)
	if err != nil {
		return nil, st, err
	}
	inCore := cands[:0]
	for _, c := range cands {
		g := 0.5 * c.radius
		if c.x >= float64(core.Min.X)-g && c.x < float64(core.Max.X)+g && c.y >= float64(core.Min.Y)-g && c.y < float64(core.Max.Y)+g {
			inCore = append(inCore, c)
		}
	}
	cands = inCore
	st.Candidates = len(cands)
	st.OnText = int(m.onText.Load())
	st.RingTime = time.Since(t0)
	t0 = time.Now()
	// stopped part way (out of time), the candidates refined so far — the
	// likeliest, refined first — still make detections, returned with the
	// error
	dets, left, err := m.refineAll(ctx, cands)
	st.Unrefined = left
	if err != nil && len(dets) == 0 {
		return nil, st, err
	}
	st.RefineTime = time.Since(t0)
	st.Claimed = m.claimed
	st.OtherText = m.otherText
	kept := dets[:0]
	for _, d := range dets {
		if m.isText(d) {
			st.OnText++
			continue
		}
		kept = append(kept, d)
	}
	return suppress(kept), st, err
}

// removeFills clears solid areas (poché walls, thick lines, large filled
// regions): ink that survives an opening by a disk wider than the
// drawing's strokes, in connected pieces that are elongated, large (a side
// over keep pixels), or sparse. Removing them leaves the doors and windows
// that sit between wall fills on their own. Compact fills up to a symbol's
// size stay: filled dots, triangles and sectors are parts of symbols, and
// the templates keep theirs (see prepare). It returns where it cleared
// (1 there, 0 elsewhere; nil when it cleared nothing): what a symbol drew
// there is hidden, not missing (see matcher.hiddenNear).
func removeFills(m *fimg, sw, keep float64) []byte {
	bin := inkBytes(m)
	opened := openDisk(bin, m.w, m.h, int(math.Ceil(sw*1.25))+1)
	defer opened.Close()
	labels, stats, cents := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer cents.Close()
	n := gocv.ConnectedComponentsWithStats(opened, &labels, &stats, &cents)
	drop := make([]bool, n)
	fill := func(i int, w, h float64) {
		long, short := max(w, h), min(w, h)
		drop[i] = long > keep || long > 2.5*short || float64(stats.GetIntAt(i, 4)) < 0.3*w*h
	}
	for i := 1; i < n; i++ {
		fill(i, float64(stats.GetIntAt(i, 2)), float64(stats.GetIntAt(i, 3)))
	}
	raw, _ := labels.DataPtrUint8() // CV_32S labels
	lb := unsafe.Slice((*int32)(unsafe.Pointer(&raw[0])), len(raw)/4)
	// a piece is measured in its own orientation, by its outline's
	// smallest rectangle: a filled steel section turned 45° covers a sixth
	// of its upright box, and was cleared as sparse (pieces in another's
	// hole have no outer outline and keep the upright measure)
	outlines := gocv.FindContours(opened, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer outlines.Close()
	for i := 0; i < outlines.Size(); i++ {
		c := outlines.At(i)
		if c.Size() == 0 {
			continue
		}
		q := c.At(0)
		r := gocv.MinAreaRect(c)
		fill(int(lb[q.Y*m.w+q.X]), float64(r.Width+1), float64(r.Height+1))
	}
	ob, _ := opened.DataPtrUint8()
	for i, l := range lb {
		if !drop[l] {
			ob[i] = 0
		}
	}
	// grow the dropped fills a little so their antialiased rims go too
	k2 := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(5, 5))
	defer k2.Close()
	gocv.Dilate(opened, &opened, k2)
	b, _ := opened.DataPtrUint8()
	var hidden []byte
	for i, v := range b {
		if v != 0 {
			if hidden == nil {
				hidden = make([]byte, len(b))
			}
			hidden[i] = 1
			m.p[i] = 0
		}
	}
	return hidden
}

// openDisk is the morphological opening of a w×h binary image (0/255) by
// a disk of radius r: what remains are the areas a disk of that size fits
// in.
func openDisk(bin []byte, w, h, r int) gocv.Mat {
	src, _ := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, bin)
	defer src.Close()
	k := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(2*r+1, 2*r+1))
	defer k.Close()
	opened := gocv.NewMat()
	gocv.MorphologyEx(src, &opened, gocv.MorphOpen, k)
	return opened
}

func nothingDrawn(m *fimg) bool {
	for _, v := range m.p {
		if v > 0 {
			return false
		}
	}
	return true
}

// prepared is a template reduced to centre lines around its ink centre.
type prepared struct {
	idx    int
	pts    [][2]float64 // centre-line points relative to the ink centre, template pixels
	radius float64      // ink radius from the centre
	bw, bh float64      // ink box size
	sw     float64      // stroke width of the template image
	// fg are centre-line probes (every len(pts)/probeLine-th point); bg
	// are probes on a probeGrid² grid over the box, farthest from the
	// lines first, bgDist their distances to the nearest line (template
	// pixels, descending)
	fg     [][2]float64
	bg     [][2]float64
	bgDist []float64
	// sparse[k] keeps one centre-line point per 2^k-pixel cell, for
	// drawing at reduced sizes
	sparse [][][2]float64
	// minScale is the smallest scale at which the symbol stays distinct
	// when drawn at the drawing's stroke width
	minScale float64
	// tips are the free ends of its lines (see lineEnds)
	tips []lineEnd
	// hideable: parts of it may be hidden by a cleared fill (see
	// minHideable)
	hideable bool
	// area holds the pixels of the template's heavy strokes (see
	// heavyStrokes) relative to the ink centre, area[k] one per 2^k-pixel
	// cell as sparse does: drawn as an area, they grow with the symbol
	area [][][2]float64
}

// lineEnd is a free end of a template's line: where it is (relative to
// the ink centre) and the unit direction in which the line runs out
// (template pixels).
type lineEnd struct{ x, y, dx, dy float64 }

// lineEnds finds the free ends of the lines of template c, thinned to
// sk: centre-line pixels with one neighbour, each followed back along its
// line for up to three strokes' widths (at least 8 px) to give its
// direction. Ends of branches shorter than two strokes' widths are
// thinning's spurs at corners, not line ends, and so are the ends of a
// filled area's centre lines (within a stroke of its inside), those
// whose ink is a heavy stroke (heavyRatio × ref) two strokes back (the
// corners of a filled shape, a wedge widening from its tip: a fire
// extinguisher's triangle, whose corners point at its box, was taken for
// a symbol on lines that run on, and all 8 instances of a sheet were
// dropped), and those where cut says the image's edge cuts the line.
func lineEnds(c *fimg, sk, fill [][2]int, cut func([2]int) bool, sw, ref, cx, cy float64) []lineEnd {
	w, h := c.w, c.h
	on := make([]bool, w*h)
	for _, q := range sk {
		on[q[1]*w+q[0]] = true
	}
	inFill := func(q [2]int) bool {
		for _, f := range fill {
			if math.Hypot(float64(f[0]-q[0]), float64(f[1]-q[1])) <= sw {
				return true
			}
		}
		return false
	}
	nbrs := func(x, y int, out [][2]int) [][2]int {
		out = out[:0]
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				u, v := x+dx, y+dy
				if (dx != 0 || dy != 0) && u >= 0 && v >= 0 && u < w && v < h && on[v*w+u] {
					out = append(out, [2]int{u, v})
				}
			}
		}
		return out
	}
	reach := max(3*sw, 8)
	var ends []lineEnd
	var nb [][2]int
	for _, q := range sk {
		if nb = nbrs(q[0], q[1], nb); len(nb) != 1 {
			continue
		}
		// walk back along the line while it stays a simple path
		prev, cur := q, nb[0]
		steps := 1
		var stem [2]int // the point two strokes back
		for float64(steps) < reach {
			if float64(steps) < 2*sw {
				stem = cur
			}
			nb = nbrs(cur[0], cur[1], nb)
			var next [2]int
			n := 0
			for _, r := range nb {
				if r != prev && max(abs(r[0]-prev[0]), abs(r[1]-prev[1])) > 1 {
					next, n = r, n+1
				}
			}
			if n != 1 {
				break
			}
			prev, cur = cur, next
			steps++
		}
		if float64(steps) < 2*sw || inFill(q) || cut(q) || 2*halfWidth(c, stem) >= heavyRatio*ref {
			continue
		}
		dx, dy := float64(q[0]-cur[0]), float64(q[1]-cur[1])
		d := math.Hypot(dx, dy)
		if d == 0 {
			continue
		}
		ends = append(ends, lineEnd{float64(q[0]) - cx, float64(q[1]) - cy, dx / d, dy / d})
	}
	return ends
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// prepare prepares template t (index i) for matching; pen is the
// legend's (see legendPen; 0: unknown).
func prepare(i int, t Template, opt Options, pen float64) (*prepared, string) {
	return prepareCrop(i, cropTemplate(t, opt), pen)
}

func prepareCrop(i int, cr crop, pen float64) (*prepared, string) {
	c, edge, sw := cr.c, cr.edge, cr.sw
	if c == nil {
		return nil, cr.reason
	}
	bw, bh := float64(c.w-2), float64(c.h-2)
	sk := thin(c)
	cx, cy := float64(c.w-1)/2, float64(c.h-1)/2
	// filled parts (dots, solid triangles) are kept as areas: their inside
	// joins the centre lines, so a filled and an open shape differ
	fill := fillInside(c, sw)
	// a line the image's edge cuts (a symbol cropped from a sheet with the
	// lines behind it: ink reaching the edge) has no free end there
	cut := func(q [2]int) bool {
		x, y := float64(q[0]-1), float64(q[1]-1) // from the ink box's corner
		return (edge[0] && x < sw) || (edge[1] && y < sw) || (edge[2] && x > bw-1-sw) || (edge[3] && y > bh-1-sw)
	}
	// strokes are heavy against the symbol's pen, or against the legend's
	// (pen, when known) for a symbol drawn all in heavy strokes (see
	// penSpread): its own commonest stroke is heavy, and drawn at the
	// drawing's pen it is a skeleton that any crossing lines match
	ref := sw
	if pen > 0 && sw > penSpread*pen {
		ref = pen
	}
	p := &prepared{idx: i, bw: bw, bh: bh, sw: sw, tips: lineEnds(c, sk, fill, cut, sw, ref, cx, cy)}
	var area [][2]float64
	inArea := make([]bool, c.w*c.h)
	for _, q := range heavyStrokes(c, sk, ref) {
		inArea[q[1]*c.w+q[0]] = true
		area = append(area, [2]float64{float64(q[0]) - cx, float64(q[1]) - cy})
	}
	// lettering is an area too, whatever its weight: glyphs are filled
	// outlines that grow with the symbol (a circled M at twice the size
	// has letters twice as bold), while its lines keep the pen's width —
	// a switch's S3 drawn at 1.7× its legend's size correlated at 0.71,
	// its letters redrawn at the pen's width
	for _, r := range cr.text {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if i := y*c.w + x; c.p[i] >= 0.5 && !inArea[i] {
					inArea[i] = true
					area = append(area, [2]float64{float64(x) - cx, float64(y) - cy})
				}
			}
		}
	}
	p.hideable = float64(len(sk)) >= minHideable*math.Hypot(bw, bh)
	sk = append(sk, fill...)
	for _, q := range sk {
		dx, dy := float64(q[0])-cx, float64(q[1])-cy
		p.pts = append(p.pts, [2]float64{dx, dy})
		p.radius = max(p.radius, math.Hypot(dx, dy))
	}
	p.radius += 1
	p.sparse = sparseLevels(p.pts)
	if len(area) > 0 {
		p.area = sparseLevels(area)
	}
	if len(p.pts) < 8 {
		return nil, "the symbol has too little ink to match"
	}
	stride := max(1, len(p.pts)/probeLine)
	for i := 0; i < len(p.pts); i += stride {
		p.fg = append(p.fg, p.pts[i])
	}
	near := p.sparse[1]
	var bg [][3]float64
	for gy := 0; gy < probeGrid; gy++ {
		for gx := 0; gx < probeGrid; gx++ {
			x := (float64(gx)+0.5)/probeGrid*bw - bw/2
			y := (float64(gy)+0.5)/probeGrid*bh - bh/2
			d := math.Inf(1)
			for _, q := range near {
				d = min(d, math.Hypot(q[0]-x, q[1]-y))
			}
			// a heavy stroke's ink reaches half a pixel past its pixels,
			// which the pen's half-width stands for below
			for _, a := range area {
				d = min(d, math.Hypot(a[0]-x, a[1]-y)-0.5+sw/2)
			}
			bg = append(bg, [3]float64{x, y, d})
		}
	}
	sort.SliceStable(bg, func(a, b int) bool { return bg[a][2] > bg[b][2] })
	for _, q := range bg {
		p.bg = append(p.bg, [2]float64{q[0], q[1]})
		p.bgDist = append(p.bgDist, q[2])
	}
	return p, ""
}

// The probe score (matcher.probeScore) reads the drawing at probeLine to
// twice as many centre-line points (or fewer, when the symbol is drawn so
// small that fewer make two per pixel) and on a probeGrid × probeGrid grid
// of the box, where it lies off the lines. probeLine was 400: refinement
// of SESYD plan 6 10.3 → 8.8 s, synthetic seed 2 2–3 % (its symbols have
// fewer points), the same detections on synthetic seeds 1–12 and SESYD.
// A 14 × 14 grid took another 10 % off seed 2 but misplaced a near-symmetric
// sink on SESYD plan 6 (its empty middle tells its pose); 120 points and
// 10 × 10 lost two right detections of synthetic seeds 6–7.
const (
	probeLine = 200
	probeGrid = 20
)

// crop is a template's ink cut out of its image with one pixel of paper
// around it (so that thinning sees a background border): edge tells which
// sides of the image (left, top, right, bottom) the ink reaches, sw is
// its stroke width (templateStrokeWidth). A nil c comes with the reason.
type crop struct {
	c      *fimg
	edge   [4]bool
	sw     float64
	reason string
	// text are the template's TextBoxes in c's pixels, grown by a pixel
	text []image.Rectangle
}

func cropTemplate(t Template, opt Options) crop {
	if t.Image == nil {
		return crop{reason: "no image"}
	}
	cov := opt.coverage(t.Image)
	x0, y0, x1, y1 := inkBox(cov, 0)
	if x1 < 0 {
		return crop{reason: "the symbol image is blank"}
	}
	bw, bh := float64(x1-x0+1), float64(y1-y0+1)
	if bw < MinSymbolPx || bh < MinSymbolPx {
		return crop{reason: fmt.Sprintf("the symbol is %gx%g px, under the %d px minimum", bw, bh, MinSymbolPx)}
	}
	c := newF(x1-x0+3, y1-y0+3)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c.p[(y-y0+1)*c.w+x-x0+1] = cov.p[y*cov.w+x]
		}
	}
	var text []image.Rectangle
	ox, oy := float64(t.Image.Bounds().Min.X+x0-1), float64(t.Image.Bounds().Min.Y+y0-1)
	for _, b := range t.TextBoxes {
		r := image.Rect(int(math.Floor(b.XMin-ox))-1, int(math.Floor(b.YMin-oy))-1, int(math.Ceil(b.XMax-ox))+1, int(math.Ceil(b.YMax-oy))+1)
		if r = r.Intersect(image.Rect(0, 0, c.w, c.h)); !r.Empty() {
			text = append(text, r)
		}
	}
	return crop{c: c, edge: [4]bool{x0 == 0, y0 == 0, x1 == cov.w-1, y1 == cov.h-1}, sw: templateStrokeWidth(c), text: enclosed(c, text)}
}

// enclosed keeps the word boxes that the symbol's other ink surrounds: ink
// outside every word box to the left and to the right of the box's rows
// and above and below its columns (the S3 in a switch's box, the J in a
// junction box's circle). That is lettering, which grows with the symbol;
// words set beside a symbol's lines (CPT and VCT at the ends of a floor
// finish transition's shafts, GFI beside a receptacle) are labels, whose
// weight does not tell the symbol's size.
func enclosed(c *fimg, text []image.Rectangle) []image.Rectangle {
	if len(text) == 0 {
		return nil
	}
	other := func(x, y int) bool {
		if c.p[y*c.w+x] < 0.5 {
			return false
		}
		for _, r := range text {
			if (image.Point{x, y}).In(r) {
				return false
			}
		}
		return true
	}
	var out []image.Rectangle
	for _, r := range text {
		var left, right, above, below bool
		for y := r.Min.Y; y < r.Max.Y && !(left && right); y++ {
			for x := 0; x < c.w && !(left && right); x++ {
				if (x < r.Min.X || x >= r.Max.X) && other(x, y) {
					left, right = left || x < r.Min.X, right || x >= r.Max.X
				}
			}
		}
		for x := r.Min.X; x < r.Max.X && !(above && below); x++ {
			for y := 0; y < c.h && !(above && below); y++ {
				if (y < r.Min.Y || y >= r.Max.Y) && other(x, y) {
					above, below = above || y < r.Min.Y, below || y >= r.Max.Y
				}
			}
		}
		if left && right && above && below {
			out = append(out, r)
		}
	}
	return out
}

// inkBox is the box of m's pixels above thr, corners included (x1 < 0:
// none).
func inkBox(m *fimg, thr float32) (x0, y0, x1, y1 int) {
	x0, y0, x1, y1 = m.w, m.h, -1, -1
	for y := 0; y < m.h; y++ {
		for x := 0; x < m.w; x++ {
			if m.p[y*m.w+x] > thr {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	return
}

// legendPen is the pen the symbols were drawn with: the median of their
// stroke widths (the lower middle one of an even number), 0 when there
// are none. A symbol drawn all in heavy strokes has its own far above it.
func legendPen(crops []crop) float64 {
	var sws []float64
	for _, cr := range crops {
		if cr.c != nil {
			sws = append(sws, cr.sw)
		}
	}
	if len(sws) == 0 {
		return 0
	}
	sort.Float64s(sws)
	return sws[(len(sws)-1)/2]
}

// templateStrokeWidth is the width of a template's strokes: the commonest
// ink run no longer than a quarter of the symbol's smaller side (at least
// 3 px). Longer runs cross filled parts: a symbol that is mostly a solid
// half-disc has more runs across the fill than across its lines, and its
// fill would be taken for its stroke.
func templateStrokeWidth(c *fimg) float64 {
	h := runHist(c)
	limit := max(3, min(c.w, c.h)/4)
	for i := limit + 1; i < len(h); i++ {
		h[i] = 0
	}
	return widthOf(h)
}

// fillInside lists the pixels of a template's filled areas: ink a disk
// wider than the template's strokes (sw) fits in, shrunk by half a stroke
// (the redrawn points are widened by half a stroke again).
func fillInside(c *fimg, sw float64) [][2]int {
	bin := inkBytes(c)
	opened := openDisk(bin, c.w, c.h, int(math.Ceil(sw*1.25))+1)
	defer opened.Close()
	r := max(1, int(math.Round(sw/2)))
	k := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(2*r+1, 2*r+1))
	defer k.Close()
	gocv.Erode(opened, &opened, k)
	b, _ := opened.DataPtrUint8()
	var out [][2]int
	for i, v := range b {
		if v != 0 {
			out = append(out, [2]int{i % c.w, i / c.w})
		}
	}
	return out
}

// sparseLevels returns pts and, for k = 1..5, one point of pts per
// 2^k-pixel cell, for drawing at reduced sizes.
func sparseLevels(pts [][2]float64) [][][2]float64 {
	out := [][][2]float64{pts}
	for k := 1; k <= 5; k++ {
		cell := float64(int(1) << k)
		seen := map[[2]int]bool{}
		var lv [][2]float64
		for _, q := range pts {
			key := [2]int{int(math.Floor(q[0] / cell)), int(math.Floor(q[1] / cell))}
			if !seen[key] {
				seen[key] = true
				lv = append(lv, q)
			}
		}
		out = append(out, lv)
	}
	return out
}

// A centre-line point is heavy when its stroke is at least heavyRatio
// template pens wide and as wide along a run of the line (at least two
// pens' worth of such points within two pens), or at least dotRatio pens
// wide (a dot: its centre line is a point or two). Two perpendicular
// lines crossing are about 1.4 pens wide at the crossing, over a pen's
// length; a bold letter's stems are 1.5–2 pens wide all along.
//
// penSpread is how much heavier than the legend's pen (the median of its
// symbols' stroke widths) a symbol's lines may be drawn: 0.9–1.2 times on
// the synthetic sheets, 0.9–1.25 in SESYD's models. A symbol whose
// commonest stroke is heavier is drawn all in heavy strokes (a filled
// steel section: 2.5–2.9 times).
const (
	penSpread  = 1.5
	heavyRatio = 1.45
	dotRatio   = 2.2
	heavyReach = 2.5
	heavyAll   = 0.85
)

// inkBytes is m binarised for OpenCV: 255 where v > 0.5, else 0.
func inkBytes(m *fimg) []byte {
	bin := make([]byte, m.w*m.h)
	for i, v := range m.p {
		if v > 0.5 {
			bin[i] = 255
		}
	}
	return bin
}

// labelInk labels the 8-connected pieces of c's ink (v > 0.5) from 1;
// paper is 0.
func labelInk(c *fimg) []int32 {
	lab, _ := pieces(inkBytes(c), c.w, c.h)
	return lab
}

// pieces labels the 8-connected pieces of a w×h binary image (0/255)
// from 1, paper 0, and gives each label's extent: the longer side of
// its box.
func pieces(bin []byte, w, h int) (lab []int32, extent []float64) {
	src, _ := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, bin)
	defer src.Close()
	labels, stats, cents := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer cents.Close()
	n := gocv.ConnectedComponentsWithStats(src, &labels, &stats, &cents)
	extent = make([]float64, n)
	for i := range extent {
		extent[i] = float64(max(stats.GetIntAt(i, 2), stats.GetIntAt(i, 3)))
	}
	raw, _ := labels.DataPtrUint8() // CV_32S labels
	return slices.Clone(unsafe.Slice((*int32)(unsafe.Pointer(&raw[0])), len(raw)/4)), extent
}

// halfWidth is the half-width of c's ink at pixel q: its distance to the
// nearest paper pixel (found ring by ring), less half a pixel.
func halfWidth(c *fimg, q [2]int) float64 {
	paper := func(x, y int) bool { return x < 0 || y < 0 || x >= c.w || y >= c.h || c.p[y*c.w+x] <= 0.5 }
	best := math.Inf(1)
	for k := 1; float64(k) < best && k <= max(c.w, c.h); k++ {
		for d := -k; d <= k; d++ {
			for _, o := range [4][2]int{{d, -k}, {d, k}, {-k, d}, {k, d}} {
				if paper(q[0]+o[0], q[1]+o[1]) {
					best = min(best, math.Hypot(float64(o[0]), float64(o[1])))
				}
			}
		}
	}
	return best - 0.5
}

// heavyStrokes returns the pixels of c's heavy strokes: ink around the
// heavy points of its centre lines sk (see heavyRatio; a point's
// half-width is its distance to the nearest paper, less half a pixel).
// Bold letters, arrowheads and dots grow with the symbol while its lines
// keep the pen's width: redrawn at the drawing's pen, a bold "M" in a
// circle correlated at 0.5–0.65 with itself at twice the size. Drawn as
// an area, such strokes grow with the symbol.
func heavyStrokes(c *fimg, sk [][2]int, sw float64) [][2]int {
	hws := make([]float64, len(sk))
	for i, q := range sk {
		hws[i] = halfWidth(c, q)
	}
	wide := func(i int) bool { return 2*hws[i] >= heavyRatio*sw }
	heavy := make([]bool, len(sk))
	for i, q := range sk {
		if !wide(i) {
			continue
		}
		if 2*hws[i] < dotRatio*sw {
			n := 0
			for j, o := range sk {
				if j != i && wide(j) && math.Hypot(float64(o[0]-q[0]), float64(o[1]-q[1])) <= 2*sw {
					n++
				}
			}
			if float64(n) < 2*sw {
				continue
			}
		}
		heavy[i] = true
	}
	// the rest of a filled shape goes with its heavy strokes: centre-line
	// points of the same piece of ink near one (the thinner diagonals of a
	// bold "M" between its stems)
	lab := labelInk(c)
	marked := func() []int {
		var out []int
		for i, h := range heavy {
			if h {
				out = append(out, i)
			}
		}
		return out
	}
	core := marked()
	for i, q := range sk {
		if heavy[i] {
			continue
		}
		for _, j := range core {
			o := sk[j]
			if lab[o[1]*c.w+o[0]] == lab[q[1]*c.w+q[0]] && math.Hypot(float64(o[0]-q[0]), float64(o[1]-q[1])) <= heavyReach*sw {
				heavy[i] = true
				break
			}
		}
	}
	// the strokes' ink: pixels of the same piece within a pen of a heavy
	// point's disk (its ends, which thinning shortens, included)
	core = marked()
	if len(core) == 0 {
		return nil
	}
	var out [][2]int
	ink := 0
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			k := lab[y*c.w+x]
			if k == 0 {
				continue
			}
			ink++
			for _, i := range core {
				if q := sk[i]; lab[q[1]*c.w+q[0]] == k && math.Hypot(float64(x-q[0]), float64(y-q[1])) <= hws[i]+sw {
					out = append(out, [2]int{x, y})
					break
				}
			}
		}
	}
	// a row of heavy pieces and nothing else (a thick dashed or dotted
	// line) is a line type shown in a legend: a pen's pattern, whose
	// dashes keep the pen's width as lines do. Drawn as an area it is a
	// thick bar, which pairs of thin parallel lines match (a real finish
	// plan: 70 "wall protection" detections on wall and window faces, all
	// wrong); it is drawn as before. A solid shape in one piece (a filled
	// triangle) stays an area.
	pieces := map[int32]bool{}
	for _, q := range out {
		pieces[lab[q[1]*c.w+q[0]]] = true
	}
	if len(pieces) >= 3 && float64(len(out)) >= heavyAll*float64(ink) {
		return nil
	}
	return out
}

// drawPosed draws t posed by p (level factor f) into dst: its centre lines
// as strokes of radius pen+grow (pen: half the drawing's stroke width, at
// the level), and the pixels of its heavy strokes as an area that grows
// with the symbol (each a disk covering its scaled pixel), plus grow.
func (t *prepared) drawPosed(dst *fimg, p pose, f, pen, grow float64) {
	k := p.scale * f
	splat(dst, t.pointsFor(k), p, f, pen+grow)
	if len(t.area) > 0 {
		i := sparseIndex(k, len(t.area))
		splat(dst, t.area[i], p, f, max(0.71*math.Ldexp(k, i), 0.5)+grow)
	}
}

type matcher struct {
	opt    Options
	sw     float64     // stroke width of the drawing, full-resolution pixels
	origin image.Point // of the searched image (a tile's place), for traces
	// mu guards the making of levels and of what is made per level; once
	// made, they are read from the sync.Maps without it (refinement reads
	// them for every probe score)
	mu     sync.Mutex
	levels []*fimg
	built  sync.Map // level → *fimg, the levels made so far
	nears  sync.Map // level → []bool
	runs   sync.Map // level → []bool
	// longRun is the length (full-resolution pixels) of a straight line
	// longer than any symbol's side at its largest scale
	longRun float64
	blurs   sync.Map // level → *fimg
	sums    sync.Map // level → *rowSums
	polars  sync.Map // polar histograms of posed templates, see polarTemplate
	// text indexes Options.Words in the searched image's pixels (nil when
	// no template is held to the words rules); onText counts the
	// candidates on them
	text    *textIndex
	onText  atomic.Int64
	claimed int // candidates not refined, claimed by a detection (see refineAll)
	// letters reads the words inside detections (nil: no template has
	// text, or no words are known); otherText counts the detections it
	// showed to be another symbol
	letters   *letterIndex
	otherText int
	bounds    sync.Map // see supportBound
	textMasks sync.Map // level → []bool, see textIndex.mask
	// hidden marks the full-resolution pixels of the solid fills cleared
	// before the search (nil when none were); hiddens caches hiddenNear
	hidden  []byte
	hiddens sync.Map // level → *hiddenMask
}

// hiddenMask is, for one level, which pixels lie within chamferTol of a
// cleared solid fill (half of a level pixel's block cleared), and which
// blocks of hiddenBlock × hiddenBlock pixels hold any of them.
type hiddenMask struct {
	near   []bool
	blocks []bool
	bw, bh int
}

const hiddenBlock = 16

// hiddenNear returns level l's hidden mask, or nil when no fill was
// cleared. A symbol set against a poché wall draws its side on the wall's
// face, and that ink went with the wall: a pose's points there are hidden,
// neither found nor missing (see maxHidden).
func (m *matcher) hiddenNear(l int) *hiddenMask {
	if m.hidden == nil {
		return nil
	}
	lv, w0, h0 := m.level(l), m.levels[0].w, m.levels[0].h
	tol := m.chamferTol(l)
	return perLevel(m, &m.hiddens, l, func() *hiddenMask {
		share := make([]byte, lv.w*lv.h)
		k := 1 << l
		par.Rows(lv.h, lv.w, func(r0, r1 int) {
			for y := r0; y < r1; y++ {
				ys, ye := y*k, min((y+1)*k, h0)
				for x := 0; x < lv.w; x++ {
					xs, xe := x*k, min((x+1)*k, w0)
					n, c := 0, 0
					for yy := ys; yy < ye; yy++ {
						for _, v := range m.hidden[yy*w0+xs : yy*w0+xe] {
							c += int(v)
						}
						n += xe - xs
					}
					if n > 0 && 2*c >= n {
						share[y*lv.w+x] = 255
					}
				}
			}
		})
		h := &hiddenMask{near: dilated(share, lv.w, lv.h, tol), bw: (lv.w + hiddenBlock - 1) / hiddenBlock, bh: (lv.h + hiddenBlock - 1) / hiddenBlock}
		h.blocks = make([]bool, h.bw*h.bh)
		for i, v := range h.near {
			if v {
				h.blocks[(i/lv.w)/hiddenBlock*h.bw+(i%lv.w)/hiddenBlock] = true
			}
		}
		return h
	})
}

// hiddenAt returns level l's hidden mask when t, posed by p (level
// pixels), may have parts hidden (t.hideable) and its disk's square
// touches the mask, else nil.
func (m *matcher) hiddenAt(l int, t *prepared, p pose) []bool {
	if !t.hideable {
		return nil
	}
	h := m.hiddenNear(l)
	if h == nil {
		return nil
	}
	x, y, r := p.cx, p.cy, t.radius*p.scale*lf(l)+1
	bx0, by0 := max(int(math.Floor(x-r))/hiddenBlock, 0), max(int(math.Floor(y-r))/hiddenBlock, 0)
	bx1, by1 := min(int(math.Ceil(x+r))/hiddenBlock, h.bw-1), min(int(math.Ceil(y+r))/hiddenBlock, h.bh-1)
	for by := by0; by <= by1; by++ {
		for bx := bx0; bx <= bx1; bx++ {
			if h.blocks[by*h.bw+bx] {
				return h.near
			}
		}
	}
	return nil
}

// blurred returns level l smoothed (two 3×3 box passes), which widens the
// basin of the local pose search.
func (m *matcher) blurred(l int) *fimg {
	lv := m.level(l)
	return perLevel(m, &m.blurs, l, func() *fimg { return box3(box3(lv)) })
}

// perLevel returns cache[l], made by mk the first time (under the
// matcher's lock: what mk needs of the matcher must be fetched before).
func perLevel[T any](m *matcher, cache *sync.Map, l int, mk func() T) T {
	if v, ok := cache.Load(l); ok {
		return v.(T)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := cache.Load(l); ok {
		return v.(T)
	}
	v := mk()
	cache.Store(l, v)
	return v
}

func box3(m *fimg) *fimg {
	o := newF(m.w, m.h)
	par.Rows(m.h, m.w, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			inner := y > 0 && y < m.h-1
			for x := 0; x < m.w; x++ {
				var s float32
				if inner && x > 0 && x < m.w-1 {
					// the same sums in the same order as at the edges,
					// without at's bounds tests
					i := (y-1)*m.w + x
					s += m.p[i-1]
					s += m.p[i]
					s += m.p[i+1]
					i += m.w
					s += m.p[i-1]
					s += m.p[i]
					s += m.p[i+1]
					i += m.w
					s += m.p[i-1]
					s += m.p[i]
					s += m.p[i+1]
				} else {
					for dy := -1; dy <= 1; dy++ {
						for dx := -1; dx <= 1; dx++ {
							s += m.at(x+dx, y+dy)
						}
					}
				}
				o.p[y*m.w+x] = s / 9
			}
		}
	})
	return o
}

func (m *matcher) level(l int) *fimg {
	if v, ok := m.built.Load(l); ok {
		return v.(*fimg)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(m.levels) <= l {
		m.levels = append(m.levels, m.levels[len(m.levels)-1].halve())
	}
	m.built.Store(l, m.levels[l])
	return m.levels[l]
}

// chamferTol is the chamfer test's tolerance at level l (level pixels):
// half a stroke and a little.
func (m *matcher) chamferTol(l int) float64 { return max(1.0, m.sw*lf(l)/2+0.75) }

// near returns, for level l, which pixels lie within chamferTol of ink.
func (m *matcher) near(l int) []bool {
	lv, tol := m.level(l), m.chamferTol(l)
	return perLevel(m, &m.nears, l, func() []bool { return nearInk(lv, tol) })
}

// nearInk marks the pixels of lv within Euclidean distance tol of ink (a
// coverage of 0.3 or more): the ink dilated by a disk of that radius.
func nearInk(lv *fimg, tol float64) []bool {
	bin := make([]byte, lv.w*lv.h)
	for i, v := range lv.p {
		if v >= 0.3 {
			bin[i] = 255
		}
	}
	return dilated(bin, lv.w, lv.h, tol)
}

// dilated marks the pixels within Euclidean distance tol of a non-zero
// pixel of the w×h image bin.
func dilated(bin []byte, w, h int, tol float64) []bool {
	src, _ := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, bin)
	defer src.Close()
	r := int(math.Floor(tol))
	n := 2*r + 1
	disk := make([]byte, n*n)
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			if float64(x*x+y*y) <= tol*tol {
				disk[(y+r)*n+x+r] = 1
			}
		}
	}
	ker, _ := gocv.NewMatFromBytes(n, n, gocv.MatTypeCV8U, disk)
	defer ker.Close()
	dst := gocv.NewMat()
	defer dst.Close()
	gocv.Dilate(src, &dst, ker)
	b, _ := dst.DataPtrUint8()
	out := make([]bool, len(b))
	for i, v := range b {
		out[i] = v != 0
	}
	return out
}

// longLines returns, for level l, which pixels are ink on horizontal or
// vertical straight runs longer than any symbol (walls, grid lines,
// dimension lines): a line that passes through a symbol and on is not
// part of it.
func (m *matcher) longLines(l int) []bool {
	lv := m.level(l)
	n := max(int(math.Ceil(m.longRun*lf(l))), 3)
	reach := max(1.5, m.sw*lf(l)/2+0.5)
	return perLevel(m, &m.runs, l, func() []bool { return longRuns(lv, n, reach) })
}

// slantMin is how far from horizontal or vertical a line must be for
// slantedRuns: those are longRuns' (exactly, by their runs).
const slantMin = 3 * math.Pi / 180

// longRuns marks the ink of lv (over 0.25) on horizontal or vertical runs
// of at least n pixels, and within reach of straight lines as long at a
// slant (see slantedRuns).
func longRuns(lv *fimg, n int, reach float64) []bool {
	bin := make([]byte, lv.w*lv.h)
	for i, v := range lv.p {
		if v > 0.25 {
			bin[i] = 255
		}
	}
	src, _ := gocv.NewMatFromBytes(lv.h, lv.w, gocv.MatTypeCV8U, bin)
	defer src.Close()
	out := make([]bool, lv.w*lv.h)
	slantedRuns(src, bin, lv.w, lv.h, n, reach, out)
	for _, k := range []image.Point{{n, 1}, {1, n}} {
		ker := gocv.GetStructuringElement(gocv.MorphRect, k)
		dst := gocv.NewMat()
		gocv.MorphologyEx(src, &dst, gocv.MorphOpen, ker)
		b, _ := dst.DataPtrUint8()
		for i, v := range b {
			out[i] = out[i] || v != 0
		}
		dst.Close()
		ker.Close()
	}
	return out
}

// slantedRuns marks in out the ink (bin, w × h, also as the Mat src)
// within reach of straight lines at a slant at least n pixels long
// (OpenCV's probabilistic Hough transform, gaps of 2 px bridged): a pipe,
// a duct or an angled wall drawn across the plan is no more a symbol, nor
// part of one, than a horizontal wall is (three heat detectors of synthetic seed
// 11 crossed by pipes at a slant were missed: their ink counted as
// unexplained). No symbol reaches that length (see matcher.longRun); a
// shorter slanted edge (a north arrow's needle) is a figure's own and
// stays (taken for a crossing line, a small symbol matched on it).
func slantedRuns(src gocv.Mat, bin []byte, w, h, n int, reach float64, out []bool) {
	lines := gocv.NewMat()
	defer lines.Close()
	gocv.HoughLinesPWithParams(src, &lines, 1, math.Pi/180, int(0.7*float64(n)), float32(n), 2)
	r := int(math.Ceil(reach))
	for i := 0; i < lines.Rows(); i++ {
		v := lines.GetVeciAt(i, 0)
		ax, ay, bx, by := float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])
		dx, dy := bx-ax, by-ay
		if a := math.Atan2(math.Abs(dy), math.Abs(dx)); a < slantMin || a > math.Pi/2-slantMin {
			continue
		}
		d := math.Hypot(dx, dy)
		ux, uy := dx/d, dy/d
		for t := 0.0; t <= d; t += 0.5 {
			cx, cy := ax+ux*t, ay+uy*t
			for y := int(cy) - r; y <= int(cy)+r+1; y++ {
				if y < 0 || y >= h {
					continue
				}
				for x := int(cx) - r; x <= int(cx)+r+1; x++ {
					if x < 0 || x >= w || bin[y*w+x] == 0 {
						continue
					}
					// distance across the line
					if math.Abs((float64(x)-ax)*uy-(float64(y)-ay)*ux) <= reach {
						out[y*w+x] = true
					}
				}
			}
		}
	}
}

// withoutLongLines is a copy of lv with the ink of long straight lines
// cleared. The ring pass searches it: walls and grid lines are not
// symbols, yet their parallel pairs and crossings match the ring profiles
// of many (thousands of candidates along every wall), and a wall drawn
// through a symbol hides its profile.
func withoutLongLines(lv *fimg, long []bool) *fimg {
	out := &fimg{w: lv.w, h: lv.h, p: make([]float32, len(lv.p))}
	for i, v := range lv.p {
		if !long[i] {
			out.p[i] = v
		}
	}
	return out
}

func lf(l int) float64 { return math.Ldexp(1, -l) }

// pointsFor returns centre-line points dense enough to draw the template
// at k = scale·level factor (about two points per target pixel).
func (t *prepared) pointsFor(k float64) [][2]float64 {
	return t.sparse[sparseIndex(k, len(t.sparse))]
}

// sparseIndex picks the sparse level (of n) with about two points per
// target pixel when drawn at k.
func sparseIndex(k float64, n int) int {
	i := 0
	if k > 0 {
		i = int(math.Floor(math.Log2(0.5 / k)))
	}
	return min(max(i, 0), n-1)
}

// candidate is a ring-pass hit in full-resolution pixels.
type candidate struct {
	t      *prepared
	x, y   float64
	scale  float64
	level  int
	score  float64
	radius float64 // full resolution
}

// Early exits of refinement, set from traces of every candidate
// (TestTraceSESYDPlan, TestTraceSynth; SESYD plans and synthetic sheets):
// no detection with a confidence of 0.5 or more had a probe score under
// 0.2, a correlation under 0.62 before its correlation climb, or under
// 0.72 after it. The exits sit well below those, and spare the
// correlation climb for the candidates that start it below 0.5: it runs
// for 5–17 % of the candidates instead of about half.
const (
	minProbe    = 0.15
	minStartNCC = 0.5
	minNCC      = 0.55
)

// A climb on the probe score is given up when, after earlyIter
// iterations, its pose correlates under minEarlyNCC. The probe score
// separates right candidates from the rest less well than correlation
// (traced: a third of the wrong ones climb to a probe score of 0.3 or
// more, which every right one passes), and climbs were most of the time;
// after four iterations no right detection of synthetic seeds 1–2 or
// SESYD plans 0, 3 and 5 correlated under 0.29, while 43 % and 32 % of
// their candidates did under 0.25.
const (
	earlyIter   = 4
	minEarlyNCC = 0.25
)

// maxHidden is the largest share of a detection's centre-line points that
// may lie hidden on cleared solid fills (see matcher.hiddenNear): a symbol
// set against a poché wall draws one side or end on the wall's face.
const maxHidden = 1.0 / 3

// tooHidden tells whether hidden of a pose's total (points, or ink) is
// more than maxHidden: too little of the symbol is seen, and its hidden
// part counts as missing.
func tooHidden(hidden, total float64) bool { return hidden > maxHidden*total }

// minHideable is the least length of centre lines, in diagonals of its
// box, of a symbol whose parts may be hidden. A symbol drawn in a few
// strokes — an L, a line with hooks or arrowheads, a dashed line: 0.8–1.4
// diagonals (real/va-finish-plan.pdf's legend) — is little but a stroke
// or two once a part of it is hidden, and the linework along every wall
// matched that (corner guards 22 → 42, floor finish transitions 0 → 11,
// mostly at wall ends and door leaves); its hidden points count as
// missing, as before. SESYD's fixtures and doors are drawn in 2.1–6.5.
const minHideable = 2.0

const (
	scaleStep         = 1.1
	ringThreshold     = 0.7
	harmonicThreshold = 0.4
	maxCandidates     = 3000 // per template
)

func (m *matcher) scales() []float64 {
	var out []float64
	for s := m.opt.MinScale; s <= m.opt.MaxScale*1.0001; s *= scaleStep {
		out = append(out, s)
	}
	return out
}

func (m *matcher) ringPass(ctx context.Context, prep []*prepared) ([]candidate, error) {
	type job struct {
		t     *prepared
		scale float64
	}
	byLevel := map[int][]job{}
	for _, t := range prep {
		for _, s := range m.scales() {
			r := t.radius * s
			l := 0
			if r > 2*ringMin {
				l = int(math.Floor(math.Log2(r / ringMin)))
			}
			byLevel[l] = append(byLevel[l], job{t, s})
		}
	}
	// at small scales the drawing's strokes may fill a symbol in: it could
	// not be told from a filled area or a thick line, so it is not searched
	for _, t := range prep {
		solid := func(s float64) float64 {
			sz := int(t.radius*s*2) + 8
			buf := newF(sz, sz)
			t.drawPosed(buf, pose{cx: float64(sz / 2), cy: float64(sz / 2), scale: s}, 1, m.sw/2, 0)
			return solidity(buf)
		}
		// a symbol drawn solid (a filled half-disc) is as solid at its
		// largest size: only ink that closes up as it shrinks counts
		native := solid(m.opt.MaxScale)
		t.minScale = m.opt.MaxScale * 2
		for _, s := range m.scales() {
			if v := solid(s); v <= 0.6 || v <= native+0.15 {
				t.minScale = s
				break
			}
		}
	}
	for l, js := range byLevel {
		kept := js[:0]
		for _, j := range js {
			if j.scale >= j.t.minScale {
				kept = append(kept, j)
			}
		}
		byLevel[l] = kept
	}
	levels := make([]int, 0, len(byLevel))
	for l := range byLevel {
		levels = append(levels, l)
	}
	sort.Ints(levels)
	ringPx := ringPixels(ringCount)
	var all []candidate
	var mu sync.Mutex
	total, done := 0, 0
	for _, l := range levels {
		total += len(byLevel[l])
	}
	for _, l := range levels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lv := withoutLongLines(m.level(l), m.longLines(l))
		f := lf(l)
		jobs := byLevel[l]
		// each job's template drawn at its scale, its ring profile and the
		// harmonics of its rings
		type drawn struct {
			n  int
			q  *ringQuery
			th harmDesc
		}
		dr := make([]drawn, len(jobs))
		err := parallel(ctx, len(jobs), func(i int) {
			j := jobs[i]
			r := j.t.radius * j.scale * f
			n := min(int(math.Ceil(r))+1, ringCount)
			size := 2*n + 3
			buf := newF(size, size)
			c := float64(size / 2)
			j.t.drawPosed(buf, pose{cx: c, cy: c, scale: j.scale}, f, m.sw*f/2, 0)
			prof := profile(buf, size/2, size/2, n)
			hi := prof
			if w := j.t.sw * j.scale; w > m.sw {
				thick := newF(size, size)
				j.t.drawPosed(thick, pose{cx: c, cy: c, scale: j.scale}, f, w*f/2, 0)
				hi = profile(thick, size/2, size/2, n)
			}
			dr[i] = drawn{n: n, q: newRingQuery(prof, hi, ringPx[:n], ringThreshold), th: harmonics(buf, size/2, size/2, n)}
		})
		if err != nil {
			return nil, err
		}
		var qs []*ringQuery
		var qjob []int
		for i, d := range dr {
			if d.q != nil {
				qs = append(qs, d.q)
				qjob = append(qjob, i)
			}
		}
		before := done
		peaks, err := scanRings(ctx, lv, ringCount, qs, ringPx, func(v float64) {
			m.progress(0.4 * (float64(before) + v*float64(len(jobs))) / float64(total))
		})
		if err != nil {
			return nil, err
		}
		// second rotation-invariant test, at the peaks only: the rings'
		// angular harmonics (candidates on text are dropped first)
		raw := m.level(l)
		var words []bool
		if m.text != nil {
			words = perLevel(m, &m.textMasks, l, func() []bool { return m.text.mask(raw.w, raw.h, f) })
		}
		ink := newInkBits(lv)
		err = parallel(ctx, len(qs), func(qi int) {
			j, d := jobs[qjob[qi]], dr[qjob[qi]]
			var keep []candidate
			for _, p := range peaks[qi] {
				if m.text != nil && (m.opt.noText[j.t.idx] && m.text.onText(float64(p.x)/f, float64(p.y)/f, j.t.radius*j.scale) ||
					m.opt.onWords[j.t.idx] > 0 && inkOnWords(raw, words, p.x, p.y, int(math.Round(j.t.radius*j.scale*f))) >= m.opt.onWords[j.t.idx]) {
					m.onText.Add(1)
					continue
				}
				best, bx, by := -1.0, 0, 0
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						if v := harmonicScore(ink.harmonics(p.x+dx, p.y+dy, d.n), d.th); v > best {
							best, bx, by = v, p.x+dx, p.y+dy
						}
					}
				}
				if best < harmonicThreshold {
					continue
				}
				keep = append(keep, candidate{t: j.t, x: float64(bx) / f, y: float64(by) / f, scale: j.scale,
					level: l, score: (p.score + best) / 2, radius: j.t.radius * j.scale})
			}
			mu.Lock()
			all = append(all, keep...)
			mu.Unlock()
		})
		if err != nil {
			return nil, err
		}
		done += len(jobs)
	}
	// keep the best candidate per template and neighbourhood
	// (workers appended them in any order: ties are broken by what the
	// candidates are, so that every run keeps the same ones)
	sort.Slice(all, func(a, b int) bool {
		p, q := all[a], all[b]
		switch {
		case p.score != q.score:
			return p.score > q.score
		case p.t.idx != q.t.idx:
			return p.t.idx < q.t.idx
		case p.scale != q.scale:
			return p.scale < q.scale
		case p.y != q.y:
			return p.y < q.y
		}
		return p.x < q.x
	})
	// a candidate is a duplicate of a kept one of its template within
	// 0.35 of the smaller radius: kept candidates are looked up in a grid
	// of cells that size at the largest scale
	type cell struct {
		t    *prepared
		x, y int
	}
	grid := map[cell][]int{}
	cellOf := func(c candidate) (int, int) {
		g := 0.35 * c.t.radius * m.opt.MaxScale
		return int(math.Floor(c.x / g)), int(math.Floor(c.y / g))
	}
	var kept []candidate
	per := map[*prepared]int{}
	for _, c := range all {
		if per[c.t] >= maxCandidates {
			continue
		}
		gx, gy := cellOf(c)
		dup := false
		for dy := -1; dy <= 1 && !dup; dy++ {
			for dx := -1; dx <= 1 && !dup; dx++ {
				for _, i := range grid[cell{c.t, gx + dx, gy + dy}] {
					k := kept[i]
					if max(k.scale/c.scale, c.scale/k.scale) < 1.25 && math.Hypot(k.x-c.x, k.y-c.y) < 0.35*min(k.radius, c.radius) {
						dup = true
						break
					}
				}
			}
		}
		if !dup {
			grid[cell{c.t, gx, gy}] = append(grid[cell{c.t, gx, gy}], len(kept))
			kept = append(kept, c)
			per[c.t]++
		}
	}
	return kept, nil
}

// solidity is the share of a rendered template's ink box that is inked:
// near 1 when its lines run together (drawn at the drawing's stroke width
// it cannot be told from a filled area or a thick line), or when it is
// drawn solid.
func solidity(buf *fimg) float64 {
	x0, y0, x1, y1 := inkBox(buf, 0.5)
	if x1 < 0 {
		return 1
	}
	ink, area := 0.0, 0.0
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			ink += float64(buf.p[y*buf.w+x])
			area++
		}
	}
	return ink / area
}

func (m *matcher) progress(v float64) {
	if m.opt.Progress != nil {
		m.opt.Progress(v)
	}
}

// parallel runs f(0..n-1) on all CPUs.
func parallel(ctx context.Context, n int, f func(i int)) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	var err error
	for i := 0; i < n; i++ {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return err
}

// Candidates are refined in the ring pass's order (best score first). A
// detection that leaves no doubt — confidence, chamfer and explained ink
// all claimMin or more, and not on text — claims its symbol's box as
// posed: a later candidate centred inside it is not refined when its
// symbol could not cover as much of the drawing's ink, even a little
// larger than the candidate's scale, as the detection does.
// Suppression (step 5) keeps the detection that covers the most ink (by
// its support, weighed by its confidence), so such a candidate's detection
// could only be suppressed by the claim: most of them are the other
// symbols' candidates on each instance. A symbol that draws more ink stays
// in the running (a motor's circled M where a junction box's circled J
// was found first, a troffer where a sconce matched its outline). Traced
// (synthetic seeds 1–3, 9, 10, SESYD plans 0, 3, 4): 23–57 % of the probe
// work went to candidates inside such claims; claims against every symbol
// (without the ink test) cost three right detections on seeds 3, 9, 10.
// A candidate heeds only the claims of the candidates claimLag or more
// places before it, all refined by the time it is taken: which ones are
// skipped does not depend on how the workers share the work.
var claimMin = 0.9 // a variable for tests

const (
	// a candidate's symbol is drawn claimScale times its scale for its
	// bound (supportBound), which must stay under the claim's support
	claimScale = 1.3
	claimInk   = 1.25
)

var claimLag = 128 // a variable for tests

// isText tells whether d, a detection of a textless symbol, lies on words
// (see words.go): it is text, and dropped.
func (m *matcher) isText(d Detection) bool {
	return m.opt.noText[d.Template] && m.text.cover(d.Box) >= WordCover
}

// claim is a detection's posed ink box, full-resolution pixels, and the
// ink it covers.
type claim struct {
	p       pose
	hw, hh  float64 // half the template's ink box, template pixels
	support float64
	from    int // the candidate it was refined from
}

// holds tells whether (x, y) lies inside the claimed box.
func (c claim) holds(x, y float64) bool {
	dx, dy := x-c.p.cx, y-c.p.cy
	s, co := math.Sincos(-c.p.angle)
	// placement.apply inverted; a mirror image changes the sign of u only
	u := (co*dx + s*dy) / c.p.scale
	v := (-s*dx + co*dy) / c.p.scale
	return math.Abs(u) <= c.hw && math.Abs(v) <= c.hh
}

// supportBound is about the most drawing ink (full-resolution pixels) a
// detection refined from c could cover, generously: its symbol's own ink
// drawn at the drawing's stroke width, at claimScale times c's scale,
// times claimInk (a drawing's strokes may run heavier than its pen).
// Made once per symbol, scale and level.
func (m *matcher) supportBound(c candidate) float64 {
	l := max(c.level-2, 0)
	type key struct {
		t     *prepared
		scale float64
		l     int
	}
	k := key{c.t, c.scale, l}
	if v, ok := m.bounds.Load(k); ok {
		return v.(float64)
	}
	f := lf(l)
	sc := c.scale * claimScale
	size := int(2*(c.t.radius*sc*f+m.sw*f)) + 7
	buf := newF(size, size)
	mid := float64(size / 2)
	c.t.drawPosed(buf, pose{cx: mid, cy: mid, scale: sc}, f, m.sw*f/2, 0)
	ink := 0.0
	for _, v := range buf.p {
		ink += float64(v)
	}
	v, _ := m.bounds.LoadOrStore(k, claimInk*ink/(f*f))
	return v.(float64)
}

func (m *matcher) refineAll(ctx context.Context, cands []candidate) ([]Detection, int, error) {
	n := len(cands)
	out := make([]*Detection, n)
	workers := min(runtime.GOMAXPROCS(0), n)
	// candidate i heeds the claims of the candidates before i-lag, all
	// refined by then: each worker holds one candidate, so no worker waits
	// long and none waits for itself
	lag := max(claimLag, 2*workers)
	var (
		mu       sync.Mutex
		cond     = sync.NewCond(&mu)
		finished = make([]bool, n)
		upTo     int     // every candidate before it is finished
		claims   []claim // of the candidates before upTo, in their order
		next     int
		done     int
		err      error
	)
	claimedAt := func(i int) bool {
		for _, cl := range claims {
			if cl.from >= i-lag {
				break
			}
			if cl.holds(cands[i].x, cands[i].y) && m.supportBound(cands[i]) < cl.support {
				return true
			}
		}
		return false
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if err == nil {
					err = ctx.Err()
				}
				if next >= n || err != nil {
					mu.Unlock()
					return
				}
				i := next
				next++
				for upTo < i-lag {
					cond.Wait()
				}
				claimed := claimedAt(i)
				mu.Unlock()
				var d *Detection
				other := false
				if !claimed {
					d = m.refine(cands[i])
					// another symbol's letters: dropped before it claims
					// the place from that symbol's candidates
					if d != nil && m.letters.otherSymbol(*d) {
						d, other = nil, true
					}
				}
				mu.Lock()
				if claimed {
					m.claimed++
				}
				if other {
					m.otherText++
				}
				out[i], finished[i] = d, true
				for upTo < n && finished[upTo] {
					if d := out[upTo]; d != nil && d.Confidence >= claimMin && d.chamfer >= claimMin &&
						d.explained >= claimMin && !m.isText(*d) {
						t := cands[upTo].t
						claims = append(claims, claim{p: d.at, hw: t.bw / 2, hh: t.bh / 2, support: d.support, from: upTo})
					}
					upTo++
				}
				cond.Broadcast()
				done++
				if done%32 == 0 {
					m.progress(0.4 + 0.6*float64(done)/float64(n))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	// stopped: the detections of the candidates refined, and how many
	// were not
	var dets []Detection
	for _, d := range out {
		if d != nil {
			dets = append(dets, *d)
		}
	}
	return dets, n - done, err
}

const (
	polarRadial  = 12
	polarAngular = 72
)

// polar bins a level image's coverage around (cx, cy) within radius r into
// polarRadial × polarAngular cells (angle counter-clockwise on screen).
func polar(lv *fimg, cx, cy, r float64) []float64 {
	lut := polarLUT(int(math.Round(r)))
	sum := make([]float64, polarRadial*polarAngular)
	ix, iy := int(math.Round(cx)), int(math.Round(cy))
	for _, c := range lut.cells {
		sum[c.bin] += float64(lv.at(ix+int(c.dx), iy+int(c.dy)))
	}
	for i := range sum {
		if lut.count[i] > 0 {
			sum[i] /= lut.count[i]
		}
	}
	zeroMean(sum)
	return sum
}

type polarCell struct {
	dx, dy int16
	bin    int32
}

type polarTable struct {
	cells []polarCell
	count []float64
}

var polarLUTs sync.Map // radius → *polarTable

func polarLUT(r int) *polarTable {
	r = max(r, 2)
	if t, ok := polarLUTs.Load(r); ok {
		return t.(*polarTable)
	}
	t := &polarTable{count: make([]float64, polarRadial*polarAngular)}
	rf := float64(r)
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			d := math.Hypot(float64(x), float64(y))
			if d >= rf || d < 0.15*rf {
				continue
			}
			j := int((d - 0.15*rf) / (0.85 * rf) * polarRadial)
			a := math.Atan2(-float64(y), float64(x))
			if a < 0 {
				a += 2 * math.Pi
			}
			k := int(a/(2*math.Pi)*polarAngular) % polarAngular
			bin := j*polarAngular + k
			t.cells = append(t.cells, polarCell{int16(x), int16(y), int32(bin)})
			t.count[bin]++
		}
	}
	v, _ := polarLUTs.LoadOrStore(r, t)
	return v.(*polarTable)
}

func zeroMean(v []float64) {
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	n := 0.0
	for i := range v {
		v[i] -= mean
		n += v[i] * v[i]
	}
	if n = math.Sqrt(n); n > 0 {
		for i := range v {
			v[i] /= n
		}
	}
}

// bestShift correlates two polar histograms over all rotations and
// returns the best angle (radians) and its correlation. The angular
// profiles summed over radius pick a few shifts; the full histograms
// decide among them.
func bestShift(plan, tm []float64) (float64, float64) {
	const n = polarAngular
	// the plan's profile twice over, so that a shifted index needs no
	// remainder
	var pa [2 * n]float64
	var ta [n]float64
	for j := 0; j < polarRadial; j++ {
		for a := 0; a < n; a++ {
			pa[a] += plan[j*n+a]
			ta[a] += tm[j*n+a]
		}
	}
	copy(pa[n:], pa[:n])
	coarse := make([]float64, n)
	for s := 0; s < n; s++ {
		v := 0.0
		for a, t := range ta {
			v += pa[a+s] * t
		}
		coarse[s] = v
	}
	best, bv := 0, math.Inf(-1)
	var tried [n]bool
	for _, s0 := range topK(coarse, 4) {
		for d := -1; d <= 1; d++ {
			s := (s0 + d + n) % n
			if tried[s] {
				continue
			}
			tried[s] = true
			v := 0.0
			for j := 0; j < polarRadial; j++ {
				pr, tr := plan[j*n:(j+1)*n], tm[j*n:(j+1)*n]
				for a := 0; a < n-s; a++ {
					v += pr[a+s] * tr[a]
				}
				for a := n - s; a < n; a++ {
					v += pr[a+s-n] * tr[a]
				}
			}
			if v > bv {
				best, bv = s, v
			}
		}
	}
	return float64(best) * 2 * math.Pi / n, bv
}

// probeScore is a fast pose score: the mean ink under the template's
// centre lines minus the mean ink at points of the template that should be
// empty (farther than a stroke from any line), on the blurred level. The
// centre lines are sampled at probeLine to twice as many points, or about
// twice per pixel of the level when the template is drawn so small that
// this is fewer.
func (m *matcher) probeScore(l int, t *prepared, p pose) float64 {
	lv := m.blurred(l)
	f := lf(l)
	pl := p.at(f)
	pts := t.fg
	if sp := t.pointsFor(p.scale * f); len(sp) < len(pts) {
		pts = sp
	}
	var fg float64
	if hid := m.hiddenAt(l, t, p); hid != nil {
		fg = visibleMean(lv, pl, pts, hid)
	} else {
		fg = sumBilinear(lv, pl, pts) / float64(len(pts))
	}
	minD := (m.sw*f/2 + 1.5) / (p.scale * f) // template pixels
	// the background probes at least minD from the lines: a prefix
	n := sort.Search(len(t.bgDist), func(i int) bool { return t.bgDist[i] < minD })
	bg := 0.0
	if n > 0 {
		bg = sumBilinear(lv, pl, t.bg[:n]) / float64(n)
	}
	return fg - bg
}

// visibleMean is the mean of lv (bilinear) at the points placed by pl that
// do not lie on hidden pixels, or at all of them when more than maxHidden
// of them do.
func visibleMean(lv *fimg, pl placement, pts [][2]float64, hidden []bool) float64 {
	w, h, px := lv.w, lv.h, lv.p
	var all, vis float64
	off := 0
	for _, q := range pts {
		x, y := pl.apply(q[0], q[1])
		x0, y0 := int(math.Floor(x)), int(math.Floor(y))
		if x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
			v := float64(lv.bilinearEdge(x, y, x0, y0))
			all += v
			ix, iy := int(math.Round(x)), int(math.Round(y))
			if ix >= 0 && iy >= 0 && ix < w && iy < h && hidden[iy*w+ix] {
				off++
				continue
			}
			vis += v
			continue
		}
		// as sumBilinear, and the nearest pixel's hidden mark
		fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
		i := y0*w + x0
		v := float64((px[i]*(1-fx)+px[i+1]*fx)*(1-fy) + (px[i+w]*(1-fx)+px[i+w+1]*fx)*fy)
		all += v
		if fx >= 0.5 {
			i++
		}
		if fy >= 0.5 {
			i += w
		}
		if hidden[i] {
			off++
			continue
		}
		vis += v
	}
	if off == 0 || tooHidden(float64(off), float64(len(pts))) {
		return all / float64(len(pts))
	}
	return vis / float64(len(pts)-off)
}

// sumBilinear sums lv.bilinear at the points placed by pl; the fast path
// is written out, as the compiler does not inline bilinear and most of
// refinement's time is spent here.
func sumBilinear(lv *fimg, pl placement, pts [][2]float64) float64 {
	w, h, px := lv.w, lv.h, lv.p
	sum := 0.0
	for _, q := range pts {
		x, y := pl.apply(q[0], q[1])
		x0, y0 := int(math.Floor(x)), int(math.Floor(y))
		if x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
			sum += float64(lv.bilinearEdge(x, y, x0, y0))
			continue
		}
		fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
		i := y0*w + x0
		sum += float64((px[i]*(1-fx)+px[i+1]*fx)*(1-fy) + (px[i+w]*(1-fx)+px[i+w+1]*fx)*fy)
	}
	return sum
}

// renders keeps a refinement's last few template drawings: a local
// search moves a pose by whole pixels as often as it turns or scales it,
// and a whole-pixel move draws the template exactly as before, shifted.
type renders struct {
	e     []rendered // most recently used first
	drawn int        // drawings made
}

type rendered struct {
	t            *prepared
	q            pose // in the drawing's own frame
	f, pen, grow float64
	size         int
	buf          *fimg
}

const maxRenders = 6

// draw returns t drawn posed by q (see splat) on a size × size image.
// The image belongs to the cache: it is valid until the next call.
func (c *renders) draw(t *prepared, q pose, f, pen, grow float64, size int) *fimg {
	for i, e := range c.e {
		if e.t == t && e.q == q && e.f == f && e.pen == pen && e.grow == grow && e.size == size {
			copy(c.e[1:i+1], c.e[:i])
			c.e[0] = e
			return e.buf
		}
	}
	var buf *fimg
	if len(c.e) == maxRenders {
		buf = c.e[maxRenders-1].buf
		buf.w, buf.h, buf.p = size, size, slices.Grow(buf.p[:0], size*size)[:size*size]
		clear(buf.p)
		c.e = c.e[:maxRenders-1]
	} else {
		buf = newF(size, size)
	}
	t.drawPosed(buf, q, f, pen, grow)
	c.drawn++
	c.e = append([]rendered{{t: t, q: q, f: f, pen: pen, grow: grow, size: size, buf: buf}}, c.e...)
	return buf
}

// nccClear is refine's correlation (ncc on the blurred level) with the
// ink of long straight lines cleared around the pose: on a copy of the
// template's neighbourhood, blurred as the level is.
func (m *matcher) nccClear(l int, t *prepared, p pose) float64 {
	lv, long := m.level(l), m.longLines(l)
	f := lf(l)
	r := int(math.Ceil(t.radius*p.scale*f)) + 6
	x0, y0 := int(math.Floor(p.cx))-r, int(math.Floor(p.cy))-r
	patch := newF(2*r+1, 2*r+1)
	for y := 0; y < patch.h; y++ {
		for x := 0; x < patch.w; x++ {
			px, py := x+x0, y+y0
			if px >= 0 && py >= 0 && px < lv.w && py < lv.h && !long[py*lv.w+px] {
				patch.p[y*patch.w+x] = lv.p[py*lv.w+px]
			}
		}
	}
	b := box3(box3(patch))
	q := p
	q.cx -= float64(x0)
	q.cy -= float64(y0)
	return m.ncc(b, prefixSums(b), f, t, q, nil, nil)
}

// ncc correlates the template posed by p (level pixels, level factor f)
// with the blurred level lv, whose row prefix sums are rs, inside the
// template's disk less the pixels skip marks (none when nil). The template
// is drawn through rc when it is given.
func (m *matcher) ncc(lv *fimg, rs *rowSums, f float64, t *prepared, p pose, rc *renders, skip []bool) float64 {
	r := t.radius*p.scale*f + 1
	x0, y0 := int(math.Floor(p.cx-r)), int(math.Floor(p.cy-r))
	size := int(2*r) + 3
	q := p
	q.cx -= float64(x0)
	q.cy -= float64(y0)
	var buf *fimg
	if rc != nil {
		buf = rc.draw(t, q, f, m.sw*f/2, 1, size)
	} else {
		buf = getScratch(size, size)
		defer putScratch(buf)
		t.drawPosed(buf, q, f, m.sw*f/2, 1)
	}
	var sa, sb, saa, sbb, sab, n float64
	var all, vis corrSums // with skip: over the disk, and without the skipped
	var tb, hb float64    // the template's ink, and how much of it is skipped
	w1 := lv.w + 1
	for y := 0; y < size; y++ {
		dy := float64(y) - q.cy
		if dy*dy > r*r {
			continue
		}
		half := math.Sqrt(r*r - dy*dy)
		xs, xe := max(int(math.Ceil(q.cx-half)), 0), min(int(math.Floor(q.cx+half))+1, size)
		if xe <= xs {
			continue
		}
		py := y + y0
		inRow := py >= 0 && py < lv.h
		row := buf.p[y*size : (y+1)*size]
		if skip != nil {
			// pixel by pixel: with and without the skipped ones
			for x := xs; x < xe; x++ {
				px := x + x0
				in := inRow && px >= 0 && px < lv.w
				a, b := 0.0, float64(row[x])
				if in {
					a = float64(lv.p[py*lv.w+px])
				}
				all.add(a, b)
				tb += b
				if in && skip[py*lv.w+px] {
					hb += b
					continue
				}
				vis.add(a, b)
			}
			continue
		}
		n += float64(xe - xs)
		if inRow {
			// the plan's sums over the span, from its row prefix sums
			ps, pe := min(max(xs+x0, 0), lv.w), min(max(xe+x0, 0), lv.w)
			sa += float64(rs.s1[py*w1+pe] - rs.s1[py*w1+ps])
			saa += float64(rs.s2[py*w1+pe] - rs.s2[py*w1+ps])
		}
		for x := xs; x < xe; x++ {
			b := row[x]
			if b == 0 {
				continue
			}
			sb += float64(b)
			sbb += float64(b * b)
			if px := x + x0; inRow && px >= 0 && px < lv.w {
				sab += float64(b * lv.p[py*lv.w+px])
			}
		}
	}
	if skip != nil {
		// too much of the symbol hidden, and too little is seen of it
		if tooHidden(hb, tb) {
			return all.value()
		}
		return vis.value()
	}
	return corrSums{sa, sb, saa, sbb, sab, n}.value()
}

// corrSums are the sums a normalised correlation of a and b is made of.
type corrSums struct{ sa, sb, saa, sbb, sab, n float64 }

func (c *corrSums) add(a, b float64) {
	c.sa += a
	c.sb += b
	c.saa += a * a
	c.sbb += b * b
	c.sab += a * b
	c.n++
}

func (c corrSums) value() float64 {
	if c.n == 0 {
		return 0
	}
	va := c.saa - c.sa*c.sa/c.n
	vb := c.sbb - c.sb*c.sb/c.n
	if va <= 1e-9 || vb <= 1e-9 {
		return 0
	}
	return (c.sab - c.sa*c.sb/c.n) / math.Sqrt(va*vb)
}

// rowSums are per-row prefix sums of a blurred level and of its square.
type rowSums struct{ s1, s2 []float32 }

func (m *matcher) rowSums(l int) *rowSums {
	lv := m.blurred(l)
	return perLevel(m, &m.sums, l, func() *rowSums { return prefixSums(lv) })
}

func prefixSums(lv *fimg) *rowSums {
	w1 := lv.w + 1
	r := &rowSums{s1: make([]float32, w1*lv.h), s2: make([]float32, w1*lv.h)}
	par.Rows(lv.h, lv.w, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			var a, b float32
			for x := 0; x < lv.w; x++ {
				v := lv.p[y*lv.w+x]
				a += v
				b += v * v
				r.s1[y*w1+x+1] = a
				r.s2[y*w1+x+1] = b
			}
		}
	})
	return r
}

var scratch sync.Pool

// getScratch returns a zeroed w×h image from a pool.
func getScratch(w, h int) *fimg {
	if v, ok := scratch.Get().(*fimg); ok && cap(v.p) >= w*h {
		v.w, v.h, v.p = w, h, v.p[:w*h]
		clear(v.p)
		return v
	}
	return newF(w, h)
}

func putScratch(m *fimg) { scratch.Put(m) }

// refineTrace records how a candidate fared in refine (for tuning; set by
// tests only).
type refineTrace struct {
	Template           int
	X, Y, Scale        float64 // candidate, full resolution
	Ring               float64 // the candidate's ring-pass score
	Polar              float64 // best polar correlation over the centres tried
	Probe0             float64 // best probe score of the starting poses
	Probe, NCC0, NCC   float64 // best probe score, first and final correlation (-1: not reached)
	Chamfer, Explained float64
	Support            float64 // as Detection.support
	Conf               float64
	Box                geom.Box // of the detection, when there is one
	ProbeEvals         int      // probe scores computed
	RunsOn             bool     // dropped by linesRunOn
	Early              float64  // best correlation of the climbs at their checkpoint (-1: none reached it)
}

var traceRefine func(refineTrace)

// polarTemplate is the polar histogram of t drawn at the given scale
// and mirror image on level l (r: its radius there), made once per
// matcher: every candidate of a template and scale starts from it.
func (m *matcher) polarTemplate(t *prepared, scale float64, l int, flip bool, r float64) []float64 {
	type key struct {
		t     *prepared
		scale float64
		l     int
		flip  bool
	}
	k := key{t, scale, l, flip}
	if v, ok := m.polars.Load(k); ok {
		return v.([]float64)
	}
	f := lf(l)
	size := int(2*r) + 5
	buf := newF(size, size)
	mid := float64(size / 2)
	t.drawPosed(buf, pose{cx: mid, cy: mid, scale: scale, flip: flip}, f, m.sw*f/2, 0)
	v, _ := m.polars.LoadOrStore(k, polar(buf, mid, mid, r))
	return v.([]float64)
}

// refine turns a candidate into a detection, or nil.
func (m *matcher) refine(c candidate) (det *Detection) {
	tr := refineTrace{Template: c.t.idx, X: c.x, Y: c.y, Scale: c.scale, Ring: c.score, Probe: -1, NCC0: -1, NCC: -1, Early: -1}
	if traceRefine != nil {
		defer func() {
			ox, oy := float64(m.origin.X), float64(m.origin.Y)
			tr.X, tr.Y = tr.X+ox, tr.Y+oy
			if tr.Box.Valid() {
				tr.Box = tr.Box.Translate(ox, oy)
			}
			traceRefine(tr)
		}()
	}
	l := max(c.level-2, 0)
	f := lf(l)
	lv := m.level(l)
	cx, cy := c.x*f, c.y*f
	r := c.radius * f
	// the ring pass places centres to about a pixel of its level: try
	// centres around it, and for each the best angle by polar correlation
	type hyp struct {
		p pose
		v float64
	}
	var tps [2][]float64
	for i, flip := range []bool{false, true} {
		tps[i] = m.polarTemplate(c.t, c.scale, l, flip, r)
	}
	step := math.Ldexp(1, c.level-l)
	var hyps []hyp
	for dy := -1.0; dy <= 1; dy++ {
		for dx := -1.0; dx <= 1; dx++ {
			px, py := cx+dx*step, cy+dy*step
			pp := polar(lv, px, py, r)
			for i, flip := range []bool{false, true} {
				a, v := bestShift(pp, tps[i])
				hyps = append(hyps, hyp{pose{cx: px, cy: py, angle: a, scale: c.scale, flip: flip}, v})
			}
		}
	}
	sort.Slice(hyps, func(a, b int) bool { return hyps[a].v > hyps[b].v })
	tr.Polar = hyps[0].v
	// the best hypotheses are climbed on the fast probe score, then the
	// best by correlation is polished on correlation
	var best pose
	ncc := -1.0
	// the masked normalised correlation between the posed template (drawn
	// at the drawing's stroke width) and level l inside the template's
	// disk; p is in level pixels
	var rc renders
	nccAt := func(l int, t *prepared, p pose) float64 {
		return m.ncc(m.blurred(l), m.rowSums(l), lf(l), t, p, &rc, m.hiddenAt(l, t, p))
	}
	// near-symmetric symbols correlate almost as well half a turn away:
	// each of the best hypotheses is also tried turned by 180°
	var starts []pose
	for _, h := range hyps[:3] {
		starts = append(starts, h.p)
		h.p.angle += math.Pi
		starts = append(starts, h.p)
	}
	// drawings are mostly drawn square to the sheet: the four right angles,
	// both mirror images, are always tried too (an elongated symbol's ring
	// candidate can sit far enough from its centre to mislead the polar step)
	for k := 0; k < 4; k++ {
		for _, flip := range []bool{false, true} {
			starts = append(starts, pose{cx: cx, cy: cy, angle: float64(k) * math.Pi / 2, scale: c.scale, flip: flip})
		}
	}
	probe := m.probeScore
	if traceRefine != nil {
		probe = func(l int, t *prepared, p pose) float64 { tr.ProbeEvals++; return m.probeScore(l, t, p) }
	}
	sv := make([]float64, len(starts))
	for i, st := range starts {
		sv[i] = probe(l, c.t, st)
		tr.Probe0 = max(tr.Probe0, sv[i])
	}
	// the two best starts are climbed — often two neighbouring centres at
	// one angle: the local search is not always drawn to the same pose
	// from both — and the best start that differs from both in mirror
	// image or by 20° or more
	order := topK(sv, len(sv))
	pick := []int{order[0], order[1]}
	for _, i := range order[2:] {
		if distinctStart(starts[i], starts[order[0]]) && distinctStart(starts[i], starts[order[1]]) {
			pick = append(pick, i)
			break
		}
	}
	for _, i := range pick {
		if sv[i] < 0 {
			continue
		}
		// a climb that has not made the pose correlate a little after a
		// few steps is given up
		checkpoint := func(k int, p pose) bool {
			if k != earlyIter {
				return true
			}
			w := nccAt(l, c.t, p)
			tr.Early = max(tr.Early, w)
			return w >= minEarlyNCC
		}
		p, v, ok := m.climb(l, c.t, starts[i], sv[i], probe, 48, 4, 4, checkpoint)
		tr.Probe = max(tr.Probe, v)
		if !ok || v < minProbe {
			continue
		}
		if w := nccAt(l, c.t, p); w > ncc {
			best, ncc = p, w
		}
	}
	tr.NCC0 = ncc
	if ncc < minStartNCC {
		return nil
	}
	best, ncc, _ = m.climb(l, c.t, best, ncc, nccAt, 12, 1, 1, nil)
	tr.NCC = ncc
	if ncc < minNCC {
		return nil
	}
	chamfer, explained, net, crossed := m.verify(l, c.t, best)
	if crossed {
		// correlated again without the lines crossing it, which lowered
		// the correlation as they did the explained ink
		ncc = max(ncc, m.nccClear(l, c.t, best))
		tr.NCC = ncc
	}
	conf := confidence(ncc, chamfer, explained)
	if conf >= m.opt.MinConfidence && !crossed && m.linesRunOn(l, c.t, best) {
		// every free end of the symbol's lines runs on in the drawing:
		// it is a part of a larger drawing (the corner of a rectangle
		// taken for an L), not a symbol. Not asked of a symbol that long
		// lines cross: its ends run on into them whatever it is (a
		// grille whose one free end, a tick inside it, points along the
		// duct lines through it)
		tr.RunsOn = true
		conf = 0
	}
	tr.Chamfer, tr.Explained, tr.Conf = chamfer, explained, conf
	support := net
	tr.Support = support
	if conf < m.opt.MinConfidence && traceRefine == nil {
		return nil
	}
	// the box at full resolution
	full := best
	full.cx, full.cy = best.cx/f, best.cy/f
	bx0, by0, bx1, by1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	fp := full.at(1)
	for _, q := range c.t.pts {
		x, y := fp.apply(q[0], q[1])
		bx0, by0, bx1, by1 = min(bx0, x), min(by0, y), max(bx1, x), max(by1, y)
	}
	h := m.sw / 2
	W, H := float64(m.levels[0].w), float64(m.levels[0].h)
	box := geom.Box{XMin: max(bx0-h, 0), YMin: max(by0-h, 0), XMax: min(bx1+h, W), YMax: min(by1+h, H)}
	tr.Box = box
	if conf < m.opt.MinConfidence {
		return nil
	}
	deg := math.Mod(best.angle*180/math.Pi+360, 360)
	return &Detection{Template: c.t.idx, Box: box, Angle: deg, Scale: best.scale, Confidence: conf, Mirrored: best.flip,
		ncc: ncc, chamfer: chamfer, explained: explained, flip: best.flip,
		support: support, at: full}
}

// linesRunOn tells whether every free end of t's lines, posed by p on
// level l, runs on in the drawing: ink (within the chamfer tolerance)
// under at least 3/4 of the points that continue the line past its end
// for two strokes' widths or a sixth of the symbol's size, whichever is
// longer, starting a stroke's width out (strokes of the template or of
// the drawing, whichever is wider as posed). False for a symbol without
// free ends.
func (m *matcher) linesRunOn(l int, t *prepared, p pose) bool {
	if len(t.tips) == 0 {
		return false
	}
	lv := m.level(l)
	near := m.near(l)
	pl := p.at(lf(l))
	sw := max(t.sw, (m.sw+2*m.chamferTol(l)/lf(l))/p.scale) // template pixels
	span := max(2*sw, max(t.bw, t.bh)/6)
	step := max(1, 0.5/(p.scale*lf(l))) // half a level pixel, in template pixels
	for _, e := range t.tips {
		n, on := 0, 0
		for d := sw; d <= sw+span; d += step {
			x, y := pl.apply(e.x+e.dx*d, e.y+e.dy*d)
			ix, iy := int(math.Round(x)), int(math.Round(y))
			n++
			if ix >= 0 && iy >= 0 && ix < lv.w && iy < lv.h && near[iy*lv.w+ix] {
				on++
			}
		}
		if 4*on < 3*n {
			return false
		}
	}
	return true
}

// distinctStart tells whether two starting poses differ in mirror image
// or by 20° or more.
func distinctStart(a, b pose) bool {
	return a.flip != b.flip || math.Abs(math.Remainder(a.angle-b.angle, 2*math.Pi)) >= 20*math.Pi/180
}

// climb improves a pose by local search over position, angle and scale,
// on the given score, starting with steps of stepPx pixels and stepDeg
// degrees, halved whenever no move helps.
// When check is given it is asked before each iteration whether to go
// on from the pose reached; a climb it stops returns false.
func (m *matcher) climb(l int, t *prepared, p pose, v float64, score func(int, *prepared, pose) float64, iters int, stepDeg, stepPx float64, check func(iter int, p pose) bool) (pose, float64, bool) {
	da := stepDeg * math.Pi / 180
	d := stepPx
	ds := 1 + 0.015*stepPx // scale step
	// a move back to where the last one came from is scored already: the
	// poses scored, looked through in order (a climb scores tens of them,
	// which a map took longer to hash than this takes to scan)
	type scored struct {
		p pose
		v float64
	}
	seen := []scored{{p, v}}
	lookup := func(q pose) (float64, bool) {
		for i := len(seen) - 1; i >= 0; i-- {
			if seen[i].p == q {
				return seen[i].v, true
			}
		}
		return 0, false
	}
	for iter := 0; iter < iters; iter++ {
		if check != nil && !check(iter, p) {
			return p, v, false
		}
		moves := [8]pose{}
		for i := range moves {
			moves[i] = p
		}
		moves[0].cx += d
		moves[1].cx -= d
		moves[2].cy += d
		moves[3].cy -= d
		moves[4].angle += da
		moves[5].angle -= da
		moves[6].scale *= ds
		moves[7].scale /= ds
		improved := false
		for _, q := range moves {
			if q.scale < max(m.opt.MinScale, t.minScale)*0.95 || q.scale > m.opt.MaxScale*1.05 {
				continue
			}
			w, ok := lookup(q)
			if !ok {
				w = score(l, t, q)
				seen = append(seen, scored{q, w})
			}
			if w > v+1e-4 {
				p, v, improved = q, w, true
			}
		}
		if !improved {
			switch {
			case d > 1:
				d /= 2
				ds = 1 + 0.015*d
			case da >= 0.6*math.Pi/180:
				da /= 2
			default:
				return p, v, true
			}
		}
	}
	return p, v, true
}

// textShare: pieces of ink beside a symbol no longer than this share of
// its smaller side (suffix text, tags) are not part of its surroundings.
const textShare = 0.5

// verify measures, at level l: the share of the template's centre-line
// points lying on ink (chamfer) and the share of the ink inside the
// template's turned box, grown by a quarter of its size and two strokes on
// every side, that lies along the template (explained): a symbol stands on
// its own, while a match on part of a longer line or of a larger shape
// leaves the rest of it unexplained around the box. Pieces of ink that
// lie in that margin without reaching the box (suffix text, a tag) are
// set beside the symbol, not part of it, and left out. net is the ink the
// template covers less the template's own ink (drawn at the drawing's
// stroke width) with no drawing ink within the tolerance, in
// full-resolution pixels: suppression ranks overlapping detections by it.
func (m *matcher) verify(l int, t *prepared, p pose) (chamfer, explained, net float64, crossed bool) {
	lv := m.level(l)
	f := lf(l)
	tol := m.chamferTol(l)
	near := m.near(l)
	hid := m.hiddenAt(l, t, p)
	on, off := 0, 0
	pts := t.pointsFor(p.scale * f)
	pl := p.at(f)
	for _, q := range pts {
		x, y := pl.apply(q[0], q[1])
		ix, iy := int(math.Round(x)), int(math.Round(y))
		if ix < 0 || iy < 0 || ix >= lv.w || iy >= lv.h {
			continue
		}
		switch i := iy*lv.w + ix; {
		case near[i]:
			on++
		case hid != nil && hid[i]:
			off++
		}
	}
	// points on a cleared fill (and no ink) are hidden: left out, unless
	// so many are that too little of the symbol is seen
	var hidden []bool
	if off > 0 && !tooHidden(float64(off), float64(len(pts))) {
		hidden = hid
	} else {
		off = 0
	}
	chamfer = float64(on) / float64(len(pts)-off)
	// draw the template thick enough to cover the tolerance, then count the
	// ink inside the turned box that it covers
	r := t.radius*p.scale*f*1.6 + 2 + 2*m.sw*f
	x0, y0 := int(math.Floor(p.cx-r)), int(math.Floor(p.cy-r))
	size := int(2*r) + 3
	buf := newF(size, size)
	q := p
	q.cx -= float64(x0)
	q.cy -= float64(y0)
	t.drawPosed(buf, q, f, m.sw*f/2, tol)
	// and as drawn, at the drawing's stroke width: its ink that has no
	// drawing ink within the tolerance is missing from the drawing
	thin := getScratch(size, size)
	defer putScratch(thin)
	t.drawPosed(thin, q, f, m.sw*f/2, 0)
	var missing float64
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			v := thin.p[y*size+x]
			if v == 0 {
				continue
			}
			px, py := x+x0, y+y0
			switch out := px < 0 || py < 0 || px >= lv.w || py >= lv.h; {
			case out:
				missing += float64(v)
			case !near[py*lv.w+px] && (hidden == nil || !hidden[py*lv.w+px]):
				missing += float64(v)
			}
		}
	}
	sn, cs := math.Sincos(p.angle)
	long := m.longLines(l)
	// the box grown by a margin: ink right around a symbol that the
	// template does not explain means it is part of something else,
	// unless it is a piece of its own that stays in the margin, not
	// reaching the box (a tag or suffix text set beside the symbol)
	hw, hh := t.bw/2*p.scale*f*1.5+2*m.sw*f, t.bh/2*p.scale*f*1.5+2*m.sw*f
	iw, ih := t.bw/2*p.scale*f+tol, t.bh/2*p.scale*f+tol
	lab, extent := windowPieces(lv, x0, y0, size)
	// pieces that count: those reaching the box, and those not much
	// smaller than the symbol (a glyph matched as a symbol has its
	// neighbours, its own size, on either side)
	counts := make([]bool, len(extent))
	for k, e := range extent {
		counts[k] = e > textShare*min(t.bw, t.bh)*p.scale*f
	}
	frame := func(x, y int) (u, v float64) {
		dx, dy := float64(x)-q.cx, float64(y)-q.cy
		return math.Abs(cs*dx - sn*dy), math.Abs(sn*dx + cs*dy)
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			if u, v := frame(x, y); u <= iw && v <= ih {
				counts[lab[y*size+x]] = true
			}
		}
	}
	var ink, cov, longInk, longOff float64
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			// into the template's frame
			u, v := frame(x, y)
			if u > hw || v > hh {
				continue
			}
			px, py := x+x0, y+y0
			if px < 0 || py < 0 || px >= lv.w || py >= lv.h {
				continue
			}
			if !counts[lab[y*size+x]] {
				continue
			}
			a := float64(lv.p[py*lv.w+px])
			on := buf.p[y*size+x] > 0.5
			if on {
				cov += a
			}
			if long[py*lv.w+px] {
				longInk += a
				if !on {
					longOff += a
				}
			}
			ink += a
		}
	}
	// long lines that cross the symbol (the template lies along little of
	// them) are not its surroundings; lines it lies along, as a symbol set
	// against a wall, or as an outline taken for one that lies on a wall's
	// faces, still count
	crossed = longInk > 0 && longInk-longOff < 0.5*longInk
	if crossed {
		ink -= longOff
	}
	net = (cov - missing) / (f * f)
	if ink <= 0 {
		return chamfer, 0, net, crossed
	}
	return chamfer, min(cov/ink, 1), net, crossed
}

// windowPieces labels the 8-connected pieces of lv's ink (any coverage)
// in the size × size window at (x0, y0), from 1 (0: paper, or outside
// lv), with each label's extent (the longer side of its box; paper's is
// the window's).
func windowPieces(lv *fimg, x0, y0, size int) (lab []int32, extent []float64) {
	bin := make([]byte, size*size)
	for y := 0; y < size; y++ {
		py := y + y0
		if py < 0 || py >= lv.h {
			continue
		}
		for x := 0; x < size; x++ {
			if px := x + x0; px >= 0 && px < lv.w && lv.p[py*lv.w+px] > 0 {
				bin[y*size+x] = 255
			}
		}
	}
	return pieces(bin, size, size)
}

// confidence maps the three similarities to 0..1: a logistic regression
// fitted to traced candidates (TestTraceSESYDPlan, TestTraceSynth) that
// survive suppression, labelled right when a ground-truth instance of
// their symbol overlaps them with IoU ≥ 0.5 — SESYD plans 0, 2, 4, 6, 8
// and synthetic sheets of seeds 3–5, refitted three times as the fitted
// confidence changes which candidates survive suppression. Held out (SESYD
// plans 1, 3, 5, 7, 9; synthetic seeds 1–2) it puts right and wrong on
// either side of 0.5: precision 1.000 and 0.989, recall 0.962 and 0.865
// (BENCHMARKS.md). Correlation dominates: a candidate that lies on ink and
// explains its surroundings but correlates at 0.6 is a different symbol
// of similar shape (the filled triangle of a voice/data outlet on a wall
// sconce's half-disc). scripts/fit-confidence.py refits it from traces.
func confidence(ncc, chamfer, explained float64) float64 {
	z := -49.67 + 41.55*ncc + 1.66*chamfer + 18.41*explained
	return 1 / (1 + math.Exp(-z))
}

// suppress removes overlapping detections: among detections whose boxes
// overlap (IoU ≥ 0.3, or 70 % of the smaller inside the larger), whatever
// their symbols, the one that explains the pixels best is kept. It is
// ranked by the drawing's ink it covers less its own ink that the drawing
// lacks (full-resolution pixels; see verify), times the square root of
// its confidence: a symbol that matches well and accounts for more of the
// drawing beats a smaller one that matches a part of it (a window-like
// rectangle inside a sofa; a double sink over a single sink on one of its
// basins, which won at 0.95 against 0.84 with confidence squared); a symbol that covers the same ink but draws
// more than is there (a half-filled triangle on an open one) loses to the
// one that draws just what is there; a weak large match does not beat a
// strong small one.
func suppress(dets []Detection) []Detection {
	rank := func(d Detection) float64 { return d.support * math.Sqrt(d.Confidence) }
	sort.SliceStable(dets, func(a, b int) bool { return rank(dets[a]) > rank(dets[b]) })
	var out []Detection
	for _, d := range dets {
		ok := true
		for _, k := range out {
			in := geom.Box{XMin: max(d.Box.XMin, k.Box.XMin), YMin: max(d.Box.YMin, k.Box.YMin),
				XMax: min(d.Box.XMax, k.Box.XMax), YMax: min(d.Box.YMax, k.Box.YMax)}.Area()
			if d.Box.IoU(k.Box) >= 0.3 || in >= 0.7*min(d.Box.Area(), k.Box.Area()) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Confidence > out[b].Confidence })
	return out
}
