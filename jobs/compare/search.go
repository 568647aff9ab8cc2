package compare

import (
	"context"
	"encoding/json"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/search/index"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// indexReport rebuilds the search rows of the newer sheets a comparison's
// report names (paired and added), so that ask and search see what changed
// once the compare job completes. It replaces those sheets' rows, so a
// repeated finalizer adds nothing.
func (c *Compare) indexReport(ctx context.Context, result []byte) error {
	var rep engine.Report
	if err := json.Unmarshal(result, &rep); err != nil {
		return nil // no report, nothing to index
	}
	var sheets []string
	for _, s := range rep.SheetsAdded {
		sheets = append(sheets, s.SheetID)
	}
	for _, p := range rep.Pairs {
		if p.New.SheetID != "" {
			sheets = append(sheets, p.New.SheetID)
		}
	}
	return index.New(c.R.DB, c.Blobs).RebuildSheets(ctx, sheets)
}

// indexOverlay rebuilds the search rows of an overlay's newer sheet after a
// change analysis run on its own (not as a compare job's stage, whose
// completion indexes every sheet once).
func (c *Compare) indexOverlay(ctx context.Context, j *ent.Job, o *ent.Overlay) error {
	if j.ParentID != "" {
		return nil
	}
	b, err := c.R.DB.Block.Get(ctx, o.BlockBID)
	if err != nil {
		return nil // the block is gone: so are its sheet's rows
	}
	return index.New(c.R.DB, c.Blobs).RebuildSheet(ctx, b.SheetID)
}
