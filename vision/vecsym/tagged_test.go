package vecsym

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

// levelMarker: a circle on a cross, its top right quarter filled.
func levelMarker(b *pageBuilder, f func(pt) pt, half, turn float64) {
	b.circle(ink, f(0), 0.5*half, 4, false, turn)
	b.path(ink, []pt{f(complex(-1, 0)), f(complex(1, 0))})
	b.path(ink, []pt{f(complex(0, -1)), f(complex(0, 1))})
	b.path(filled, []pt{f(0), f(complex(0, -0.5)), f(complex(0.35, -0.35)), f(complex(0.5, 0)), f(0)})
}

// outlinedWord draws a word as outlines (strokes inside its box), as a
// sheet's text drawn as paths is.
func outlinedWord(b *pageBuilder, r vector.Rect) {
	for x := r.X0 + 2; x < r.X1-2; x += 6 {
		b.path(ink, []pt{complex(float64(x), float64(r.Y0+2)), complex(float64(x), float64(r.Y1-2))})
	}
}

// levelLegend reads the legend's level marker, set with its two heights
// stacked right of it and a bar drawn from its centre between them, as
// two entries tagged FFB and RFB (one graphic for both). The words' boxes
// reach into the marker's box, clear of its marks.
func levelLegend(t *testing.T) (ffb, rfb *Template) {
	t.Helper()
	lg := newPage(400, 200)
	levelMarker(lg, place(complex(100, 100), 24, 0, false), 24, 0)
	lg.path(ink, []pt{complex(100, 100), complex(200, 100)}) // the bar
	words := []vector.Rect{{X0: 120, Y0: 78, X1: 198, Y1: 97}, {X0: 120, Y0: 103, X1: 190, Y1: 121}}
	for _, w := range words {
		outlinedWord(lg, w)
	}
	box := vector.Rect{X0: 70, Y0: 70, X1: 205, Y1: 130}
	var err error
	if ffb, err = NewTemplateBeside("FFB", lg.pg, box, words); err != nil {
		t.Fatal(err)
	}
	if rfb, err = NewTemplateBeside("RFB", lg.pg, box, words); err != nil {
		t.Fatal(err)
	}
	return ffb, rfb
}

// The bar a legend draws under or between the words set beside a symbol
// goes with the words: the plan's markers, set with their heights and no
// bar, are the symbol.
func TestTextRuleNotTheSymbol(t *testing.T) {
	ffb, _ := levelLegend(t)
	if len(ffb.m.glyphs) > 0 || ffb.m.box.X1 > 124+2 {
		t.Fatalf("the template keeps the words or their bar (box %v)", ffb.m.box)
	}
	b := newPage(1200, 400)
	for i := range 3 {
		levelMarker(b, place(complex(float64(200+350*i), 200), 22, 0, false), 22, 0)
	}
	dets := matchPage(t, b, []*Template{ffb})
	if len(dets) != 3 {
		t.Errorf("%d markers found, want 3", len(dets))
	}
}

// Twins tagged FFB and RFB are told apart on the plan by "FB:" and "RB:"
// beside them (the tag shortened: its first and last letters, the rest in
// order); a marker no tag names is neither and is not counted.
func TestTwinsByAbbreviatedTag(t *testing.T) {
	ffb, rfb := levelLegend(t)
	b := newPage(1600, 400)
	for i := range 4 {
		levelMarker(b, place(complex(float64(200+400*i), 200), 24, 0, false), 24, 0)
	}
	word := func(x float64, s string) symbols.Word {
		return symbols.Word{Box: geom.Box{XMin: x + 30, YMin: 170, XMax: x + 50, YMax: 184}, Text: s}
	}
	words := []symbols.Word{word(200, "FB:"), word(600, "RB:"), word(1000, "FB:")}
	_, n := matchTagged(t, b, []*Template{ffb, rfb}, words)
	if n["FFB"] != 2 || n["RFB"] != 1 || len(n) != 2 {
		t.Errorf("counts %v, want FFB 2, RFB 1 and the untagged marker neither", n)
	}
}

// Two markers stacked close, each with its tag at its upper right: the
// upper one stands nearer the lower one's tag than its own. Each takes its
// own: the lower one, which has no other tag in reach, takes its tag from
// the upper one, which takes the other (left); and of two ways to pair
// tags both in reach, the nearer in all (right).
func TestStackedTagsEachTheirOwn(t *testing.T) {
	ffb, rfb := levelLegend(t)
	b := newPage(1200, 600)
	marks := []pt{complex(800, 300), complex(800, 365), complex(300, 300), complex(300, 360)}
	for _, c := range marks {
		levelMarker(b, place(c, 24, 0, false), 24, 0)
	}
	at := func(x, y float64, s string) symbols.Word {
		return symbols.Word{Box: geom.Box{XMin: x - 10, YMin: y - 7, XMax: x + 10, YMax: y + 7}, Text: s}
	}
	words := []symbols.Word{at(854, 261, "FB:"), at(854, 327, "RB:"), at(345, 275, "FB:"), at(345, 318, "RB:")}
	dets, _ := matchTagged(t, b, []*Template{ffb, rfb}, words)
	got := map[pt]string{}
	for _, d := range dets {
		got[complex(float64(int((d.Box.XMin+d.Box.XMax)/2+0.5)), float64(int((d.Box.YMin+d.Box.YMax)/2+0.5)))] = d.Label
	}
	for i, c := range marks {
		want := "FFB"
		if i%2 == 1 {
			want = "RFB"
		}
		if got[c] != want {
			t.Errorf("marker at %v: %q, want %q (all: %v)", c, got[c], want, got)
		}
	}
}

// A glyph drawn across a symbol's line (an arrowhead set as a letter) is
// a part of the symbol, though the legend reads it as a word.
func TestGlyphAcrossLineKept(t *testing.T) {
	lg := newPage(200, 100)
	lg.path(ink, []pt{complex(10, 50), complex(90, 50)})
	lg.glyph('V', complex(50, 50), 30, -1.5708)
	tm, err := NewTemplateBeside("DIM", lg.pg, vector.Rect{X0: 5, Y0: 20, X1: 95, Y1: 80}, []vector.Rect{{X0: 38, Y0: 35, X1: 62, Y1: 65}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tm.m.glyphs) != 1 {
		t.Errorf("%d glyphs, want the V across the line", len(tm.m.glyphs))
	}
}
