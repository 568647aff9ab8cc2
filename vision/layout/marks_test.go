package layout

import (
	"image"
	"math"
	"testing"

	"github.com/plangraph/plangraph/vision/text"
)

func TestArrowOrScale(t *testing.T) {
	for s, want := range map[string]bool{
		"REFERENCE NORTH": true, "TRUE NORTH 5.33 ft": true, "N": true, `SCALE: 1/8"=1'-0"`: true,
		"0' REFERENCE NORTH TRU E NO 5.33 ft RTH 8' SCALE:": true, "NORTH WING": false,
		"0' 8' 16'": false, "NORTH ELEVATION": false, "SITE PLAN": false, "SCALE: 1:100 FLOOR PLAN": false,
	} {
		var words []text.Word
		words = drawWords(blank(600, 40), words, 1, 0, 0, 12, s)
		if got := arrowOrScale(words); got != want {
			t.Errorf("arrowOrScale(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestPlotStamp(t *testing.T) {
	for s, want := range map[string]bool{
		"2017/05/28 13:07:43": true, "05.11.2023 9:41 AM": true, "12:30": true,
		"2017/05/28 SITE PLAN": false, "1:100": false, "": false,
	} {
		words := drawWords(blank(600, 40), nil, 1, 0, 0, 12, s)
		if got := plotStamp(words); got != want {
			t.Errorf("plotStamp(%q) = %v, want %v", s, got, want)
		}
	}
}

// A north arrow and a graphic scale set apart below a plan, beside the
// title block, are no blocks (lamb's came out as a GeneralNotes titled
// "REFERENCE NORTH" and an untitled Plan, the arrow's circle), nor is a
// plot stamp under the views.
func TestNorthArrowIsNoBlock(t *testing.T) {
	img, words := titledSheet("FLOOR PLAN")
	rectOutline(img, 100, 80, 900, 600, 6) // the plan's walls
	fillRect(img, 480, 80, 486, 600)
	fillRect(img, 100, 330, 480, 336)
	words = drawWords(img, words, 3, 200, 180, 12, "LIVING ROOM")
	words = drawWords(img, words, 4, 600, 300, 12, "KITCHEN")
	words = drawWords(img, words, 5, 200, 420, 12, "BEDROOM")
	words = drawWords(img, words, 6, 100, 640, 20, "FLOOR PLAN")
	words = drawWords(img, words, 7, 100, 668, 12, `SCALE: 1/8"=1'-0"`)
	// the arrow: a circle, a needle and its label, and a graphic
	// scale under it, well clear of the plan
	for a := 0.0; a < 2*math.Pi; a += 0.02 {
		x, y := 1190+40*math.Cos(a), 640+40*math.Sin(a)
		fillRect(img, int(x)-1, int(y)-1, int(x)+2, int(y)+2)
	}
	fillRect(img, 1188, 560, 1192, 760)
	words = drawWords(img, words, 8, 1200, 690, 12, "REFERENCE NORTH")
	fillRect(img, 1120, 820, 1300, 826)
	words = drawWords(img, words, 9, 1120, 800, 10, "0' 8' 16'")
	words = drawWords(img, words, 10, 1120, 835, 12, `SCALE: 1/8"=1'-0"`)
	// a plot stamp
	words = drawWords(img, words, 11, 300, 960, 10, "2017/05/28 13:07:43")
	for i := 0; i < 3; i++ { // notes elsewhere set the type size
		words = drawWords(img, words, 20+i, 1000, 100+16*float64(i), 10, "ALL WORK TO COMPLY")
	}
	blocks := Segment(img, words, words[0].Box)
	for _, b := range blocks {
		if b.Box.XMin > 1100 && b.Box.XMax < 1400 && b.Box.YMin > 500 {
			t.Errorf("block %s %q %s: the north arrow or its scale", b.Type, b.Title, fmtBox(b.Box))
		}
		if b.Box.YMin > 900 && b.Box.XMax < 1400 {
			t.Errorf("block %s %q %s: the plot stamp", b.Type, b.Title, fmtBox(b.Box))
		}
	}
	plan := false
	for _, b := range blocks {
		plan = plan || b.Type == "Plan" && b.Title == "FLOOR PLAN"
	}
	if !plan {
		t.Errorf("no FLOOR PLAN in %+v", blocks)
	}
}

// titledSheet is a 1600 × 1000 sheet with a border and a title block at
// its right holding the sheet number A101 (words[0]) and the title.
func titledSheet(title string) (*image.Gray, []text.Word) {
	img := blank(1600, 1000)
	rectOutline(img, 10, 10, 1590, 990, 3)
	fillRect(img, 1400, 10, 1403, 990) // the title block's edge
	words := drawWords(img, nil, 1, 1420, 900, 40, "A101")
	return img, drawWords(img, words, 2, 1420, 850, 16, title)
}

// A sheet's corner mark ("┌": two strokes a couple of letters long, no
// words) is no block; a small region with words, or a wordless one larger
// than a couple of letters, stays.
func TestCornerMarkIsNoBlock(t *testing.T) {
	words := drawWords(blank(1600, 1000), nil, 1, 600, 500, 14, "LIVING ROOM")
	words = drawWords(blank(1600, 1000), words, 2, 40, 300, 14, "WC")
	rs := []region{
		{r: rect{200, 200, 1200, 800}}, // the plan
		{r: rect{1540, 20, 1560, 40}},  // the mark: 20 px, under 2 em
		{r: rect{36, 296, 76, 318}},    // a small labelled region
		{r: rect{1400, 100, 1460, 160}},
	}
	got := dropMarks(rs, words, 14)
	if len(got) != 3 {
		t.Fatalf("kept %v", got)
	}
	for _, r := range got {
		if r.r.x0 == 1540 {
			t.Errorf("the corner mark is kept")
		}
	}
}

// A north arrow stacked over its graphic scale may stand over 30 em tall;
// OCR reads an arrow's head as a doubtful word ("gy", 0.56): neither keeps
// the figure a block.
func TestStackedArrowAndScaleOCR(t *testing.T) {
	for _, c := range []struct {
		name  string
		h     int
		noise bool
	}{{"34 em tall", 340, false}, {"a doubtful word", 200, true}} {
		img := blank(1600, 1000)
		words := drawWords(img, nil, 1, 600, 500, 10, "LIVING ROOM")
		words = drawWords(img, words, 2, 1300, 150+float64(c.h)-40, 10, `0 4 8' SCALE: 1/4"=1'-0"`)
		if c.noise {
			words = drawWords(img, words, 3, 1330, 170, 10, "gy")
		}
		for i := range words {
			words[i].Conf = 0.9
		}
		if c.noise {
			words[len(words)-1].Conf = 0.56
		}
		rs := []region{{r: rect{200, 200, 1200, 800}}, {r: rect{1290, 150, 1460, 150 + c.h}}}
		if got := dropMarks(rs, words, 10); len(got) != 1 {
			t.Errorf("%s: kept %v, want the plan only", c.name, got)
		}
	}
}

// A framed box holding only a graphic scale in a small part of it (a
// stamp's empty box a scale bar was set in) is no block; a framed key plan
// labelled only NORTH fills its box and stays one.
func TestBoxedScaleBarIsNoBlock(t *testing.T) {
	for _, keyPlan := range []bool{false, true} {
		img, words := titledSheet("ROOF PLAN")
		rectOutline(img, 100, 80, 900, 600, 6) // the plan
		fillRect(img, 480, 80, 486, 600)
		words = drawWords(img, words, 3, 200, 180, 12, "LIVING ROOM")
		words = drawWords(img, words, 4, 100, 640, 20, "ROOF PLAN")
		words = drawWords(img, words, 5, 100, 668, 12, `SCALE: 1/4"=1'-0"`)
		rectOutline(img, 1100, 600, 1350, 850, 3) // the box
		if keyPlan {
			rectOutline(img, 1120, 620, 1330, 800, 4)
			fillRect(img, 1120, 700, 1330, 704)
			fillRect(img, 1220, 620, 1224, 800)
			words = drawWords(img, words, 6, 1250, 810, 12, "NORTH")
		} else {
			fillRect(img, 1150, 790, 1300, 800) // the scale bar
			words = drawWords(img, words, 6, 1150, 770, 10, "0' 4' 8'")
			words = drawWords(img, words, 7, 1150, 810, 10, `SCALE: 1/4"=1'-0"`)
		}
		for i := 0; i < 3; i++ {
			words = drawWords(img, words, 20+i, 1000, 100+16*float64(i), 10, "ALL WORK TO COMPLY")
		}
		found := false
		for _, b := range Segment(img, words, words[0].Box) {
			found = found || b.Box.XMin > 1050 && b.Box.XMax < 1400 && b.Box.YMin > 550 && b.Type != "TitleBlock"
		}
		if found != keyPlan {
			t.Errorf("key plan %v: a block in the box %v, want %v", keyPlan, found, keyPlan)
		}
	}
}
