package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func randomGray(w, h int, seed uint64) *image.Gray {
	r := rand.New(rand.NewPCG(seed, 2))
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = uint8(r.IntN(256))
	}
	return g
}

func TestThumbnail(t *testing.T) {
	src := randomGray(1000, 700, 1)
	for _, tc := range []struct {
		max, w, h int
	}{
		{256, 256, 179},
		{500, 500, 350},
		{333, 333, 233},
		{1, 1, 1},
		{1000, 1000, 700}, // fits: a copy
		{4000, 1000, 700},
	} {
		th := Thumbnail(src, tc.max)
		if th.Rect != image.Rect(0, 0, tc.w, tc.h) {
			t.Errorf("Thumbnail(1000×700, %d) = %v; want %d×%d", tc.max, th.Rect, tc.w, tc.h)
			continue
		}
		if m, want := mean(th), mean(src); math.Abs(m-want) > 0.5 {
			t.Errorf("max %d: mean %.3f; want %.3f", tc.max, m, want)
		}
	}
	tall := Thumbnail(randomGray(70, 1000, 2), 100)
	if tall.Rect != image.Rect(0, 0, 7, 100) {
		t.Errorf("tall thumbnail %v", tall.Rect)
	}
	// The copy does not alias the source.
	small := randomGray(10, 10, 3)
	c := Thumbnail(small, 100)
	c.Pix[0]++
	if c.Pix[0] == small.Pix[0] {
		t.Error("Thumbnail of a small image aliases it")
	}
}

func TestResizeIsExactAreaAverage(t *testing.T) {
	// 3 → 2: output 0 covers source [0, 1.5), output 1 covers [1.5, 3).
	src := &image.Gray{Pix: []uint8{30, 90, 240}, Stride: 3, Rect: image.Rect(0, 0, 3, 1)}
	got := Resize(src, 2, 1)
	want := []uint8{50, 190} // (30 + 0.5·90)/1.5, (0.5·90 + 240)/1.5
	if !bytes.Equal(got.Pix, want) {
		t.Errorf("Resize 3→2 = %v; want %v", got.Pix, want)
	}
	// Against a float reference on random sizes, including sub-images.
	big := randomGray(97, 61, 4)
	sub := big.SubImage(image.Rect(5, 3, 90, 60)).(*image.Gray)
	for _, sz := range [][2]int{{10, 7}, {85, 57}, {1, 1}, {42, 13}, {84, 56}} {
		got := Resize(sub, sz[0], sz[1])
		ref := refResize(sub, sz[0], sz[1])
		for i := range ref {
			if d := math.Abs(float64(got.Pix[i]) - ref[i]); d > 0.5+1e-9 {
				t.Fatalf("%v: pixel %d = %d; reference %.3f", sz, i, got.Pix[i], ref[i])
			}
		}
	}
}

// refResize is area averaging in floating point.
func refResize(src *image.Gray, w, h int) []float64 {
	b := src.Bounds()
	sw, sh := float64(b.Dx()), float64(b.Dy())
	out := make([]float64, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			x0, x1 := float64(x)*sw/float64(w), float64(x+1)*sw/float64(w)
			y0, y1 := float64(y)*sh/float64(h), float64(y+1)*sh/float64(h)
			var s float64
			for sy := int(y0); float64(sy) < y1; sy++ {
				wy := math.Min(y1, float64(sy+1)) - math.Max(y0, float64(sy))
				for sx := int(x0); float64(sx) < x1; sx++ {
					wx := math.Min(x1, float64(sx+1)) - math.Max(x0, float64(sx))
					s += wx * wy * float64(src.GrayAt(b.Min.X+sx, b.Min.Y+sy).Y)
				}
			}
			out[y*w+x] = s / ((x1 - x0) * (y1 - y0))
		}
	}
	return out
}

func TestHalve(t *testing.T) {
	src := &image.Gray{Pix: []uint8{
		10, 20, 30,
		30, 40, 50,
		100, 200, 7,
	}, Stride: 3, Rect: image.Rect(0, 0, 3, 3)}
	got := Halve(src)
	// Blocks: (10+20+30+40)/4=25, (30+50)/2=40, (100+200)/2=150, 7.
	if got.Rect != image.Rect(0, 0, 2, 2) || !bytes.Equal(got.Pix, []uint8{25, 40, 150, 7}) {
		t.Errorf("Halve = %v %v", got.Rect, got.Pix)
	}
	// Repeated halving keeps the mean (the rounding alternates).
	g := randomGray(1024, 1024, 5)
	want := mean(g)
	for range 10 {
		g = Halve(g)
	}
	if g.Rect.Dx() != 1 || math.Abs(float64(g.Pix[0])-want) > 1 {
		t.Errorf("10 halvings: %v %d; mean was %.2f", g.Rect, g.Pix[0], want)
	}
	// Large enough to run in parallel bands; must equal the serial result.
	big := randomGray(1500, 999, 6)
	sub := big.SubImage(image.Rect(1, 1, 1499, 998)).(*image.Gray)
	h := Halve(sub)
	for y := 0; y < h.Rect.Dy(); y += 97 {
		for x := 0; x < h.Rect.Dx(); x += 89 {
			sx, sy := 1+2*x, 1+2*y
			s := int(big.GrayAt(sx, sy).Y) + int(big.GrayAt(sx+1, sy).Y) + int(big.GrayAt(sx, sy+1).Y) + int(big.GrayAt(sx+1, sy+1).Y)
			if d := float64(h.GrayAt(x, y).Y) - float64(s)/4; math.Abs(d) > 0.75 {
				t.Fatalf("(%d,%d) = %d; want %.2f", x, y, h.GrayAt(x, y).Y, float64(s)/4)
			}
		}
	}
}

