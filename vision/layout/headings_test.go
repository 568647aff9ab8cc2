package layout

import (
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A heading set in two lines ("ROOM FINISH LEGEND &" over
// "ABBREVIATIONS", the lines touching) heads one block: the second line
// does not cut a new block as a second heading would, and the title is
// both lines.
func TestTwoLineHeading(t *testing.T) {
	img := blank(1000, 700)
	words := drawWords(img, nil, 1, 100, 100, 20, "ROOM FINISH LEGEND &")
	words = drawWords(img, words, 2, 100, 119, 21, "ABBREVIATIONS")
	for i, y := 0, 170.0; y < 600; i, y = i+1, y+16 {
		words = drawWords(img, words, 3+i, 100, y, 10, "ACT ACOUSTICAL CEILING TILE")
	}
	p := Analyze(img, words)
	if p == nil {
		t.Fatal("no page")
	}
	r := rect{int(90 * p.k), int(95 * p.k), int(600 * p.k), int(600 * p.k)}
	if got := p.splitNotes([]region{{r: r}}, nil); len(got) != 1 {
		t.Errorf("cut in %d: %v", len(got), got)
	}
	if b := classify(r, p.mw, p.em); b.Title != "ROOM FINISH LEGEND & ABBREVIATIONS" {
		t.Errorf("title %q", b.Title)
	}
	var ws []text.Word
	for _, w := range p.mw {
		if w.Line <= 2 {
			ws = append(ws, w)
		}
	}
	if ls := rowLines(ws); len(ls) != 2 {
		t.Fatalf("the heading's lines: %d", len(ls))
	}
}

// A sheet's notes set in columns under two plans, the plans parted at a
// gutter the columns share, are one block: the cut between the views does
// not run on through the notes.
func TestNotesUnderTwoViews(t *testing.T) {
	img, words := titledSheet("FLOOR PLANS")
	rectOutline(img, 100, 60, 560, 430, 5)
	rectOutline(img, 580, 60, 1340, 430, 5)
	n := 3
	for _, v := range []struct {
		x     float64
		title string
	}{{100, "UPPER FLOOR PLAN"}, {580, "LOWER FLOOR PLAN"}} {
		words = drawWords(img, words, n, v.x+40, 200, 12, "ROOM 101")
		words = drawWords(img, words, n+1, v.x, 450, 18, v.title)
		words = drawWords(img, words, n+2, v.x, 472, 9, "SCALE: 1/4\" = 1'-0\"")
		n += 3
	}
	words = drawWords(img, words, n, 100, 485, 12, "SHEET NOTES")
	n++
	// columns 139 px wide, 18 px apart: the gutter between the third and
	// the fourth lies in the plans' gap
	for x := 100.0; x < 1300; x += 157 {
		for y := 500.0; y < 900; y += 14 {
			words = drawWords(img, words, n, x, y, 9, "PROVIDE BLOCKING AT ALL")
			n++
		}
	}
	var notes []Block
	for _, b := range Segment(img, words, words[0].Box) {
		if b.Box.YMin > 460 && b.Box.YMin < 600 && (b.Type == "GeneralNotes" || b.Type == "SheetNotes") {
			notes = append(notes, b)
		}
	}
	if len(notes) != 1 || notes[0].Box.XMin > 110 || notes[0].Box.XMax < 1300 {
		for _, b := range notes {
			t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
		}
		t.Errorf("the notes are %d blocks", len(notes))
	}
}

// A notes heading carved out as a small region of its own, lying on the
// top-left corner of the notes under it, names them: one block, titled by
// it, though a north arrow's label set on end along its shaft ("REFERENCE
// NORTH", taller than any heading) stands in the notes too.
func TestNotesHeadingOntoItsNotes(t *testing.T) {
	img := blank(1200, 800)
	words := drawWords(img, nil, 1, 100, 100, 16, "SHEET NOTES")
	words = drawWords(img, words, 2, 100, 122, 10, "GENERAL")
	for i, y := 0, 140.0; y < 600; i, y = i+1, y+14 {
		words = drawWords(img, words, 3+i, 100, y, 9, "PROVIDE BLOCKING AT ALL WALLS")
		words = drawWords(img, words, 3+i, 420, y, 9, "INSTALL PER MANUFACTURER")
	}
	// the arrow's label on end: two words boxed 12 wide and 90 and 60 tall
	for _, w := range []text.Word{
		{Text: "REFERENCE", Line: 90, Box: geom.Box{XMin: 800, YMin: 300, XMax: 812, YMax: 390}},
		{Text: "NORTH", Line: 90, Box: geom.Box{XMin: 800, YMin: 230, XMax: 812, YMax: 290}},
	} {
		fillRect(img, int(w.Box.XMin)+2, int(w.Box.YMin), int(w.Box.XMin)+4, int(w.Box.YMax))
		words = append(words, w)
	}
	p := Analyze(img, words)
	if p == nil {
		t.Fatal("no page")
	}
	k := p.k
	heading := rect{int(95 * k), int(95 * k), int(260 * k), int(150 * k)}
	notes := rect{int(95 * k), int(120 * k), int(830 * k), int(600 * k)}
	got := p.noteHeadingsOnto([]region{{r: heading}, {r: notes}}, nil)
	if len(got) != 1 || got[0].r != notes.union(heading) {
		t.Fatalf("regions %v", got)
	}
	if b := classify(got[0].r, p.mw, p.em); b.Type != "SheetNotes" || b.Title != "SHEET NOTES" {
		t.Errorf("the notes: %s %q", b.Type, b.Title)
	}
}

// A framed table titled under it as a view is ("WINDOW SCHEDULE" over
// "1 : 50") is one block with its caption, not a table and a caption.
func TestCaptionWithScaleUnderATable(t *testing.T) {
	img, words := titledSheet("ALUMINIUM SCHEDULE")
	rectOutline(img, 100, 100, 600, 500, 3)
	for y := 130; y < 500; y += 30 {
		fillRect(img, 100, y, 600, y+2)
	}
	fillRect(img, 200, 100, 202, 500)
	n := 3
	for y := 108.0; y < 480; y += 30 {
		words = drawWords(img, words, n, 110, y, 10, "GLAZING")
		words = drawWords(img, words, n, 210, y, 10, "AS PER SANS 204")
		n++
	}
	words = drawWords(img, words, n, 100, 540, 16, "WINDOW SCHEDULE")
	words = drawWords(img, words, n+1, 100, 562, 9, "1 : 50")
	var got []Block
	for _, b := range Segment(img, words, words[0].Box) {
		if b.Type != "TitleBlock" {
			got = append(got, b)
		}
	}
	if len(got) != 1 || got[0].Type != "Schedule" || got[0].Box.YMax < 565 || got[0].Title != "WINDOW SCHEDULE" {
		for _, b := range got {
			t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
		}
		t.Errorf("%d blocks", len(got))
	}
}

// A column of notes is not cut at a line whose brackets' tails box it
// taller than the rest ("SLAB (150 P.S.F.)"), nor at a last line set
// larger with no text under it to head ("NOTICE PLEASE").
func TestNotesNotCutAtBracketsOrALastLine(t *testing.T) {
	img := blank(1000, 700)
	words := drawWords(img, nil, 1, 100, 100, 9, "8\" DEEP SLAB TYPICAL U.N.O. AT ALL BAYS")
	n := 2
	for y := 114.0; y < 400; y += 14 {
		if y == 198 {
			words = drawWords(img, words, n, 100, y, 9, "SLAB")
			words = drawWords(img, words, n, 140, y, 12, "(150 P.S.F.)")
		} else {
			words = drawWords(img, words, n, 100, y, 9, "ALL FRAMES TO BE WIDE HEAVY DUTY WITH BRACING")
		}
		n++
	}
	words = drawWords(img, words, n, 100, 408, 12, "NOTICE PLEASE")
	p := Analyze(img, words)
	if p == nil {
		t.Fatal("no page")
	}
	r := rect{int(95 * p.k), int(95 * p.k), int(560 * p.k), int(425 * p.k)}
	if got := p.splitNotes([]region{{r: r}}, nil); len(got) != 1 {
		t.Errorf("cut in %d: %v", len(got), got)
	}
}

// Tags set five ems left of a legend's notes, each a line of its own (a
// circuiting legend's "N-3", "E-3", "U-3" as OCR reads them), are part of
// the text a heading carved out of a plan's region heads.
func TestTagsBeforeNotes(t *testing.T) {
	img := blank(1400, 600)
	words := drawWords(img, nil, 1, 1000, 100, 22, "CIRCUITING LEGEND:")
	for i, tag := range []string{"N-3", "E-3", "U-3"} {
		y := float64(140 + 45*i)
		words = drawWords(img, words, 10+3*i, 900, y, 12, tag)
		words = drawWords(img, words, 11+3*i, 960, y, 12, "'"+tag[:1]+"' DENOTES CIRCUIT NUMBER CONNECTED TO A")
		words = drawWords(img, words, 12+3*i, 960, y+18, 12, "BRANCH SOURCE.")
	}
	words = drawWords(img, words, 40, 760, 200, 12, "E-27") // the plan's own tag, far left
	// a notes heading whose item numbers hang 5 ems left of their lines
	words = drawWords(img, words, 50, 400, 400, 22, "GENERAL NOTES:")
	words = drawWords(img, words, 51, 300, 440, 12, "1")
	words = drawWords(img, words, 52, 360, 440, 12, "PROVIDE POWER REQUIREMENTS PER THE EQUIPMENT")
	words = drawWords(img, words, 53, 360, 458, 12, "SHOWN ON MECHANICAL DRAWINGS.")
	ls := text.Lines(words)
	var h, notes text.Line
	for _, l := range ls {
		if strings.HasPrefix(l.Text, "CIRCUITING") {
			h = l
		}
		if strings.HasPrefix(l.Text, "GENERAL") {
			notes = l
		}
	}
	got := growText(h, ls, 12)
	if got.XMin > 900 || got.XMin < 800 || got.YMax < 248 {
		t.Errorf("the legend's text %v, want from the tags at x 900 (not the plan's at 760) to the last line", got)
	}
	if got := growText(notes, ls, 12); got.XMin > 300 {
		t.Errorf("the notes' text %v, want from their item number at x 300", got)
	}
}

// Two view titles side by side on one row, the bubble between them read by
// OCR as a doubtful word ("THRESHOLD an WINDOW-"), are two lines, and the
// misread bubble a line of its own.
func TestMisreadBubbleSplitsTitles(t *testing.T) {
	var ws []text.Word
	x := 100.0
	add := func(s string, conf, gap float64) {
		w := 30 * float64(len(s))
		ws = append(ws, text.Word{Text: s, Conf: conf, Line: 1, Box: geom.Box{XMin: x, YMin: 100, XMax: x + w, YMax: 150}})
		x += w + gap
	}
	add("DOOR-", 0.95, 20)
	add("SWING-", 0.95, 20)
	add("THRESHOLD", 0.96, 70)
	add("an", 0.42, 60)
	add("WINDOW-", 0.92, 20)
	add("SILL", 0.95, 20)
	ls := (&Page{}).atBubbles(rowLines(ws))
	var got []string
	for _, l := range ls {
		got = append(got, l.Text)
	}
	if strings.Join(got, " | ") != "DOOR- SWING- THRESHOLD | an | WINDOW- SILL" {
		t.Errorf("lines %q", got)
	}
}
