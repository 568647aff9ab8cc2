package compare

import (
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// commonEdgeTol is how far, in pixels, a symbol may reach past the other
// side's extent and still count as inside it, and how far inside B's edge
// a word must lie to be compared.
const commonEdgeTol = 2.0

// common returns a copy of a holding only the words and symbols that lie,
// through t, within b's extent, and b: A's ink beyond B's block is not
// compared (the overlay is B's frame), nor are its words, else a block cut
// at another line than its revision (a line of notes running past the
// other's edge, the words beyond it not in the other's list) reads its
// words cut off as text removed or shortened. B's words beyond A's extent
// stay: a view title moved out of the older block's extent still pairs as
// moved.
//
// Words are compared only where both lists are whole: each side's list
// holds the words wholly inside its block (or cut), so a word that reaches
// a side's edge may be in one list and not the other (a fraction of a
// pixel decides it on a turned page: "… LOCATIONS EXACT → … LOCATIONS").
// Words within commonEdgeTol of either side's edge are left out on both
// sides (B's wholly beyond A's extent stay, as above). The images
// and geometry are shared, not copied.
func common(a, b *Side, t Transform) (*Side, *Side) {
	if a == nil || b == nil || a.Image == nil || b.Image == nil || t.Scale <= 0 {
		return a, b
	}
	frameB, innerB := edges(b)
	frameA, innerA := edges(a)
	ca, cb := *a, *b
	ca.Words = keepWords(a.Words, func(w geom.Box) bool { return inside(w, innerA) && inside(t.ApplyBox(w), innerB) })
	ca.Symbols = nil
	for _, y := range a.Symbols {
		if inside(t.ApplyBox(y.Bounds), frameB) {
			ca.Symbols = append(ca.Symbols, y)
		}
	}
	inv := t.Inverse()
	cb.Words = keepWords(b.Words, func(w geom.Box) bool {
		onA := inv.ApplyBox(w)
		return inside(w, innerB) && (inside(onA, innerA) || onA.Intersect(frameA).Area() <= 0)
	})
	return &ca, &cb
}

// edges are a side's extent widened and narrowed by commonEdgeTol.
func edges(s *Side) (frame, inner geom.Box) {
	w, h := float64(s.Image.Rect.Dx()), float64(s.Image.Rect.Dy())
	return geom.Box{XMin: -commonEdgeTol, YMin: -commonEdgeTol, XMax: w + commonEdgeTol, YMax: h + commonEdgeTol},
		geom.Box{XMin: commonEdgeTol, YMin: commonEdgeTol, XMax: w - commonEdgeTol, YMax: h - commonEdgeTol}
}

func inside(b, frame geom.Box) bool {
	return b.XMin >= frame.XMin && b.YMin >= frame.YMin && b.XMax <= frame.XMax && b.YMax <= frame.YMax
}

// keepWords are the words of ws whose boxes keep accepts (nil stays nil).
func keepWords(ws []text.Word, keep func(geom.Box) bool) []text.Word {
	var out []text.Word
	for _, w := range ws {
		if keep(w.Box) {
			out = append(out, w)
		}
	}
	return out
}
