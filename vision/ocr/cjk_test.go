package ocr

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Tesseract's Japanese comes token by token; the tokens of one line set
// close are one word again, while Latin words, words of other lines and
// tokens a gap apart stay as they are.
func TestJoinCJK(t *testing.T) {
	w := func(s string, x0, x1 float64, line int) text.Word {
		return text.Word{Text: s, Line: line, Conf: 0.9, Box: geom.Box{XMin: x0, YMin: 100, XMax: x1, YMax: 130}}
	}
	got := joinCJK([]text.Word{
		w("シロ", 0, 60, 1), w("ッ", 62, 80, 1), w("コ", 82, 110, 1), w("ファ", 112, 170, 1), w("ン", 172, 200, 1),
		w("換気", 300, 360, 1), // a gap apart
		w("EF-1", 380, 460, 1), w("FAN", 470, 540, 1),
		w("機器", 545, 600, 2), w("表ー", 602, 660, 2),
	})
	var texts []string
	for _, g := range got {
		texts = append(texts, g.Text)
	}
	want := []string{"シロッコファン", "換気", "EF-1", "FAN", "機器表ー"}
	if len(texts) != len(want) {
		t.Fatalf("words %q, want %q", texts, want)
	}
	for i := range want {
		if texts[i] != want[i] {
			t.Errorf("words %q, want %q", texts, want)
			break
		}
	}
	if b := got[0].Box; b.XMin != 0 || b.XMax != 200 {
		t.Errorf("joined word's box %v, want x 0–200", b)
	}
}
