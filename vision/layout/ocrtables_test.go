package layout

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// ocrWords are words as OCR reads them: a confidence, boxes as given.
func ocrWords(conf float64, line int, x, y, h float64, s ...string) []text.Word {
	var ws []text.Word
	for _, w := range s {
		wd := float64(len(w)) * 0.7 * h
		ws = append(ws, text.Word{Text: w, Conf: conf, Line: line, Box: geom.Box{XMin: x, YMin: y, XMax: x + wd, YMax: y + h}})
		x += wd + 0.5*h
	}
	return ws
}

// A schedule's title, centred at its top, is its title though the arcs of
// a revision cloud across the table, read by OCR with little confidence
// ("Asa 7 PAA"), make a taller line, and a word under an arc is boxed
// taller.
func TestCloudReadingIsNoTitle(t *testing.T) {
	words := ocrWords(0.96, 1, 300, 8, 10, "ROOM", "FINISH", "SCHEDULE", "BASEMENT")
	words = append(words, ocrWords(0.45, 2, 200, 60, 17, "Asa", "7", "PAA")...)
	for y := 45.0; y < 200; y += 15 {
		words = append(words, ocrWords(0.95, int(y), 20, y, 5, "CPT-1", "RB-1", "P-1", "ACT-1")...)
	}
	b := classify(rect{0, 0, 800, 200}, words, 5)
	if b.Type != "Schedule" || b.Title != "ROOM FINISH SCHEDULE BASEMENT" {
		t.Errorf("classified as %s %q", b.Type, b.Title)
	}
	// a word an arc crosses, read with confidence but boxed taller than
	// the title, does not outrank a title centred at the table's top
	words = append(words, ocrWords(0.85, 3, 600, 120, 12, "AREA")...)
	if b := classify(rect{0, 0, 800, 200}, words, 5); b.Type != "Schedule" || b.Title != "ROOM FINISH SCHEDULE BASEMENT" {
		t.Errorf("with a tall word: classified as %s %q", b.Type, b.Title)
	}
}

// A region is headed by a title centred over it, set a little below its
// top (a schedule's title row), as by one at its top left; a line of body
// type, or one off to a side, heads nothing.
func TestCentredHeading(t *testing.T) {
	r := rect{0, 0, 800, 300}
	body := ocrWords(0.95, 9, 20, 60, 5, "CPT-1", "RB-1", "P-1", "ACT-1")
	for _, c := range []struct {
		head []text.Word
		want bool
	}{
		{ocrWords(0.96, 1, 280, 6, 9, "ROOM", "FINISH", "SCHEDULE"), true},
		{ocrWords(0.96, 1, 10, 3, 9, "ROOM", "FINISH", "SCHEDULE"), true},
		{ocrWords(0.96, 1, 560, 6, 9, "ROOM", "FINISH", "SCHEDULE"), false},
		{ocrWords(0.96, 1, 280, 6, 5, "ROOM", "FINISH", "SCHEDULE"), false},
	} {
		if got := headed(r, append(c.head, body...), 5); got != c.want {
			t.Errorf("heading at %v: headed %v, want %v", c.head[0].Box, got, c.want)
		}
	}
}

// A ruled table whose rows hold a word OCR boxed as tall as a heading (a
// revision cloud's arc through it) is not cut there as a column of notes
// under headings.
func TestTableIsNoNotesColumn(t *testing.T) {
	img := blank(1000, 700)
	x0, x1 := 100, 900
	fillRect(img, x0, 100, x1, 102)
	for y := 130; y <= 610; y += 30 { // rows
		fillRect(img, x0, y, x1, y+2)
	}
	for _, x := range []int{x0, 250, 500, 700, x1 - 2} { // columns
		fillRect(img, x, 100, x+2, 612)
	}
	var words []text.Word
	for y := 108.0; y < 600; y += 30 {
		words = append(words, ocrWords(0.95, int(y), 110, y, 14, "CPT-1")...)
		words = append(words, ocrWords(0.95, int(y), 260, y, 14, "RB-1")...)
		words = append(words, ocrWords(0.95, int(y), 510, y, 14, "P-1")...)
	}
	// "AREA" under an arc, boxed three rows tall, and "SEE PLAN" likewise
	words = append(words, ocrWords(0.85, 90, 710, 260, 40, "AREA")...)
	words = append(words, ocrWords(0.8, 91, 710, 440, 40, "SEE", "PLAN")...)
	p := Analyze(img, words)
	if p == nil {
		t.Fatal("no page")
	}
	table := rect{int(float64(x0) * p.k), int(100 * p.k), int(float64(x1) * p.k), int(612 * p.k)}
	if !p.ruledTable(table, wordsIn(table, p.mw)) {
		t.Fatalf("the table is no table")
	}
	if got := p.splitNotes([]region{{r: table}}, nil); len(got) != 1 {
		t.Errorf("the table cut in %d: %v", len(got), got)
	}
}
