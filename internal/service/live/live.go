// Package live is the live progress of jobs: the one implementation behind
// the jobUpdated, jobEvents and projectJobs subscriptions and
// GET /v1/jobs/{id}/stream.
//
// Notices from the event bus (Redis pub/sub, any process) only say that
// something changed; what changed is always read from the database in the
// subscriber's organization. Each watch subscribes to notices before it
// reads the first state, sends what is new compared with what it sent, and
// re-reads every few seconds even without a notice, so a notice lost on the
// way delays an update and never loses one.
package live

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/project"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
)

// Service runs the watches.
type Service struct {
	*base.Deps
	// Shared, when set, counts each key's watches across every api process
	// on one Redis (tokens that lapse when their process is gone); without
	// it they are counted in this process only.
	Shared  *jobs.Slots
	streams streamCount
}

// MaxStreamsPerKey is the most watches (GraphQL subscriptions and
// GET /v1/jobs/{id}/stream together) one API key holds open across the api
// processes of a deployment; one more is refused with 429 RATE_LIMITED
// until one ends.
const MaxStreamsPerKey = 50

// streamCount counts the open watches per API key.
type streamCount struct {
	mu sync.Mutex
	n  map[string]int
}

// admit takes one of ctx's key's watches; release gives it back (once).
func (r *Service) admit(ctx context.Context, org string) (release func(), err error) {
	who := "org:" + org
	if p, ok := auth.From(ctx); ok && p.KeyID != "" {
		who = "key:" + p.KeyID
	}
	refused := apierr.New(apierr.RateLimited, "this API key already has %d live streams and subscriptions open, the most it may; end one first", MaxStreamsPerKey)
	if r.Shared != nil {
		release, ok := r.Shared.Hold(context.WithoutCancel(ctx), "plangraph:streams:"+who, MaxStreamsPerKey)
		if !ok {
			return nil, refused
		}
		var once sync.Once
		return func() { once.Do(release) }, nil
	}
	c := &r.streams
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	if c.n[who] >= MaxStreamsPerKey {
		return nil, refused
	}
	c.n[who]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.n[who]--; c.n[who] <= 0 {
				delete(c.n, who)
			}
		})
	}, nil
}

const (
	// watchRecheck is how often a watch re-reads state without a notice.
	watchRecheck = 3 * time.Second
	// watchCoalesce gathers a burst of notices into one read.
	watchCoalesce = 100 * time.Millisecond
	// terminalEventGrace is how long after a job has ended a jobEvents
	// watch waits for the job's final event, recorded just after the
	// status changes (or later, when the recording task is retried). Jobs
	// ended longer ago without one (recorded before events existed) end
	// the stream at once.
	terminalEventGrace = 30 * time.Second
	// recentlyFinished is how long a project watch remembers what it sent
	// of a finished job, to send a repeated notice's job once.
	recentlyFinished = 10 * time.Minute
)

// JobUpdate is one item of a job's stream: its state, or an event.
type JobUpdate struct {
	// Job is the job's state: first the current one, then each change of
	// status or progress.
	Job *ent.Job
	// Event is an event recorded about the job or a job below it.
	Event *ent.Event
}

// WatchOptions choose what WatchJob sends.
type WatchOptions struct {
	// States sends the job's state first and after every change; without
	// Events the stream ends once an ended state was sent.
	States bool
	// Events sends every stored event of the job and the jobs below it,
	// oldest first, then new ones; the stream ends after the job's own
	// final event.
	Events bool
	// AfterEventID resumes the events after this one (Last-Event-ID).
	AfterEventID string
}

// WatchJob streams job id's updates until the job has ended (see
// WatchOptions) or ctx ends, then closes the channel. A job that does not
// exist in ctx's organization is a NotFound error.
func (r *Service) WatchJob(ctx context.Context, id string, o WatchOptions) (<-chan JobUpdate, error) {
	org, release, err := r.watchOrg(ctx)
	if err != nil {
		return nil, err
	}
	// notices first, state second: nothing that happens in between is missed
	notices, unsubscribe := r.Events.Subscribe(ctx, func(n events.Notice) bool {
		return n.Org == org && (n.JobID == id || (o.Events && n.Kind == events.KindEvent && n.Under(id)))
	})
	stop := func() { unsubscribe(); release() }
	j, err := r.DB.Job.Get(ctx, id)
	if err != nil {
		stop()
		if ent.IsNotFound(err) {
			return nil, apierr.NotFoundf("job %q does not exist", id)
		}
		return nil, err
	}
	w := &jobWatch{r: r, id: id, o: o, delivered: map[string]bool{}, out: make(chan JobUpdate)}
	go func() {
		defer close(w.out)
		defer stop()
		watchLoop(ctx, notices, func(ctx context.Context, _ []events.Notice) (bool, error) {
			done, err := w.check(ctx, j)
			j = nil // the first check uses the state read above, later ones read again
			return done, err
		}, r.Log)
	}()
	return w.out, nil
}

