package parse

// What is not made into a template to search for, and why: a legend
// entry's own reasons (text only, a line style, a blank or tiny graphic),
// said once by the legend job, and a symbol's size against a block's, said
// by each block's search.

import (
	"context"
	"fmt"
	"image"
	"math"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/vision/legend"
	"github.com/plangraph/plangraph/vision/render"
)

// sheetDPI is the resolution of a block's sheet (300 when unknown).
func (p *Parse) sheetDPI(ctx context.Context, b *ent.Block) int {
	if s, err := p.R.DB.Sheet.Get(ctx, b.SheetID); err == nil && s.Dpi > 0 {
		return s.Dpi
	}
	return 300
}

// minSymbolPx is the smallest symbol side searched for at dpi.
func minSymbolPx(dpi int) int {
	return int(math.Ceil(float64(MinSymbolPixels300) * float64(dpi) / 300))
}

// entryWarnings names the entries of legend block blockID that are not
// made into templates, and why: a text-only entry (no graphic: nothing to
// search for), a graphic with no ink once cut, a line style (lengths, not
// symbols) or a graphic under minPx. feats are the entries' stored
// features and stored their graphics as stored (nil for none). A legend
// whose entries are all text (an abbreviation or term list) is named once.
func entryWarnings(blockID string, entries []legend.Entry, feats []*ent.Feature, stored []*image.Gray, minPx int) []ParseWarning {
	var warns, textOnly []ParseWarning
	for i, e := range entries {
		f := feats[i]
		switch {
		case !e.HasGraphic:
			textOnly = append(textOnly, ParseWarning{Code: WarnTextOnly, BlockID: blockID, FeatureID: f.ID, Label: f.Label,
				Message: "the legend entry is text only (no graphic was found beside its text): there is nothing to search for"})
		case stored[i] == nil || !f.HasGraphic:
			warns = append(warns, ParseWarning{Code: WarnSymbolSkipped, BlockID: blockID, FeatureID: f.ID, Label: f.Label,
				Message: "the legend entry's graphic has no ink once cut from the legend: it is not searched"})
		default:
			if why := templateProblem(stored[i], minPx); why != "" {
				warns = append(warns, ParseWarning{Code: WarnSymbolSkipped, BlockID: blockID, FeatureID: f.ID, Label: f.Label, Message: why})
			}
		}
	}
	if len(textOnly) > 0 && len(textOnly) == len(entries) {
		return append(warns, ParseWarning{Code: WarnTextOnly, BlockID: blockID, Message: fmt.Sprintf(
			"the legend's %d entries are all text (a list of terms, abbreviations or notes): there is nothing in it to search for", len(entries))})
	}
	return append(warns, textOnly...)
}

// templateProblem says why a legend graphic's stored image ex is not
// searched for anywhere (minPx: the smallest symbol side), or "".
func templateProblem(ex *image.Gray, minPx int) string {
	// the symbol's size is its ink's (stored images keep some paper)
	ink, drawn := render.InkBounds(ex)
	w, h := ink.Dx(), ink.Dy()
	switch {
	case !drawn:
		return "the symbol image is blank"
	case render.LineStyle(ex, ink):
		return fmt.Sprintf("the entry is a line style (a %d×%d px sample, open at both ends): a line style marks lengths of walls or runs, not symbols to count: it is not counted (nor are its lengths measured)", w, h)
	case w < minPx || h < minPx:
		return fmt.Sprintf("the symbol is %d×%d px, under the %d px minimum (10 px at 300 DPI)", w, h, minPx)
	}
	return ""
}

// unsearchable says why a symbol's stored image ex is not searched for in
// a block of bw×bh px (minPx: the smallest symbol side), or "".
func unsearchable(ex *image.Gray, minPx, bw, bh int) string {
	if why := templateProblem(ex, minPx); why != "" {
		return why
	}
	ink, _ := render.InkBounds(ex)
	w, h := ink.Dx(), ink.Dy()
	if float64(w)*0.5 > float64(bw) || float64(h)*0.5 > float64(bh) {
		return fmt.Sprintf("the symbol (%d×%d px) is larger than the block (%d×%d px) even at half size", w, h, bw, bh)
	}
	return ""
}
