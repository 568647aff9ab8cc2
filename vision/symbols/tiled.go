package symbols

import (
	"context"
	"image"
	"math"
)

// Large images are searched in tiles so that memory follows the tile size,
// not the image's: the search keeps several float images (coverage, its
// pyramid, blurred levels, distance transforms, prefix sums) of what it
// searches. Each tile owns a tileCore × tileCore region and is searched
// with a margin around it wide enough to hold any symbol centred in that
// region whole; a tile keeps the detections centred in its own region, and
// the detections of all tiles are suppressed across symbols once more
// (symbols near a region's edge may overlap detections of the next one).
var (
	tileMinArea = 6144 * 6144 // images up to this many pixels are searched whole
	tileCore    = 4096
)

// searchTiled searches img tile by tile at one stroke width, measured on
// the whole image. When a tile's search fails for a reason stop accepts
// (the search's time budget spent), the tiles searched keep their
// detections and the cores of the others are returned as unsearched.
func searchTiled(ctx context.Context, img *image.Gray, prep []*prepared, opt Options, stop func(error) bool) ([]Detection, Stats, []image.Rectangle, error) {
	b := img.Bounds()
	margin := 0.0
	for _, p := range prep {
		margin = max(margin, math.Hypot(p.bw, p.bh)/2*max(opt.MaxScale, 1))
	}
	// twice the reach of a symbol: the candidate filters around a centre
	// reach past the symbol, and must see the same ink as in the whole image
	pad := 2*int(math.Ceil(margin)) + 32
	type tile struct{ core, search image.Rectangle }
	var tiles []tile
	for y := b.Min.Y; y < b.Max.Y; y += tileCore {
		for x := b.Min.X; x < b.Max.X; x += tileCore {
			core := image.Rect(x, y, x+tileCore, y+tileCore).Intersect(b)
			tiles = append(tiles, tile{core, core.Inset(-pad).Intersect(b)})
		}
	}
	// one stroke width for the whole drawing, from every tile's ink runs
	var hist [maxRun + 1]int
	for _, t := range tiles {
		if err := ctx.Err(); err != nil {
			if stop(err) {
				return nil, Stats{}, []image.Rectangle{b}, nil
			}
			return nil, Stats{}, nil, err
		}
		h := runHist(opt.coverage(img.SubImage(t.core).(*image.Gray)))
		for i := range hist {
			hist[i] += h[i]
		}
	}
	sw := widthOf(hist)
	st := Stats{StrokeWidth: sw}
	var all []Detection
	for i, t := range tiles {
		o := opt
		if opt.Progress != nil {
			o.Progress = func(v float64) { opt.Progress((float64(i) + v) / float64(len(tiles))) }
		}
		off := t.search.Min.Sub(b.Min)
		dets, ts, err := search(ctx, img.SubImage(t.search).(*image.Gray), prep, o, sw, off, t.core.Sub(t.search.Min))
		if stop(err) {
			// a tile stopped in its refinement keeps what it found and
			// counts as searched (its likeliest places were)
			from := i
			if ts.Unrefined > 0 && ts.Unrefined < ts.Candidates {
				st.Unrefined += ts.Unrefined
				all = append(all, inCore(dets, off, b, t.core)...)
				from = i + 1
			}
			var rest []image.Rectangle
			for _, u := range tiles[from:] {
				rest = append(rest, u.core)
			}
			return suppress(all), st, rest, nil
		}
		if err != nil {
			return nil, st, nil, err
		}
		st.Candidates += ts.Candidates
		st.RingTime += ts.RingTime
		st.RefineTime += ts.RefineTime
		st.OnText += ts.OnText
		st.Claimed += ts.Claimed
		st.OtherText += ts.OtherText
		all = append(all, inCore(dets, off, b, t.core)...)
		if opt.Progress != nil {
			opt.Progress(float64(i+1) / float64(len(tiles)))
		}
	}
	return suppress(all), st, nil, nil
}

// inCore moves a tile's detections (found at off in the image bounded by
// b) into the image's pixels and keeps those centred in the tile's core.
func inCore(dets []Detection, off image.Point, b, core image.Rectangle) []Detection {
	var out []Detection
	for _, d := range dets {
		d.Box = d.Box.Translate(float64(off.X), float64(off.Y))
		cx, cy := (d.Box.XMin+d.Box.XMax)/2+float64(b.Min.X), (d.Box.YMin+d.Box.YMax)/2+float64(b.Min.Y)
		if cx >= float64(core.Min.X) && cx < float64(core.Max.X) && cy >= float64(core.Min.Y) && cy < float64(core.Max.Y) {
			out = append(out, d)
		}
	}
	return out
}
