package vecsym

import (
	"math"
	"math/cmplx"
)

// The second similarity: a description of a symbol's marks that depends
// on neither its turn nor its mirroring — per ring about its centre, the
// share of its marks' length there and the strength of their first two
// angular harmonics — compared between the legend's symbol and the marks
// found around a candidate (cosine similarity). It is computed from the
// pose's centre and scale only, so it checks the pose's alignment from
// another side: a candidate whose marks line up with the symbol's but
// whose surroundings spread differently (more ink off to one side, a
// ring of extra marks) describes differently.

const descRings = 8

// descRadius is the descriptor's reach, as a share of the symbol's
// diagonal (its box's corners lie at half of it).
const descRadius = 0.55

// descAcc accumulates marks into a descriptor.
type descAcc struct {
	c      pt
	r      float64 // outer radius
	mass   [descRings]float64
	h1, h2 [descRings]complex128
}

func newDescAcc(c pt, r float64) *descAcc { return &descAcc{c: c, r: r} }

// add counts a piece of marks of length w at p.
func (a *descAcc) add(p pt, w float64) {
	d := p - a.c
	rr := cmplx.Abs(d) / a.r
	if rr >= 1 {
		return
	}
	i := int(rr * descRings)
	th := cmplx.Phase(d)
	a.mass[i] += w
	a.h1[i] += complex(w, 0) * cmplx.Rect(1, th)
	a.h2[i] += complex(w, 0) * cmplx.Rect(1, 2*th)
}

// addGlyph counts a glyph as a small patch of marks of its weight.
func (a *descAcc) addGlyph(g *glyph, scale float64, at pt, turn float64) {
	w := glyphWeight * g.size * scale / 5
	h := 0.25 * g.size * scale
	a.add(at, w)
	for _, o := range [4]complex128{complex(h, 0), complex(-h, 0), complex(0, h), complex(0, -h)} {
		a.add(at+o*cmplx.Rect(1, turn), w)
	}
}

// vec is the descriptor: each ring's mass and harmonic strengths, as
// shares of the whole mass.
func (a *descAcc) vec() [3 * descRings]float64 {
	var v [3 * descRings]float64
	total := 0.0
	for _, m := range a.mass {
		total += m
	}
	if total == 0 {
		return v
	}
	for i := range a.mass {
		v[3*i] = a.mass[i] / total
		v[3*i+1] = cmplx.Abs(a.h1[i]) / total
		v[3*i+2] = cmplx.Abs(a.h2[i]) / total
	}
	return v
}

// cosine is the cosine similarity of two descriptors (0 when either is
// empty).
func cosine(a, b [3 * descRings]float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}
