package layout

import (
	"slices"
	"sort"
)

// Dashed rules across the drawing area: a details sheet's reference grid
// drawn in dashes (its cells, many of them unused), a match line. The
// XY-cut takes each dash as ink, so a dashed line across the sheet joins
// every view it crosses, and the empty cells beside them, into one block
// (lamb A4.1: five empty cells of the grid and the ASSEMBLIES view came out
// as one block 1,650 points wide).

const (
	dashMinEm  = 0.5 // a dash at least this long…
	dashMaxEm  = 8.0 // …and at most this long,
	dashGapEm  = 4.0 // a gap between dashes at most this long,
	dashCount  = 4   // at least this many dashes in a line
	dashSpan   = 0.4 // a line across this much of the area at least
	dashMaxThk = 2   // mask cells thick at most
	dashEdgeEm = 3.0 // from this close to the area's edge at one end
)

// clearDashedRules removes from the mask the dashed lines across r: runs
// of at least dashCount thin, straight dashes in a row (a column), each
// dashMinEm to dashMaxEm long, less than dashGapEm apart, spanning
// dashSpan of r's width (height) at least, from r's edge (a sheet's grid
// is drawn from its border; a plan's column grid runs between its bubbles,
// and a view's own dashed lines within it).
func (m *mask) clearDashedRules(r rect, em float64) {
	minLen, maxLen, gap := max(2, int(dashMinEm*em)), int(dashMaxEm*em), int(dashGapEm*em)
	if r.empty() || maxLen <= minLen {
		return
	}
	rs := m.findRules(minLen, dashMaxThk)
	var clears []rect
	for _, vertical := range []bool{false, true} {
		segs, lo, hi, pos0, pos1 := rs.h, r.x0, r.x1, r.y0, r.y1
		if vertical {
			segs, lo, hi, pos0, pos1 = rs.v, r.y0, r.y1, r.x0, r.x1
		}
		// the dashes inside r
		var ds []seg
		for _, s := range segs {
			if s.len() <= maxLen && s.pos >= pos0 && s.pos < pos1 && s.a >= lo && s.b <= hi {
				ds = append(ds, s)
			}
		}
		edge := int(dashEdgeEm * em)
		for _, line := range dashedLines(ds, gap) {
			first, last := line[0], line[len(line)-1]
			if len(line) < dashCount || float64(last.b-first.a) < dashSpan*float64(hi-lo) ||
				first.a-lo > edge && hi-last.b > edge {
				continue
			}
			for _, d := range line {
				t := (d.thick + 1) / 2
				if vertical {
					clears = append(clears, rect{d.pos - t, d.a, d.pos + t + 1, d.b})
				} else {
					clears = append(clears, rect{d.a, d.pos - t, d.b, d.pos + t + 1})
				}
			}
		}
	}
	for _, c := range clears {
		m.clearRect(c)
	}
}

// dashedLines chains dashes into lines: taken along their direction, a
// dash continues the line whose last dash ends at most gap before it, on
// the same position give or take a cell.
func dashedLines(ds []seg, gap int) [][]seg {
	sort.Slice(ds, func(i, j int) bool { return ds[i].a < ds[j].a })
	var lines [][]seg
	at := map[int][]int{} // position → the lines whose last dash lies there
	for _, d := range ds {
		best := -1
		for p := d.pos - 1; p <= d.pos+1 && best < 0; p++ {
			for _, i := range at[p] {
				if last := lines[i][len(lines[i])-1]; d.a > last.b && d.a-last.b <= gap {
					best = i
					break
				}
			}
		}
		if best < 0 {
			best = len(lines)
			lines = append(lines, nil)
		} else {
			last := lines[best][len(lines[best])-1]
			at[last.pos] = slices.DeleteFunc(at[last.pos], func(i int) bool { return i == best })
		}
		lines[best] = append(lines[best], d)
		at[d.pos] = append(at[d.pos], best)
	}
	return lines
}
