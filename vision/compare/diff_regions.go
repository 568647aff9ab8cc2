package compare

import (
	"image"
	"math"
	"sort"
	"unsafe"

	"gocv.io/x/gocv"

	"github.com/plangraph/plangraph/vision/geom"
)

// Grouping the differences into regions, on the cell maps of diff.go.
//
//  1. Pieces: the cells holding differences, joined when within pieceGap
//     (a closing of a couple of strokes: the strokes of a letter, a
//     symbol's parts).
//  2. Residue: a piece with fewer than minFar pixels further than 2r from
//     the other side's ink is a sliver along an unchanged line (or a
//     speck) and is dropped.
//  3. Regions: pieces whose boxes are within joinGap join, nearest first,
//     as long as the joined box stays within maxRegion on each side: a
//     renamed room (its letters and words), a moved wall (the old place
//     and the new) or a symbol and its tag are one region, two changes
//     across a room are two.
//     A piece meeting the box of a glyph or word that changed in place
//     (diff_text.go) is kept, whatever its distance.
//  4. A region of fewer than minRegion pixels is dropped as a speck (but
//     not one with a changed glyph or word); with
//     Options.IgnoreHatches, so is one whose ink is faint (screens, tints:
//     under a tenth of its pixels dark) or a hatch pattern (hatch.go).
//
// Lengths are in pixels at 300 DPI, scaled to the side's DPI.
const (
	pieceGap300   = 6.0
	joinGap300    = 80.0
	maxRegion300  = 1500.0
	minFar300     = 3.0 // pixels (an area: scaled by the DPI's square)
	minRegion300  = 30.0
	faintMaxShare = 0.1
)

// cellSize is the side, in pixels, of the diff's cells at dpi: about 4 at
// 300 DPI, a divisor of bandRows so that bands start on cell rows.
func cellSize(dpi float64) int {
	want := max(1, int(dpi/75))
	for c := want; c > 1; c-- {
		if bandRows%c == 0 {
			return c
		}
	}
	return 1
}

// piece is a group of difference cells.
type piece struct {
	box                             image.Rectangle // in cells
	rem, add, far, darkRem, darkAdd int             // pixels
	dropped                         bool
	text                            bool // meets a changed glyph or word
}

// groupResult is the grouping's outcome.
type groupResult struct {
	regions []Region
	// drop is, per cell, 255 where the cell's differences were dropped
	// (residue, specks, hatches): the images show them as unchanged.
	drop []uint8
	// hatches and faint count the regions left out by IgnoreHatches.
	hatches, faint int
}

// groupRegions groups the cells' differences. hatched, when not nil,
// tells whether the differences in a box (pixels) are a hatch pattern;
// pieces meeting a box of text (pixels) are kept whatever their size or
// distance (diff_text.go).
func groupRegions(c *cellMaps, dpi float64, ignoreHatches bool, hatched func(image.Rectangle) bool, text []image.Rectangle) groupResult {
	k := dpi / 300
	cf := float64(c.cell)
	labels, pieces, done := cellPieces(c, max(1, int(math.Round(pieceGap300*k/cf))))
	defer done()
	minFar := max(1, int(math.Round(minFar300*k*k)))
	for i := range pieces {
		p := &pieces[i]
		px := image.Rect(p.box.Min.X*c.cell, p.box.Min.Y*c.cell, p.box.Max.X*c.cell, p.box.Max.Y*c.cell)
		for _, r := range text {
			if r.Overlaps(px) {
				p.text = true
				break
			}
		}
		if p.far < minFar && !p.text {
			p.dropped = true
		}
	}
	groups := joinPieces(pieces, joinGap300*k/cf, maxRegion300*k/cf)

	res := groupResult{drop: make([]uint8, c.w*c.h)}
	minRegion := max(2, int(math.Round(minRegion300*k*k)))
	for _, g := range groups {
		var box image.Rectangle
		var rem, add, dark int
		text := false
		for _, i := range g {
			p := pieces[i]
			text = text || p.text
			box = box.Union(p.box)
			rem += p.rem
			add += p.add
			dark += p.darkRem + p.darkAdd
		}
		px := image.Rect(box.Min.X*c.cell, box.Min.Y*c.cell, box.Max.X*c.cell, box.Max.Y*c.cell)
		drop := rem+add < minRegion && !text
		if !drop && ignoreHatches {
			switch {
			case float64(dark) < faintMaxShare*float64(rem+add):
				drop = true
				res.faint++
			case hatched != nil && hatched(px):
				drop = true
				res.hatches++
			}
		}
		if drop {
			for _, i := range g {
				pieces[i].dropped = true
			}
			continue
		}
		res.regions = append(res.regions, Region{
			Bounds: geom.Box{XMin: float64(px.Min.X), YMin: float64(px.Min.Y), XMax: float64(px.Max.X), YMax: float64(px.Max.Y)},
			Added:  add, Removed: rem,
		})
	}
	for i, l := range labels {
		// a label of the joined mask covers paper too: only difference
		// cells are erased
		if l > 0 && pieces[l-1].dropped && (c.rem[i] > 0 || c.add[i] > 0) {
			res.drop[i] = 255
		}
	}
	sort.Slice(res.regions, func(i, j int) bool {
		a, b := res.regions[i].Bounds, res.regions[j].Bounds
		if a.YMin != b.YMin {
			return a.YMin < b.YMin
		}
		return a.XMin < b.XMin
	})
	return res
}

