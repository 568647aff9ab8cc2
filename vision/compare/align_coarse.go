package compare

import (
	"image"
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// The coarse search works on copies of the blocks shrunk to at most
// searchSide pixels. The fine rotation comes from the blocks' spectra:
// a drawing's lines make radial streaks in its magnitude spectrum, and the
// angular profile of the spectrum in log-polar coordinates turns with the
// drawing, so correlating the two profiles gives the rotation modulo 90°.
// (The log-polar correlation of Fourier–Mellin would give the scale too,
// but on line drawings it was measured to stick at 1: the radial streaks
// of axis-aligned lines look the same at every scale.) The scale comes
// from the ink extents and the DPIs' ratio, and the shift, for each
// quarter turn, from phase correlation; the poses are ranked by how well
// their overlaps correlate. When none correlates well (a block cut very
// differently), a ladder of scales over the whole range is tried on
// smaller copies.

// searchSide is the long side, in pixels, of the images the shift search
// correlates: enough for a plan's walls and text blocks, small enough for
// a dozen correlations to cost tens of ms.
const searchSide = 320

// ladderSide is the long side of the images the scale ladder correlates.
const ladderSide = 200

// Ranges of the search, relative to the DPIs' ratio: the scales of the
// issue (0.8–1.25×) and rotations up to 3° (a little more is accepted).
const (
	minScale   = 0.8
	maxScale   = 1.25
	maxFineDeg = 4.0
)

// pose is a coarse candidate: A turned by quarter·90° plus fine degrees
// and scaled by scale (all about A's origin), then shifted.
type pose struct {
	quarter int
	fine    float64
	scale   float64
}

func (p pose) transform(tx, ty float64) Transform {
	return Transform{Scale: p.scale, RotationDeg: float64(p.quarter)*90 + p.fine, Tx: tx, Ty: ty}
}

// fineRotation estimates the rotation (degrees, within ±maxFineDeg,
// modulo 90°) taking ink image a to ink image b (CV_32F, the same pixel
// size) from the angular profiles of their spectra.
func fineRotation(a, b gocv.Mat) float64 {
	n := gocv.GetOptimalDFTSize(max(a.Cols(), a.Rows(), b.Cols(), b.Rows()))
	n += n % 2
	pa, pb := angularProfile(a, n), angularProfile(b, n)
	lim := int(math.Ceil(maxFineDeg * float64(n) / 360))
	corr := func(s int) float64 {
		c := 0.0
		for i := range pa {
			c += pa[i] * pb[((i+s)%n+n)%n]
		}
		return c
	}
	best, bs := math.Inf(-1), 0
	for s := -lim; s <= lim; s++ {
		if c := corr(s); c > best {
			best, bs = c, s
		}
	}
	// the parabola through the peak and its neighbours
	l, r := corr(bs-1), corr(bs+1)
	d := 0.0
	if den := l - 2*best + r; den < 0 {
		d = 0.5 * (l - r) / den
	}
	return (float64(bs) + max(-0.5, min(0.5, d))) * 360 / float64(n)
}

// angularProfile is the sum over radii of ink's log-polar spectrum, one
// value per angle step (n over 360°), its mean taken off.
func angularProfile(ink gocv.Mat, n int) []float64 {
	lp := logPolarSpectrum(ink, n)
	defer lp.Close()
	p := gocv.NewMat()
	defer p.Close()
	gocv.Reduce(lp, &p, 1, gocv.ReduceSum, gocv.MatTypeCV32F)
	v, _ := p.DataPtrFloat32()
	out := make([]float64, len(v))
	mean := 0.0
	for i, x := range v {
		out[i] = float64(x)
		mean += float64(x)
	}
	mean /= float64(len(v))
	for i := range out {
		out[i] -= mean
	}
	return out
}

// logPolarSpectrum is ink's windowed, high-passed log-magnitude spectrum
// on an n × n canvas (zero frequency at the centre) in log-polar
// coordinates: rows are angles over 360°, columns log-radius.
func logPolarSpectrum(ink gocv.Mat, n int) gocv.Mat {
	w, h := ink.Cols(), ink.Rows()
	canvas := gocv.NewMatWithSize(n, n, gocv.MatTypeCV32F)
	defer canvas.Close()
	canvas.SetTo(gocv.NewScalar(0, 0, 0, 0))
	roi := canvas.Region(image.Rect((n-w)/2, (n-h)/2, (n-w)/2+w, (n-h)/2+h))
	gocv.Multiply(ink, hann(w, h), &roi)
	roi.Close()

	spec := gocv.NewMat()
	defer spec.Close()
	gocv.DFT(canvas, &spec, gocv.DftComplexOutput)
	planes := gocv.Split(spec)
	mag := gocv.NewMat()
	defer mag.Close()
	gocv.Magnitude(planes[0], planes[1], &mag)
	for _, p := range planes {
		p.Close()
	}
	fftShift(mag)
	mag.AddFloat(1)
	gocv.Log(mag, &mag)
	gocv.Multiply(mag, highPass(n), &mag)

	out := gocv.NewMat()
	gocv.LogPolar(mag, &out, image.Pt(n/2, n/2), float64(n)/math.Log(float64(n)/2),
		gocv.InterpolationLinear+gocv.WarpFillOutliers)
	return out
}

// fftShift swaps a spectrum's quadrants in place (n even) so that the
// zero frequency is at the centre.
func fftShift(m gocv.Mat) {
	n := m.Cols() / 2
	q := [4]gocv.Mat{
		m.Region(image.Rect(0, 0, n, n)), m.Region(image.Rect(n, 0, 2*n, n)),
		m.Region(image.Rect(0, n, n, 2*n)), m.Region(image.Rect(n, n, 2*n, 2*n)),
	}
	tmp := gocv.NewMat()
	for _, sw := range [2][2]int{{0, 3}, {1, 2}} {
		q[sw[0]].CopyTo(&tmp)
		q[sw[1]].CopyTo(&q[sw[0]])
		tmp.CopyTo(&q[sw[1]])
	}
	tmp.Close()
	for _, r := range q {
		r.Close()
	}
}

// highPass is the n × n emphasis filter (1 − X)(2 − X), X = cos(πu)·cos(πv)
// with u, v the centred frequencies in cycles per pixel: zero at the
// centre, so the low frequencies of the blocks' overall shapes (which the
// cut of a block changes) do not drown the linework's.
func highPass(n int) gocv.Mat {
	key := [2]int{-n, -n}
	if m, ok := hannCache.Load(key); ok {
		return m.(gocv.Mat)
	}
	buf := make([]float32, n*n)
	for y := 0; y < n; y++ {
		cy := math.Cos(math.Pi * (float64(y)/float64(n) - 0.5))
		for x := 0; x < n; x++ {
			v := math.Cos(math.Pi*(float64(x)/float64(n)-0.5)) * cy
			buf[y*n+x] = float32((1 - v) * (2 - v))
		}
	}
	m, _ := gocv.NewMatFromBytes(n, n, gocv.MatTypeCV32F, f32bytes(buf))
	c := m.Clone()
	m.Close()
	if prev, loaded := hannCache.LoadOrStore(key, c); loaded {
		c.Close()
		return prev.(gocv.Mat)
	}
	return c
}

// candidate is a pose found by the coarse search, with its overlap
// correlation at the search level.
type candidate struct {
	t   Transform // in full pixels
	ncc float64
}

// nccGood is the overlap correlation above which the extents' scales are
// trusted and the ladder is not tried.
const nccGood = 0.5

// coarseSearch finds poses taking A onto B from their grey images shrunk
// by the same integer factor f (ga, gb), with prior the expected scale
// (B's DPI over A's): the candidates best first, and how many poses were
// tried.
//
// The quarter turns are tried at the scale of the ink extents' diagonals
// (which a quarter turn does not change) and at the prior; in the best
// turn, the scales of each axis's extent too. Sheets with large blank or
// evenly hatched areas can correlate well turned the wrong way, so the
// caller measures the best few candidates before trusting one.
func coarseSearch(ga, gb gocv.Mat, f int, prior float64) ([]candidate, int) {
	ia, ib, k := searchInk(ga, gb, searchSide)
	defer ia.Close()
	defer ib.Close()
	fine := fineRotation(ia, ib)
	ff := float64(f * k)
	ea, eb := inkExtent(ia), inkExtent(ib)
	inRange := func(scale float64) bool {
		return scale >= minScale*prior*0.97 && scale <= maxScale*prior*1.03
	}
	var tried []pose
	var all []candidate
	try := func(a, b gocv.Mat, ff float64, poses []pose) {
		var fresh []pose
	next:
		for _, p := range poses {
			if !inRange(p.scale) {
				continue
			}
			for _, o := range tried {
				if o.quarter == p.quarter && math.Abs(o.scale/p.scale-1) < 0.015 {
					continue next
				}
			}
			fresh = append(fresh, p)
			tried = append(tried, p)
		}
		all = append(all, scorePoses(a, b, fresh, ff)...)
		sort.Slice(all, func(i, j int) bool { return all[i].ncc > all[j].ncc })
	}

	var poses []pose
	for q := 0; q < 4; q++ {
		poses = append(poses, pose{quarter: q, fine: fine, scale: prior})
		if ea.diag() > 0 && eb.diag() > 0 {
			poses = append(poses, pose{quarter: q, fine: fine, scale: eb.diag() / ea.diag()})
		}
	}
	try(ia, ib, ff, poses)
	if len(all) > 0 && ea.diag() > 0 && eb.diag() > 0 {
		q := quarterOf(all[0].t, fine)
		sx, sy := eb.w()/ea.w(), eb.h()/ea.h()
		if q%2 == 1 {
			sx, sy = eb.w()/ea.h(), eb.h()/ea.w()
		}
		try(ia, ib, ff, []pose{{q, fine, sx}, {q, fine, sy}})
	}
	if len(all) == 0 || all[0].ncc < nccGood {
		// the ladder: every scale of the range in steps of 3 %, on smaller
		// copies; the best pose is scored again on the search level
		la, lb, kl := searchInk(ga, gb, ladderSide)
		defer la.Close()
		defer lb.Close()
		poses = poses[:0]
		for s := minScale * prior; s <= maxScale*prior*1.01; s *= 1.03 {
			for q := 0; q < 4; q++ {
				poses = append(poses, pose{quarter: q, fine: fine, scale: s})
			}
		}
		lad := scorePoses(la, lb, poses, float64(f*kl))
		sort.Slice(lad, func(i, j int) bool { return lad[i].ncc > lad[j].ncc })
		n := len(tried) + len(poses)
		if len(lad) > 0 {
			tried = tried[:0] // the ladder's pose may repeat a tried one: score it anyway
			try(ia, ib, ff, []pose{{quarterOf(lad[0].t, fine), fine, lad[0].t.Scale}})
		}
		return all, n
	}
	return all, len(tried)
}

// scorePoses finds each pose's shift and scores the overlap it gives
// (ff: full pixels per pixel of a and b). The poses' correlations share
// one canvas size, so that B's spectrum is computed once.
func scorePoses(a, b gocv.Mat, poses []pose, ff float64) []candidate {
	if len(poses) == 0 {
		return nil
	}
	maxS := 0.0
	for _, p := range poses {
		maxS = max(maxS, p.scale)
	}
	// A turned by up to maxFineDeg and scaled fits in side·maxS·1.1
	side := maxS * 1.1 * float64(max(a.Cols(), a.Rows()))
	cw := gocv.GetOptimalDFTSize(int(side) + b.Cols())
	ch := gocv.GetOptimalDFTSize(int(side) + b.Rows())
	target := newCorrTarget(b, cw, ch)
	defer target.close()
	out := make([]candidate, 0, len(poses))
	for _, p := range poses {
		tx, ty := target.shift(a, p)
		t := p.transform(tx*ff, ty*ff)
		out = append(out, candidate{t, overlapNCC(a, b, t, ff)})
	}
	return out
}

// quarterOf is the quarter turn of a pose's transform.
func quarterOf(t Transform, fine float64) int {
	return int(math.Round((t.RotationDeg-fine)/90)) & 3
}

// searchInk shrinks ga and gb by the same factor so that their long sides
// are at most side, as ink; k is the factor.
func searchInk(ga, gb gocv.Mat, side int) (ia, ib gocv.Mat, k int) {
	k = 1
	for max(ga.Cols(), ga.Rows(), gb.Cols(), gb.Rows()) > side*k {
		k++
	}
	sa, sb := shrink(ga, k), shrink(gb, k)
	defer sa.Close()
	defer sb.Close()
	return inkFloat(sa), inkFloat(sb), k
}

// corrTarget is B's ink on a cw × ch canvas as the conjugate of its
// spectrum, ready for phase correlation with posed copies of A.
type corrTarget struct {
	b      gocv.Mat
	cw, ch int
	conj   gocv.Mat
}

func newCorrTarget(b gocv.Mat, cw, ch int) *corrTarget {
	c := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), ch, cw, gocv.MatTypeCV32F)
	defer c.Close()
	roi := c.Region(image.Rect(0, 0, b.Cols(), b.Rows()))
	b.CopyTo(&roi)
	roi.Close()
	spec := gocv.NewMat()
	defer spec.Close()
	gocv.DFT(c, &spec, gocv.DftComplexOutput)
	planes := gocv.Split(spec)
	planes[1].MultiplyFloat(-1)
	conj := gocv.NewMat()
	gocv.Merge(planes, &conj)
	for _, p := range planes {
		p.Close()
	}
	return &corrTarget{b: b, cw: cw, ch: ch, conj: conj}
}

