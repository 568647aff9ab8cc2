package symbols

import (
	"image"
	"math"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render/rendertest"
)

// synthSheet draws synthetic sheet 1 of the given seed (internal/tools/synth)
// and renders it at 300 DPI; also the path of its PDF (in a temporary
// directory).
func synthSheet(t *testing.T, seed int64) (*image.Gray, synth.SheetTruth, string) {
	t.Helper()
	page, set, pdf := rendertest.SynthSheet(t, seed)
	return page, set.Truth.Sheets[0], pdf
}

// legendTemplates cuts a synthetic sheet's legend graphics out of its page
// (2 px of paper around each, as the parse job stores them).
func legendTemplates(page *image.Gray, st synth.SheetTruth) []Template {
	var tmpls []Template
	for _, b := range st.Blocks {
		for _, e := range b.Entries {
			if e.GraphicBox != nil {
				r := pixRect(*e.GraphicBox, 2).Intersect(page.Rect)
				tmpls = append(tmpls, Template{Label: e.Label, Image: page.SubImage(r).(*image.Gray)})
			}
		}
	}
	return tmpls
}

func pixRect(b geom.Box, pad int) image.Rectangle {
	return image.Rect(int(math.Floor(b.XMin))-pad, int(math.Floor(b.YMin))-pad, int(math.Ceil(b.XMax))+pad, int(math.Ceil(b.YMax))+pad)
}
