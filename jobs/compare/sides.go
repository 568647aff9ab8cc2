package compare

// What the engine is handed: a block as a compare.Side (its image, words,
// geometry and parsed symbols, all in its pixels), and a stored overlay
// read back as a compare.Overlay for change analysis run later.

import (
	"context"
	"errors"
	"image"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// side loads block id as the engine's Side, reading its sheet's geometry
// through geo; with whole false only its DPI, type and title (a side
// compared as a cut of its sheet: its image is not decoded).
func (c *Compare) side(ctx context.Context, geo *parsejob.SheetGeometry, id string, whole bool) (*engine.Side, *ent.Block, error) {
	b, err := c.R.DB.Block.Get(ctx, id)
	if err != nil {
		return nil, nil, gone(err, "block", id)
	}
	dpi := 300
	if s, err := c.R.DB.Sheet.Get(ctx, b.SheetID); err == nil && s.Dpi > 0 {
		dpi = s.Dpi
	}
	if !whole {
		return &engine.Side{DPI: dpi, BlockType: string(b.Type), Title: b.Title}, b, nil
	}
	org, _ := tenant.Org(ctx)
	img, err := blobs.GetPNG(ctx, c.Blobs, blobs.BlockKey(org, b.ID)+".png")
	if errors.Is(err, blobs.ErrNoImage) {
		return nil, nil, jobs.Fail("NOT_FOUND", "block %s has no image", b.ID)
	}
	if err != nil {
		return nil, nil, err
	}
	pg, err := geo.Block(ctx, b)
	if err != nil {
		return nil, nil, err
	}
	s := &engine.Side{Image: img, DPI: dpi, Words: parsejob.BlockWords(ctx, c.Blobs, b.ID), Page: pg,
		BlockType: string(b.Type), Title: b.Title}
	// the symbols the block's latest parse found (a later parse replaces
	// the instances of the legend entries it searched for)
	insts, err := c.R.DB.Feature.Query().Where(feature.BlockID(b.ID), feature.KindEQ(feature.KindSymbolInstance)).
		Order(ent.Asc(feature.FieldCreatedAt), ent.Asc(feature.FieldID)).All(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range insts {
		s.Symbols = append(s.Symbols, symbolOf(f))
	}
	return s, b, nil
}

// storedOverlay reads overlay o back as change analysis needs it: its
// transform (restated for the engine's A, p's), score, regions and warnings from the record, its difference
// images (addition, deletion) from the blob store; the aligned and
// combined images, which the analysis does not read, are left out.
func (c *Compare) storedOverlay(ctx context.Context, o *ent.Overlay, p *framedPair) (*engine.Overlay, error) {
	ov := &engine.Overlay{Registered: o.Registered, Warnings: o.Warnings}
	if o.Transform != nil {
		ov.Transform = p.fromBlock(engine.Transform(*o.Transform))
	}
	if o.Score != nil {
		ov.Score = *o.Score
	}
	for _, r := range o.Regions {
		ov.Regions = append(ov.Regions, engine.Region(r))
	}
	org, _ := tenant.Org(ctx)
	key := blobs.OverlayKey(org, o.ID)
	grey := map[blobs.OverlayImage]**image.Gray{blobs.OverlayAddition: &ov.Addition, blobs.OverlayDeletion: &ov.Deletion}
	if o.URI == "" {
		return nil, jobs.Fail("NO_DIFFERENCE", "the difference of overlay %s was not computed (see its warnings); there is nothing to analyze", o.ID)
	}
	for img, dst := range grey {
		g, err := blobs.GetPNG(ctx, c.Blobs, key+img.Suffix)
		if errors.Is(err, blobs.ErrNoImage) {
			return nil, jobs.Fail("NOT_FOUND", "overlay %s has no %s image", o.ID, img.Name)
		}
		if err != nil {
			return nil, err
		}
		*dst = g
	}
	return ov, nil
}
