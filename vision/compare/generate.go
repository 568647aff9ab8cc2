package compare

import (
	"context"
	"fmt"
	"image"
	"math"
	"sync/atomic"
	"time"

	"gocv.io/x/gocv"
)

// Generate registers a onto b, diffs them and renders the overlay images.
//
// The transform comes from Align; when the blocks do not register the
// overlay is still made, through the transform lining up their ink boxes,
// with Registered false and a warning (its score is then low for blocks
// that differ). The difference is stroke-tolerant (diff.go): ink further
// than Options.Tolerance (pixels at 300 DPI, scaled to B's DPI) from the
// other side's ink, grouped into Regions with the residue of unchanged
// lines dropped (diff_regions.go). Only the part of B that A's extent
// covers is compared; B's ink beyond it is drawn in ColourUncompared and
// counted in a warning.
//
// Score = 1 − (added + removed pixels of the Regions) / (pixels inked on
// either side in the compared part): 1 for identical blocks, about 0.99 for
// a symbol added to a plan, 0.5 or less when half of a plan is redrawn
// (the redrawn half counts on both sides against a union of 1.5 plans).
//
// The images are B's size. AlignedB is B's image itself (not a copy).
// Work and memory: the warp, the diff and the images run in bands of rows
// on all CPUs through OpenCV; beyond the outputs (three grey images and
// the RGBA one) they hold a few bands and the per-cell counts (1/16 of a
// pixel per pixel at 300 DPI). ctx is honoured between bands; when
// Options.Budget runs out after registration the difference is not
// computed and a warning says so.
func Generate(ctx context.Context, a, b *Side, opt Options) (*Overlay, error) {
	opt = opt.withDefaults()
	deadline := time.Now().Add(opt.Budget)
	al, err := align(ctx, a, b, deadline)
	if err != nil {
		return nil, err
	}
	ov := &Overlay{Transform: al.t, Registered: al.ok, Warnings: al.warnings}
	ia, ib := contiguous(a.Image), contiguous(b.Image)
	w, h := ib.Rect.Dx(), ib.Rect.Dy()
	ov.AlignedB = ib
	ov.AlignedA = image.NewGray(ib.Rect)
	if err := warpInto(ctx, ia, ov.AlignedA, al.t); err != nil {
		return nil, err
	}
	if time.Now().After(deadline) {
		ov.Warnings = append(ov.Warnings, "budget spent after registration: the difference, regions, score and overlay images were not computed")
		return ov, nil
	}

	dpi := dpiOf(b)
	r := max(1, int(math.Round(opt.Tolerance*dpi/300)))
	cell := cellSize(dpi)
	cw, ch := w/cell, h/cell
	cells := &cellMaps{w: cw, h: ch, cell: cell,
		rem: make([]uint8, cw*ch), add: make([]uint8, cw*ch),
		farRem: make([]uint8, cw*ch), farAdd: make([]uint8, cw*ch)}
	if opt.IgnoreHatches {
		cells.darkRem, cells.darkAdd = make([]uint8, cw*ch), make([]uint8, cw*ch)
	}
	ov.Addition, ov.Deletion = image.NewGray(ib.Rect), image.NewGray(ib.Rect)
	in := diffInput{
		aligned: ov.AlignedA, b: ib, addition: ov.Addition, deletion: ov.Deletion,
		cover: coverQuad(al.t, ia.Rect.Dx(), ia.Rect.Dy(), float64(r+1)),
		r:     r, cells: cells, dark: opt.IgnoreHatches,
	}
	tot, err := runDiff(ctx, in)
	if err != nil {
		return nil, err
	}
	var hatched func(image.Rectangle) bool
	if opt.IgnoreHatches {
		hatched = func(px image.Rectangle) bool { return hatchPattern(ov.Addition, ov.Deletion, px) }
	}
	g := groupRegions(cells, dpi, opt.IgnoreHatches, hatched)
	ov.Regions = g.regions
	if err := whiten(ctx, ov.Addition, ov.Deletion, g.drop, cells); err != nil {
		return nil, err
	}
	if ov.Combined, err = compose(ctx, in); err != nil {
		return nil, err
	}

	diff := 0
	for _, rg := range ov.Regions {
		diff += rg.Added + rg.Removed
	}
	ov.Score = 1
	if tot.union > 0 {
		ov.Score = math.Max(0, 1-float64(diff)/float64(tot.union))
	}
	cov, err := coverageWarnings(ctx, ia, al.t, w, h, tot)
	if err != nil {
		return nil, err
	}
	ov.Warnings = append(ov.Warnings, cov...)
	if g.hatches+g.faint > 0 {
		ov.Warnings = append(ov.Warnings, fmt.Sprintf("ignore_hatches: %d region(s) of hatching and %d of faint or screened ink left out", g.hatches, g.faint))
	}
	return ov, nil
}