type tileStore struct {
	mu    sync.Mutex
	tiles map[string][]byte
}

func (s *tileStore) put(_ context.Context, name string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.tiles[name]; dup {
		return fmt.Errorf("tile %s written twice", name)
	}
	s.tiles[name] = data
	return nil
}

func TestDZILevels(t *testing.T) {
	for _, tc := range []struct{ w, h, levels int }{
		{1, 1, 1}, {2, 1, 2}, {3, 3, 3}, {256, 256, 9}, {257, 10, 10}, {1000, 700, 11}, {10800, 7200, 15},
	} {
		if n := DZILevels(tc.w, tc.h); n != tc.levels {
			t.Errorf("DZILevels(%d,%d) = %d; want %d", tc.w, tc.h, n, tc.levels)
		}
	}
}

func TestWriteDZI(t *testing.T) {
	src := randomGray(1000, 700, 7)
	st := &tileStore{tiles: map[string][]byte{}}
	desc, err := WriteDZI(context.Background(), src, 256, 1, "png", st.put)
	if err != nil {
		t.Fatal(err)
	}
	wantDesc := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<Image TileSize="256" Overlap="1" Format="png" xmlns="http://schemas.microsoft.com/deepzoom/2008"><Size Width="1000" Height="700"/></Image>` + "\n"
	if string(desc) != wantDesc {
		t.Errorf("descriptor:\n%s\nwant:\n%s", desc, wantDesc)
	}

	// Level sizes: ceil(1000/2^k) × ceil(700/2^k).
	levelSize := map[int][2]int{10: {1000, 700}, 9: {500, 350}, 8: {250, 175}, 7: {125, 88}, 6: {63, 44},
		5: {32, 22}, 4: {16, 11}, 3: {8, 6}, 2: {4, 3}, 1: {2, 2}, 0: {1, 1}}
	// Expected tiles with their sizes (overlap 1 on inner edges).
	want := map[string][2]int{}
	xs := [][2]int{{0, 257}, {255, 513}, {511, 769}, {767, 1000}}
	ys := [][2]int{{0, 257}, {255, 513}, {511, 700}}
	for c, x := range xs {
		for r, y := range ys {
			want[fmt.Sprintf("10/%d_%d.png", c, r)] = [2]int{x[1] - x[0], y[1] - y[0]}
		}
	}
	want["9/0_0.png"] = [2]int{257, 257}
	want["9/1_0.png"] = [2]int{500 - 255, 257}
	want["9/0_1.png"] = [2]int{257, 350 - 255}
	want["9/1_1.png"] = [2]int{500 - 255, 350 - 255}
	for l := 0; l <= 8; l++ {
		want[fmt.Sprintf("%d/0_0.png", l)] = levelSize[l]
	}
	if len(st.tiles) != len(want) || len(want) != 25 {
		var names []string
		for n := range st.tiles {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Fatalf("%d tiles %v; want %d", len(st.tiles), names, len(want))
	}
	for name, wh := range want {
		data, ok := st.tiles[name]
		if !ok {
			t.Errorf("missing tile %s", name)
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != wh[0] || b.Dy() != wh[1] {
			t.Errorf("%s is %v; want %d×%d", name, b.Size(), wh[0], wh[1])
		}
	}
	// Full-resolution tiles are exact copies of the source.
	tile, _ := png.Decode(bytes.NewReader(st.tiles["10/2_1.png"]))
	g := tile.(*image.Gray)
	for y := 0; y < g.Rect.Dy(); y++ {
		for x := 0; x < g.Rect.Dx(); x++ {
			if g.GrayAt(x, y) != src.GrayAt(511+x, 255+y) {
				t.Fatalf("tile 10/2_1 (%d,%d) differs from the source", x, y)
			}
		}
	}
	// Reduced levels keep the mean; the 1×1 level is the image mean.
	m := mean(src)
	for _, name := range []string{"8/0_0.png", "5/0_0.png", "0/0_0.png"} {
		img, _ := png.Decode(bytes.NewReader(st.tiles[name]))
		if got := mean(img.(*image.Gray)); math.Abs(got-m) > 1.5 {
			t.Errorf("%s mean %.2f; source %.2f", name, got, m)
		}
	}
}

func TestWriteDZIOtherShapes(t *testing.T) {
	for _, tc := range []struct {
		w, h, tile, overlap int
		format              string
		tiles               int
	}{
		{1, 1, 256, 1, "png", 1},
		{256, 256, 256, 0, "png", 9},             // one tile per level
		{257, 256, 256, 0, "jpg", 11},            // 2 tiles at the top level
		{600, 50, 100, 2, "jpeg", 6 + 3 + 2 + 8}, // levels 0..10; only the top 3 have >1 tile
		{10, 1000, 256, 1, "png", 4 + 2 + 1 + 8},
	} {
		st := &tileStore{tiles: map[string][]byte{}}
		src := randomGray(tc.w, tc.h, 8)
		desc, err := WriteDZI(context.Background(), src, tc.tile, tc.overlap, tc.format, st.put)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.tiles) != tc.tiles {
			t.Errorf("%d×%d tile %d: %d tiles; want %d", tc.w, tc.h, tc.tile, len(st.tiles), tc.tiles)
		}
		if !bytes.Contains(desc, fmt.Appendf(nil, `Format="%s"`, tc.format)) {
			t.Errorf("descriptor %s", desc)
		}
		if tc.format != "png" {
			name := fmt.Sprintf("0/0_0.%s", tc.format)
			if _, err := jpeg.Decode(bytes.NewReader(st.tiles[name])); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

func TestWriteDZIErrors(t *testing.T) {
	src := randomGray(2000, 1500, 9)
	boom := errors.New("disk full")
	var n atomic.Int32
	_, err := WriteDZI(context.Background(), src, 256, 1, "png", func(ctx context.Context, name string, data []byte) error {
		switch c := n.Add(1); {
		case c == 5:
			return boom
		case c > 5:
			// a put after the failure waits until the writer has seen it (the
			// failing worker may be descheduled for a while on a loaded
			// machine), so what is counted does not hang on timing
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("put error: %v", err)
	}
	// each worker is at most in one put and one encoding when the failure lands
	if c, most := n.Load(), 5+int32(2*runtime.GOMAXPROCS(0)); c > most {
		t.Errorf("%d puts; want at most %d", c, most)
	}

	ctx, cancel := context.WithCancel(context.Background())
	n.Store(0)
	_, err = WriteDZI(ctx, src, 256, 1, "png", func(ctx context.Context, name string, data []byte) error {
		if n.Add(1) == 3 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	for _, bad := range []struct {
		tile, overlap int
		format        string
	}{{0, 0, "png"}, {256, 256, "png"}, {256, -1, "png"}, {256, 1, "webp"}} {
		if _, err := WriteDZI(context.Background(), src, bad.tile, bad.overlap, bad.format, nil); err == nil {
			t.Errorf("WriteDZI(%+v) accepted", bad)
		}
	}
}

func TestEncodePNG(t *testing.T) {
	g := randomGray(300, 200, 10)
	var b bytes.Buffer
	if err := EncodePNG(&b, g); err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.(*image.Gray).Pix, g.Pix) {
		t.Error("round trip differs")
	}
}

// TestWriteDZIColor tiles a colour picture: every level's tiles are there,
// in colour, and a red square keeps its colour and place at full size and
// half of it after one reduction.
func TestWriteDZIColor(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 600, 400))
	for i := range src.Pix {
		src.Pix[i] = 255
	}
	for y := 100; y < 140; y++ {
		for x := 300; x < 340; x++ {
			src.SetRGBA(x, y, color.RGBA{220, 30, 30, 255})
		}
	}
	tiles := map[string][]byte{}
	var mu sync.Mutex
	desc, err := WriteDZIColor(context.Background(), src, 256, 1, "png", func(_ context.Context, name string, data []byte) error {
		mu.Lock()
		tiles[name] = data
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(desc), `Width="600" Height="400"`) {
		t.Errorf("descriptor %s", desc)
	}
	levels := DZILevels(600, 400)
	want := 0
	for l := 0; l < levels; l++ {
		w, h := DZILevelSize(600, 400, l)
		want += ((w + 255) / 256) * ((h + 255) / 256)
	}
	if len(tiles) != want {
		t.Errorf("%d tiles, want %d", len(tiles), want)
	}
	at := func(name string, x, y int) color.RGBA {
		img, err := png.Decode(bytes.NewReader(tiles[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, g, b, a := img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	top := levels - 1
	// full size: (310, 110) is in tile 1_0, which starts at x 255 (overlap 1)
	if c := at(fmt.Sprintf("%d/1_0.png", top), 310-255, 110); c.R != 220 || c.G != 30 {
		t.Errorf("full size: %v, want the red square", c)
	}
	if c := at(fmt.Sprintf("%d/0_0.png", top), 10, 10); c != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("full size paper: %v", c)
	}
	// one reduction: the square at (150–170, 50–70)
	if c := at(fmt.Sprintf("%d/0_0.png", top-1), 160, 60); c.R != 220 || c.G != 30 {
		t.Errorf("half size: %v, want the red square", c)
	}
}
