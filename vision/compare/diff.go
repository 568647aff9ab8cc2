package compare

import (
	"context"
	"encoding/binary"
	"image"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"gocv.io/x/gocv"
)

// The stroke-tolerant difference, on pixels, in B's frame. A pixel is ink
// when darker than inkThreshold. Ink of A (moved into B's frame) with no
// mark of B within the tolerance r is removed; ink of B with no mark of A
// within r is added: a dilation of each side's marks by a disc of radius r
// is the "within r" test, so a line moved or thickened by less than r, a
// grey antialiased edge or a sub-pixel misregistration is no change. A
// mark is anything darker than markThreshold, lighter than ink: moving A
// into B's frame by a fraction of a pixel spreads a faint hairline over
// two pixels at half its darkness, and it must still count as there.
// Differences further than 2r from the other side's ink are "far": a
// group of differences without any is a sliver along an unchanged line
// (a thick line moved by less than 2r, an edge rendered differently) and
// is dropped as residue (diff_regions.go).
//
// Only the part of B that A covers is compared (cover: A's extent moved
// into B, inset by r + 1 so that A's edge is not a change, and less B's
// own edge of r + 1 pixels, beyond which B's marks are unknown). B's ink
// outside it is counted and reported in a warning — A's block did not
// reach there, so A could not have had it — and drawn in
// ColourUncompared, never as added.
//
// The work runs in bands of rows (each band reads 2r rows more on either
// side for the dilations) on all CPUs, and writes the raw removed and
// added ink into the Deletion and Addition images and per-cell counts (a
// cell is cell × cell pixels) that the grouping reads. Memory beyond the
// outputs is a few bands, not copies of the block.

// inkThreshold is the grey level (0 black, 255 white) below which a pixel
// is ink: a line's antialiased edges and tints of 12 % or more are; a 10 %
// tint (230) and a scan's paper noise are not.
const inkThreshold = 224

// markThreshold is the grey level below which a pixel shows a mark at all
// (the presence the tolerance looks for on the other side).
const markThreshold = 246

// darkThreshold is the grey level below which ink is dark (a line's core
// rather than a screen or an antialiased edge).
const darkThreshold = 128

// solidThreshold is the grey level below which a mark is more than a
// tint: a screened fill of 20 % or less (204 and lighter; a plan's shaded
// zones, highlighted areas) is a mark, but dark ink drawn over it where
// the other side has only the tint is a difference (diffOverTint). A line
// moved into B's frame by a fraction of a pixel keeps half its darkness,
// darker than this.
const solidThreshold = 200

// bandRows is the height of the diff's bands in pixels (a multiple of any
// cell size used): small enough for a worker's buffers to stay in cache
// and cost little memory.
const bandRows = 240

// cellMaps holds, per cell, the mean of the difference masks (0–255, so
// the count of pixels is mean·cell²/255).
type cellMaps struct {
	w, h, cell     int
	rem, add       []uint8 // removed, added
	farRem, farAdd []uint8 // further than 2r from the other side's ink
	darkRem        []uint8 // removed that is dark in A, added dark in B
	darkAdd        []uint8
}

func (c *cellMaps) count(v uint8) int {
	return int(math.Round(float64(v) * float64(c.cell*c.cell) / 255))
}

// diffTotals are the whole-block counts of a diff, in pixels.
type diffTotals struct {
	union    int64 // ink of either side where compared
	inkB     int64 // B's ink within its frame (less its edge)
	outsideB int64 // the part of inkB outside A's extent
}

// diffInput is what the banded pass reads and writes.
type diffInput struct {
	aligned, b         *image.Gray // B's size
	addition, deletion *image.Gray // written: raw added / removed ink
	cover              cover
	r                  int // tolerance radius, pixels
	cells              *cellMaps
	dark               bool // fill darkRem / darkAdd
}

// runDiff runs the banded difference.
func runDiff(ctx context.Context, in diffInput) (diffTotals, error) {
	w, h := in.b.Rect.Dx(), in.b.Rect.Dy()
	var tot [3]atomic.Int64
	err := bands(ctx, h, 4*in.r, func(s *scratch, y0, y1 int) {
		t := diffBand(in, s, w, h, y0, y1)
		for i, v := range t {
			tot[i].Add(v)
		}
	})
	return diffTotals{union: tot[0].Load(), inkB: tot[1].Load(), outsideB: tot[2].Load()}, err
}

