package vecsym

import (
	"errors"
	"math"
	"math/cmplx"
	"sort"

	"github.com/plangraph/plangraph/vision/vector"
)

// Template is a legend symbol read as geometry.
type Template struct {
	Label string
	m     *marks
	// centre and size (diagonal) of its marks' box
	centre pt
	size   float64
	// width is its strokes' typical width (pens do not grow with a
	// symbol), for its box
	width float64
	// pts sample its marks every step pixels; probes are a spread-out few
	// of them for a quick first test of a pose
	pts    []sample
	probes []int
	step   float64
	// groups look up samples that want the same marks together
	// (groups.go; nil: one by one), members their samples by group
	groups  []sampleGroup
	members []int32
	// weight is the length of its marks plus its glyphs' weight, pixels
	weight float64
	ix     *segIndex
	gix    *glyphIndex
	// anchors are its marks that fix a pose by themselves
	lines       []seg // its straight lines, pieces joined (mergedLines)
	lineAnchors []int // into lines
	arcAnchors  []int // into m.arcs, arcs that are not whole circles
	circle      int   // into m.arcs: its largest whole circle, or -1
	glyphAnchor int   // into m.glyphs: its largest glyph, or -1
	// faint: the symbol is itself drawn mostly in faint lines, so faint
	// linework in the drawing is not held against it
	faint bool
	// loopBoxes are the boxes of m.loops
	loopBoxes []vector.Rect
	// desc is its marks' descriptor (descriptor.go)
	desc [3 * descRings]float64
	// simple: three straight lines or fewer, nothing else
	simple bool
	// ends are its free line ends: where a line stops without meeting
	// another of its marks
	ends []lineEnd
	// outline is the symbol without the letters written inside it (a
	// circle lettered SD), or nil: see lettered.go
	outline *Template
}

// lineEnd is a free end of a template's line, and the line's direction
// out of it.
type lineEnd struct {
	p, out pt
}

// sample is a point on a template's marks.
type sample struct {
	p      pt
	w      float64    // the length of marks it stands for
	u      complex128 // the marks' direction there
	curve  bool
	fill   bool
	stroke bool
	faint  bool
	dashed bool
}

// ErrNoGeometry: the region holds no marks to match (an image, or nothing).
var ErrNoGeometry = errors.New("vecsym: the symbol's region holds no vector marks")

// glyphWeight is a glyph's ink as a length: about the stroke length of a
// capital letter, in ems.
const glyphWeight = 1.75

// NewTemplate reads the symbol drawn inside box on pg (a legend graphic:
// paths crossing the box's edge are the legend's own lines and are left
// out).
func NewTemplate(label string, pg *vector.Page, box vector.Rect) (*Template, error) {
	m := readMarks(pg, box, insideRegion)
	if len(m.segs) == 0 {
		return nil, ErrNoGeometry
	}
	w := pathWidths(pg, m)
	dropWires(m, max(1, w))
	return newTemplate(label, m, w), nil
}

// NewTemplateBeside reads the symbol drawn inside box as NewTemplate does,
// leaving out the words set beside it (text, the boxes of the legend's
// words inside box): the tag a legend writes next to a symbol ("GFI" beside
// a receptacle), drawn as outlines where the sheet's text is, is the
// entry's, not the symbol's graphic. Words that overlap the rest of the
// graphic (a letter inside a circle) are a part of it and kept.
func NewTemplateBeside(label string, pg *vector.Page, box vector.Rect, text []vector.Rect) (*Template, error) {
	var beside, own []vector.Rect
	for _, w := range text {
		if w = intersect(w, box); w.X0 < w.X1 && w.Y0 < w.Y1 {
			beside = append(beside, w.Grow(2))
			own = append(own, moveRect(w, -box.X0, -box.Y0)) // (m is in box's pixels)
		}
	}
	if len(beside) > 0 {
		m := readMarksSkipping(pg, box, insideRegion, beside)
		dropTextRules(m, own)
		apart := len(m.segs) > 0
		for _, w := range own {
			apart = apart && setBeside(m, w) // (it may touch the symbol's box)
		}
		if apart {
			w := pathWidths(pg, m)
			dropWires(m, max(1, w))
			return newTemplate(label, m, w), nil
		}
		t, err := NewTemplate(label, pg, box)
		if err == nil && len(m.segs) > 0 {
			t.outline = letteredOutline(label, pg, m, beside, box)
		}
		return t, err
	}
	return NewTemplate(label, pg, box)
}

