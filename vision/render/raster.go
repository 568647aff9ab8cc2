package render

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"os"

	"golang.org/x/image/tiff"
)

// imageDoc is a one-page PNG or JPEG.
type imageDoc struct {
	lockedFile
	size int64
	typ  string
	lim  Limits
	w, h int
	dpi  int
	need int64 // bytes the decoder will allocate
}

func openImage(f *os.File, size int64, typ string, lim Limits) (Document, error) {
	what := "the " + typeName(typ) + " image"
	var cfg image.Config
	err := safely(what, func() (err error) {
		r := bufio.NewReader(io.NewSectionReader(f, 0, size))
		if typ == TypePNG {
			cfg, err = png.DecodeConfig(r)
		} else {
			cfg, err = jpeg.DecodeConfig(r)
		}
		return err
	})
	if err = decodeErr(what, err); err != nil {
		return nil, err
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, errorf(CodeCorruptFile, "%s has no pixels", what)
	}
	d := &imageDoc{lockedFile: lockedFile{f: f}, size: size, typ: typ, lim: lim, w: cfg.Width, h: cfg.Height, dpi: DefaultDPI}
	px := int64(cfg.Width) * int64(cfg.Height)
	var meta rasterMeta
	if typ == TypePNG {
		meta = pngMeta(io.NewSectionReader(f, 0, size))
	} else {
		meta = jpegMeta(io.NewSectionReader(f, 0, size))
	}
	if meta.dpi > 0 {
		d.dpi = meta.dpi
	}
	d.need = px * int64(bytesPerPixel(cfg.ColorModel))
	if meta.progressive { // coefficients for the whole image: 2 B per sample
		d.need += px * int64(max(meta.components, 1)) * 2
	}
	return d, nil
}

func typeName(typ string) string {
	switch typ {
	case TypePNG:
		return "PNG"
	case TypeJPEG:
		return "JPEG"
	case TypeTIFF:
		return "TIFF"
	}
	return "PDF"
}

