package graph

import (
	"context"

	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/predicate"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
)

// storedUnder lists what deleting the drawings matching which leaves in
// blob storage: the key prefixes of their page images, blocks and legend
// entries (see jobs.DrawingBlobPrefixes). It is read before the rows go.
func (r *Resolver) storedUnder(ctx context.Context, which predicate.Drawing) ([]string, error) {
	org, _ := tenant.Org(ctx)
	drws, err := r.Client.Drawing.Query().Where(which).IDs(ctx)
	if err != nil || len(drws) == 0 {
		return nil, err
	}
	onDrawings := block.HasSheetWith(sheet.HasDrawingWith(which))
	blks, err := r.Client.Block.Query().Where(onDrawings).IDs(ctx)
	if err != nil {
		return nil, err
	}
	ftrs, err := r.Client.Feature.Query().Where(feature.KindEQ(feature.KindLegendEntry), feature.HasBlockWith(onDrawings)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	return jobs.DrawingBlobPrefixes(org, drws, blks, ftrs), nil
}

// deleteStored queues the deletion of the blobs under prefixes, once the
// records that named them are gone. A failure to queue leaves the blobs
// behind; it is logged, the deletion itself has happened.
func (r *Resolver) deleteStored(ctx context.Context, prefixes []string) {
	if len(prefixes) == 0 || r.Queue == nil {
		return
	}
	if err := r.Queue.EnqueueDeleteBlobs(ctx, prefixes); err != nil {
		r.Log.WarnContext(ctx, "could not queue the deletion of stored images", "prefixes", len(prefixes), "err", err)
	}
}

// deleteDrawing deletes drawing d and then its stored images.
func (r *Resolver) deleteDrawing(ctx context.Context, d string) error {
	prefixes, err := r.storedUnder(ctx, drawing.ID(d))
	if err != nil {
		return err
	}
	if err := r.Client.Drawing.DeleteOneID(d).Exec(ctx); err != nil {
		return err
	}
	r.deleteStored(ctx, prefixes)
	return nil
}
