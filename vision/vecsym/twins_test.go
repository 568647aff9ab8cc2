package vecsym

import (
	"context"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

// receptacleTwins draws a legend of three receptacles alike — plain, tagged
// GFI in outlines beside it, and +42" — and reads them.
func receptacleTwins(t *testing.T) (plain, gfi, h42 *Template) {
	t.Helper()
	lg := newPage(600, 200)
	receptacle(lg, place(complex(100, 100), 30, 0, false), 30, 0)
	receptacle(lg, place(complex(300, 100), 30, 0, false), 30, 0)
	// "GFI" in outlines: strokes in a word's box right of the receptacle
	lg.path(ink, []pt{complex(345, 90), complex(355, 90), complex(355, 110), complex(345, 110)}, []pt{complex(360, 90), complex(360, 110)})
	receptacle(lg, place(complex(500, 100), 30, 0, false), 30, 0)
	gfi, err := NewTemplateBeside("GFI", lg.pg, vector.Rect{X0: 260, Y0: 60, X1: 370, Y1: 140}, []vector.Rect{{X0: 343, Y0: 88, X1: 363, Y1: 112}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err = NewTemplate("DUPLEX", lg.pg, vector.Rect{X0: 60, Y0: 60, X1: 140, Y1: 140})
	if err != nil {
		t.Fatal(err)
	}
	h42, err = NewTemplate("+42\"", lg.pg, vector.Rect{X0: 460, Y0: 60, X1: 540, Y1: 140})
	if err != nil {
		t.Fatal(err)
	}
	return plain, gfi, h42
}

// A legend that shows one receptacle for three entries — plain, tagged GFI
// (its tag drawn as outlines beside the graphic, inside the graphic's box)
// and tagged +42" — gives each of the plan's receptacles to the entry whose
// tag a word beside it reads, and the untagged ones to the plain entry,
// whatever the legend order of the tagged ones.
func TestTwinsByTag(t *testing.T) {
	plain, gfi, h42 := receptacleTwins(t)
	if !sameShape(plain, gfi) || !sameShape(plain, h42) {
		t.Fatal("the receptacles are not twins")
	}
	b := newPage(2000, 400)
	for i := range 6 {
		receptacle(b, place(complex(float64(200+300*i), 200), 27, 0.3*float64(i), false), 27, 0.3*float64(i))
	}
	words := []symbols.Word{
		{Box: geom.Box{XMin: 540, YMin: 150, XMax: 580, YMax: 165}, Text: "GFI"},     // beside the second
		{Box: geom.Box{XMin: 1160, YMin: 240, XMax: 1200, YMax: 255}, Text: "+42\""}, // beside the fourth
		{Box: geom.Box{XMin: 1700, YMin: 100, XMax: 1740, YMax: 115}, Text: "GFCI"},  // another word
	}
	for _, ts := range [][]*Template{{plain, gfi, h42}, {h42, gfi, plain}} {
		_, n := matchTagged(t, b, ts, words)
		if n["DUPLEX"] != 4 || n["GFI"] != 1 || n["+42\""] != 1 {
			t.Errorf("legend order %s, %s, %s: counts %v, want DUPLEX 4, GFI 1, +42\" 1", ts[0].Label, ts[1].Label, ts[2].Label, n)
		}
	}
}

// matchTagged matches ts, tagged by their labels' entries, on the whole of
// b with the drawing's words, and counts the detections by label.
func matchTagged(t *testing.T, b *pageBuilder, ts []*Template, words []symbols.Word) ([]symbols.Detection, map[string]int) {
	t.Helper()
	d := NewDrawing(b.pg, vector.Rect{X0: 0, Y0: 0, X1: float32(b.pg.W), Y1: float32(b.pg.H)})
	dets, err := Match(context.Background(), d, ts, Options{Tags: tagsOf(ts), Words: words})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, dt := range dets {
		n[dt.Label]++
	}
	return dets, n
}

func tagsOf(ts []*Template) []string {
	var out []string
	for _, t := range ts {
		if t.Label == "DUPLEX" {
			out = append(out, "")
		} else {
			out = append(out, t.Label)
		}
	}
	return out
}

// Letters inside a symbol (a circled J) are a part of it, not a tag beside
// it.
func TestLettersInsideKept(t *testing.T) {
	lg := newPage(200, 200)
	switchS(lg, place(complex(100, 100), 30, 0, false), 30, 0)
	tm, err := NewTemplateBeside("S", lg.pg, vector.Rect{X0: 60, Y0: 60, X1: 140, Y1: 140}, []vector.Rect{{X0: 88, Y0: 85, X1: 112, Y1: 115}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tm.m.glyphs) != 1 {
		t.Errorf("%d glyphs, want the S inside the circle", len(tm.m.glyphs))
	}
}

// A tag labels one symbol: of two receptacles beside one "GFI", the nearer
// is the GFI one and the other is plain (lamb's receptacle set outside a
// wall below a tagged one inside it).
func TestOneTagOneSymbol(t *testing.T) {
	plain, gfi, h42 := receptacleTwins(t)
	b := newPage(1200, 600)
	receptacle(b, place(complex(300, 200), 27, 0, false), 27, 0)
	receptacle(b, place(complex(300, 300), 27, 0, false), 27, 0)
	receptacle(b, place(complex(800, 200), 27, 0, false), 27, 0)
	words := []symbols.Word{{Box: geom.Box{XMin: 345, YMin: 215, XMax: 385, YMax: 235}, Text: "GFI"}}
	dets, got := matchTagged(t, b, []*Template{plain, gfi, h42}, words)
	for _, dt := range dets {
		if dt.Label == "GFI" && dt.Box.YMin > 250 {
			t.Errorf("the GFI tag went to the receptacle below it (%v)", dt.Box)
		}
	}
	if got["DUPLEX"] != 2 || got["GFI"] != 1 {
		t.Errorf("counts %v, want DUPLEX 2, GFI 1", got)
	}
}
