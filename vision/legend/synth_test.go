package legend

import (
	"fmt"
	"image"
	"path/filepath"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// legendCase is one Legend block as production sees it: the block's image
// and words (block pixels, as layout.Segment and the ingestion crop make
// them) and the generator's entries translated into the same pixels.
type legendCase struct {
	name string
	// file, page and origin (the block's box on the page) of a real sheet
	file   string
	page   int
	origin geom.Box
	img    *image.Gray
	words  []text.Word
	want   []synth.LegendEntryTruth
	// segIoU is the IoU of the segmented block with the true one.
	segIoU float64
}

// synthLegends renders the sheets of one synthetic set at 300 DPI,
// segments them and returns their Legend blocks.
func synthLegends(t *testing.T, seed int64, sheets int) []legendCase {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: seed, Sheets: sheets})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("synth-%d.pdf", seed))
	if err := synth.WriteFile(path, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	pages := make([]int, len(set.Truth.Sheets))
	for i, st := range set.Truth.Sheets {
		pages[i] = st.Page
	}
	var out []legendCase
	for i, sp := range renderPages(t, path, pages...) {
		st := set.Truth.Sheets[i]
		for li, tb := range st.Blocks {
			if tb.Type != "Legend" {
				continue
			}
			// the segmented block that best covers the true legend
			best, bb := 0.0, geom.Box{}
			for _, g := range sp.blocks {
				if iou := g.Box.IoU(tb.Box); iou > best {
					best, bb = iou, g.Box
				}
			}
			if best < 0.5 {
				t.Logf("seed %d page %d legend %d: segmentation missed it (IoU %.2f); using the true box", seed, st.Page, li, best)
				bb = tb.Box
			}
			img, words := sp.crop(bb)
			var want []synth.LegendEntryTruth
			for _, e := range tb.Entries {
				e.Box = e.Box.Translate(-bb.XMin, -bb.YMin)
				e.LabelBox = e.LabelBox.Translate(-bb.XMin, -bb.YMin)
				e.DescriptionBox = e.DescriptionBox.Translate(-bb.XMin, -bb.YMin)
				if e.GraphicBox != nil {
					g := e.GraphicBox.Translate(-bb.XMin, -bb.YMin)
					e.GraphicBox = &g
				}
				want = append(want, e)
			}
			out = append(out, legendCase{
				name: fmt.Sprintf("seed%d-p%d-b%d", seed, st.Page, li),
				img:  img, words: words, want: want, segIoU: best,
			})
		}
	}
	return out
}