// watchOrg is ctx's organization; watching needs one and the event bus.
// It takes one of the key's watches (MaxStreamsPerKey), which release
// gives back.
func (r *Service) watchOrg(ctx context.Context) (org string, release func(), err error) {
	if r.Events == nil {
		return "", nil, apierr.New(apierr.Unavailable, "live progress is not available on this server")
	}
	org, ok := tenant.Org(ctx)
	if !ok {
		return "", nil, apierr.New(apierr.Unauthorized, "a valid API key is required")
	}
	if release, err = r.admit(ctx, org); err != nil {
		return "", nil, err
	}
	return org, release, nil
}

// watchLoop runs check first, then after each burst of notices and every
// watchRecheck, until check reports done or ctx ends. Errors are logged
// and the next check tries again.
func watchLoop(ctx context.Context, notices <-chan events.Notice, check func(context.Context, []events.Notice) (bool, error), log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	tick := time.NewTicker(watchRecheck)
	defer tick.Stop()
	var batch []events.Notice
	for {
		done, err := check(ctx, batch)
		if done || ctx.Err() != nil {
			return
		}
		if err != nil {
			log.WarnContext(ctx, "live progress: reading state failed; retrying", "err", err)
		}
		batch = batch[:0]
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case n := <-notices:
			batch = append(batch, n)
			t := time.NewTimer(watchCoalesce)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			for more := true; more; {
				select {
				case n := <-notices:
					batch = append(batch, n)
				default:
					more = false
				}
			}
		}
	}
}

type jobWatch struct {
	r         *Service
	id        string
	o         WatchOptions
	out       chan JobUpdate
	sent      *jobStamp // the state last sent
	started   bool      // the first events read (resumption applied)
	delivered map[string]bool
	endedAt   time.Time // when this watch first saw the job ended
}

// jobStamp is what a state update is sent for.
type jobStamp struct {
	status      job.Status
	progress    float64
	startedAt   time.Time
	completedAt time.Time
}

func stampOf(j *ent.Job) jobStamp {
	s := jobStamp{status: j.Status, progress: j.Progress}
	if j.StartedAt != nil {
		s.startedAt = *j.StartedAt
	}
	if j.CompletedAt != nil {
		s.completedAt = *j.CompletedAt
	}
	return s
}

func send[T any](ctx context.Context, out chan<- T, v T) bool {
	select {
	case out <- v:
		return true
	case <-ctx.Done():
		return false
	}
}

// check sends what is new about the job (j when already read) and reports
// whether the stream is complete.
func (w *jobWatch) check(ctx context.Context, j *ent.Job) (bool, error) {
	if j == nil {
		var err error
		if j, err = w.r.DB.Job.Get(ctx, w.id); ent.IsNotFound(err) {
			return true, nil // deleted with its project: nothing more will happen
		} else if err != nil {
			return false, err
		}
	}
	if w.o.States {
		if st := stampOf(j); w.sent == nil || st != *w.sent {
			if !send(ctx, w.out, JobUpdate{Job: j}) {
				return true, nil
			}
			w.sent = &st
		}
	}
	ended := jobstatus.Terminal(string(j.Status))
	if !w.o.Events {
		return ended, nil
	}
	evs, err := w.r.Events.Since(ctx, w.id, "")
	if err != nil {
		return false, err
	}
	if !w.started && w.o.AfterEventID != "" {
		// resume: everything up to the given event was received (an id that
		// is not one of this job's events resumes from the start)
		for i, e := range evs {
			if e.ID == w.o.AfterEventID {
				for _, seen := range evs[:i+1] {
					w.delivered[seen.ID] = true
				}
				break
			}
		}
	}
	w.started = true
	final := false
	for _, e := range evs {
		final = final || (ended && isFinalEvent(j, e))
		if w.delivered[e.ID] {
			continue
		}
		if !send(ctx, w.out, JobUpdate{Event: e}) {
			return true, nil
		}
		w.delivered[e.ID] = true
	}
	if !ended || final {
		return final, nil
	}
	// ended, final event not (yet) recorded
	if w.endedAt.IsZero() {
		w.endedAt = time.Now()
		if j.CompletedAt != nil && j.CompletedAt.Before(w.endedAt) {
			w.endedAt = *j.CompletedAt
		}
	}
	return time.Since(w.endedAt) > terminalEventGrace, nil
}

