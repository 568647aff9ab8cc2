package symbols

import (
	"context"
	"image"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render/rendertest"
)

// TestLetteringGrowsWithTheSymbol: synthetic seed 19 draws its three-way
// switch (a box with a bold S3 in it) at 1.73× and 1.78× the legend's size:
// the box keeps the pen's width while the letters, filled glyphs, grow
// 1.7× bolder. Taken for lines at the pen's width, the letters made the
// switches correlate at 0.71 (confidence 0.45 and 0.33: missed). Told where
// the legend graphic's words are (Template.TextBoxes), the matcher draws
// the lettering as an area that grows with the symbol and finds both.
func TestLetteringGrowsWithTheSymbol(t *testing.T) {
	page, st, pdf := synthSheet(t, 19)
	tp := rendertest.Words(t, pdf, 1, 300)
	var tm Template
	var boxes []geom.Box
	for _, c := range legendTemplates(page, st) {
		if c.Label != "S3" {
			continue
		}
		tm = c
		g := c.Image.Bounds()
		gb := geom.Box{XMin: float64(g.Min.X), YMin: float64(g.Min.Y), XMax: float64(g.Max.X), YMax: float64(g.Max.Y)}
		for _, w := range tp.Words {
			if a := w.Box.Area(); a > 0 && gb.Intersect(w.Box).Area() >= 0.5*a {
				boxes = append(boxes, w.Box) // the template's pixels are the page's
			}
		}
	}
	if tm.Image == nil || len(boxes) == 0 {
		t.Fatalf("seed 19 has no S3 legend graphic with words (%d)", len(boxes))
	}
	n := 0
	for _, in := range st.Instances {
		if in.Label != "S3" || in.Scale < 1.7 {
			continue
		}
		n++
		// the instance on a 1024 px window of the sheet, on its 256 px grid
		c := image.Pt(int(in.Center.X), int(in.Center.Y))
		o := image.Pt((c.X-512)/256*256, (c.Y-512)/256*256)
		view := canvas(1024, 1024)
		for y := 0; y < 1024; y++ {
			copy(view.Pix[y*view.Stride:(y+1)*view.Stride], page.Pix[page.PixOffset(o.X, o.Y+y):])
		}
		truth := in.Box.Translate(-float64(o.X), -float64(o.Y))
		res, err := Match(context.Background(), view, []Template{{Label: "S3", Image: tm.Image, TextBoxes: boxes}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !found(res, truth) {
			t.Errorf("S3 at %.2f×: %+v, want it found", in.Scale, res.Detections)
		}
	}
	if n != 2 {
		t.Fatalf("seed 19 has %d switches at 1.7× or more, want 2", n)
	}
}

// TestLetteringEnclosed: words the symbol's lines surround (inside a box)
// are lettering; words set beside its lines (at a shaft's end) are not —
// wherever the template's image lies.
func TestLetteringEnclosed(t *testing.T) {
	boxed := canvas(60, 40) // a box with a word in it
	line(boxed, 3, 3, 56, 3, 2)
	line(boxed, 56, 3, 56, 36, 2)
	line(boxed, 56, 36, 3, 36, 2)
	line(boxed, 3, 36, 3, 3, 2)
	line(boxed, 20, 14, 40, 26, 3)
	shaft := canvas(60, 40) // a shaft with a word at its end
	line(shaft, 3, 20, 30, 20, 2)
	line(shaft, 36, 14, 56, 26, 3)
	for _, c := range []struct {
		name string
		img  *image.Gray
		word geom.Box
		want int
	}{
		{"boxed", boxed, geom.Box{XMin: 117, YMin: 211, XMax: 143, YMax: 229}, 1},
		{"beside a shaft", shaft, geom.Box{XMin: 134, YMin: 211, XMax: 158, YMax: 229}, 0},
	} {
		sub := image.NewGray(image.Rect(100, 200, 160, 240)) // bounds not at 0
		copy(sub.Pix, c.img.Pix)
		cr := cropTemplate(Template{Image: sub, TextBoxes: []geom.Box{c.word}}, Options{})
		if len(cr.text) != c.want {
			t.Errorf("%s: %d lettering boxes, want %d", c.name, len(cr.text), c.want)
		}
	}
}
