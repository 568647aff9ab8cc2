package compare

import (
	"context"
	"fmt"
	"image"
	"math"
	"sync/atomic"
	"time"

	"gocv.io/x/gocv"
)

// Generate registers a onto b, diffs them and renders the overlay images.
//
// The transform comes from Align; when the blocks do not register the
// overlay is still made, through the transform lining up their ink boxes,
// with Registered false and a warning (its score is then low for blocks
// that differ). The difference is stroke-tolerant (diff.go): ink further
// than Options.Tolerance (pixels at 300 DPI, scaled to B's DPI) from the
// other side's marks, grouped into Regions with the residue of unchanged
// lines and specks dropped (diff_regions.go); glyphs and text-layer words
// changed in place keep their differences however small (diff_text.go);
// Options.IgnoreHatches leaves out regions of faint ink and of hatch
// patterns (diff_hatch.go). Region bounds are exact to a cell (4 pixels
// at 300 DPI). Only the part of B that A's extent covers is compared; B's
// ink beyond it is drawn in ColourUncompared and, when it is more than 2 %
// of B's ink, counted in a warning (so is A's ink beyond B's block).
//
// Score = 1 − (added + removed pixels of the Regions) / (pixels inked on
// either side in the compared part): 1 for identical blocks, about 0.99 for
// a symbol added to a plan, under 0.5 when half of a plan is redrawn (the
// redrawn half counts on both sides against a union of 1.5 plans).
//
// The images are B's size, in B's block pixels (a sub-image's top left is
// taken as (0, 0)); AlignedB is B's image itself, not a copy. The warp, the
// diff and the images run in bands of rows on all CPUs through OpenCV;
// beyond the outputs (three grey images and the RGBA one) they hold a few
// bands per CPU and the per-cell maps (a few bytes per 16 pixels at 300
// DPI). ctx is honoured between bands and registration levels; when
// Options.Budget runs out after registration the difference is not
// computed and a warning says so.
func Generate(ctx context.Context, a, b *Side, opt Options) (*Overlay, error) {
	opt = opt.withDefaults()
	deadline := time.Now().Add(opt.Budget)
	lap := stopwatch()
	if err := checkSides(a, b); err != nil {
		return nil, err
	}
	// the images as OpenCV views need (a copy only for a sub-image)
	sa, sb := *a, *b
	sa.Image, sb.Image = contiguous(a.Image), contiguous(b.Image)
	a, b = &sa, &sb
	al, err := alignPrior(ctx, a, b, deadline, opt.Prior)
	if err != nil {
		return nil, err
	}
	lap("align")
	ov := &Overlay{Transform: al.t, Registered: al.ok, Warnings: al.warnings}
	ia, ib := a.Image, b.Image
	w, h := ib.Rect.Dx(), ib.Rect.Dy()
	ov.AlignedB = ib
	ov.AlignedA = image.NewGray(ib.Rect)
	if err := warpInto(ctx, ia, ov.AlignedA, al.t); err != nil {
		return nil, err
	}
	lap("warp")
	if time.Now().After(deadline) {
		ov.Warnings = append(ov.Warnings, "budget spent after registration: the difference, regions, score and overlay images were not computed")
		return ov, nil
	}

	dpi := dpiOf(b)
	r := max(1, int(math.Round(opt.Tolerance*dpi/300)))
	cell := cellSize(dpi)
	cw, ch := w/cell, h/cell
	cells := &cellMaps{w: cw, h: ch, cell: cell,
		rem: make([]uint8, cw*ch), add: make([]uint8, cw*ch),
		farRem: make([]uint8, cw*ch), farAdd: make([]uint8, cw*ch)}
	if opt.IgnoreHatches {
		cells.darkRem, cells.darkAdd = make([]uint8, cw*ch), make([]uint8, cw*ch)
	}
	ov.Addition, ov.Deletion = image.NewGray(ib.Rect), image.NewGray(ib.Rect)
	in := diffInput{
		aligned: ov.AlignedA, b: ib, addition: ov.Addition, deletion: ov.Deletion,
		cover: cover{
			q:     coverQuad(al.t, ia.Rect.Dx(), ia.Rect.Dy(), float64(r+1)),
			frame: image.Rect(r+1, r+1, min(w-r-1, cw*cell), min(h-r-1, ch*cell)),
		},
		r: r, cells: cells, dark: opt.IgnoreHatches,
	}
	tot, err := runDiff(ctx, in)
	if err != nil {
		return nil, err
	}
	lap("diff")
	var hatched func(image.Rectangle) bool
	if opt.IgnoreHatches {
		hatched = func(px image.Rectangle) bool { return hatchPattern(ov.Addition, ov.Deletion, px, dpi/300) }
	}
	ca, cb := common(a, b, al.t)
	g := groupRegions(cells, dpi, opt.IgnoreHatches, hatched, textChanges(ca, cb, al.t))
	ov.Regions = g.regions
	lap("regions")
	if err := whiten(ctx, ov.Addition, ov.Deletion, g.drop, cells); err != nil {
		return nil, err
	}
	lap("whiten")
	ov.Combined = compose(in)
	lap("compose")

	diff := 0
	for _, rg := range ov.Regions {
		diff += rg.Added + rg.Removed
	}
	ov.Score = 1
	if tot.union > 0 {
		ov.Score = math.Max(0, 1-float64(diff)/float64(tot.union))
	}
	cov, err := coverageWarnings(ctx, ia, al.t, w, h, tot)
	if err != nil {
		return nil, err
	}
	ov.Warnings = append(ov.Warnings, cov...)
	lap("coverage")
	if g.hatches+g.faint > 0 {
		ov.Warnings = append(ov.Warnings, fmt.Sprintf("ignore_hatches: %d region(s) of hatching and %d of faint or screened ink left out", g.hatches, g.faint))
	}
	return ov, nil
}

