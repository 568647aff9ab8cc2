package blobs

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
)

// The page tasks of one drawing share one local copy of its file: taken
// together they get one path, which outlives its last release for a
// while (the next stage takes it again) and is then removed; a failed
// download is not remembered.
func TestFetchFileSharesOneCopy(t *testing.T) {
	ctx := context.Background()
	bucket, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer bucket.Close()
	defer func(k time.Duration) { localKeep = k }(localKeep)
	localKeep = 300 * time.Millisecond
	f := &ent.File{ID: "fil_test", StorageKey: "files/org_test/fil_test"}

	// not stored yet: an error, and nothing kept
	if _, _, err := FetchFile(ctx, bucket, f); err == nil {
		t.Fatal("a missing object was fetched")
	}
	want := []byte("%PDF-1.7 the drawing's bytes")
	if err := bucket.WriteAll(ctx, f.StorageKey, want, nil); err != nil {
		t.Fatal(err)
	}

	const tasks = 8
	paths := make([]string, tasks)
	releases := make([]func(), tasks)
	var wg sync.WaitGroup
	for i := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, rel, err := FetchFile(ctx, bucket, f)
			if err != nil {
				t.Error(err)
				return
			}
			paths[i], releases[i] = p, rel
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for _, p := range paths[1:] {
		if p != paths[0] {
			t.Fatalf("%d tasks got different copies: %v", tasks, paths)
		}
	}
	if got, err := os.ReadFile(paths[0]); err != nil || string(got) != string(want) {
		t.Fatalf("the copy holds %q, %v", got, err)
	}
	for _, rel := range releases[:tasks-1] {
		rel()
		rel() // twice is once
	}
	time.Sleep(2 * localKeep)
	if _, err := os.Stat(paths[0]); err != nil {
		t.Fatalf("the copy went while a task held it: %v", err)
	}
	releases[tasks-1]()
	// taken again before it lapses: the same copy
	p, rel, err := FetchFile(ctx, bucket, f)
	if err != nil || p != paths[0] {
		t.Fatalf("taken again: %q, %v; want the kept copy %q", p, err, paths[0])
	}
	rel()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(p); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the copy is still there long after its last release")
		}
		time.Sleep(50 * time.Millisecond)
	}
	local.Lock()
	n := len(local.m)
	local.Unlock()
	if n != 0 {
		t.Errorf("%d copies still listed", n)
	}
}
