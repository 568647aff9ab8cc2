package vecsym

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

// letteredLegend draws a legend of detectors lettered inside — a circle
// lettered SD, one lettered CO, a double circle lettered SC (the
// combination) — and reads them, each with its words' box.
func letteredLegend(t *testing.T) []*Template {
	t.Helper()
	lg := newPage(700, 200)
	var ts []*Template
	for i, e := range []struct {
		label   string
		letters string
		double  bool
	}{{"SD", "SD", false}, {"CO", "CO", false}, {"S/C", "SC", true}} {
		c := complex(float64(100+200*i), 100)
		lg.circle(ink, c, 25, 4, false, 0)
		if e.double {
			lg.circle(ink, c, 31, 4, false, 0)
		}
		lg.glyph(rune(e.letters[0]), c-8, 16, 0)
		lg.glyph(rune(e.letters[1]), c+8, 16, 0)
		box := vector.Rect{X0: float32(real(c)) - 40, Y0: 60, X1: float32(real(c)) + 40, Y1: 140}
		words := []vector.Rect{{X0: float32(real(c)) - 15, Y0: 90, X1: float32(real(c)) + 15, Y1: 110}}
		tm, err := NewTemplateBeside(e.label, lg.pg, box, words)
		if err != nil {
			t.Fatal(err)
		}
		if tm.outline == nil {
			t.Fatalf("%s: no outline read without its letters", e.label)
		}
		ts = append(ts, tm)
	}
	return ts
}

// A plan that draws every detector as the double circle with its tag
// beside it (lamb's "SD", "SD/ CO") counts each by the tag: SD for "SD",
// the combination for a phrase naming both; a circle with another word
// beside it (a fixture's type number) or none is not a detector.
func TestLetteredBeside(t *testing.T) {
	ts := letteredLegend(t)
	b := newPage(1600, 400)
	for _, x := range []float64{200, 600, 1000, 1400} {
		// (its rings further apart than the legend's, as lamb's)
		b.circle(ink, complex(x, 200), 20, 4, false, 0)
		if x < 1400 {
			b.circle(ink, complex(x, 200), 28, 4, false, 0)
		}
	}
	words := []symbols.Word{
		{Box: geom.Box{XMin: 240, YMin: 190, XMax: 270, YMax: 210}, Text: "SD"},
		{Box: geom.Box{XMin: 640, YMin: 190, XMax: 676, YMax: 210}, Text: "SD/"},
		{Box: geom.Box{XMin: 684, YMin: 190, XMax: 710, YMax: 210}, Text: "CO"},
		{Box: geom.Box{XMin: 1040, YMin: 190, XMax: 1070, YMax: 210}, Text: "02"},
		{Box: geom.Box{XMin: 1440, YMin: 190, XMax: 1470, YMax: 210}, Text: "HE"},
	}
	dets, err := Match(t.Context(), NewDrawing(b.pg, vector.Rect{X0: 0, Y0: 0, X1: 1600, Y1: 400}), ts,
		Options{Tags: []string{"SD", "CO", "S/C"}, Words: words})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, d := range dets {
		n[d.Label]++
		if x := (d.Box.XMin + d.Box.XMax) / 2; d.Label == "SD" && x > 400 || d.Label == "S/C" && (x < 400 || x > 800) {
			t.Errorf("%s at x %.0f", d.Label, x)
		}
	}
	if len(dets) != 2 || n["SD"] != 1 || n["S/C"] != 1 {
		t.Errorf("counts %v, want SD 1 and S/C 1", n)
	}
	// without words, no outline is a detector
	if dets, _ := Match(t.Context(), NewDrawing(b.pg, vector.Rect{X0: 0, Y0: 0, X1: 1600, Y1: 400}), ts, Options{Tags: []string{"SD", "CO", "S/C"}}); len(dets) != 0 {
		t.Errorf("%d detections without words, want 0", len(dets))
	}
}