// coverQuad is A's w × h extent, inset by inset pixels of B, in B's frame.
func coverQuad(t Transform, w, h int, inset float64) [4][2]float64 {
	d := inset / t.Scale
	m := affineOf(t)
	var q [4][2]float64
	for i, c := range [4][2]float64{{d, d}, {float64(w) - d, d}, {float64(w) - d, float64(h) - d}, {d, float64(h) - d}} {
		q[i][0], q[i][1] = m.apply(c[0], c[1])
	}
	return q
}

// uncoveredShare is the share of a side's ink past which the part the
// other side does not cover is worth a warning.
const uncoveredShare = 0.02

// coverageWarnings say how much ink was not compared: B's beyond A's
// extent, A's beyond B's block (counted on A's own pixels: A's ink whose
// place in B's frame is outside B's image).
func coverageWarnings(ctx context.Context, ia *image.Gray, t Transform, bw, bh int, tot diffTotals) ([]string, error) {
	var out []string
	if tot.inkB > 0 && float64(tot.outsideB) > uncoveredShare*float64(tot.inkB) {
		out = append(out, fmt.Sprintf("%.0f %% of B's ink lies beyond A's block and was not compared (drawn in the uncompared colour)",
			100*float64(tot.outsideB)/float64(tot.inkB)))
	}
	// B's image in A's frame
	inside := coverQuad(t.Inverse(), bw, bh, 0)
	var inkA, outA atomic.Int64
	w := ia.Rect.Dx()
	err := bands(ctx, ia.Rect.Dy(), func(y0, y1 int) {
		v := rowsView(ia, y0, y1)
		ink := thresholdMask(v, inkThreshold)
		v.Close()
		in := coverMask(inside, w, y0, y1, nil)
		inkA.Add(int64(gocv.CountNonZero(ink)))
		andNot(ink, in, ink, &in)
		outA.Add(int64(gocv.CountNonZero(in)))
		ink.Close()
		in.Close()
	})
	if n := inkA.Load(); n > 0 && float64(outA.Load()) > uncoveredShare*float64(n) {
		out = append(out, fmt.Sprintf("%.0f %% of A's ink lies beyond B's block and was not compared",
			100*float64(outA.Load())/float64(n)))
	}
	return out, err
}

// warpInto draws A through t into dst (B's frame), in bands.
func warpInto(ctx context.Context, a, dst *image.Gray, t Transform) error {
	src := view(a)
	defer src.Close()
	w := dst.Rect.Dx()
	return bands(ctx, dst.Rect.Dy(), func(y0, y1 int) {
		d := rowsView(dst, y0, y1)
		warp(src, &d, levelMap(t, 1, image.Point{}, 1, image.Pt(0, y0)), w, y1-y0)
		d.Close()
	})
}

