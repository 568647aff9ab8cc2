package vector

import "math"

// Cut is the part of p that r holds, moved so that r's corner is the
// origin: a block's marks in its own pixels, as a block's image is the
// sheet's pixels from (⌊X0⌋, ⌊Y0⌋) when r has whole-pixel corners. Paths
// that reach into r are kept whole with their clip narrowed to r (what lies
// outside r is known not to be drawn there); glyphs are kept when the middle
// of their ink box lies in r (a word reaching in from a neighbour is not
// the block's); images and shadings when they meet r. W and H are r's size
// rounded up; DPI and Truncated are p's.
func (p *Page) Cut(r Rect) *Page {
	w, h := int(math.Ceil(float64(r.X1-r.X0))), int(math.Ceil(float64(r.Y1-r.Y0)))
	out := &Page{W: max(w, 0), H: max(h, 0), DPI: p.DPI, Truncated: p.Truncated}
	if r.Empty() {
		return out
	}
	mv := func(q Point) Point { return Point{q.X - r.X0, q.Y - r.Y0} }
	mvRect := func(b Rect) Rect { return Rect{b.X0 - r.X0, b.Y0 - r.Y0, b.X1 - r.X0, b.Y1 - r.Y0} }
	for i, pa := range p.Paths {
		cmds, k := p.PathCmds(i)
		n := 0
		for _, c := range cmds {
			n += cmdPoints(c)
		}
		box := NoRect
		for _, q := range p.Pts[k : k+n] {
			box = box.AddPoint(q)
		}
		// a stroke's ink reaches half its width beyond its points
		box = box.Grow(pa.Width / 2)
		clip := Rect{max(pa.Clip.X0, r.X0), max(pa.Clip.Y0, r.Y0), min(pa.Clip.X1, r.X1), min(pa.Clip.Y1, r.Y1)}
		if n == 0 || clip.Empty() || !box.Intersects(clip) {
			continue
		}
		pa.Clip = mvRect(clip)
		pa.Cmd0, pa.Cmd1, pa.Pt0 = int32(len(out.Cmds)), int32(len(out.Cmds)+len(cmds)), int32(len(out.Pts))
		out.Cmds = append(out.Cmds, cmds...)
		for _, q := range p.Pts[k : k+n] {
			out.Pts = append(out.Pts, mv(q))
		}
		out.Paths = append(out.Paths, pa)
	}
	for _, g := range p.Glyphs {
		if !r.Contains(Point{(g.Box.X0 + g.Box.X1) / 2, (g.Box.Y0 + g.Box.Y1) / 2}) {
			continue
		}
		g.E, g.F = g.E-r.X0, g.F-r.Y0
		g.Box = mvRect(g.Box)
		out.Glyphs = append(out.Glyphs, g)
	}
	for _, q := range p.Images {
		box := NoRect
		for _, c := range q {
			box = box.AddPoint(c)
		}
		if box.Intersects(r) {
			out.Images = append(out.Images, [4]Point{mv(q[0]), mv(q[1]), mv(q[2]), mv(q[3])})
		}
	}
	for _, s := range p.Shades {
		if s.Intersects(r) {
			out.Shades = append(out.Shades, mvRect(s))
		}
	}
	return out
}

// cmdPoints is the number of points command c takes.
func cmdPoints(c Cmd) int {
	switch c {
	case MoveTo, LineTo:
		return 1
	case CurveTo:
		return 3
	}
	return 0
}
