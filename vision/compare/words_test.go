package compare

import (
	"slices"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A quarter-turned page's block list holds the words wholly inside its
// block: a word ending a fraction of a pixel past B's edge is not in it,
// while A, cut wider, has it. That is not a text change; the same word
// missing well inside B is.
func TestAnalyzeWordAtBsEdgeInOneListOnly(t *testing.T) {
	draw := func(f *fpdf.Fpdf) {
		drawPlan(f)
		receptacle(f, 80, 60)
	}
	a, b := drawSide(t, draw), drawSide(t, draw)
	ov := testOverlay(a, b, Identity, 3)
	w := float64(b.Image.Rect.Dx())
	word := func(s string, x0, x1 float64) text.Word {
		return text.Word{Text: s, Box: geom.Box{XMin: x0, YMin: 100, XMax: x1, YMax: 125}, Line: 1, Conf: 1}
	}
	for _, c := range []struct {
		at   float64 // where A's last word ends
		want int
	}{{w + 0.2, 0}, {w - 1, 0}, {w - 60, 1}} {
		b.Words = []text.Word{word("LOCATIONS", c.at-260, c.at-60)}
		a.Words = append(slices.Clone(b.Words), word("EXACT", c.at-52, c.at))
		if cs := Analyze(a, b, ov, Options{}); len(cs) != c.want {
			t.Errorf("EXACT ending at %.1f of %.0f: %d changes, want %d:%s", c.at, w, len(cs), c.want, describe(cs))
		}
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
	for _, p := range textPhrases(ws, func(b geom.Box) geom.Box { return b }, func(geom.Box) bool { return false }, nil) {
		got = append(got, p.text)
	}
	slices.Sort(got)
	if want := []string{"CODE", "NOTE", "WITH THE EDIT IONS OF"}; !slices.Equal(got, want) {
		t.Errorf("phrases %q, want %q", got, want)
	}
}

// Unchanged ink read by both text layers with the same words in another
// order (a stacked "6 X 0/C" listed "X 6 0/C" on a reprint) is no text
// change; another word over the same ink still is (exact strings).
func TestAnalyzeSameWordsOtherOrder(t *testing.T) {
	draw := func(f *fpdf.Fpdf) {
		drawPlan(f)
		receptacle(f, 80, 60)
	}
	a, b := drawSide(t, draw), drawSide(t, draw)
	ov := testOverlay(a, b, Identity, 3)
	word := func(s string, x0 float64) text.Word {
		return text.Word{Text: s, Box: geom.Box{XMin: x0, YMin: 100, XMax: x0 + 30, YMax: 125}, Line: 1, Conf: 1}
	}
	for _, c := range []struct {
		a, b []string
		want int
	}{
		{[]string{"6", "X", "0/C"}, []string{"X", "6", "0/C"}, 0},
		{[]string{"6", "X", "0/C"}, []string{"8", "X", "0/C"}, 1},
	} {
		a.Words, b.Words = nil, nil
		for i := range c.a {
			a.Words = append(a.Words, word(c.a[i], 100+40*float64(i)))
			b.Words = append(b.Words, word(c.b[i], 100+40*float64(i)))
		}
		if cs := Analyze(a, b, ov, Options{}); len(cs) != c.want {
			t.Errorf("%q → %q: %d changes, want %d:%s", c.a, c.b, len(cs), c.want, describe(cs))
		}
	}
}
