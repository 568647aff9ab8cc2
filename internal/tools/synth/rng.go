package synth

import "hash/fnv"

// rng is a small splitmix64 generator. It is written here rather than taken
// from math/rand so that a seed yields the same drawings on every Go
// release: the output bytes are part of the package's contract.
type rng struct{ s uint64 }

// newRNG returns an independent stream for (seed, name). Separate streams
// keep parts of a set stable when other parts change (the base sheets do not
// depend on whether a revision is generated).
func newRNG(seed int64, name string) *rng {
	h := fnv.New64a()
	h.Write([]byte(name))
	r := &rng{s: uint64(seed)*0x9E3779B97F4A7C15 ^ h.Sum64()}
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// float returns a value in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// rangef returns a value in [a, b).
func (r *rng) rangef(a, b float64) float64 { return a + (b-a)*r.float() }

// intn returns a value in [0, n).
func (r *rng) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.next() % uint64(n))
}

// irange returns a value in [a, b], both included.
func (r *rng) irange(a, b int) int { return a + r.intn(b-a+1) }

func (r *rng) chance(p float64) bool { return r.float() < p }

func (r *rng) shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.intn(i+1))
	}
}

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }
