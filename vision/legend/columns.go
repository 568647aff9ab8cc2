package legend

import (
	"image"
	"sort"
)

// sampleColumns finds the columns of a legend set as several columns of
// entries side by side, each a column of samples with its texts to their
// right ("MW = Mauerwerk" under its hatch beside "DD = Deckendurchbruch"
// under its opening): graphics whose x ranges overlap form a column of
// samples; with at least two such columns of two or more graphics each,
// each with its text to its right, an item belongs to the column whose
// samples start at or left of it. The rows of one column are then not run
// into the rows of another whose lines are offset from them. It returns
// the columns' left edges (nil when the legend is not so set) and the
// height the columns share (items outside it, a list set across the whole
// width above them, are banded as one).
func sampleColumns(items []item) (starts []int, span image.Rectangle) {
	var gs []image.Rectangle
	for _, it := range items {
		if it.g != nil {
			gs = append(gs, it.r)
		}
	}
	sort.Slice(gs, func(a, b int) bool { return gs[a].Min.X < gs[b].Min.X })
	type col struct {
		r image.Rectangle
		n int
	}
	var cols []col
	for _, g := range gs {
		if k := len(cols) - 1; k >= 0 && g.Min.X < cols[k].r.Max.X {
			cols[k].r = cols[k].r.Union(g)
			cols[k].n++
			continue
		}
		cols = append(cols, col{g, 1})
	}
	var keep []col
	for _, c := range cols {
		if c.n >= 2 {
			keep = append(keep, c)
		}
	}
	if len(keep) < 2 {
		return nil, image.Rectangle{}
	}
	// each column's samples have their texts to their right: the nearest
	// text on a sample's line lies right of it
	for _, c := range keep {
		right, left := 0, 0
		for _, g := range gs {
			if g.Min.X < c.r.Min.X || g.Max.X > c.r.Max.X {
				continue
			}
			dr, dl := -1, -1
			for _, it := range items {
				if it.b == nil || vOverlap(it.r, g)*2 < min(it.r.Dy(), g.Dy()) {
					continue
				}
				if d := it.r.Min.X - g.Max.X; d >= 0 && (dr < 0 || d < dr) {
					dr = d
				}
				if d := g.Min.X - it.r.Max.X; d >= 0 && (dl < 0 || d < dl) {
					dl = d
				}
			}
			switch {
			case dr >= 0 && (dl < 0 || dr < dl):
				right++
			case dl >= 0:
				left++
			}
		}
		if right <= left {
			return nil, image.Rectangle{}
		}
		starts = append(starts, c.r.Min.X)
	}
	// the height where the columns stand side by side
	span = keep[0].r
	for _, c := range keep[1:] {
		span.Min.Y = max(span.Min.Y, c.r.Min.Y)
		span.Max.Y = min(span.Max.Y, c.r.Max.Y)
	}
	if span.Min.Y >= span.Max.Y {
		return nil, image.Rectangle{}
	}
	return starts, span
}

// columnOf is the sample column an item belongs to (-1 when the legend
// has none, or the item lies outside the columns' height or across a
// column's start).
func columnOf(r image.Rectangle, starts []int, span image.Rectangle) int {
	if starts == nil || vOverlap(r, span) == 0 {
		return -1
	}
	c := 0
	for i, s := range starts {
		if r.Min.X >= s {
			c = i
		}
		if i > 0 && r.Min.X < s && r.Max.X > s {
			return -1
		}
	}
	return c
}