// isFinalEvent reports whether e is ended job j's own last event: a
// top-level job's {kind}.{status}, a child job's completion reported by
// its parent (the only event about a child).
func isFinalEvent(j *ent.Job, e *ent.Event) bool {
	if e.JobID != j.ID {
		return false
	}
	if j.ParentID == "" {
		return e.Type == jobs.LifecycleEvent(j.Type, string(j.Status))
	}
	return true
}

// WatchProjectJobs streams the project's unfinished jobs, then every job
// of the project whose status or progress changes, until ctx ends. A
// project that does not exist in ctx's organization is a NotFound error.
func (r *Service) WatchProjectJobs(ctx context.Context, projectID string) (<-chan *ent.Job, error) {
	org, release, err := r.watchOrg(ctx)
	if err != nil {
		return nil, err
	}
	notices, unsubscribe := r.Events.Subscribe(ctx, func(n events.Notice) bool {
		return n.Org == org && n.Kind == events.KindJob && n.ProjectID == projectID
	})
	stop := func() { unsubscribe(); release() }
	ok, err := r.DB.Project.Query().Where(project.ID(projectID)).Exist(ctx)
	if err != nil || !ok {
		stop()
		if err == nil {
			err = apierr.NotFoundf("project %q does not exist", projectID)
		}
		return nil, err
	}
	w := &projectWatch{r: r, project: projectID, sent: map[string]jobStamp{}, finished: map[string]time.Time{},
		out: make(chan *ent.Job)}
	go func() {
		defer close(w.out)
		defer stop()
		watchLoop(ctx, notices, w.check, r.Log)
	}()
	return w.out, nil
}

type projectWatch struct {
	r       *Service
	project string
	out     chan *ent.Job
	// sent is the state last sent of each job; finished jobs are
	// forgotten recentlyFinished after they were seen ended
	sent     map[string]jobStamp
	finished map[string]time.Time
	checked  time.Time // the last full re-read
}

// check sends the jobs named by notices, or (first, and without notices)
// re-reads the project's unfinished and recently created jobs.
func (w *projectWatch) check(ctx context.Context, notices []events.Notice) (bool, error) {
	now := time.Now()
	q := w.r.DB.Job.Query().Order(ent.Asc(job.FieldCreatedAt), ent.Asc(job.FieldID))
	switch {
	case len(notices) > 0:
		idList := make([]string, 0, len(notices))
		for _, n := range notices {
			idList = append(idList, n.JobID)
		}
		q.Where(job.IDIn(idList...), job.ProjectID(w.project))
	case w.checked.IsZero():
		q.Where(job.ProjectID(w.project), job.StatusIn(job.StatusQueued, job.StatusStarted))
	default:
		var unfinished []string
		for id, st := range w.sent {
			if !jobstatus.Terminal(string(st.status)) {
				unfinished = append(unfinished, id)
			}
		}
		// unfinished ones, ones this watch knows unfinished, and ones created
		// since the last re-read (with a margin for slow transactions)
		q.Where(job.Or(
			job.And(job.ProjectID(w.project), job.Or(
				job.StatusIn(job.StatusQueued, job.StatusStarted),
				job.CreatedAtGTE(w.checked.Add(-10*time.Second)))),
			job.IDIn(unfinished...)))
	}
	list, err := q.All(ctx)
	if err != nil {
		return false, err
	}
	if len(notices) == 0 {
		w.checked = now
	}
	for _, j := range list {
		st := stampOf(j)
		if prev, ok := w.sent[j.ID]; ok && prev == st {
			continue
		}
		if !send(ctx, w.out, j) {
			return true, nil
		}
		w.sent[j.ID] = st
		if jobstatus.Terminal(string(j.Status)) {
			w.finished[j.ID] = now
		}
	}
	for id, at := range w.finished {
		if now.Sub(at) > recentlyFinished {
			delete(w.finished, id)
			delete(w.sent, id)
		}
	}
	return false, nil
}

// Relay forwards what pick keeps of in's updates until in closes.
func Relay[T any](ctx context.Context, in <-chan JobUpdate, pick func(JobUpdate) (T, bool)) <-chan T {
	out := make(chan T)
	go func() {
		defer close(out)
		for u := range in {
			if v, ok := pick(u); ok && !send(ctx, out, v) {
				return
			}
		}
	}()
	return out
}
