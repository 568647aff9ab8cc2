package symbols

import (
	"context"
	"slices"
	"testing"
	"time"
)

// Every symbol's best candidates are refined first; then, round by round
// and twice as many each time, the next best of the symbols the last
// round found; last the rest; each round in the ring pass's order.
func TestRefineRounds(t *testing.T) {
	a, b, c := &prepared{idx: 0}, &prepared{idx: 1}, &prepared{idx: 2}
	var cands []candidate
	// 200 of a, 100 of b, 8 of c, interleaved, best first
	for i := range 200 {
		cands = append(cands, candidate{t: a})
		if i < 100 {
			cands = append(cands, candidate{t: b})
		}
		if i < 8 {
			cands = append(cands, candidate{t: c})
		}
	}
	var batches [][]int
	seen := map[int]bool{}
	err := refineRounds(cands, func(batch []int) (map[int]bool, error) {
		if !slices.IsSorted(batch) {
			t.Errorf("batch %d out of order", len(batches))
		}
		for _, i := range batch {
			if seen[i] {
				t.Errorf("candidate %d refined twice", i)
			}
			seen[i] = true
		}
		batches = append(batches, batch)
		// a is found every round, b in the probes only, c never
		return map[int]bool{0: true, 1: len(batches) == 1}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(cands) {
		t.Errorf("%d of %d candidates refined", len(seen), len(cands))
	}
	per := func(batch []int) [3]int {
		var n [3]int
		for _, i := range batch {
			n[cands[i].t.idx]++
		}
		return n
	}
	// probes 16 each (c has 8); then a and b 32; then a alone 64, 88
	// (the rest of its 200); then b's and nothing of c's
	want := [][3]int{{16, 16, 8}, {32, 32, 0}, {64, 0, 0}, {88, 0, 0}, {0, 52, 0}}
	if len(batches) != len(want) {
		t.Fatalf("%d rounds, want %d", len(batches), len(want))
	}
	for i, w := range want {
		if got := per(batches[i]); got != w {
			t.Errorf("round %d: %v, want %v", i, got, w)
		}
	}
}

// A large image searched under a deadline that passes once every tile is
// searched at the near scales keeps those detections, reports no part
// unsearched and names the near scales as the only ones searched
// everywhere. The budget ends when the near scales are done, whatever
// the machine's speed: the search's context is the test's.
func TestTiledSearchStoppedAfterTheNearScales(t *testing.T) {
	img, tmpls, _ := scene(t)
	defer func(a, c int) { tileMinArea, tileCore = a, c }(tileMinArea, tileCore)
	tileMinArea, tileCore = 0, 400
	var end context.CancelFunc
	ended := false
	res, err := Match(context.Background(), img, tmpls, Options{
		Deadline: time.Now().Add(time.Hour),
		budget: func(ctx context.Context, d time.Time) (context.Context, context.CancelFunc) {
			ctx, end = context.WithDeadline(ctx, d)
			return ctx, end
		},
		Progress: func(v float64) {
			// the near scales are the first half of the tiles' searches
			if v >= 0.5-1e-9 && !ended {
				ended = true
				end()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !ended {
		t.Fatal("the search never reached the other scales")
	}
	if len(res.Unsearched) != 0 || res.NearScales != [2]float64{1 / nearScale, nearScale} {
		t.Errorf("unsearched %v, near scales %v", res.Unsearched, res.NearScales)
	}
	if len(res.Detections) == 0 {
		t.Error("no detections kept")
	}
	for _, d := range res.Detections {
		if d.Scale < 1/nearScale/1.2 || d.Scale > nearScale*1.2 {
			t.Errorf("%s at scale %.2f", d.Label, d.Scale)
		}
	}
}
