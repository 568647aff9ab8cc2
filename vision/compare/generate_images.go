package compare

import (
	"context"
	"encoding/binary"
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

// compose draws the Combined image: each pixel's darkness is the darker of
// the two sides' ink, its hue its label's colour (removed where Deletion
// has ink, added where Addition has, uncompared outside the cover,
// unchanged elsewhere), on white: channel c of a pixel of ink v (255 less
// the darker side) labelled l is 255 − round(v·(255 − colour(l)[c])/255),
// looked up in one table. The cover is drawn by OpenCV a band at a time;
// the pixels are one pass of Go (a dozen OpenCV passes over a 44 Mpx plan
// took four times as long).
func compose(ctx context.Context, in diffInput) (*image.RGBA, error) {
	w, h := in.b.Rect.Dx(), in.b.Rect.Dy()
	out := image.NewRGBA(in.b.Rect)
	// the pixel of ink v labelled l, as its four bytes (little-endian)
	var shade [labelUncompared + 1][256]uint32
	for l, col := range map[int][3]uint8{labelUnchanged: ColourUnchanged, labelRemoved: ColourRemoved,
		labelAdded: ColourAdded, labelUncompared: ColourUncompared} {
		for v := range 256 {
			p := uint32(255) << 24
			for c := range 3 {
				p |= uint32(255-(v*int(255-col[c])+127)/255) << (8 * c)
			}
			shade[l][v] = p
		}
	}
	const white = ^uint64(0)
	le := binary.LittleEndian
	return out, bands(ctx, h, 0, func(s *scratch, y0, y1 int) {
		defer s.release()
		mask := s.mat(0, y1-y0, w, gocv.MatTypeCV8U)
		coverInto(&mask, in.cover, y0)
		covered, _ := mask.DataPtrUint8()
		for y := y0; y < y1; y++ {
			row := y * w
			a, b := in.aligned.Pix[row:row+w], in.b.Pix[row:row+w]
			add, del := in.addition.Pix[row:row+w], in.deletion.Pix[row:row+w]
			cv := covered[(y-y0)*w : (y-y0+1)*w]
			px := out.Pix[4*row : 4*(row+w)]
			for x := 0; x < w; x++ {
				// eight pixels of paper on both sides at once: white
				if x+8 <= w && le.Uint64(a[x:])&le.Uint64(b[x:]) == white {
					q := px[4*x : 4*x+32]
					le.PutUint64(q, white)
					le.PutUint64(q[8:], white)
					le.PutUint64(q[16:], white)
					le.PutUint64(q[24:], white)
					x += 7
					continue
				}
				l := labelUnchanged
				switch {
				case cv[x] == 0:
					l = labelUncompared
				case add[x] < 255:
					l = labelAdded
				case del[x] < 255:
					l = labelRemoved
				}
				le.PutUint32(px[4*x:], shade[l][255-min(a[x], b[x])])
			}
		}
	})
}
