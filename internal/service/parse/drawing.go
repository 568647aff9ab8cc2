package parse

import (
	"context"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/service/base"
)

// readyDrawing fetches a drawing whose processing has finished (its sheets
// and blocks are complete only then), else fails.
func (s *Service) readyDrawing(ctx context.Context, id string) (*ent.Drawing, error) {
	d, err := base.Get(ctx, "drawing", id, s.DB.Drawing.Get)
	if err != nil {
		return nil, err
	}
	switch d.Status {
	case drawing.StatusReady:
		return d, nil
	case drawing.StatusFailed:
		return nil, apierr.New(apierr.Conflict, "drawing %s could not be processed; there is nothing to parse", id).WithCode("DRAWING_FAILED")
	}
	return nil, apierr.New(apierr.Conflict, "drawing %s is still being processed (%s); parse it when its job has completed", id, d.Status).WithCode("DRAWING_NOT_READY")
}
