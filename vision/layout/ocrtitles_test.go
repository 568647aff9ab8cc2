package layout

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// ocrRead marks words as OCR's (a confidence below 1).
func ocrRead(ws []text.Word) []text.Word {
	for i := range ws {
		ws[i].Conf = 0.9
	}
	return ws
}

// titledViews draws a sheet with two views side by side whose titles OCR
// read on one row, the second led by its bubble as OCR reads a ring ("(3>"),
// close enough to the first title that the two run into one line.
func titledViews(t *testing.T, lead string) []string {
	img := blank(1400, 800)
	rectOutline(img, 10, 10, 1390, 790, 3)
	fillRect(img, 1200, 10, 1203, 790)
	words := drawWords(img, nil, 1, 1220, 720, 40, "A101")
	rectOutline(img, 60, 100, 500, 400, 3) // the two views' outlines
	rectOutline(img, 560, 100, 1100, 400, 3)
	for i := 0; i < 12; i++ { // notes elsewhere set the type size
		words = drawWords(img, words, 10+i, 60, 520+16*float64(i), 10, "ALL WORK TO COMPLY WITH")
	}
	words = drawWords(img, words, 2, 60, 430, 18, "POST-MOUNTED SIGN")
	fillRect(img, 60, 452, 300, 454)
	words = drawWords(img, words, 2, 350, 430, 18, lead+" PLAN - SIGN TYPE 9A")
	fillRect(img, 390, 452, 700, 454)
	words = ocrRead(words)
	var got []string
	for _, vt := range Analyze(img, words).viewTitles() {
		got = append(got, vt.kind+" "+vt.title)
	}
	return got
}

// OCR reads a view number's bubble into the number as brackets ("(3>",
// "(2»"): the line is cut before it and the title found without it, as for
// a number ringed by ink outside its word's box.
func TestOCRRingReadIntoViewNumber(t *testing.T) {
	if ringRead(text.Word{Text: "(3)", Conf: 1}) || !ringRead(text.Word{Text: "(3)", Conf: 0.9}) {
		t.Error("a text layer's \"(3)\" is a note's reference, OCR's a ringed number")
	}
	for _, lead := range []string{"(3>", "(2»", "<10)", "@o6."} {
		got := titledViews(t, lead)
		found := false
		for _, g := range got {
			found = found || g == "Plan PLAN - SIGN TYPE 9A"
		}
		if !found {
			t.Errorf("%q: titles %q, want one \"Plan PLAN - SIGN TYPE 9A\"", lead, got)
		}
	}
}

// A view title without a kind word whose scale line OCR read only in part
// ("Scale: 1\"", the rest of the ratio lost or apart) is still a title set
// apart by its scale; its scale is left unknown.
func TestScaleLabelWithLostRatio(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 10, 10, 1190, 790, 3)
	fillRect(img, 1000, 10, 1003, 790)
	words := drawWords(img, nil, 1, 1020, 720, 40, "A101")
	rectOutline(img, 150, 100, 650, 400, 3)
	for i := 0; i < 12; i++ {
		words = drawWords(img, words, 10+i, 720, 100+16*float64(i), 10, "ALL WORK TO COMPLY WITH")
	}
	words = drawWords(img, words, 2, 150, 430, 18, "POST-MOUNTED SIGN")
	words = drawWords(img, words, 3, 150, 455, 10, `Scale: 1"`)
	words = ocrRead(words)
	var got []string
	for _, vt := range Analyze(img, words).viewTitles() {
		got = append(got, vt.title+" | "+vt.scale)
	}
	if len(got) != 1 || got[0] != "POST-MOUNTED SIGN | " {
		t.Errorf("titles %q, want [\"POST-MOUNTED SIGN | \"]", got)
	}
}

// In a scanned schedule OCR boxes a cell's word over the table's rule it
// read into it ("|JANITOR'S") or over a mark beside it (a narrow "HOLDER"
// twice as tall as its letters): those lines rank no title, and the
// table's heading names it.
func TestStretchedOCRWordsRankNoTitle(t *testing.T) {
	img := blank(500, 600)
	words := drawWords(img, nil, 1, 40, 20, 14, "SIGNAGE SCHEDULE - LOWER LEVEL")
	for i := 0; i < 20; i++ {
		words = drawWords(img, words, 10+i, 40, 60+20*float64(i), 10, "1A 1 EXIT STAIR")
	}
	words = append(words,
		text.Word{Text: "|JANITOR'S", Line: 40, Box: geom.Box{XMin: 40, YMin: 480, XMax: 40 + 10*0.7*12, YMax: 480 + 24}},
		text.Word{Text: "HOLDER", Line: 41, Box: geom.Box{XMin: 40, YMin: 520, XMax: 40 + 6*0.7*12, YMax: 520 + 40}},
	)
	words = ocrRead(words)
	if b := classify(rect{0, 0, 500, 600}, words, 10); b.Type != "Schedule" {
		t.Errorf("classified %q %q, want a Schedule", b.Type, b.Title)
	}
}

