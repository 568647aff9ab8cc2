package synth

import (
	"math"

	"github.com/plangraph/plangraph/vision/geom"
)

// pt and rect are page coordinates in PDF points, origin at the top left,
// y growing downwards (fpdf's user space).
type pt struct{ X, Y float64 }

type rect struct{ X0, Y0, X1, Y1 float64 }

func (r rect) W() float64 { return r.X1 - r.X0 }
func (r rect) H() float64 { return r.Y1 - r.Y0 }
func (r rect) center() pt { return pt{(r.X0 + r.X1) / 2, (r.Y0 + r.Y1) / 2} }

// inset shrinks the rectangle by d on every side (grows it for d < 0).
func (r rect) inset(d float64) rect { return rect{r.X0 + d, r.Y0 + d, r.X1 - d, r.Y1 - d} }
func (r rect) pad(d float64) rect   { return r.inset(-d) }

func (r rect) translate(dx, dy float64) rect { return rect{r.X0 + dx, r.Y0 + dy, r.X1 + dx, r.Y1 + dy} }

func (r rect) empty() bool { return !(r.X0 < r.X1 && r.Y0 < r.Y1) }

// emptyRect is the identity of union.
func emptyRect() rect { return rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)} }

func (r rect) union(o rect) rect {
	if o.X0 > o.X1 || o.Y0 > o.Y1 {
		return r
	}
	if r.X0 > r.X1 || r.Y0 > r.Y1 {
		return o
	}
	return rect{math.Min(r.X0, o.X0), math.Min(r.Y0, o.Y0), math.Max(r.X1, o.X1), math.Max(r.Y1, o.Y1)}
}

func (r rect) addPt(p pt) rect {
	return rect{math.Min(r.X0, p.X), math.Min(r.Y0, p.Y), math.Max(r.X1, p.X), math.Max(r.Y1, p.Y)}
}

// intersects reports whether the interiors overlap.
func (r rect) intersects(o rect) bool {
	return r.X0 < o.X1 && o.X0 < r.X1 && r.Y0 < o.Y1 && o.Y0 < r.Y1
}

func (r rect) contains(o rect) bool {
	return o.X0 >= r.X0 && o.Y0 >= r.Y0 && o.X1 <= r.X1 && o.Y1 <= r.Y1
}

func (r rect) containsPt(p pt) bool { return p.X >= r.X0 && p.X <= r.X1 && p.Y >= r.Y0 && p.Y <= r.Y1 }

// segHitsRect reports whether segment ab meets rectangle r.
func segHitsRect(a, b pt, r rect) bool {
	_, _, ok := geom.Box{XMin: r.X0, YMin: r.Y0, XMax: r.X1, YMax: r.Y1}.ClipSegment(a.X, a.Y, b.X, b.Y)
	return ok
}

// rot turns a vector counter-clockwise as seen on the page by deg degrees
// (y grows downwards, so the signs differ from the textbook matrix).
func rot(p pt, deg float64) pt {
	s, c := math.Sincos(deg * math.Pi / 180)
	return pt{p.X*c + p.Y*s, -p.X*s + p.Y*c}
}

func round(v float64, places int) float64 {
	f := math.Pow(10, float64(places))
	return math.Round(v*f) / f
}
