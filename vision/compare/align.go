package compare

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"time"

	"gocv.io/x/gocv"
)

// Registration, in three steps (each file holds one):
//
//  1. align_coarse.go: on copies shrunk to a few hundred pixels, the fine
//     rotation from the spectra, the scale from the ink extents (or a
//     ladder of scales), the quarter turn and shift by phase correlation.
//  2. align_refine.go: patch correspondences by phase correlation at a
//     coarse level (long side about coarseSide), an intermediate one for
//     big blocks, and full resolution, each fitted by RANSAC and least
//     squares (align_fit.go).
//  3. align_vector.go: when both sides carry their page geometry, glyph
//     origins and path vertices matched through the pixel transform and
//     fitted the same way; exact where it succeeds, and then preferred.
//
// A registration is trusted when enough correspondences agree (inliers)
// with a small residual; otherwise Align says so and returns the
// transform lining up the ink boxes, never a silent guess.

// coarseSide is the long side, in pixels, of the coarse level: the
// largest integer shrink of the bigger block that fits in it.
const coarseSide = 1024

// Thresholds of a trusted registration.
const (
	// minInliers is the fewest agreeing correspondences of a level.
	minInliers = 8
	// coarseMinInliers is the fewest agreeing patches that a level with
	// room for fewer than minInliers may rest on
	coarseMinInliers = 4
	// minInlierFrac is the smallest share of a level's measured patches
	// that must agree: patches on changed content disagree, but a
	// revision changes far less than half of a block.
	minInlierFrac = 0.4
	// maxResidual300 is the largest RMS residual, in pixels at 300 DPI,
	// of the last level's correspondences.
	maxResidual300 = 1.5
	// minOverlapNCC is the coarse overlap correlation below which the
	// blocks are taken as different drawings whatever the patches say.
	minOverlapNCC = 0.15
)

// Source names of a registration, for warnings and tests.
const (
	sourcePixels  = "pixels"
	sourceVectors = "vectors"
)

// alignment is Align's full result.
type alignment struct {
	t        Transform
	ok       bool
	warnings []string
	source   string
	inliers  int
	pairs    int
	ncc      float64
	// why the blocks did not register (ok false), for the warnings of a
	// registration from a prior
	why string
}

// Align finds the similarity transform mapping A's block pixels onto B's;
// ok=false when the two do not register (then t is the transform lining up
// their ink boxes and warnings say why).
//
// B's DPI over A's is the expected scale; the search covers 0.8–1.25 times
// it, rotations of up to about 4° and the four quarter turns. The transform
// is measured on pixels, and on the page geometry when both sides have it
// (Side.Page), which is preferred when it registers; ResidualPx is the RMS
// distance of the matched patches or marks after the transform. err is
// ctx's error when it is cancelled, or an error for sides without an
// image; a spent Options.Budget is a warning (and ok=false when it ran out
// before the transform was measured at all).
func Align(ctx context.Context, a, b *Side, opt Options) (t Transform, ok bool, warnings []string, err error) {
	opt = opt.withDefaults()
	deadline := time.Now().Add(opt.Budget)
	if opt.InkBoxFirst && opt.Prior == nil {
		// the poses the images' shapes make likely: upright when both are
		// wide (or both tall; a half turn is left to the search); a quarter
		// turn either way when one is wide and the other tall; all four for
		// a square one
		for _, q := range inkPoseTurns(a.Image.Rect, b.Image.Rect) {
			if r, err := alignLevels(ctx, a, b, deadline, nil, false, q); err != nil || r.ok {
				return r.t, r.ok, r.warnings, err
			}
		}
	}
	r, err := alignPrior(ctx, a, b, deadline, opt.Prior)
	return r.t, r.ok, r.warnings, err
}

func checkSides(a, b *Side) error {
	if a == nil || b == nil || a.Image == nil || b.Image == nil {
		return errors.New("compare: both sides need an image")
	}
	if a.Image.Rect.Empty() || b.Image.Rect.Empty() {
		return errors.New("compare: empty image")
	}
	return nil
}

// dpiOf is a side's DPI, 300 when unknown.
func dpiOf(s *Side) float64 {
	if s.DPI > 0 {
		return float64(s.DPI)
	}
	return 300
}