func (c *corrTarget) close() { c.conj.Close() }

// shift finds, by phase correlation, the shift (in the images' pixels)
// that, after the pose p about A's origin, lays ink a on the target's.
func (c *corrTarget) shift(a gocv.Mat, p pose) (tx, ty float64) {
	// A turned and scaled, moved so that its box starts at the origin
	t := p.transform(0, 0)
	box := t.ApplyBox(boxOf(a.Cols(), a.Rows()))
	t.Tx, t.Ty = -box.XMin, -box.YMin
	ca := gocv.NewMat()
	defer ca.Close()
	m := levelMap(t, 1, image.Point{}, 1, image.Point{}).mat()
	gocv.WarpAffineWithParams(a, &ca, m, image.Pt(c.cw, c.ch), gocv.InterpolationLinear, gocv.BorderConstant, black)
	m.Close()
	spec := gocv.NewMat()
	defer spec.Close()
	gocv.DFT(ca, &spec, gocv.DftComplexOutput)
	gocv.MulSpectrums(spec, c.conj, &spec, 0)
	// whiten: keep the phase only
	planes := gocv.Split(spec)
	mag := gocv.NewMat()
	gocv.Magnitude(planes[0], planes[1], &mag)
	mag.AddFloat(1e-9)
	for i := range planes {
		gocv.Divide(planes[i], mag, &planes[i])
	}
	mag.Close()
	gocv.Merge(planes, &spec)
	for _, pl := range planes {
		pl.Close()
	}
	corr := gocv.NewMat()
	defer corr.Close()
	gocv.DFT(spec, &corr, gocv.DftInverse|gocv.DftRealOutput|gocv.DftScale)
	// the peak is at minus the shift (A's spectrum times B's conjugate)
	px, py := peak(corr)
	dx, dy := -px, -py
	// the correlation is cyclic: take the shift that keeps the boxes
	// overlapping
	for dx < -box.Width() {
		dx += float64(c.cw)
	}
	for dx > float64(c.b.Cols()) {
		dx -= float64(c.cw)
	}
	for dy < -box.Height() {
		dy += float64(c.ch)
	}
	for dy > float64(c.b.Rows()) {
		dy -= float64(c.ch)
	}
	return t.Tx + dx, t.Ty + dy
}