// bands runs fn on rows [y0, y1) of an image h rows high, in bands of
// bandRows, on all CPUs, each worker with its own scratch buffers (for
// bands of up to bandRows + margin rows); it stops handing out bands when
// ctx is done.
func bands(ctx context.Context, h, margin int, fn func(s *scratch, y0, y1 int)) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := scratches.get(bandRows + margin)
			defer scratches.put(s)
			for ctx.Err() == nil {
				y0 := int(next.Add(bandRows)) - bandRows
				if y0 >= h {
					return
				}
				fn(s, y0, min(h, y0+bandRows))
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// scratch is one worker's band buffers, reused band after band: fresh
// memory costs more to touch the first time (page faults) than the work
// done in it, so a block's worth of temporaries is never allocated.
type scratch struct {
	rows   int
	marked []bool // markSpans' column groups
	bufs   []gocv.Mat
	views  []gocv.Mat
}

// mat is buffer i as a rows × cols Mat of type t (a view of the top rows
// of a buffer of s.rows rows, kept until release).
func (s *scratch) mat(i, rows, cols int, t gocv.MatType) gocv.Mat {
	for len(s.bufs) <= i {
		s.bufs = append(s.bufs, gocv.NewMat())
	}
	b := &s.bufs[i]
	if b.Empty() || b.Cols() != cols || b.Type() != t || b.Rows() < rows {
		b.Close()
		*b = gocv.NewMatWithSize(max(rows, s.rows), cols, t)
	}
	v := b.Region(image.Rect(0, 0, cols, rows))
	s.views = append(s.views, v)
	return v
}

// release closes the views handed out since the last release.
func (s *scratch) release() {
	for i := range s.views {
		s.views[i].Close()
	}
	s.views = s.views[:0]
}

// scratches keeps the workers' scratch buffers from one banded pass to
// the next (the warp, the diff, the cleaning of a block pair, then the
// next pair's) for scratchTTL: a band's dozen buffers are megabytes that
// the allocator hands back to the kernel when freed, and fresh pages cost
// more to fault in (about 12 µs each on the 2-core VM of BENCHMARKS.md)
// than the work done in them. At most maxScratches are kept.
var scratches scratchPool

const (
	maxScratches = 4
	scratchTTL   = 30 * time.Second
)

type scratchPool struct {
	mu    sync.Mutex
	free  []*scratch
	timer *time.Timer
}

// get returns a scratch for bands of up to rows rows.
func (p *scratchPool) get(rows int) *scratch {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free = p.free[:n-1]
		s.rows = rows
		return s
	}
	return &scratch{rows: rows}
}

// put keeps s for the next pass (or closes it past maxScratches); the
// kept ones are closed scratchTTL after the last put.
func (p *scratchPool) put(s *scratch) {
	s.release()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) >= maxScratches {
		s.close()
		return
	}
	p.free = append(p.free, s)
	if p.timer == nil {
		p.timer = time.AfterFunc(scratchTTL, p.drain)
	} else {
		p.timer.Reset(scratchTTL)
	}
}

// drain closes the kept scratches.
func (p *scratchPool) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.free {
		s.close()
	}
	p.free = nil
}

func (s *scratch) close() {
	s.release()
	for i := range s.bufs {
		s.bufs[i].Close()
	}
}

// Scratch buffer numbers of a diff band.
const (
	bufAW = iota
	bufBW
	bufDA
	bufDB
	bufCover
	bufTmp
	bufRem
	bufAdd
	bufFarRem
	bufFarAdd
	bufDarkRem
	bufDarkAdd
	bufSA // marks of A / B darker than solidThreshold (a tint is not)
	bufSB
	bufTintRem // dark ink over the other side's tint (diffOverTint)
	bufTintAdd
)

