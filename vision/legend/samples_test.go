package legend

import (
	"image"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// drawRect draws a rectangle's outline 2 px wide.
func drawRect(img *image.Gray, x0, y0, x1, y1 int) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if y < y0+2 || y >= y1-2 || x < x0+2 || x >= x1-2 {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
}

// putWords sets a line of words of height h from (x, y), 9 px a letter
// (h < 15: smaller letters).
func putWords(words *[]text.Word, x, y, h float64, s string) {
	cw := 9 * h / 15
	for _, w := range strings.Fields(s) {
		wd := float64(len([]rune(w))) * cw
		*words = append(*words, text.Word{Text: w, Conf: 1, Box: geom.Box{XMin: x, YMin: y, XMax: x + wd, YMax: y + h}})
		x += wd + 6
	}
}

// inkWords draws a stroke through each word, as its letters' ink.
func inkWords(img *image.Gray, words []text.Word) {
	for _, w := range words {
		y := int(w.Box.YMin+w.Box.YMax) / 2
		for x := int(w.Box.XMin) + 1; x < int(w.Box.XMax)-1; x++ {
			img.Pix[y*img.Stride+x] = 0
		}
	}
}

// A legend's graphic part in two columns of samples, their rows offset
// (the care home's "Abkürzungen, Symbole und Darstellungen"): hatch
// swatches stacked closer than a graphic's parts, each beside its own
// line, are one sample each; a level marker with its value "+4,37" set
// on its line serves the two "TERM = meaning" lines beside it; a
// sample's small tag over ("DD 50/20") or under ("WS 50/10/30") its
// rectangle is part of its graphic; "WS = …" and "WA = …" beside one
// rectangle are two entries with it; the right column's rows do not run
// into the left column's.
func TestSampleColumns(t *testing.T) {
	img := blankImage(700, 150)
	var words []text.Word
	// left column
	drawRect(img, 10, 20, 50, 40)
	drawRect(img, 10, 44, 50, 64)
	putWords(&words, 90, 23, 15, "MW = Mauerwerk")
	putWords(&words, 90, 47, 15, "Mauerwerk Bestand")
	drawRing(img, 25, 100, 8)
	for x := 25; x < 60; x++ {
		img.Pix[100*img.Stride+x], img.Pix[101*img.Stride+x] = 0, 0
	}
	putWords(&words, 30, 82, 15, "+4,37")
	putWords(&words, 90, 92, 15, "FFB = Fertigfußboden")
	putWords(&words, 90, 110, 15, "RFB = Rohfußboden")
	// right column, rows offset from the left column's
	putWords(&words, 305, 12, 8, "DD 50/20")
	drawRect(img, 300, 20, 350, 40)
	putWords(&words, 380, 28, 15, "DD = Deckendurchbruch")
	drawRect(img, 300, 55, 350, 75)
	putWords(&words, 305, 76, 8, "WS 50/10/30")
	putWords(&words, 380, 55, 15, "WS = Wandschlitz")
	putWords(&words, 380, 73, 15, "WA = Wandaussparung")
	inkWords(img, words)
	got := Parse(img, words)
	want := map[string]string{"MW": "Mauerwerk", "Mauerwerk Bestand": "Mauerwerk Bestand", "FFB": "Fertigfußboden",
		"RFB": "Rohfußboden", "DD": "Deckendurchbruch", "WS": "Wandschlitz", "WA": "Wandaussparung"}
	if len(got) != len(want) {
		t.Errorf("%d entries, want %d", len(got), len(want))
	}
	graphic := map[string]geom.Box{}
	for _, e := range got {
		t.Logf("%q %q %v %v", e.Label, e.Description, e.HasGraphic, e.Graphic)
		if d, ok := want[e.Label]; !ok || d != e.Description || !e.HasGraphic {
			t.Errorf("entry %q %q graphic=%v", e.Label, e.Description, e.HasGraphic)
		}
		graphic[e.Label] = e.Graphic
	}
	if g := graphic["MW"]; g.YMax > 42 {
		t.Errorf("MW's swatch %v runs into the next", g)
	}
	if g := graphic["Mauerwerk Bestand"]; g.YMin < 42 {
		t.Errorf("Mauerwerk Bestand's swatch %v runs into the one above", g)
	}
	if g := graphic["FFB"]; g != graphic["RFB"] || g.YMin > 90 {
		t.Errorf("level marker %v (RFB %v): one graphic with its value", g, graphic["RFB"])
	}
	if g := graphic["DD"]; g.YMin > 17 || g.YMax > 42 {
		t.Errorf("DD's graphic %v: its rectangle with the tag over it", g)
	}
	if g := graphic["WS"]; g != graphic["WA"] || g.YMax < 78 {
		t.Errorf("WS's graphic %v (WA %v): one rectangle with the tag under it", g, graphic["WA"])
	}
}

// "(m) = water meter" over "⊤ = tap point": a leading "=" joins a graphic
// to its meaning, which names the entry (not the letter in the symbol);
// two symbols stacked closer than a graphic's parts, each on its own line,
// are two entries; a column of quantities after the descriptions is none
// of their text.
func TestEquatedSymbolsAndQuantities(t *testing.T) {
	img := blankImage(500, 120)
	drawRing(img, 30, 30, 14)
	var words []text.Word
	words = append(words, text.Word{Text: "m", Conf: 1, Box: geom.Box{XMin: 25, YMin: 23, XMax: 35, YMax: 37}})
	for x := 18; x < 44; x++ { // the tap: a bar over a stem, 6 px under the ring
		img.Pix[52*img.Stride+x], img.Pix[53*img.Stride+x] = 0, 0
	}
	for y := 52; y < 66; y++ {
		img.Pix[y*img.Stride+30], img.Pix[y*img.Stride+31] = 0, 0
	}
	putWords(&words, 70, 23, 15, "= water meter")
	putWords(&words, 70, 52, 15, "= tap point")
	putWords(&words, 380, 23, 15, "1")
	putWords(&words, 380, 52, 15, "1 / 4 / 2")
	got := Parse(img, words)
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for i, want := range []string{"water meter", "tap point"} {
		if e := got[i]; e.Label != want || e.Description != want || !e.HasGraphic {
			t.Errorf("entry %d: %q %q graphic=%v, want %q", i, e.Label, e.Description, e.HasGraphic, want)
		}
	}
	if got[0].Graphic.YMax > 50 || got[1].Graphic.YMin < 50 {
		t.Errorf("graphics %v and %v: the meter and the tap are apart", got[0].Graphic, got[1].Graphic)
	}
}

// A description of two lines beside its symbol, with the next column's
// entry (another symbol and its two lines) to its right: the lines are
// one description, not two tags each followed by the other column's text.
func TestTwoLinesBesideTheNextColumn(t *testing.T) {
	img := blankImage(600, 80)
	drawRing(img, 30, 31, 14)
	drawRing(img, 330, 31, 14)
	var words []text.Word
	putWords(&words, 70, 15, 15, "DIMENSION (FACE OF")
	putWords(&words, 70, 32, 15, "FRAMING, U.O.N.)")
	putWords(&words, 370, 15, 15, "DATUM POINT,")
	putWords(&words, 370, 32, 15, "CONTROL POINT")
	inkWords(img, words)
	got := Parse(img, words)
	want := []string{"DIMENSION (FACE OF FRAMING, U.O.N.)", "DATUM POINT, CONTROL POINT"}
	if len(got) != len(want) {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for i, w := range want {
		if e := got[i]; e.Label != w || e.Description != w || !e.HasGraphic {
			t.Errorf("entry %d: %q %q graphic=%v, want %q", i, e.Label, e.Description, e.HasGraphic, w)
		}
	}
}

// A callout symbol's entry as US symbol legends set it: the symbol's name
// underlined ("DETAIL CUT") over the notes its leaders point at ("DETAIL
// NUMBER", "SHEET NUMBER"). The name labels the entry, the whole text
// describes it; the plain entry under it stays as it was.
func TestCalloutNamedByUnderline(t *testing.T) {
	img := blankImage(600, 220)
	var words []text.Word
	drawRing(img, 60, 80, 26) // the bubble, parted across its middle
	for x := 36; x < 85; x++ {
		img.Pix[80*img.Stride+x], img.Pix[81*img.Stride+x] = 0, 0
	}
	for _, y := range []int{70, 92} { // leaders from its edge to the notes
		for x := 86; x < 197; x++ {
			img.Pix[y*img.Stride+x], img.Pix[(y+1)*img.Stride+x] = 0, 0
		}
	}
	putWords(&words, 200, 36, 15, "DETAIL CUT")
	for x := 200; x < 290; x++ { // its underline
		img.Pix[53*img.Stride+x], img.Pix[54*img.Stride+x] = 0, 0
	}
	putWords(&words, 200, 63, 15, "DETAIL NUMBER")
	putWords(&words, 200, 85, 15, "SHEET NUMBER")
	drawRing(img, 60, 170, 12)
	putWords(&words, 200, 163, 15, "KEY NOTE")
	inkWords(img, words)
	got := Parse(img, words)
	var callout, key *Entry
	for i, e := range got {
		switch e.Label {
		case "DETAIL CUT":
			callout = &got[i]
		case "KEY NOTE":
			key = &got[i]
		}
	}
	if callout == nil || !callout.HasGraphic || callout.Description != "DETAIL CUT DETAIL NUMBER SHEET NUMBER" {
		t.Errorf("entries %+v: want DETAIL CUT, with its graphic, described by its three lines", got)
	}
	if key == nil || !key.HasGraphic || key.Description != "KEY NOTE" {
		t.Errorf("entries %+v: want KEY NOTE as it is", got)
	}
}

// A key of one-letter terms under a note reaching across it ("(AS VIEWED
// FROM EXTERIOR)" over "L  HINGE ON LEFT"): the note is no line of the
// first term's; each term is its own entry.
func TestNoteOverATermList(t *testing.T) {
	img := blankImage(420, 150)
	var words []text.Word
	putWords(&words, 10, 8, 20, "KEY TO WINDOW LAYOUT:")
	putWords(&words, 20, 40, 15, "(AS VIEWED FROM EXTERIOR)")
	for i, r := range [][2]string{{"L", "HINGE ON LEFT"}, {"R", "HINGE ON RIGHT"}, {"F", "FIXED"}} {
		y := 62 + 22*float64(i)
		putWords(&words, 20, y, 15, r[0])
		putWords(&words, 150, y, 15, r[1])
	}
	inkWords(img, words)
	got := Parse(img, words)
	want := map[string]string{"L": "HINGE ON LEFT", "R": "HINGE ON RIGHT", "F": "FIXED"}
	for _, e := range got {
		if d, ok := want[e.Label]; ok && e.Description == d {
			delete(want, e.Label)
		}
	}
	if len(want) > 0 {
		t.Errorf("entries %+v: missing %v", got, want)
	}
}
