package testenv

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/jobs"
)

// Redeliver runs job id's task again, as a duplicate delivery would, and
// returns at once (wait for the job as usual). asynq lets go of a task only
// after its handler has returned, which can be after the job (and its
// parent) were recorded finished; a task queued again with the same id
// before then is taken for a duplicate and dropped (jobs.Queue.Enqueue is
// idempotent by id), and the job would stay Queued. So Redeliver first waits
// until no queue holds the task.
func Redeliver(t testing.TB, ctx context.Context, db *ent.Client, q *jobs.Queue, id string) {
	t.Helper()
	queues := append(slices.Sorted(maps.Keys(jobs.QueueWeights)), jobs.QueueWebhooks)
	deadline := time.Now().Add(2 * time.Minute)
	for held := true; held; {
		held = false
		for _, name := range queues {
			info, err := q.Inspector().GetTaskInfo(name, id)
			switch {
			case errors.Is(err, asynq.ErrTaskNotFound), errors.Is(err, asynq.ErrQueueNotFound):
			case err != nil:
				t.Fatalf("redeliver %s: %v", id, err)
			default:
				held = true
				if time.Now().After(deadline) {
					t.Fatalf("redeliver %s: the queue %s still holds its task (%s)", id, name, info.State)
				}
			}
		}
		if held {
			time.Sleep(20 * time.Millisecond)
		}
	}
	j, err := db.Job.UpdateOneID(id).SetStatus(job.StatusQueued).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := jobs.Enqueue(ctx, q, j, jobs.QueueDefault); err != nil {
		t.Fatal(err)
	}
}
