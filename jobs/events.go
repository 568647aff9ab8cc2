package jobs

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/jobstatus"
)

// Event types. A top-level job reports its lifecycle as {kind}.{status}
// (parse.started, parse.completed, parse.failed, drawing.completed, …; the
// kind is the job type without a "_preprocess" suffix) with the job, as GET
// /v1/jobs/{id} shows it, as data. A parse job's children report
// parse.child.completed (legend parsing, the drawing's ingestion) and
// parse.block.completed (a view block's symbol search) with the
// specification's data shapes; children of other jobs report
// {parent kind}.child.completed in the parse.child.completed shape.
const (
	EventParseChildCompleted = "parse.child.completed"
	EventParseBlockCompleted = "parse.block.completed"
	// EventCompareChildCompleted: an overlay made (its score and
	// registration), an overlay's changes analyzed (its score and change
	// counts), the summary made; in the parse.child.completed shape
	EventCompareChildCompleted = "compare.child.completed"
)

// EventKind is the event name of jobs of type jobType.
func EventKind(jobType string) string { return strings.TrimSuffix(jobType, "_preprocess") }

// LifecycleEvent is the type of a top-level job's event for status.
func LifecycleEvent(jobType, status string) string {
	return EventKind(jobType) + "." + jobstatus.Event(status)
}

// ChildCompleted is the data of a {kind}.child.completed event.
type ChildCompleted struct {
	JobID        string           `json:"job_id"`
	ParentJobID  string           `json:"parent_job_id"`
	ChildJobType string           `json:"child_job_type"`
	Status       string           `json:"status"`
	Target       *Target          `json:"target"`
	Results      json.RawMessage  `json:"results"`
	Error        *jobstatus.Error `json:"error,omitempty"`
}

// ChildEventFunc makes the event that child, a child of parent, records
// when it ends (its type and data); ok false leaves the
// {parent kind}.child.completed event.
type ChildEventFunc func(parent, child *ent.Job) (eventType string, data any, ok bool, err error)

// started announces that j was picked up (and, for a top-level job,
// records its started event).
func (r *Runner) started(ctx context.Context, j *ent.Job) error {
	if r.Events == nil {
		return nil
	}
	r.Events.JobChanged(ctx, j)
	if j.ParentID != "" {
		return nil
	}
	_, err := r.Events.Record(ctx, j, LifecycleEvent(j.Type, string(j.Status)), ViewOf(j))
	return err
}

// Changed announces that job id's progress moved.
func (r *Runner) Changed(ctx context.Context, id string) {
	if r.Events == nil {
		return
	}
	j, err := r.DB.Job.Query().Where(job.ID(id)).Select(job.FieldID, job.FieldParentID, job.FieldProjectID, job.FieldOrgID).Only(ctx)
	if err == nil {
		r.Events.JobChanged(ctx, j)
	}
}

// finished records the events of job id, which has ended. It is called
// again when a task is retried after a crash, and records each event once.
func (r *Runner) finished(ctx context.Context, id string) error {
	if r.Events == nil {
		return nil
	}
	j, err := r.DB.Job.Get(ctx, id)
	if err != nil {
		return err
	}
	r.Events.JobChanged(ctx, j)
	status := jobstatus.Event(string(j.Status))
	if j.ParentID == "" {
		_, err := r.Events.Record(ctx, j, LifecycleEvent(j.Type, string(j.Status)), ViewOf(j))
		return err
	}
	parent, err := r.DB.Job.Query().Where(job.ID(j.ParentID)).Select(job.FieldID, job.FieldType).Only(ctx)
	if err != nil {
		return err
	}
	if f := r.childEvents[parent.Type]; f != nil {
		typ, data, ok, err := f(parent, j)
		if err != nil {
			return err
		}
		if ok {
			_, err = r.Events.Record(ctx, j, typ, data)
			return err
		}
	}
	d := ChildCompleted{JobID: j.ID, ParentJobID: parent.ID, ChildJobType: j.Type, Status: status,
		Target: TargetOf(j), Results: j.Result, Error: j.Error}
	if len(d.Results) == 0 {
		d.Results = json.RawMessage("null")
	}
	_, err = r.Events.Record(ctx, j, EventKind(parent.Type)+".child.completed", d)
	return err
}

// EventTypes are the types of every event jobs emit (webhook endpoints
// choose among them): the lifecycle of the jobs clients start (parse,
// drawing for POST /v1/drawings, compare, and changes.analyze for POST
// /v1/overlays/{id}/analyze), and the child events of the parents in their
// job trees (parse → legend parsing, block searches and the drawing's
// ingestion; drawing → sheets; sheet → blocks; compare → overlays, their
// change analysis and the summary).
func EventTypes() []string {
	var out []string
	for _, t := range []string{TypeParse, TypeDrawingPreprocess, TypeCompare, TypeChangesAnalyze} {
		for _, s := range []string{jobstatus.Started, jobstatus.Completed, jobstatus.Failed, jobstatus.Canceled} {
			out = append(out, LifecycleEvent(t, s))
		}
	}
	return append(out, EventParseChildCompleted, EventParseBlockCompleted,
		EventKind(TypeDrawingPreprocess)+".child.completed", EventKind(TypeSheetPreprocess)+".child.completed",
		EventCompareChildCompleted)
}
