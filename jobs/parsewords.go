package jobs

// Detections on words. A symbol whose legend graphic holds no text is not
// a word of the drawing: a strip light (a bar with a dot at each end) or a
// circle matches bold letters well enough in shape, but when the sheet's
// text (its PDF text layer, or OCR of a scan) has a word where the
// detection is, it is text. Symbols drawn with letters (a circled M, GFI
// beside a receptacle) keep every detection: their legend graphics hold
// words too. Symbols supplied with the request (images, exemplars) are not
// on a legend block whose words are known, and keep theirs.

import (
	"context"
	"unicode"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
)

const (
	// wordCover: a detection whose box is covered this much by words lies
	// on text. A tag beside a symbol overlaps its box by a fraction of it.
	wordCover = 0.6
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
// graphicHasText, so that both rules err on keeping a detection).
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

// wordCoverage is the share of box's area covered by the boxes of the
// words that veto (words do not overlap one another; the share is capped
// at 1).
func wordCoverage(box geom.Box, words []text.Word) float64 {
	a := box.Area()
	if a == 0 {
		return 0
	}
	in := 0.0
	for _, w := range words {
		if vetoes(w) {
			in += box.Intersect(w.Box).Area()
		}
	}
	return min(in/a, 1)
}

// graphicHasText tells whether a word lies mostly inside a legend
// graphic's box (both in the legend block's pixels).
func graphicHasText(g geom.Box, words []text.Word) bool {
	for _, w := range words {
		if a := w.Box.Area(); a > 0 && g.Intersect(w.Box).Area() >= wordInside*a {
			return true
		}
	}
	return false
}

// dropOnWords removes the detections of textless templates (textless[i]
// for template i) that lie on words, and says how many it removed.
func dropOnWords(dets []symbols.Detection, textless []bool, words []text.Word) ([]symbols.Detection, int) {
	if len(words) == 0 {
		return dets, 0
	}
	kept := dets[:0:0]
	for _, d := range dets {
		if d.Template >= 0 && d.Template < len(textless) && textless[d.Template] && wordCoverage(d.Box, words) >= wordCover {
			continue
		}
		kept = append(kept, d)
	}
	return kept, len(dets) - len(kept)
}

// dropText removes the detections on block blockID of textless symbols
// (tmplFeat[i] is template i's legend entry) that lie on the block's
// words. The words are read only when there is something to drop, the
// legend blocks' words only when the block has words.
func (p *Parse) dropText(ctx context.Context, blockID string, tmplFeat []*ent.Feature, dets []symbols.Detection) []symbols.Detection {
	if len(dets) == 0 {
		return dets
	}
	words := p.blockWords(ctx, blockID)
	if len(words) == 0 {
		return dets
	}
	textless := make([]bool, len(tmplFeat))
	legendWords := map[string][]text.Word{}
	for i, f := range tmplFeat {
		if f.BlockID == "" || f.Bounds.Area() == 0 {
			continue
		}
		w, ok := legendWords[f.BlockID]
		if !ok {
			w = p.blockWords(ctx, f.BlockID)
			legendWords[f.BlockID] = w
		}
		textless[i] = !graphicHasText(f.Bounds, w)
	}
	kept, _ := dropOnWords(dets, textless, words)
	return kept
}
