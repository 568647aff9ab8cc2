package vecsym

import (
	"math"

	"github.com/plangraph/plangraph/vision/vector"
)

// A legend graphic's words and their rule. A legend may set text beside a
// symbol with a rule under it or between two stacked lines of it (a level
// marker's finished height over its structural one, split by a bar drawn
// from the marker's centre): the rule goes with the text it underlines —
// the plan may set the values with no bar, or with another — and is no
// part of the symbol, as the words are not.

// dropTextRules removes from m the straight stroked lines that underline
// or overline one of the words (boxes in m's pixels) along most of their
// length: parallel to the word's line, within half the word's height of its
// foot or head, and under or over the word for more than half their length.
func dropTextRules(m *marks, words []vector.Rect) {
	keep := m.segs[:0:0]
	for _, s := range m.segs {
		if !textRule(&s, words) {
			keep = append(keep, s)
		}
	}
	if len(keep) == len(m.segs) {
		return
	}
	m.segs = keep
	m.rebox()
}

func textRule(s *seg, words []vector.Rect) bool {
	if !s.stroke || s.fill || s.curve || math.Abs(imag(s.u)) > 0.05 {
		return false
	}
	y := (py(s.a) + py(s.b)) / 2
	x0, x1 := min(px(s.a), px(s.b)), max(px(s.a), px(s.b))
	for _, w := range words {
		h := float64(w.Y1 - w.Y0)
		under := y >= float64(w.Y1)-0.1*h && y <= float64(w.Y1)+0.5*h
		over := y >= float64(w.Y0)-0.5*h && y <= float64(w.Y0)+0.1*h
		along := min(x1, float64(w.X1)) - max(x0, float64(w.X0))
		if (under || over) && along > s.length/2 {
			return true
		}
	}
	return false
}

// rebox sets m's box to its marks' extent.
func (m *marks) rebox() {
	b := vector.NoRect
	for _, s := range m.segs {
		b = b.AddPoint(toPoint(s.a)).AddPoint(toPoint(s.b))
	}
	for _, g := range m.glyphs {
		h := complex(g.size/2, g.size/2)
		b = b.AddPoint(toPoint(g.c - h)).AddPoint(toPoint(g.c + h))
	}
	m.box = b
}

// setBeside reports whether word w (m's pixels) is set beside m's marks,
// not a part of them: its centre outside their box and none of them
// through it (a glyph drawn across a line, letters inside a circle are
// the symbol's).
func setBeside(m *marks, w vector.Rect) bool {
	c := vector.Point{X: (w.X0 + w.X1) / 2, Y: (w.Y0 + w.Y1) / 2}
	if m.box.Contains(c) {
		return false
	}
	in := w.Grow(-0.1 * min(w.X1-w.X0, w.Y1-w.Y0))
	for _, s := range m.segs {
		if _, _, ok := clipSeg(s.a, s.b, in); ok {
			return false
		}
	}
	return true
}
