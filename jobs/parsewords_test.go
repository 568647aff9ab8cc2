package jobs

import (
	"testing"

	"github.com/plangraph/plangraph/internal/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
)

// TestDetectionsOnWordsAreText: a detection of a symbol drawn without
// letters that lies on a word (a strip light on the bold room name "MEN")
// is dropped; one with a tag beside it, one on empty paper, one that OCR
// read as a letter or as a word it was unsure of, and any detection of a
// symbol drawn with letters are kept.
func TestDetectionsOnWordsAreText(t *testing.T) {
	words := []text.Word{
		{Text: "MEN", Box: geom.Box{XMin: 100, YMin: 100, XMax: 160, YMax: 124}, Conf: 1},
		{Text: "A-12", Box: geom.Box{XMin: 242, YMin: 100, XMax: 270, YMax: 112}, Conf: 1}, // a circuit tag
		{Text: "GFI", Box: geom.Box{XMin: 400, YMin: 100, XMax: 430, YMax: 116}, Conf: 1},
		// OCR's readings of symbols: a letter, and a word it is unsure of
		{Text: "O", Box: geom.Box{XMin: 700, YMin: 100, XMax: 730, YMax: 130}, Conf: 0.95},
		{Text: "OIO", Box: geom.Box{XMin: 800, YMin: 100, XMax: 840, YMax: 130}, Conf: 0.6},
	}
	dets := []symbols.Detection{
		{Template: 0, Box: geom.Box{XMin: 102, YMin: 104, XMax: 158, YMax: 120}}, // on "MEN": text
		{Template: 0, Box: geom.Box{XMin: 200, YMin: 96, XMax: 246, YMax: 116}},  // the tag overlaps its edge
		{Template: 0, Box: geom.Box{XMin: 600, YMin: 96, XMax: 650, YMax: 116}},  // on paper
		{Template: 1, Box: geom.Box{XMin: 396, YMin: 96, XMax: 434, YMax: 120}},  // a symbol with letters
		{Template: 0, Box: geom.Box{XMin: 702, YMin: 102, XMax: 728, YMax: 128}}, // read by OCR as "O"
		{Template: 0, Box: geom.Box{XMin: 802, YMin: 102, XMax: 838, YMax: 128}}, // read by OCR as "OIO", unsure
	}
	kept, dropped := dropOnWords(dets, []bool{true, false}, words)
	if dropped != 1 || len(kept) != 5 || kept[0] != dets[1] || kept[1] != dets[2] || kept[2] != dets[3] {
		t.Fatalf("dropped %d, kept %v", dropped, kept)
	}
	if kept, dropped := dropOnWords(dets, []bool{true, true}, nil); dropped != 0 || len(kept) != len(dets) {
		t.Fatalf("without words: dropped %d", dropped)
	}
	// the input is left as it was
	if dets[0].Box.XMin != 102 {
		t.Fatal("dropOnWords changed its input")
	}
}

// TestLegendGraphicsWithLetters: a legend graphic holds text when a word
// lies mostly inside its box; the entry's description beside it does not
// count.
func TestLegendGraphicsWithLetters(t *testing.T) {
	words := []text.Word{
		{Text: "GFI", Box: geom.Box{XMin: 30, YMin: 12, XMax: 52, YMax: 24}, Conf: 1},
		{Text: "DUPLEX", Box: geom.Box{XMin: 90, YMin: 10, XMax: 150, YMax: 26}, Conf: 1},
		{Text: "RECEPTACLE", Box: geom.Box{XMin: 156, YMin: 10, XMax: 250, YMax: 26}, Conf: 1},
	}
	if !graphicHasText(geom.Box{XMin: 10, YMin: 5, XMax: 50, YMax: 30}, words) { // "GFI" mostly inside
		t.Error("a graphic with GFI in it has no text")
	}
	if graphicHasText(geom.Box{XMin: 10, YMin: 5, XMax: 84, YMax: 30}, words[1:]) {
		t.Error("a graphic with its description beside it has text")
	}
	if graphicHasText(geom.Box{XMin: 10, YMin: 5, XMax: 100, YMax: 30}, words[1:]) { // touches DUPLEX's first letter
		t.Error("a graphic touching a word's edge has text")
	}
	if c := wordCoverage(geom.Box{XMin: 100, YMin: 10, XMax: 120, YMax: 26}, words); c != 1 {
		t.Errorf("a box inside a word is covered %.2f", c)
	}
}
