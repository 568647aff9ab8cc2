package query

import (
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/schema"
	"github.com/plangraph/plangraph/ent/webhookdelivery"
	"github.com/plangraph/plangraph/internal/jobstatus"
)

// The collections of the management interface. Filters name the query
// parameters each list takes; their where-inputs are GraphQL's.

func ptr[T any](v T) *T { return &v }

// opt sets *dst to f[name] when the filter is given.
func opt(dst **string, f map[string]string, name string) {
	if v, ok := f[name]; ok {
		*dst = &v
	}
}

// Projects lists projects.
var Projects = &Collection[*ent.Project]{
	Name: "projects",
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.Project], error) {
		return c.Project.Query(), nil
	},
	Key: func(p *ent.Project) (time.Time, string) { return p.CreatedAt, p.ID },
}

// Files lists a project's files.
var Files = &Collection[*ent.File]{
	Name:    "files",
	Filters: map[string]func(string) error{"project_id": anyValue, "content_type": anyValue}, Required: []string{"project_id"},
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.File], error) {
		w := &ent.FileWhereInput{}
		opt(&w.ProjectID, f, "project_id")
		opt(&w.ContentType, f, "content_type")
		return w.Filter(c.File.Query())
	},
	Key: func(f *ent.File) (time.Time, string) { return f.CreatedAt, f.ID },
}

// Drawings lists a project's drawings; expand: file.
var Drawings = &Collection[*ent.Drawing]{
	Name:    "drawings",
	Filters: map[string]func(string) error{"project_id": anyValue, "name": anyValue}, Required: []string{"project_id"},
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.Drawing], error) {
		w := &ent.DrawingWhereInput{}
		opt(&w.ProjectID, f, "project_id")
		opt(&w.NameContainsFold, f, "name")
		q, err := w.Filter(c.Drawing.Query())
		if err == nil {
			withDrawing(q, x)
		}
		return q, err
	},
	Key: func(d *ent.Drawing) (time.Time, string) { return d.CreatedAt, d.ID },
}

// Sheets lists sheets; expand: drawing, drawing.file.
var Sheets = &Collection[*ent.Sheet]{
	Name:    "sheets",
	Filters: map[string]func(string) error{"drawing_id": anyValue, "project_id": anyValue, "discipline": anyValue, "sheet_number": anyValue},
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.Sheet], error) {
		w := &ent.SheetWhereInput{}
		opt(&w.DrawingID, f, "drawing_id")
		opt(&w.ProjectID, f, "project_id")
		opt(&w.Discipline, f, "discipline")
		opt(&w.SheetNumber, f, "sheet_number")
		q, err := w.Filter(c.Sheet.Query())
		if err == nil {
			withSheet(q, x)
		}
		return q, err
	},
	Key: func(s *ent.Sheet) (time.Time, string) { return s.CreatedAt, s.ID },
}

// Blocks lists blocks; expand: sheet, sheet.drawing.
var Blocks = &Collection[*ent.Block]{
	Name:    "blocks",
	Filters: map[string]func(string) error{"sheet_id": anyValue, "type": oneOf(schema.BlockTypes...)},
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.Block], error) {
		w := &ent.BlockWhereInput{}
		opt(&w.SheetID, f, "sheet_id")
		if v, ok := f["type"]; ok {
			w.Type = ptr(block.Type(v))
		}
		q, err := w.Filter(c.Block.Query())
		if err == nil {
			withBlock(q, x)
		}
		return q, err
	},
	Key: func(b *ent.Block) (time.Time, string) { return b.CreatedAt, b.ID },
}