// diffBand computes rows [y0, y1) of the difference; it returns the
// band's union ink, B ink and B ink outside the cover (diffTotals). Only
// the spans of columns with a mark on either side (markSpans) are
// computed: elsewhere nothing differs — no ink, no mark within the
// tolerance — so the raw images are paper and the cells empty, which is
// written as it is.
func diffBand(in diffInput, s *scratch, w, h, y0, y1 int) [3]int64 {
	defer s.release()
	r := in.r
	e0, e1 := max(0, y0-2*r), min(h, y1+2*r)
	spans := [][2]int{{0, w}}
	if !wholeBands {
		spans = markSpans(in.aligned, in.b, e0, e1, w, r, in.cells.cell, s)
	}
	var out [3]int64
	if len(spans) > 0 {
		av, bv := rowsView(in.aligned, e0, e1), rowsView(in.b, e0, e1)
		defer av.Close()
		defer bv.Close()
		if e1 == h {
			// the dilations read past the band's last row: no marks below
			// the image (not what a buffer held from an earlier band)
			for _, i := range []int{bufDA, bufDB, bufSA, bufSB} {
				s.mat(i, e1-e0, w, gocv.MatTypeCV8U) // the buffer, sized for the band
				below := s.bufs[i].Region(image.Rect(0, e1-e0, w, min(s.bufs[i].Rows(), e1-e0+2*r)))
				below.SetTo(gocv.NewScalar(0, 0, 0, 0))
				below.Close()
			}
		}
		cover := s.mat(bufCover, e1-e0, w, gocv.MatTypeCV8U)
		coverInto(&cover, in.cover, e0)
		k := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(2*r+1, 2*r+1))
		defer k.Close()
		for _, sp := range spans {
			t := diffSpan(in, s, av, bv, cover, k, w, e0, e1, y0, y1, sp[0], sp[1])
			for i := range out {
				out[i] += t[i]
			}
		}
	}
	// paper in the raw images between the spans
	x := 0
	for _, sp := range append(spans, [2]int{w, w}) {
		if sp[0] > x {
			for _, img := range []*image.Gray{in.addition, in.deletion} {
				for y := y0; y < y1; y++ {
					fillWhite(img.Pix[y*w+x : y*w+sp[0]])
				}
			}
		}
		x = sp[1]
	}
	return out
}

// fillWhite sets p to 255.
func fillWhite(p []byte) {
	if len(p) == 0 {
		return
	}
	p[0] = 255
	for n := 1; n < len(p); n *= 2 {
		copy(p[n:], p[:n])
	}
}

// markSpans are the spans of columns [x0, x1) of rows [e0, e1) to diff:
// the columns where a or b has a mark (darker than markThreshold), widened
// by twice the tolerance and a little more (the dilations reach 2r), cut
// to whole cells and joined when less than spanGap apart. A band marked
// across most of its width is one span, the whole width.
func markSpans(a, b *image.Gray, e0, e1, w, r, cell int, s *scratch) [][2]int {
	groups := (w + 7) / 8
	if cap(s.marked) < groups {
		s.marked = make([]bool, groups)
	}
	marked := s.marked[:groups]
	clear(marked)
	full := w / 8 * 8
	le := binary.LittleEndian
	for _, img := range []*image.Gray{a, b} {
		for y := e0; y < e1; y++ {
			row := img.Pix[y*w : (y+1)*w]
			for g := 0; g < full/8; g++ {
				if marked[g] {
					continue
				}
				// a byte under 246 (markThreshold): its top bit unset, or its
				// low seven bits under 118
				v := le.Uint64(row[8*g:])
				if ((v&lowSeven)+marks7)&v&topBits != topBits {
					marked[g] = true
				}
			}
			for x := full; x < w; x++ {
				if row[x] < markThreshold {
					marked[x/8] = true
				}
			}
		}
	}
	reach := 2*r + 2
	var spans [][2]int
	for g := 0; g < groups; g++ {
		if !marked[g] {
			continue
		}
		x0 := max(0, 8*g-reach) / cell * cell
		x1 := min(w, (min(w, 8*g+8)+reach+cell-1)/cell*cell)
		if n := len(spans); n > 0 && x0 <= spans[n-1][1]+spanGap {
			spans[n-1][1] = x1
			continue
		}
		spans = append(spans, [2]int{x0, x1})
	}
	covered := 0
	for _, sp := range spans {
		covered += sp[1] - sp[0]
	}
	if covered > w*3/4 {
		return [][2]int{{0, w}}
	}
	return spans
}

