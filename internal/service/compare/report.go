package compare

// A completed compare job's report as documents: Markdown, a PDF with each
// changed overlay's image, and the newer drawing's own PDF marked up with a
// revision cloud around each group of nearby changes (GET
// /v1/jobs/{id}/report.md, /report.pdf, /markup.pdf).

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"os"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	comparejob "github.com/plangraph/plangraph/jobs/compare"
	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/compare/report"
	"github.com/plangraph/plangraph/vision/render"
)

// Report is the report of compare job id once it has completed: 404 when
// the job is not a compare job (or does not exist), 409 JOB_NOT_COMPLETED
// while it runs and JOB_FAILED when it failed.
func (s *Service) Report(ctx context.Context, id string) (*Finished, error) {
	j, err := base.Get(ctx, "job", id, s.DB.Job.Get)
	if err != nil {
		return nil, err
	}
	if j.Type != jobs.TypeCompare {
		return nil, apierr.NotFoundf("job %s is a %s job; reports are those of compare jobs", id, j.Type)
	}
	switch j.Status {
	case job.StatusCompleted:
	case job.StatusFailed, job.StatusCanceled:
		msg := string(j.Status)
		if j.Error != nil {
			msg = j.Error.Code + ": " + j.Error.Message
		}
		return nil, apierr.New(apierr.Conflict, "compare job %s did not complete (%s); it has no report", id, msg).WithCode("JOB_FAILED")
	default:
		return nil, apierr.New(apierr.Conflict, "compare job %s is %s; its report is ready once it has completed", id, j.Status).WithCode("JOB_NOT_COMPLETED")
	}
	f := &Finished{Job: j}
	if err := json.Unmarshal(j.Input, &f.Input); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(j.Result, &f.Report); err != nil {
		return nil, err
	}
	return f, nil
}

// Finished is a completed compare job, its input and its report.
type Finished struct {
	Job    *ent.Job
	Input  comparejob.Input
	Report engine.Report
}

// Markdown is compare job id's report as Markdown.
func (s *Service) Markdown(ctx context.Context, id string) ([]byte, error) {
	f, err := s.Report(ctx, id)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := report.Markdown(&b, &f.Report); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// PDF is compare job id's report as a PDF, with each changed overlay's
// combined image.
func (s *Service) PDF(ctx context.Context, id string) ([]byte, error) {
	f, err := s.Report(ctx, id)
	if err != nil {
		return nil, err
	}
	org, _ := tenant.Org(ctx)
	img := func(overlayID string) (image.Image, error) {
		return blobs.GetImage(ctx, s.Blobs, blobs.OverlayKey(org, overlayID)+blobs.OverlayCombined.Suffix)
	}
	var b bytes.Buffer
	if err := report.PDF(&b, &f.Report, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Markup is the newer drawing of compare job id (a Drawing or Sheet
// compare of drawings made from PDF files) with a revision cloud around
// each group of nearby changes, each a PDF annotation whose note lists
// them. Other compares answer 409 MARKUP_UNAVAILABLE saying why.
func (s *Service) Markup(ctx context.Context, id string) ([]byte, error) {
	f, err := s.Report(ctx, id)
	if err != nil {
		return nil, err
	}
	drawingID := f.Input.NewID
	switch f.Input.Type {
	case comparejob.TypeDrawing:
	case comparejob.TypeSheet:
		sh, err := s.DB.Sheet.Get(ctx, f.Input.NewID)
		if err != nil {
			return nil, markupUnavailable(err, "the newer sheet no longer exists")
		}
		drawingID = sh.DrawingID
	default:
		return nil, apierr.New(apierr.Conflict, "compare job %s compared blocks; the markup marks up a drawing: compare its sheets or drawings", id).WithCode("MARKUP_UNAVAILABLE")
	}
	d, err := s.DB.Drawing.Get(ctx, drawingID)
	if err != nil {
		return nil, markupUnavailable(err, "the newer drawing no longer exists")
	}
	fl, err := s.DB.File.Get(ctx, d.FileID)
	if err != nil {
		return nil, markupUnavailable(err, "the newer drawing's file no longer exists")
	}
	if fl.ContentType != render.TypePDF {
		return nil, apierr.New(apierr.Conflict, "the newer drawing was made from a %s file; the markup is of PDF files", fl.ContentType).WithCode("MARKUP_UNAVAILABLE")
	}
	// the report's sheet pixels are at the sheets' resolution
	dpi := 300.0
	if sh, err := s.DB.Sheet.Query().Where(sheet.DrawingID(d.ID)).Order(ent.Asc(sheet.FieldPageNumber)).First(ctx); err == nil && sh.Dpi > 0 {
		dpi = float64(sh.Dpi)
	}
	path, cleanup, err := blobs.FetchFile(ctx, s.Blobs, fl)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	pdf, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer pdf.Close()
	margin := f.Input.Options.CloudMargin * dpi / 300 // the option is in pixels at 300 DPI
	var b bytes.Buffer
	if err := report.Markup(&b, pdf, dpi, report.Clouds(&f.Report, margin)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// markupUnavailable is a 409 MARKUP_UNAVAILABLE for a record gone since
// the comparison; other errors pass.
func markupUnavailable(err error, why string) error {
	if ent.IsNotFound(err) {
		return apierr.New(apierr.Conflict, "%s; there is nothing to mark up", why).WithCode("MARKUP_UNAVAILABLE")
	}
	return err
}
