// Package geom holds the small geometric value types shared by the data
// model, the APIs and vision code.
package geom

// Box is an axis-aligned bounding box in pixels. Field names follow the
// interface specification.
type Box struct {
	XMin float64 `json:"x_min"`
	YMin float64 `json:"y_min"`
	XMax float64 `json:"x_max"`
	YMax float64 `json:"y_max"`
}

// Width of the box.
func (b Box) Width() float64 { return b.XMax - b.XMin }

// Height of the box.
func (b Box) Height() float64 { return b.YMax - b.YMin }

// Area of the box; zero when it is empty or inverted.
func (b Box) Area() float64 {
	w, h := b.Width(), b.Height()
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// Valid reports whether the box has its minimums below its maximums.
func (b Box) Valid() bool { return b.XMin < b.XMax && b.YMin < b.YMax }

// Translate moves the box by dx, dy.
func (b Box) Translate(dx, dy float64) Box {
	return Box{b.XMin + dx, b.YMin + dy, b.XMax + dx, b.YMax + dy}
}

// Union is the smallest box holding b and o.
func (b Box) Union(o Box) Box {
	return Box{min(b.XMin, o.XMin), min(b.YMin, o.YMin), max(b.XMax, o.XMax), max(b.YMax, o.YMax)}
}

// Intersect is the box both boxes cover (not Valid when they do not meet).
func (b Box) Intersect(o Box) Box {
	return Box{max(b.XMin, o.XMin), max(b.YMin, o.YMin), min(b.XMax, o.XMax), min(b.YMax, o.YMax)}
}

// IoU is the intersection over union of two boxes.
func (b Box) IoU(o Box) float64 {
	in := b.Intersect(o).Area()
	if in == 0 {
		return 0
	}
	return in / (b.Area() + o.Area() - in)
}

// ClipSegment cuts the segment from (ax, ay) to (bx, by) to the box, edges
// included (Liang–Barsky): the part inside runs from parameter t0 to t1
// (0 ≤ t0 ≤ t1 ≤ 1 along the segment); ok is false when no part is inside.
func (b Box) ClipSegment(ax, ay, bx, by float64) (t0, t1 float64, ok bool) {
	t0, t1 = 0, 1
	clip := func(p, q float64) bool {
		if p == 0 {
			return q >= 0
		}
		t := q / p
		if p < 0 {
			if t > t1 {
				return false
			}
			t0 = max(t0, t)
		} else {
			if t < t0 {
				return false
			}
			t1 = min(t1, t)
		}
		return true
	}
	dx, dy := bx-ax, by-ay
	if !clip(-dx, ax-b.XMin) || !clip(dx, b.XMax-ax) || !clip(-dy, ay-b.YMin) || !clip(dy, b.YMax-ay) {
		return 0, 0, false
	}
	return t0, t1, true
}