// A receptacle the plan tags "240V RANGE" is the legend's 240 V
// receptacle (a receptacle with a third bar) however the plan draws its
// bars; an untagged one stays the plain receptacle.
func TestKinByTag(t *testing.T) {
	lg := newPage(400, 200)
	receptacle(lg, place(complex(100, 100), 30, 0, false), 30, 0)
	receptacle(lg, place(complex(300, 100), 30, 0, false), 30, 0)
	lg.path(ink, []pt{complex(270, 100), complex(330, 100)})
	plain, err := NewTemplate("DUPLEX", lg.pg, vector.Rect{X0: 60, Y0: 60, X1: 140, Y1: 140})
	if err != nil {
		t.Fatal(err)
	}
	v240, err := NewTemplate("240v", lg.pg, vector.Rect{X0: 260, Y0: 60, X1: 340, Y1: 140})
	if err != nil {
		t.Fatal(err)
	}
	b := newPage(1200, 400)
	receptacle(b, place(complex(300, 200), 27, 0, false), 27, 0)
	receptacle(b, place(complex(800, 200), 27, 0, false), 27, 0)
	words := []symbols.Word{
		{Box: geom.Box{XMin: 340, YMin: 230, XMax: 380, YMax: 250}, Text: "240V"},
		{Box: geom.Box{XMin: 386, YMin: 230, XMax: 450, YMax: 250}, Text: "RANGE"},
	}
	dets, err := Match(t.Context(), NewDrawing(b.pg, vector.Rect{X0: 0, Y0: 0, X1: 1200, Y1: 400}), []*Template{plain, v240},
		Options{Tags: []string{"", "240v"}, Words: words})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, d := range dets {
		got[d.Label] = (d.Box.XMin + d.Box.XMax) / 2
	}
	if len(dets) != 2 || got["240v"] < 250 || got["240v"] > 350 || got["DUPLEX"] < 750 {
		t.Errorf("detections %v, want 240v at x 300 and DUPLEX at x 800", got)
	}
}

// A thermostat the legend draws as a circle on a long stub, its tag TSTAT
// set beside, and the plan as the circle on a short stub tagged T'STAT: a
// lettered detector's circle posed there, a word naming TSTAT beside it,
// counts as the thermostat, whose graphic holds that circle.
func TestLetteredOutlineNamesTaggedGraphic(t *testing.T) {
	ts := letteredLegend(t)
	lg := newPage(300, 200)
	lg.path(ink, []pt{complex(20, 100), complex(75, 100)}, []pt{complex(20, 70), complex(20, 130)})
	lg.circle(ink, complex(100, 100), 25, 4, false, 0)
	lg.path(ink, []pt{complex(140, 90), complex(150, 90), complex(150, 110), complex(140, 110)})
	tstat, err := NewTemplateBeside("TSTAT", lg.pg, vector.Rect{X0: 10, Y0: 60, X1: 160, Y1: 140}, []vector.Rect{{X0: 135, Y0: 85, X1: 155, Y1: 115}})
	if err != nil {
		t.Fatal(err)
	}
	ts = append(ts, tstat)
	b := newPage(800, 400)
	b.path(ink, []pt{complex(200, 165), complex(200, 175)})
	b.circle(ink, complex(200, 200), 25, 4, false, 0)
	b.circle(ink, complex(600, 200), 25, 4, false, 0) // a circle with no tag beside
	words := []symbols.Word{{Box: geom.Box{XMin: 235, YMin: 190, XMax: 300, YMax: 210}, Text: "T'STAT"}}
	dets, err := Match(t.Context(), NewDrawing(b.pg, vector.Rect{X0: 0, Y0: 0, X1: 800, Y1: 400}), ts,
		Options{Tags: []string{"SD", "CO", "S/C", "TSTAT"}, Words: words})
	if err != nil {
		t.Fatal(err)
	}
	if len(dets) != 1 || dets[0].Label != "TSTAT" || dets[0].Box.XMax > 400 {
		t.Errorf("detections %v, want the TSTAT at x 200 only", dets)
	}
}