// coverQuad is A's w × h extent, inset by inset pixels of B, in B's frame.
func coverQuad(t Transform, w, h int, inset float64) [4][2]float64 {
	d := inset / t.Scale
	m := affineOf(t)
	var q [4][2]float64
	for i, c := range [4][2]float64{{d, d}, {float64(w) - d, d}, {float64(w) - d, float64(h) - d}, {d, float64(h) - d}} {
		q[i][0], q[i][1] = m.apply(c[0], c[1])
	}
	return q
}

// uncoveredShare is the share of a side's ink past which the part the
// other side does not cover is worth a warning.
const uncoveredShare = 0.02

// coverageWarnings say how much ink was not compared: B's beyond A's
// extent, A's beyond B's block (counted on A's own pixels: A's ink whose
// place in B's frame is outside B's image).
func coverageWarnings(ctx context.Context, ia *image.Gray, t Transform, bw, bh int, tot diffTotals) ([]string, error) {
	var out []string
	if tot.inkB > 0 && float64(tot.outsideB) > uncoveredShare*float64(tot.inkB) {
		out = append(out, fmt.Sprintf("%.0f %% of B's ink lies beyond A's block and was not compared (drawn in the uncompared colour)",
			100*float64(tot.outsideB)/float64(tot.inkB)))
	}
	// B's image in A's frame
	inside := cover{q: coverQuad(t.Inverse(), bw, bh, 0), frame: ia.Rect}
	var inkA, outA atomic.Int64
	w := ia.Rect.Dx()
	err := bands(ctx, ia.Rect.Dy(), 0, func(s *scratch, y0, y1 int) {
		defer s.release()
		v := rowsView(ia, y0, y1)
		defer v.Close()
		ink, in := s.mat(0, y1-y0, w, gocv.MatTypeCV8U), s.mat(1, y1-y0, w, gocv.MatTypeCV8U)
		thresholdInto(v, &ink, inkThreshold)
		coverInto(&in, inside, y0)
		inkA.Add(int64(gocv.CountNonZero(ink)))
		andNot(ink, in, ink, &in)
		outA.Add(int64(gocv.CountNonZero(in)))
	})
	if n := inkA.Load(); n > 0 && float64(outA.Load()) > uncoveredShare*float64(n) {
		out = append(out, fmt.Sprintf("%.0f %% of A's ink lies beyond B's block and was not compared",
			100*float64(outA.Load())/float64(n)))
	}
	return out, err
}

// traceStage, when set (by the devtools tool), receives the time each
// stage of Generate and Align took.
var traceStage func(stage string, d time.Duration)

// stopwatch returns a function that reports the time since its last call
// to traceStage.
func stopwatch() func(stage string) {
	last := time.Now()
	return func(stage string) {
		if traceStage != nil {
			now := time.Now()
			traceStage(stage, now.Sub(last))
			last = now
		}
	}
}

// SetTrace makes f receive the time each stage of Generate and Align took
// (nil: none); for tracing, set before any comparison runs.
func SetTrace(f func(stage string, d time.Duration)) { traceStage = f }
