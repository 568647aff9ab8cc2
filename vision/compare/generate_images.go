package compare

import (
	"context"
	"image"

	"gocv.io/x/gocv"
)

// The overlay images, drawn in bands of rows by OpenCV into the Go images'
// own pixels.

// warpInto draws A through t into dst (B's frame), in bands.
func warpInto(ctx context.Context, a, dst *image.Gray, t Transform) error {
	src := view(a)
	defer src.Close()
	w := dst.Rect.Dx()
	return bands(ctx, dst.Rect.Dy(), 0, func(_ *scratch, y0, y1 int) {
		d := rowsView(dst, y0, y1)
		warp(src, &d, levelMap(t, 1, image.Point{}, 1, image.Pt(0, y0)), w, y1-y0)
		d.Close()
	})
}

// whiten erases, in the raw Addition and Deletion, the differences of the
// cells marked in drop (residue, specks, left-out hatches).
func whiten(ctx context.Context, addition, deletion *image.Gray, drop []uint8, c *cellMaps) error {
	marked := false
	for _, v := range drop {
		if v != 0 {
			marked = true
			break
		}
	}
	if !marked {
		return nil
	}
	return bands(ctx, addition.Rect.Dy(), 0, func(s *scratch, y0, y1 int) {
		defer s.release()
		cy0, cy1 := y0/c.cell, min(c.h, y1/c.cell)
		if cy1 <= cy0 {
			return
		}
		rows := (cy1 - cy0) * c.cell
		dm, _ := gocv.NewMatFromBytes(cy1-cy0, c.w, gocv.MatTypeCV8U, drop[cy0*c.w:cy1*c.w])
		defer dm.Close()
		up := s.mat(0, rows, c.w*c.cell, gocv.MatTypeCV8U)
		gocv.Resize(dm, &up, image.Pt(c.w*c.cell, rows), 0, 0, gocv.InterpolationNearestNeighbor)
		for _, img := range []*image.Gray{addition, deletion} {
			v := rowsView(img, y0, y0+rows)
			roi := v.Region(image.Rect(0, 0, c.w*c.cell, rows))
			gocv.BitwiseOr(roi, up, &roi)
			roi.Close()
			v.Close()
		}
	})
}

// Labels of the Combined image's pixels.
const (
	labelUnchanged = iota + 1
	labelRemoved
	labelAdded
	labelUncompared
)

// Scratch buffers of a compose band.
const (
	bufInk = iota
	bufLabel
	bufMask
	bufRed
	bufGreen
	bufBlue
	bufAlpha
)

// compose draws the Combined image: each pixel's darkness is the darker of
// the two sides' ink, its hue its label's colour (removed where Deletion
// has ink, added where Addition has, uncompared outside the cover,
// unchanged elsewhere), on white.
func compose(ctx context.Context, in diffInput) (*image.RGBA, error) {
	w, h := in.b.Rect.Dx(), in.b.Rect.Dy()
	out := image.NewRGBA(in.b.Rect)
	// per channel, the label's colour as the darkness it takes off white
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
	err := bands(ctx, h, 0, func(s *scratch, y0, y1 int) {
		defer s.release()
		av, bv := rowsView(in.aligned, y0, y1), rowsView(in.b, y0, y1)
		adv, dlv := rowsView(in.addition, y0, y1), rowsView(in.deletion, y0, y1)
		defer closeAll(&av, &bv, &adv, &dlv)
		buf := func(i int) gocv.Mat { return s.mat(i, y1-y0, w, gocv.MatTypeCV8U) }
		ink, label, mask := buf(bufInk), buf(bufLabel), buf(bufMask)
		gocv.Min(av, bv, &ink)
		gocv.BitwiseNot(ink, &ink)
		label.SetTo(gocv.NewScalar(labelUnchanged, 0, 0, 0))
		for _, l := range []struct {
			src gocv.Mat
			v   float32
		}{{dlv, labelRemoved}, {adv, labelAdded}} {
			gocv.Threshold(l.src, &mask, 254, l.v, gocv.ThresholdBinaryInv)
			gocv.Max(label, mask, &label)
		}
		coverInto(&mask, in.cover, y0)
		gocv.Threshold(mask, &mask, 0, labelUncompared, gocv.ThresholdBinaryInv)
		gocv.Max(label, mask, &label)

		planes := []gocv.Mat{buf(bufRed), buf(bufGreen), buf(bufBlue), buf(bufAlpha)}
		for c := 0; c < 3; c++ {
			gocv.LUT(label, luts[c], &planes[c])
			gocv.MultiplyWithParams(ink, planes[c], &planes[c], 1.0/255, -1)
			gocv.BitwiseNot(planes[c], &planes[c])
		}
		planes[3].SetTo(gocv.NewScalar(255, 0, 0, 0))
		dst := rgbaRowsView(out, y0, y1)
		gocv.Merge(planes, &dst)
		dst.Close()
	})
	return out, err
}
