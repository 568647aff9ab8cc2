package layout

// Lone rules along the drawing area's edges: a stray piece of a border, a
// trim or binding line drawn down the margin. Standing alone, such a line
// holds no block's content, yet the XY-cut takes it as ink like any other
// and joins whatever lies at its two ends (lamb A1.3: a line down the left
// margin joined a note above the legend to the notes below it, and the
// block made of them took the legend's words).

const (
	edgeRuleBandEm = 2.0  // within this of the area's edge…
	edgeRuleLenEm  = 20.0 // …a run at least this long…
	edgeRuleSideEm = 1.0  // …with nothing beside it this close is a lone rule
)

// clearEdgeRules removes from the mask the lone rules parallel to r's
// edges and near them: stretches of straight ink runs at least
// edgeRuleLenEm long with no ink on either side within edgeRuleSideEm
// (touches shorter than that bridged). A frame's side or a view's wall
// has ink beside it along its length and stays; so does the part of a
// margin line that runs along a notes column.
func (m *mask) clearEdgeRules(r rect, em float64) {
	band, minLen, side := int(edgeRuleBandEm*em), int(edgeRuleLenEm*em), max(int(edgeRuleSideEm*em), 3)
	if r.w() <= 2*band || r.h() <= 2*band || minLen < 10 {
		return
	}
	for _, vertical := range []bool{true, false} {
		// lines run along a (y for a vertical rule), at position b (x)
		a0, a1, b0, b1 := r.y0, r.y1, r.x0, r.x1
		if !vertical {
			a0, a1, b0, b1 = r.x0, r.x1, r.y0, r.y1
		}
		ink := func(a, b int) bool {
			if vertical {
				return m.at(b, a)
			}
			return m.at(a, b)
		}
		var clears []rect
		for b := b0; b < b1; b++ {
			if b-b0 >= band && b1-1-b >= band {
				continue
			}
			for a := a0; a < a1; {
				if !ink(a, b) {
					a++
					continue
				}
				s := a
				for a < a1 && ink(a, b) {
					a++
				}
				if a-s < minLen {
					continue
				}
				// the stretches of the run with nothing beside them (the
				// run's own width is up to 2 px either way of b), a short
				// touch (a tick, a letter's corner) bridged
				lone := s
				flush := func(t int) {
					if t-lone >= minLen {
						if vertical {
							clears = append(clears, rect{b - 2, lone, b + 3, t})
						} else {
							clears = append(clears, rect{lone, b - 2, t, b + 3})
						}
					}
				}
				busyRun := 0
				for t := s; t < a; t++ {
					busy := false
					for d := 3; d <= side && !busy; d++ {
						busy = b-d >= b0 && ink(t, b-d) || b+d < b1 && ink(t, b+d)
					}
					if !busy {
						busyRun = 0
						continue
					}
					busyRun++
					if busyRun == side {
						flush(t - side + 1)
					}
					if busyRun >= side {
						lone = t + 1
					}
				}
				flush(a)
			}
		}
		for _, c := range clears {
			m.clearRect(c)
		}
	}
}