// A column of notes under its heading whose words cover little of it (OCR
// boxes them tightly, its lines set wide apart) is a body of notes titled
// by its heading, not a drawing: it holds almost no linework. As wordy a
// region drawn over is no body of text.
func TestSparseNotesColumn(t *testing.T) {
	page := func(drawn bool) (*Page, []text.Word) {
		img := blank(1200, 1000)
		rectOutline(img, 10, 10, 1190, 990, 3)
		fillRect(img, 1000, 10, 1003, 990)
		words := drawWords(img, nil, 1, 1020, 900, 40, "A101")
		rectOutline(img, 80, 40, 420, 960, 2) // the column's frame
		words = drawWords(img, words, 2, 100, 60, 18, "PROJECT TEAM")
		for i := 0; i < 9; i++ {
			words = drawWords(img, words, 10+i, 100, 110+95*float64(i), 7, "OWNER: J. SMITH, 12 MAIN STREET")
		}
		if drawn { // a drawing's linework among the words: slanting lines
			for k := 0; k < 28; k++ {
				for d := 0; d < 280; d++ {
					fillRect(img, 100+d, 110+30*k+d/4, 102+d, 113+30*k+d/4)
				}
			}
		}
		return Analyze(img, ocrRead(words)), words
	}
	p, words := page(false)
	var got []string
	for _, b := range p.Blocks(words[0].Box) {
		if b.Type != "TitleBlock" {
			got = append(got, b.Type+" "+b.Title)
		}
	}
	if len(got) != 1 || got[0] != "GeneralNotes PROJECT TEAM" {
		t.Errorf("notes column: blocks %q, want [\"GeneralNotes PROJECT TEAM\"]", got)
	}
	col := rect{90, 50, 400, 920}
	if !p.textBody(col, wordsIn(col, p.mw)) {
		t.Error("the notes column is no body of text")
	}
	if p, _ := page(true); p.textBody(col, wordsIn(col, p.mw)) {
		t.Error("the column drawn over is a body of text")
	}
}

// A view's title set far under its view (its dimensions end ten type
// heights over it) and close over the next row's view is still its view's,
// as the sheet's other titles are under theirs: the view and its title are
// one block, not a view without a title and a title alone.
func TestTitleFarUnderItsView(t *testing.T) {
	img := blank(1600, 1100)
	rectOutline(img, 10, 10, 1590, 1090, 3)
	fillRect(img, 1400, 10, 1403, 1090)
	words := drawWords(img, nil, 1, 1420, 1000, 40, "A201")
	elevation := func(x0, y0, x1, y1 int) {
		rectOutline(img, x0, y0, x1, y1, 4) // walls and roof
		for x := x0 + 30; x < x1; x += 60 {
			fillRect(img, x, y0+20, x+20, y0+60) // windows
		}
		fillRect(img, x0-30, y1, x1+30, y1+3) // ground line
	}
	elevation(100, 60, 600, 300) // EAST: its title 10 em under it
	words = drawWords(img, words, 2, 150, 390, 16, "EAST ELEVATION")
	words = drawWords(img, words, 3, 150, 410, 8, `SCALE: 1/4"=1'-0"`)
	elevation(800, 60, 1300, 340)
	words = drawWords(img, words, 4, 850, 360, 16, "NORTH ELEVATION")
	words = drawWords(img, words, 5, 850, 380, 8, `SCALE: 1/4"=1'-0"`)
	elevation(100, 440, 600, 880) // the next row, close under EAST's title
	words = drawWords(img, words, 6, 150, 910, 16, "WEST ELEVATION")
	words = drawWords(img, words, 7, 150, 930, 8, `SCALE: 1/4"=1'-0"`)
	elevation(800, 440, 1300, 880)
	words = drawWords(img, words, 8, 850, 910, 16, "SOUTH ELEVATION")
	words = drawWords(img, words, 9, 850, 930, 8, `SCALE: 1/4"=1'-0"`)
	for i := 0; i < 6; i++ { // notes elsewhere set the type size
		words = drawWords(img, words, 20+i, 1420, 100+12*float64(i), 8, "ALL WORK TO COMPLY")
	}
	var east []Block
	for _, b := range Segment(img, ocrRead(words), words[0].Box) {
		if b.Title == "EAST ELEVATION" || b.Type == "Plan" && b.Box.YMax < 430 {
			east = append(east, b)
		}
	}
	if len(east) != 1 || east[0].Type != "Elevation" || east[0].Box.YMin > 80 || east[0].Box.YMax < 410 {
		t.Errorf("the east elevation's blocks %+v, want one Elevation from its top (y 60) to its title (y 410)", east)
	}
}

// A view its title does not name, whose scale OCR read only as far as its
// left side, is typed by that side where it tells: 3" or 1 1/2" (an
// architect's X" = 1'-0", 1:24 or larger) a detail, 1/4" a plan; 1" may be
// an engineer's 1" = 20' and leaves the view a plan.
func TestPartScaleTypesView(t *testing.T) {
	for scale, want := range map[string]string{`Scale: 3"`: "Detail", `SCALE: 1 1/2"=`: "Detail", `Scale: 1/4"`: "Plan", `Scale: 1"`: "Plan"} {
		img := blank(1200, 800)
		rectOutline(img, 10, 10, 1190, 790, 3)
		fillRect(img, 1000, 10, 1003, 790)
		words := drawWords(img, nil, 1, 1020, 720, 40, "A101")
		fillRect(img, 150, 100, 400, 103) // walls, with openings: no frame
		fillRect(img, 440, 100, 650, 103)
		fillRect(img, 150, 397, 300, 400)
		fillRect(img, 340, 397, 650, 400)
		for x := 170; x < 650; x += 40 {
			fillRect(img, x, 100, x+2, 400)
		}
		for i := 0; i < 12; i++ {
			words = drawWords(img, words, 10+i, 720, 100+16*float64(i), 10, "ALL WORK TO COMPLY WITH")
		}
		words = drawWords(img, words, 2, 150, 430, 18, "POST-MOUNTED SIGN")
		words = drawWords(img, words, 3, 150, 455, 10, scale)
		got := ""
		for _, b := range Segment(img, ocrRead(words), words[0].Box) {
			if b.Title == "POST-MOUNTED SIGN" {
				got = b.Type
			}
		}
		if got != want {
			t.Errorf("%q: the view typed %q, want %s", scale, got, want)
		}
	}
}
