package jobs

import (
	"encoding/json"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/jobstatus"
)

// Target is what a job works on.
type Target struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// View is the one JSON representation of a job record, the record of a
// long operation: REST answers with it and events carry it, so a webhook's
// job is the job GET /v1/jobs/{id} returns. Records use job_id, as the
// specification's job representation requires.
type View struct {
	JobID       string           `json:"job_id"`
	Type        string           `json:"type"`
	Status      string           `json:"status"`
	Target      *Target          `json:"target"`
	ProjectID   *string          `json:"project_id"`
	ParentID    *string          `json:"parent_id"`
	Progress    float64          `json:"progress"`
	Error       *jobstatus.Error `json:"error"`
	Results     json.RawMessage  `json:"results,omitempty"`
	CreatedAt   time.Time        `json:"created_at"`
	StartedAt   *time.Time       `json:"started_at"`
	CompletedAt *time.Time       `json:"completed_at"`
	Parent      *View            `json:"parent,omitempty"`
}

// ViewOf represents j.
func ViewOf(j *ent.Job) *View {
	out := &View{JobID: j.ID, Type: j.Type, Status: string(j.Status), Progress: j.Progress, Error: j.Error,
		CreatedAt: j.CreatedAt, StartedAt: j.StartedAt, CompletedAt: j.CompletedAt, Target: TargetOf(j)}
	if len(j.Result) > 0 {
		out.Results = j.Result
	}
	if j.ProjectID != "" {
		out.ProjectID = &j.ProjectID
	}
	if j.ParentID != "" {
		out.ParentID = &j.ParentID
	}
	return out
}

// TargetOf is j's target, nil when it has none.
func TargetOf(j *ent.Job) *Target {
	if j.TargetType == "" {
		return nil
	}
	return &Target{Type: string(j.TargetType), ID: j.TargetID}
}
