package symbols

import (
	"context"
	"image"
	"math"
	"time"
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

// nearScale bounds the scales a large image is searched at first:
// 1/nearScale..nearScale of the legend's size (with the default scales,
// 0.89, 0.97 and 1.07, 1.1 apart as every scale the ring pass tries;
// refinement adjusts the scale). A legend draws its symbols as the drawing does (mostly
// on the sheet it serves, with the same blocks), so these are the
// likeliest; the search of the other twelve, which costs four times as
// much, comes after.
const nearScale = 1.15

// searchTiled searches img tile by tile at one stroke width, measured on
// the whole image: every tile at the near scales (see nearScale), then
// every tile at the others. Under a deadline (ctx's), each tile's
// refinement gets a share of the time left (refined best first, see
// refineOrdered): a tile whose share runs out keeps the detections of the
// candidates refined and its others count in Stats.Unrefined. When a
// tile's search fails for a reason stop accepts (the time spent), the
// tiles searched keep their detections, the cores of the tiles not
// searched at the near scales are returned as unsearched, and the near
// scales are returned when the search stopped before the other scales
// were searched everywhere.
func searchTiled(ctx context.Context, img *image.Gray, prep []*prepared, opt Options, stop func(error) bool) ([]Detection, Stats, []image.Rectangle, [2]float64, error) {
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
				return nil, Stats{}, []image.Rectangle{b}, [2]float64{}, nil
			}
			return nil, Stats{}, nil, [2]float64{}, err
		}
		h := runHist(opt.coverage(img.SubImage(t.core).(*image.Gray)))
		for i := range hist {
			hist[i] += h[i]
		}
	}
	sw := widthOf(hist)
	st := Stats{StrokeWidth: sw}
	// near scales first, everywhere; then the others
	lo, hi := max(1/nearScale, opt.MinScale), min(nearScale, opt.MaxScale)
	passes := [][3]float64{{}}
	if opt.MinScale < lo || opt.MaxScale > hi {
		passes = [][3]float64{{lo, hi, 0}, {lo, hi, 1}}
	}
	dl, timed := ctx.Deadline()
	var all []Detection
	for pi, band := range passes {
		o := opt
		o.band = band
		for i, t := range tiles {
			if opt.Progress != nil {
				before := float64(pi*len(tiles) + i)
				o.Progress = func(v float64) { opt.Progress((before + v) / float64(len(passes)*len(tiles))) }
			}
			// the tile's refinement gets its share of the time left, less
			// what finding the candidates will take in the tiles after it,
			// taken to be as long as in this one (tiles at the image's
			// edge are smaller: so the estimate is on the safe side, and
			// under a varying load the time running out during a later
			// tile's ring pass leaves that tile unsearched, while a
			// refinement cut short keeps its likeliest candidates')
			var refineBy func() time.Time
			if timed {
				n := time.Duration(len(tiles) - i) // this tile and those after
				start := time.Now()
				refineBy = func() time.Time {
					return time.Now().Add(max((time.Until(dl)-(n-1)*time.Since(start))/n, 0))
				}
			}
			off := t.search.Min.Sub(b.Min)
			dets, ts, err := search(ctx, img.SubImage(t.search).(*image.Gray), prep, o, sw, off, t.core.Sub(t.search.Min), refineBy)
			st.Unrefined += ts.Unrefined
			if stop(err) {
				// a tile stopped in its refinement keeps what it found and
				// counts as searched (its likeliest places were)
				from := i
				if ts.Unrefined > 0 && ts.Unrefined < ts.Candidates {
					st.Candidates += ts.Candidates
					all = append(all, inCore(dets, off, b, t.core)...)
					from = i + 1
				} else {
					st.Unrefined -= ts.Unrefined
				}
				var near [2]float64 // the other scales not searched everywhere
				if len(passes) > 1 {
					near = [2]float64{lo, hi}
				}
				if pi > 0 { // searched everywhere at the near scales
					return suppress(all), st, nil, near, nil
				}
				var rest []image.Rectangle
				for _, u := range tiles[from:] {
					rest = append(rest, u.core)
				}
				return suppress(all), st, rest, near, nil
			}
			if err != nil {
				return nil, st, nil, [2]float64{}, err
			}
			st.Candidates += ts.Candidates
			st.RingTime += ts.RingTime
			st.RefineTime += ts.RefineTime
			st.OnText += ts.OnText
			st.Claimed += ts.Claimed
			st.OtherText += ts.OtherText
			all = append(all, inCore(dets, off, b, t.core)...)
		}
	}
	if opt.Progress != nil {
		opt.Progress(1)
	}
	return suppress(all), st, nil, [2]float64{}, nil
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