// align registers a onto b on their own (seed nil) or starting from seed,
// a transform known to a few pixels (Options.Prior): then the coarse
// search is skipped, and, when passOver, a coarse level whose patches do
// not agree (text shrunk to grey) is passed over for the finer ones, which
// must agree.
func align(ctx context.Context, a, b *Side, deadline time.Time, seed *Transform, passOver bool) (alignment, error) {
	return alignLevels(ctx, a, b, deadline, seed, passOver, noInkPose)
}

// inkPoseTurns are the quarter turns of the ink-box poses worth trying
// between images a and b (Options.InkBoxFirst), likeliest first.
func inkPoseTurns(a, b image.Rectangle) []int {
	const square = 1.1 // sides closer than this are not told apart
	wide := func(r image.Rectangle) int {
		w, h := float64(r.Dx()), float64(r.Dy())
		switch {
		case w > square*h:
			return 1
		case h > square*w:
			return -1
		}
		return 0
	}
	wa, wb := wide(a), wide(b)
	switch {
	case wa == 0 || wb == 0:
		return []int{0, 1, 3, 2}
	case wa == wb:
		return []int{0}
	}
	return []int{1, 3}
}

// noInkPose: alignLevels without an ink-box pose.
const noInkPose = -1

// alignLevels is align; with inkTurn 0–3 (and no seed) the seed is the
// pose lining up the two sides' ink boxes turned by that many quarter
// turns clockwise, and every level is measured with the coarse levels'
// patches (Options.InkBoxFirst: sheet thumbnails, whose transform serves
// as a prior good to a few of their pixels).
func alignLevels(ctx context.Context, a, b *Side, deadline time.Time, seed *Transform, passOver bool, inkTurn int) (alignment, error) {
	coarse := inkTurn != noInkPose
	if err := checkSides(a, b); err != nil {
		return alignment{}, err
	}
	if err := ctx.Err(); err != nil {
		return alignment{}, err
	}
	ia, ib := contiguous(a.Image), contiguous(b.Image)
	ma, mb := view(ia), view(ib)
	defer ma.Close()
	defer mb.Close()
	prior := dpiOf(b) / dpiOf(a)
	aw, ah, bw, bh := ma.Cols(), ma.Rows(), mb.Cols(), mb.Rows()

	levels := levelFactors(max(aw, ah, bw, bh))
	f0 := levels[0]
	// the coarse copies, from the intermediate level when there is one
	var ca, cb gocv.Mat
	mids := map[int][2]gocv.Mat{}
	if len(levels) == 3 {
		m := levels[1]
		la, lb := shrink(ma, m), shrink(mb, m)
		defer la.Close()
		defer lb.Close()
		mids[m] = [2]gocv.Mat{la, lb}
		ca, cb = shrink(la, f0/m), shrink(lb, f0/m)
	} else {
		ca, cb = shrink(ma, f0), shrink(mb, f0)
	}
	defer ca.Close()
	defer cb.Close()
	var r alignment
	r.source = sourcePixels
	fail := func(why string) (alignment, error) {
		r.ok, r.why = false, why
		r.t = inkBoxTransform(ca, cb, f0, prior)
		r.warnings = append(r.warnings, "the blocks do not register: "+why+"; the overlay lines up their ink boxes only")
		return r, nil
	}
	if !hasInk(ca) || !hasInk(cb) {
		return fail("one side has no ink")
	}

	lap := stopwatch()
	if seed == nil && coarse {
		g := inkBoxPose(ca, cb, f0, prior, inkTurn)
		seed = &g
	}
	var cands []candidate
	// strictly from the seed: the shift that the correlation of the whole
	// blocks gives at the seed's pose (one pose of the coarse search),
	// which the registration must end near (patches on lines repeated at
	// a few pixels' pitch can agree on a neighbour)
	var check *candidate
	var checkTol float64
	if seed != nil {
		ia, ib, k := searchInk(ca, cb, searchSide)
		ff := float64(f0 * k)
		cands = []candidate{{*seed, overlapNCC(ia, ib, *seed, ff)}}
		if !passOver {
			q := int(math.Round(seed.RotationDeg/90)) & 3
			fine := math.Remainder(seed.RotationDeg-float64(q)*90, 360)
			if pc := scorePoses(ia, ib, []pose{{q, fine, seed.Scale}}, ff); len(pc) == 1 {
				check, checkTol = &pc[0], max(3, 1.5*ff)
			}
		}
		ia.Close()
		ib.Close()
	} else {
		cands, _ = coarseSearch(ca, cb, f0, prior)
	}
	lap("align: coarse search")
	if err := ctx.Err(); err != nil {
		return alignment{}, err
	}
	if len(cands) == 0 {
		return fail("no pose in the searched range lays their ink together")
	}

	// B's corner strength by window size: the coarse candidates and the
	// finer levels mostly share one
	structures := map[int]*structure{}
	// measure refines t on the level shrunk by f: rounds of patch
	// correlations, each fitted; ok is false when too few patches agree
	measure := func(f int, t Transform) (fit fitResult, pairs int, ok bool, err error) {
		la, lb := ca, cb
		switch f {
		case f0:
		case 1:
			la, lb = ma, mb
		default:
			la, lb = mids[f][0], mids[f][1]
		}
		pw, ph, n, rounds := levelPatch(la, lb, f == 1 && !coarse)
		// a narrow block (a title-block strip) has room for few patches:
		// where fewer than minInliers were placed, all but one must agree
		// (and at least coarseMinInliers); the full-resolution level and
		// the checks after it still have to pass
		need := minInliers
		win := max(3, max(pw, ph)*f/f0)
		st := structures[win]
		if st == nil {
			st = newStructure(cb, f0, win)
			structures[win] = st
		}
		for round := 0; round < rounds; round++ {
			cs := st.centres(n, float64(pw*f)/2, float64(ph*f)/2, bw, bh, aw, ah, t)
			ps := patchPairs(ctx, la, lb, f, t, cs, pw, ph)
			if err := ctx.Err(); err != nil {
				return fit, 0, false, err
			}
			var good bool
			fit, good = ransacSimilarity(ps, 1.5*float64(f)*max(1, dpiOf(b)/300), minScale*prior*0.9, maxScale*prior*1.1)
			pairs = len(ps)
			if pairs < minInliers {
				need = max(coarseMinInliers, pairs-1)
			}
			if !good || len(fit.inliers) < need || float64(len(fit.inliers)) < minInlierFrac*float64(pairs) {
				return fit, pairs, false, nil
			}
			t = fit.t
		}
		return fit, pairs, true, nil
	}
	patchesFail := func(fit fitResult, pairs, f int) string {
		return fmt.Sprintf("%d of %d patches agree at 1/%d resolution", len(fit.inliers), pairs, f)
	}

	if time.Now().After(deadline) {
		return fail("the budget was spent before the transform was measured")
	}
	// the coarse level decides between the best candidates
	var why string
	found := false
	for i, c := range cands[:min(3, len(cands))] {
		fit, pairs, ok, err := measure(f0, c.t)
		if err != nil {
			return alignment{}, err
		}
		if ok {
			r.t, r.ncc, r.inliers, r.pairs, found = fit.t, c.ncc, len(fit.inliers), pairs, true
			break
		}
		if i == 0 {
			why = patchesFail(fit, pairs, f0)
		}
	}
	if !found && seed != nil && passOver && len(levels) > 1 {
		// the seed is good to a few pixels: the finer levels refine it
		r.t, r.ncc, found = *seed, cands[0].ncc, true
	}
	if !found {
		return fail(why)
	}
	lap(fmt.Sprintf("align: level 1/%d", f0))

	// the geometry, when both sides have it, before the full resolution
	// level (or after the coarse one when it is the only one)
	vectors := func() bool {
		if a.Page == nil || b.Page == nil || a.Page.Truncated || b.Page.Truncated {
			return false
		}
		vr, ok := vectorAlign(a.Page, b.Page, r.t, prior, dpiOf(b))
		lap("align: vectors")
		if ok {
			r.t, r.source, r.inliers, r.pairs = vr.t, sourceVectors, len(vr.inliers), vr.pairs
		}
		return ok
	}
	if len(levels) == 1 {
		vectors()
	}
	refined := f0 // the factor of the last level measured
	for li, f := range levels[1:] {
		if li == len(levels)-2 && vectors() {
			break
		}
		if time.Now().After(deadline) {
			r.warnings = append(r.warnings, fmt.Sprintf("budget spent: registration stopped at 1/%d resolution (about %d px)", refined, refined))
			break
		}
		fit, pairs, ok, err := measure(f, r.t)
		if err != nil {
			return alignment{}, err
		}
		if !ok {
			return fail(patchesFail(fit, pairs, f))
		}
		r.t, r.inliers, r.pairs = fit.t, len(fit.inliers), pairs
		refined = f
		lap(fmt.Sprintf("align: level 1/%d", f))
	}
	if r.source == sourcePixels {
		switch {
		case r.ncc < minOverlapNCC:
			return fail(fmt.Sprintf("their ink correlates at %.2f only", r.ncc))
		case float64(r.inliers) < minInlierFrac*float64(r.pairs):
			return fail(fmt.Sprintf("only %d of %d patches agree", r.inliers, r.pairs))
		case r.t.ResidualPx > maxResidual300*max(1, dpiOf(b)/300)*float64(refined):
			return fail(fmt.Sprintf("the residual is %.2f px", r.t.ResidualPx))
		}
	}
	if check != nil {
		cx, cy := float64(aw)/2, float64(ah)/2
		x1, y1 := r.t.Apply(cx, cy)
		x2, y2 := check.t.Apply(cx, cy)
		if d := math.Hypot(x1-x2, y1-y2); d > checkTol {
			return fail(fmt.Sprintf("registered from the prior %.1f px from where the blocks' correlation puts them", d))
		}
	}
	r.ok = true
	return r, nil
}

