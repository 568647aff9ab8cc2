package symbols

import (
	"context"
	"testing"
)

// Lines drawn through symbols that are far shorter than the walls (a
// wiring run a few symbols long through each downlighter, as crayfish's
// electrical plans draw them) are not the symbols' surroundings either:
// with only lines longer than 2.5× the largest legend symbol known to
// cross a symbol, of three circled triangles each on a 160 px wire (the
// legend's largest symbol 130 px) the two on slanted wires correlated at
// 0.81 and explained 0.74–0.75 of the ink about them (confidence
// 0.30–0.36) and were missed. The panel, as long as the wires, is found
// nowhere along them.
func TestMatchFindsSymbolsOnShortWires(t *testing.T) {
	hd := canvas(60, 60)
	circledTriangle(hd, 30, 30, 1, 0, 2)
	panel := crossedBox(130, 70)
	img := canvas(1000, 340)
	poses := [][3]float64{{170, 170, 1.0}, {500, 170, 0.9}, {830, 170, 1.1}}
	for i, p := range poses {
		circledTriangle(img, p[0], p[1], p[2], 20+float64(i)*50, 2)
		slantLine(img, p[0]+3, p[1]-2, float64(i)*35, 80, 2)
	}
	line(img, 15, 15, 985, 15, 2)
	line(img, 15, 325, 985, 325, 2)
	res, err := Match(context.Background(), img, []Template{{Label: "HD", Image: hd}, {Label: "panel", Image: panel}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	expectAt(t, res.Detections, poses, 27, 0.5)
	if len(res.Detections) != len(poses) {
		t.Errorf("%d detections, want %d: %+v", len(res.Detections), len(poses), res.Detections)
	}
}
