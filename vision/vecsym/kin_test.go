package vecsym

import (
	"math"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

// barredCircle: a circle with bars across it at heights ys (shares of
// half), reaching reach past its middle on each side.
func barredCircle(reach float64, ys ...float64) shape {
	return func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.6*half, 4, false, turn)
		for _, y := range ys {
			b.path(ink, []pt{f(complex(-reach, y)), f(complex(reach, y))})
		}
	}
}

// chordedCircle: a circle with chords at heights ys (shares of half).
func chordedCircle(ys ...float64) shape {
	return func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.6*half, 4, false, turn)
		for _, y := range ys {
			x := math.Sqrt(0.36 - y*y)
			b.path(ink, []pt{f(complex(-x, y)), f(complex(x, y))})
		}
	}
}

// A plan drawing its 240 V receptacles as the duplex with a third bar
// squeezed between the two (lamb's A1.3, whose legend proportions these
// are: its 240 V receptacle's three bars spaced wider, its duplex's two a
// little below the middle), "240V" beside each: the duplex
// found there, below the confidence floor for the third bar it does not
// account for, is the 240 V receptacle the tag names — also where a
// ceiling plug (two chords in the circle, tagged CP) was found on the
// squeezed bars with no "CP" beside it. A duplex beside "HOOD", and one
// with no word, stay duplexes.
func TestWeakPoseNamedByKinTag(t *testing.T) {
	ts := kinLegend(t)
	b := newPage(1600, 400)
	v240 := barredCircle(1, -0.22, 0, 0.22)
	for _, x := range []float64{200, 600} {
		v240(b, place(complex(x, 200), 27, 0, false), 27, 0)
	}
	for _, x := range []float64{1000, 1400} {
		barredCircle(1, -0.22, 0.22)(b, place(complex(x, 200), 27, 0, false), 27, 0)
	}
	word := func(x float64, s string) symbols.Word {
		return symbols.Word{Box: geom.Box{XMin: x + 35, YMin: 225, XMax: x + 75, YMax: 242}, Text: s}
	}
	words := []symbols.Word{word(200, "240V"), word(600, "240V"), word(1000, "HOOD")}
	dets, err := Match(t.Context(), NewDrawing(b.pg, vector.Rect{X0: 0, Y0: 0, X1: 1600, Y1: 400}), ts,
		Options{Tags: []string{"", "240v", "CP"}, Words: words})
	if err != nil {
		t.Fatal(err)
	}
	got := map[float64]string{}
	for _, d := range dets {
		got[float64(int((d.Box.XMin+d.Box.XMax)/2+0.5))] = d.Label
	}
	want := map[float64]string{200: "240v", 600: "240v", 1000: "DUPLEX", 1400: "DUPLEX"}
	if len(got) != len(want) {
		t.Errorf("detections %v, want %v", got, want)
	}
	for x, l := range want {
		if got[x] != l {
			t.Errorf("at x %v: %q, want %q (all: %v)", x, got[x], l, got)
		}
	}
}

// kinLegend reads a legend of a duplex receptacle (untagged), a 240 V
// receptacle (tagged 240v) and a ceiling plug (tagged CP) in lamb's
// proportions.
func kinLegend(t *testing.T) []*Template {
	t.Helper()
	lg := newPage(700, 200)
	legend := []struct {
		label string
		sh    shape
	}{
		{"DUPLEX", barredCircle(0.97, -0.14, 0.24)},
		{"240v", barredCircle(0.97, -0.36, 0, 0.36)},
		{"CP", chordedCircle(-0.13, 0.26)},
	}
	var ts []*Template
	for i, e := range legend {
		x := float64(100 + 200*i)
		e.sh(lg, place(complex(x, 100), 30, 0, false), 30, 0)
		tm, err := NewTemplate(e.label, lg.pg, vector.Rect{X0: float32(x) - 40, Y0: 60, X1: float32(x) + 40, Y1: 140})
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, tm)
	}
	return ts
}

// A weak pose named by a kin's tag takes the place of a pose of a tagged
// symbol whose tag no word beside reads, not of one whose tag a word
// reads, nor of an untagged symbol's.
func TestWeakPoseReplacesUnnamedOnly(t *testing.T) {
	ts := kinLegend(t)
	box := func(x float64) geom.Box { return geom.Box{XMin: x - 20, YMin: 180, XMax: x + 20, YMax: 220} }
	pose := func(tm int, x float64) Candidate {
		return Candidate{Template: tm, Box: box(x), Scale: 1, Covered: 1, Explained: 0.7, Confidence: 0.6}
	}
	word := func(x float64, s string) symbols.Word {
		return symbols.Word{Box: geom.Box{XMin: x + 25, YMin: 222, XMax: x + 60, YMax: 238}, Text: s}
	}
	// a ceiling plug with no "CP" beside, one with, a duplex: each with a
	// weak duplex pose on it and "240V" beside
	kept := []Candidate{pose(2, 200), pose(2, 600), pose(0, 1000)}
	weak := []Candidate{pose(0, 200), pose(0, 600), pose(0, 1000)}
	words := []symbols.Word{word(200, "240V"), word(600, "240V"), {Box: geom.Box{XMin: 560, YMin: 150, XMax: 590, YMax: 170}, Text: "CP"}, word(1000, "240V")}
	got := map[float64]string{}
	for _, c := range resolveKin(kept, weak, ts, Options{Tags: []string{"", "240v", "CP"}, Words: words}) {
		got[(c.Box.XMin+c.Box.XMax)/2] = ts[c.Template].Label
	}
	want := map[float64]string{200: "240v", 600: "CP", 1000: "240v"}
	if len(got) != len(want) || got[200] != want[200] || got[600] != want[600] || got[1000] != want[1000] {
		t.Errorf("poses %v, want %v (the duplex at x 1000 a kept pose, renamed)", got, want)
	}
}
