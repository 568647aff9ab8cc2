// Package blobs opens the object store that holds uploaded files and
// rendered images: a directory by default, or any gocloud.dev bucket URL
// (file:///path, s3://bucket?region=…). It also keeps the store's layout:
// the keys of every record's blobs (keys.go) and their reading and writing.
package blobs

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/s3blob" // registers s3://
)

// Open returns the bucket at rawURL, or a directory bucket at
// dataDir/blobs when rawURL is empty.
func Open(ctx context.Context, rawURL, dataDir string) (*blob.Bucket, error) {
	if rawURL == "" {
		rawURL = "file://" + filepath.ToSlash(filepath.Join(dataDir, "blobs"))
	}
	if strings.HasPrefix(rawURL, "file://") {
		u, err := url.Parse(rawURL)
		if err != nil {
			return nil, fmt.Errorf("blob url: %w", err)
		}
		if err := os.MkdirAll(u.Path, 0o700); err != nil {
			return nil, fmt.Errorf("blob dir: %w", err)
		}
		// no_tmp_dir: write temp files beside the target so rename never crosses devices
		return fileblob.OpenBucket(u.Path, &fileblob.Options{NoTempDir: true, CreateDir: true})
	}
	b, err := blob.OpenBucket(ctx, rawURL)
	if err != nil {
		return nil, fmt.Errorf("blob url %q: %w", rawURL, err)
	}
	return b, nil
}

// Ping checks that the bucket is reachable.
func Ping(ctx context.Context, b *blob.Bucket) error {
	ok, err := b.IsAccessible(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("blob store is not accessible")
	}
	return nil
}
