package layout

import (
	"testing"

	"github.com/plangraph/plangraph/vision/text"
)

// A heading set in two lines ("ROOM FINISH LEGEND &" over
// "ABBREVIATIONS", the lines touching) heads one block: the second line
// does not cut a new block as a second heading would, and the title is
// both lines.
func TestTwoLineHeading(t *testing.T) {
	img := blank(1000, 700)
	words := drawWords(img, nil, 1, 100, 100, 20, "ROOM FINISH LEGEND &")
	words = drawWords(img, words, 2, 100, 119, 21, "ABBREVIATIONS")
	for i, y := 0, 170.0; y < 600; i, y = i+1, y+16 {
		words = drawWords(img, words, 3+i, 100, y, 10, "ACT ACOUSTICAL CEILING TILE")
	}
	p := Analyze(img, words)
	if p == nil {
		t.Fatal("no page")
	}
	r := rect{int(90 * p.k), int(95 * p.k), int(600 * p.k), int(600 * p.k)}
	if got := p.splitNotes([]region{{r: r}}, nil); len(got) != 1 {
		t.Errorf("cut in %d: %v", len(got), got)
	}
	if b := classify(r, p.mw, p.em); b.Title != "ROOM FINISH LEGEND & ABBREVIATIONS" {
		t.Errorf("title %q", b.Title)
	}
	var ws []text.Word
	for _, w := range p.mw {
		if w.Line <= 2 {
			ws = append(ws, w)
		}
	}
	if ls := rowLines(ws); len(ls) != 2 {
		t.Fatalf("the heading's lines: %d", len(ls))
	}
}
