package legend

import (
	"image"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

func blankImage(w, h int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	return img
}

// An abbreviation list set in two term/meaning column pairs (no "="):
// each term is its own entry, not the whole row.
func TestTwoColumnPairsOfTerms(t *testing.T) {
	img := blankImage(900, 200)
	var words []text.Word
	put := func(line int, x, y float64, s string) {
		words = append(words, text.Word{Text: s, Line: line, Conf: 1, Box: geom.Box{XMin: x, YMin: y, XMax: x + 9*float64(len(s)), YMax: y + 15}})
	}
	rows := [][4]string{{"AB", "ANCHOR", "IN", "INCH"}, {"ADJ", "ADJUSTABLE", "INT", "INTERIOR"}, {"BD", "BOARD", "JT", "JOINT"}, {"BM", "BEAM", "KD", "KILN"}}
	for i, r := range rows {
		y := float64(20 + 35*i)
		put(2*i, 10, y, r[0])
		put(2*i, 120, y, r[1])
		put(2*i+1, 450, y, r[2])
		put(2*i+1, 560, y, r[3])
	}
	got := map[string]string{}
	n := 0
	for _, e := range Parse(img, words) {
		got[e.Label] = e.Description
		n++
	}
	if n != 8 {
		t.Errorf("%d entries, want 8: %v", n, got)
	}
	for _, r := range rows {
		if got[r[0]] != r[1] || got[r[2]] != r[3] {
			t.Errorf("row %v: read %q → %q, %q → %q", r, r[0], got[r[0]], r[2], got[r[2]])
		}
	}
}

// A symbol with a suffix set after it in its cell names the entry; a
// symbol-font glyph of the text layer (one letter in a box far wider than
// it) is the graphic's ink, not a label.
func TestSuffixNamesTheSymbol(t *testing.T) {
	img := blankImage(500, 120)
	circle := func(cx, cy, r int) {
		for y := cy - r; y <= cy+r; y++ {
			for x := cx - r; x <= cx+r; x++ {
				if d := (x-cx)*(x-cx) + (y-cy)*(y-cy); d <= r*r && d >= (r-2)*(r-2) {
					img.Pix[y*img.Stride+x] = 0
				}
			}
		}
	}
	circle(30, 30, 12)
	// row 2: a wide glyph "S" drawn over a stroke, read from the text layer
	for y := 70; y < 90; y++ {
		for x := 15; x < 55; x++ {
			if y == 80 || x == 35 {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	words := []text.Word{
		{Text: "WP", Conf: 1, Box: geom.Box{XMin: 48, YMin: 24, XMax: 70, YMax: 40}},
		{Text: "WATERPROOF", Conf: 1, Box: geom.Box{XMin: 150, YMin: 24, XMax: 250, YMax: 40}},
		{Text: "RECEPTACLE", Conf: 1, Box: geom.Box{XMin: 258, YMin: 24, XMax: 358, YMax: 40}},
		{Text: "S", Conf: 1, Box: geom.Box{XMin: 15, YMin: 72, XMax: 55, YMax: 88}},
		{Text: "SWITCH", Conf: 1, Box: geom.Box{XMin: 150, YMin: 72, XMax: 210, YMax: 88}},
	}
	got := Parse(img, words)
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	if e := got[0]; e.Label != "WP" || e.Description != "WATERPROOF RECEPTACLE" || !e.HasGraphic {
		t.Errorf("suffix: %+v", e)
	}
	if e := got[1]; e.Label != "SWITCH" || !e.HasGraphic || e.Graphic.XMin > 16 || e.Graphic.XMax < 54 {
		t.Errorf("glyph: %+v", e)
	}
}
