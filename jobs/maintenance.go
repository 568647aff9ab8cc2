package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/idempotencyrecord"
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

// RegisterMaintenance adds the maintenance handlers and their schedule.
func RegisterMaintenance(w *Worker, db *ent.Client, bucket *blob.Bucket) error {
	w.Handle(TypePurgeIdempotency, PurgeIdempotency(db))
	w.Handle(TypeDeleteBlobs, DeleteBlobs(bucket))
	w.Handle(TypeSweepBlobs, SweepBlobs(db, bucket, SweepGrace))
	if err := w.Every("@every 6h", NewSweepBlobsTask()); err != nil {
		return err
	}
	return w.Every("@every 1h", NewPurgeIdempotencyTask())
}