// peak is the sub-pixel position of a correlation surface's maximum: the
// centroid of the 3 × 3 values about it (cyclic), the negative ones left
// out.
func peak(m gocv.Mat) (x, y float64) {
	_, _, _, loc := gocv.MinMaxLoc(m)
	w, h := m.Cols(), m.Rows()
	v, _ := m.DataPtrFloat32()
	var sw, sx, sy float64
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			xx, yy := (loc.X+dx+w)%w, (loc.Y+dy+h)%h
			c := float64(v[yy*w+xx])
			if c <= 0 {
				continue
			}
			sw += c
			sx += c * float64(dx)
			sy += c * float64(dy)
		}
	}
	x, y = float64(loc.X), float64(loc.Y)
	if sw > 0 {
		x += sx / sw
		y += sy / sw
	}
	return x, y
}

// extent is the size of the box holding the middle 98 % of an ink
// image's ink along each axis: a scale estimate that a few stray marks do
// not move.
type extent struct{ x0, y0, x1, y1 float64 }

func (e extent) w() float64    { return e.x1 - e.x0 }
func (e extent) h() float64    { return e.y1 - e.y0 }
func (e extent) diag() float64 { return math.Hypot(e.w(), e.h()) }

// inkExtent is ink's extent in its pixels (zero without ink).
func inkExtent(ink gocv.Mat) extent {
	col, row := gocv.NewMat(), gocv.NewMat()
	defer col.Close()
	defer row.Close()
	gocv.Reduce(ink, &col, 0, gocv.ReduceSum, gocv.MatTypeCV32F)
	gocv.Reduce(ink, &row, 1, gocv.ReduceSum, gocv.MatTypeCV32F)
	x0, x1 := spread(col)
	y0, y1 := spread(row)
	if x1 <= x0 || y1 <= y0 {
		return extent{}
	}
	return extent{x0, y0, x1, y1}
}

