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
