package report

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

// Cloud is one revision cloud to draw on the newer drawing: Page is the
// 1-based page number, Box in sheet pixels at DPI.
type Cloud struct {
	Page int
	Box  geom.Box
	// Note is the grouped changes' descriptions, one a line.
	Note string
}

// Clouds groups each sheet pair's changes that lie within margin of each
// other (sheet pixels: a change's bounds are in its block's pixels, the
// block's Bounds on its sheet give the offset) into one cloud per group,
// its note the changes' descriptions.
//
// A group is the changes linked by chains of neighbours (box to box within
// margin); its cloud is their union grown by margin. A margin ≤ 0 takes
// compare.DefaultCloudMargin. Pairs whose newer sheet has no page number
// are skipped. Clouds come by page, then top to bottom, left to right; a
// note repeats no description and keeps the changes' order.
func Clouds(r *compare.Report, margin float64) []Cloud {
	if r == nil {
		return nil
	}
	if margin <= 0 {
		margin = compare.DefaultCloudMargin
	}
	type item struct {
		box  geom.Box
		desc string
	}
	byPage := map[int][]item{}
	for _, p := range r.Pairs {
		if p.New.Page < 1 {
			continue
		}
		for _, o := range p.Overlays {
			dx, dy := o.New.Bounds.XMin, o.New.Bounds.YMin
			for _, c := range o.Changes {
				if c.Bounds.Width() < 0 || c.Bounds.Height() < 0 {
					continue
				}
				byPage[p.New.Page] = append(byPage[p.New.Page], item{c.Bounds.Translate(dx, dy), c.Description})
			}
		}
	}
	var out []Cloud
	for _, page := range slices.Sorted(maps.Keys(byPage)) {
		items := byPage[page]
		boxes := make([]geom.Box, len(items))
		for i, it := range items {
			boxes[i] = it.box
		}
		for _, g := range compare.ClusterBoxes(boxes, margin) {
			var box geom.Box
			var notes []string
			for k, i := range g {
				if k == 0 {
					box = items[i].box
				} else {
					box = box.Union(items[i].box)
				}
				if d := strings.TrimSpace(items[i].desc); d != "" && !slices.Contains(notes, d) {
					notes = append(notes, d)
				}
			}
			out = append(out, Cloud{Page: page, Box: grow(box, margin), Note: strings.Join(notes, "\n")})
		}
	}
	slices.SortStableFunc(out, func(a, b Cloud) int {
		return cmp.Or(cmp.Compare(a.Page, b.Page), cmp.Compare(a.Box.YMin, b.Box.YMin), cmp.Compare(a.Box.XMin, b.Box.XMin))
	})
	return out
}

func grow(b geom.Box, d float64) geom.Box {
	return geom.Box{XMin: b.XMin - d, YMin: b.YMin - d, XMax: b.XMax + d, YMax: b.YMax + d}
}
