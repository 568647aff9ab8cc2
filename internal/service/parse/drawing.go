package parse

import (
	"context"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/jobs"
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

// NewDrawing creates a drawing of file f and its processing job (a child of
// parentID when set) in tx; the caller queues the job. A parse of a file
// makes one; so does the createDrawing mutation.
func NewDrawing(ctx context.Context, tx *ent.Tx, f *ent.File, name, drawingID, parentID string) (*ent.Drawing, *ent.Job, error) {
	dc := tx.Drawing.Create().SetProjectID(f.ProjectID).SetFileID(f.ID).SetName(name)
	if drawingID != "" {
		dc.SetID(drawingID)
	}
	d, err := dc.Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	jc := tx.Job.Create().SetType(jobs.TypeDrawingPreprocess).SetProjectID(f.ProjectID).
		SetTargetType(job.TargetTypeDrawing).SetTargetID(d.ID)
	if parentID != "" {
		jc.SetParentID(parentID)
	}
	j, err := jc.Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	return d, j, nil
}
