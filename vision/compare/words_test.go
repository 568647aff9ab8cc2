package compare

import (
	"image"
	"slices"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A quarter-turned page's block list holds the words wholly inside its
// block: a word ending a fraction of a pixel past B's edge is not in it,
// while A, cut wider, has it. Words are compared only where both lists are
// whole.
func TestCommonComparesWordsWhereBothListsAreWhole(t *testing.T) {
	word := func(s string, x0, y0, x1, y1 float64) text.Word {
		return text.Word{Text: s, Box: geom.Box{XMin: x0, YMin: y0, XMax: x1, YMax: y1}, Line: 1, Conf: 1}
	}
	a := &Side{Image: image.NewGray(image.Rect(0, 0, 400, 300)), DPI: 300, Words: []text.Word{
		word("LOCATIONS", 50, 100, 150, 120), // well inside both
		word("EXACT", 160, 100, 209.2, 120),  // maps to 0.8 px inside B's right edge
		word("BEYOND", 300, 100, 380, 120),   // past B: not compared
	}}
	b := &Side{Image: image.NewGray(image.Rect(0, 0, 200, 300)), DPI: 300, Words: []text.Word{
		word("LOCATIONS", 40, 90, 140, 110),
		word("NOTE", 5, 50, 60, 70),        // wholly inside A through t
		word("EDGE", 195, 200, 199.5, 210), // within the tolerance of B's edge
	}}
	tr := Transform{Scale: 1, Tx: -10, Ty: -10} // A's pixels onto B's
	ca, cb := common(a, b, tr)
	texts := func(ws []text.Word) []string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Text)
		}
		return out
	}
	if got, want := texts(ca.Words), []string{"LOCATIONS"}; !slices.Equal(got, want) {
		t.Errorf("A's words compared %v, want %v", got, want)
	}
	if got, want := texts(cb.Words), []string{"LOCATIONS", "NOTE"}; !slices.Equal(got, want) {
		t.Errorf("B's words compared %v, want %v", got, want)
	}
	// B's words across A's edge (A ends at B's y 280) are left out; those
	// wholly beyond it stay
	b.Words = []text.Word{word("ACROSS", 100, 275, 150, 285), word("BELOW", 100, 285, 150, 295)}
	_, cb = common(a, b, Transform{Scale: 1, Ty: -20})
	if got, want := texts(cb.Words), []string{"BELOW"}; !slices.Equal(got, want) {
		t.Errorf("B's words compared %v, want %v", got, want)
	}
}

// A text layer breaks a line drawn a few degrees off level into "lines"
// at word spaces; the phrase is the whole line again, while the lines
// above and below, and a word of another line further along, stay apart.
func TestTextPhrasesJoinASlantedLineBrokenByTheTextLayer(t *testing.T) {
	w := func(s string, line int, x0, y0, x1 float64) text.Word {
		return text.Word{Text: s, Box: geom.Box{XMin: x0, YMin: y0, XMax: x1, YMax: y0 + 30}, Line: line, Conf: 1}
	}
	ws := []text.Word{
		w("WITH", 1, 100, 100, 170), w("THE", 1, 180, 101, 235), w("EDIT", 1, 245, 102, 320),
		w("IONS", 2, 320, 104, 390), w("OF", 2, 400, 105, 430), // the same line, slanted, broken at "EDIT|IONS"
		w("CODE", 3, 100, 160, 180), // the next line
		w("NOTE", 4, 452, 106, 520), // another line's word 0.73 heights on
	}
	var got []string
	for _, p := range textPhrases(ws, func(b geom.Box) geom.Box { return b }, func(geom.Box) bool { return false }) {
		got = append(got, p.text)
	}
	slices.Sort(got)
	if want := []string{"CODE", "NOTE", "WITH THE EDIT IONS OF"}; !slices.Equal(got, want) {
		t.Errorf("phrases %q, want %q", got, want)
	}
}