// pathWidths is the median stroke width of the paths m's segments came from.
func pathWidths(pg *vector.Page, m *marks) float64 {
	var ws []float64
	for _, s := range m.segs {
		if s.stroke {
			ws = append(ws, float64(pg.Paths[s.path].Width))
		}
	}
	if len(ws) == 0 {
		return 0
	}
	sort.Float64s(ws)
	return ws[len(ws)/2]
}

func newTemplate(label string, m *marks, width float64) *Template {
	t := &Template{Label: label, m: m, width: width, circle: -1, glyphAnchor: -1}
	b := m.box
	t.centre = complex(float64(b.X0+b.X1)/2, float64(b.Y0+b.Y1)/2)
	t.size = math.Hypot(float64(b.X1-b.X0), float64(b.Y1-b.Y0))
	t.step = max(t.size/120, 0.25)
	for _, s := range m.segs {
		n := max(int(math.Ceil(s.length/t.step)), 1)
		for i := 0; i < n; i++ {
			p := s.a + (s.b-s.a)*complex((float64(i)+0.5)/float64(n), 0)
			t.pts = append(t.pts, sample{p: p, w: s.length / float64(n), u: s.u, curve: s.curve, fill: s.fill, stroke: s.stroke, faint: s.faint, dashed: s.dashed})
		}
		t.weight += s.length
	}
	for _, g := range m.glyphs {
		t.weight += glyphWeight * g.size
	}
	t.ix = newSegIndex(m.segs, max(t.size/16, 1))
	acc := newDescAcc(t.centre, descRadius*t.size)
	for _, s := range t.pts {
		acc.add(s.p, s.w)
	}
	for i := range m.glyphs {
		acc.addGlyph(&m.glyphs[i], 1, m.glyphs[i].c, m.glyphs[i].ang)
	}
	t.desc = acc.vec()
	t.gix = newGlyphIndex(m.glyphs, max(t.size/4, 1))
	t.probes = spread(t.pts, t.centre, 10)
	t.groupSamples()
	t.ends = freeEnds(m, 1+0.01*t.size)
	for _, l := range m.loops {
		b := vector.NoRect
		for _, q := range l {
			b = b.AddPoint(toPoint(q))
		}
		t.loopBoxes = append(t.loopBoxes, b)
	}
	var faintLen, allLen float64
	for _, s := range m.segs {
		allLen += s.length
		if s.faint {
			faintLen += s.length
		}
	}
	t.faint = faintLen > allLen/2
	straight := 0
	for _, s := range m.segs {
		if !s.curve {
			straight++
		}
	}
	t.simple = straight <= 3 && len(m.arcs) == 0 && len(m.glyphs) == 0 && straight == len(m.segs)
	// anchors: the longest lines, arcs and circle, the largest glyph
	t.lines = mergedLines(m.segs, false)
	var lines []int
	for i, s := range t.lines {
		if s.length >= 0.15*t.size {
			lines = append(lines, i)
		}
	}
	sort.Slice(lines, func(i, j int) bool { return t.lines[lines[i]].length > t.lines[lines[j]].length })
	t.lineAnchors = lines[:min(len(lines), 2)]
	var arcs []int
	for i, a := range m.arcs {
		sw := math.Abs(a.sweep)
		switch {
		case a.full:
			if t.circle < 0 || a.r > m.arcs[t.circle].r {
				t.circle = i
			}
		case sw >= 20*math.Pi/180 && a.r*sw >= 0.15*t.size:
			arcs = append(arcs, i)
		}
	}
	sort.Slice(arcs, func(i, j int) bool {
		return m.arcs[arcs[i]].r*math.Abs(m.arcs[arcs[i]].sweep) > m.arcs[arcs[j]].r*math.Abs(m.arcs[arcs[j]].sweep)
	})
	t.arcAnchors = arcs[:min(len(arcs), 1)]
	for i, g := range m.glyphs {
		if t.glyphAnchor < 0 || g.size > m.glyphs[t.glyphAnchor].size {
			t.glyphAnchor = i
		}
	}
	return t
}

