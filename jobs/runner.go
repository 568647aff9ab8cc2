package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/hibiken/asynq"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/event"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/ids"
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

// Finalizer runs when every child of a waiting job has finished (possibly
// more than once when children finish together, so it must be safe to
// repeat). It returns the parent's result, or an error to fail it. A parent
// that works in stages may instead create the next stage's children and
// return ErrWaitChildren: they are queued and the finalizer runs again when
// they have finished. Such children must be created idempotently (e.g. with
// ids derived from the parent's, see ChildID), as concurrent finalizers may
// both try to create them.
type Finalizer func(ctx context.Context, parent *ent.Job, children []*ent.Job) (result any, err error)

// Runner turns asynq tasks into job lifecycles: Started on pickup,
// Completed or Failed at the end, parent jobs finalized when their last
// child finishes. Every step is safe to repeat, so a retried task never
// duplicates work already recorded.
type Runner struct {
	DB    *ent.Client
	Queue *Queue
	Log   *slog.Logger
	// Events, when set, records job events and announces every status and
	// progress change (see events.go).
	Events *events.Bus
	// OrgSlots and OrgLimit make scheduling fair across organizations:
	// one organization's job tasks run OrgLimit at a time across every
	// worker process on the Redis; a task of an organization that has all
	// its slots taken goes to the back of the queue (ErrBusy, not counted
	// as an attempt) while another organization has queued jobs, so the
	// tasks of others behind it run first; with none waiting it runs. No
	// limit when OrgLimit <= 0.
	OrgSlots    Slots
	OrgLimit    int
	finalizers  map[string]Finalizer
	progress    map[string]ProgressFunc
	childEvents map[string]ChildEventFunc
}

// orgBusyDelay is about how long a task of an organization with all its
// slots taken waits before it is taken from the queue again.
const orgBusyDelay = time.Second

func orgSlotsKey(org string) string { return "plangraph:jobs:inflight-org:" + org }

// NewRunner makes a runner.
func NewRunner(db *ent.Client, q *Queue, log *slog.Logger) *Runner {
	return &Runner{DB: db, Queue: q, Log: log, finalizers: map[string]Finalizer{}, progress: map[string]ProgressFunc{},
		childEvents: map[string]ChildEventFunc{}}
}

// Handle registers h for jobs of type jobType on w.
func (r *Runner) Handle(w *Worker, jobType string, h Handler) {
	w.Handle(TaskType(jobType), func(ctx context.Context, t *asynq.Task) error { return r.run(ctx, t, h) })
}

// Finalize registers what completes a parent of type jobType.
func (r *Runner) Finalize(jobType string, f Finalizer) { r.finalizers[jobType] = f }

// ChildEvent registers what event the children of parents of type
// parentType record when they end, in place of {parent kind}.child.completed
// (see events.go).
func (r *Runner) ChildEvent(parentType string, f ChildEventFunc) { r.childEvents[parentType] = f }

