package text

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

// A plan's hatching read by OCR as many "—" a few pixels tall does not set
// the page's type size: its words do.
func TestTypeHeightWithoutMarks(t *testing.T) {
	var ws []Word
	for i := range 5 {
		ws = append(ws, Word{Text: "SECTION", Box: geom.Box{XMin: 0, YMin: float64(100 * i), XMax: 200, YMax: float64(100*i) + 30}})
	}
	for i := range 12 {
		ws = append(ws, Word{Text: "—", Box: geom.Box{XMin: 300, YMin: float64(40 * i), XMax: 320, YMax: float64(40*i) + 4}})
	}
	ws = append(ws, Word{Text: "|", Box: geom.Box{XMin: 400, YMin: 0, XMax: 402, YMax: 60}})
	if h, n := TypeHeight(ws); h != 30 || n != 5 {
		t.Errorf("type height %v of %d words, want 30 of 5", h, n)
	}
	if h, n := TypeHeight(nil); h != 0 || n != 0 {
		t.Errorf("no words: %v, %d", h, n)
	}
}