// spread picks n of the samples far from each other, starting with the
// one farthest from c.
func spread(pts []sample, c pt, n int) []int {
	if len(pts) == 0 {
		return nil
	}
	d := make([]float64, len(pts))
	best := 0
	for i, s := range pts {
		d[i] = dist(s.p, c)
		if d[i] > d[best] {
			best = i
		}
	}
	var out []int
	for len(out) < n && len(out) < len(pts) {
		out = append(out, best)
		p := pts[best].p
		nb := -1
		for i, s := range pts {
			d[i] = min(d[i], dist(s.p, p))
			if nb < 0 || d[i] > d[nb] {
				nb = i
			}
		}
		if d[nb] == 0 {
			break
		}
		best = nb
	}
	return out
}

// glyphIndex finds glyphs near a point.
type glyphIndex struct {
	glyphs []glyph
	cell   float64
	cells  map[[2]int32][]int32
}

func newGlyphIndex(gs []glyph, cell float64) *glyphIndex {
	gi := &glyphIndex{glyphs: gs, cell: cell, cells: map[[2]int32][]int32{}}
	for i, g := range gs {
		k := gi.key(g.c)
		gi.cells[k] = append(gi.cells[k], int32(i))
	}
	return gi
}

func (gi *glyphIndex) key(p pt) [2]int32 {
	return [2]int32{int32(math.Floor(px(p) / gi.cell)), int32(math.Floor(py(p) / gi.cell))}
}

// each calls f with the glyphs within r of p.
func (gi *glyphIndex) each(p pt, r float64, f func(i int32)) {
	lo := gi.key(p - complex(r, r))
	hi := gi.key(p + complex(r, r))
	for y := lo[1]; y <= hi[1]; y++ {
		for x := lo[0]; x <= hi[0]; x++ {
			for _, i := range gi.cells[[2]int32{x, y}] {
				if dist(gi.glyphs[i].c, p) <= r {
					f(i)
				}
			}
		}
	}
}

// freeEnds finds the ends of m's lines that no other mark of m reaches
// within tol (pieces of one curve meet end to end, so a curve's ends are
// found as a line's are).
func freeEnds(m *marks, tol float64) []lineEnd {
	var out []lineEnd
	for i, s := range m.segs {
		for _, e := range [2][2]pt{{s.a, s.b}, {s.b, s.a}} {
			end, other := e[0], e[1]
			free := true
			for j := range m.segs {
				if j != i && segDist(end, &m.segs[j]) <= tol {
					free = false
					break
				}
			}
			if free {
				d := end - other
				out = append(out, lineEnd{p: end, out: d / complex(cmplx.Abs(d), 0)})
			}
		}
	}
	return out
}

// agreement is how well the glyphs near p answer a glyph of character r
// and size (in this index's pixels) there: 1 for one of the same character
// and about the same size within a third of an em, 0.5 for another
// character so placed (a keynote's number, a tag), 0 for none.
func (gi *glyphIndex) agreement(p pt, size float64, r rune) float64 {
	best := 0.0
	gi.each(p, 0.35*size, func(i int32) {
		g := &gi.glyphs[i]
		if q := g.size / size; q < 0.75 || q > 1.33 {
			return
		}
		if g.r == r {
			best = 1
		} else {
			best = max(best, 0.5)
		}
	})
	return best
}

// enclosed reports whether p (template pixels) lies inside one of the
// symbol's closed outlines or whole circles (a circle drawn as two halves
// is no closed path).
func (t *Template) enclosed(p pt) bool {
	for _, a := range t.m.arcs {
		if a.full && dist(p, a.c) < a.r {
			return true
		}
	}
	q := toPoint(p)
	for i, l := range t.m.loops {
		if t.loopBoxes[i].Contains(q) && inside(l, p) {
			return true
		}
	}
	return false
}
