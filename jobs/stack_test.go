package jobs_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/jobs"
)

// stack is a throwaway SQLite store, in-process Redis and blob directory
// with a worker, all closed when the test ends.
type stack struct {
	st     *store.Store
	q      *jobs.Queue
	bucket *blob.Bucket
	runner *jobs.Runner
}

// newStack builds a stack; register adds the task handlers before the
// worker starts.
func newStack(t *testing.T, concurrency int, register func(s *stack, w *jobs.Worker)) *stack {
	t.Helper()
	base := context.Background()
	dir := t.TempDir()
	st, err := store.Open(base, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(base); err != nil {
		t.Fatal(err)
	}
	rd, err := jobs.OpenRedis(base, "")
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := blobs.Open(base, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	q := jobs.NewQueue(rd)
	w := jobs.NewWorker(rd, jobs.WorkerConfig{Concurrency: concurrency, ShutdownTimeout: 10 * time.Second}, log)
	s := &stack{st: st, q: q, bucket: bucket, runner: jobs.NewRunner(st.Client, q, log)}
	register(s, w)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		w.Shutdown()
		q.Close()
		rd.Close()
		bucket.Close()
		st.Close()
	})
	return s
}
