package blobs_test

import (
	"bytes"
	"context"
	"image"
	"math/rand"
	"testing"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/tilepack"
	"github.com/plangraph/plangraph/vision/render"
)

// TestGetPNGRegion: a region read from the tile pack equals the same part of
// the page, at tile seams and edges, and without a pack the page PNG serves.
func TestGetPNGRegion(t *testing.T) {
	ctx := context.Background()
	bucket, err := blobs.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer bucket.Close()
	rng := rand.New(rand.NewSource(1))
	w, h := 1000, 700
	page := image.NewGray(image.Rect(0, 0, w, h))
	rng.Read(page.Pix)
	store := func(key string, tiles bool) {
		var buf bytes.Buffer
		if err := render.EncodePNG(&buf, page); err != nil {
			t.Fatal(err)
		}
		if err := bucket.WriteAll(ctx, key+".png", buf.Bytes(), &blob.WriterOptions{ContentType: "image/png"}); err != nil {
			t.Fatal(err)
		}
		if !tiles {
			return
		}
		pack, err := tilepack.Create(ctx, bucket, blobs.TilePack(key))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := render.WriteDZI(ctx, page, render.DZITileSize, render.DZIOverlap, render.DZIFormat, func(_ context.Context, name string, data []byte) error {
			return pack.Put(name, data)
		}); err != nil {
			t.Fatal(err)
		}
		if err := pack.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	store("tiled", true)
	store("plain", false)
	for _, key := range []string{"tiled", "plain"} {
		for _, r := range []image.Rectangle{
			image.Rect(0, 0, w, h), image.Rect(255, 255, 257, 513), image.Rect(100, 30, 700, 690),
			image.Rect(900, 600, 1200, 900), // beyond the page: cut to it
		} {
			got, err := blobs.GetPNGRegion(ctx, bucket, key, r)
			if err != nil {
				t.Fatalf("%s %v: %v", key, r, err)
			}
			want := r.Intersect(page.Rect)
			if got.Rect != want.Sub(want.Min) {
				t.Fatalf("%s %v: bounds %v, want %v", key, r, got.Rect, want.Sub(want.Min))
			}
			for y := want.Min.Y; y < want.Max.Y; y++ {
				for x := want.Min.X; x < want.Max.X; x++ {
					if g, p := got.GrayAt(x-want.Min.X, y-want.Min.Y), page.GrayAt(x, y); g != p {
						t.Fatalf("%s %v: pixel (%d, %d) %v, page %v", key, r, x, y, g, p)
					}
				}
			}
		}
	}
	if _, err := blobs.GetPNGRegion(ctx, bucket, "missing", image.Rect(0, 0, 10, 10)); err != blobs.ErrNoImage {
		t.Errorf("missing image: %v", err)
	}
}
