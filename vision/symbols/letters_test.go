package symbols

import (
	"context"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

// TestSymbolsToldApartByLetters: two legend symbols drawn alike, one with
// an S inside and one with OS (here the same outline twice), each drawn
// once on the plan with its letters in the text layer. Without the words,
// both outlines are found for either symbol; with them, each place goes to
// the symbol its words read as — in either order, the other symbol's
// detection there dropped before it could claim the place — and a place
// whose words read as neither (a tag) keeps what the outline found.
func TestSymbolsToldApartByLetters(t *testing.T) {
	tmpls, _, img, a, b, _ := onWordScene(t)
	sw, os := tmpls[0], tmpls[0]
	sw.Label, sw.Text = "S1", "S"
	os.Label, os.Text = "OS", "O S"
	inside := func(at geom.Box, s string) Word {
		cx, cy := (at.XMin+at.XMax)/2, (at.YMin+at.YMax)/2
		return Word{Box: geom.Box{XMin: cx - 6, YMin: cy - 5, XMax: cx + 6, YMax: cy + 5}, Text: s}
	}
	labelAt := func(res Result, at geom.Box) []string {
		var out []string
		for _, d := range res.Detections {
			if d.Box.IoU(at) >= 0.5 {
				out = append(out, d.Label)
			}
		}
		return out
	}
	run := func(tm []Template, letters ...Word) Result {
		t.Helper()
		res, err := Match(context.Background(), img, tm, Options{Letters: letters})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// each symbol alone, without words, finds both places
	for _, tm := range []Template{sw, os} {
		if res := run([]Template{tm}); !found(res, a) || !found(res, b) {
			t.Fatalf("%s alone finds %+v, want both places", tm.Label, res.Detections)
		}
	}
	for _, order := range [][]Template{{sw, os}, {os, sw}} {
		res := run(order, inside(a, "so"), inside(b, "S"))
		if got := labelAt(res, a); len(got) != 1 || got[0] != "OS" {
			t.Errorf("templates %s, %s: the place reading SO has %v, want OS", order[0].Label, order[1].Label, got)
		}
		if got := labelAt(res, b); len(got) != 1 || got[0] != "S1" {
			t.Errorf("templates %s, %s: the place reading S has %v, want S1", order[0].Label, order[1].Label, got)
		}
		if res.Stats.OtherText == 0 {
			t.Errorf("templates %s, %s: no detection dropped for another symbol's letters", order[0].Label, order[1].Label)
		}
	}
	// a word that is neither symbol's text inside, or another's beside the
	// box, tells nothing: no detection is dropped
	beside := Word{Box: geom.Box{XMin: b.XMax + 2, YMin: b.YMin, XMax: b.XMax + 40, YMax: b.YMin + 12}, Text: "OS"}
	res := run([]Template{sw, os}, inside(a, "D17"), beside)
	if !found(res, a) || !found(res, b) || res.Stats.OtherText != 0 {
		t.Errorf("words that read as no other symbol's: %+v, %d dropped; want both places, none dropped", res.Detections, res.Stats.OtherText)
	}
	if got := LetterKey("h/s-2"); got != "2HS" {
		t.Errorf("LetterKey(h/s-2) = %q", got)
	}
}