func (r *Runner) run(ctx context.Context, t *asynq.Task, h Handler) error {
	var p Payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.JobID == "" || p.OrgID == "" {
		return fmt.Errorf("bad job payload %q: %w", t.Payload(), asynq.SkipRetry)
	}
	ctx = tenant.WithOrg(ctx, p.OrgID)
	release, ok := r.OrgSlots.Hold(ctx, orgSlotsKey(p.OrgID), r.OrgLimit)
	if !ok {
		// work-conserving: the limit yields to the others' queued jobs
		// only; an organization alone on the service uses every slot
		sys, cancel := context.WithTimeout(tenant.System(context.Background()), 5*time.Second) // every organization's jobs
		waiting, err := r.DB.Job.Query().Where(job.StatusEQ(job.StatusQueued), job.OrgIDNEQ(p.OrgID)).Exist(sys)
		cancel()
		if err != nil || waiting {
			return RetryAfter(orgBusyDelay/2+rand.N(orgBusyDelay), ErrBusy)
		}
		release = func() {}
	}
	defer release()
	j, err := r.DB.Job.Get(ctx, p.JobID)
	if ent.IsNotFound(err) {
		return fmt.Errorf("job %s is gone (deleted with its project?): %w", p.JobID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if j.OrgID != p.OrgID { // read in p's organization, so only a forged payload gets here
		return fmt.Errorf("job %s belongs to another organization than its task's: %w", p.JobID, asynq.SkipRetry)
	}
	if jobstatus.Terminal(string(j.Status)) {
		// a duplicate delivery of finished work, or the retry of a task whose
		// events or parent could not be recorded: doing both again is harmless
		if err := r.finished(ctx, j.ID); err != nil {
			return err
		}
		return r.afterChild(ctx, j)
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
			if err := r.started(ctx, j); err != nil {
				r.Log.Warn("job started event not recorded", "job", j.ID, "err", err)
			}
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
		if err := r.finished(ctx, j.ID); err != nil {
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
	if err := r.finished(ctx, j.ID); err != nil {
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
	if err := r.RefreshProgress(ctx, j.ParentID); err != nil {
		return err
	}
	return r.maybeFinalize(ctx, j.ParentID)
}

// ProgressFunc is a parent's progress (0..1) from its children (only id,
// type, status and progress are loaded).
type ProgressFunc func(parent *ent.Job, children []*ent.Job) float64

// StageShare is how far the children of type t are, 0..1 (a finished one
// counts 1, a running one its progress), for a parent that weighs its
// stages (see Progress); ok is false when it has none.
func StageShare(children []*ent.Job, t string) (share float64, ok bool) {
	n, sum := 0, 0.0
	for _, c := range children {
		if c.Type != t {
			continue
		}
		n++
		if jobstatus.Terminal(string(c.Status)) {
			sum++
		} else {
			sum += c.Progress
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// Progress registers how the progress of parents of type jobType is
// computed; by default it is the share of finished children.
func (r *Runner) Progress(jobType string, f ProgressFunc) { r.progress[jobType] = f }

// RefreshProgress recomputes the progress of an unfinished parent from its
// children (below 1 until it completes).
func (r *Runner) RefreshProgress(ctx context.Context, parentID string) error {
	var f ProgressFunc
	var parent *ent.Job
	if len(r.progress) > 0 {
		p, err := r.DB.Job.Get(ctx, parentID)
		if err != nil {
			return err
		}
		parent, f = p, r.progress[p.Type]
	}
	var v float64
	if f != nil {
		children, err := r.DB.Job.Query().Where(job.ParentID(parentID)).
			Select(job.FieldID, job.FieldType, job.FieldStatus, job.FieldProgress, job.FieldCreatedAt).All(ctx)
		if err != nil {
			return err
		}
		v = f(parent, children)
	} else {
		// the share of finished children
		total, err := r.DB.Job.Query().Where(job.ParentID(parentID)).Count(ctx)
		if err != nil || total == 0 {
			return err
		}
		done, err := r.DB.Job.Query().Where(job.ParentID(parentID), job.StatusIn(job.StatusCompleted, job.StatusFailed, job.StatusCanceled)).Count(ctx)
		if err != nil {
			return err
		}
		v = float64(done) / float64(total)
	}
	if n, _ := r.DB.Job.Update().Where(job.ID(parentID), job.StatusIn(job.StatusQueued, job.StatusStarted)).
		SetProgress(min(max(v, 0), 1) * 0.99).Save(ctx); n > 0 {
		r.Changed(ctx, parentID)
	}
	if parent != nil && parent.ParentID != "" && !jobstatus.Terminal(string(parent.Status)) {
		// a grandparent that weighs its children's progress sees this one move
		gp, err := r.DB.Job.Query().Where(job.ID(parent.ParentID)).Select(job.FieldType).Only(ctx)
		if err == nil && r.progress[gp.Type] != nil {
			return r.RefreshProgress(ctx, parent.ParentID)
		}
	}
	return nil
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
	case errors.Is(err, ErrWaitChildren):
		// the finalizer started another stage of children
		return r.queueChildren(ctx, parent)
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
	if err := r.childEventsFirst(ctx, children); err != nil {
		return err
	}
	if err := r.finished(ctx, parentID); err != nil {
		return err
	}
	p, err := r.DB.Job.Get(ctx, parentID)
	if err != nil {
		return err
	}
	return r.afterChild(ctx, p)
}

// childEventsFirst records the event of each child that has none yet, so
// that each child's own event goes before its parent's: a child that
// finished at the same moment as the last may not have recorded its event
// yet (recording is idempotent; its own later try adds nothing). Children
// have no event but that one, and those that have it are not announced
// again.
func (r *Runner) childEventsFirst(ctx context.Context, children []*ent.Job) error {
	if r.Events == nil || len(children) == 0 {
		return nil
	}
	ids := make([]string, len(children))
	for i, c := range children {
		ids[i] = c.ID
	}
	have, err := r.DB.Event.Query().Where(event.JobIDIn(ids...)).Select(event.FieldJobID).Strings(ctx)
	if err != nil {
		return err
	}
	recorded := make(map[string]bool, len(have))
	for _, id := range have {
		recorded[id] = true
	}
	for _, c := range children {
		if recorded[c.ID] {
			continue
		}
		if err := r.finished(ctx, c.ID); err != nil {
			return err
		}
	}
	return nil
}

// queueChildren queues the unfinished children of a parent whose
// finalizer started a new stage.
func (r *Runner) queueChildren(ctx context.Context, parent *ent.Job) error {
	// in the order the finalizer added them: the workers take them so
	children, err := r.DB.Job.Query().Where(job.ParentID(parent.ID), job.StatusIn(job.StatusQueued, job.StatusStarted)).
		Order(ent.Asc(job.FieldCreatedAt), ent.Asc(job.FieldID)).All(ctx)
	if err != nil {
		return err
	}
	if len(children) == 0 {
		// the new stage finished already (its last child finalizes the
		// parent), or the finalizer started nothing: finalize again, a few
		// times at most, then give up rather than leave the parent hanging
		n, _ := ctx.Value(refinalizeKey{}).(int)
		if n < 3 {
			return r.maybeFinalize(context.WithValue(ctx, refinalizeKey{}, n+1), parent.ID)
		}
		r.Log.Error("finalizer waits for children but started none", "job", parent.ID, "type", parent.Type)
		if err := r.fail(ctx, parent.ID, &Failure{Code: "INTERNAL_ERROR", Message: "the job could not start its next stage; the error was logged"}); err != nil {
			return err
		}
		if err := r.finished(ctx, parent.ID); err != nil {
			return err
		}
		p, err := r.DB.Job.Get(ctx, parent.ID)
		if err != nil {
			return err
		}
		return r.afterChild(ctx, p)
	}
	for _, c := range children {
		if err := Enqueue(ctx, r.Queue, c, QueueDefault); err != nil {
			return err
		}
	}
	return nil
}

type refinalizeKey struct{}

// ChildID is the id of parent's child named key: the same parent and key
// always give the same id, so a stage's children created twice (a retried
// task, concurrent finalizers) exist once. It keeps the parent's timestamp
// part, so children sort right after their parent.
func ChildID(parentID, key string) string { return ids.Derived(ids.Job, parentID, key) }

// AddChildOnce records parent's child named key (see ChildID) unless it
// exists already. Like AddChild's, it is queued when the parent's handler or
// finalizer returns ErrWaitChildren.
func (r *Runner) AddChildOnce(ctx context.Context, parent *ent.Job, key, jobType string, targetType job.TargetType, targetID string, input any) error {
	c, err := r.newChild(parent, jobType, targetType, targetID, input)
	if err != nil {
		return err
	}
	err = c.SetID(ChildID(parent.ID, key)).OnConflictColumns(job.FieldID).DoNothing().Exec(ctx)
	if err != nil && (errors.Is(err, sql.ErrNoRows) || strings.Contains(err.Error(), "no rows")) {
		return nil // it exists
	}
	return err
}

// AddChild records a child job of parent. It is queued when the parent's
// handler returns ErrWaitChildren, after all its children exist.
func (r *Runner) AddChild(ctx context.Context, parent *ent.Job, jobType string, targetType job.TargetType, targetID string, input any) (*ent.Job, error) {
	c, err := r.newChild(parent, jobType, targetType, targetID, input)
	if err != nil {
		return nil, err
	}
	return c.Save(ctx)
}

// newChild builds the creation of a queued child of parent.
func (r *Runner) newChild(parent *ent.Job, jobType string, targetType job.TargetType, targetID string, input any) (*ent.JobCreate, error) {
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
	return c, nil
}
