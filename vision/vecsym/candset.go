package vecsym

import (
	"math"
	"math/cmplx"
)

// candSet keeps the best candidate per place: of two within a quarter of
// the symbol's size of each other at about the same scale, the better.
type candSet struct {
	size  float64 // the template's
	cell  float64
	cells map[[2]int32][]int
	cs    []Candidate
	at    []pt
	turns []complex128 // the kept candidates' turns (pose.turn)
}

func newCandSet(size float64) *candSet {
	return &candSet{size: size, cell: max(size/4, 1), cells: map[[2]int32][]int{}}
}

func better(a, b Candidate) bool {
	return a.Covered+a.Explained+a.Described > b.Covered+b.Explained+b.Described
}

// same returns the index of the candidate kept at the place of a pose at
// scale k centred at at, or -1.
func (s *candSet) same(at pt, k float64) int {
	r := 0.25 * k * s.size // a quarter of the symbol at scale k
	kx, ky := int32(math.Floor(px(at)/s.cell)), int32(math.Floor(py(at)/s.cell))
	span := int32(math.Ceil(r / s.cell))
	for y := ky - span; y <= ky+span; y++ {
		for x := kx - span; x <= kx+span; x++ {
			for _, i := range s.cells[[2]int32{x, y}] {
				if dist(s.at[i], at) <= r && math.Abs(math.Log(s.cs[i].Scale/k)) < 0.15 {
					return i
				}
			}
		}
	}
	return -1
}

// settled reports whether verifying pose P (centred at at) can change what
// is kept at its place: not when the candidate kept there is P itself,
// found from another anchor, with all of the symbol's marks, nor when it
// has all of them and accounts for everything about it. (Another turn of a
// symmetric symbol, where the kept one leaves marks unexplained, is
// verified: a turn that explains more may be the right one.)
func (s *candSet) settled(at pt, P pose) bool {
	i := s.same(at, P.scale())
	if i < 0 || s.cs[i].Covered < 0.999 {
		return false
	}
	if c := s.cs[i]; c.Explained >= 0.999 && c.Described >= 0.999 {
		return true // nothing there can do better (a symmetric symbol's other turns tie)
	}
	// the same turn and scale: P itself (a pose of another scale is
	// another fit, as a circle's scale against its bars')
	return s.cs[i].Mirrored == P.mirror && cmplx.Abs(s.turns[i]-P.turn()) < 0.03 && // about 2°
		math.Abs(math.Log(s.cs[i].Scale/P.scale())) < 0.02
}

func (s *candSet) add(c Candidate, at pt, turn complex128) {
	if i := s.same(at, c.Scale); i >= 0 {
		if better(c, s.cs[i]) {
			s.cs[i], s.turns[i] = c, turn
		}
		return
	}
	kx, ky := int32(math.Floor(px(at)/s.cell)), int32(math.Floor(py(at)/s.cell))
	s.cs = append(s.cs, c)
	s.at = append(s.at, at)
	s.turns = append(s.turns, turn)
	key := [2]int32{kx, ky}
	s.cells[key] = append(s.cells[key], len(s.cs)-1)
}

func (s *candSet) list() []Candidate { return s.cs }
