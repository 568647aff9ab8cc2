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
