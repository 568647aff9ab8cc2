package sheetread

import (
	"context"
	"image"
	"math"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/ocr"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/text"
)

// markMinConf: a revision mark read alone is kept at this confidence.
const markMinConf = 0.6

// markPx is the height a mark is shrunk to, at most, before it is read.
const markPx = 48.0

// readMarks reads the revision marks OCR passed over: in each of regions
// (the value regions of revision labels with no value read) the one line
// of ink no word covers, 0.6 to 8 text heights tall and of four pieces at
// most (inkLines: "A", "j", "P01"), read alone as one word. A page-wide
// reading passes a lone letter by, and a block's reading of its cell often
// too. It returns the marks read with confidence, one to four letters or
// digits (boxes in img's pixels).
func readMarks(ctx context.Context, img *image.Gray, words []text.Word, regions []geom.Box, langs []string) ([]text.Word, error) {
	var out []text.Word
	for i, rg := range regions {
		ls := inkLines(img, rg, words, 0.6, 8)
		if len(ls) != 1 || ls[0].pieces > 4 {
			continue
		}
		r := ls[0].Box
		h := r.Height()
		work := markImage(img, r)
		if work == nil {
			continue
		}
		f := math.Min(1, markPx/h)
		if f < 1 {
			work = render.Resize(work, max(1, int(float64(work.Rect.Dx())*f)), max(1, int(float64(work.Rect.Dy())*f)))
		}
		ws, err := ocr.Words(ctx, work, 0, ocr.Options{MinConf: -1, Word: true, Languages: langs})
		if err != nil {
			return nil, err
		}
		for _, w := range ws {
			if n := alnums(w.Text); n < 1 || n > 4 || w.Conf < markMinConf {
				continue
			}
			w.Box = r // the ink read
			w.Line = 1 + i
			out = append(out, w)
		}
	}
	return out, nil
}

// markImage is the ink of a mark's box r (img's pixels, relative to its
// bounds) and of the band over it as high as half the mark (the dot of a
// "j" or an "i", an accent: pieces too small to count), on white paper
// half the mark's height wide all round, so that nothing beside it (a
// cell's rule, the next field's lettering) is read with it; nil when r is
// off the image.
func markImage(img *image.Gray, r geom.Box) *image.Gray {
	b := img.Bounds()
	h := r.Height()
	src := image.Rect(int(r.XMin), int(r.YMin-0.5*h), int(math.Ceil(r.XMax)), int(math.Ceil(r.YMax))).Add(b.Min).Intersect(b)
	if src.Empty() {
		return nil
	}
	pad := int(math.Ceil(0.5 * h))
	out := image.NewGray(image.Rect(0, 0, src.Dx()+2*pad, src.Dy()+2*pad))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	for y := 0; y < src.Dy(); y++ {
		copy(out.Pix[out.PixOffset(pad, pad+y):out.PixOffset(pad+src.Dx(), pad+y)], img.Pix[img.PixOffset(src.Min.X, src.Min.Y+y):])
	}
	return out
}
