package render

import (
	"image"
	"testing"
)

func TestOnSheetGrid(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 5, 3))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	out, dx, dy := OnSheetGrid(img, 107.06+MatchGrid, 135.9)
	if dx != 107 || dy != 135 || out.Rect.Dx() != 112 || out.Rect.Dy() != 138 {
		t.Fatalf("padding %d,%d, size %v", dx, dy, out.Rect)
	}
	for y := 0; y < out.Rect.Dy(); y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			want := uint8(255)
			if x >= dx && y >= dy {
				want = img.GrayAt(x-dx, y-dy).Y
			}
			if got := out.GrayAt(x, y).Y; got != want {
				t.Fatalf("pixel %d,%d = %d, want %d", x, y, got, want)
			}
		}
	}
	// already on the grid, and a sub-image: unchanged
	if out, dx, dy := OnSheetGrid(img, 2*MatchGrid, 0); out != img || dx != 0 || dy != 0 {
		t.Errorf("aligned block padded by %d,%d", dx, dy)
	}
	sub := img.SubImage(image.Rect(1, 1, 4, 3)).(*image.Gray)
	out, dx, dy = OnSheetGrid(sub, MatchGrid+1, 1)
	if dx != 1 || dy != 1 || out.GrayAt(1, 1).Y != img.GrayAt(1, 1).Y || out.GrayAt(3, 2).Y != img.GrayAt(3, 2).Y {
		t.Errorf("sub-image padded wrongly: %d,%d %v", dx, dy, out.Pix)
	}
}

// Line samples open at both ends are line styles; closed shapes, however
// long, and compact symbols are not.
func TestLineStyle(t *testing.T) {
	paper := func(w, h int) *image.Gray {
		img := image.NewGray(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = 255
		}
		return img
	}
	hline := func(img *image.Gray, y, x0, x1 int) {
		for x := x0; x < x1; x++ {
			img.Pix[y*img.Stride+x] = 0
		}
	}
	vline := func(img *image.Gray, x, y0, y1 int) {
		for y := y0; y < y1; y++ {
			img.Pix[y*img.Stride+x] = 0
		}
	}
	dashed := paper(120, 10)
	for x := 0; x < 120; x += 12 {
		hline(dashed, 5, x, min(x+8, 120))
		hline(dashed, 6, x, min(x+8, 120))
	}
	wall := paper(120, 20) // a wall type: two lines, hatching between
	hline(wall, 2, 0, 120)
	hline(wall, 16, 0, 120)
	for x := 4; x < 116; x += 8 {
		vline(wall, x, 5, 14)
	}
	strip := paper(120, 20) // a strip light: a long closed rectangle
	hline(strip, 2, 0, 120)
	hline(strip, 16, 0, 120)
	vline(strip, 0, 2, 17)
	vline(strip, 119, 2, 17)
	upright := paper(20, 120) // the same, standing
	vline(upright, 2, 0, 120)
	vline(upright, 16, 0, 120)
	square := paper(30, 30)
	hline(square, 0, 0, 30)
	hline(square, 29, 0, 30)
	vline(square, 0, 0, 30)
	vline(square, 29, 0, 30)
	for name, c := range map[string]struct {
		img  *image.Gray
		want bool
	}{
		"dashed line": {dashed, true}, "wall type": {wall, true}, "standing pair of lines": {upright, true},
		"strip light": {strip, false}, "square": {square, false},
	} {
		ink, ok := InkBounds(c.img)
		if !ok {
			t.Fatalf("%s: blank", name)
		}
		if got := LineStyle(c.img, ink); got != c.want {
			t.Errorf("%s (%v): line style %v, want %v", name, ink, got, c.want)
		}
	}
}
