package parse

// Blocks drawn inside a view. A sheet's legend, notes or title block may
// lie within a plan's frame (crayfish's electrical plans hold their
// legend), and layout reads them as blocks of their own; their graphics
// are not instances on the plan. A legend drawn inside its plan holds one
// of each symbol at exactly its legend size, found first and counted once
// each. So their regions are left out of the view block's search: cleared
// to paper before the pixel search, and geometry detections centred in
// them dropped.

import (
	"context"
	"image"
	"math"
	"slices"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
)

// enclosedShare is the share of a block's area that must lie inside a view
// block for it to be drawn inside the view; maxEnclosed the largest share
// of the view's area it may take (a block typed other than a view that
// fills most of one is more likely the view itself, misread).
const (
	enclosedShare = 0.9
	maxEnclosed   = 0.5
)

// enclosedBlocks are the boxes, in view block v's own pixels (as its
// stored image), of the blocks of v's sheet that are not views and are
// drawn inside v.
func (p *Parse) enclosedBlocks(ctx context.Context, v *ent.Block) ([]geom.Box, error) {
	others, err := p.R.DB.Block.Query().Where(block.SheetID(v.SheetID), block.IDNEQ(v.ID), block.TypeNotIn(ViewBlockTypes...)).All(ctx)
	if err != nil {
		return nil, err
	}
	var boxes []geom.Box
	for _, o := range others {
		boxes = append(boxes, o.Bounds)
	}
	return enclosedIn(v.Bounds, boxes), nil
}

// enclosedIn keeps the boxes drawn inside view (see enclosedShare and
// maxEnclosed), moved into the view's pixels: its image's origin is its
// box's corner rounded down.
func enclosedIn(view geom.Box, boxes []geom.Box) []geom.Box {
	ox, oy := math.Floor(view.XMin), math.Floor(view.YMin)
	var out []geom.Box
	for _, b := range boxes {
		a := b.Area()
		if a <= 0 || a > maxEnclosed*view.Area() || b.Intersect(view).Area() < enclosedShare*a {
			continue
		}
		out = append(out, b.Intersect(view).Translate(-ox, -oy))
	}
	return out
}

// clearBoxes paints the boxes (img's pixels less off) paper white.
func clearBoxes(img *image.Gray, boxes []geom.Box, off image.Point) {
	for _, b := range boxes {
		r := image.Rect(int(math.Floor(b.XMin)), int(math.Floor(b.YMin)), int(math.Ceil(b.XMax)), int(math.Ceil(b.YMax))).
			Add(off).Intersect(img.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
			for i := range row {
				row[i] = 255
			}
		}
	}
}

// outsideBoxes drops the detections centred in any of the boxes.
func outsideBoxes(dets []symbols.Detection, boxes []geom.Box) []symbols.Detection {
	if len(boxes) == 0 {
		return dets
	}
	return slices.DeleteFunc(dets, func(d symbols.Detection) bool {
		cx, cy := (d.Box.XMin+d.Box.XMax)/2, (d.Box.YMin+d.Box.YMax)/2
		return slices.ContainsFunc(boxes, func(b geom.Box) bool {
			return cx >= b.XMin && cx < b.XMax && cy >= b.YMin && cy < b.YMax
		})
	})
}