// bytesPerPixel estimates the size of a decoded pixel of the model.
func bytesPerPixel(m color.Model) int {
	switch m {
	case color.GrayModel:
		return 1
	case color.Gray16Model:
		return 2
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel:
		return 4
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.YCbCrModel:
		return 3 // 4:4:4 worst case
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}

func (d *imageDoc) Pages() int { return 1 }

func (d *imageDoc) PageSize(i int) (int, int, int, error) {
	if err := checkIndex(i, 1); err != nil {
		return 0, 0, 0, err
	}
	return d.w, d.h, d.dpi, nil
}

func (d *imageDoc) Render(i int) (*image.Gray, error) {
	return d.RenderContext(context.Background(), i)
}

func (d *imageDoc) RenderContext(ctx context.Context, i int) (*image.Gray, error) {
	if err := checkIndex(i, 1); err != nil {
		return nil, err
	}
	if err := checkPixels(i, d.w, d.h, d.dpi, d.need, d.lim); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.f == nil {
		return nil, fmt.Errorf("render: document is closed")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	what := "the " + typeName(d.typ) + " image"
	var img image.Image
	err := safely(what, func() (err error) {
		r := bufio.NewReaderSize(io.NewSectionReader(d.f, 0, d.size), 64<<10)
		if d.typ == TypePNG {
			img, err = png.Decode(r)
		} else {
			img, err = jpeg.Decode(r)
		}
		return err
	})
	if err = decodeErr(what, err); err != nil {
		return nil, err
	}
	return toGray(img), nil
}

// checkPixels enforces the page-size cap and the decoder memory budget.
func checkPixels(i, w, h, dpi int, need int64, lim Limits) error {
	if int64(w)*int64(h) > lim.MaxPixels {
		return pageTooLarge(i, w, h, dpi, lim)
	}
	if need > lim.decodeBudget() {
		return errorf(CodePageTooLarge,
			"page %d (%d × %d px) would need %d MB to decode, over the limit of %d MB",
			i+1, w, h, need>>20, lim.decodeBudget()>>20)
	}
	return nil
}

// rasterMeta is what we read from an image file's headers besides its size.
type rasterMeta struct {
	dpi         int // 0: not recorded
	progressive bool
	components  int
}

// plausibleDPI rejects resolutions no scan or export has.
func plausibleDPI(v float64) int {
	if math.IsNaN(v) || v < 10 || v > 10000 {
		return 0
	}
	return int(math.Round(v))
}

// pngMeta reads the pHYs chunk, if any, before the image data.
func pngMeta(r io.ReaderAt) rasterMeta {
	var m rasterMeta
	off := int64(8)
	hdr := make([]byte, 8)
	for range 64 { // pHYs comes before IDAT; a few ancillary chunks at most
		if _, err := r.ReadAt(hdr, off); err != nil {
			return m
		}
		n := int64(binary.BigEndian.Uint32(hdr[:4]))
		typ := string(hdr[4:8])
		switch typ {
		case "IDAT", "IEND":
			return m
		case "pHYs":
			if n != 9 {
				return m
			}
			b := make([]byte, 9)
			if _, err := r.ReadAt(b, off+8); err != nil {
				return m
			}
			if b[8] == 1 { // unit: metre
				m.dpi = plausibleDPI(float64(binary.BigEndian.Uint32(b[:4])) * 0.0254)
			}
			return m
		}
		if n > 1<<31 {
			return m
		}
		off += 12 + n
	}
	return m
}

// jpegMeta reads JFIF or Exif resolution and the frame type.
func jpegMeta(r io.ReaderAt) rasterMeta {
	var m rasterMeta
	var exifDPI int
	jfifSeen := false
	off := int64(2)
	b := make([]byte, 4)
	for range 256 {
		if _, err := r.ReadAt(b, off); err != nil {
			break
		}
		if b[0] != 0xFF {
			break
		}
		marker := b[1]
		if marker == 0xFF { // fill byte
			off++
			continue
		}
		if marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) {
			off += 2
			continue
		}
		n := int64(binary.BigEndian.Uint16(b[2:4]))
		if n < 2 {
			break
		}
		switch {
		case marker == 0xE0 && n >= 16: // APP0
			seg := make([]byte, 14)
			if _, err := r.ReadAt(seg, off+4); err == nil && string(seg[:5]) == "JFIF\x00" {
				jfifSeen = true
				x := float64(binary.BigEndian.Uint16(seg[8:10]))
				switch seg[7] {
				case 1:
					m.dpi = plausibleDPI(x)
				case 2:
					m.dpi = plausibleDPI(x * 2.54)
				}
			}
		case marker == 0xE1 && n > 8 && n < 1<<16: // APP1, maybe Exif
			seg := make([]byte, n-2)
			if _, err := r.ReadAt(seg, off+4); err == nil && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
				exifDPI = exifResolution(seg[6:])
			}
		case marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC: // SOFn
			seg := make([]byte, 6)
			if _, err := r.ReadAt(seg, off+4); err == nil {
				m.components = int(seg[5])
			}
			m.progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
			if !jfifSeen || m.dpi == 0 {
				m.dpi = exifDPI
			}
			return m
		case marker == 0xDA || marker == 0xD9:
			if m.dpi == 0 {
				m.dpi = exifDPI
			}
			return m
		}
		off += 2 + n
	}
	if m.dpi == 0 {
		m.dpi = exifDPI
	}
	return m
}

// exifResolution reads XResolution and ResolutionUnit from IFD0 of an Exif
// TIFF structure.
func exifResolution(b []byte) int {
	r := bytes.NewReader(b)
	t, err := readTIFFHeader(r, int64(len(b)))
	if err != nil {
		return 0
	}
	ifd, _, err := t.readIFD(t.first)
	if err != nil {
		return 0
	}
	return ifd.dpi
}

