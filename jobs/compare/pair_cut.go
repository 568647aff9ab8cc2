package compare

// Cutting in the registered frame. When a revision is reprinted turned or
// rescaled, the layout cuts its sheet into blocks otherwise than the older
// sheet's (general notes cut at another line, the title block merged into
// a strip of notes or into the plan): a block pair of different extents
// compares the part one block has and the other lacks as changes (notes
// read shortened), and an older block no newer block shares reads as
// removed. So a newer block whose place the older sheet's blocks fill but
// not as one block of the same extent is compared with the older sheet
// cut at its place (mapped back through the sheets' transform, padded):
// both sides then hold the same part of the page. The newer block stays a
// block as stored (changes are in its pixels, the overlay names it); the
// older side names the older block that most of the cut came from.

import (
	"image"
	"math"

	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

const (
	// sameCutPx and sameCutShare: a pair's blocks are cut alike (compared
	// as they are) when, in the registered frame, each edge of one lies
	// within sameCutPx pixels plus sameCutShare of the longer side of the
	// other's (the sheets' registration is good to a few pixels; a note
	// more or less moves an edge by far more)
	sameCutPx    = 12
	sameCutShare = 0.01
	// minCutCover is the least share of a newer block's place that older
	// blocks must cover for it to be compared by cutting rather than
	// reported added (a layout may type a strip of the turned page another
	// block, the title block's corner and a plan's edge in it);
	// minCompared is the least share of an older block's place the cuts
	// must cover for it to count as compared within them rather than
	// removed.
	minCutCover = 0.25
	minCompared = 0.5
	// cutPad and cutPadShare pad a cut (pixels, and share of its longer
	// side) so that it holds the newer block whole despite the sheets'
	// registration being good to a few pixels only.
	cutPad      = 24
	cutPadShare = 0.02
)

// FramedPair is a block pair of two registered sheets: CutA, when set, is
// the part of the older sheet (its pixels) compared with the newer block
// instead of the older block's own image.
type FramedPair struct {
	BlockPair
	CutA *image.Rectangle
}

// CutBlocksIn revises a pairing made in the registered frame (PairBlocksIn
// with the same t, the older sheet oldW × oldH pixels): pairs whose blocks
// are not cut alike, and newer blocks left unpaired whose place older
// blocks cover, are compared by cutting the older sheet at the newer
// block's place; older blocks whose place those cuts cover are no longer
// removed (compared within the cuts).
func CutBlocksIn(old, new []BlockInfo, t engine.Transform, pairs []BlockPair, added, removed []BlockInfo, oldW, oldH int) (out []FramedPair, stillAdded, stillRemoved []BlockInfo) {
	inv := t.Inverse()
	var cuts []geom.Box // places cut, in the older sheet's pixels
	cut := func(p BlockPair) FramedPair {
		place := inv.ApplyBox(p.New.Box)
		r := cutRect(place, oldW, oldH)
		cuts = append(cuts, place)
		return FramedPair{BlockPair: p, CutA: &r}
	}
	for _, p := range pairs {
		if cutAlike(t.ApplyBox(p.Old.Box), p.New.Box) {
			out = append(out, FramedPair{BlockPair: p})
			continue
		}
		out = append(out, cut(p))
	}
	for _, n := range added {
		place := inv.ApplyBox(n.Box)
		best, bestIn, cover := -1, 0.0, 0.0
		for i, o := range old {
			in := o.Box.Intersect(place).Area()
			cover += in
			if in > bestIn {
				best, bestIn = i, in
			}
		}
		if best < 0 || place.Area() <= 0 || cover < minCutCover*place.Area() {
			stillAdded = append(stillAdded, n)
			continue
		}
		out = append(out, cut(BlockPair{Old: old[best], New: n}))
	}
	for _, o := range removed {
		cover := 0.0
		for _, c := range cuts {
			cover += o.Box.Intersect(c).Area()
		}
		if o.Box.Area() <= 0 || cover < minCompared*o.Box.Area() {
			stillRemoved = append(stillRemoved, o)
		}
	}
	return out, stillAdded, stillRemoved
}

// cutAlike reports whether boxes a and b (one sheet's pixels) have the
// same edges to within sameCutPx and sameCutShare.
func cutAlike(a, b geom.Box) bool {
	tol := sameCutPx + sameCutShare*max(a.Width(), a.Height(), b.Width(), b.Height())
	return math.Abs(a.XMin-b.XMin) <= tol && math.Abs(a.YMin-b.YMin) <= tol &&
		math.Abs(a.XMax-b.XMax) <= tol && math.Abs(a.YMax-b.YMax) <= tol
}

// cutRect is a place padded (cutPad, cutPadShare) to whole pixels within
// a w × h sheet.
func cutRect(b geom.Box, w, h int) image.Rectangle {
	pad := cutPad + cutPadShare*max(b.Width(), b.Height())
	r := image.Rect(int(math.Floor(b.XMin-pad)), int(math.Floor(b.YMin-pad)), int(math.Ceil(b.XMax+pad)), int(math.Ceil(b.YMax+pad)))
	return r.Intersect(image.Rect(0, 0, w, h))
}

// PairPrior is the sheets' transform t (older sheet pixels onto newer)
// restricted to a pair whose older side's image starts at originA on its
// sheet and newer side's at originB: the prior of the pair's registration
// (engine.Options.Prior).
func PairPrior(t engine.Transform, originA, originB image.Point) engine.Transform {
	x, y := t.Apply(float64(originA.X), float64(originA.Y))
	p := t
	p.Tx, p.Ty = x-float64(originB.X), y-float64(originB.Y)
	return p
}

// ShiftSource is t, mapping the pixels of an image that starts at from on
// its sheet, as it maps the pixels of one starting at to on the same sheet
// (the transform of a cut restated for the older block's own pixels).
func ShiftSource(t engine.Transform, from, to image.Point) engine.Transform {
	// x_from = x_to + (to − from)
	dx, dy := float64(to.X-from.X), float64(to.Y-from.Y)
	x0, y0 := t.Apply(0, 0)
	x1, y1 := t.Apply(dx, dy)
	t.Tx += x1 - x0
	t.Ty += y1 - y0
	return t
}

// imageOrigin is where a block's image starts on its sheet: the whole
// pixel at or before its corner (as ingestion cut it).
func imageOrigin(b geom.Box) image.Point {
	return image.Pt(max(0, int(math.Floor(b.XMin))), max(0, int(math.Floor(b.YMin))))
}
