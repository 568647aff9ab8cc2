package legend

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// An abbreviation list read by OCR: its "=" signs are marks OCR reads
// with a box wider than tall (no symbol glyph), at times boxed down over
// the next row, set a word space and a half from the term ("TS  ="); a
// meaning with an umlaut is doubted (0.38); a letter's stem falls outside
// its word's box. Every row is still a term and its meaning, none a
// graphic.
func TestOCRAbbreviationList(t *testing.T) {
	img := blankImage(700, 160)
	ink := func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	var words []text.Word
	// word draws letter-like strokes in its box and adds it as OCR read it
	word := func(s string, conf float64, x, y, w int) {
		for sx := x + 1; sx+2 <= x+w; sx += 6 {
			ink(sx, y+1, sx+2, y+14)
		}
		words = append(words, text.Word{Text: s, Conf: conf, Box: geom.Box{XMin: float64(x), YMin: float64(y), XMax: float64(x + w), YMax: float64(y + 15)}})
	}
	// equals draws an "=" and adds it with the box OCR gave (yMin, yMax)
	equals := func(x, y, yMin, yMax int) {
		ink(x, y+4, x+14, y+6)
		ink(x, y+9, x+14, y+11)
		words = append(words, text.Word{Text: "=", Conf: 0.93, Box: geom.Box{XMin: float64(x), YMin: float64(yMin), XMax: float64(x + 14), YMax: float64(yMax)}})
	}
	row := func(y int, term string, tw, gap int, meaning string, mw int, conf float64, x int) {
		word(term, 0.95, x, y, tw)
		equals(x+tw+gap, y, y+4, y+11)
		word(meaning, conf, x+tw+2*gap+14, y, mw)
	}
	row(20, "AK", 20, 8, "Außenkante", 90, 0.9, 10)
	row(20, "TS", 20, 21, "Trennschiene", 100, 0.9, 360)
	row(50, "BRH", 30, 8, "Brüstungshöhe", 110, 0.38, 10)
	row(50, "FH", 20, 8, "Feuerhemmend", 110, 0.9, 360)
	// an "=" boxed from the row above's baseline down past its own
	word("BS", 0.95, 10, 80, 20)
	equals(38, 80, 62, 100)
	word("Bodenschlitz", 0.9, 60, 80, 100)
	row(80, "GK", 20, 8, "Gipskarton", 90, 0.9, 360)
	// an "H" whose right stem OCR's box leaves out
	row(110, "E", 10, 8, "Elektro", 60, 0.9, 10)
	row(110, "H", 10, 8, "Heizung", 60, 0.9, 360)
	ink(370, 111, 371, 125)

	got := Parse(img, words)
	want := map[string]string{"AK": "Außenkante", "TS": "Trennschiene", "BRH": "Brüstungshöhe", "FH": "Feuerhemmend",
		"BS": "Bodenschlitz", "GK": "Gipskarton", "E": "Elektro", "H": "Heizung"}
	if len(got) != len(want) {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for _, e := range got {
		if want[e.Label] != e.Description || e.HasGraphic {
			t.Errorf("entry %q | %q graphic %v", e.Label, e.Description, e.HasGraphic)
		}
	}
}

// A symbol OCR read as a mark ("=", doubted) beside the text layer's own
// "=" ("symbol = tap point") stays a graphic: two marks side by side are
// no line of text, though a word above starts at its left edge.
func TestMarkBesideMarkStaysGraphic(t *testing.T) {
	img := blankImage(300, 180)
	for y := 128; y < 150; y++ {
		for x := 36; x < 70; x++ {
			if y == 128 || y == 149 || x == 36 || x == 69 || y-128 == (x-36)*22/34 {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	drawRing(img, 51, 97, 16)
	words := []text.Word{
		ocrWord("m", 1, 42, 83, 60, 112),
		ocrWord("=", 1, 99, 89, 112, 118),
		ocrWord("water", 1, 118, 89, 171, 118),
		ocrWord("meter", 1, 177, 89, 233, 118),
		ocrWord("=", 0.45, 36, 128, 70, 149),
		ocrWord("=", 1, 98, 129, 111, 158),
		ocrWord("tap", 1, 117, 129, 147, 158),
		ocrWord("point", 1, 153, 129, 201, 158),
	}
	got := Parse(img, words)
	var tap *Entry
	for i, e := range got {
		if e.Description == "tap point" {
			tap = &got[i]
		}
	}
	if tap == nil || !tap.HasGraphic || tap.Graphic.YMin < 120 {
		t.Fatalf("tap point's symbol lost: %+v", got)
	}
}

// A level marker's height, OCR'd as "+4,37°" over the marker and boxed a
// word space from the row's text beside it ("FFB = Fertigfußboden"), is
// the marker's inscription: both rows beside the marker are entries with
// it as their graphic.
func TestInscriptionBeforeItsRow(t *testing.T) {
	img := blankImage(700, 140)
	drawRing(img, 90, 72, 22)
	for x := 49; x < 172; x++ {
		img.Pix[72*img.Stride+x], img.Pix[73*img.Stride+x] = 0, 0
	}
	words := []text.Word{
		ocrWord("+4,37°", 0.92, 98, 16, 212, 52),
		ocrWord("FFB", 0.95, 227, 36, 288, 62),
		ocrWord("=", 0.93, 306, 45, 327, 56),
		ocrWord("Fertigfußboden", 0.92, 347, 34, 610, 69),
		ocrWord("-0,15", 0.93, 97, 80, 161, 101),
		ocrWord("RFB", 0.93, 227, 84, 293, 110),
		ocrWord("=", 0.93, 311, 93, 332, 104),
		ocrWord("Rohfußboden", 0.9, 352, 82, 580, 110),
	}
	got := Parse(img, words)
	want := map[string]string{"FFB": "Fertigfußboden", "RFB": "Rohfußboden"}
	if len(got) != len(want) {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for _, e := range got {
		if want[e.Label] != e.Description || !e.HasGraphic || e.Graphic.XMax > 230 {
			t.Errorf("entry %q | %q graphic %v %v", e.Label, e.Description, e.HasGraphic, e.Graphic)
		}
	}
}

// ocrWord is a word OCR read at conf, boxed x0, y0, x1, y1.
func ocrWord(s string, conf, x0, y0, x1, y1 float64) text.Word {
	return text.Word{Text: s, Conf: conf, Box: geom.Box{XMin: x0, YMin: y0, XMax: x1, YMax: y1}}
}

// OCR boxes a word from the row above to the row below ("GWB" over "CT"
// and "LVT"): its own band of ink places it, and its row stays a term and
// its meaning. A symbol drawn like a letter, read as one twice the
// lettering's height (a corner guard's "L"), stays the entry's graphic.
func TestTallOCRBoxes(t *testing.T) {
	img := blankImage(500, 130)
	var words []text.Word
	// word draws letter stems in x0..x1, y..y+15, and adds it boxed as given
	word := func(s string, conf, x0, x1, y, by0, by1 float64) {
		for sx := int(x0) + 1; sx+2 <= int(x1); sx += 6 {
			for yy := int(y) + 1; yy < int(y)+14; yy++ {
				img.Pix[yy*img.Stride+sx], img.Pix[yy*img.Stride+sx+1] = 0, 0
			}
		}
		words = append(words, ocrWord(s, conf, x0, by0, x1, by1))
	}
	row := func(y float64, term string, tx1 float64, meaning ...string) {
		word(term, 0.95, 10, tx1, y, y, y+15)
		x := 150.0
		for _, m := range meaning {
			w := float64(len(m)) * 10
			word(m, 0.95, x, x+w, y, y, y+15)
			x += w + 8
		}
	}
	// the corner guard: "CG", an "L" 30 px tall, "CORNER GUARD"
	word("CG", 0.95, 10, 32, 10, 10, 25)
	for yy := 3; yy < 33; yy++ {
		img.Pix[yy*img.Stride+80], img.Pix[yy*img.Stride+81] = 0, 0
	}
	for x := 80; x < 100; x++ {
		img.Pix[31*img.Stride+x], img.Pix[32*img.Stride+x] = 0, 0
	}
	words = append(words, ocrWord("L", 0.86, 78, 3, 101, 33))
	word("CORNER", 0.97, 150, 210, 10, 10, 25)
	word("GUARD", 0.97, 218, 268, 10, 10, 25)
	row(50, "CT", 30, "CERAMIC", "TILE")
	word("GWB", 0.58, 10, 40, 75, 55, 100) // boxed from CT's row to LVT's
	word("GYPSUM", 0.93, 150, 210, 75, 75, 90)
	word("BOARD", 0.93, 218, 268, 75, 75, 90)
	row(100, "LVT", 36, "LUXURY", "VINYL", "TILE")

	got := Parse(img, words)
	want := map[string]string{"CG": "CORNER GUARD", "CT": "CERAMIC TILE", "GWB": "GYPSUM BOARD", "LVT": "LUXURY VINYL TILE"}
	if len(got) != len(want) {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for _, e := range got {
		if want[e.Label] != e.Description || e.HasGraphic != (e.Label == "CG") {
			t.Errorf("entry %q | %q graphic %v", e.Label, e.Description, e.HasGraphic)
		}
	}
}
