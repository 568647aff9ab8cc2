package sheetread

import (
	"context"
	"image"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/ocr"
	"github.com/plangraph/plangraph/vision/text"
)

// closeReading are the block types whose every word counts and whose
// lettering is small: a legend's terms and meanings become the symbols'
// names and the abbreviations' meanings.
var closeReading = map[string]bool{"Legend": true}

// rereadMinConf keeps words read with less confidence than the page's
// reading keeps: an English model reads "Brüstungshöhe" at 0.38; the
// legend reader judges such words by the line they stand in.
const rereadMinConf = 0.2

// Reread reads the legends among blocks again by OCR, each region on its
// own at the page's full resolution, where most of the page's words there
// are OCR's or where lettering no word covers lies (a text layer's legend
// with a few letters OCR read in its symbols is as it was): the page as a whole is
// read downscaled to ocr.DefaultMaxPixels (an A0 sheet at 300 DPI at
// about 130 DPI), where a legend's 2 mm lettering is too small to read
// whole ("BRH = Brüstungshöhe" read as "BRH" alone, its "=" boxed over
// three rows). A closer reading replaces OCR's words where it found one
// over them and keeps the text layer's; it reports whether it read any
// region.
func Reread(ctx context.Context, img *image.Gray, dpi int, words []text.Word, pg *layout.Page, blocks []layout.Block) ([]text.Word, bool, error) {
	var regions []geom.Box
	for _, b := range blocks {
		if !closeReading[b.Type] {
			continue
		}
		ocrd, n := 0, 0
		for _, w := range words {
			if centreIn(w.Box, b.Box) {
				n++
				if w.Conf > 0 && w.Conf < 1 {
					ocrd++
				}
			}
		}
		unread, total := 0, 0
		if pg != nil {
			unread, total = pg.UnreadText(b.Box)
		}
		if ocrd > 0 && 2*ocrd >= n || unread >= 12 && 3*unread >= total {
			regions = append(regions, b.Box)
		}
	}
	if len(regions) == 0 {
		return words, false, nil
	}
	again, err := ocr.Regions(ctx, img, dpi, regions, ocr.Options{MinConf: rereadMinConf, Languages: ocr.LanguagesFor(words)})
	if err != nil || len(again) == 0 {
		return words, false, err
	}
	return replaceIn(words, again, regions), true, nil
}
