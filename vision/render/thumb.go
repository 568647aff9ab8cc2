package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"sync"

	"github.com/plangraph/plangraph/vision/par"
)

// Thumbnail returns src shrunk to fit in maxSide × maxSide, keeping its
// aspect ratio, by area averaging (each output pixel is the mean of
// the source area it covers). Smaller images are returned as a copy.
func Thumbnail(src *image.Gray, maxSide int) *image.Gray {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if maxSide < 1 {
		maxSide = 1
	}
	if w <= maxSide && h <= maxSide {
		out := image.NewGray(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			copy(out.Pix[y*w:(y+1)*w], src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):])
		}
		return out
	}
	// a source many times the thumbnail is halved first, as the pyramid's
	// levels are (2×2 means): the resize then reads a sixteenth as much
	for w >= 4*maxSide && h >= 4*maxSide {
		src = Halve(src)
		b = src.Bounds()
		w, h = b.Dx(), b.Dy()
	}
	ow, oh := maxSide, maxSide
	if w >= h {
		oh = max(1, int((int64(h)*int64(maxSide)+int64(w)/2)/int64(w)))
	} else {
		ow = max(1, int((int64(w)*int64(maxSide)+int64(h)/2)/int64(h)))
	}
	return Resize(src, ow, oh)
}

// span is the run of source pixels [start, end) that covers one output
// pixel, with the weights of its first and last source pixel; the pixels in
// between have the full weight (the output length).
type span struct {
	start, end    int
	wFirst, wLast uint64
}

// spans maps n source pixels onto m output pixels (m <= n). In units of
// 1/(n·m), source pixel j covers [j·m, (j+1)·m) and output pixel x covers
// [x·n, (x+1)·n), so every weight is an integer and each output's weights
// sum to n.
func spans(n, m int) []span {
	out := make([]span, m)
	for x := range out {
		lo, hi := int64(x)*int64(n), int64(x+1)*int64(n)
		s := span{start: int(lo / int64(m)), end: int((hi + int64(m) - 1) / int64(m))}
		s.wFirst = uint64(min(hi, int64(s.start+1)*int64(m)) - lo)
		s.wLast = uint64(hi - max(lo, int64(s.end-1)*int64(m)))
		out[x] = s
	}
	return out
}

// Resize shrinks src to w × h by area averaging. It does not enlarge:
// w and h are clamped to src's size.
func Resize(src *image.Gray, w, h int) *image.Gray {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	w, h = max(1, min(w, sw)), max(1, min(h, sh))
	out := image.NewGray(image.Rect(0, 0, w, h))
	if sw == 0 || sh == 0 {
		return out
	}
	xs, ys := spans(sw, w), spans(sh, h)
	full := uint64(w) // weight of an interior source column
	rowSum := make([]uint64, w)
	acc := make([]uint64, w)
	cached := -1
	sumRow := func(r int) {
		if r == cached {
			return
		}
		cached = r
		row := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+r):]
		row = row[:sw:sw]
		for x, s := range xs {
			if s.end-s.start == 1 {
				rowSum[x] = s.wFirst * uint64(row[s.start])
				continue
			}
			var mid uint64
			for _, p := range row[s.start+1 : s.end-1] {
				mid += uint64(p)
			}
			rowSum[x] = s.wFirst*uint64(row[s.start]) + full*mid + s.wLast*uint64(row[s.end-1])
		}
	}
	den := uint64(sw) * uint64(sh)
	fullY := uint64(h)
	for y, s := range ys {
		clear(acc)
		for r := s.start; r < s.end; r++ {
			wy := fullY
			switch {
			case s.end-s.start == 1:
				wy = s.wFirst
			case r == s.start:
				wy = s.wFirst
			case r == s.end-1:
				wy = s.wLast
			}
			sumRow(r)
			for x, v := range rowSum {
				acc[x] += wy * v
			}
		}
		dst := out.Pix[y*w : (y+1)*w]
		for x, v := range acc {
			dst[x] = uint8((v + den/2) / den)
		}
	}
	return out
}

