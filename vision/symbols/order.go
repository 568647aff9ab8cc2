package symbols

import (
	"context"
	"errors"
	"slices"
)

// probeCount is how many of each symbol's best candidates are refined
// before any symbol's others (see refineOrdered).
const probeCount = 16

// refineOrdered refines cands (the ring pass's, best first) in the order
// that spends a time budget on the symbols the drawing holds. It goes in
// rounds: first each symbol's probeCount best candidates (so every symbol
// is tried, not only those whose ring profiles score highest: on a large
// plan a few symbols' candidates outnumber the budget by tens of
// thousands); then, round by round, the next best of the symbols whose
// last round found an instance, twice as many each round; last, the
// candidates left, of the symbols whose instances ran out. The instances
// of a symbol on one drawing are drawn alike and score alike, so a symbol
// none of whose next best candidates is an instance is the least likely
// to have more. Each round's candidates are refined in the ring pass's
// order, heeding the claims of the rounds before. Refined to the end, the
// same candidates are refined as in the ring pass's order (bar the claims:
// a claim skips only candidates whose detections it would suppress).
// Stopped by ctx, the candidates refined keep their detections; it
// returns them, how many were not refined and ctx's error.
func (m *matcher) refineOrdered(ctx context.Context, cands []candidate) ([]Detection, int, error) {
	var (
		dets   []Detection
		claims []claim
		done   int
	)
	run := func(batch []int) error {
		cs := make([]candidate, len(batch))
		for k, i := range batch {
			cs[k] = cands[i]
		}
		d, left, cl, err := m.refineAll(ctx, cs, claims, done, len(cands))
		dets, claims, done = append(dets, d...), cl, done+len(cs)-left
		return err
	}
	err := refineRounds(cands, func(batch []int) (map[int]bool, error) {
		n := len(dets)
		if err := run(batch); err != nil {
			return nil, err
		}
		found := map[int]bool{}
		for _, d := range dets[n:] {
			found[d.Template] = true
		}
		return found, nil
	})
	return dets, len(cands) - done, err
}

// refineRounds hands the indexes of cands to refine, round by round as
// refineOrdered orders them, each round's in cands' order, and refine
// tells which symbols (template indexes) a round found; it stops at
// refine's first error.
func refineRounds(cands []candidate, refine func(batch []int) (map[int]bool, error)) error {
	per := map[*prepared][]int{} // each symbol's candidates, best first
	var syms []*prepared
	for i, c := range cands {
		if per[c.t] == nil {
			syms = append(syms, c.t)
		}
		per[c.t] = append(per[c.t], i)
	}
	taken := map[*prepared]int{}
	active := syms
	for size := probeCount; len(active) > 0; size *= 2 {
		var batch []int
		for _, t := range active {
			k := min(taken[t]+size, len(per[t]))
			batch = append(batch, per[t][taken[t]:k]...)
			taken[t] = k
		}
		slices.Sort(batch)
		found, err := refine(batch)
		if err != nil {
			return err
		}
		var next []*prepared
		for _, t := range active {
			if found[t.idx] && taken[t] < len(per[t]) {
				next = append(next, t)
			}
		}
		active = next
	}
	var rest []int
	for _, t := range syms {
		rest = append(rest, per[t][taken[t]:]...)
	}
	if len(rest) == 0 {
		return nil
	}
	slices.Sort(rest)
	_, err := refine(rest)
	return err
}

// stoppedBy tells whether err is ctx's own (ctx's deadline passed or it
// was cancelled) while parent is live: a part of the search ran out of
// its share of the time, not the whole search.
func stoppedBy(err error, ctx, parent context.Context) bool {
	return err != nil && parent.Err() == nil && errors.Is(err, ctx.Err())
}
