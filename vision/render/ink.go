package render

import (
	"image"
	"math"
)

// InkLevel is the grey level below which a pixel counts as drawn: anything
// clearly darker than the paper, so thin anti-aliased strokes count while
// scanner and JPEG noise near white does not.
const InkLevel = 192

// Ink counts the drawn pixels of img.
func Ink(img *image.Gray) int {
	n := 0
	b := img.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		for _, v := range row {
			if v < InkLevel {
				n++
			}
		}
	}
	return n
}

// CropMargin is the paper TightCrop keeps around a symbol.
const CropMargin = 2

// TightCrop cuts img to the box of its drawn pixels and up to CropMargin
// pixels of paper around it, where img has them (a copy with its origin
// at 0,0); ok is false when nothing is drawn. Ink that reaches an edge of
// the result so reached the same edge of img: the matcher takes the lines
// there to be cut by the crop (symbols.Template).
func TightCrop(img *image.Gray) (out *image.Gray, ok bool) {
	ink, ok := InkBounds(img)
	if !ok {
		return nil, false
	}
	r := ink.Inset(-CropMargin).Intersect(img.Rect)
	out = image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := 0; y < r.Dy(); y++ {
		copy(out.Pix[y*out.Stride:y*out.Stride+r.Dx()], img.Pix[img.PixOffset(r.Min.X, r.Min.Y+y):img.PixOffset(r.Max.X, r.Min.Y+y)])
	}
	return out, true
}

// InkBounds is the box of img's drawn pixels; ok is false when nothing is
// drawn.
func InkBounds(img *image.Gray) (r image.Rectangle, ok bool) {
	b := img.Rect
	x0, y0, x1, y1 := b.Max.X, b.Max.Y, b.Min.X-1, b.Min.Y-1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		for i, v := range row {
			if v < InkLevel {
				x := b.Min.X + i
				x0, x1 = min(x0, x), max(x1, x)
				y0, y1 = min(y0, y), max(y1, y)
			}
		}
	}
	if x1 < x0 {
		return image.Rectangle{}, false
	}
	return image.Rect(x0, y0, x1+1, y1+1), true
}

// LineStyle reports whether a legend graphic whose ink fills ink is a
// line style rather than a symbol: a sample of a line (a dashed or
// phantom line, a wall type's pair of lines, a lettered pipe run) at
// least five times as long as it is thick and open at both ends — no
// stroke closes it across, as a strip light's long rectangle is closed.
// Line styles mark lengths of walls and runs; they are measured, not
// counted.
func LineStyle(img *image.Gray, ink image.Rectangle) bool {
	long, short := ink.Dx(), ink.Dy()
	across := func(i int) int { // ink across the sample at i along it
		n := 0
		for j := 0; j < short; j++ {
			var v uint8
			if ink.Dx() >= ink.Dy() {
				v = img.GrayAt(ink.Min.X+i, ink.Min.Y+j).Y
			} else {
				v = img.GrayAt(ink.Min.X+j, ink.Min.Y+i).Y
			}
			if v < InkLevel {
				n++
			}
		}
		return n
	}
	if short > long {
		long, short = short, long
	}
	if short == 0 || long < 5*short {
		return false
	}
	if short <= 4 {
		return true // a single stroke: nothing to close
	}
	// an end is closed when a stroke crosses most of the sample within
	// its last few pixels
	closed := func(from, step int) bool {
		for k := 0; k < 3; k++ {
			if 10*across(from+k*step) >= 7*short {
				return true
			}
		}
		return false
	}
	return !closed(0, 1) && !closed(long-1, -1)
}

// PadWhite returns img with n pixels of paper added on every side: a
// whole symbol (a legend's exemplar, cut to its ink) that no crop cut.
func PadWhite(img *image.Gray, n int) *image.Gray {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, w+2*n, h+2*n))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	for y := 0; y < h; y++ {
		copy(out.Pix[(y+n)*out.Stride+n:], img.Pix[img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y+y):img.PixOffset(img.Rect.Max.X, img.Rect.Min.Y+y)])
	}
	return out
}

// AsGray converts any image to 8-bit grey, transparent parts becoming
// white paper.
func AsGray(img image.Image) *image.Gray {
	if g, ok := img.(*image.Gray); ok {
		return g
	}
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			// composite over white
			w := uint32(0xffff - a)
			lum := (19595*(r+w) + 38470*(g+w) + 7471*(bl+w) + 1<<15) >> 24
			out.Pix[(y-b.Min.Y)*out.Stride+(x-b.Min.X)] = uint8(min(lum, 255))
		}
	}
	return out
}

// MatchGrid is the sheet grid (pixels) block images are aligned to before
// symbol matching: the step of the matcher's pyramid level 8, on which
// symbols of up to ~4,000 px radius are searched (a level-l search sees the
// image on a 2^l grid; 32 was too fine: SESYD plan 0 through the service
// scored 0.931 on a 32 px grid, 0.983 on this one, as on the uncropped plan).
const MatchGrid = 256

// OnSheetGrid returns img (a block whose top-left corner is at x, y on its
// sheet) with white paper added on the left and top so that its origin
// falls on the sheet's MatchGrid grid, and the padding added.
func OnSheetGrid(img *image.Gray, x, y float64) (out *image.Gray, dx, dy int) {
	dx, dy = int(math.Floor(x))%MatchGrid, int(math.Floor(y))%MatchGrid
	if dx < 0 {
		dx += MatchGrid
	}
	if dy < 0 {
		dy += MatchGrid
	}
	if dx == 0 && dy == 0 {
		return img, 0, 0
	}
	b := img.Rect
	out = image.NewGray(image.Rect(0, 0, b.Dx()+dx, b.Dy()+dy))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	for row := 0; row < b.Dy(); row++ {
		copy(out.Pix[(row+dy)*out.Stride+dx:(row+dy)*out.Stride+dx+b.Dx()], img.Pix[img.PixOffset(b.Min.X, b.Min.Y+row):img.PixOffset(b.Max.X, b.Min.Y+row)])
	}
	return out, dx, dy
}
