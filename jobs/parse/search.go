package parse

import (
	"context"

	"github.com/plangraph/plangraph/internal/search/index"
)

// indexSheets rebuilds the search rows of the sheets a parse read legends on
// or searched for symbols, so that their legend entries and symbol counts
// are searchable (and ask can count them) once the parse completes. It
// replaces those sheets' rows, so a repeated finalizer adds nothing.
func (p *Parse) indexSheets(ctx context.Context, plan *parsePlan) error {
	var blocks []string
	for _, l := range plan.legend {
		if l.BlockID != nil {
			blocks = append(blocks, *l.BlockID)
		}
	}
	for _, m := range plan.blocks {
		blocks = append(blocks, m.BlockID)
	}
	if len(blocks) == 0 {
		return nil
	}
	return index.New(p.R.DB, p.Blobs).RebuildBlocks(ctx, blocks)
}
