package blobs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/vision/vector"
)

// FetchFile copies an uploaded file's bytes to a temporary file, for the
// readers that take a path; cleanup removes it.
func FetchFile(ctx context.Context, bucket *blob.Bucket, f *ent.File) (string, func(), error) {
	rd, err := bucket.NewReader(ctx, f.StorageKey, nil)
	if err != nil {
		return "", nil, fmt.Errorf("reading %s: %w", f.ID, err)
	}
	defer rd.Close()
	tmp, err := os.CreateTemp("", "plangraph-*")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { tmp.Close(); os.Remove(tmp.Name()) }
	if _, err := io.Copy(tmp, rd); err != nil {
		cleanup()
		return "", nil, err
	}
	return tmp.Name(), cleanup, tmp.Close()
}

// PutVectors stores a page's geometry at VectorsKey(key).
func PutVectors(ctx context.Context, bucket *blob.Bucket, key string, vec *vector.Page) error {
	var b bytes.Buffer
	if err := vec.Encode(&b); err != nil {
		return err
	}
	return bucket.WriteAll(ctx, VectorsKey(key), b.Bytes(), &blob.WriterOptions{ContentType: "application/octet-stream"})
}
