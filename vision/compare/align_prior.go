package compare

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Registration with a prior. A block pair cut from two registered sheets
// (jobs/compare: the sheets' thumbnails registered, the block boxes mapped
// through it) comes with the sheets' transform restricted to the pair
// (Options.Prior): where the sheet as a whole says A lands on B, good to a
// few pixels. A block registers on its own or not; the prior decides what
// happens when it does not, or when what it found is far from the sheet's
// word:
//
//   - registered on its own and within priorTolerance of the prior: the
//     block's own transform, the prior unused;
//   - otherwise the registration is run again from the prior (no coarse
//     search; patches, and the geometry when both sides have it, measured
//     around the prior): when that registers, it is used, with a warning
//     (a block of text alone, general notes, does not register from
//     scratch: its lines look alike at a coarse level; a block that
//     registered a line off does so from the prior);
//   - when only the block's own registration holds, it is kept with a
//     warning (a view moved about the sheet: the sheet's transform is not
//     the block's);
//   - when neither holds, the prior itself is used as the registration,
//     with a warning naming its accuracy (its ResidualPx), never the ink
//     boxes lined up: the sheets' frame is the truth of where things are.

// sourcePrior names a registration that is the prior itself.
const sourcePrior = "prior"

// priorTol300 is the least distance, in pixels at 300 DPI, by which a
// block's own registration may move its corners away from the prior's and
// still agree with it; a prior with a larger residual allows three times
// that.
const priorTol300 = 8.0

// priorTolerance is how far, in B's pixels, a registration may put A's
// corners from where prior puts them and still agree with it.
func priorTolerance(prior Transform, b *Side) float64 {
	return max(priorTol300*dpiOf(b)/300, 3*prior.ResidualPx)
}

// cornerDistance is the largest distance between where t and u put the
// corners of a w × h image.
func cornerDistance(t, u Transform, w, h int) float64 {
	d := 0.0
	for _, c := range [4][2]float64{{0, 0}, {float64(w), 0}, {0, float64(h)}, {float64(w), float64(h)}} {
		x1, y1 := t.Apply(c[0], c[1])
		x2, y2 := u.Apply(c[0], c[1])
		d = max(d, math.Hypot(x1-x2, y1-y2))
	}
	return d
}

// alignPrior is align with an optional prior (see above).
func alignPrior(ctx context.Context, a, b *Side, deadline time.Time, prior *Transform) (alignment, error) {
	own, err := align(ctx, a, b, deadline, nil)
	if err != nil || prior == nil || prior.Scale <= 0 {
		return own, err
	}
	w, h := a.Image.Rect.Dx(), a.Image.Rect.Dy()
	tol := priorTolerance(*prior, b)
	off := 0.0
	if own.ok {
		if off = cornerDistance(own.t, *prior, w, h); off <= tol {
			return own, nil
		}
	}
	seeded, err := align(ctx, a, b, deadline, prior)
	if err != nil {
		return alignment{}, err
	}
	var alone string // what the block's own registration gave
	if own.ok {
		alone = fmt.Sprintf("it registered %.0f px away from the sheets' registration", off)
	} else {
		alone = "on its own it did not register (" + own.why + ")"
	}
	switch {
	case seeded.ok:
		seeded.warnings = append(seeded.warnings, "registered from the sheets' registration: "+alone)
		return seeded, nil
	case own.ok:
		own.warnings = append(own.warnings, fmt.Sprintf("the block registers %.0f px away from where the sheets' registration puts it (moved on the sheet?); its own registration is used", off))
		return own, nil
	}
	r := alignment{t: *prior, ok: true, source: sourcePrior}
	r.warnings = append(r.warnings, fmt.Sprintf("the block does not register (%s; nor from the sheets' registration: %s); the sheets' registration is used as it is (residual %.1f px)",
		own.why, seeded.why, prior.ResidualPx))
	return r, nil
}
