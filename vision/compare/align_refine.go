package compare

import (
	"context"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// The fine registration on pixels: at each level (the blocks shrunk by an
// integer factor, down to full resolution), patches of B with corners in
// them (lines in two directions, text) are cut out, the matching part of
// A is drawn in the patch's frame through the current transform, and
// phase correlation measures the small shift left between them to a
// fraction of a pixel. Each patch gives a correspondence; RANSAC over them
// drops the patches on changed content, and least squares on the rest
// gives the next transform: 0.03–0.3 px at the corners on the tests'
// plans, synthetic sheets and real sheets re-rendered at 1.07×.
//
// ECC (gocv.FindTransformECC, MOTION_AFFINE) from the same coarse pose was
// measured too, on a 1600 × 1100 plan unedited and with a moved wall, a
// new hatch and erased words: 0.01–0.02 px at the corners, but 1.1–2.7 s
// where Align took 0.3–0.9 s, one of eight runs diverging (9 px off) with
// a 5-pixel Gaussian, and a cost per iteration proportional to the level's
// pixels —
// tens of seconds at full resolution on a 36 × 24 in sheet. Patches meet
// the half-pixel goal at a fraction of that and drop changed content
// explicitly.

// structure is B's corner strength at the coarse level: the smaller
// eigenvalue of the ink gradient's structure tensor summed over a window,
// large where lines of two directions meet, zero along a single line
// (which cannot fix a shift along itself) and on blank paper.
type structure struct {
	w, h int
	f    int // full pixels per map pixel
	lam  []float32
}

func newStructure(coarseB gocv.Mat, f, win int) *structure {
	ink := inkFloat(coarseB)
	defer ink.Close()
	gx, gy := gocv.NewMat(), gocv.NewMat()
	defer gx.Close()
	defer gy.Close()
	gocv.Sobel(ink, &gx, gocv.MatTypeCV32F, 1, 0, 3, 1, 0, gocv.BorderReplicate)
	gocv.Sobel(ink, &gy, gocv.MatTypeCV32F, 0, 1, 3, 1, 0, gocv.BorderReplicate)
	xx, yy, xy := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer xx.Close()
	defer yy.Close()
	defer xy.Close()
	gocv.Multiply(gx, gx, &xx)
	gocv.Multiply(gy, gy, &yy)
	gocv.Multiply(gx, gy, &xy)
	k := image.Pt(max(3, win), max(3, win))
	for _, m := range []*gocv.Mat{&xx, &yy, &xy} {
		gocv.BoxFilter(*m, m, -1, k)
	}
	a, _ := xx.DataPtrFloat32()
	b, _ := yy.DataPtrFloat32()
	c, _ := xy.DataPtrFloat32()
	s := &structure{w: ink.Cols(), h: ink.Rows(), f: f, lam: make([]float32, len(a))}
	for i := range a {
		m, d := (a[i]+b[i])/2, (a[i]-b[i])/2
		s.lam[i] = m - float32(math.Sqrt(float64(d*d+c[i]*c[i])))
	}
	return s
}

// centres picks up to n × n' patch centres (full pixels of B, where n'
// follows B's aspect) on a grid: in each cell the point of strongest
// structure whose patch (hx, hy: half its width and height, full pixels)
// lies in B and, through t's inverse, in A (aw × ah), if it is strong
// enough against the others.
func (s *structure) centres(n int, hx, hy float64, bw, bh, aw, ah int, t Transform) []image.Point {
	inv := affineOf(t.Inverse())
	inA := func(x, y float64) bool {
		b := inv.box(pbox{x - hx, y - hy, x + hx, y + hy})
		return b.x0 >= 0 && b.y0 >= 0 && b.x1 <= float64(aw) && b.y1 <= float64(ah)
	}
	nx, ny := n, n
	if s.w > s.h {
		ny = max(2, n*s.h/s.w)
	} else {
		nx = max(2, n*s.w/s.h)
	}
	type cand struct {
		p image.Point
		v float32
	}
	var cs []cand
	ff := float64(s.f)
	for cy := 0; cy < ny; cy++ {
		for cx := 0; cx < nx; cx++ {
			best := cand{v: -1}
			for y := cy * s.h / ny; y < (cy+1)*s.h/ny; y++ {
				fy := ff * (float64(y) + 0.5)
				if fy-hy < 0 || fy+hy > float64(bh) {
					continue
				}
				for x := cx * s.w / nx; x < (cx+1)*s.w/nx; x++ {
					v := s.lam[y*s.w+x]
					if v <= best.v {
						continue
					}
					fx := ff * (float64(x) + 0.5)
					if fx-hx < 0 || fx+hx > float64(bw) || !inA(fx, fy) {
						continue
					}
					best = cand{image.Pt(int(fx), int(fy)), v}
				}
			}
			if best.v > 0 {
				cs = append(cs, best)
			}
		}
	}
	if len(cs) == 0 {
		return nil
	}
	// drop the cells that are nearly blank next to the others
	vs := make([]float64, len(cs))
	for i, c := range cs {
		vs[i] = float64(c.v)
	}
	sort.Float64s(vs)
	floor := 0.03 * vs[len(vs)*3/4]
	out := make([]image.Point, 0, len(cs))
	for _, c := range cs {
		if float64(c.v) >= floor {
			out = append(out, c.p)
		}
	}
	return out
}

// patchPairs measures, at the level where A and B are shrunk by f (la,
// lb: grey), the shift left at each centre (full pixels of B) between a
// pw × ph patch of B and A drawn through t, and returns the
// correspondences (full pixels). Patches whose correlation is weak or
// whose shift is more than a quarter of the patch are left out.
func patchPairs(ctx context.Context, la, lb gocv.Mat, f int, t Transform, centres []image.Point, pw, ph int) []pair {
	inv := affineOf(t.Inverse())
	ff := float64(f)
	win := hann(pw, ph)
	wa := gocv.NewMat()
	defer wa.Close()
	var out []pair
	for i, c := range centres {
		if i%16 == 0 && ctx.Err() != nil {
			return nil
		}
		// the patch in B's level pixels
		x0, y0 := int(math.Round(float64(c.X)/ff))-pw/2, int(math.Round(float64(c.Y)/ff))-ph/2
		r := image.Rect(x0, y0, x0+pw, y0+ph)
		if !r.In(image.Rect(0, 0, lb.Cols(), lb.Rows())) {
			continue
		}
		// the part of A it covers, with a margin for the interpolation
		ab := geomBox(r).scaled(ff)
		ar := inv.box(ab).scaled(1 / ff).outer(2).Intersect(image.Rect(0, 0, la.Cols(), la.Rows()))
		if ar.Empty() {
			continue
		}
		bp := lb.Region(r)
		bi := inkFloat(bp)
		bp.Close()
		ap := la.Region(ar)
		warp(ap, &wa, levelMap(t, ff, ar.Min, ff, r.Min), pw, ph)
		ap.Close()
		ai := inkFloat(wa)
		d, resp := gocv.PhaseCorrelate(ai, bi, win)
		ai.Close()
		bi.Close()
		dx, dy := float64(d.X), float64(d.Y)
		if resp < minPatchResponse || math.Abs(dx) > float64(pw)/4 || math.Abs(dy) > float64(ph)/4 {
			continue
		}
		// B's patch centre holds what A's warped patch had at centre − d
		bx, by := ff*(float64(x0)+float64(pw)/2), ff*(float64(y0)+float64(ph)/2)
		ax, ay := inv.apply(bx-ff*dx, by-ff*dy)
		out = append(out, pair{ax, ay, bx, by})
	}
	return out
}

// minPatchResponse is the phase correlation peak below which a patch's
// shift is not used: patches of unrelated content peak at 0.02–0.05,
// patches of the same linework at 0.2–0.9.
const minPatchResponse = 0.06

// pbox is a box in the continuous frame, for the patch geometry.
type pbox struct{ x0, y0, x1, y1 float64 }

func geomBox(r image.Rectangle) pbox {
	return pbox{float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)}
}

func (b pbox) scaled(k float64) pbox { return pbox{b.x0 * k, b.y0 * k, b.x1 * k, b.y1 * k} }

// outer is the smallest pixel rectangle holding b, grown by m pixels.
func (b pbox) outer(m int) image.Rectangle {
	return image.Rect(int(math.Floor(b.x0))-m, int(math.Floor(b.y0))-m, int(math.Ceil(b.x1))+m, int(math.Ceil(b.y1))+m)
}

// box is the box around the images of b's corners.
func (m affine) box(b pbox) pbox {
	out := pbox{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, c := range [4][2]float64{{b.x0, b.y0}, {b.x1, b.y0}, {b.x0, b.y1}, {b.x1, b.y1}} {
		x, y := m.apply(c[0], c[1])
		out = pbox{min(out.x0, x), min(out.y0, y), max(out.x1, x), max(out.y1, y)}
	}
	return out
}
