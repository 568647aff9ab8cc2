package parse

// Detections on words. A symbol whose legend graphic holds no text is not
// a word of the drawing: a strip light (a bar with a dot at each end) or a
// circle matches bold letters well enough in shape, but when the sheet's
// text (its PDF text layer, or OCR of a scan) has a word where the
// detection is, it is text. The matcher drops such detections, and skips
// such candidates early (symbols.Template.NoText, symbols.Options.Words);
// this file decides which symbols are textless and which words count.
// Symbols drawn with letters (a circled M, GFI beside a receptacle) keep
// every detection: their legend graphics hold words too. Symbols supplied
// with the request (images, exemplars) are not on a legend block whose
// words are known, and keep theirs.

import (
	"context"
	"image"
	"math"
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
)

const (
	// wordInside: a word with this share of its box inside a legend
	// graphic's box is part of the graphic.
	wordInside = 0.5
	// wordConf: the confidence a word needs to veto a detection (a PDF
	// text layer's words have 1; OCR can read a symbol as a letter or two,
	// so a recognised word also needs wordChars letters or digits)
	wordConf  = 0.8
	wordChars = 2
)

// vetoes tells whether a word may show a detection to be text: a word
// sure enough to be one (any word of a legend graphic counts for
// graphicWords, so that both rules err on keeping a detection).
func vetoes(w text.Word) bool {
	if w.Conf < wordConf {
		return false
	}
	n := 0
	for _, r := range w.Text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n >= wordChars
}

// graphicWords are the words lying mostly inside a legend graphic's box
// (both in the legend block's pixels).
func graphicWords(g geom.Box, words []text.Word) []text.Word {
	var in []text.Word
	for _, w := range words {
		if a := w.Box.Area(); a > 0 && g.Intersect(w.Box).Area() >= wordInside*a {
			in = append(in, w)
		}
	}
	return in
}

// textInputs gives the matcher what it needs to tell symbols from text on
// block blockID (tmplFeat[i] is template i's legend entry): it marks each
// template read from a legend (tmpls[i]) with whether its graphic holds no
// word and, when it holds some, the share of its ink inside those that
// veto (the legend block's image is read for that) and what those words
// read (symbols.Template.Text, from the words sure enough to be read,
// single letters included); it returns the boxes of the block's words that
// veto and the words sure enough to be read, moved by (dx, dy) into the
// searched image. Nothing when the block has no words; the legend blocks'
// words are read only when the block has words.
func (p *Parse) textInputs(ctx context.Context, blockID string, tmplFeat []*ent.Feature, tmpls []symbols.Template, dx, dy float64) ([]geom.Box, []symbols.Word) {
	words := p.blockWords(ctx, blockID)
	if len(words) == 0 {
		return nil, nil
	}
	type legendBlock struct {
		words []text.Word
		veto  []geom.Box
		img   *image.Gray // read when a graphic holds words
		read  bool
	}
	legends := map[string]*legendBlock{}
	for i, f := range tmplFeat {
		if f.BlockID == "" || f.Bounds.Area() == 0 {
			continue
		}
		lb := legends[f.BlockID]
		if lb == nil {
			lb = &legendBlock{words: p.blockWords(ctx, f.BlockID)}
			lb.veto = vetoBoxes(lb.words, 0, 0)
			legends[f.BlockID] = lb
		}
		markText(&tmpls[i], f.Bounds, lb.words, lb.veto, func() *image.Gray {
			if !lb.read {
				lb.read = true
				if _, img, err := p.block(ctx, f.BlockID); err == nil {
					lb.img = img
				}
			}
			return lb.img
		})
	}
	return drawingText(words, dx, dy)
}

// markText marks template t, read from the legend graphic whose box is g on
// a legend block with words lwords (veto: those that veto) and image
// limg (read only when the graphic holds words), with whether the graphic
// holds no word, the share of its ink inside words that veto, and what
// its words read.
func markText(t *symbols.Template, g geom.Box, lwords []text.Word, veto []geom.Box, limg func() *image.Gray) {
	in := graphicWords(g, lwords)
	if len(in) == 0 {
		t.NoText, t.WordsKnown = true, true
		return
	}
	t.Text, t.TextBoxes = lettering(in, g)
	img := limg()
	if img == nil {
		return
	}
	r := image.Rect(int(math.Floor(g.XMin)), int(math.Floor(g.YMin)), int(math.Ceil(g.XMax)), int(math.Ceil(g.YMax)))
	if sub, ok := img.SubImage(r.Intersect(img.Rect)).(*image.Gray); ok {
		t.WordsKnown, t.WordInk = true, symbols.WordInk(sub, veto)
	}
}

// drawingText is what the matcher is told of a searched block's words:
// the boxes of those that veto and the words sure enough to be read, moved
// by (dx, dy) into the searched image.
func drawingText(words []text.Word, dx, dy float64) ([]geom.Box, []symbols.Word) {
	var letters []symbols.Word
	for _, w := range words {
		if w.Conf >= wordConf {
			letters = append(letters, symbols.Word{Box: w.Box.Translate(dx, dy), Text: w.Text})
		}
	}
	return vetoBoxes(words, dx, dy), letters
}

// lettering is what the words of a legend graphic whose box is g read —
// those sure enough to be read (a PDF text layer's, confident OCR's), in
// their order — and their boxes in the pixels of the graphic's stored image
// (the graphic cut to its ink with render.CropMargin of paper around it: its box's
// corner at (render.CropMargin, render.CropMargin)).
func lettering(words []text.Word, g geom.Box) (string, []geom.Box) {
	var parts []string
	var boxes []geom.Box
	for _, w := range words {
		if w.Conf >= wordConf {
			parts = append(parts, w.Text)
			boxes = append(boxes, w.Box.Translate(render.CropMargin-g.XMin, render.CropMargin-g.YMin))
		}
	}
	return strings.Join(parts, " "), boxes
}

// vetoBoxes are the boxes of the words that veto, moved by (dx, dy).
func vetoBoxes(words []text.Word, dx, dy float64) []geom.Box {
	var boxes []geom.Box
	for _, w := range words {
		if vetoes(w) {
			boxes = append(boxes, w.Box.Translate(dx, dy))
		}
	}
	return boxes
}
