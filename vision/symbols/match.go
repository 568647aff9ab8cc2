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

	"github.com/plangraph/plangraph/vision/geom"
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
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	var prep []*prepared
	prep, res.Skipped = prepareAll(tmpls, &opt, w, h)
	if len(prep) == 0 {
		return res, nil
	}
	var err error
	sctx := ctx
	if !opt.Deadline.IsZero() {
		var cancel context.CancelFunc
		budget := opt.budget
		if budget == nil {
			budget = context.WithDeadline
		}
		sctx, cancel = budget(ctx, opt.Deadline)
		defer cancel()
	}
	// out of budget: the caller's context is live, the search's is not
	overBudget := func(err error) bool { return err != nil && ctx.Err() == nil && sctx.Err() != nil }
	if w*h <= tileMinArea {
		res.Detections, res.Stats, err = search(sctx, img, prep, opt, 0, image.Point{}, image.Rect(0, 0, w, h), nil)
		if overBudget(err) {
			// stopped in the refinement, the likeliest places were
			// examined; stopped before, none was
			if res.Stats.Unrefined == 0 || res.Stats.Unrefined >= res.Stats.Candidates {
				res.Detections, res.Unsearched = nil, []image.Rectangle{img.Bounds()}
			}
			err = nil
		}
	} else {
		res.Detections, res.Stats, res.Unsearched, res.NearScales, err = searchTiled(sctx, img, prep, opt, overBudget)
	}
	if err != nil {
		return res, err
	}
	for i := range res.Detections {
		res.Detections[i].Label = tmpls[res.Detections[i].Template].Label
	}
	return res, nil
}

// prepareAll prepares the templates for a search of a w×h image and sets
// the options Match sets from them; it returns the templates searched and
// those skipped, and why.
func prepareAll(tmpls []Template, opt *Options, w, h int) ([]*prepared, []Skipped) {
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
		crops[i] = cropTemplate(t, *opt)
		opt.noText[i] = t.NoText
		opt.onWords[i] = textInkFor(t)
		opt.letterKeys[i] = LetterKey(t.Text)
	}
	pen := legendPen(crops)
	var prep []*prepared
	var skipped []Skipped
	for i, cr := range crops {
		p, reason := prepareCrop(i, cr, pen)
		if reason != "" {
			skipped = append(skipped, Skipped{Template: i, Reason: reason})
			continue
		}
		if p.bw*opt.MinScale > float64(w) || p.bh*opt.MinScale > float64(h) {
			skipped = append(skipped, Skipped{Template: i, Reason: "the symbol is larger than the searched image"})
			continue
		}
		prep = append(prep, p)
	}
	return prep, skipped
}

// search runs the whole search on img (sw > 0: the drawing's stroke width,
// else measured on img). Detections are suppressed across symbols. origin
// places img in the image Match was given (traces only). core is the part
// of img (in img's own pixels, from 0) whose detections are kept: a tile's
// own region; candidates centred farther outside it than half their
// radius are not refined (refinement moves a pose by less, and a
// detection centred outside the core is dropped). refineBy, when set,
// is called once the candidates are found and returns when the
// refinement must stop:
// stopped then (and ctx live), the candidates refined keep their
// detections, the rest are counted in Stats.Unrefined, and no error is
// returned.
func search(ctx context.Context, img *image.Gray, prep []*prepared, opt Options, sw float64, origin image.Point, core image.Rectangle, refineBy func() time.Time) ([]Detection, Stats, error) {
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
	rctx := ctx
	if refineBy != nil {
		var cancel context.CancelFunc
		rctx, cancel = context.WithDeadline(ctx, refineBy())
		defer cancel()
	}
	dets, left, err := m.refineOrdered(rctx, cands)
	st.Unrefined = left
	if stoppedBy(err, rctx, ctx) {
		err = nil
	}
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
