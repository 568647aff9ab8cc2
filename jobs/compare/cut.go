package compare

// Loading a block pair in its sheets' frame (pair_cut.go): the older side
// cut from the older sheet's page where the plan says so, the pair's prior
// from the sheets' transform, and the conversions between the cut's
// pixels, in which the engine works, and the older block's own pixels, in
// which overlays and changes are stored.

import (
	"context"
	"encoding/json"
	"errors"
	"image"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// framedPair is a block pair loaded as the engine compares it.
type framedPair struct {
	a, b   *engine.Side
	ba, bb *ent.Block
	// prior is the sheets' transform restricted to the pair (nil when the
	// sheets did not register)
	prior *engine.Transform
	// cutAt and blockAt are where A's image (the cut, or the older block's
	// own image) and the older block's image start on the older sheet
	cutAt, blockAt image.Point
}

// load reads the pair of blocks aID, bID in frame fr.
func (c *Compare) load(ctx context.Context, aID, bID string, fr pairFrame) (*framedPair, error) {
	p := &framedPair{}
	// the two sides at once (each its own geometry reader: a reader is
	// one goroutine's); a side compared as a cut is not read whole
	var errA error
	done := make(chan struct{})
	go func() {
		defer close(done)
		geo := parsejob.NewSheetGeometry(c.R.DB, c.Blobs, c.log())
		if p.a, p.ba, errA = c.side(ctx, geo, aID, fr.CutA == nil); errA != nil || fr.CutA == nil {
			return
		}
		p.a, errA = c.cutSide(ctx, geo, p.ba, *fr.CutA, p.a)
	}()
	var errB error
	p.b, p.bb, errB = c.side(ctx, parsejob.NewSheetGeometry(c.R.DB, c.Blobs, c.log()), bID, true)
	<-done
	if errA != nil {
		return nil, errA
	}
	if errB != nil {
		return nil, errB
	}
	p.blockAt = imageOrigin(p.ba.Bounds)
	p.cutAt = p.blockAt
	if fr.CutA != nil {
		p.cutAt = fr.CutA.Min
	}
	if fr.Sheet != nil {
		t := PairPrior(*fr.Sheet, p.cutAt, imageOrigin(p.bb.Bounds))
		p.prior = &t
	}
	return p, nil
}

// toBlock restates a transform of the engine's A (the cut) for the older
// block's own pixels; fromBlock is its inverse.
func (p *framedPair) toBlock(t engine.Transform) engine.Transform {
	return ShiftSource(t, p.cutAt, p.blockAt)
}

func (p *framedPair) fromBlock(t engine.Transform) engine.Transform {
	return ShiftSource(t, p.blockAt, p.cutAt)
}

// changesToBlock moves the changes' places on A (BoundsA) from the cut's
// pixels into the older block's.
func (p *framedPair) changesToBlock(chs []engine.Change) {
	dx, dy := float64(p.cutAt.X-p.blockAt.X), float64(p.cutAt.Y-p.blockAt.Y)
	if dx == 0 && dy == 0 {
		return
	}
	for i := range chs {
		if chs[i].BoundsA != nil {
			b := chs[i].BoundsA.Translate(dx, dy)
			chs[i].BoundsA = &b
		}
	}
}

// cutSide is part r of blk's sheet (its pixels) as the engine's side: the
// page image cut there, the sheet's words, geometry and the symbols of its
// blocks inside it, in the cut's pixels; its type, title and DPI are own's
// (blk's own side).
func (c *Compare) cutSide(ctx context.Context, geo *parsejob.SheetGeometry, blk *ent.Block, r image.Rectangle, own *engine.Side) (*engine.Side, error) {
	sh, err := c.R.DB.Sheet.Get(ctx, blk.SheetID)
	if err != nil {
		return nil, gone(err, "sheet", blk.SheetID)
	}
	org, _ := tenant.Org(ctx)
	key := blobs.SheetKey(org, sh.DrawingID, sh.PageNumber)
	// only the page's tiles over the cut are decoded, not the whole page
	img, err := blobs.GetPNGRegion(ctx, c.Blobs, key, r)
	if errors.Is(err, blobs.ErrNoImage) {
		return nil, jobs.Fail("NOT_FOUND", "sheet %s has no image", sh.ID)
	}
	if err != nil {
		return nil, err
	}
	if img.Rect.Empty() {
		return nil, jobs.Fail("COMPARE_FAILED", "the part of sheet %s to compare lies off its page", sh.ID)
	}
	// the cut as read: r within the page
	r.Min = image.Pt(max(r.Min.X, 0), max(r.Min.Y, 0))
	r.Max = r.Min.Add(img.Rect.Size())
	box := geom.Box{XMin: float64(r.Min.X), YMin: float64(r.Min.Y), XMax: float64(r.Max.X), YMax: float64(r.Max.Y)}
	s := &engine.Side{Image: img, DPI: own.DPI, BlockType: own.BlockType, Title: own.Title}
	var words []text.Word
	if wb, err := c.Blobs.ReadAll(ctx, key+"-words.json"); err == nil {
		_ = json.Unmarshal(wb, &words)
	}
	for _, w := range words {
		if w.Box.XMin >= box.XMin && w.Box.YMin >= box.YMin && w.Box.XMax <= box.XMax && w.Box.YMax <= box.YMax {
			w.Box = w.Box.Translate(-box.XMin, -box.YMin)
			s.Words = append(s.Words, w)
		}
	}
	if s.Page, err = geo.Rect(ctx, sh.ID, r); err != nil {
		return nil, err
	}
	// the symbols the latest parses found in the sheet's blocks, inside
	// the cut
	bs, err := c.R.DB.Block.Query().Where(block.SheetID(sh.ID)).All(ctx)
	if err != nil {
		return nil, err
	}
	at := map[string]image.Point{}
	var ids []string
	for _, b := range bs {
		if b.Bounds.Intersect(box).Area() > 0 {
			at[b.ID], ids = imageOrigin(b.Bounds), append(ids, b.ID)
		}
	}
	insts, err := c.R.DB.Feature.Query().Where(feature.BlockIDIn(ids...), feature.KindEQ(feature.KindSymbolInstance)).
		Order(ent.Asc(feature.FieldCreatedAt), ent.Asc(feature.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	cut := geom.Box{XMax: float64(r.Dx()), YMax: float64(r.Dy())}
	for _, f := range insts {
		o := at[f.BlockID]
		sym := symbolOf(f)
		sym.Bounds = sym.Bounds.Translate(float64(o.X-r.Min.X), float64(o.Y-r.Min.Y))
		if sym.Bounds.Intersect(cut).Area() > 0 {
			s.Symbols = append(s.Symbols, sym)
		}
	}
	return s, nil
}

// symbolOf is a symbol instance feature as the engine's Symbol (its block's
// pixels).
func symbolOf(f *ent.Feature) engine.Symbol {
	sym := engine.Symbol{Label: f.Label, Description: f.Description, Bounds: f.Bounds}
	if f.Confidence != nil {
		sym.Confidence = *f.Confidence
	}
	return sym
}

// generatedFrame is the frame overlay o was generated in: its
// overlay.generate job's (none for an overlay whose job is gone).
func (c *Compare) generatedFrame(ctx context.Context, o *ent.Overlay) pairFrame {
	if o.JobID == "" {
		return pairFrame{}
	}
	j, err := c.R.DB.Job.Get(ctx, jobs.ChildID(o.JobID, overlayKey(o.BlockAID, o.BlockBID)))
	if err != nil {
		return pairFrame{}
	}
	var in overlayInput
	if json.Unmarshal(j.Input, &in) != nil {
		return pairFrame{}
	}
	return in.pairFrame
}
