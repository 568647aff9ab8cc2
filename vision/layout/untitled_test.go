package layout

import (
	"fmt"
	"image"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// planSheet draws a 1400 px wide sheet of height h with its border, a title
// strip and a hatched plan from y0 to y1 at the left; line adds a line of
// words to it.
func planSheet(h, y0, y1 int) (*image.Gray, *[]text.Word, func(x, y, h float64, s string)) {
	img := blank(1400, h)
	rectOutline(img, 10, 10, 1390, h-10, 3) // border
	fillRect(img, 10, h-100, 1390, h-97)    // title strip's separator
	words := drawWords(img, nil, 1, 1200, float64(h-70), 40, "A101")
	n := 2
	line := func(x, y, h float64, s string) { words = drawWords(img, words, n, x, y, h, s); n++ }
	fillRect(img, 120, y0, 700, y1) // the plan: a hatched block
	for x := 130; x < 700; x += 30 {
		fillRect(img, x, y0+10, x+2, y1-10)
	}
	return img, &words, line
}

// untitledSheet draws a plan and, in the column right of it, four framed
// blocks no heading names: a data sheet of "NAME : value" rows under a
// name, a two-column table of numbered tags (G1–G4) against notes, the
// same table of letter codes (CT, CR, GB, MR) against materials, and a key
// of three drawn wall samples beside their names.
func untitledSheet() (*image.Gray, []text.Word, map[string]geom.Box) {
	img, words, line := planSheet(1000, 100, 700)
	want := map[string]geom.Box{}
	// data sheet
	rectOutline(img, 880, 30, 1360, 215, 2)
	line(900, 42, 16, "MAIN TANK (OVERFLOW TYPE)")
	for i, s := range [][2]string{{"TANK AREA", "709.48 m2"}, {"TANK DEPTH", "1.2 m"}, {"TOTAL VOLUME", "555.38 m3"}, {"FILTER FLOW", "150 m3/hr"}, {"TURN OVER PERIOD", "3.7 hrs"}} {
		y := float64(75 + 27*i)
		line(900, y, 14, s[0])
		line(1140, y, 14, ":")
		line(1170, y, 14, s[1])
	}
	want["Schedule"] = geom.Box{XMin: 880, YMin: 30, XMax: 1360, YMax: 215}
	table := func(y0 int, tags, texts []string) {
		rectOutline(img, 880, y0, 1360, y0+40+45*len(tags), 2)
		fillRect(img, 950, y0, 952, y0+40+45*len(tags))
		line(890, float64(y0+12), 14, "TYPES")
		line(965, float64(y0+12), 14, "DESCRIPTIONS")
		for i := range tags {
			y := y0 + 40 + 45*i
			fillRect(img, 880, y, 1360, y+2)
			line(900, float64(y+15), 14, tags[i])
			line(965, float64(y+8), 14, texts[i])
			line(965, float64(y+25), 14, "to engineer's detail.")
		}
	}
	table(240, []string{"G1", "G2", "G3", "G4"}, []string{"R.C beams, slabs & footing", "Soil pipe discharged to IST", "Waste pipe laid at falls", "Manhole with cover"})
	want["KeyNotes"] = geom.Box{XMin: 880, YMin: 240, XMax: 1360, YMax: 460}
	table(490, []string{"CT", "CR", "GB", "MR"}, []string{"Ceramic tiles to spec", "Cement render (smooth)", "Gypsum board, painted", "Metal roofing sheets"})
	want["Legend"] = geom.Box{XMin: 880, YMin: 490, XMax: 1360, YMax: 710}
	// a key of wall samples
	rectOutline(img, 880, 740, 1200, 860, 2)
	for i, s := range []string{"EXISTING WALL- DEMO", "EXISTING WALL TO REMAIN", "NEW WALL"} {
		y := 760 + 32*i
		rectOutline(img, 900, y+2, 980, y+18, 3)
		line(1000, float64(y), 18, s)
	}
	want["Legend2"] = geom.Box{XMin: 880, YMin: 740, XMax: 1200, YMax: 860}
	return img, *words, want
}

// Blocks without a heading are typed by how their text is set out: a
// column of colons is a schedule of figures, numbered tags against notes
// keyed notes, letter codes against materials a legend, drawn samples
// beside short names a legend.
func TestUntitledBlocksByLayout(t *testing.T) {
	img, words, want := untitledSheet()
	got := Segment(img, words, words[0].Box)
	for _, b := range got {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
	}
	for typ, box := range want {
		if typ == "Legend2" {
			typ = "Legend"
		}
		ok := false
		for _, b := range got {
			if b.Box.IoU(box) >= 0.8 {
				ok = b.Type == typ
				if !ok {
					t.Errorf("%s typed %s, want %s", fmtBox(box), b.Type, typ)
				}
			}
		}
		if !ok {
			t.Error(fmt.Sprintf("no %s block on %s", typ, fmtBox(box)))
		}
	}
}

// A key of drawn samples whose samples OCR read as doubtful letters (a
// filled wall swatch read "GC", an outlined one "(=)") is still a legend:
// the readings are the rows' samples, not their text.
func TestSamplesReadAsLetters(t *testing.T) {
	img, words, want := untitledSheet()
	for i, s := range []string{"GC", "(=)", "GC"} {
		y := float64(760 + 32*i)
		words = append(words, text.Word{Text: s, Conf: 0.45 + 0.05*float64(i), Line: 100 + i, Box: geom.Box{XMin: 900, YMin: y + 2, XMax: 980, YMax: y + 18}})
	}
	for _, b := range Segment(img, words, words[0].Box) {
		if b.Box.IoU(want["Legend2"]) >= 0.8 {
			if b.Type != "Legend" {
				t.Errorf("the key of samples read as letters typed %s, want Legend", b.Type)
			}
			return
		}
	}
	t.Errorf("no block on the key of samples %s", fmtBox(want["Legend2"]))
}

// Lines of text without a heading set just under a view's title bar, about
// as wide as it, are that view's notes (SheetNotes); a column of text
// elsewhere on the sheet stays general notes.
func TestNotesUnderAViewTitle(t *testing.T) {
	img, words, line := planSheet(900, 60, 560)
	line(120, 590, 22, "SUSPENDED SLAB SHORING PLAN")
	fillRect(img, 120, 616, 720, 618)
	for i, s := range []string{"SHORES TO REMAIN UNTIL SLAB HAS REACHED STRENGTH", "CONTRACTOR TO VERIFY ALL LEVELS ON SITE BEFORE", "RESHORE LEVELS BELOW AS REQUIRED BY ENGINEER"} {
		line(120, float64(640+20*i), 13, s)
	}
	for i, s := range []string{"ALL WORK TO COMPLY WITH CODES", "DO NOT SCALE THE DRAWINGS", "VERIFY DIMENSIONS ON SITE", "REPORT ANY DISCREPANCIES", "USE FIGURED DIMENSIONS ONLY"} {
		line(900, float64(100+22*i), 13, s)
	}
	got := Segment(img, *words, (*words)[0].Box)
	var sheet, general bool
	for _, b := range got {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
		if b.Box.YMin >= 630 && b.Box.YMax <= 700 && b.Box.XMin < 130 {
			sheet = b.Type == "SheetNotes"
		}
		if b.Box.XMin >= 890 && b.Box.YMin < 110 && b.Box.YMax < 230 {
			general = b.Type == "GeneralNotes"
		}
	}
	if !sheet {
		t.Error("the notes under SUSPENDED SLAB SHORING PLAN are not a SheetNotes block")
	}
	if !general {
		t.Error("the column of notes at the right is not a GeneralNotes block")
	}
}

// Details drawn in a grid of cells, each titled under its drawing: a
// drawing of the row below starting right under the title bars above (its
// lines crossing the cut) does not push the cut lower down, to where the
// lower drawing happens to cross least ink — each view ends at its title
// bar.
func TestViewEndsAtItsTitleBar(t *testing.T) {
	img, words, line := planSheet(900, 60, 280)
	line(120, 300, 22, "EAVE DETAIL 1:5")
	fillRect(img, 120, 326, 700, 328) // the title's underline
	for x := 150; x < 680; x += 250 { // the detail below: stems from the bar down
		fillRect(img, x, 328, x+2, 430)
	}
	fillRect(img, 400, 430, 402, 436) // a narrow waist: one stem only
	fillRect(img, 120, 436, 700, 640) // then the body of the detail
	for x := 130; x < 700; x += 30 {
		fillRect(img, x, 446, x+2, 630)
	}
	line(120, 660, 22, "DOOR HEAD DETAIL 1:5")
	fillRect(img, 120, 686, 700, 688)
	got := Segment(img, *words, (*words)[0].Box)
	var upper, lower bool
	for _, b := range got {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
		switch b.Title {
		case "EAVE DETAIL":
			upper = b.Box.YMax < 380
		case "DOOR HEAD DETAIL":
			lower = b.Box.YMin < 380
		}
	}
	if !upper || !lower {
		t.Errorf("the cut between the two details is not under the upper title bar (upper ends there %v, lower starts there %v)", upper, lower)
	}
}

// A plan's title printed well under its drawing (further than a caption is
// looked for), the plan's notes parted from it, joins the plan; a title
// read as over its view, a drawing under it, does not join the region
// above.
func TestTitleFarUnderItsPlan(t *testing.T) {
	plan := region{r: rect{120, 100, 700, 560}}
	title := region{r: rect{115, 675, 725, 710}}
	notes := region{r: rect{115, 725, 725, 790}}
	vt := viewTitle{line: text.Line{Box: geom.Box{XMin: 120, YMin: 680, XMax: 600, YMax: 702}}, bar: rect{120, 680, 600, 708}, kind: "Plan", below: true}
	p := &Page{}
	got := p.titlesOntoViews([]region{plan, title, notes}, []viewTitle{vt})
	if len(got) != 2 || got[0].r != (rect{115, 100, 725, 710}) || got[1].r != notes.r {
		t.Errorf("regions %v, want the plan down to its title, and the notes", got)
	}
	// the title too far under it (more than six of its line heights)
	far := region{r: rect{115, 875, 725, 910}}
	vt2 := vt
	vt2.line.Box.YMin, vt2.line.Box.YMax, vt2.bar = 880, 902, rect{120, 880, 600, 908}
	if got := p.titlesOntoViews([]region{plan, far}, []viewTitle{vt2}); len(got) != 2 {
		t.Errorf("a title 14 line heights under the plan joined it: %v", got)
	}
	// over its view: the drawing under it is what it names
	vt.below = false
	view := region{r: rect{120, 730, 700, 990}}
	if got := p.titlesOntoViews([]region{plan, title, view}, []viewTitle{vt}); len(got) != 3 {
		t.Errorf("a title over a drawing joined the region above: %v", got)
	}
}

// A region holding nothing but its frame's rules — a double line inset from
// the cut, a cell's edge — is no block, as an empty frame is not.
func TestEmptyFrameOfRules(t *testing.T) {
	img := blank(1200, 900)
	rectOutline(img, 10, 10, 1190, 890, 3) // the sheet's border
	words := drawWords(img, nil, 1, 100, 100, 20, "NOTES")
	for i, l := range []string{"ALL WORK TO CODE", "VERIFY ON SITE", "DO NOT SCALE"} {
		words = drawWords(img, words, 2+i, 100, float64(140+30*i), 20, l)
	}
	rectOutline(img, 600, 400, 1000, 800, 3) // the frame …
	fillRect(img, 975, 400, 978, 800)        // … doubled inside its right side
	fillRect(img, 600, 775, 1000, 778)       // … and its bottom
	p := Analyze(img, words)
	if p == nil {
		t.Fatal("no page")
	}
	k := p.k
	r := rect{int(596 * k), int(396 * k), int(1004 * k), int(804 * k)}
	if got := p.byContent(r, p.mw, Block{Type: "Plan"}); got != "" {
		t.Errorf("an empty frame of rules typed %q, want no block", got)
	}
	// a drawing in it is content
	fillRect(img, 700, 500, 900, 503)
	fillRect(img, 700, 500, 703, 700)
	fillRect(img, 700, 700, 900, 703)
	p = Analyze(img, words)
	if got := p.byContent(r, p.mw, Block{Type: "Plan"}); got == "" {
		t.Error("a frame with a drawing in it is no block")
	}
}