// Overlays lists overlays; expand: block_a, block_b (each to
// sheet.drawing), job.
var Overlays = &Collection[*ent.Overlay]{
	Name:    "overlays",
	Filters: map[string]func(string) error{"project_id": anyValue, "job_id": anyValue, "drawing_id": anyValue, "has_changes": CheckBool},
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.Overlay], error) {
		w := &ent.OverlayWhereInput{}
		opt(&w.ProjectID, f, "project_id")
		opt(&w.JobID, f, "job_id")
		if v, ok := f["has_changes"]; ok {
			w.HasChanges = ptr(v == "true")
		}
		if v, ok := f["drawing_id"]; ok {
			// overlays involving a block of any sheet of the drawing
			inDrawing := []*ent.BlockWhereInput{{HasSheetWith: []*ent.SheetWhereInput{{DrawingID: &v}}}}
			w.Or = []*ent.OverlayWhereInput{{HasBlockAWith: inDrawing}, {HasBlockBWith: inDrawing}}
		}
		q, err := w.Filter(c.Overlay.Query())
		if err == nil {
			withOverlay(q, x)
		}
		return q, err
	},
	Key: func(o *ent.Overlay) (time.Time, string) { return o.CreatedAt, o.ID },
}

// JobTargetTypes are what a job may work on.
var JobTargetTypes = []string{"drawing", "sheet", "block", "overlay", "file", "project"}

// Jobs lists jobs; expand: parent.
var Jobs = &Collection[*ent.Job]{
	Name: "jobs",
	Filters: map[string]func(string) error{"project_id": anyValue, "status": oneOf(jobstatus.All...), "type": anyValue,
		"target_type": oneOf(JobTargetTypes...), "target_id": anyValue, "parent_id": anyValue},
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.Job], error) {
		w := &ent.JobWhereInput{}
		opt(&w.ProjectID, f, "project_id")
		opt(&w.Type, f, "type")
		opt(&w.TargetID, f, "target_id")
		opt(&w.ParentID, f, "parent_id")
		if v, ok := f["status"]; ok {
			w.Status = ptr(job.Status(v))
		}
		if v, ok := f["target_type"]; ok {
			w.TargetType = ptr(job.TargetType(v))
		}
		q, err := w.Filter(c.Job.Query())
		if err == nil && x["parent"] != nil {
			q.WithParent()
		}
		return q, err
	},
	Key: func(j *ent.Job) (time.Time, string) { return j.CreatedAt, j.ID },
}

// WebhookEndpoints lists the organization's webhook endpoints.
var WebhookEndpoints = &Collection[*ent.WebhookEndpoint]{
	Name:    "webhook_endpoints",
	Filters: map[string]func(string) error{"enabled": CheckBool},
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.WebhookEndpoint], error) {
		w := &ent.WebhookEndpointWhereInput{}
		if v, ok := f["enabled"]; ok {
			w.Enabled = ptr(v == "true")
		}
		return w.Filter(c.WebhookEndpoint.Query())
	},
	Key: func(e *ent.WebhookEndpoint) (time.Time, string) { return e.CreatedAt, e.ID },
}

// WebhookDeliveries lists one endpoint's deliveries: the caller sets the
// endpoint_id filter (from the path; it is not a query parameter).
var WebhookDeliveries = &Collection[*ent.WebhookDelivery]{
	Name: "webhook_deliveries",
	Filters: map[string]func(string) error{"event_id": anyValue,
		"status": oneOf(string(webhookdelivery.StatusSucceeded), string(webhookdelivery.StatusFailed))},
	query: func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[*ent.WebhookDelivery], error) {
		w := &ent.WebhookDeliveryWhereInput{}
		opt(&w.EndpointID, f, "endpoint_id")
		opt(&w.EventID, f, "event_id")
		if v, ok := f["status"]; ok {
			w.Status = ptr(webhookdelivery.Status(v))
		}
		return w.Filter(c.WebhookDelivery.Query())
	},
	Key: func(d *ent.WebhookDelivery) (time.Time, string) { return d.CreatedAt, d.ID },
}

// Spec is what a collection's list takes: its filters and the ones it
// requires (the API documentation is checked against it).
type Spec struct {
	Name              string
	Filters, Required []string
}

// Spec describes c.
func (c *Collection[E]) Spec() Spec {
	s := Spec{Name: c.Name, Required: c.Required}
	for f := range c.Filters {
		s.Filters = append(s.Filters, f)
	}
	return s
}

// Lists are the collections listed at GET /v1/{name}.
var Lists = []interface{ Spec() Spec }{Projects, Files, Drawings, Sheets, Blocks, Overlays, Jobs, WebhookEndpoints}
