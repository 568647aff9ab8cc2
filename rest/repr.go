package rest

import (
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/overlayjson"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/vision/geom"
)

// REST representations. Expandable relations are pointer fields that stay
// absent unless requested with ?expand=; the *_id fields are always there.

// File is an uploaded document.
type File struct {
	ID          string     `json:"id"`
	ProjectID   string     `json:"project_id"`
	Filename    string     `json:"filename"`
	ContentType string     `json:"content_type"`
	Size        int64      `json:"size"`
	SHA256      *string    `json:"sha256"`
	Status      string     `json:"status"`
	CreatedAt   time.Time  `json:"created_at"`
	ConfirmedAt *time.Time `json:"confirmed_at"`
	DownloadURL *string    `json:"download_url,omitempty"`
}

func fileOut(f *ent.File) *File {
	out := &File{ID: f.ID, ProjectID: f.ProjectID, Filename: f.Filename, ContentType: f.ContentType, Size: f.Size,
		Status: string(f.Status), CreatedAt: f.CreatedAt, ConfirmedAt: f.ConfirmedAt}
	if f.Sha256 != "" {
		out.SHA256 = &f.Sha256
	}
	return out
}

// Drawing is an uploaded drawing set.
type Drawing struct {
	ID        string    `json:"id"`
	ProjectID string    `json:"project_id"`
	FileID    *string   `json:"file_id"`
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	PageCount int       `json:"page_count"`
	CreatedAt time.Time `json:"created_at"`
	File      *File     `json:"file,omitempty"`
}

func drawingOut(d *ent.Drawing) *Drawing {
	out := &Drawing{ID: d.ID, ProjectID: d.ProjectID, Name: d.Name, Status: string(d.Status), PageCount: d.PageCount, CreatedAt: d.CreatedAt}
	if d.FileID != "" {
		out.FileID = &d.FileID
	}
	return out
}

// Sheet is one page of a drawing.
type Sheet struct {
	ID          string    `json:"id"`
	DrawingID   string    `json:"drawing_id"`
	ProjectID   string    `json:"project_id"`
	PageNumber  int       `json:"page_number"`
	SheetNumber string    `json:"sheet_number"`
	Title       string    `json:"title"`
	Discipline  string    `json:"discipline"`
	Revision    string    `json:"revision"`
	Width       int       `json:"width"`
	Height      int       `json:"height"`
	DPI         int       `json:"dpi"`
	URI         string    `json:"uri"`
	CreatedAt   time.Time `json:"created_at"`
	Drawing     *Drawing  `json:"drawing,omitempty"`
}

func sheetOut(s *ent.Sheet) *Sheet {
	return &Sheet{ID: s.ID, DrawingID: s.DrawingID, ProjectID: s.ProjectID, PageNumber: s.PageNumber, SheetNumber: s.SheetNumber,
		Title: s.Title, Discipline: s.Discipline, Revision: s.Revision, Width: s.Width, Height: s.Height, DPI: s.Dpi, URI: s.URI, CreatedAt: s.CreatedAt}
}

// Block is a region of a sheet.
type Block struct {
	ID          string    `json:"id"`
	SheetID     string    `json:"sheet_id"`
	Type        string    `json:"type"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Scale       string    `json:"scale"`
	Bounds      geom.Box  `json:"bounds"`
	URI         string    `json:"uri"`
	CreatedAt   time.Time `json:"created_at"`
	Sheet       *Sheet    `json:"sheet,omitempty"`
}

func blockOut(b *ent.Block) *Block {
	return &Block{ID: b.ID, SheetID: b.SheetID, Type: string(b.Type), Title: b.Title, Description: b.Description,
		Scale: b.Scale, Bounds: b.Bounds, URI: b.URI, CreatedAt: b.CreatedAt}
}

// Overlay compares two blocks: A (older) aligned onto B (newer).
type Overlay struct {
	ID          string                 `json:"id"`
	ProjectID   string                 `json:"project_id"`
	BlockAID    string                 `json:"block_a_id"`
	BlockBID    string                 `json:"block_b_id"`
	JobID       *string                `json:"job_id"`
	Score       *float64               `json:"score"`
	HasChanges  bool                   `json:"has_changes"`
	Registered  bool                   `json:"registered"`
	Transform   *overlayjson.Transform `json:"transform"`
	URI         string                 `json:"uri"`
	AdditionURI string                 `json:"addition_uri"`
	DeletionURI string                 `json:"deletion_uri"`
	AlignedAURI string                 `json:"aligned_a_uri"`
	AlignedBURI string                 `json:"aligned_b_uri"`
	Changes     *[]overlayjson.Change  `json:"changes"`
	Warnings    []string               `json:"warnings"`
	CreatedAt   time.Time              `json:"created_at"`
	BlockA      *Block                 `json:"block_a,omitempty"`
	BlockB      *Block                 `json:"block_b,omitempty"`
	Job         *Job                   `json:"job,omitempty"`
}

func overlayOut(o *ent.Overlay) *Overlay {
	out := &Overlay{ID: o.ID, ProjectID: o.ProjectID, BlockAID: o.BlockAID, BlockBID: o.BlockBID, Score: o.Score,
		HasChanges: o.HasChanges, Registered: o.Registered, Transform: o.Transform, URI: o.URI, AdditionURI: o.AdditionURI,
		DeletionURI: o.DeletionURI, AlignedAURI: o.AlignedAURI, AlignedBURI: o.AlignedBURI, Warnings: o.Warnings, CreatedAt: o.CreatedAt}
	if o.JobID != "" {
		out.JobID = &o.JobID
	}
	if o.HasChanges {
		// analyzed: the list, empty when nothing changed
		changes := o.Changes
		if changes == nil {
			changes = []overlayjson.Change{}
		}
		out.Changes = &changes
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	return out
}

// Target is what a job works on.
type Target = jobs.Target

// Job is the record of a long operation (see jobs.View).
type Job = jobs.View

func jobOut(j *ent.Job) *Job { return jobs.ViewOf(j) }

// Accepted is the 202 body of a request that queued a job.
type Accepted struct {
	JobID  string  `json:"job_id"`
	Type   string  `json:"type"`
	Status string  `json:"status"`
	Target *Target `json:"target,omitempty"`
}

func acceptedOut(j *ent.Job) Accepted {
	a := Accepted{JobID: j.ID, Type: j.Type, Status: jobstatus.Accepted(string(j.Status))}
	a.Target = jobs.TargetOf(j)
	return a
}

func ptr[T any](v T) *T { return &v }
