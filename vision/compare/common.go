package compare

import (
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// commonEdgeTol is how far, in pixels, a word or symbol may reach past the
// other side's extent and still count as inside it.
const commonEdgeTol = 2.0

// common returns a copy of a holding only the words and symbols that lie,
// through t, within b's extent, and b itself: A's ink beyond B's block is
// not compared (the overlay is B's frame), nor are its words, else a block
// cut at another line than its revision (a line of notes running past the
// other's edge, the words beyond it not in the other's list) reads its
// words cut off as text removed or shortened. B's words beyond A's extent
// stay: a view title moved out of the older block's extent still pairs as
// moved. The images and geometry are shared, not copied.
func common(a, b *Side, t Transform) (*Side, *Side) {
	if a == nil || b == nil || a.Image == nil || b.Image == nil || t.Scale <= 0 {
		return a, b
	}
	frame := geom.Box{XMin: -commonEdgeTol, YMin: -commonEdgeTol,
		XMax: float64(b.Image.Rect.Dx()) + commonEdgeTol, YMax: float64(b.Image.Rect.Dy()) + commonEdgeTol}
	ca := *a
	ca.Words, ca.Symbols = within(a, frame, t)
	return &ca, b
}

// within are s's words and symbols whose boxes, through t, lie inside
// frame (nil lists stay nil).
func within(s *Side, frame geom.Box, t Transform) ([]text.Word, []Symbol) {
	inside := func(b geom.Box) bool {
		m := t.ApplyBox(b)
		return m.XMin >= frame.XMin && m.YMin >= frame.YMin && m.XMax <= frame.XMax && m.YMax <= frame.YMax
	}
	var ws []text.Word
	for _, w := range s.Words {
		if inside(w.Box) {
			ws = append(ws, w)
		}
	}
	var ss []Symbol
	for _, y := range s.Symbols {
		if inside(y.Bounds) {
			ss = append(ss, y)
		}
	}
	return ws, ss
}
