package layout

import (
	"fmt"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

// Three schedules printed side by side without outer frames, a narrow
// gutter between them (less than a gap between blocks), each a title bar,
// a header row and groups of ruled rows under a room's name; the first runs
// to the bottom and a drawing under the other two spans their gutter, so
// no whitespace cut parts them. Each is a Schedule block of its own, by
// its own ruling: the same edges and the same column dividers from its
// header down.
func TestFramelessSchedulesSideBySide(t *testing.T) {
	img := blank(1400, 900)
	rectOutline(img, 10, 10, 1390, 890, 3) // border
	fillRect(img, 10, 800, 1390, 803)      // title strip's separator
	words := drawWords(img, nil, 1, 1200, 830, 40, "A101")
	n := 2
	line := func(x, y, h float64, s string) {
		words = drawWords(img, words, n, x, y, h, s)
		n++
	}
	table := func(x0, x1, bottom int, title string) geom.Box {
		rectOutline(img, x0, 40, x1, 70, 1) // title bar
		line(float64(x0+20), 48, 14, title)
		row := func(y int) { // a ruled row with its dividers
			rectOutline(img, x0, y, x1, y+20, 1)
			for _, d := range []int{40, 90, 230} {
				fillRect(img, x0+d, y, x0+d+1, y+20)
			}
		}
		row(75) // the header
		line(float64(x0+3), 80, 9, "TYPE")
		y := 105
		for g := 0; y+80 < bottom; g++ {
			line(float64(x0+3), float64(y+3), 10, fmt.Sprintf("ROOM %d", 100+g))
			y += 20
			for r := 0; r < 2; r++ {
				row(y)
				line(float64(x0+3), float64(y+5), 10, "2A")
				line(float64(x0+95), float64(y+5), 10, "EXIT SIGN")
				y += 20
			}
			y += 10
		}
		return geom.Box{XMin: float64(x0), YMin: 40, XMax: float64(x1 + 1), YMax: float64(y - 10 + 1)}
	}
	want := []geom.Box{
		table(40, 340, 780, "DOOR SCHEDULE - LEVEL 1"),
		table(350, 650, 560, "DOOR SCHEDULE - LEVEL 2"),
		table(660, 960, 560, "DOOR SCHEDULE - LEVEL 3"),
	}
	// a drawing under the last two, across their gutter, and one beside them
	fillRect(img, 400, 600, 1000, 740)
	fillRect(img, 1010, 60, 1350, 500)
	got := Segment(img, words, words[0].Box)
	for _, b := range got {
		t.Logf("%s %q %s", b.Type, b.Title, fmtBox(b.Box))
	}
	for i, w := range want {
		found := false
		for _, b := range got {
			found = found || b.Type == "Schedule" && b.Box.IoU(w) >= 0.8
		}
		if !found {
			t.Errorf("schedule %d %s not found", i+1, fmtBox(w))
		}
	}
}
