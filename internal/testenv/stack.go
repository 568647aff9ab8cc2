package testenv

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

// Stack is a throwaway SQLite store, in-process Redis and blob directory
// with a worker, all closed when the test ends.
type Stack struct {
	St     *store.Store
	Q      *jobs.Queue
	Bucket *blob.Bucket
	Runner *jobs.Runner
}

// NewStack builds a stack; register adds the task handlers before the
// worker starts.
func NewStack(t *testing.T, concurrency int, register func(s *Stack, w *jobs.Worker)) *Stack {
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
	s := &Stack{St: st, Q: q, Bucket: bucket, Runner: jobs.NewRunner(st.Client, q, log)}
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
