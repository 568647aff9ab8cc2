package compare

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// Hatch patterns, for Options.IgnoreHatches. A hatch is many thin parallel
// strokes at a regular spacing. In a region's difference ink that shows
// as (1) gradient energy concentrated in one direction — the strokes'
// normal — and (2) along that normal, the edges of the strokes falling in
// at least hatchMinStrokes evenly spaced narrow runs. A moved wall (two
// parallel lines) has two runs; text and symbols have no dominant
// direction; the outline around a hatched area is a minority of the
// gradient energy and, running across the normal, is left out of the
// runs by taking only the pixels whose gradient follows the dominant
// direction. Stair treads drawn as evenly spaced lines look like a hatch
// too, and are left out with hatches.
const (
	hatchMinStrokes = 5
	// hatchMinShare is the share of the gradient energy within ±10° of
	// the dominant direction.
	hatchMinShare = 0.6
	// hatchMaxSpacingCV is the largest coefficient of variation of the
	// spacing between strokes.
	hatchMaxSpacingCV = 0.3
)

// hatchPattern reports whether the raw difference ink (pixels lighter than
// white in addition or deletion) in r is a hatch pattern.
func hatchPattern(addition, deletion *image.Gray, r image.Rectangle) bool {
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
	theta := (float64(bi) + 0.5) * math.Pi / bins
	c, s := math.Cos(theta), math.Sin(theta)

	// the edges along the normal: a profile of the pixels whose gradient
	// follows theta (within ±10°), one bin per pixel
	w := r.Dx()
	span := int(math.Ceil(math.Abs(c)*float64(r.Dx())+math.Abs(s)*float64(r.Dy()))) + 2
	off := -math.Min(0, c*float64(r.Dx())) - math.Min(0, s*float64(r.Dy()))
	prof := make([]float64, span)
	for i := range vx {
		gxv, gyv := float64(vx[i]), float64(vy[i])
		m := math.Hypot(gxv, gyv)
		if m == 0 || math.Abs(gxv*c+gyv*s) < m*math.Cos(10*math.Pi/180) {
			continue
		}
		u := float64(i%w)*c + float64(i/w)*s + off
		prof[min(span-1, max(0, int(u)))] += m
	}
	return evenRuns(prof)
}

// evenRuns reports whether a profile holds at least hatchMinStrokes runs
// of non-zero bins (gaps of one bin bridged) at an even spacing.
func evenRuns(prof []float64) bool {
	var centres []float64
	for i := 0; i < len(prof); {
		if prof[i] == 0 {
			i++
			continue
		}
		j, sw, sx := i, 0.0, 0.0
		for j < len(prof) && (prof[j] > 0 || (j+1 < len(prof) && prof[j+1] > 0)) {
			sw += prof[j]
			sx += prof[j] * float64(j)
			j++
		}
		centres = append(centres, sx/sw)
		i = j
	}
	if len(centres) < hatchMinStrokes {
		return false
	}
	gaps := make([]float64, len(centres)-1)
	mean := 0.0
	for i := range gaps {
		gaps[i] = centres[i+1] - centres[i]
		mean += gaps[i]
	}
	mean /= float64(len(gaps))
	v := 0.0
	for _, g := range gaps {
		v += (g - mean) * (g - mean)
	}
	return math.Sqrt(v/float64(len(gaps)))/mean <= hatchMaxSpacingCV
}