// spread is the span between the 1st and 99th percentile of a profile's
// mass.
func spread(p gocv.Mat) (lo, hi float64) {
	v, _ := p.DataPtrFloat32()
	total := 0.0
	for _, x := range v {
		total += float64(x)
	}
	if total <= 0 {
		return 0, 0
	}
	acc, lo, hi := 0.0, -1.0, -1.0
	for i, x := range v {
		acc += float64(x)
		if lo < 0 && acc >= 0.01*total {
			lo = float64(i)
		}
		if hi < 0 && acc >= 0.99*total {
			hi = float64(i + 1)
		}
	}
	return lo, hi
}

// overlapNCC is the normalised correlation of ink a (drawn through t,
// t in full pixels, the images shrunk by ff) and ink b, blurred by a pixel
// so that a pixel of misregistration costs little, over the part of B
// that A covers. 1 for the same drawing; near 0 for unrelated ones.
func overlapNCC(a, b gocv.Mat, t Transform, ff float64) float64 {
	w, h := b.Cols(), b.Rows()
	wa := gocv.NewMatWithSize(h, w, gocv.MatTypeCV32F)
	defer wa.Close()
	m := levelMap(t, ff, image.Point{}, ff, image.Point{}).mat()
	gocv.WarpAffineWithParams(a, &wa, m, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderConstant, black)
	// where A is: its all-ones image through the same map
	ones := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(1, 0, 0, 0), a.Rows(), a.Cols(), gocv.MatTypeCV32F)
	cover := gocv.NewMatWithSize(h, w, gocv.MatTypeCV32F)
	gocv.WarpAffineWithParams(ones, &cover, m, image.Pt(w, h), gocv.InterpolationNearestNeighbor, gocv.BorderConstant, black)
	ones.Close()
	m.Close()
	defer cover.Close()
	bb := gocv.NewMat()
	defer bb.Close()
	gocv.GaussianBlur(wa, &wa, image.Pt(0, 0), 1, 1, gocv.BorderConstant)
	gocv.GaussianBlur(b, &bb, image.Pt(0, 0), 1, 1, gocv.BorderConstant)
	va, _ := wa.DataPtrFloat32()
	vb, _ := bb.DataPtrFloat32()
	vc, _ := cover.DataPtrFloat32()
	return ncc(va, vb, vc)
}

// ncc is the normalised correlation of x and y over the samples where
// mask is non-zero (0 when either is flat there).
func ncc(x, y, mask []float32) float64 {
	var n, sx, sy, sxx, syy, sxy float64
	for i, m := range mask {
		if m == 0 {
			continue
		}
		a, b := float64(x[i]), float64(y[i])
		n++
		sx += a
		sy += b
		sxx += a * a
		syy += b * b
		sxy += a * b
	}
	if n < 2 {
		return 0
	}
	vx, vy := sxx-sx*sx/n, syy-sy*sy/n
	if vx <= 1e-12 || vy <= 1e-12 {
		return 0
	}
	return (sxy - sx*sy/n) / math.Sqrt(vx*vy)
}

// black is the zero border of float ink images (no ink).
var black = color.RGBA{}