// levelFactors are the shrink factors of the registration's levels for a
// block whose longer side is long: the coarse one (the smallest whose copy
// fits in coarseSide), for big blocks an intermediate one a quarter of it,
// and full resolution. The coarse factor is a multiple of the intermediate
// one, so that its copies are shrunk from the intermediate copies.
func levelFactors(long int) []int {
	f := 1
	for long > coarseSide*f {
		f++
	}
	switch {
	case f >= 6:
		m := (f + 3) / 4
		return []int{4 * m, m, 1}
	case f > 1:
		return []int{f, 1}
	}
	return []int{1}
}

// levelPatch is the patch size, grid and rounds of a level: 128-pixel
// patches (about 11 mm at 300 DPI: a few lines and a word) on a 12-cell
// grid, twice, at full resolution; 64 on 8 cells once on coarser levels;
// smaller for small blocks, and as flat as a thin block (a strip of text
// in a title block) needs, down to 8 pixels.
func levelPatch(la, lb gocv.Mat, full bool) (pw, ph, n, rounds int) {
	p := 64
	n, rounds = 8, 1
	if full {
		p, n, rounds = 128, 12, 2
	}
	fit := func(p, side int) int {
		for p > 24 && p > side/3 {
			p /= 2
		}
		return max(8, min(p, (side-4)&^1))
	}
	return fit(p, min(la.Cols(), lb.Cols())), fit(p, min(la.Rows(), lb.Rows())), n, rounds
}