const (
	lowSeven = 0x7f7f7f7f7f7f7f7f
	topBits  = 0x8080808080808080
	// 128 - 118: a byte of 246 or more (top bit set, low seven bits at
	// least 118) carries into its top bit
	marks7 = 0x0a0a0a0a0a0a0a0a
)

// wholeBands diffs every band across its whole width (tests: the spans
// must give the same difference).
var wholeBands = false

// spanGap is the gap in pixels below which two spans of marked columns
// are diffed as one (each span costs a round of OpenCV calls).
const spanGap = 64

// diffSpan computes columns [x0, x1) of rows [y0, y1) of the difference
// (av, bv: the two sides' rows [e0, e1), cover their cover; x0 a multiple
// of the cell, x1 too or w), adding the span's totals. The dilations read
// up to 2r columns beyond the span, which are thresholded with it (no
// marks there: markSpans widened the spans).
func diffSpan(in diffInput, s *scratch, av, bv, cover, k gocv.Mat, w, e0, e1, y0, y1, x0, x1 int) [3]int64 {
	r := in.r
	eh, ch := e1-e0, y1-y0
	sw := x1 - x0
	cols := image.Rect(x0, 0, x1, eh)
	halo := image.Rect(max(0, x0-2*r), 0, min(w, x1+2*r), eh)
	region := func(m gocv.Mat, rc image.Rectangle) gocv.Mat {
		v := m.Region(rc)
		s.views = append(s.views, v)
		return v
	}
	core := image.Rect(0, y0-e0, sw, y1-e0)
	ext := func(i int) gocv.Mat { return region(s.mat(i, eh, w, gocv.MatTypeCV8U), cols) }
	band := func(i int) gocv.Mat { return region(s.mat(i, ch, w, gocv.MatTypeCV8U), image.Rect(x0, 0, x1, ch)) }
	sub := func(m gocv.Mat) gocv.Mat { return region(m, core) }
	as, bs := region(av, cols), region(bv, cols)

	aw, bw := ext(bufAW), ext(bufBW)
	thresholdInto(as, &aw, inkThreshold)
	thresholdInto(bs, &bw, inkThreshold)
	// marks is a side's pixels darker than level, thresholded over the
	// halo into buffer buf (the dilations read it) and dilated by the
	// tolerance, as the span's columns
	marks := func(buf int, side gocv.Mat, level int) gocv.Mat {
		full := s.mat(buf, eh, w, gocv.MatTypeCV8U)
		src, dst := region(side, halo), region(full, halo)
		thresholdInto(src, &dst, level)
		m := region(full, cols)
		gocv.Dilate(m, &m, k)
		return m
	}
	da, db := marks(bufDA, av, markThreshold), marks(bufDB, bv, markThreshold)
	cvr := region(cover, cols)
	awc, bwc, dac, dbc, cvc := sub(aw), sub(bw), sub(da), sub(db), sub(cvr)

	var out [3]int64
	tmp := band(bufTmp)
	gocv.BitwiseOr(awc, bwc, &tmp)
	gocv.BitwiseAnd(tmp, cvc, &tmp)
	out[0] = int64(gocv.CountNonZero(tmp))
	// B's ink within its frame (its edge is never compared), and the part
	// of it outside A's extent
	if fr := in.cover.frame.Intersect(image.Rect(x0, y0, x1, y1)).Sub(image.Pt(x0, y0)); !fr.Empty() {
		v := bwc.Region(fr)
		out[1] = int64(gocv.CountNonZero(v))
		v.Close()
	}
	gocv.BitwiseAnd(bwc, cvc, &tmp)
	out[2] = out[1] - int64(gocv.CountNonZero(tmp))

	// removed: A's ink, B's dilated marks absent, compared; added likewise
	rem, add := band(bufRem), band(bufAdd)
	andNot(awc, dbc, cvc, &rem)
	andNot(bwc, dac, cvc, &add)

	tint := diffOverTint(av, bv, as, bs, rem, add, cvc, marks, band, sub)

	// far: also absent from the other side's marks dilated twice
	gocv.Dilate(da, &da, k)
	gocv.Dilate(db, &db, k)
	farRem, farAdd := band(bufFarRem), band(bufFarAdd)
	andNot(rem, dbc, rem, &farRem)
	andNot(add, dac, add, &farAdd)
	if tint.tinted {
		// dark ink over a tint is far when no solid mark of the other side
		// is within 2r either
		gocv.Dilate(tint.sa, &tint.sa, k)
		gocv.Dilate(tint.sb, &tint.sb, k)
		gocv.Subtract(tint.rem, sub(tint.sb), &tint.rem)
		gocv.Subtract(tint.add, sub(tint.sa), &tint.add)
		gocv.BitwiseOr(farRem, tint.rem, &farRem)
		gocv.BitwiseOr(farAdd, tint.add, &farAdd)
	}

	// the raw Deletion and Addition rows: the side's grey where it differs
	avc, bvc := sub(as), sub(bs)
	for _, o := range [2]struct {
		src, mask gocv.Mat
		img       *image.Gray
	}{{avc, rem, in.deletion}, {bvc, add, in.addition}} {
		rows := rowsView(o.img, y0, y1)
		dst := rows.Region(image.Rect(x0, 0, x1, ch))
		gocv.BitwiseNot(o.mask, &tmp)
		gocv.BitwiseOr(o.src, tmp, &dst)
		dst.Close()
		rows.Close()
	}

	c := in.cells
	maps := [][]uint8{c.rem, c.add, c.farRem, c.farAdd}
	masks := []gocv.Mat{rem, add, farRem, farAdd}
	if in.dark {
		dr, dd := band(bufDarkRem), band(bufDarkAdd)
		darkInto(avc, rem, &dr)
		darkInto(bvc, add, &dd)
		maps = append(maps, c.darkRem, c.darkAdd)
		masks = append(masks, dr, dd)
	}
	cy0, cy1 := y0/c.cell, min(c.h, y1/c.cell)
	cx0, cx1 := x0/c.cell, min(c.w, x1/c.cell)
	if cy1 > cy0 && cx1 > cx0 {
		for i, m := range masks {
			cellsOf(m, c, cy0, cy1, cx0, cx1, maps[i])
		}
	}
	return out
}

