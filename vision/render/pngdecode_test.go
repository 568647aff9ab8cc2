package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand"
	"testing"
)

// testGray is a drawing-like grey image: paper, lines, noise, repeated
// rows (the encoders' Up and None rows, image/png's five filters).
func testGray(w, h int, seed int64) *image.Gray {
	rng := rand.New(rand.NewSource(seed))
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := 0; y < h; y++ {
		switch {
		case y%7 == 3:
			for x := 0; x < w; x++ {
				img.Pix[y*w+x] = uint8(rng.Intn(256))
			}
		case y%5 == 1:
			for x := 0; x < w; x += 3 {
				img.Pix[y*w+x] = uint8(x * y)
			}
		}
		img.Pix[y*w+(y*13)%w] = 0
	}
	return img
}

func TestDecodePNGSameAsImagePNG(t *testing.T) {
	for i, sz := range []image.Point{{1, 1}, {7, 3}, {33, 17}, {301, 257}, {1024, 9}} {
		g := testGray(sz.X, sz.Y, int64(i))
		var fast, std bytes.Buffer
		if err := EncodePNG(&fast, g); err != nil {
			t.Fatal(err)
		}
		// image/png picks a filter per row: Sub, Up, Average and Paeth
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&std, g); err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string][]byte{"fast": fast.Bytes(), "image/png": std.Bytes()} {
			got, err := DecodePNGBytes(data)
			if err != nil {
				t.Fatalf("%v %s: %v", sz, name, err)
			}
			want, _ := png.Decode(bytes.NewReader(data))
			gg, ok := got.(*image.Gray)
			if !ok || gg.Rect != want.Bounds() || !bytes.Equal(gg.Pix, want.(*image.Gray).Pix) {
				t.Fatalf("%v %s: decoded otherwise than image/png", sz, name)
			}
		}
	}
}

func TestDecodePNGOtherKindsAndDamage(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(0, 0, 5, 4))
	rgba.Set(1, 2, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, rgba); err != nil {
		t.Fatal(err)
	}
	got, err := DecodePNGBytes(b.Bytes())
	if r, _, _, _ := got.At(1, 2).RGBA(); err != nil || r>>8 != 200 {
		t.Fatalf("RGBA through image/png: %v %v", err, got)
	}
	var g bytes.Buffer
	if err := EncodePNG(&g, testGray(64, 64, 9)); err != nil {
		t.Fatal(err)
	}
	data := g.Bytes()
	for _, cut := range []int{40, len(data) / 2, len(data) - 13} {
		if _, err := DecodePNGBytes(data[:cut]); err == nil {
			t.Fatalf("cut at %d: no error", cut)
		}
	}
	bad := bytes.Clone(data)
	bad[len(bad)/2] ^= 0x55
	if _, err := DecodePNGBytes(bad); err == nil {
		t.Fatal("damaged data: no error")
	}
}

func BenchmarkDecodeGrayPNG(b *testing.B) {
	var buf bytes.Buffer
	// a drawing: paper, lines, lettering
	img := image.NewGray(image.Rect(0, 0, 6000, 4000))
	rng := rand.New(rand.NewSource(1))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for range 3000 {
		x, y, l := rng.Intn(5900), rng.Intn(3900), 5+rng.Intn(90)
		for i := range l {
			if l%2 == 0 {
				img.Pix[(y+i)*6000+x], img.Pix[(y+i)*6000+x+1] = 0, 128
			} else {
				img.Pix[y*6000+x+i], img.Pix[(y+1)*6000+x+i] = 0, 100
			}
		}
	}
	if err := EncodePNG(&buf, img); err != nil {
		b.Fatal(err)
	}
	b.Run("fast", func(b *testing.B) {
		for range b.N {
			if _, err := DecodePNGBytes(buf.Bytes()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("image/png", func(b *testing.B) {
		for range b.N {
			if _, err := png.Decode(bytes.NewReader(buf.Bytes())); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestGrayDecoderReused: one decoder through images of other sizes and
// kinds, a damaged one among them, gives what image/png gives for each.
func TestGrayDecoderReused(t *testing.T) {
	var d GrayDecoder
	rgba := image.NewRGBA(image.Rect(0, 0, 3, 3))
	for i, g := range []image.Image{testGray(300, 200, 1), testGray(17, 5, 2), rgba, testGray(256, 256, 3), nil, testGray(40, 700, 4)} {
		var b bytes.Buffer
		if g == nil {
			_ = EncodePNG(&b, testGray(50, 50, 5))
			data := b.Bytes()
			data[len(data)/2] ^= 0x33
			if _, err := d.Decode(bytes.NewReader(data)); err == nil {
				t.Fatalf("%d: damaged data decoded", i)
			}
			continue
		}
		if err := EncodePNG(&b, g); err != nil {
			t.Fatal(err)
		}
		got, err := d.Decode(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		want, _ := png.Decode(bytes.NewReader(b.Bytes()))
		if got.Bounds() != want.Bounds() {
			t.Fatalf("%d: bounds %v, want %v", i, got.Bounds(), want.Bounds())
		}
		if wg, ok := want.(*image.Gray); ok && !bytes.Equal(got.(*image.Gray).Pix, wg.Pix) {
			t.Fatalf("%d: pixels differ", i)
		}
	}
}
