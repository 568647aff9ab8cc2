package layout

import (
	"image"
	"image/color"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

func TestDrawOutlinesAndLabels(t *testing.T) {
	page := image.NewGray(image.Rect(0, 0, 400, 300))
	for i := range page.Pix {
		page.Pix[i] = 255
	}
	out := Draw(page, []Block{{Type: "Legend", Title: "LEGEND", Box: geom.Box{XMin: 100, YMin: 50, XMax: 300, YMax: 250}}}, 1)
	want := typeColors["Legend"]
	if got := out.RGBAAt(100, 150); got != want {
		t.Fatalf("left edge %v, want %v", got, want)
	}
	if got := out.RGBAAt(200, 200); got != (color.RGBA{255, 255, 255, 255}) {
		t.Fatalf("inside changed: %v", got)
	}
	// the label sits in the top-left corner on the type's colour
	if got := out.RGBAAt(104, 53); got != want && got != (color.RGBA{255, 255, 255, 255}) {
		t.Fatalf("label area %v", got)
	}
	// scaled boxes and boxes off the page do not panic
	Draw(page, []Block{{Type: "Plan", Box: geom.Box{XMin: -50, YMin: -50, XMax: 5000, YMax: 5000}}}, 0.5)
}