// tintDiff is what diffOverTint found: the differences it added alone
// (to be tested for "far" after) and each side's solid marks dilated by r
// over the span, when there were any (tinted).
type tintDiff struct {
	rem, add gocv.Mat
	sa, sb   gocv.Mat
	tinted   bool
}

// diffOverTint adds to rem and add the dark ink of one side that the
// other side has only a tint under: the tolerance test takes any mark
// (markThreshold) near a pixel for the pixel's ink, so a new line drawn
// over a screened fill, or a line erased from one, was no change. Dark
// ink (darkThreshold) of B not already added, where A is lighter than
// solidThreshold, is added when no mark of A darker than solidThreshold
// lies within r (dilated, as the marks above); likewise removed. The
// dilations run only where such pixels exist: along unchanged lines A's
// registered copy is about as dark as B's.
// (av, bv: the sides' rows; as, bs: their span; marks as in diffSpan.)
func diffOverTint(av, bv, as, bs, rem, add, cvc gocv.Mat, marks func(buf int, side gocv.Mat, level int) gocv.Mat,
	band func(int) gocv.Mat, sub func(gocv.Mat) gocv.Mat) tintDiff {
	t := tintDiff{rem: band(bufTintRem), add: band(bufTintAdd)}
	// candidates: dark on one side, lighter than solid on the other, not
	// yet a difference, compared
	cand := func(dark, other, done gocv.Mat, dst *gocv.Mat) int {
		light := band(bufTmp)
		thresholdInto(dark, dst, darkThreshold)
		gocv.Threshold(other, &light, solidThreshold-1, 255, gocv.ThresholdBinary)
		gocv.BitwiseAnd(*dst, light, dst)
		gocv.BitwiseAnd(*dst, cvc, dst)
		gocv.Subtract(*dst, done, dst) // (masks of 0 and 255: ∧ ¬done)
		return gocv.CountNonZero(*dst)
	}
	nRem := cand(sub(as), sub(bs), rem, &t.rem)
	nAdd := cand(sub(bs), sub(as), add, &t.add)
	if nRem == 0 && nAdd == 0 {
		return t
	}
	t.tinted = true
	t.sa, t.sb = marks(bufSA, av, solidThreshold), marks(bufSB, bv, solidThreshold)
	gocv.Subtract(t.rem, sub(t.sb), &t.rem)
	gocv.Subtract(t.add, sub(t.sa), &t.add)
	gocv.BitwiseOr(rem, t.rem, &rem)
	gocv.BitwiseOr(add, t.add, &add)
	return t
}

