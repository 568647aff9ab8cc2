package symbols

import "testing"

// A climb looks for the symbol within dupScale of its candidate's scale:
// a score that keeps rising as the symbol shrinks (a switch's small
// circle on its stroke shrunk to a blob, which the end of any dash
// matches) does not take it to the smallest scale searched.
func TestClimbStaysNearItsCandidatesScale(t *testing.T) {
	m := &matcher{opt: Options{MinScale: 0.5, MaxScale: 2}}
	tp := &prepared{minScale: 0.5}
	shrink := func(_ int, _ *prepared, p pose) float64 { return 1 / p.scale }
	grow := func(_ int, _ *prepared, p pose) float64 { return p.scale }
	for _, tc := range []struct {
		name  string
		scale float64
		score func(int, *prepared, pose) float64
		lo    float64
		hi    float64
	}{
		{"shrinking", 0.89, shrink, 0.89 / dupScale, 0.89 / dupScale * 1.1},
		{"growing", 0.89, grow, 0.89 * dupScale / 1.1, 0.89 * dupScale},
		// the searched range still bounds it
		{"shrinking at the smallest scale", 0.5, shrink, 0.5 * 0.95, 0.5},
	} {
		c := candidate{t: tp, scale: tc.scale}
		start := pose{cx: 50, cy: 50, scale: tc.scale}
		p, _, _ := m.climb(0, c, start, tc.score(0, tp, start), tc.score, 48, 4, 4, nil)
		if p.scale < tc.lo-1e-9 || p.scale > tc.hi+1e-9 {
			t.Errorf("%s: climbed from scale %.2f to %.3f, want %.3f–%.3f", tc.name, tc.scale, p.scale, tc.lo, tc.hi)
		}
	}
}
