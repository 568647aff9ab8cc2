package ocr

import (
	"context"
	"image"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Fill reads region of img by OCR — a title block or legend whose
// lettering was exported as outlines on a sheet whose other text is a text
// layer — and returns words with the recognised ones added (those not
// already covered by a word of the layer), lines numbered after the
// layer's. It reports whether it read the region.
func Fill(ctx context.Context, img *image.Gray, dpi int, words []text.Word, region geom.Box, opt Options) ([]text.Word, bool, error) {
	maxLine := 0
	for _, w := range words {
		maxLine = max(maxLine, w.Line)
	}
	if !region.Valid() {
		return words, false, nil
	}
	got, err := Regions(ctx, img, dpi, []geom.Box{region}, opt)
	if err != nil {
		return words, false, err
	}
	out := append([]text.Word(nil), words...)
	for _, g := range got {
		covered := false
		for _, w := range words {
			if centreIn(g.Box, w.Box) || centreIn(w.Box, g.Box) {
				covered = true
				break
			}
		}
		if !covered {
			g.Line += maxLine
			out = append(out, g)
		}
	}
	return out, true, nil
}

func centreIn(b, r geom.Box) bool {
	cx, cy := (b.XMin+b.XMax)/2, (b.YMin+b.YMax)/2
	return cx >= r.XMin && cx <= r.XMax && cy >= r.YMin && cy <= r.YMax
}