// Halve shrinks src by 2 in each direction, to ceil(w/2) × ceil(h/2), each
// output pixel the mean of its 2×2 block (of the 1 or 2 pixels at an odd
// edge). Rounding alternates up and down in a checkerboard so repeated
// halving keeps the mean.
func Halve(src *image.Gray) *image.Gray {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	w, h := (sw+1)/2, (sh+1)/2
	out := image.NewGray(image.Rect(0, 0, w, h))
	if w == 0 || h == 0 {
		return out
	}
	white := whiteRow(sw)
	rows := func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			r0 := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+2*y):]
			r0 = r0[:sw:sw]
			dst := out.Pix[y*w : (y+1)*w : (y+1)*w]
			if 2*y+1 >= sh { // odd last row
				for x := range dst {
					a, c := uint32(r0[2*x]), uint32(r0[min(2*x+1, sw-1)])
					dst[x] = uint8((a + c + uint32((x+y)&1)) >> 1)
				}
				continue
			}
			r1 := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+2*y+1):]
			r1 = r1[:sw:sw]
			if len(white) >= sw && bytes.Equal(r0, white[:sw]) && bytes.Equal(r1, white[:sw]) {
				copy(dst, white) // paper: every mean is 255, whatever the dither
				continue
			}
			pairs := sw / 2
			for x := 0; x < pairs; x++ {
				s := uint32(r0[2*x]) + uint32(r0[2*x+1]) + uint32(r1[2*x]) + uint32(r1[2*x+1])
				dst[x] = uint8((s + 1 + uint32((x+y)&1)) >> 2)
			}
			if sw&1 == 1 { // odd last column
				s := uint32(r0[sw-1]) + uint32(r1[sw-1])
				dst[w-1] = uint8((s + uint32((w-1+y)&1)) >> 1)
			}
		}
	}
	par.Rows(h, w, rows)
	return out
}

type pngBuffers struct{ p sync.Pool }

func (b *pngBuffers) Get() *png.EncoderBuffer {
	e, _ := b.p.Get().(*png.EncoderBuffer)
	return e
}
func (b *pngBuffers) Put(e *png.EncoderBuffer) { b.p.Put(e) }

// pngEncoder favours speed: for line drawings BestSpeed files are only
// slightly larger, and encoding a whole sheet otherwise costs more than
// drawing it.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngBuffers{}}

// PalettedRows is an opaque image of at most 256 colours that draws its
// rows as palette indices (row y from the top, one byte a pixel, into dst,
// which it returns), which EncodePNG reads one after the other rather
// than pixel by pixel and writes as an 8-bit paletted PNG: an image made
// on the fly (a compare overlay's combined image), a third of the bytes
// of RGB to compress. PaletteRGB is the palette, three bytes (R, G, B) a
// colour, at most 256 colours; every index a row holds must be in it.
type PalettedRows interface {
	image.Image
	PaletteRGB() []byte
	PalettedRow(y int, dst []byte) []byte
}

// EncodePNG writes img as PNG with fast compression.
func EncodePNG(w io.Writer, img image.Image) error {
	switch m := img.(type) {
	case *image.Gray:
		return encodeGrayPNG(w, m)
	case *image.RGBA:
		if m.Opaque() {
			return encodeOpaqueRGBAPNG(w, m)
		}
	case PalettedRows:
		b := m.Bounds()
		plte := m.PaletteRGB()
		if len(plte) == 0 || len(plte) > 3*256 || len(plte)%3 != 0 {
			return fmt.Errorf("png: a palette of %d bytes", len(plte))
		}
		return encodeRowsPNG(w, b.Dx(), b.Dy(), pngColour{3, 1, plte}, m.PalettedRow)
	}
	return pngEncoder.Encode(w, img)
}

var (
	whiteMu   sync.Mutex
	whiteRows []byte
)

// whiteRow returns a row of at least n bytes of 255 (shared; not to be
// written).
func whiteRow(n int) []byte {
	whiteMu.Lock()
	defer whiteMu.Unlock()
	if len(whiteRows) < n {
		whiteRows = bytes.Repeat([]byte{255}, n)
	}
	return whiteRows
}

// RGBAOfPaletted is p as an RGBA image, a palette lookup a pixel
// (image/draw reads a paletted source pixel by pixel through its colour
// interface, seconds for a plan-sized overlay); indices beyond the
// palette are transparent black, as image.Paletted.At has them.
func RGBAOfPaletted(p *image.Paletted) *image.RGBA {
	var lut [256][4]byte
	for i, c := range p.Palette {
		if i == len(lut) {
			break
		}
		r, g, b, a := c.RGBA()
		lut[i] = [4]byte{byte(r >> 8), byte(g >> 8), byte(b >> 8), byte(a >> 8)}
	}
	b := p.Bounds()
	out := image.NewRGBA(b)
	w := b.Dx()
	for y := range b.Dy() {
		src := p.Pix[p.PixOffset(b.Min.X, b.Min.Y+y):][:w]
		dst := out.Pix[out.PixOffset(b.Min.X, b.Min.Y+y):][:4*w]
		for x, i := range src {
			copy(dst[4*x:4*x+4], lut[i][:])
		}
	}
	return out
}
