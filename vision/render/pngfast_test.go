package render

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

func TestEncodeGrayPNGRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []image.Rectangle{
		image.Rect(0, 0, 1, 1), image.Rect(0, 0, 300, 7), image.Rect(0, 0, 1000, 700), image.Rect(10, 20, 523, 211),
	} {
		img := image.NewGray(size)
		for i := range img.Pix {
			if r.IntN(10) == 0 {
				img.Pix[i] = uint8(r.IntN(256))
			} else {
				img.Pix[i] = 255
			}
		}
		// paper: bands of rows like the row above, as most of a drawing's
		for y := size.Min.Y + 1; y < size.Max.Y; y++ {
			if y%4 != 0 {
				copy(img.Pix[img.PixOffset(size.Min.X, y):][:size.Dx()], img.Pix[img.PixOffset(size.Min.X, y-1):][:size.Dx()])
			}
		}
		// a sub-image whose rows are not contiguous in Pix
		src := img
		if size.Dx() > 100 {
			src = img.SubImage(image.Rect(size.Min.X+5, size.Min.Y+3, size.Max.X-7, size.Max.Y-2)).(*image.Gray)
		}
		var buf bytes.Buffer
		if err := EncodePNG(&buf, src); err != nil {
			t.Fatal(err)
		}
		dec, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%v: decode: %v", size, err)
		}
		g, ok := dec.(*image.Gray)
		if !ok {
			t.Fatalf("%v: decoded as %T", size, dec)
		}
		if g.Bounds().Dx() != src.Bounds().Dx() || g.Bounds().Dy() != src.Bounds().Dy() {
			t.Fatalf("%v: size %v", size, g.Bounds())
		}
		for y := 0; y < g.Bounds().Dy(); y++ {
			for x := 0; x < g.Bounds().Dx(); x++ {
				if a, b := g.GrayAt(x, y), src.GrayAt(src.Bounds().Min.X+x, src.Bounds().Min.Y+y); a != b {
					t.Fatalf("%v: pixel %d,%d = %v, want %v", size, x, y, a, b)
				}
			}
		}
	}
}

func TestUpFilterMatchesBytewise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 1000} {
		cur, prev := make([]byte, n), make([]byte, n)
		for i := range cur {
			cur[i], prev[i] = byte(r.IntN(256)), byte(r.IntN(256))
		}
		// the edge values too
		if n >= 4 {
			cur[0], prev[0], cur[1], prev[1], cur[2], prev[2] = 0, 255, 255, 0, 128, 128
		}
		out := make([]byte, n)
		upFilter(out, cur, prev)
		for i := range cur {
			if want := cur[i] - prev[i]; out[i] != want {
				t.Fatalf("n %d byte %d: %d - %d = %d, got %d", n, i, cur[i], prev[i], want, out[i])
			}
		}
	}
}

func TestAdlerMatchesHash(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := adler{a: 1}
	var all []byte
	for _, n := range []int{0, 1, 7, 5551, 5553, 20000, 3} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(r.IntN(256))
		}
		s.update(p)
		all = append(all, p...)
		s.zeros(n * 3)
		all = append(all, make([]byte, n*3)...)
		if got, want := s.sum32(), adler32.Checksum(all); got != want {
			t.Fatalf("after %d bytes: %08x, want %08x", len(all), got, want)
		}
	}
}

func TestEncodeOpaqueRGBAPNGRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, size := range []image.Rectangle{image.Rect(0, 0, 1, 1), image.Rect(0, 0, 301, 9), image.Rect(7, 3, 640, 480)} {
		img := image.NewRGBA(size)
		for i := range img.Pix {
			switch {
			case i%4 == 3:
				img.Pix[i] = 255
			case r.IntN(8) == 0 && (i/(4*size.Dx()))%2 == 0, r.IntN(300) == 0:
				// odd rows mostly white: runs of white pixels
				img.Pix[i] = uint8(r.IntN(256))
			default:
				img.Pix[i] = 255
			}
		}
		for y := size.Min.Y + 1; y < size.Max.Y; y++ {
			if y%3 != 0 { // rows like the row above
				copy(img.Pix[img.PixOffset(size.Min.X, y):][:4*size.Dx()], img.Pix[img.PixOffset(size.Min.X, y-1):][:4*size.Dx()])
			}
		}
		src := img
		if size.Dx() > 100 {
			src = img.SubImage(image.Rect(size.Min.X+5, size.Min.Y+2, size.Max.X-3, size.Max.Y-4)).(*image.RGBA)
		}
		var buf bytes.Buffer
		if err := EncodePNG(&buf, src); err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.ColorModel != color.RGBAModel {
			t.Fatalf("%v: written with colour model %v, want RGB", size, cfg.ColorModel)
		}
		dec, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%v: decode: %v", size, err)
		}
		sb := src.Bounds()
		if dec.Bounds().Dx() != sb.Dx() || dec.Bounds().Dy() != sb.Dy() {
			t.Fatalf("%v: size %v", size, dec.Bounds())
		}
		for y := 0; y < sb.Dy(); y++ {
			for x := 0; x < sb.Dx(); x++ {
				if a, b := color.RGBAModel.Convert(dec.At(dec.Bounds().Min.X+x, dec.Bounds().Min.Y+y)), src.RGBAAt(sb.Min.X+x, sb.Min.Y+y); a != b {
					t.Fatalf("%v: pixel %d,%d = %v, want %v", size, x, y, a, b)
				}
			}
		}
	}
	// translucent pixels keep their alpha (the standard encoder)
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Pix[3] = 7
	var buf bytes.Buffer
	if err := EncodePNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	dec, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, a := dec.At(0, 0).RGBA(); a>>8 != 7 {
		t.Fatalf("alpha %d, want 7", a>>8)
	}
}

