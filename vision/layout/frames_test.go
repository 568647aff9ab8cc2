package layout

import (
	"image"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// sheetWithBorder is a 1400×900 sheet with a border and a title strip
// (sheet number A101) and a helper that prints a line of words on it.
func sheetWithBorder() (*image.Gray, *[]text.Word, func(x, y, h float64, s string)) {
	img := blank(1400, 900)
	rectOutline(img, 10, 10, 1390, 890, 3)
	fillRect(img, 10, 800, 1390, 803)
	words := drawWords(img, nil, 1, 1200, 830, 40, "A101")
	n := 2
	return img, &words, func(x, y, h float64, s string) {
		words = drawWords(img, words, n, x, y, h, s)
		n++
	}
}

// foundBox reports whether a block of type typ ("" for any) has IoU ≥ min
// with want.
func foundBox(got []Block, typ string, want geom.Box, min float64) bool {
	for _, b := range got {
		if (typ == "" || b.Type == typ) && b.Box.IoU(want) >= min {
			return true
		}
	}
	return false
}

// A column of boxes (two legends and a notes box) drawn under each other a
// hair apart, so that their sides read as one long frame, beside a plan
// and over a drawing that spans under both (no whitespace cut parts them):
// each box is a block by its own frame.
func TestStackedBoxesEachABlock(t *testing.T) {
	img, words, line := sheetWithBorder()
	fillRect(img, 60, 60, 820, 560) // the plan
	for x := 70; x < 820; x += 40 {
		fillRect(img, x, 570, x+2, 600)
	}
	line(60, 610, 18, "FIRST FLOOR PLAN")
	line(400, 612, 14, `1/8" = 1'-0"`)
	fillRect(img, 500, 660, 1350, 780) // a drawing under the plan and the column
	var want []geom.Box
	y := 40
	for i, h := range []int{210, 150, 190} {
		rectOutline(img, 900, y, 1350, y+h, 2)
		line(910, float64(y+10), 16, []string{"SIGN LEGEND - INTERIOR", "SIGN LEGEND - EXTERIOR", "SIGN NOTES"}[i])
		for r := 0; 45+30*r < h-20; r++ {
			line(930, float64(y+45+30*r), 11, "1A ROOM NAME AND NUMBER")
		}
		want = append(want, geom.Box{XMin: 900, YMin: float64(y), XMax: 1350, YMax: float64(y + h)})
		y += h + 3
	}
	got := Segment(img, *words, (*words)[0].Box)
	for _, b := range got {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
	}
	for i, w := range want {
		if !foundBox(got, "", w, 0.9) {
			t.Errorf("box %d %s not a block of its own", i+1, fmtBox(w))
		}
	}
}

// A tall view beside a column of two shorter ones, its title level with
// the lower edge of the upper one's title: the cut across between the
// upper title and the views under it would leave the tall view's title
// under the cut and its drawing over it. The tall view keeps its title.
func TestTallViewKeepsItsTitle(t *testing.T) {
	img, words, line := sheetWithBorder()
	// the tall view: a narrow post, drawn down to just over its title
	fillRect(img, 120, 60, 140, 560)
	fillRect(img, 90, 100, 200, 104)
	fillRect(img, 90, 500, 200, 504)
	line(80, 566, 16, `POST DETAIL 3" = 1'-0"`)
	// the upper view beside it, its title a little higher
	fillRect(img, 330, 60, 1300, 70)
	for x := 330; x < 1300; x += 60 {
		fillRect(img, x, 70, x+3, 520)
	}
	fillRect(img, 330, 520, 1300, 530)
	line(330, 544, 16, `NORTH ELEVATION 1/4" = 1'-0"`)
	// the lower view under it
	fillRect(img, 330, 620, 1300, 630)
	for x := 330; x < 1300; x += 60 {
		fillRect(img, x, 630, x+3, 740)
	}
	line(330, 760, 16, `SOUTH ELEVATION 1/4" = 1'-0"`)
	got := Segment(img, *words, (*words)[0].Box)
	for _, b := range got {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
	}
	post := geom.Box{XMin: 80, YMin: 60, XMax: 330, YMax: 582}
	var kept bool
	for _, b := range got {
		kept = kept || b.Title == "POST DETAIL" && b.Box.YMin <= 70 && b.Box.YMax >= 575 && b.Box.XMax < 330
	}
	if !kept {
		t.Errorf("no Detail block from the post (y 60) down to its title (y 582) %s", fmtBox(post))
	}
}

// A framed view of sign types with a title bar (and its scale) at the top:
// small framed signs, each with leader notes broken over lines, some lines
// naming a kind ("SYMBOL OF" / "ACCESSIBILITY", "INDICATED IN" /
// "SCHEDULE"). A line going on from the one over it heads nothing, so the
// frame is one block, not a panel of blocks.
func TestLeaderNotesHeadNoPanel(t *testing.T) {
	img, words, line := sheetWithBorder()
	fillRect(img, 60, 60, 500, 700) // a plan beside it
	rectOutline(img, 560, 60, 1300, 620, 2)
	line(575, 70, 16, "TYPICAL SIGN TYPES")
	line(1120, 72, 11, `SCALE: 3" = 1'-0"`)
	fillRect(img, 560, 94, 1300, 96)
	for i, x := range []int{780, 1100} {
		rectOutline(img, x, 140, x+180, 330, 2)
		line(float64(x+20), 200, 14, "EXIT STAIR")
		line(float64(x+20), 240, 14, "ROOM 215")
		line(float64(x+10), 340, 10, []string{"SIGN TYPE 1A", "SIGN TYPE 2B"}[i])
	}
	for i, s := range []string{"PICTOGRAMS;", "SYMBOL OF", "ACCESSIBILITY", "TO BE INCLUDED"} {
		line(600, float64(150+15*i), 11, s)
	}
	fillRect(img, 700, 160, 780, 161)
	for i, s := range []string{"ONLY WHERE", "INDICATED IN", "SCHEDULE", "ROOM NUMBER", "TEXT AS", "SCHEDULED"} {
		line(975, float64(150+15*i), 11, s)
	}
	fillRect(img, 1060, 190, 1100, 191)
	for x := 600; x < 1250; x += 50 { // sign drawings lower down
		rectOutline(img, x, 420, x+35, 560, 2)
	}
	got := Segment(img, *words, (*words)[0].Box)
	for _, b := range got {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
	}
	if want := (geom.Box{XMin: 560, YMin: 60, XMax: 1300, YMax: 620}); !foundBox(got, "", want, 0.9) {
		t.Errorf("the framed view %s is not one block", fmtBox(want))
	}
}

// Lines along the work area's edges that run from one of its ends are what
// is left of a border; a box's side as near the edge that reaches neither
// end (a frame drawn just inside the border, clear of its corners) is none.
func TestBorderLinesRunFromAnEnd(t *testing.T) {
	m := &mask{w: 1000, h: 700, ink: make([]bool, 1000*700)}
	row := func(y, x0, x1 int) {
		for x := x0; x < x1; x++ {
			m.ink[y*m.w+x] = true
		}
	}
	row(4, 0, 700)   // from the left end
	row(9, 250, 930) // a frame's top: 680 long, 70 short of the right end
	got := map[int]bool{}
	for _, b := range m.borderLines(rect{0, 0, 1000, 700}) {
		got[b.y0] = b.h() == 1 && b.w() == 1000
	}
	if !got[4] {
		t.Errorf("the line from the left end is not a border line")
	}
	if got[9] {
		t.Errorf("the frame's top side, clear of both ends, is taken for a border line")
	}
}
