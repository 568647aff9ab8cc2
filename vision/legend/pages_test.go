package legend

import (
	"image"
	"math"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/sheetinfo"
	"github.com/plangraph/plangraph/vision/text"
)

// dpi is the resolution blocks are parsed at, as in ingestion.
const dpi = 300

// sheetPage is a rendered page with its words and segmented blocks.
type sheetPage struct {
	img    *image.Gray
	words  []text.Word
	blocks []layout.Block
}

// renderPages renders the given 1-based pages of a PDF at dpi and segments
// them the way ingestion does.
func renderPages(t *testing.T, path string, pages ...int) []sheetPage {
	t.Helper()
	doc := rendertest.Open(t, path, render.TypePDF, dpi)
	defer doc.Close()
	var out []sheetPage
	for _, pg := range pages {
		img := rendertest.Render(t, doc, pg)
		page := rendertest.Words(t, path, pg, dpi)
		b := img.Bounds()
		info := sheetinfo.Read(page.Words, float64(b.Dx()), float64(b.Dy()))
		out = append(out, sheetPage{img, page.Words, layout.Segment(img, page.Words, info.NumberBox)})
	}
	return out
}

// crop cuts a block out of a page as ingestion stores it: the image
// (a sub-image) and the words inside it, translated to block pixels.
func (sp sheetPage) crop(bb geom.Box) (*image.Gray, []text.Word) {
	r := image.Rect(int(bb.XMin), int(bb.YMin), int(math.Ceil(bb.XMax)), int(math.Ceil(bb.YMax))).Intersect(sp.img.Rect)
	var inside []text.Word
	for _, w := range sp.words {
		if w.Box.XMin >= bb.XMin && w.Box.YMin >= bb.YMin && w.Box.XMax <= bb.XMax && w.Box.YMax <= bb.YMax {
			w.Box = w.Box.Translate(-bb.XMin, -bb.YMin)
			inside = append(inside, w)
		}
	}
	return sp.img.SubImage(r).(*image.Gray), inside
}
