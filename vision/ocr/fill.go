package ocr

import (
	"context"
	"image"
	"strings"

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

// Tag reads img as one short word (a legend's tag cut from its page): the
// words Tesseract finds in it joined without spaces and their lowest
// confidence in 0..1, or "" and 0 when it reads nothing. It reads the crop
// as a word and, unless that reading is sure (tagSure), as a block too,
// and keeps the surer: each mode misreads some crops the other reads
// ("SS" read as ")" by one, "RES-W" as "-RES-W" by the other).
func Tag(img *image.Gray) (string, float64) {
	s, conf := readTag(img, Options{Word: true, MinConf: -1})
	if conf < tagSure {
		if s2, conf2 := readTag(img, Options{Block: true, MinConf: -1}); conf2 > conf {
			return s2, conf2
		}
	}
	return s, conf
}

// tagSure: a tag read this surely as a word is not read again.
const tagSure = 0.8

func readTag(img *image.Gray, opt Options) (string, float64) {
	ws, err := Words(context.Background(), img, 0, opt)
	if err != nil || len(ws) == 0 {
		return "", 0
	}
	var b strings.Builder
	conf := 1.0
	for _, w := range ws {
		b.WriteString(w.Text)
		conf = min(conf, w.Conf)
	}
	return b.String(), conf
}