// thresholdInto writes into dst 255 where g is darker than level, else 0.
func thresholdInto(g gocv.Mat, dst *gocv.Mat, level int) {
	gocv.Threshold(g, dst, float32(level-1), 255, gocv.ThresholdBinaryInv)
}

// darkInto writes into dst mask where grey g is also dark.
func darkInto(g, mask gocv.Mat, dst *gocv.Mat) {
	thresholdInto(g, dst, darkThreshold)
	gocv.BitwiseAnd(*dst, mask, dst)
}

// andNot is dst = a ∧ ¬b ∧ c (masks of 0 and 255).
func andNot(a, b, c gocv.Mat, dst *gocv.Mat) {
	gocv.BitwiseNot(b, dst)
	gocv.BitwiseAnd(*dst, a, dst)
	gocv.BitwiseAnd(*dst, c, dst)
}

// cellsOf writes the cell means of mask (the band's core rows from cell
// row cy0, its columns from cell column cx0) into rows [cy0, cy1), columns
// [cx0, cx1) of the cell map dst.
func cellsOf(mask gocv.Mat, c *cellMaps, cy0, cy1, cx0, cx1 int, dst []uint8) {
	src := mask.Region(image.Rect(0, 0, (cx1-cx0)*c.cell, (cy1-cy0)*c.cell))
	defer src.Close()
	all, _ := gocv.NewMatFromBytes(cy1-cy0, c.w, gocv.MatTypeCV8U, dst[cy0*c.w:cy1*c.w])
	defer all.Close()
	out := all.Region(image.Rect(cx0, 0, cx1, cy1-cy0))
	defer out.Close()
	gocv.Resize(src, &out, image.Pt(cx1-cx0, cy1-cy0), 0, 0, gocv.InterpolationArea)
}

// cover is the part of B that is compared: A's extent moved into B's
// frame (the quadrilateral q, continuous frame), within frame — B's image
// inset by the tolerance (B's marks beyond its edge are unknown, so A's
// ink near it cannot be judged) and cut to the whole cells.
type cover struct {
	q     [4][2]float64
	frame image.Rectangle
}

// coverInto draws the cover into m: 255 inside, 0 outside, for m's rows
// from e0 on.
func coverInto(m *gocv.Mat, cv cover, e0 int) {
	m.SetTo(gocv.NewScalar(0, 0, 0, 0))
	const shift = 8
	pts := make([]image.Point, 4)
	for i, p := range cv.q {
		// pixel centres are at integers for FillPoly
		pts[i] = image.Pt(int(math.Round((p[0]-0.5)*(1<<shift))), int(math.Round((p[1]-0.5-float64(e0))*(1<<shift))))
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	gocv.FillPolyWithParams(m, pv, whiteInk, gocv.Line8, shift, image.Point{})
	pv.Close()
	// outside the frame: not compared (in m's rows)
	in := cv.frame.Sub(image.Pt(0, e0)).Intersect(image.Rect(0, 0, m.Cols(), m.Rows()))
	if in.Empty() {
		m.SetTo(gocv.NewScalar(0, 0, 0, 0))
		return
	}
	for _, r := range []image.Rectangle{
		image.Rect(0, 0, m.Cols(), in.Min.Y), image.Rect(0, in.Max.Y, m.Cols(), m.Rows()),
		image.Rect(0, in.Min.Y, in.Min.X, in.Max.Y), image.Rect(in.Max.X, in.Min.Y, m.Cols(), in.Max.Y),
	} {
		if r.Empty() {
			continue
		}
		v := m.Region(r)
		v.SetTo(gocv.NewScalar(0, 0, 0, 0))
		v.Close()
	}
}

// whiteInk is the 255 of masks.
var whiteInk = white

func closeAll(ms ...*gocv.Mat) {
	for _, m := range ms {
		m.Close()
	}
}
