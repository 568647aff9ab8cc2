package jobs

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
