// Package vector holds a drawing page's marks as geometry — the paths,
// glyphs and images a PDF page draws, in the page's pixels at its render
// resolution (vision/render records them) — and a compact encoding for
// storage (codec.go).
//
// A vector page is the exact form of what the raster shows: a CAD sheet
// draws every copy of a symbol with the same geometry, moved, turned and
// scaled, so its instances can be found by geometry (vision/vecsym) in a
// small fraction of the time a search of the pixels takes.
package vector

import "math"

// Point is a position in page pixels (x right, y down).
type Point struct{ X, Y float32 }

// Rect is an axis-aligned box in page pixels.
type Rect struct{ X0, Y0, X1, Y1 float32 }

// Empty reports whether r holds no area.
func (r Rect) Empty() bool { return !(r.X0 < r.X1 && r.Y0 < r.Y1) }

// Intersects reports whether r and o overlap.
func (r Rect) Intersects(o Rect) bool {
	return r.X0 <= o.X1 && o.X0 <= r.X1 && r.Y0 <= o.Y1 && o.Y0 <= r.Y1
}

// Contains reports whether p lies in r (edges included).
func (r Rect) Contains(p Point) bool {
	return p.X >= r.X0 && p.X <= r.X1 && p.Y >= r.Y0 && p.Y <= r.Y1
}

// Union is the smallest box holding both (NoRect holds nothing).
func (r Rect) Union(o Rect) Rect {
	return Rect{min(r.X0, o.X0), min(r.Y0, o.Y0), max(r.X1, o.X1), max(r.Y1, o.Y1)}
}

// Grow widens r by d on every side.
func (r Rect) Grow(d float32) Rect { return Rect{r.X0 - d, r.Y0 - d, r.X1 + d, r.Y1 + d} }

// NoRect is an empty box that any union replaces.
var NoRect = Rect{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(-1))}

// AddPoint grows r to hold p.
func (r Rect) AddPoint(p Point) Rect {
	return Rect{min(r.X0, p.X), min(r.Y0, p.Y), max(r.X1, p.X), max(r.Y1, p.Y)}
}

// Cmd is a path command.
type Cmd uint8

const (
	MoveTo  Cmd = iota // one point
	LineTo             // one point
	CurveTo            // three points: two controls and the end (cubic Bézier)
	Close              // no point
)

// Path flags.
const (
	Fill    uint8 = 1 << iota // the path is filled
	Stroke                    // the path is stroked
	EvenOdd                   // filled by the even-odd rule
	Dashed                    // stroked with a dash pattern
)

// Path is one filled or stroked path. Its commands are Page.Cmds[Cmd0:Cmd1]
// and their points Page.Pts from Pt0 on.
type Path struct {
	Flags uint8
	// Grey is the paint's lightness, 0 black to 1 white; negative when
	// unknown (a pattern)
	Grey  float32
	Alpha float32
	// Width is the stroke's width in pixels (0 for a fill)
	Width float32
	// Clip is the box of the clips in force: what lies outside it is not
	// drawn
	Clip       Rect
	Cmd0, Cmd1 int32
	Pt0        int32
}

// Glyph is one character of visible text.
type Glyph struct {
	// Rune is its character; a glyph without one (a symbol font's, a Type3
	// font's without a map) is U+F0000 plus its glyph id, so that glyphs of
	// one font compare alike
	Rune rune
	// M maps the glyph's space (one em; y up) to page pixels:
	// x' = A·x + C·y + E, y' = B·x + D·y + F
	A, B, C, D, E, F float32
	// Adv is the glyph's advance, in ems
	Adv float32
	// Box is the glyph's ink box on the page
	Box  Rect
	Grey float32
}

// Size is the glyph's em size in pixels (the length of its text matrix's
// vertical axis).
func (g Glyph) Size() float64 { return math.Hypot(float64(g.C), float64(g.D)) }

// Angle is the direction of the glyph's baseline, radians counter-clockwise
// on the page (y down, so a baseline to the right is 0).
func (g Glyph) Angle() float64 { return math.Atan2(-float64(g.B), float64(g.A)) }

// Page is a page's marks.
type Page struct {
	// W, H are the page's size in pixels at DPI
	W, H, DPI int
	Paths     []Path
	Cmds      []Cmd
	Pts       []Point
	Glyphs    []Glyph
	// Images are the corners of every image drawn (its unit square on the
	// page): a scan placed in a PDF is one
	Images [][4]Point
	// Shades are the boxes of smooth shadings
	Shades []Rect
	// Truncated: the page held more marks than were recorded
	Truncated bool
}

// PathCmds returns path i's commands and its first point's index.
func (p *Page) PathCmds(i int) ([]Cmd, int) {
	pa := p.Paths[i]
	return p.Cmds[pa.Cmd0:pa.Cmd1], int(pa.Pt0)
}

// ImageArea is the area of the page's images that falls in r, in square
// pixels (their boxes, overlaps counted twice).
func (p *Page) ImageArea(r Rect) float64 {
	a := 0.0
	for _, q := range p.Images {
		b := NoRect
		for _, c := range q {
			b = b.AddPoint(c)
		}
		x0, y0 := max(b.X0, r.X0), max(b.Y0, r.Y0)
		x1, y1 := min(b.X1, r.X1), min(b.Y1, r.Y1)
		if x1 > x0 && y1 > y0 {
			a += float64(x1-x0) * float64(y1-y0)
		}
	}
	return a
}
