package jobs

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hibiken/asynq"
	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/idempotencyrecord"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/tenant"
)

// TypePurgeIdempotency deletes idempotency records past their expiry.
const TypePurgeIdempotency = "maintenance:purge_idempotency"

// NewPurgeIdempotencyTask makes the purge task.
func NewPurgeIdempotencyTask() *asynq.Task {
	return asynq.NewTask(TypePurgeIdempotency, nil, asynq.Queue(QueueLow), asynq.MaxRetry(3), asynq.Timeout(5*time.Minute))
}

// PurgeIdempotency deletes expired records; running it twice is harmless.
func PurgeIdempotency(db *ent.Client) asynq.HandlerFunc {
	return func(ctx context.Context, _ *asynq.Task) error {
		_, err := db.IdempotencyRecord.Delete().
			Where(idempotencyrecord.ExpiresAtLT(time.Now().UTC())).
			Exec(tenant.System(ctx))
		if err != nil {
			return fmt.Errorf("purge idempotency records: %w", err)
		}
		return nil
	}
}

// TypeRequeueJobs queues again the tasks of unfinished jobs that nothing
// will run: a job committed while Redis refused its task, tasks lost with a
// Redis that restarted without persistence (queued, running, or the last
// child's that would have finalized its parent), a parent whose children
// were queued into a Redis that then lost them. Queuing a job whose task
// exists is a no-op (task id = job id), so the sweep is harmless to jobs
// waiting in a backlog or running; a task left active by a crashed worker
// is asynq's to recover once its lease lapses.
const TypeRequeueJobs = "maintenance:requeue_jobs"

// RequeueAge is how long a job must have waited (Queued since creation,
// Started since it started, a parent since its last child ended) before the
// sweep queues its task again.
const RequeueAge = 2 * time.Minute

// NewRequeueJobsTask makes the requeue sweep's task.
func NewRequeueJobsTask() *asynq.Task {
	return asynq.NewTask(TypeRequeueJobs, nil, asynq.Queue(QueueCritical), asynq.MaxRetry(1), asynq.Timeout(5*time.Minute))
}

// requeueBatch bounds the jobs one sweep looks at per state.
const requeueBatch = 10_000

// RequeueStale queues again, for jobs that have waited since before
// cutoff: every Queued job (top-level, or a child of a Started parent); every
// Started job with no children (a task re-run is what a retry does); and
// for a Started parent whose children have all ended, its last child's
// task, which finding itself ended finalizes the parent (parents with
// children under way are left to them). It returns how many tasks it
// queued (no-ops included).
func RequeueStale(ctx context.Context, db *ent.Client, q *Queue, cutoff time.Time) (int, error) {
	ctx = tenant.System(ctx)
	queued, err := db.Job.Query().Where(job.StatusEQ(job.StatusQueued), job.CreatedAtLT(cutoff)).Limit(requeueBatch).All(ctx)
	if err != nil {
		return 0, err
	}
	// a child is queued by its parent once its parent has made the whole
	// stage: only children of a Started parent can have lost their task
	var parents []string
	for _, j := range queued {
		if j.ParentID != "" {
			parents = append(parents, j.ParentID)
		}
	}
	running, err := db.Job.Query().Where(job.IDIn(parents...), job.StatusEQ(job.StatusStarted)).IDs(ctx)
	if err != nil {
		return 0, err
	}
	queued = slices.DeleteFunc(queued, func(j *ent.Job) bool { return j.ParentID != "" && !slices.Contains(running, j.ParentID) })
	started, err := db.Job.Query().Where(job.StatusEQ(job.StatusStarted), job.StartedAtLT(cutoff)).Limit(requeueBatch).All(ctx)
	if err != nil {
		return 0, err
	}
	todo := queued
	for _, j := range started {
		children, err := db.Job.Query().Where(job.ParentID(j.ID)).Order(ent.Desc(job.FieldCompletedAt)).
			Select(job.FieldID, job.FieldOrgID, job.FieldType, job.FieldStatus, job.FieldCompletedAt).All(ctx)
		if err != nil {
			return 0, err
		}
		if len(children) == 0 {
			todo = append(todo, j)
			continue
		}
		last, ended := children[0], true
		for _, c := range children {
			if !jobstatus.Terminal(string(c.Status)) {
				ended = false
				break
			}
			if c.CompletedAt != nil && (last.CompletedAt == nil || c.CompletedAt.After(*last.CompletedAt)) {
				last = c
			}
		}
		if ended && (last.CompletedAt == nil || last.CompletedAt.Before(cutoff)) {
			todo = append(todo, last)
		}
	}
	for _, j := range todo {
		if err := Enqueue(ctx, q, j, ""); err != nil {
			return 0, err
		}
	}
	return len(todo), nil
}

// RequeueJobs is the requeue sweep's handler.
func RequeueJobs(db *ent.Client, q *Queue) asynq.HandlerFunc {
	return func(ctx context.Context, _ *asynq.Task) error {
		_, err := RequeueStale(ctx, db, q, time.Now().Add(-RequeueAge))
		return err
	}
}

// RegisterMaintenance adds the maintenance handlers and their schedule.
func RegisterMaintenance(w *Worker, db *ent.Client, q *Queue, bucket *blob.Bucket) error {
	w.Handle(TypePurgeIdempotency, PurgeIdempotency(db))
	w.Handle(TypeRequeueJobs, RequeueJobs(db, q))
	if err := w.Every("@every 1m", NewRequeueJobsTask()); err != nil {
		return err
	}
	w.Handle(TypeDeleteBlobs, DeleteBlobs(bucket))
	w.Handle(TypeSweepBlobs, SweepBlobs(db, bucket, SweepGrace))
	if err := w.Every("@every 6h", NewSweepBlobsTask()); err != nil {
		return err
	}
	return w.Every("@every 1h", NewPurgeIdempotencyTask())
}
