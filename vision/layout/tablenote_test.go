package layout

import (
	"image"

	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// tableSheet draws a sheet's right-hand column: a framed key plan, then a
// table under its heading (a name, no kind word, just over its frame), a
// one-line note under the table, and a legend under its heading.
func tableSheet() (*image.Gray, []text.Word) {
	img := blank(1400, 900)
	rectOutline(img, 10, 10, 1390, 890, 3) // border
	fillRect(img, 10, 800, 1390, 803)      // title strip's separator
	words := drawWords(img, nil, 1, 1200, 830, 40, "A101")
	fillRect(img, 120, 100, 700, 700) // a site plan's hatched block
	for x := 130; x < 700; x += 30 {
		fillRect(img, x, 110, x+2, 690)
	}
	rectOutline(img, 900, 40, 1350, 250, 2) // the framed key plan
	fillRect(img, 950, 80, 1300, 200)
	line := func(n int, x, y, h float64, s string) { words = drawWords(img, words, n, x, y, h, s) }
	line(2, 900, 288, 18, "PROPOSED BUILDING")
	rectOutline(img, 900, 315, 1350, 495, 2) // the table: 4 rows, 2 columns
	fillRect(img, 960, 315, 962, 495)
	for _, y := range []int{360, 405, 450} {
		fillRect(img, 900, y, 1350, y+2)
	}
	for i, s := range []string{"SURAU 45 PAX", "BILIK RBT", "KANTIN 208 PAX", "MAKMAL"} {
		line(3+i, 975, float64(330+45*i), 12, s)
	}
	line(8, 900, 505, 12, "NOTE : INDICATED DIMENSIONS ARE MIN. DISTANCE")
	line(9, 900, 558, 18, "LEGEND")
	rectOutline(img, 900, 585, 1350, 760, 2)
	for i, s := range []string{"PROPOSED NEW BUILDING", "TO BE DEMOLISHED", "EXISTING BUILDING"} {
		fillRect(img, 910, 600+55*i, 950, 630+55*i)
		line(10+i, 975, float64(605+55*i), 12, s)
	}
	return img, words
}

// A table's heading printed just over its frame is the table's (it is not
// the caption of the framed view above it, lost with it), and a one-line note
// printed under the table is a sheet-notes block of its own, not lost to
// the table as its caption.
func TestTableHeadingAndNoteUnderIt(t *testing.T) {
	img, words := tableSheet()
	got := Segment(img, words, words[0].Box)
	note := geom.Box{XMin: 900, YMin: 505, XMax: 900 + 0.7*12*37 + 0.5*12*6, YMax: 517}
	var named, noted bool
	for _, b := range got {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
		if b.Box.YMin <= 290 && b.Box.YMin > 260 && b.Box.YMax > 490 && b.Box.YMax < 505 {
			named = true
		}
		if b.Type == "SheetNotes" && b.Box.IoU(note) >= 0.7 {
			noted = true
		}
	}
	if !named {
		t.Errorf("no block of the table with its heading PROPOSED BUILDING (y 288-495)")
	}
	if !noted {
		t.Errorf("no SheetNotes block on the note under the table %s", fmtBox(note))
	}
}

// A door schedule drawn as a row of elevations standing exactly over the
// table's columns, the table, and a title bar under it whose lettering is
// outlines (ink, no words in the text layer) is one block: the table with
// its elevations and its title, not a plan over a table.
func TestScheduleWithElevationsOverIt(t *testing.T) {
	img := blank(1400, 900)
	rectOutline(img, 10, 10, 1390, 890, 3) // border
	fillRect(img, 1100, 10, 1103, 890)     // title strip's separator
	words := drawWords(img, nil, 1, 1150, 830, 40, "A101")
	for i := 0; i < 3; i++ { // the doors' elevations over columns 2-4
		x := 360 + 220*i
		rectOutline(img, x, 120, x+90, 280, 3)
		fillRect(img, x+10, 130, x+80, 133)
		fillRect(img, x-10, 100, x+100, 102) // its width's dimension
	}
	fillRect(img, 200, 280, 900, 282) // the floor line, the table's width
	rectOutline(img, 200, 290, 900, 520, 2)
	for _, y := range []int{330, 380, 430, 475} {
		fillRect(img, 200, y, 900, y+2)
	}
	for _, x := range []int{320, 540, 760} {
		fillRect(img, x, 290, x+2, 520)
	}
	line := func(n int, x, y, h float64, s string) { words = drawWords(img, words, n, x, y, h, s) }
	for i, s := range []string{"REFERENCES", "TYPE", "SIZE", "LOCATION", "UNITS"} {
		line(2+i, 205, float64(300+48*i), 12, s)
		line(10+i, 330, float64(300+48*i), 12, "D1 900MM")
		line(20+i, 550, float64(300+48*i), 12, "D2 800MM")
	}
	// the title bar: a bubble and outlined letters over an underline, no words
	rectOutline(img, 205, 535, 235, 565, 3)
	for x := 245; x < 480; x += 12 {
		fillRect(img, x, 540, x+3, 560)
	}
	fillRect(img, 245, 566, 480, 568)
	want := geom.Box{XMin: 200, YMin: 100, XMax: 900, YMax: 568}
	var found bool
	for _, b := range Segment(img, words, words[0].Box) {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
		if b.Type == "Schedule" && b.Box.IoU(want) >= 0.85 {
			found = true
		}
	}
	if !found {
		t.Errorf("no Schedule block of the elevations, table and title bar %s", fmtBox(want))
	}
}

// A view ends at the title bar printed under it: a band of notes set just
// under the title (closer than the gap that parts blocks) is a block of
// its own, not the bottom of the plan (the drawing, without the notes).
func TestViewEndsAtItsTitle(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 10, 10, 1190, 790, 3) // border
	fillRect(img, 1000, 10, 1003, 790)     // title-block separator
	words := drawWords(img, nil, 1, 1020, 720, 40, "A101")
	fillRect(img, 100, 100, 600, 103) // the plan's walls
	fillRect(img, 100, 100, 103, 450)
	fillRect(img, 597, 100, 600, 450)
	fillRect(img, 100, 447, 600, 450)
	fillRect(img, 300, 100, 303, 450)
	fillRect(img, 100, 300, 600, 303)
	words = drawWords(img, words, 2, 100, 475, 16, "GROUND FLOOR PLAN")
	words = drawWords(img, words, 3, 100, 495, 10, "SCALE 1:100")
	// the notes: a band of lines right under the title bar, wider than the plan
	for i := 0; i < 12; i++ {
		words = drawWords(img, words, 10+i, 100, 520+16*float64(i), 10, "VERIFY ALL SIZES AND LEVELS ON SITE BEFORE WORK STARTS")
	}
	plan := geom.Box{XMin: 100, YMin: 100, XMax: 600, YMax: 450}
	notes := geom.Box{XMin: 100, YMin: 520, XMax: 100 + 0.7*10*44 + 0.5*10*9, YMax: 520 + 16*11 + 10}
	var gotPlan, gotNotes bool
	for _, b := range Segment(img, words, words[0].Box) {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
		if b.Type == "Plan" && b.Box.IoU(plan) >= 0.9 {
			gotPlan = true
		}
		if b.Type == "GeneralNotes" && b.Box.IoU(notes) >= 0.85 {
			gotNotes = true
		}
	}
	if !gotPlan || !gotNotes {
		t.Errorf("plan %s found %v, notes %s found %v", fmtBox(plan), gotPlan, fmtBox(notes), gotNotes)
	}
}
