package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
)

// The embedded Redis answers only clients that know its random password.
func TestEmbeddedRedisRequiresItsPassword(t *testing.T) {
	ctx := context.Background()
	r, err := OpenRedis(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Ping(ctx); err != nil {
		t.Fatalf("own client: %v", err)
	}
	stranger := redis.NewClient(&redis.Options{Addr: r.mini.Addr()})
	defer stranger.Close()
	err = stranger.Ping(ctx).Err()
	if err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Fatalf("a client without the password: %v, want NOAUTH", err)
	}
	if err := stranger.LPush(ctx, "asynq:{default}:pending", "x").Err(); err == nil {
		t.Fatal("a client without the password queued a task")
	}
}

// A task whose payload names another organization than its job's is not
// run: the job is read in the payload's organization only.
func TestRunnerRefusesTaskOfAnotherOrganization(t *testing.T) {
	e := newRunnerEnv(t)
	j, err := Start(e.ctx, e.db, e.q, NewJob{Type: "test_forged"}) // queued; no worker runs
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(Payload{JobID: j.ID, OrgID: "org_other"})
	ran := false
	err = e.runner.run(context.Background(), asynq.NewTask(TaskType("test_forged"), payload),
		func(context.Context, *ent.Job) (any, error) { ran = true; return nil, nil })
	if !errors.Is(err, asynq.SkipRetry) || ran {
		t.Fatalf("forged task: err %v, handler ran %v", err, ran)
	}
	got, err := e.db.Job.Get(e.ctx, j.ID)
	if err != nil || got.Status != job.StatusQueued {
		t.Fatalf("job after the forged task: %+v, %v", got, err)
	}
}

// Jobs whose tasks nothing will run — a top-level job committed while
// Redis refused its task, a child queued into a Redis that then lost it, a
// started job whose task was lost, a parent whose last child's task (which
// would have finalized it) was lost — are queued again by the requeue sweep
// once they have waited past the cutoff; fresh ones, and children of a
// parent that has not run, are left alone, and a second sweep finds nothing.
func TestRequeueStaleJobs(t *testing.T) {
	e := newRunnerEnv(t)
	ran := make(chan string, 8)
	e.runner.Handle(e.w, "test_orphan", func(_ context.Context, j *ent.Job) (any, error) {
		ran <- j.ID
		return nil, nil
	})
	long := time.Now().Add(-10 * time.Minute)
	mk := func(status job.Status, parent string, at time.Time) *ent.Job {
		t.Helper()
		c := e.db.Job.Create().SetType("test_orphan").SetStatus(status).SetCreatedAt(at)
		if parent != "" {
			c.SetParentID(parent)
		}
		switch status {
		case job.StatusStarted:
			c.SetStartedAt(at)
		case job.StatusCompleted:
			c.SetStartedAt(at).SetCompletedAt(at)
		}
		j, err := c.Save(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	old := mk(job.StatusQueued, "", long)
	mk(job.StatusQueued, "", time.Now())       // fresh: its task is on its way
	mk(job.StatusQueued, old.ID, long)         // its parent has not run: the parent queues it
	running := mk(job.StatusStarted, "", long) // a leaf whose task was lost
	waiting := mk(job.StatusStarted, "", long) // a parent: one child lost, one done
	lostChild := mk(job.StatusQueued, waiting.ID, long)
	mk(job.StatusCompleted, waiting.ID, long)
	stuck := mk(job.StatusStarted, "", long) // a parent whose children all ended
	mk(job.StatusCompleted, stuck.ID, long)
	last := mk(job.StatusCompleted, stuck.ID, long.Add(time.Minute))
	if err := e.w.Start(); err != nil {
		t.Fatal(err)
	}
	n, err := RequeueStale(context.Background(), e.db, e.q, time.Now().Add(-RequeueAge))
	if err != nil || n != 4 {
		t.Fatalf("requeued %d, %v; want 4: the old top-level job, the lost child, the started leaf, the ended parent's last child — and not the rest", n, err)
	}
	for _, j := range []*ent.Job{old, running, lostChild, waiting, stuck} {
		if got := e.wait(t, j.ID); got.Status != job.StatusCompleted {
			t.Fatalf("job %s: %s", j.ID, got.Status)
		}
	}
	// a second sweep while nothing is stale queues nothing more (old's child
	// is the parent's to queue, and old has ended)
	if n, err := RequeueStale(context.Background(), e.db, e.q, time.Now().Add(-RequeueAge)); err != nil || n != 0 {
		t.Fatalf("second sweep: %d, %v", n, err)
	}
	time.Sleep(300 * time.Millisecond)
	got := map[string]bool{}
	for len(ran) > 0 {
		got[<-ran] = true
	}
	// the last child's task finds its job ended and finalizes the parent
	// without running the handler again
	if want := map[string]bool{old.ID: true, running.ID: true, lostChild.ID: true}; !maps.Equal(got, want) || got[last.ID] {
		t.Fatalf("handlers ran for %v, want %v", got, want)
	}
}
