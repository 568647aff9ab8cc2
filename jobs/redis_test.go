package jobs

import (
	"context"
	"encoding/json"
	"errors"
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

// A top-level job left Queued without its task (Redis was down when its
// request committed it) is queued by the requeue sweep once it is older
// than the cutoff; a fresh one, and a child, are left alone.
func TestRequeueStaleJobs(t *testing.T) {
	e := newRunnerEnv(t)
	ran := make(chan string, 4)
	e.runner.Handle(e.w, "test_orphan", func(_ context.Context, j *ent.Job) (any, error) {
		ran <- j.ID
		return nil, nil
	})
	old, err := e.db.Job.Create().SetType("test_orphan").SetStatus(job.StatusQueued).
		SetCreatedAt(time.Now().Add(-10 * time.Minute)).Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Job.Create().SetType("test_orphan").SetStatus(job.StatusQueued).Save(e.ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Job.Create().SetType("test_orphan").SetStatus(job.StatusQueued).SetParentID(old.ID).
		SetCreatedAt(time.Now().Add(-10 * time.Minute)).Save(e.ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.w.Start(); err != nil {
		t.Fatal(err)
	}
	n, err := RequeueStale(context.Background(), e.db, e.q, time.Now().Add(-RequeueAge))
	if err != nil || n != 1 {
		t.Fatalf("requeued %d, %v; want the one old top-level job", n, err)
	}
	if got := e.wait(t, old.ID); got.Status != job.StatusCompleted {
		t.Fatalf("the requeued job: %s", got.Status)
	}
	// a second sweep while nothing is stale queues the finished job no more
	if n, err := RequeueStale(context.Background(), e.db, e.q, time.Now().Add(-RequeueAge)); err != nil || n != 0 {
		t.Fatalf("second sweep: %d, %v", n, err)
	}
	time.Sleep(300 * time.Millisecond)
	if len(ran) != 1 {
		t.Fatalf("%d jobs ran, want 1", len(ran))
	}
}
