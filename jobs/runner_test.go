package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs/jobstest"
)

type runnerEnv struct {
	db     *ent.Client
	q      *Queue
	w      *Worker
	rd     *Redis
	runner *Runner
	ctx    context.Context
}

func newRunnerEnv(t *testing.T) *runnerEnv {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	rd, err := OpenRedis(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	q := NewQueue(rd)
	w := NewWorker(rd, WorkerConfig{Concurrency: 4, ShutdownTimeout: 5 * time.Second}, log)
	env := &runnerEnv{db: st.Client, q: q, w: w, rd: rd, runner: NewRunner(st.Client, q, log), ctx: tenant.WithOrg(ctx, "org_test")}
	t.Cleanup(func() {
		w.Shutdown()
		q.Close()
		rd.Close()
		st.Close()
	})
	return env
}

func (e *runnerEnv) wait(t *testing.T, id string) *ent.Job {
	t.Helper()
	return jobstest.WaitJob(t, e.ctx, e.db, id, 20*time.Second, 50*time.Millisecond)
}

// start starts the worker, then a job of type typ.
func (e *runnerEnv) start(t *testing.T, typ string) *ent.Job {
	t.Helper()
	if err := e.w.Start(); err != nil {
		t.Fatal(err)
	}
	j, err := Start(e.ctx, e.db, e.q, NewJob{Type: typ})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestRunnerParentWaitsForChildrenAndFinalizesOnce(t *testing.T) {
	e := newRunnerEnv(t)
	var finalized, childRuns atomic.Int32
	e.runner.Handle(e.w, "test_parent", func(ctx context.Context, j *ent.Job) (any, error) {
		for i := 0; i < 5; i++ {
			if _, err := e.runner.AddChild(ctx, j, "test_child", job.TargetTypeProject, "prj_x", map[string]int{"n": i}); err != nil {
				return nil, err
			}
		}
		return nil, ErrWaitChildren
	})
	e.runner.Handle(e.w, "test_child", func(ctx context.Context, j *ent.Job) (any, error) {
		childRuns.Add(1)
		var in map[string]int
		_ = json.Unmarshal(j.Input, &in)
		time.Sleep(time.Duration(in["n"]*20) * time.Millisecond)
		return map[string]int{"double": in["n"] * 2}, nil
	})
	e.runner.Finalize("test_parent", func(ctx context.Context, p *ent.Job, children []*ent.Job) (any, error) {
		finalized.Add(1)
		sum := 0
		for _, c := range children {
			var r map[string]int
			_ = json.Unmarshal(c.Result, &r)
			sum += r["double"]
		}
		return map[string]int{"sum": sum, "children": len(children)}, nil
	})
	p := e.start(t, "test_parent")
	got := e.wait(t, p.ID)
	if got.Status != job.StatusCompleted || got.Progress != 1 || got.StartedAt == nil || got.CompletedAt == nil {
		t.Fatalf("parent: %+v", got)
	}
	var res map[string]int
	_ = json.Unmarshal(got.Result, &res)
	if res["sum"] != 20 || res["children"] != 5 {
		t.Fatalf("result %s", got.Result)
	}
	if finalized.Load() != 1 || childRuns.Load() != 5 {
		t.Fatalf("finalized %d times, children ran %d times", finalized.Load(), childRuns.Load())
	}
	// a duplicate delivery of a finished job does nothing
	if err := Enqueue(e.ctx, e.q, got, ""); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if finalized.Load() != 1 || childRuns.Load() != 5 {
		t.Fatal("finished work ran again")
	}
	n, _ := e.db.Job.Query().Where(job.ParentID(p.ID), job.StatusEQ(job.StatusCompleted)).Count(e.ctx)
	if n != 5 {
		t.Fatalf("%d completed children", n)
	}
}

func TestRunnerPermanentFailureFailsParent(t *testing.T) {
	e := newRunnerEnv(t)
	var attempts atomic.Int32
	e.runner.Handle(e.w, "test_parent", func(ctx context.Context, j *ent.Job) (any, error) {
		for i := 0; i < 3; i++ {
			if _, err := e.runner.AddChild(ctx, j, "test_child", "", "", map[string]int{"n": i}); err != nil {
				return nil, err
			}
		}
		return nil, ErrWaitChildren
	})
	e.runner.Handle(e.w, "test_child", func(ctx context.Context, j *ent.Job) (any, error) {
		var in map[string]int
		_ = json.Unmarshal(j.Input, &in)
		if in["n"] == 1 {
			attempts.Add(1)
			return nil, Fail("PAGE_TOO_LARGE", "page 2 is 300 MP; the limit is 250 MP")
		}
		return nil, nil
	})
	e.runner.Finalize("test_parent", func(ctx context.Context, p *ent.Job, children []*ent.Job) (any, error) {
		for _, c := range children {
			if c.Status == job.StatusFailed {
				return nil, Fail(c.Error.Code, "child: %s", c.Error.Message)
			}
		}
		return nil, nil
	})
	p := e.start(t, "test_parent")
	got := e.wait(t, p.ID)
	if got.Status != job.StatusFailed || got.Error == nil || got.Error.Code != "PAGE_TOO_LARGE" {
		t.Fatalf("parent: status %s error %+v", got.Status, got.Error)
	}
	time.Sleep(300 * time.Millisecond)
	if attempts.Load() != 1 {
		t.Fatalf("a permanent failure was retried: %d attempts", attempts.Load())
	}
}

func TestRunnerTransientErrorIsRetried(t *testing.T) {
	e := newRunnerEnv(t)
	var attempts atomic.Int32
	e.runner.Handle(e.w, "test_flaky", func(ctx context.Context, j *ent.Job) (any, error) {
		if attempts.Add(1) == 1 {
			return nil, errors.New("database hiccup")
		}
		return map[string]bool{"ok": true}, nil
	})
	j := e.start(t, "test_flaky")
	// asynq's first retry waits some seconds; poll long enough
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		got, _ := e.db.Job.Get(e.ctx, j.ID)
		if got.Status == job.StatusCompleted {
			if attempts.Load() != 2 {
				t.Fatalf("%d attempts", attempts.Load())
			}
			return
		}
		if got.Status == job.StatusFailed {
			t.Fatalf("a transient error failed the job: %+v", got.Error)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("job was not retried to completion")
}

func TestRecoverQueuesUnfinishedJobs(t *testing.T) {
	e := newRunnerEnv(t)
	var ran atomic.Int32
	e.runner.Handle(e.w, "test_once", func(ctx context.Context, j *ent.Job) (any, error) {
		ran.Add(1)
		return nil, nil
	})
	// a job recorded before a restart whose task the in-process Redis lost
	j, err := e.db.Job.Create().SetType("test_once").Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.w.Start(); err != nil {
		t.Fatal(err)
	}
	n, err := Recover(context.Background(), e.db, e.q)
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	if got := e.wait(t, j.ID); got.Status != job.StatusCompleted || ran.Load() != 1 {
		t.Fatalf("status %s, ran %d", got.Status, ran.Load())
	}
}

func TestRunnerFinalizerStartsAnotherStage(t *testing.T) {
	e := newRunnerEnv(t)
	var runs sync.Map // child id → runs
	var finalized atomic.Int32
	e.runner.Handle(e.w, "staged_parent", func(ctx context.Context, j *ent.Job) (any, error) {
		for i := 0; i < 3; i++ {
			// twice: the second creation of a named child is a no-op
			for range 2 {
				if err := e.runner.AddChildOnce(ctx, j, fmt.Sprintf("one:%d", i), "staged_child", "", "", map[string]int{"stage": 1}); err != nil {
					return nil, err
				}
			}
		}
		return nil, ErrWaitChildren
	})
	e.runner.Handle(e.w, "staged_child", func(ctx context.Context, j *ent.Job) (any, error) {
		n, _ := runs.LoadOrStore(j.ID, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		return nil, nil
	})
	e.runner.Finalize("staged_parent", func(ctx context.Context, p *ent.Job, children []*ent.Job) (any, error) {
		finalized.Add(1)
		if len(children) == 3 {
			for i := 0; i < 4; i++ {
				if err := e.runner.AddChildOnce(ctx, p, fmt.Sprintf("two:%d", i), "staged_child", "", "", map[string]int{"stage": 2}); err != nil {
					return nil, err
				}
			}
			return nil, ErrWaitChildren
		}
		return map[string]int{"children": len(children)}, nil
	})
	p := e.start(t, "staged_parent")
	got := e.wait(t, p.ID)
	if got.Status != job.StatusCompleted || string(got.Result) != `{"children":7}` {
		t.Fatalf("parent: %s %s", got.Status, got.Result)
	}
	children, err := e.db.Job.Query().Where(job.ParentID(p.ID)).All(e.ctx)
	if err != nil || len(children) != 7 {
		t.Fatalf("%d children (%v)", len(children), err)
	}
	for _, c := range children {
		n, ok := runs.Load(c.ID)
		if !ok || n.(*atomic.Int32).Load() != 1 || c.Status != job.StatusCompleted {
			t.Errorf("child %s: %s, ran %v", c.ID, c.Status, n)
		}
		if !strings.HasPrefix(c.ID, "job_") || len(c.ID) != len(p.ID) || c.ID[:14] != p.ID[:14] {
			t.Errorf("child id %s does not share the parent's (%s) time part", c.ID, p.ID)
		}
	}
	if ChildID(p.ID, "one:0") != ChildID(p.ID, "one:0") || ChildID(p.ID, "one:0") == ChildID(p.ID, "one:1") {
		t.Error("ChildID is not a function of parent and key")
	}
	if finalized.Load() < 2 {
		t.Errorf("finalized %d times", finalized.Load())
	}
}

// A parent's completion event comes after each child's own, even when a
// child's handler has recorded its job complete but not yet its event as
// the last child finalizes the parent (two children finishing together).
func TestRunnerRecordsChildEventsBeforeTheParents(t *testing.T) {
	e := newRunnerEnv(t)
	e.runner.Events = events.New(e.db, nil, nil)
	e.runner.Finalize("test_parent", func(ctx context.Context, p *ent.Job, children []*ent.Job) (any, error) {
		return map[string]int{"children": len(children)}, nil
	})
	now := time.Now().UTC()
	parent, err := e.db.Job.Create().SetType("test_parent").SetStatus(job.StatusStarted).SetStartedAt(now).Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var kids []*ent.Job
	for i := 0; i < 2; i++ {
		c, err := e.db.Job.Create().SetType("test_child").SetParentID(parent.ID).SetStatus(job.StatusCompleted).
			SetStartedAt(now).SetCompletedAt(now).SetResult([]byte(`{"n":1}`)).Save(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		kids = append(kids, c)
	}
	// the second child's handler finishes: its event, then the parent
	if err := e.runner.finished(e.ctx, kids[1].ID); err != nil {
		t.Fatal(err)
	}
	if err := e.runner.afterChild(e.ctx, kids[1]); err != nil {
		t.Fatal(err)
	}
	// and only now the first child's handler records its own event
	if err := e.runner.finished(e.ctx, kids[0].ID); err != nil {
		t.Fatal(err)
	}
	evs, err := e.runner.Events.Since(e.ctx, parent.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		got = append(got, ev.Type+" "+ev.JobID)
	}
	want := []string{"test_parent.child.completed " + kids[0].ID, "test_parent.child.completed " + kids[1].ID, "test_parent.completed " + parent.ID}
	if len(got) != 3 || got[2] != want[2] || !slices.Contains(got[:2], want[0]) || !slices.Contains(got[:2], want[1]) {
		t.Errorf("events %v, want both children's before the parent's, once each", got)
	}
}
