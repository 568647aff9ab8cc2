package compare

import (
	"context"
	"image"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

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
			s := &scratch{rows: bandRows + margin}
			defer s.close()
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
	rows  int
	bufs  []gocv.Mat
	views []gocv.Mat
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
)

// diffBand computes rows [y0, y1) of the difference; it returns the
// band's union ink, B ink and B ink outside the cover (diffTotals).
func diffBand(in diffInput, s *scratch, w, h, y0, y1 int) [3]int64 {
	defer s.release()
	r := in.r
	e0, e1 := max(0, y0-2*r), min(h, y1+2*r)
	av, bv := rowsView(in.aligned, e0, e1), rowsView(in.b, e0, e1)
	defer av.Close()
	defer bv.Close()
	eh, ch := e1-e0, y1-y0
	core := image.Rect(0, y0-e0, w, y1-e0)
	ext := func(i int) gocv.Mat { return s.mat(i, eh, w, gocv.MatTypeCV8U) }
	band := func(i int) gocv.Mat { return s.mat(i, ch, w, gocv.MatTypeCV8U) }

	aw, bw := ext(bufAW), ext(bufBW)
	thresholdInto(av, &aw, inkThreshold)
	thresholdInto(bv, &bw, inkThreshold)
	k := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(2*r+1, 2*r+1))
	defer k.Close()
	da, db := ext(bufDA), ext(bufDB)
	thresholdInto(av, &da, markThreshold)
	thresholdInto(bv, &db, markThreshold)
	gocv.Dilate(da, &da, k)
	gocv.Dilate(db, &db, k)
	cover := ext(bufCover)
	coverInto(&cover, in.cover, e0)

	sub := func(m gocv.Mat) gocv.Mat {
		v := m.Region(core)
		s.views = append(s.views, v)
		return v
	}
	awc, bwc, dac, dbc, cvc := sub(aw), sub(bw), sub(da), sub(db), sub(cover)

	var out [3]int64
	tmp := band(bufTmp)
	gocv.BitwiseOr(awc, bwc, &tmp)
	gocv.BitwiseAnd(tmp, cvc, &tmp)
	out[0] = int64(gocv.CountNonZero(tmp))
	// B's ink within its frame (its edge is never compared), and the part
	// of it outside A's extent
	if fr := in.cover.frame.Intersect(image.Rect(0, y0, w, y1)).Sub(image.Pt(0, y0)); !fr.Empty() {
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

	// far: also absent from the other side's marks dilated twice
	gocv.Dilate(da, &da, k)
	gocv.Dilate(db, &db, k)
	farRem, farAdd := band(bufFarRem), band(bufFarAdd)
	andNot(rem, dbc, rem, &farRem)
	andNot(add, dac, add, &farAdd)

	// the raw Deletion and Addition rows: the side's grey where it differs
	avc, bvc := sub(av), sub(bv)
	for _, o := range [2]struct {
		src, mask gocv.Mat
		img       *image.Gray
	}{{avc, rem, in.deletion}, {bvc, add, in.addition}} {
		dst := rowsView(o.img, y0, y1)
		gocv.BitwiseNot(o.mask, &tmp)
		gocv.BitwiseOr(o.src, tmp, &dst)
		dst.Close()
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
	if cy1 > cy0 {
		for i, m := range masks {
			cellsOf(m, c, cy0, cy1, maps[i])
		}
	}
	return out
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

// cellsOf writes the cell means of mask (the band's core rows, starting at
// cell row cy0) into rows [cy0, cy1) of the cell map dst.
func cellsOf(mask gocv.Mat, c *cellMaps, cy0, cy1 int, dst []uint8) {
	src := mask.Region(image.Rect(0, 0, c.w*c.cell, (cy1-cy0)*c.cell))
	defer src.Close()
	out, _ := gocv.NewMatFromBytes(cy1-cy0, c.w, gocv.MatTypeCV8U, dst[cy0*c.w:cy1*c.w])
	defer out.Close()
	gocv.Resize(src, &out, image.Pt(c.w, cy1-cy0), 0, 0, gocv.InterpolationArea)
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