// toGray converts any decoded image to 8-bit grey with origin (0,0),
// using ITU-R BT.601 luma like color.GrayModel, with fast paths for the
// types the decoders produce.
func toGray(img image.Image) *image.Gray {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if g, ok := img.(*image.Gray); ok && b.Min == (image.Point{}) && g.Stride == w {
		return g
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < h; y++ {
			copy(out.Pix[y*w:(y+1)*w], m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.YCbCr: // Y is luma already
		for y := 0; y < h; y++ {
			copy(out.Pix[y*w:(y+1)*w], m.Y[m.YOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.RGBA:
		for y := 0; y < h; y++ {
			rgbaRowToGray(out.Pix[y*w:(y+1)*w], m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			nrgbaRowToGray(out.Pix[y*w:(y+1)*w], m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.Gray16:
		for y := 0; y < h; y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			dst := out.Pix[y*w : (y+1)*w]
			for x := range dst {
				dst[x] = src[2*x] // high byte
			}
		}
	case *image.Paletted:
		var lut [256]uint8
		for i, c := range m.Palette {
			lut[i] = color.GrayModel.Convert(flatten(c)).(color.Gray).Y
		}
		for y := 0; y < h; y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			dst := out.Pix[y*w : (y+1)*w]
			for x := range dst {
				dst[x] = lut[src[x]]
			}
		}
	case *image.CMYK:
		for y := 0; y < h; y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			dst := out.Pix[y*w : (y+1)*w]
			for x := range dst {
				r, g, bl := color.CMYKToRGB(src[4*x], src[4*x+1], src[4*x+2], src[4*x+3])
				dst[x] = uint8((19595*uint32(r) + 38470*uint32(g) + 7471*uint32(bl) + 1<<15) >> 16)
			}
		}
	case image.RGBA64Image: // 16-bit RGB(A) and the rest, without per-pixel allocations
		for y := 0; y < h; y++ {
			dst := out.Pix[y*w : (y+1)*w]
			for x := range dst {
				c := m.RGBA64At(b.Min.X+x, b.Min.Y+y)
				k := 0xffff - uint32(c.A) // over white
				r, g, bl := uint32(c.R)+k, uint32(c.G)+k, uint32(c.B)+k
				dst[x] = uint8((19595*r + 38470*g + 7471*bl + 1<<15) >> 24)
			}
		}
	default:
		for y := 0; y < h; y++ {
			dst := out.Pix[y*w : (y+1)*w]
			for x := range dst {
				dst[x] = color.GrayModel.Convert(flatten(img.At(b.Min.X+x, b.Min.Y+y))).(color.Gray).Y
			}
		}
	}
	return out
}

// flatten composes a colour over white, as a page would show it.
func flatten(c color.Color) color.Color {
	r, g, b, a := c.RGBA()
	if a == 0xffff {
		return c
	}
	k := 0xffff - a
	return color.RGBA64{uint16(r + k), uint16(g + k), uint16(b + k), 0xffff}
}

// rgbaRowToGray converts premultiplied RGBA over white.
func rgbaRowToGray(dst, src []byte) {
	src = src[:4*len(dst)]
	for x := range dst {
		p := src[4*x : 4*x+4 : 4*x+4]
		k := 255 - uint32(p[3])
		r, g, b := uint32(p[0])+k, uint32(p[1])+k, uint32(p[2])+k
		dst[x] = uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 16)
	}
}

// nrgbaRowToGray converts straight-alpha RGBA over white.
func nrgbaRowToGray(dst, src []byte) {
	src = src[:4*len(dst)]
	for x := range dst {
		p := src[4*x : 4*x+4 : 4*x+4]
		y := (19595*uint32(p[0]) + 38470*uint32(p[1]) + 7471*uint32(p[2]) + 1<<15) >> 16
		if a := uint32(p[3]); a != 255 {
			y = (y*a + 255*(255-a) + 127) / 255
		}
		dst[x] = uint8(y)
	}
}

// isUnsupported reports decoder errors about valid but unsupported files.
func isUnsupported(err error) bool {
	switch err.(type) {
	case png.UnsupportedError, jpeg.UnsupportedError, tiff.UnsupportedError:
		return true
	}
	return false
}
