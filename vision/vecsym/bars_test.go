package vecsym

import (
	"math"
	"testing"
)

// A duplex receptacle — a circle with two bars across it — is not found
// where the plan draws a 240 V receptacle as the same circle with a third
// bar between the two (lamb's A1.3, whose legend spaces the 240 V symbol's
// three bars twice as wide, so that only the duplex's graphic fits): a bar
// inside the outline, along the symbol's own bars, that the symbol does
// not account for is another symbol's. The legend and the duplexes are
// TestCircleOfHalves' (lamb's proportions).
func TestExtraBarInOutline(t *testing.T) {
	bars := func(ys ...float64) shape {
		return func(b *pageBuilder, f func(pt) pt, half, turn float64) {
			b.circle(ink, f(0), 0.62*half, 4, false, turn)
			for _, y := range ys {
				b.path(ink, []pt{f(complex(-0.97, y)), f(complex(0.97, y))})
			}
		}
	}
	duplex, v240 := bars(-0.22, 0.22), bars(-0.22, 0, 0.22)
	ts := []*Template{templateOf(t, "R", legendReceptacle)}
	b := newPage(2000, 800)
	var dup, other []placed
	for i, turn := range []float64{0, math.Pi / 2, 0.7, 3.5} {
		c := complex(float64(250+450*i), 150)
		dup = append(dup, placed{"R", duplex, c, 30 * []float64{0.9, 1, 1.1, 0.7}[i], turn, i%2 == 1})
		other = append(other, placed{"240V", v240, c + 250i, 30 * []float64{1, 0.9, 0.7, 1.1}[i], turn, i%2 == 0})
	}
	// against a wall, the bars' ends on it
	b.path(ink, []pt{complex(100, 720.6), complex(1900, 720.6)})
	for i := range 4 {
		c := complex(float64(250+450*i), 690)
		dup = append(dup, placed{"R", duplex, c, 30, math.Pi / 2, false})
		other = append(other, placed{"240V", v240, c + 200, 30, math.Pi / 2, false})
	}
	truth := drawAll(b, dup)
	drawAll(b, other)
	if c := score(matchPage(t, b, ts), truth); c.TP != len(truth) || c.FP != 0 {
		t.Errorf("%d duplex receptacles among as many 240 V ones: TP %d FP %d FN %d", len(truth), c.TP, c.FP, c.FN)
	}
}
