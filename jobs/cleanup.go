package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// TypeDeleteBlobs deletes the stored images and words of deleted records
// (drawings, their sheets, blocks and legend entries).
const TypeDeleteBlobs = "maintenance:delete_blobs"

// deleteBlobsBatch is the most key prefixes one task carries.
const deleteBlobsBatch = 500

type deleteBlobsPayload struct {
	Prefixes []string `json:"prefixes"`
}

// NewDeleteBlobsTasks makes the tasks that delete every blob under the
// prefixes (several tasks when there are many). Each prefix must name one
// record's blobs: it ends in "/", "." or "-".
func NewDeleteBlobsTasks(prefixes []string) ([]*asynq.Task, error) {
	var out []*asynq.Task
	for len(prefixes) > 0 {
		n := min(len(prefixes), deleteBlobsBatch)
		for _, p := range prefixes[:n] {
			if !strings.HasSuffix(p, "/") && !strings.HasSuffix(p, ".") && !strings.HasSuffix(p, "-") {
				return nil, fmt.Errorf("blob prefix %q does not end a record's key", p)
			}
		}
		b, err := json.Marshal(deleteBlobsPayload{Prefixes: prefixes[:n]})
		if err != nil {
			return nil, err
		}
		out = append(out, asynq.NewTask(TypeDeleteBlobs, b, asynq.Queue(QueueLow), asynq.MaxRetry(20), asynq.Timeout(30*time.Minute)))
		prefixes = prefixes[n:]
	}
	return out, nil
}

// EnqueueDeleteBlobs queues the deletion of every blob under the prefixes.
func (q *Queue) EnqueueDeleteBlobs(ctx context.Context, prefixes []string) error {
	tasks, err := NewDeleteBlobsTasks(prefixes)
	if err != nil {
		return err
	}
	for _, t := range tasks {
		if err := q.Enqueue(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

// DeleteBlobs deletes every blob under the task's prefixes; blobs already
// gone are not an error, so a retried task finishes what the first began.
func DeleteBlobs(bucket *blob.Bucket) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		var p deleteBlobsPayload
		if err := json.Unmarshal(t.Payload(), &p); err != nil {
			return fmt.Errorf("delete blobs: %w: %w", err, asynq.SkipRetry)
		}
		for _, prefix := range p.Prefixes {
			if err := deletePrefix(ctx, bucket, prefix); err != nil {
				return fmt.Errorf("delete blobs under %s: %w", prefix, err)
			}
		}
		return nil
	}
}

func deletePrefix(ctx context.Context, bucket *blob.Bucket, prefix string) error {
	it := bucket.List(&blob.ListOptions{Prefix: prefix})
	for restarts := 0; ; {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if gcerrors.Code(err) == gcerrors.NotFound && restarts < 10 {
			// a file deleted by another task as the listing reached it
			// (file storage): list what is left
			restarts++
			it = bucket.List(&blob.ListOptions{Prefix: prefix})
			continue
		}
		if err != nil {
			return err
		}
		if obj.IsDir {
			continue
		}
		if err := bucket.Delete(ctx, obj.Key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return err
		}
	}
}