// whiten erases, in the raw Addition and Deletion, the differences of the
// cells marked in drop (residue, specks, left-out hatches).
func whiten(ctx context.Context, addition, deletion *image.Gray, drop []uint8, c *cellMaps) error {
	any := false
	for _, v := range drop {
		if v != 0 {
			any = true
			break
		}
	}
	if !any {
		return nil
	}
	return bands(ctx, addition.Rect.Dy(), func(y0, y1 int) {
		cy0, cy1 := y0/c.cell, min(c.h, y1/c.cell)
		if cy1 <= cy0 {
			return
		}
		dm, _ := gocv.NewMatFromBytes(cy1-cy0, c.w, gocv.MatTypeCV8U, drop[cy0*c.w:cy1*c.w])
		defer dm.Close()
		up := gocv.NewMat()
		defer up.Close()
		gocv.Resize(dm, &up, image.Pt(c.w*c.cell, (cy1-cy0)*c.cell), 0, 0, gocv.InterpolationNearestNeighbor)
		for _, img := range []*image.Gray{addition, deletion} {
			v := rowsView(img, y0, y0+(cy1-cy0)*c.cell)
			roi := v.Region(image.Rect(0, 0, c.w*c.cell, (cy1-cy0)*c.cell))
			gocv.BitwiseOr(roi, up, &roi)
			roi.Close()
			v.Close()
		}
	})
}

// Labels of the Combined image's pixels, and their colours.
const (
	labelUnchanged = iota + 1
	labelRemoved
	labelAdded
	labelUncompared
)

// compose draws the Combined image: each pixel's darkness is the darker of
// the two sides' ink, its hue its label's colour (removed where Deletion
// has ink, added where Addition has, uncompared outside the cover,
// unchanged elsewhere), on white.
func compose(ctx context.Context, in diffInput) (*image.RGBA, error) {
	w, h := in.b.Rect.Dx(), in.b.Rect.Dy()
	out := image.NewRGBA(in.b.Rect)
	var luts [3]gocv.Mat
	for ch := range luts {
		lut := make([]byte, 256)
		for l, col := range map[int][3]uint8{labelUnchanged: ColourUnchanged, labelRemoved: ColourRemoved,
			labelAdded: ColourAdded, labelUncompared: ColourUncompared} {
			lut[l] = 255 - col[ch]
		}
		m, _ := gocv.NewMatFromBytes(1, 256, gocv.MatTypeCV8U, lut)
		luts[ch] = m.Clone()
		m.Close()
	}
	defer closeAll(&luts[0], &luts[1], &luts[2])
	err := bands(ctx, h, func(y0, y1 int) {
		av, bv := rowsView(in.aligned, y0, y1), rowsView(in.b, y0, y1)
		adv, dlv := rowsView(in.addition, y0, y1), rowsView(in.deletion, y0, y1)
		defer closeAll(&av, &bv, &adv, &dlv)
		ink, tmp := gocv.NewMat(), gocv.NewMat()
		label := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(labelUnchanged, 0, 0, 0), y1-y0, w, gocv.MatTypeCV8U)
		defer closeAll(&ink, &label, &tmp)
		gocv.Min(av, bv, &ink)
		gocv.BitwiseNot(ink, &ink)
		for _, l := range []struct {
			src gocv.Mat
			v   float32
		}{{dlv, labelRemoved}, {adv, labelAdded}} {
			gocv.Threshold(l.src, &tmp, 254, l.v, gocv.ThresholdBinaryInv)
			gocv.Max(label, tmp, &label)
		}
		cov := coverMask(in.cover, w, y0, y1, in.cells)
		gocv.Threshold(cov, &tmp, 0, labelUncompared, gocv.ThresholdBinaryInv)
		cov.Close()
		gocv.Max(label, tmp, &label)

		planes := make([]gocv.Mat, 4)
		for c := 0; c < 3; c++ {
			planes[c] = gocv.NewMat()
			gocv.LUT(label, luts[c], &planes[c])
			gocv.MultiplyWithParams(ink, planes[c], &planes[c], 1.0/255, -1)
			gocv.BitwiseNot(planes[c], &planes[c])
		}
		planes[3] = gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), y1-y0, w, gocv.MatTypeCV8U)
		dst := rgbaRowsView(out, y0, y1)
		gocv.Merge(planes, &dst)
		dst.Close()
		for i := range planes {
			planes[i].Close()
		}
	})
	return out, err
}
