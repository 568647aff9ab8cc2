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
// few pixels. It serves the blocks that do not register on their own:
//
//   - a block that registers on its own keeps its own transform; when that
//     is more than priorTolerance from the prior a warning says so (a view
//     moved about the sheet, or a sheet whose registration its changes
//     pulled off: on the real school site pair the plan's own registration
//     is the right one, 237 px from the sheets');
//   - otherwise the registration is run again from the prior (no coarse
//     search; patches, and the geometry when both sides have it, measured
//     around the prior): when that registers, it is used, with a warning (a
//     strip of notes cut across its lines on a turned sheet has too few
//     patches that agree at the coarse level to register from scratch);
//   - when neither holds, the prior itself is used as the registration,
//     with a warning naming its residual, never the ink boxes lined up:
//     the sheets' frame is the best word on where things are.

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

// alignPrior is align with an optional prior (see above). The prior is
// tried first as the coarse search's only candidate, held to the test of a
// registration of the block's own (its coarse level must agree too): a
// block of two registered sheets mostly passes it, and the coarse search,
// a third of a large block's registration, is not run. A block moved on
// the sheet further than its coarse patches can see fails it and is
// searched for as before.
func alignPrior(ctx context.Context, a, b *Side, deadline time.Time, prior *Transform) (alignment, error) {
	if prior == nil || prior.Scale <= 0 {
		return align(ctx, a, b, deadline, nil, false)
	}
	own, err := align(ctx, a, b, deadline, prior, false)
	if err == nil && !own.ok {
		own, err = align(ctx, a, b, deadline, nil, false)
	}
	if err != nil {
		return own, err
	}
	if own.ok {
		w, h := a.Image.Rect.Dx(), a.Image.Rect.Dy()
		if off := cornerDistance(own.t, *prior, w, h); off > priorTolerance(*prior, b) {
			own.warnings = append(own.warnings, fmt.Sprintf("the block registers %.0f px away from where the sheets' registration puts it (moved on the sheet?); its own registration is used", off))
		}
		return own, nil
	}
	seeded, err := align(ctx, a, b, deadline, prior, true)
	if err != nil {
		return alignment{}, err
	}
	if seeded.ok {
		seeded.warnings = append(seeded.warnings, "registered from the sheets' registration: on its own the block did not register ("+own.why+")")
		return seeded, nil
	}
	r := alignment{t: *prior, ok: true, source: sourcePrior}
	r.warnings = append(r.warnings, fmt.Sprintf("the block does not register (%s; nor from the sheets' registration: %s); the sheets' registration is used as it is (residual %.1f px)",
		own.why, seeded.why, prior.ResidualPx))
	return r, nil
}