// rowImage is an image drawn row by row (PalettedRows): pixel (x, y) is
// palette colour (x + y) % 256, rowColour. Its At panics: EncodePNG is
// to read its rows.
type rowImage struct{ w, h int }

func rowColour(i int) color.RGBA { return color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 255} }

func (m rowImage) Bounds() image.Rectangle { return image.Rect(0, 0, m.w, m.h) }
func (m rowImage) ColorModel() color.Model { return color.RGBAModel }
func (m rowImage) At(x, y int) color.Color { panic("At called: the rows were not read") }
func (m rowImage) PaletteRGB() []byte {
	p := make([]byte, 0, 3*256)
	for i := range 256 {
		c := rowColour(i)
		p = append(p, c.R, c.G, c.B)
	}
	return p
}
func (m rowImage) PalettedRow(y int, dst []byte) []byte {
	for x := range m.w {
		dst[x] = uint8(x + y)
	}
	return dst[:m.w]
}

// TestEncodeRowsImageRoundTrips: an image that draws its rows is written
// as a paletted PNG from them (never read pixel by pixel) and reads back
// the same; a palette of no colours is refused.
func TestEncodeRowsImageRoundTrips(t *testing.T) {
	src := rowImage{301, 40}
	var buf bytes.Buffer
	if err := EncodePNG(&buf, src); err != nil {
		t.Fatal(err)
	}
	dec, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if dec.Bounds() != src.Bounds() {
		t.Fatalf("bounds %v, want %v", dec.Bounds(), src.Bounds())
	}
	if _, ok := dec.(*image.Paletted); !ok {
		t.Fatalf("decoded as %T, want paletted (*image.Paletted)", dec)
	}
	for y := range src.h {
		for x := range src.w {
			if got, want := color.RGBAModel.Convert(dec.At(x, y)), rowColour((x+y)%256); got != want {
				t.Fatalf("(%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
	if err := EncodePNG(&bytes.Buffer{}, noPalette{src}); err == nil {
		t.Fatal("an image with an empty palette was encoded")
	}
}

type noPalette struct{ rowImage }

func (noPalette) PaletteRGB() []byte { return nil }

// TestRGBAOfPaletted: each pixel is its palette colour, a sub-image's
// included; an index past the palette is transparent black.
func TestRGBAOfPaletted(t *testing.T) {
	pal := color.Palette{color.RGBA{255, 255, 255, 255}, color.RGBA{200, 0, 0, 255}, color.NRGBA{0, 100, 0, 128}}
	whole := image.NewPaletted(image.Rect(-2, 3, 9, 8), pal)
	for i := range whole.Pix {
		whole.Pix[i] = uint8(i % 4)
	}
	p := whole.SubImage(image.Rect(0, 4, 7, 8)).(*image.Paletted)
	out := RGBAOfPaletted(p)
	if out.Bounds() != p.Bounds() {
		t.Fatalf("bounds %v, want %v", out.Bounds(), p.Bounds())
	}
	for y := p.Rect.Min.Y; y < p.Rect.Max.Y; y++ {
		for x := p.Rect.Min.X; x < p.Rect.Max.X; x++ {
			want := color.RGBA{}
			if i := p.ColorIndexAt(x, y); int(i) < len(pal) {
				want = color.RGBAModel.Convert(pal[i]).(color.RGBA)
			}
			if got := out.RGBAAt(x, y); got != want {
				t.Fatalf("(%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
}
