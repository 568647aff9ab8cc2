package compare

// Pairing blocks in a registered frame: when a revision was reprinted
// turned (a quarter turn, or a few degrees and rescaled), places as shares
// of the sheet no longer correspond, so the two sheets are registered first
// (the engine's registration on their thumbnails) and the older sheet's
// block boxes are mapped into the newer sheet's pixels before pairing.

import (
	"context"
	"image"
	"math"
	"time"

	engine "github.com/plangraph/plangraph/vision/compare"
)

// sheetAlignBudget bounds the registration of two sheet thumbnails.
const sheetAlignBudget = 20 * time.Second

// SheetTransform registers two sheets on their page images at low
// resolution (thumbnails, any size): a and b are the older and newer
// sheet's images, sheetA and sheetB their sizes in sheet pixels (width,
// height). It returns the transform mapping the older sheet's pixels onto
// the newer's, and ok=false when the images do not register reliably (the
// engine's own test: enough agreeing correspondences, small residual) or
// are missing; then the caller keeps pairing by places as shares.
func SheetTransform(ctx context.Context, a, b *image.Gray, sheetA, sheetB [2]float64) (engine.Transform, bool) {
	if a == nil || b == nil || a.Rect.Empty() || b.Rect.Empty() || sheetA[0] <= 0 || sheetB[0] <= 0 {
		return engine.Transform{}, false
	}
	// thumbnail pixels per sheet pixel on each side (the long sides, so a
	// turned page compares alike)
	ka := float64(max(a.Rect.Dx(), a.Rect.Dy())) / max(sheetA[0], sheetA[1])
	kb := float64(max(b.Rect.Dx(), b.Rect.Dy())) / max(sheetB[0], sheetB[1])
	// the DPIs tell the engine the expected scale between the thumbnails;
	// a sheet at 300 DPI is the reference for both
	const ref = 300.0
	sa := &engine.Side{Image: a, DPI: max(1, int(math.Round(ref*ka)))}
	sb := &engine.Side{Image: b, DPI: max(1, int(math.Round(ref*kb)))}
	t, ok, _, err := engine.Align(ctx, sa, sb, engine.Options{Budget: sheetAlignBudget, InkBoxFirst: true})
	if err != nil || !ok || t.Scale <= 0 {
		return engine.Transform{}, false
	}
	// x_Bsheet = T(ka·x_Asheet) / kb
	return engine.Transform{Scale: t.Scale * ka / kb, RotationDeg: t.RotationDeg, Tx: t.Tx / kb, Ty: t.Ty / kb,
		ResidualPx: t.ResidualPx / kb}, true
}

// minRegisteredShare is the least share of the smaller of two blocks that
// must lie inside the other, in the registered frame, for them to pair.
const minRegisteredShare = 0.3

// PairBlocksIn is PairBlocks with the older sheet's blocks first mapped
// into the newer sheet's pixels by t (SheetTransform): each box is the box
// around its mapped corners, on a sheet of the newer one's size; blocks
// sharing less than minRegisteredShare of their place there do not pair.
// The pairs and lists it returns hold the blocks as given (boxes in their
// own sheet).
func PairBlocksIn(old, new []BlockInfo, t engine.Transform) (pairs []BlockPair, added, removed []BlockInfo) {
	mapped := make([]BlockInfo, len(old))
	orig := make(map[string]BlockInfo, len(old))
	for i, o := range old {
		orig[o.ID] = o
		m := o
		m.Box = t.ApplyBox(o.Box)
		if len(new) > 0 {
			m.SheetW, m.SheetH = new[0].SheetW, new[0].SheetH
		}
		mapped[i] = m
	}
	// registered, a block keeps its place: blocks sharing too little of it
	// are not one block, whatever their type and words (a layout that cut
	// the turned page otherwise typed another strip the title block)
	pairs, added, removed = pairBlocks(mapped, new, func(a, b BlockInfo) bool {
		return placeShare(a.Box, b.Box) >= minRegisteredShare
	})
	for i := range pairs {
		pairs[i].Old = orig[pairs[i].Old.ID]
	}
	for i := range removed {
		removed[i] = orig[removed[i].ID]
	}
	return pairs, added, removed
}
