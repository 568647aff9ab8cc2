package layout

import "testing"

// An untitled plan whose walls cross it from side to side, a room apart,
// is no schedule for its rules: a table's rows are a few lines of text
// apart (the care home's plan, scanned, its title read by OCR as nothing
// that names a view, came out as a Schedule).
func TestPlanWallsAreNoTableRules(t *testing.T) {
	img, words := titledSheet("GRUNDRISS")
	rectOutline(img, 80, 80, 1300, 900, 6)
	for _, y := range []int{280, 480, 680} { // walls from side to side
		fillRect(img, 80, y, 1300, y+6)
	}
	for _, x := range []int{480, 880} {
		fillRect(img, x, 80, x+6, 900)
	}
	n := 3
	for _, y := range []float64{150, 350, 550, 750} {
		for _, x := range []float64{150, 550, 950} {
			words = drawWords(img, words, n, x, y, 12, "RAUM 0.12")
			words = drawWords(img, words, n+1, x, y+20, 10, "24,5 m²")
			n += 2
		}
	}
	for _, b := range Segment(img, words, words[0].Box) {
		if b.Box.XMin < 200 && b.Box.XMax > 1200 && b.Type == "Schedule" {
			t.Errorf("the plan is a %s %q %s", b.Type, b.Title, fmtBox(b.Box))
		}
	}
}
