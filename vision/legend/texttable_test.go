package legend

import (
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A ruled finishes table (tag | description rows, issue 24's tb-lktn) has
// no symbols: a doubtful OCR mark between two words of a description (a
// bold "x" in "200mm x 300mm"), an
// unread heading word over the next line of its heading and a column line
// drawn on past the last row rule into a heading row are text and table,
// not graphics to search the drawings for.
func TestTextTableHasNoGraphics(t *testing.T) {
	img := blankImage(400, 400)
	set := func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	set(10, 10, 390, 12)   // top
	set(10, 10, 12, 390)   // left
	set(388, 10, 390, 390) // right
	set(10, 388, 390, 390) // bottom
	for _, y := range []int{50, 90, 130, 190} {
		set(10, y, 390, y+2) // row rules
	}
	set(80, 50, 82, 150) // the column line, on past the rule at 130
	var words []text.Word
	word := func(s string, conf float64, x0, y0, x1 int) {
		words = append(words, text.Word{Text: s, Conf: conf, Box: geom.Box{XMin: float64(x0), YMin: float64(y0), XMax: float64(x1), YMax: float64(y0 + 16)}})
	}
	// row 1: a heading whose first line OCR did not read (five letters)
	for x := 20; x < 80; x += 12 {
		set(x, 16, x+9, 32)
	}
	word("FINISHES", 0.96, 20, 33, 100)
	// row 2: a tag and "200mm x 300mm", the x a doubtful bold mark
	word("CT", 0.95, 30, 62, 50)
	word("200mm", 0.95, 90, 62, 140)
	word("x", 0.3, 148, 64, 158)
	set(148, 64, 158, 78)
	word("300mm", 0.95, 166, 62, 216)
	word("tiles", 0.95, 224, 62, 264)
	// row 3: a tag and a description
	word("CR", 0.95, 30, 102, 50)
	word("Cement", 0.95, 90, 102, 150)
	word("renda", 0.9, 158, 102, 200)
	// the heading row the column line runs into
	word("WALL", 0.95, 20, 134, 70)
	word("FINISHES", 0.95, 90, 134, 170)
	got := Parse(img, words)
	if len(got) < 2 || got[0].Description != "200mm x 300mm tiles" || got[1].Label != "CR" {
		t.Errorf("want the two tag rows first, whole: %+v", got)
	}
	for _, e := range got {
		if e.HasGraphic {
			t.Errorf("entry %q %q: graphic %v, want text only", e.Label, e.Description, e.Graphic)
		}
	}
}

// A symbol drawn as a row of letter-like pieces in its own column (a stop
// cock), its text beyond a gap, stays a graphic.
func TestLetterLikeSymbolStays(t *testing.T) {
	img := blankImage(300, 60)
	for _, x := range []int{20, 36, 52} {
		for y := 20; y < 40; y++ {
			for xx := x; xx < x+12; xx++ {
				if y == 20 || y == 39 || xx == x || xx == x+11 {
					img.Pix[y*img.Stride+xx] = 0
				}
			}
		}
	}
	words := []text.Word{
		{Text: "DSC", Conf: 0.45, Box: geom.Box{XMin: 20, YMin: 20, XMax: 64, YMax: 40}},
		{Text: "stop", Conf: 1, Box: geom.Box{XMin: 90, YMin: 22, XMax: 120, YMax: 38}},
		{Text: "cock", Conf: 1, Box: geom.Box{XMin: 126, YMin: 22, XMax: 156, YMax: 38}},
	}
	got := Parse(img, words)
	if len(got) != 1 || !got[0].HasGraphic || got[0].Label != "stop cock" {
		t.Errorf("%+v", got)
	}
}

// A list of abbreviations set in two term/meaning column pairs, one of its
// terms a glyph OCR could not read ("&"): that row's glyph and meaning are
// one entry and the pair beside them another, as on every other row.
func TestUnreadTermInTextColumns(t *testing.T) {
	img := blankImage(420, 200)
	for y := 22; y < 38; y++ { // the "&", drawn where the terms start
		for x := 22; x < 34; x++ {
			if y == 22 || y == 37 || x == 22 || x == 33 || x-22 == y-22 {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	var words []text.Word
	row := func(y int, cells ...string) {
		for i, c := range cells {
			if c == "" {
				continue
			}
			x := []int{20, 80, 220, 280}[i]
			for _, s := range strings.Fields(c) {
				w := 9 * len(s)
				words = append(words, text.Word{Text: s, Conf: 0.95, Box: geom.Box{XMin: float64(x), YMin: float64(y), XMax: float64(x + w), YMax: float64(y + 16)}})
				x += w + 6
			}
		}
	}
	row(22, "", "and", "IN", "inch")
	row(52, "AB", "anchor bolt", "INT", "interior")
	row(82, "ADJ", "adjustable", "JT", "joint")
	row(112, "AFF", "above floor", "KD", "kiln dried")
	row(142, "ALT", "alternate", "LB", "pound")
	got := Parse(img, words)
	var in, amp bool
	for _, e := range got {
		in = in || e.Label == "IN" && e.Description == "inch" && !e.HasGraphic
		amp = amp || e.Description == "and" && e.HasGraphic
	}
	if len(got) != 10 || !in || !amp {
		t.Errorf("want 10 entries, the glyph's with \"and\" and \"IN\" = \"inch\" apart: %+v", got)
	}
}

// A bracket OCR left unread at the end of a table's note ("(H\" x W\"" and
// its ")") is the note's punctuation, not a symbol closing its row: the
// tag rows under it stay tag and description.
func TestUnreadBracketIsNoGraphic(t *testing.T) {
	img := blankImage(700, 260)
	for y := 16; y < 44; y++ { // ")", taller than the capitals, against W"
		x := 180 - (y-30)*(y-30)/50
		for d := 0; d < 3; d++ {
			img.Pix[y*img.Stride+x+d] = 0
		}
	}
	for y := 10; y < 250; y++ { // the column line between tags and texts
		img.Pix[y*img.Stride+70] = 0
		img.Pix[y*img.Stride+71] = 0
	}
	var words []text.Word
	line := func(x, y int, s string) {
		for _, f := range strings.Fields(s) {
			w := 11 * len(f)
			words = append(words, text.Word{Text: f, Conf: 0.95, Box: geom.Box{XMin: float64(x), YMin: float64(y), XMax: float64(x + w), YMax: float64(y + 20)}})
			x += w + 8
		}
	}
	line(90, 20, `(H" x W"`)
	for i, s := range []string{"7.5\" x 6.5\" PHOTOPOLYMER", "11\" x 6.5\" PHOTOPOLYMER, RAISED", "3\" x 6.5\" PHOTOPOLYMER", "4\" x 6.5\" PHOTOPOLYMER", "9\" x 12\" PHOTOPOLYMER"} {
		y := 60 + 36*i
		line(20, y, []string{"1A", "1B", "2A", "4B", "4D"}[i])
		line(90, y, s)
	}
	got := Parse(img, words)
	if len(got) != 5 || got[0].Label != "1A" || got[0].Description != "7.5\" x 6.5\" PHOTOPOLYMER" || got[4].Label != "4D" {
		t.Errorf("want the five tag rows: %+v", got)
	}
	for _, e := range got {
		if e.HasGraphic {
			t.Errorf("entry %q: graphic %v, want text only", e.Label, e.Graphic)
		}
	}
}
