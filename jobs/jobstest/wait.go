// Package jobstest holds helpers for the tests of the jobs framework and
// its pipelines.
package jobstest

import (
	"context"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/jobstatus"
)

// WaitJob polls job id every poll until it ends (Completed, Failed or
// Canceled) and returns it; the test fails when the job has not ended
// within timeout. It is shared by the tests of the jobs framework and its pipelines.
func WaitJob(t testing.TB, ctx context.Context, db *ent.Client, id string, timeout, poll time.Duration) *ent.Job {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		j, err := db.Job.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if jobstatus.Terminal(string(j.Status)) {
			return j
		}
		time.Sleep(poll)
	}
	t.Fatalf("job %s did not finish", id)
	return nil
}

// Must returns a function that passes on a value and fails the test on a
// non-nil error: Must[*ent.Job](t)(db.Job.Get(ctx, id)).
func Must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
