package layout

import "testing"

// A lone line down the margin is cleared from the mask; a line with ink
// beside it along its length (a frame's side by its content) and short
// lines stay, and so does the part of the margin line that runs beside
// text.
func TestClearEdgeRules(t *testing.T) {
	m := &mask{w: 400, h: 400, ink: make([]bool, 400*400)}
	set := func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				m.ink[y*m.w+x] = true
			}
		}
	}
	const em = 10.0
	set(5, 10, 6, 390)    // margin line, x=5, y 10..390
	set(9, 300, 40, 312)  // text beside its lower part (y 300..390)
	set(9, 320, 40, 332)  //
	set(9, 340, 40, 352)  //
	set(9, 360, 40, 372)  //
	set(9, 380, 40, 392)  //
	set(394, 10, 395, 60) // a short line at the right edge: 5 em
	m.clearEdgeRules(rect{0, 0, 400, 400}, em)
	if m.at(5, 100) || m.at(5, 250) {
		t.Error("the lone stretch of the margin line stayed")
	}
	if !m.at(5, 350) {
		t.Error("the margin line beside the text was cleared")
	}
	if !m.at(394, 30) {
		t.Error("a short line was cleared")
	}
}
