package compare

import (
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// commonEdgeTol is how far, in pixels, a word or symbol may reach past the
// other side's extent and still count as inside it.
const commonEdgeTol = 2.0

// common returns copies of a and b holding only the words and symbols that
// lie within the other side's extent through t (A onto B): only the part
// the two sides share is compared, and a block cut at another line than
// its revision (a line of notes running past the other's edge, the
// words beyond it not in the other's list) would otherwise read its words
// cut off as text removed or added. The images and geometry are shared,
// not copied.
func common(a, b *Side, t Transform) (*Side, *Side) {
	if a == nil || b == nil || a.Image == nil || b.Image == nil || t.Scale <= 0 {
		return a, b
	}
	extent := func(s *Side) geom.Box {
		return geom.Box{XMin: -commonEdgeTol, YMin: -commonEdgeTol,
			XMax: float64(s.Image.Rect.Dx()) + commonEdgeTol, YMax: float64(s.Image.Rect.Dy()) + commonEdgeTol}
	}
	ca, cb := *a, *b
	ca.Words, ca.Symbols = within(a, extent(b), t)
	cb.Words, cb.Symbols = within(b, extent(a), t.Inverse())
	return &ca, &cb
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
