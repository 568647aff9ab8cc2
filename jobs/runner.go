package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hibiken/asynq"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/tenant"
)

// Failure is a permanent job failure: retrying cannot help (bad input,
// limits). Its code and message go on the job record.
type Failure struct {
	Code    string
	Message string
}

func (f *Failure) Error() string { return f.Code + ": " + f.Message }

// Fail makes a permanent failure.
func Fail(code, format string, args ...any) *Failure {
	return &Failure{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Coded is any error that carries a stable code (vision errors do).
type Coded interface {
	error
	ErrorCode() string
}

// ErrWaitChildren is returned by a handler that started child jobs: the
// job stays Started until its children finish and its Finalizer runs.
var ErrWaitChildren = errors.New("jobs: waiting for child jobs")

// Handler does the work of one job. The result is stored as the job's
// results when it completes.
type Handler func(ctx context.Context, j *ent.Job) (result any, err error)

// Finalizer runs once, when every child of a waiting job has finished.
// It returns the parent's result, or an error to fail it.
type Finalizer func(ctx context.Context, parent *ent.Job, children []*ent.Job) (result any, err error)

// Runner turns asynq tasks into job lifecycles: Started on pickup,
// Completed or Failed at the end, parent jobs finalized when their last
// child finishes. Every step is safe to repeat, so a retried task never
// duplicates work already recorded.
type Runner struct {
	DB         *ent.Client
	Queue      *Queue
	Log        *slog.Logger
	finalizers map[string]Finalizer
}

// NewRunner makes a runner.
func NewRunner(db *ent.Client, q *Queue, log *slog.Logger) *Runner {
	return &Runner{DB: db, Queue: q, Log: log, finalizers: map[string]Finalizer{}}
}

// Handle registers h for jobs of type jobType on w.
func (r *Runner) Handle(w *Worker, jobType string, h Handler) {
	w.Handle(TaskType(jobType), func(ctx context.Context, t *asynq.Task) error { return r.run(ctx, t, h) })
}

// Finalize registers what completes a parent of type jobType.
func (r *Runner) Finalize(jobType string, f Finalizer) { r.finalizers[jobType] = f }

func (r *Runner) run(ctx context.Context, t *asynq.Task, h Handler) error {
	var p Payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.JobID == "" || p.OrgID == "" {
		return fmt.Errorf("bad job payload %q: %w", t.Payload(), asynq.SkipRetry)
	}
	ctx = tenant.WithOrg(ctx, p.OrgID)
	j, err := r.DB.Job.Get(ctx, p.JobID)
	if ent.IsNotFound(err) {
		return fmt.Errorf("job %s is gone (deleted with its project?): %w", p.JobID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if jobstatus.Terminal(string(j.Status)) {
		return nil // a duplicate delivery of finished work
	}
	if j.Status == job.StatusQueued {
		now := time.Now().UTC().Truncate(time.Microsecond)
		n, err := r.DB.Job.Update().Where(job.ID(j.ID), job.StatusEQ(job.StatusQueued)).
			SetStatus(job.StatusStarted).SetStartedAt(now).Save(ctx)
		if err != nil {
			return err
		}
		if n == 1 {
			j.Status, j.StartedAt = job.StatusStarted, &now
		}
	}
	res, err := h(ctx, j)
	switch {
	case errors.Is(err, ErrWaitChildren):
		// children are queued only now that all of them exist, so none can
		// finish early and finalize the parent over a partial set
		children, err := r.DB.Job.Query().Where(job.ParentID(j.ID), job.StatusIn(job.StatusQueued, job.StatusStarted)).All(ctx)
		if err != nil {
			return err
		}
		for _, c := range children {
			if err := Enqueue(ctx, r.Queue, c, QueueDefault); err != nil {
				return err
			}
		}
		return r.maybeFinalize(ctx, j.ID)
	case err == nil:
		if err := r.complete(ctx, j, res); err != nil {
			return err
		}
		return r.afterChild(ctx, j)
	}
	var (
		f     *Failure
		coded Coded
	)
	switch {
	case errors.As(err, &f):
	case errors.As(err, &coded):
		f = &Failure{Code: coded.ErrorCode(), Message: coded.Error()}
	default:
		retried, _ := asynq.GetRetryCount(ctx)
		maxRetry, _ := asynq.GetMaxRetry(ctx)
		if retried < maxRetry && ctx.Err() == nil {
			r.Log.Warn("job attempt failed; will retry", "job", j.ID, "type", j.Type, "attempt", retried+1, "err", err)
			return err
		}
		r.Log.Error("job failed", "job", j.ID, "type", j.Type, "err", err)
		f = &Failure{Code: "INTERNAL_ERROR", Message: "the job failed after retries; the error was logged"}
	}
	if err := r.fail(ctx, j.ID, f); err != nil {
		return err
	}
	if err := r.afterChild(ctx, j); err != nil {
		return err
	}
	return fmt.Errorf("%s: %w", f.Error(), asynq.SkipRetry)
}

func marshalResult(res any) ([]byte, error) {
	if res == nil {
		return nil, nil
	}
	if raw, ok := res.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(res)
}

// complete marks j Completed with res, once.
func (r *Runner) complete(ctx context.Context, j *ent.Job, res any) error {
	b, err := marshalResult(res)
	if err != nil {
		return err
	}
	u := r.DB.Job.Update().Where(job.ID(j.ID), job.StatusIn(job.StatusQueued, job.StatusStarted)).
		SetStatus(job.StatusCompleted).SetProgress(1).SetCompletedAt(time.Now().UTC().Truncate(time.Microsecond))
	if b != nil {
		u.SetResult(b)
	}
	_, err = u.Save(ctx)
	return err
}

// fail marks job id Failed with f, once.
func (r *Runner) fail(ctx context.Context, id string, f *Failure) error {
	_, err := r.DB.Job.Update().Where(job.ID(id), job.StatusIn(job.StatusQueued, job.StatusStarted)).
		SetStatus(job.StatusFailed).SetCompletedAt(time.Now().UTC().Truncate(time.Microsecond)).
		SetError(&jobstatus.Error{Code: f.Code, Message: f.Message}).Save(ctx)
	return err
}

// afterChild advances the parent of a finished job.
func (r *Runner) afterChild(ctx context.Context, j *ent.Job) error {
	if j.ParentID == "" {
		return nil
	}
	// progress of the parent: share of finished children
	total, err := r.DB.Job.Query().Where(job.ParentID(j.ParentID)).Count(ctx)
	if err != nil || total == 0 {
		return err
	}
	done, err := r.DB.Job.Query().Where(job.ParentID(j.ParentID), job.StatusIn(job.StatusCompleted, job.StatusFailed, job.StatusCanceled)).Count(ctx)
	if err != nil {
		return err
	}
	_ = r.DB.Job.Update().Where(job.ID(j.ParentID), job.StatusIn(job.StatusQueued, job.StatusStarted)).
		SetProgress(float64(done) / float64(total) * 0.99).Exec(ctx)
	return r.maybeFinalize(ctx, j.ParentID)
}

// maybeFinalize completes or fails parentID when all its children are done.
// Concurrent callers race on a conditional update, so it happens once.
func (r *Runner) maybeFinalize(ctx context.Context, parentID string) error {
	parent, err := r.DB.Job.Get(ctx, parentID)
	if err != nil || jobstatus.Terminal(string(parent.Status)) {
		return err
	}
	children, err := r.DB.Job.Query().Where(job.ParentID(parentID)).Order(ent.Asc(job.FieldCreatedAt)).All(ctx)
	if err != nil {
		return err
	}
	for _, c := range children {
		if !jobstatus.Terminal(string(c.Status)) {
			return nil
		}
	}
	fin := r.finalizers[parent.Type]
	var res any
	if fin != nil {
		res, err = fin(ctx, parent, children)
	}
	var f *Failure
	var coded Coded
	switch {
	case err == nil:
		if err := r.complete(ctx, parent, res); err != nil {
			return err
		}
	case errors.As(err, &f):
		if err := r.fail(ctx, parent.ID, f); err != nil {
			return err
		}
	case errors.As(err, &coded):
		if err := r.fail(ctx, parent.ID, &Failure{Code: coded.ErrorCode(), Message: coded.Error()}); err != nil {
			return err
		}
	default:
		return err // transient: the task is retried and tries again
	}
	p, err := r.DB.Job.Get(ctx, parentID)
	if err != nil {
		return err
	}
	return r.afterChild(ctx, p)
}

// AddChild records a child job of parent. It is queued when the parent's
// handler returns ErrWaitChildren, after all its children exist.
func (r *Runner) AddChild(ctx context.Context, parent *ent.Job, jobType string, targetType job.TargetType, targetID string, input any) (*ent.Job, error) {
	c := r.DB.Job.Create().SetType(jobType).SetStatus(job.StatusQueued).SetParentID(parent.ID)
	if parent.ProjectID != "" {
		c.SetProjectID(parent.ProjectID)
	}
	if targetType != "" {
		c.SetTargetType(targetType).SetTargetID(targetID)
	}
	if input != nil {
		b, err := json.Marshal(input)
		if err != nil {
			return nil, err
		}
		c.SetInput(b)
	}
	return c.Save(ctx)
}
