package parse

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// TestWordsThatVeto: the words sure to be text show a textless symbol's
// detection to be text: a PDF text layer's words and OCR's confident ones
// of two letters or digits or more; not OCR's reading of a symbol as a
// letter, nor a word it was unsure of, nor punctuation.
func TestWordsThatVeto(t *testing.T) {
	for _, c := range []struct {
		w    text.Word
		want bool
	}{
		{text.Word{Text: "MEN", Conf: 1}, true},
		{text.Word{Text: "A-12", Conf: 1}, true},
		{text.Word{Text: "12", Conf: 0.9}, true},
		{text.Word{Text: "O", Conf: 0.95}, false},  // OCR's reading of a circle
		{text.Word{Text: "OIO", Conf: 0.6}, false}, // unsure
		{text.Word{Text: "-.-", Conf: 1}, false},   // no letters
	} {
		if got := vetoes(c.w); got != c.want {
			t.Errorf("vetoes(%q, %.2f) = %v, want %v", c.w.Text, c.w.Conf, got, c.want)
		}
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
	g := geom.Box{XMin: 10, YMin: 5, XMax: 50, YMax: 30}
	if in := graphicWords(g, words); len(in) != 1 { // "GFI" mostly inside
		t.Errorf("a graphic with GFI in it holds %v", in)
	} else if s, boxes := lettering(in, g); s != "GFI" || len(boxes) != 1 || boxes[0] != (geom.Box{XMin: 22, YMin: 9, XMax: 44, YMax: 21}) {
		t.Errorf("a graphic with GFI in it reads %q at %v in its stored image", s, boxes)
	}
	if in := graphicWords(geom.Box{XMin: 10, YMin: 5, XMax: 84, YMax: 30}, words[1:]); len(in) != 0 {
		t.Error("a graphic with its description beside it has text")
	}
	if in := graphicWords(geom.Box{XMin: 10, YMin: 5, XMax: 100, YMax: 30}, words[1:]); len(in) != 0 { // touches DUPLEX's first letter
		t.Error("a graphic touching a word's edge has text")
	}
}
