package render

import (
	"bytes"
	"hash/adler32"
	"image"
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
