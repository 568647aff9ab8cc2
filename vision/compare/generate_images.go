package compare

import (
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"sync"

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

// Combined is the overlay's combined image: each pixel's darkness is the
// darker of the two sides' ink, its hue its label's colour (removed where
// Deletion has ink, added where Addition has, uncompared outside the
// cover, unchanged elsewhere), on white: channel c of a pixel of ink v
// (255 less the darker side, taken to one of inkLevels shades) labelled l
// is 255 − round(v·(255 − colour(l)[c])/255). Four labels of 64 shades
// make 256 colours: the image is a paletted one (one byte a pixel, a third
// of RGB's for the PNG encoder to compress; its encoding was the slowest
// of an overlay's images). It is not held as pixels: a row is drawn when
// it is read (PalettedRow, which the PNG encoder reads row after row; At
// and RGBAAt for a pixel) from the grey images it is made of, which the
// overlay holds anyway. Fresh pixels cost more to fault in than to fill
// (a 44 Mpx plan's RGBA took 0.7 s of CPU, most of it the kernel's). The
// images must not change while it is read; it is not for use from two
// goroutines at once (its cover band is shared).
type Combined struct {
	in diffInput
	// the cover of rows [y0, y0+n) (255 inside), w bytes a row
	cover  []byte
	y0, n  int
	w      int
	coverM sync.Mutex
}

// inkLevels is how many shades of its label's colour the combined image
// draws: ink v (0–255) is drawn as shade v >> 2, whose ink is
// round(shade·255/63) (0 and 255 kept; at most two levels off, which the
// eye does not tell apart).
const inkLevels = 64

// shadeIndex is the palette index of ink v labelled l.
func shadeIndex(l int, v uint8) uint8 { return uint8((l-1)*inkLevels + int(v)>>2) }

// combinedPalette is the combined image's palette, three bytes (R, G, B)
// an index (shadeIndex); index 0, unchanged with no ink, is white.
var combinedPalette = func() []byte {
	p := make([]byte, 3*256)
	for l, col := range map[int][3]uint8{labelUnchanged: ColourUnchanged, labelRemoved: ColourRemoved,
		labelAdded: ColourAdded, labelUncompared: ColourUncompared} {
		for q := range inkLevels {
			v := (q*255 + (inkLevels-1)/2) / (inkLevels - 1)
			i := 3 * ((l-1)*inkLevels + q)
			for c := range 3 {
				p[i+c] = uint8(255 - (v*int(255-col[c])+127)/255)
			}
		}
	}
	return p
}()

// combinedBand is how many rows of cover a Combined draws at once.
const combinedBand = 64

func compose(in diffInput) *Combined {
	return &Combined{in: in, w: in.b.Rect.Dx(), y0: -1}
}

// Bounds, ColorModel and At make it an image.Image (B's rectangle).
func (c *Combined) Bounds() image.Rectangle { return c.in.b.Rect }
func (c *Combined) ColorModel() color.Model { return color.RGBAModel }
func (c *Combined) At(x, y int) color.Color { return c.RGBAAt(x, y) }

// RGBAAt is the pixel at (x, y) (white outside the image).
func (c *Combined) RGBAAt(x, y int) color.RGBA {
	r := c.Bounds()
	if !image.Pt(x, y).In(r) {
		return color.RGBA{255, 255, 255, 255}
	}
	var i [1]byte
	c.pixels(y-r.Min.Y, x-r.Min.X, x-r.Min.X+1, i[:])
	p := combinedPalette[3*int(i[0]):]
	return color.RGBA{p[0], p[1], p[2], 255}
}

// PaletteRGB is the image's palette (render.PalettedRows).
func (c *Combined) PaletteRGB() []byte { return combinedPalette }

// PalettedRow draws row y (from the top, 0-based) as palette indices into
// dst (a byte a pixel) and returns it.
func (c *Combined) PalettedRow(y int, dst []byte) []byte {
	c.pixels(y, 0, c.w, dst)
	return dst[:c.w]
}

// pixels draws pixels [x0, x1) of row y as palette indices into dst.
func (c *Combined) pixels(y, x0, x1 int, dst []byte) {
	c.coverM.Lock()
	defer c.coverM.Unlock()
	h := c.in.b.Rect.Dy()
	if y < c.y0 || y >= c.y0+c.n {
		c.y0, c.n = y, min(combinedBand, h-y)
		if len(c.cover) < c.n*c.w {
			c.cover = make([]byte, combinedBand*c.w)
		}
		m, _ := gocv.NewMatFromBytes(c.n, c.w, gocv.MatTypeCV8U, c.cover[:c.n*c.w])
		coverInto(&m, c.in.cover, c.y0)
		m.Close()
	}
	w, row := c.w, y*c.w
	a, b := c.in.aligned.Pix[row:row+w], c.in.b.Pix[row:row+w]
	add, del := c.in.addition.Pix[row:row+w], c.in.deletion.Pix[row:row+w]
	cv := c.cover[(y-c.y0)*w : (y-c.y0+1)*w]
	const white = ^uint64(0)
	le := binary.LittleEndian
	for x := x0; x < x1; x++ {
		// eight pixels of paper on both sides at once: white (index 0)
		if x+8 <= x1 && le.Uint64(a[x:])&le.Uint64(b[x:]) == white {
			le.PutUint64(dst[x-x0:], 0)
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
		dst[x-x0] = shadeIndex(l, 255-min(a[x], b[x]))
	}
}
