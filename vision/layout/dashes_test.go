package layout

import "testing"

// A details sheet's reference grid drawn in dashes, most of its cells
// unused: the one detail drawn is a block of its cell, not of the grid the
// dashed lines join across the sheet.
func TestDashedGridJoinsNoCells(t *testing.T) {
	img := blank(1600, 1100)
	rectOutline(img, 10, 10, 1590, 1090, 3)
	fillRect(img, 1400, 10, 1403, 1090)
	words := drawWords(img, nil, 1, 1420, 1000, 40, "A401")
	for i := 0; i < 6; i++ { // notes in the title strip set the type size
		words = drawWords(img, words, 20+i, 1420, 100+12*float64(i), 8, "ALL WORK TO COMPLY")
	}
	dashed := func(x0, y0, x1, y1 int) { // a line of 24 px dashes, 12 px apart
		for x, y := x0, y0; x < x1 || y < y1; {
			if y0 == y1 {
				fillRect(img, x, y0, min(x+24, x1), y0+2)
				x += 36
			} else {
				fillRect(img, x0, y, x0+2, min(y+24, y1))
				y += 36
			}
		}
	}
	for _, x := range []int{360, 700, 1050} {
		dashed(x, 13, x, 1087)
	}
	for _, y := range []int{370, 730} {
		dashed(13, y, 1400, y)
	}
	// the one detail, in the middle cell of the top row
	rectOutline(img, 760, 60, 990, 260, 4)
	for x := 770; x < 990; x += 30 {
		fillRect(img, x, 120, x+14, 200)
	}
	words = drawWords(img, words, 2, 760, 300, 16, "3 WALL DETAIL")
	words = drawWords(img, words, 3, 760, 322, 8, `SCALE: 1 1/2"=1'-0"`)
	var got []Block
	for _, b := range Segment(img, words, words[0].Box) {
		if b.Type != "TitleBlock" {
			got = append(got, b)
		}
	}
	if len(got) != 1 || got[0].Title != "WALL DETAIL" || got[0].Box.XMin < 700 || got[0].Box.XMax > 1050 || got[0].Box.YMax > 370 {
		t.Errorf("blocks %+v, want the WALL DETAIL alone in its cell (x 700–1050, y to 370)", got)
	}
}

// Two unframed regions holding the same view title are parts of one view
// and become one; a region inside another holding no title of its own
// stays.
func TestJoinOverlappingSharesATitle(t *testing.T) {
	ts := []viewTitle{{bar: rect{120, 180, 200, 195}, title: "DOOR SILL PAN"}}
	rs := []region{
		{r: rect{100, 50, 300, 200}},  // the drawing and its title
		{r: rect{100, 150, 302, 205}}, // its notes and title, cut apart
		{r: rect{20, 20, 60, 60}},     // elsewhere
		{r: rect{110, 60, 150, 90}},   // inside the first, untitled
	}
	got := joinOverlapping(rs, ts)
	if len(got) != 3 || got[0].r != (rect{100, 50, 302, 205}) {
		t.Errorf("regions %+v, want the two holding the title as one {100 50 302 205} and the other two as they were", got)
	}
}
