package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/idempotencyrecord"
	"github.com/plangraph/plangraph/ent/job"
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

// TypeRequeueJobs queues again the top-level jobs still Queued a while
// after they were created: their task was never queued (Redis was down
// when their request committed them) or was lost with a Redis that does
// not persist. Queuing a job whose task exists is a no-op (task id = job
// id), so the sweep is harmless to jobs merely waiting in a backlog.
const TypeRequeueJobs = "maintenance:requeue_jobs"

// RequeueAge is how old a Queued job must be before the sweep queues it again.
const RequeueAge = 2 * time.Minute

// NewRequeueJobsTask makes the requeue sweep's task.
func NewRequeueJobsTask() *asynq.Task {
	return asynq.NewTask(TypeRequeueJobs, nil, asynq.Queue(QueueCritical), asynq.MaxRetry(1), asynq.Timeout(5*time.Minute))
}

// RequeueStale queues again the top-level jobs Queued since before cutoff
// (children are queued by their parent once all of them exist, so they are
// left to it) and returns how many it queued.
func RequeueStale(ctx context.Context, db *ent.Client, q *Queue, cutoff time.Time) (int, error) {
	ctx = tenant.System(ctx)
	js, err := db.Job.Query().Where(job.StatusEQ(job.StatusQueued), job.ParentIDIsNil(), job.CreatedAtLT(cutoff)).
		Limit(10_000).All(ctx)
	if err != nil {
		return 0, err
	}
	for _, j := range js {
		if err := Enqueue(ctx, q, j, ""); err != nil {
			return 0, err
		}
	}
	return len(js), nil
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