// cellPieces labels the cells by piece (difference cells within gap
// cells of each other share one, and so do the cells between them; 0 far
// from any difference) and sums each piece. The labels live until done is
// called.
func cellPieces(c *cellMaps, gap int) (labels []int32, pieces []piece, done func()) {
	if c.w == 0 || c.h == 0 {
		return nil, nil, func() {}
	}
	mask := make([]uint8, c.w*c.h)
	for i := range mask {
		if c.rem[i] > 0 || c.add[i] > 0 {
			mask[i] = 255
		}
	}
	mm, _ := gocv.NewMatFromBytes(c.h, c.w, gocv.MatTypeCV8U, mask)
	defer mm.Close()
	k := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(2*gap+1, 2*gap+1))
	defer k.Close()
	joined := gocv.NewMat()
	defer joined.Close()
	gocv.Dilate(mm, &joined, k)
	lm := gocv.NewMat()
	n := gocv.ConnectedComponents(joined, &lm)
	rb, _ := lm.DataPtrUint8() // CV_32S labels
	labels = unsafe.Slice((*int32)(unsafe.Pointer(&rb[0])), len(rb)/4)
	pieces = make([]piece, max(0, n-1))
	for i := range pieces {
		pieces[i].box = image.Rectangle{Min: image.Pt(math.MaxInt32, math.MaxInt32)}
	}
	for i, m := range mask {
		if m == 0 {
			continue
		}
		p := &pieces[labels[i]-1]
		x, y := i%c.w, i/c.w
		p.box.Min = image.Pt(min(p.box.Min.X, x), min(p.box.Min.Y, y))
		p.box.Max = image.Pt(max(p.box.Max.X, x+1), max(p.box.Max.Y, y+1))
		p.rem += c.count(c.rem[i])
		p.add += c.count(c.add[i])
		p.far += c.count(c.farRem[i]) + c.count(c.farAdd[i])
		if c.darkRem != nil {
			p.darkRem += c.count(c.darkRem[i])
			p.darkAdd += c.count(c.darkAdd[i])
		}
	}
	return labels, pieces, func() { lm.Close() }
}

// joinPieces joins the kept pieces into regions (lists of piece indexes):
// pairs of pieces whose boxes are within gap, nearest first, while the
// joined box stays within maxSide on each side (all in cells).
func joinPieces(ps []piece, gap, maxSide float64) [][]int {
	var idx []int
	for i, p := range ps {
		if !p.dropped {
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return ps[idx[a]].box.Min.X < ps[idx[b]].box.Min.X })
	type link struct {
		i, j int
		d    float64
	}
	var links []link
	for a, i := range idx {
		bi := ps[i].box
		for _, j := range idx[a+1:] {
			bj := ps[j].box
			if float64(bj.Min.X-bi.Max.X) > gap {
				break
			}
			if d := boxGap(bi, bj); d <= gap {
				links = append(links, link{i, j, d})
			}
		}
	}
	sort.Slice(links, func(a, b int) bool { return links[a].d < links[b].d })
	parent := make([]int, len(ps))
	box := make([]image.Rectangle, len(ps))
	for i := range parent {
		parent[i], box[i] = i, ps[i].box
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, l := range links {
		a, b := find(l.i), find(l.j)
		if a == b {
			continue
		}
		u := box[a].Union(box[b])
		if float64(u.Dx()) > maxSide || float64(u.Dy()) > maxSide {
			continue
		}
		parent[b], box[a] = a, u
	}
	byRoot := map[int][]int{}
	var roots []int
	for _, i := range idx {
		r := find(i)
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], i)
	}
	out := make([][]int, len(roots))
	for k, r := range roots {
		out[k] = byRoot[r]
	}
	return out
}

// boxGap is the distance between two boxes (0 when they touch or overlap).
func boxGap(a, b image.Rectangle) float64 {
	dx := max(0, max(a.Min.X-b.Max.X, b.Min.X-a.Max.X))
	dy := max(0, max(a.Min.Y-b.Max.Y, b.Min.Y-a.Max.Y))
	return math.Hypot(float64(dx), float64(dy))
}
