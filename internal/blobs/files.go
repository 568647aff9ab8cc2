package blobs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/vision/vector"
)

// FetchFile gives the path of a local copy of an uploaded file's bytes,
// for the readers that take a path; release says the caller is done with
// it. The copy is shared by every task of the process that reads the same
// file — a drawing's page tasks (its sheet and block stages, spread over
// the worker's slots) each made a copy of their own, a download of up to
// 2 GiB and as much disk per page —, and is removed localKeep after its
// last release unless another task takes it meanwhile (a drawing's next
// stage follows within seconds). Callers must only read it.
func FetchFile(ctx context.Context, bucket *blob.Bucket, f *ent.File) (string, func(), error) {
	key := f.StorageKey
	local.Lock()
	c, ok := local.m[key]
	if !ok {
		c = &localCopy{ready: make(chan struct{})}
		local.m[key] = c
	}
	c.refs++
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	local.Unlock()
	if !ok {
		c.path, c.err = download(ctx, bucket, f)
		if c.err != nil { // forgotten at once: the next task downloads again
			local.Lock()
			if local.m[key] == c {
				delete(local.m, key)
			}
			local.Unlock()
		}
		close(c.ready)
	}
	select {
	case <-c.ready:
	case <-ctx.Done():
		c.release(key)
		return "", nil, ctx.Err()
	}
	if c.err != nil {
		c.release(key)
		return "", nil, c.err
	}
	var once sync.Once
	return c.path, func() { once.Do(func() { c.release(key) }) }, nil
}

// localKeep is how long a local copy outlives its last release.
var localKeep = time.Minute

// local holds the process's local copies by storage key.
var local = struct {
	sync.Mutex
	m map[string]*localCopy
}{m: map[string]*localCopy{}}

type localCopy struct {
	path  string
	err   error
	ready chan struct{} // closed once path or err is set
	refs  int
	timer *time.Timer // removes the copy, after the last release
}

func (c *localCopy) release(key string) {
	local.Lock()
	defer local.Unlock()
	if c.refs--; c.refs > 0 || c.err != nil {
		return
	}
	c.timer = time.AfterFunc(localKeep, func() {
		local.Lock()
		defer local.Unlock()
		if c.refs == 0 && local.m[key] == c {
			delete(local.m, key)
			_ = os.Remove(c.path)
		}
	})
}

// DropLocalCopies removes the local copies no task holds now, without
// waiting for them to lapse: a process that stops calls it, so that its
// kept copies do not outlive it in the temporary directory.
func DropLocalCopies() {
	local.Lock()
	defer local.Unlock()
	for key, c := range local.m {
		if c.refs == 0 && c.err == nil {
			if c.timer != nil {
				c.timer.Stop()
			}
			delete(local.m, key)
			_ = os.Remove(c.path)
		}
	}
}

// download copies f's bytes to a new temporary file.
func download(ctx context.Context, bucket *blob.Bucket, f *ent.File) (string, error) {
	rd, err := bucket.NewReader(ctx, f.StorageKey, nil)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", f.ID, err)
	}
	defer rd.Close()
	tmp, err := os.CreateTemp("", "plangraph-*")
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(tmp, rd); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// PutVectors stores a page's geometry at VectorsKey(key).
func PutVectors(ctx context.Context, bucket *blob.Bucket, key string, vec *vector.Page) error {
	var b bytes.Buffer
	if err := vec.Encode(&b); err != nil {
		return err
	}
	return bucket.WriteAll(ctx, VectorsKey(key), b.Bytes(), &blob.WriterOptions{ContentType: "application/octet-stream"})
}
