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

// drawRing draws a circle's outline 2 px wide, centred at (cx, cy).
func drawRing(img *image.Gray, cx, cy, r int) {
	for y := cy - r; y <= cy+r; y++ {
		for x := cx - r; x <= cx+r; x++ {
			if d := (x-cx)*(x-cx) + (y-cy)*(y-cy); d <= r*r && d >= (r-2)*(r-2) {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
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
	drawRing(img, 30, 30, 12)
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

// Two ruled sub-tables set side by side, their rows offset by a quarter
// of a row: each row's items stay with their own table's row, not with
// the overlapping row of the table beside it.
func TestOffsetSubTablesKeepTheirRows(t *testing.T) {
	img := blankImage(1000, 200)
	hline := func(y, x0, x1 int) {
		for x := x0; x <= x1; x++ {
			img.Pix[y*img.Stride+x] = 0
		}
	}
	vline := func(x, y0, y1 int) {
		for y := y0; y <= y1; y++ {
			img.Pix[y*img.Stride+x] = 0
		}
	}
	var words []text.Word
	put := func(x, y float64, s string) {
		words = append(words, text.Word{Text: s, Conf: 1, Box: geom.Box{XMin: x, YMin: y, XMax: x + 10*float64(len(s)), YMax: y + 20}})
	}
	left := []string{"SWITCH", "DIMMER", "OUTLET", "JACK"}
	right := [][2]string{{"DAMP", "RATED"}, {"HE", "EFFICACY"}, {"LENS", "LENSED"}, {"WP", "WATERPROOF"}}
	for i := 0; i <= 4; i++ {
		hline(10+40*i, 5, 480)
		hline(20+40*i, 520, 995)
	}
	for _, x := range []int{5, 80, 480} {
		vline(x, 10, 170)
	}
	for _, x := range []int{520, 995} {
		vline(x, 20, 180)
	}
	for i := range 4 {
		cy := 30 + 40*i
		drawRing(img, 40, cy, 8)
		put(100, float64(cy-10), left[i])
		put(540, float64(cy), right[i][0])
		put(700, float64(cy), right[i][1])
	}
	got := map[string]Entry{}
	for _, e := range Parse(img, words) {
		got[e.Label] = e
	}
	for _, l := range left {
		if e, ok := got[l]; !ok || e.Description != l || !e.HasGraphic {
			t.Errorf("%s: read %+v, want the symbol described by its own text only (all: %v)", l, e, got)
		}
	}
	for _, r := range right {
		if e, ok := got[r[0]]; !ok || e.Description != r[1] || e.HasGraphic {
			t.Errorf("%s: read %+v, want the text entry %q", r[0], e, r[1])
		}
	}
}

// A symbol's name set after it labels its entry even when a note follows
// its description in the row ("TAMPER-RESISTANT" beside "WATERPROOF BOX").
func TestSuffixNameBeforeANote(t *testing.T) {
	img := blankImage(700, 60)
	drawRing(img, 30, 30, 12)
	words := []text.Word{
		{Text: "WP/GFI", Conf: 1, Box: geom.Box{XMin: 48, YMin: 22, XMax: 100, YMax: 38}},
		{Text: "WATERPROOF", Conf: 1, Box: geom.Box{XMin: 150, YMin: 22, XMax: 250, YMax: 38}},
		{Text: "BOX", Conf: 1, Box: geom.Box{XMin: 258, YMin: 22, XMax: 290, YMax: 38}},
		{Text: "TAMPER-RESISTANT", Conf: 1, Box: geom.Box{XMin: 450, YMin: 22, XMax: 610, YMax: 38}},
	}
	es := Parse(img, words)
	if len(es) != 1 || es[0].Label != "WP/GFI" || !es[0].HasGraphic || es[0].Description != "WATERPROOF BOX TAMPER-RESISTANT" {
		t.Errorf("read %+v, want one entry WP/GFI described as WATERPROOF BOX TAMPER-RESISTANT", es)
	}
}

// A symbol drawn as hatching from rule to rule in its table cell (a
// covered walkway's vertical lines) is the entry's graphic, not the
// table's column lines.
func TestHatchedCellIsAGraphic(t *testing.T) {
	img := blankImage(600, 130)
	line := func(x0, y0, x1, y1 int) {
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	for _, y := range []int{10, 60, 110} {
		line(5, y, 590, y)
	}
	for _, x := range []int{5, 100, 590} {
		line(x, 10, x, 110)
	}
	for x := 20; x <= 85; x += 8 { // row 2: the hatch
		line(x, 60, x, 110)
	}
	line(20, 35, 85, 36) // row 1: a line style
	words := []text.Word{
		{Text: "FENCE", Conf: 1, Box: geom.Box{XMin: 120, YMin: 25, XMax: 170, YMax: 45}},
		{Text: "WALKWAY", Conf: 1, Box: geom.Box{XMin: 120, YMin: 75, XMax: 200, YMax: 95}},
	}
	got := map[string]Entry{}
	for _, e := range Parse(img, words) {
		got[e.Label] = e
	}
	if e, ok := got["WALKWAY"]; !ok || !e.HasGraphic || e.Graphic.Width() < 50 {
		t.Errorf("WALKWAY read %+v, want its hatch as the graphic (all: %v)", e, got)
	}
	if e, ok := got["FENCE"]; !ok || !e.HasGraphic {
		t.Errorf("FENCE read %+v, want its line as the graphic", e)
	}
}