// hasInk reports whether a grey image has any mark darker than paper.
func hasInk(m gocv.Mat) bool {
	lo, _, _, _ := gocv.MinMaxLoc(m)
	return lo < inkThreshold
}

// inkBoxTransform is the transform that lines up A's ink box with B's
// (centre on centre, the diagonals' ratio as scale within the searched
// range, no rotation), from the coarse copies shrunk by f.
func inkBoxTransform(ca, cb gocv.Mat, f int, prior float64) Transform {
	return inkBoxPose(ca, cb, f, prior, 0)
}

// inkBoxPose is inkBoxTransform turned by q quarter turns clockwise about
// the boxes' centres (a box's diagonal is the same turned).
func inkBoxPose(ca, cb gocv.Mat, f int, prior float64, q int) Transform {
	ia, ib := inkFloat(ca), inkFloat(cb)
	defer ia.Close()
	defer ib.Close()
	ea, eb := inkExtent(ia), inkExtent(ib)
	if ea.diag() == 0 || eb.diag() == 0 {
		return Transform{Scale: prior}
	}
	s := math.Max(minScale*prior, math.Min(maxScale*prior, eb.diag()/ea.diag()))
	ff := float64(f)
	ax, ay := ff*(ea.x0+ea.x1)/2, ff*(ea.y0+ea.y1)/2
	bx, by := ff*(eb.x0+eb.x1)/2, ff*(eb.y0+eb.y1)/2
	t := Transform{Scale: s, RotationDeg: float64(90 * q)}
	x, y := t.Apply(ax, ay)
	t.Tx, t.Ty = bx-x, by-y
	return t
}
