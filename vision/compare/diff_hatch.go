package compare

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// Hatch patterns, for Options.IgnoreHatches. A hatch is many thin parallel
// strokes at a regular spacing. In a region's difference ink that shows
// as (1) gradient energy concentrated in one direction — the strokes'
// normal — and (2) along that normal, the ink repeating with a period of
// a few pixels over at least hatchMinStrokes periods. A moved wall (two
// parallel lines) spans less than that; text and symbols have no dominant
// direction; the outline around a hatched area is a minority of the
// gradient energy and, along the normal, a slow trend that is taken off
// before the periodicity is measured. Stair treads drawn as evenly spaced
// lines look like a hatch too, and are left out with hatches.
const (
	hatchMinStrokes = 5
	// hatchMinShare is the share of the gradient energy within ±10° of
	// the dominant direction.
	hatchMinShare = 0.6
	// hatchMinCorr is the autocorrelation at the period that makes the
	// strokes' spacing regular.
	hatchMinCorr = 0.3
)

// hatchPattern reports whether the raw difference ink (pixels lighter than
// white in addition or deletion) in r is a hatch pattern; scale is the
// DPI over 300 (periods up to 48 pixels at 300 DPI, 4 mm, are looked for).
func hatchPattern(addition, deletion *image.Gray, r image.Rectangle, scale float64) bool {
	r = r.Intersect(addition.Rect)
	if r.Dx() < 8 || r.Dy() < 8 {
		return false
	}
	av, dv := view(addition), view(deletion)
	defer av.Close()
	defer dv.Close()
	ar, dr := av.Region(r), dv.Region(r)
	defer ar.Close()
	defer dr.Close()
	mask := gocv.NewMat()
	defer mask.Close()
	gocv.Min(ar, dr, &mask)
	gocv.Threshold(mask, &mask, 254, 1, gocv.ThresholdBinaryInv)
	gx, gy := gocv.NewMat(), gocv.NewMat()
	defer gx.Close()
	defer gy.Close()
	gocv.Sobel(mask, &gx, gocv.MatTypeCV32F, 1, 0, 3, 1, 0, gocv.BorderConstant)
	gocv.Sobel(mask, &gy, gocv.MatTypeCV32F, 0, 1, 3, 1, 0, gocv.BorderConstant)
	vx, _ := gx.DataPtrFloat32()
	vy, _ := gy.DataPtrFloat32()

	// the gradient direction's histogram, modulo 180°, 5° bins
	const bins = 36
	var hist [bins]float64
	total := 0.0
	for i := range vx {
		m := math.Hypot(float64(vx[i]), float64(vy[i]))
		if m == 0 {
			continue
		}
		a := math.Atan2(float64(vy[i]), float64(vx[i]))
		if a < 0 {
			a += math.Pi
		}
		hist[int(a/math.Pi*bins)%bins] += m
		total += m
	}
	if total == 0 {
		return false
	}
	best, bi := 0.0, 0
	for i := range hist {
		s := hist[(i+bins-2)%bins] + hist[(i+bins-1)%bins] + hist[i] + hist[(i+1)%bins] + hist[(i+2)%bins]
		if s > best {
			best, bi = s, i
		}
	}
	if best < hatchMinShare*total {
		return false
	}
	// the direction to a fraction of a degree: the mean doubled angle of
	// the gradients within ±12.5° of the dominant bins (a few degrees off,
	// the strokes would smear into each other along the normal)
	theta := (float64(bi) + 0.5) * math.Pi / bins
	var sc, ss float64
	for i := range vx {
		gxv, gyv := float64(vx[i]), float64(vy[i])
		m := math.Hypot(gxv, gyv)
		if m == 0 || math.Abs(gxv*math.Cos(theta)+gyv*math.Sin(theta)) < m*math.Cos(12.5*math.Pi/180) {
			continue
		}
		// (gx + i·gy)² / |g| has the doubled angle and weight |g|
		sc += (gxv*gxv - gyv*gyv) / m
		ss += 2 * gxv * gyv / m
	}
	theta = 0.5 * math.Atan2(ss, sc)
	c, s := math.Cos(theta), math.Sin(theta)

	// the difference ink along the normal, one bin per pixel
	w := r.Dx()
	mv, _ := mask.DataPtrUint8()
	span := int(math.Ceil(math.Abs(c)*float64(r.Dx())+math.Abs(s)*float64(r.Dy()))) + 2
	off := -math.Min(0, c*float64(r.Dx())) - math.Min(0, s*float64(r.Dy()))
	prof := make([]float64, span)
	for i, v := range mv {
		if v != 0 {
			u := float64(i%w)*c + float64(i/w)*s + off
			prof[min(span-1, max(0, int(u)))]++
		}
	}
	return periodic(prof, max(8, int(math.Ceil(48*scale))))
}

// periodic reports whether a profile repeats with a period of 3 to
// maxPeriod bins in at least hatchMinStrokes strokes: its normalised
// autocorrelation, with the slow trend (an outline across it, the
// pattern's edges) taken off, peaks at the period above hatchMinCorr.
func periodic(prof []float64, maxPeriod int) bool {
	lo, hi := -1, -1
	for i, v := range prof {
		if v > 0 {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo < 0 {
		return false
	}
	p := prof[lo : hi+1]
	// detrend: minus the mean over a window of two longest periods
	win := 2*maxPeriod + 1
	q := make([]float64, len(p))
	for i := range p {
		a, b := max(0, i-win/2), min(len(p), i+win/2+1)
		m := 0.0
		for _, v := range p[a:b] {
			m += v
		}
		q[i] = p[i] - m/float64(b-a)
	}
	r0 := 0.0
	for _, v := range q {
		r0 += v * v
	}
	if r0 == 0 {
		return false
	}
	corr := func(k int) float64 {
		c := 0.0
		for i := 0; i+k < len(q); i++ {
			c += q[i] * q[i+k]
		}
		return c / r0
	}
	// the first peak after the correlation first turns negative
	neg := false
	for k := 1; k <= maxPeriod && k+1 < len(q); k++ {
		c := corr(k)
		if c < 0 {
			neg = true
			continue
		}
		if neg && k >= 3 && c >= corr(k-1) && c >= corr(k+1) {
			return c >= hatchMinCorr && strokes(q) >= hatchMinStrokes
		}
	}
	return false
}

// strokes counts the peaks of a detrended profile at least half as high
// as its highest.
func strokes(q []float64) int {
	top := 0.0
	for _, v := range q {
		top = max(top, v)
	}
	n := 0
	for i, v := range q {
		if v >= top/2 && (i == 0 || v > q[i-1]) && (i+1 == len(q) || v >= q[i+1]) {
			n++
		}
	}
	return n
}
