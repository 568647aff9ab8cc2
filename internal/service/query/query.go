// Package query is the API's reads of single records that no other
// service owns: sheets, blocks, overlays and jobs by id, each a not-found
// error when missing or another organization's. (Filtered, paginated and
// expanded lists still live in rest's resource table; see ARCHITECTURE.md.)
package query

import (
	"context"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/service/base"
)

// Service runs the reads.
type Service struct{ *base.Deps }

// Sheet fetches a sheet.
func (s *Service) Sheet(ctx context.Context, id string) (*ent.Sheet, error) {
	return base.Get(ctx, "sheet", id, s.DB.Sheet.Get)
}

// Block fetches a block.
func (s *Service) Block(ctx context.Context, id string) (*ent.Block, error) {
	return base.Get(ctx, "block", id, s.DB.Block.Get)
}

// Overlay fetches an overlay.
func (s *Service) Overlay(ctx context.Context, id string) (*ent.Overlay, error) {
	return base.Get(ctx, "overlay", id, s.DB.Overlay.Get)
}

// Job fetches a job.
func (s *Service) Job(ctx context.Context, id string) (*ent.Job, error) {
	return base.Get(ctx, "job", id, s.DB.Job.Get)
}
