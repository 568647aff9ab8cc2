// Package drawings is the drawing and sheet operations: create a drawing
// of a confirmed file (queueing its processing), rename, fetch and delete
// drawings (with their stored images), and correct a sheet's number, title
// and discipline.
package drawings

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/project"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/jobs"
)

// Service runs the drawing and sheet operations.
type Service struct{ *base.Deps }

// CreateInput makes a drawing of a file.
type CreateInput struct {
	ProjectID string
	// FileID is a confirmed (ready) file of the same project.
	FileID string
	// Name defaults to the file name.
	Name *string
}

// Processing is a new drawing and the job that processes it.
type Processing struct {
	Drawing *ent.Drawing
	Job     *ent.Job
}

// Create makes a drawing of a confirmed file and queues its processing.
func (s *Service) Create(ctx context.Context, in CreateInput) (*Processing, error) {
	f, err := s.DB.File.Query().Where(file.ID(in.FileID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apierr.Invalid("file_id", fmt.Sprintf("file %q does not exist", in.FileID))
	}
	if err != nil {
		return nil, err
	}
	switch {
	case f.ProjectID != in.ProjectID:
		if err := base.MustExist(ctx, "project_id", s.DB.Project.Query().Where(project.ID(in.ProjectID)).Exist); err != nil {
			return nil, err
		}
		return nil, apierr.Invalid("file_id", "belongs to another project")
	case f.Status != file.StatusReady:
		return nil, apierr.Invalid("file_id", "is not confirmed yet: upload its bytes and call POST /v1/files/{id}/confirm").WithCode("FILE_NOT_READY")
	}
	name := f.Filename
	if in.Name != nil {
		if name, err = checkName(*in.Name); err != nil {
			return nil, err
		}
	}
	var out Processing
	err = base.WithTx(ctx, s.DB, func(tx *ent.Tx) error {
		out.Drawing, out.Job, err = NewDrawing(ctx, tx, f, name, "", "")
		return err
	})
	if err != nil {
		return nil, err
	}
	// the drawing and its Queued job are committed: the request has had its
	// effect (see base.Deps.Enqueue)
	s.Enqueue(ctx, out.Job)
	return &out, nil
}

// NewDrawing creates a drawing of file f and its processing job (a child of
// parentID when set) in tx; the caller queues the job.
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

// Patch changes a drawing.
type Patch struct {
	Name *string
}

// Update renames a drawing.
func (s *Service) Update(ctx context.Context, id string, in Patch) (*ent.Drawing, error) {
	// looked up first in the caller's organization: an update that sets
	// nothing reads the row back without the organization's predicate, and
	// answered another organization's drawing (found by the authorization drill)
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	u := s.DB.Drawing.UpdateOneID(id)
	if in.Name != nil {
		name, err := checkName(*in.Name)
		if err != nil {
			return nil, err
		}
		u.SetName(name)
	}
	d, err := u.Save(ctx)
	return d, base.NotFoundAs(err, "drawing", id)
}

// Get fetches a drawing.
func (s *Service) Get(ctx context.Context, id string) (*ent.Drawing, error) {
	return base.Get(ctx, "drawing", id, s.DB.Drawing.Get)
}

// Delete deletes drawing d and then its stored images.
func (s *Service) Delete(ctx context.Context, d string) error {
	prefixes, err := s.StoredUnder(ctx, drawing.ID(d))
	if err != nil {
		return err
	}
	if err := s.DB.Drawing.DeleteOneID(d).Exec(ctx); err != nil {
		return base.NotFoundAs(err, "drawing", d)
	}
	s.DeleteStored(ctx, prefixes)
	return nil
}

// SheetPatch corrects what was read from a sheet.
type SheetPatch struct {
	SheetNumber *string
	Title       *string
	Discipline  *string
}

// UpdateSheet corrects a sheet's number, title or discipline.
func (s *Service) UpdateSheet(ctx context.Context, id string, in SheetPatch) (*ent.Sheet, error) {
	if _, err := base.Get(ctx, "sheet", id, s.DB.Sheet.Get); err != nil { // see Update
		return nil, err
	}
	u := s.DB.Sheet.UpdateOneID(id)
	bad := apierr.Fields{}
	if v := in.SheetNumber; v != nil {
		n := strings.TrimSpace(*v)
		if utf8.RuneCountInString(n) > 32 {
			bad.Add("sheet_number", "must be at most 32 characters")
		}
		u.SetSheetNumber(n).SetSheetNumberNorm(sheetmeta.Normalize(n))
	}
	if v := in.Title; v != nil {
		if utf8.RuneCountInString(*v) > 500 {
			bad.Add("title", "must be at most 500 characters")
		}
		u.SetTitle(strings.TrimSpace(*v))
	}
	if v := in.Discipline; v != nil {
		if !sheetmeta.ValidDiscipline(*v) {
			bad.Add("discipline", "must be one of "+strings.Join(sheetmeta.Disciplines(), ", "))
		}
		u.SetDiscipline(*v)
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}
	sh, err := u.Save(ctx)
	return sh, base.NotFoundAs(err, "sheet", id)
}

// checkName trims and checks a drawing name.
func checkName(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || utf8.RuneCountInString(s) > 255 {
		return "", apierr.Invalid("name", "must be 1 to 255 characters")
	}
	return s, nil
}
