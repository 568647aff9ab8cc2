package compare

// The tasks of a compare job's children: an overlay per block pair and
// the change analysis of an overlay, each storing what it makes.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"runtime/debug"
	"sync"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/overlayjson"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// recovered turns a panic of the engine into a permanent failure (a retry
// would panic again).
func (c *Compare) recovered(j *ent.Job, code string, err *error) {
	if r := recover(); r != nil {
		c.log().Error("compare step panicked", "job", j.ID, "type", j.Type, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		*err = jobs.Fail(code, "an internal error stopped the comparison; it was logged")
	}
}

// OverlayID is the id of the overlay a compare job makes of blocks a and
// b: the same job and blocks always give the same id, so a retried
// overlay.generate updates its overlay instead of adding one.
func OverlayID(compareJobID, a, b string) string {
	return ids.Derived(ids.Overlay, compareJobID, a+":"+b)
}

// generate registers and compares one block pair, stores the overlay's
// images and record, and returns its OverlayResult. Blocks that do not
// register still make an overlay (unregistered, its warnings saying why);
// an engine error fails the job, which the summary reports.
func (c *Compare) generate(ctx context.Context, j *ent.Job) (_ any, err error) {
	var in overlayInput
	if err := json.Unmarshal(j.Input, &in); err != nil || in.BlockAID == "" || in.BlockBID == "" || in.CompareJobID == "" {
		return nil, jobs.Fail("BAD_INPUT", "overlay job %s has no block pair", j.ID)
	}
	lap := laps("generate " + in.BlockBID)
	p, err := c.load(ctx, in.BlockAID, in.BlockBID, in.pairFrame)
	if err != nil {
		return nil, err
	}
	lap("load")
	a, b, ba, bb := p.a, p.b, p.ba, p.bb
	opt := in.Options
	opt.Prior = p.prior
	var ov *engine.Overlay
	func() {
		defer c.recovered(j, "COMPARE_FAILED", &err)
		ov, err = c.Generate(ctx, a, b, opt)
	}()
	lap("engine")
	var f *jobs.Failure
	switch {
	case err == nil && ov == nil:
		return nil, jobs.Fail("COMPARE_FAILED", "the comparison of blocks %s and %s gave no overlay", ba.ID, bb.ID)
	case err != nil && (ctx.Err() != nil || errors.As(err, &f)):
		return nil, err
	case err != nil:
		return nil, jobs.Fail("COMPARE_FAILED", "blocks %s and %s could not be compared: %v", ba.ID, bb.ID, err)
	}
	if in.CutA != nil {
		r := *in.CutA
		ov.Warnings = append(ov.Warnings, fmt.Sprintf("the revisions' layouts cut this part of the sheet otherwise: compared with the older sheet at this block's place (%d,%d–%d,%d), not with block %s alone",
			r.Min.X, r.Min.Y, r.Max.X, r.Max.Y, ba.ID))
	}
	id := OverlayID(in.CompareJobID, ba.ID, bb.ID)
	stored, err := c.storeImages(ctx, id, bb.ID, ov)
	if err != nil {
		return nil, err
	}
	lap("store")
	if ov.Addition != nil && ov.Deletion != nil && in.Analyze {
		c.handoff.put(id, p, ov) // (the transform as the engine's A has it)
	}
	// stored for the older block's own pixels, whatever A was cut from
	ov.Transform = p.toBlock(ov.Transform)
	a, b, p = nil, nil, nil
	// no difference image: the difference was not computed (the budget
	// ran out after registration; the warnings say so), nor the score
	var score *float64
	if stored[blobs.OverlayCombined] {
		s := clamp01(ov.Score)
		score = &s
	}
	t := overlayjson.Transform(ov.Transform)
	regions := make([]overlayjson.Region, len(ov.Regions))
	for i, r := range ov.Regions {
		regions[i] = overlayjson.Region(r)
	}
	uri := func(img blobs.OverlayImage) string {
		if !stored[img] {
			return ""
		}
		return blobs.OverlayURI(id, img)
	}
	// created once (the id is the job's and the pair's); a retry updates it
	err = c.R.DB.Overlay.Create().SetID(id).SetProjectID(bb.ProjectID).SetBlockAID(ba.ID).SetBlockBID(bb.ID).
		SetJobID(in.CompareJobID).SetNillableScore(score).SetTransform(&t).SetRegistered(ov.Registered).
		SetWarnings(ov.Warnings).SetRegions(regions).
		SetURI(uri(blobs.OverlayCombined)).SetAdditionURI(uri(blobs.OverlayAddition)).SetDeletionURI(uri(blobs.OverlayDeletion)).
		SetAlignedAURI(uri(blobs.OverlayAlignedA)).SetAlignedBURI(uri(blobs.OverlayAlignedB)).Exec(ctx)
	if ent.IsConstraintError(err) {
		u := c.R.DB.Overlay.UpdateOneID(id).SetTransform(&t).SetRegistered(ov.Registered).SetWarnings(ov.Warnings).SetRegions(regions).
			SetURI(uri(blobs.OverlayCombined)).SetAdditionURI(uri(blobs.OverlayAddition)).SetDeletionURI(uri(blobs.OverlayDeletion)).
			SetAlignedAURI(uri(blobs.OverlayAlignedA)).SetAlignedBURI(uri(blobs.OverlayAlignedB))
		if score != nil {
			u.SetScore(*score)
		} else {
			u.ClearScore()
		}
		err = u.Exec(ctx)
	}
	if err != nil {
		return nil, err
	}
	lap("record")
	res := OverlayResult{OverlayID: id, BlockAID: ba.ID, BlockBID: bb.ID, Registered: ov.Registered, Transform: ov.Transform, Warnings: ov.Warnings}
	if score != nil {
		res.Score = *score
	}
	return res, nil
}

// storeImages writes the overlay's images (blobs.OverlayImages) that the
// engine made and says which: all of them, or only the aligned blocks when
// the difference was not computed. They are encoded at once, each on its
// own goroutine (a large block's take longer than its difference); B's
// aligned image, B's block image itself (engine.Generate), is a copy of
// the block's stored PNG, blockB, not encoded again.
func (c *Compare) storeImages(ctx context.Context, id, blockB string, ov *engine.Overlay) (map[blobs.OverlayImage]bool, error) {
	org, _ := tenant.Org(ctx)
	key := blobs.OverlayKey(org, id)
	type stored struct {
		img  blobs.OverlayImage
		put  func(key string) error
		made bool
	}
	png := func(v image.Image) func(string) error {
		return func(k string) error { return blobs.PutPNG(ctx, c.Blobs, k, v) }
	}
	all := []stored{
		{blobs.OverlayCombined, png(ov.Combined), ov.Combined != nil},
		{blobs.OverlayAddition, png(ov.Addition), ov.Addition != nil},
		{blobs.OverlayDeletion, png(ov.Deletion), ov.Deletion != nil},
		{blobs.OverlayAlignedA, png(ov.AlignedA), ov.AlignedA != nil},
		{blobs.OverlayAlignedB, func(k string) error {
			return c.Blobs.Copy(ctx, k, blobs.BlockKey(org, blockB)+".png", nil)
		}, ov.AlignedB != nil},
	}
	errs := make([]error, len(all))
	var wg sync.WaitGroup
	for i, x := range all {
		if !x.made {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = x.put(key + x.img.Suffix)
		}()
	}
	wg.Wait()
	made := map[blobs.OverlayImage]bool{}
	for i, x := range all {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if x.made {
			made[x.img] = true
		}
	}
	return made, nil
}

// analyze describes the changes of one stored overlay, stores them on it
// (ids derived from the overlay's, so a retry stores the same changes) and
// marks it analyzed.
func (c *Compare) analyze(ctx context.Context, j *ent.Job) (_ any, err error) {
	var in AnalyzeInput
	if err := json.Unmarshal(j.Input, &in); err != nil || in.OverlayID == "" {
		return nil, jobs.Fail("BAD_INPUT", "analysis job %s has no overlay", j.ID)
	}
	o, err := c.R.DB.Overlay.Get(ctx, in.OverlayID)
	if err != nil {
		return nil, gone(err, "overlay", in.OverlayID)
	}
	lap := laps("analyze " + o.BlockBID)
	p, ov, handed := c.handoff.take(o.ID)
	if !handed {
		if p, err = c.load(ctx, o.BlockAID, o.BlockBID, c.generatedFrame(ctx, o)); err != nil {
			return nil, err
		}
		if ov, err = c.storedOverlay(ctx, o, p); err != nil {
			return nil, err
		}
	}
	var found []engine.Change
	func() {
		defer c.recovered(j, "ANALYSIS_FAILED", &err)
		lap(fmt.Sprintf("load (handed %v)", handed))
		found = c.Analyze(p.a, p.b, ov, in.Options)
	}()
	if err != nil {
		return nil, err
	}
	lap("engine")
	p.changesToBlock(found)
	changes := make([]overlayjson.Change, 0, len(found))
	res := AnalyzeResult{OverlayID: o.ID, Score: o.Score, Changes: len(found),
		ByCategory: map[string]int{}, BySeverity: map[string]int{}, ByKind: map[string]int{}}
	for i, ch := range found {
		changes = append(changes, StoredChange(o.ID, i, ch))
		res.ByCategory[ch.Category]++
		res.BySeverity[ch.Severity]++
		res.ByKind[ch.Kind]++
	}
	if err := c.R.DB.Overlay.UpdateOneID(o.ID).SetChanges(changes).SetHasChanges(true).Exec(ctx); err != nil {
		return nil, gone(err, "overlay", o.ID)
	}
	if err := c.indexOverlay(ctx, j, o); err != nil {
		return nil, err
	}
	lap("record")
	return res, nil
}

// StoredChange is the i-th change of overlay ovl as stored, with its id.
func StoredChange(ovl string, i int, ch engine.Change) overlayjson.Change {
	return overlayjson.Change{ID: overlayjson.ChangeID(ovl, i), Kind: ch.Kind, Category: ch.Category, Description: ch.Description,
		Bounds: ch.Bounds, BoundsA: ch.BoundsA, Severity: ch.Severity, Confidence: clamp01(ch.Confidence)}
}

func clamp01(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return min(1, max(0, v))
}
