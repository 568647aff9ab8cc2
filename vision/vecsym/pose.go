package vecsym

import (
	"math"
	"math/cmplx"
)

// pt is a point as a complex number: x + iy, in pixels (y down).
type pt = complex128

func px(p pt) float64 { return real(p) }
func py(p pt) float64 { return imag(p) }

func dist(a, b pt) float64 { return cmplx.Abs(a - b) }

// pose maps a template's point p to the drawing: z·p + b, or z·conj(p) + b
// when mirrored. |z| is the scale, arg z the turn (radians, clockwise as
// seen on the page, since y grows downwards).
type pose struct {
	z, b   complex128
	mirror bool
	// slack is how much farther than the tolerance a curve's samples may
	// be met (page pixels): a pose scaled by a symbol's lines about its
	// circle (circleLine) meets a circle drafted otherwise against them
	slack float64
}

func (t pose) apply(p pt) pt {
	if t.mirror {
		p = cmplx.Conj(p)
	}
	return t.z*p + t.b
}

// dir maps a direction (a unit vector) without the translation.
func (t pose) dir(d complex128) complex128 {
	if t.mirror {
		d = cmplx.Conj(d)
	}
	return t.z * d / complex(cmplx.Abs(t.z), 0)
}

// turn is the pose's turn as a unit vector: dir(d) is turn·d (or turn·d̄
// when mirrored).
func (t pose) turn() complex128 { return t.z / complex(cmplx.Abs(t.z), 0) }

// invZ is 1/z.
func (t pose) invZ() complex128 {
	n := real(t.z)*real(t.z) + imag(t.z)*imag(t.z)
	return complex(real(t.z)/n, -imag(t.z)/n)
}

// inverseDir maps a drawing's direction back to the template's.
func (t pose) inverseDir(d complex128) complex128 {
	d *= t.invZ()
	if t.mirror {
		d = cmplx.Conj(d)
	}
	return d / complex(cmplx.Abs(d), 0)
}

// inverse maps a drawing point back to the template.
func (t pose) inverse(q pt) pt {
	p := (q - t.b) * t.invZ()
	if t.mirror {
		p = cmplx.Conj(p)
	}
	return p
}

func (t pose) scale() float64 { return cmplx.Abs(t.z) }

// angleDeg is the turn in degrees counter-clockwise as seen on the page, in
// [0, 360).
func (t pose) angleDeg() float64 {
	a := -cmplx.Phase(t.z) * 180 / math.Pi
	if a < 0 {
		a += 360
	}
	if a >= 360 {
		a -= 360
	}
	return a
}

// poseFrom is the similarity (mirrored or not) mapping p1 to q1 and p2 to
// q2; ok is false when p1 and p2 coincide.
func poseFrom(p1, p2, q1, q2 pt, mirror bool) (pose, bool) {
	if mirror {
		p1, p2 = cmplx.Conj(p1), cmplx.Conj(p2)
	}
	d := p2 - p1
	if cmplx.Abs(d) < 1e-9 {
		return pose{}, false
	}
	z := (q2 - q1) / d
	return pose{z: z, b: q1 - z*p1, mirror: mirror}, true
}

// poseAt is the similarity of scale k, turn phi (radians, as arg z) and
// mirror that maps p to q.
func poseAt(p, q pt, k, phi float64, mirror bool) pose {
	z := cmplx.Rect(k, phi)
	t := pose{z: z, mirror: mirror}
	t.b = q - t.apply(p)
	return t
}

// angleDiff is the difference of two line directions (mod π), in [0, π/2].
func angleDiff(a, b float64) float64 {
	d := math.Abs(a - b)
	if d >= math.Pi { // not for angles in [0, π), as lineAngle gives them
		d = math.Mod(d, math.Pi)
	}
	if d > math.Pi/2 {
		d = math.Pi - d
	}
	return d
}

// unitDir is the unit vector from a to b (0 when they coincide).
func unitDir(a, b pt) complex128 {
	d := b - a
	n := cmplx.Abs(d)
	if n == 0 {
		return 0
	}
	return d / complex(n, 0)
}

// lineAngle returns the direction of a segment as an angle in [0, π).
func lineAngle(a, b pt) float64 {
	ang := math.Atan2(py(b)-py(a), px(b)-px(a))
	if ang < 0 {
		ang += math.Pi
	}
	if ang >= math.Pi {
		ang -= math.Pi
	}
	return ang
}
