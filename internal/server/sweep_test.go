package server_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/uploads"
	"github.com/plangraph/plangraph/jobs"
)

// sweepKeepsNamed checks the blob sweep on the fixture's ingested and
// parsed drawing: every blob a row names stays, every stray of a kind the
// pipelines write — the pages of a failed ingestion, a retried stage's
// block images, a replaced upload, an overlay's or an exemplar's images
// without their rows — goes, and keys of no known kind are left alone.
func sweepKeepsNamed(t *testing.T, f *parseFixture) {
	ctx := context.Background()
	bucket := f.s.App.Blobs
	list := func() []string {
		var out []string
		it := bucket.List(nil)
		for {
			o, err := it.Next(ctx)
			if errors.Is(err, io.EOF) {
				slices.Sort(out)
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, o.Key)
		}
	}
	named := list()
	if len(named) < 5 {
		t.Fatalf("only %d blobs stored by an ingestion and a parse: %v", len(named), named)
	}
	org := f.org
	strays := []string{
		blobs.SheetKey(org, f.drawing, 7) + ".png", // a page whose sheet row is gone
		blobs.TilePack(blobs.SheetKey(org, f.drawing, 7)) + ".pack",
		blobs.SheetKey(org, f.drawing, 7) + "_files/9/0_0.png",
		blobs.SheetKey(org, ids.New(ids.Drawing), 1) + "-words.json", // a drawing gone
		blobs.BlockKey(org, ids.New(ids.Block)) + ".png",             // a retried stage's first images
		blobs.BlockKey(org, ids.New(ids.Block)) + "-words.json",
		blobs.FeatureKey(org, ids.New(ids.Feature)) + ".png",
		blobs.OverlayKey(org, ids.New(ids.Overlay)) + blobs.OverlayAddition.Suffix,
		uploads.StorageKey(org, ids.New(ids.File)),
	}
	unknown := []string{"notes/" + org + "/readme.txt", "blocks/not-an-org/blk_x.png"}
	for _, k := range append(slices.Clone(strays), unknown...) {
		if err := bucket.WriteAll(ctx, k, []byte("x"), nil); err != nil {
			t.Fatal(err)
		}
	}
	st, err := jobs.Sweep(ctx, f.s.App.Store.Client, bucket, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(slices.Values(append(slices.Clone(named), unknown...)))
	if got := list(); !slices.Equal(got, want) {
		t.Errorf("after the sweep:\n got %v\nwant %v", got, want)
	}
	if st.Deleted != len(strays) {
		t.Errorf("sweep deleted %d blobs, want the %d strays", st.Deleted, len(strays))
	}
	// nothing younger than the cutoff is touched
	young := blobs.BlockKey(org, ids.New(ids.Block)) + ".png"
	if err := bucket.WriteAll(ctx, young, []byte("x"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := jobs.Sweep(ctx, f.s.App.Store.Client, bucket, time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if ok, _ := bucket.Exists(ctx, young); !ok {
		t.Error("the sweep deleted a blob younger than its cutoff")
	}
	for _, k := range append(unknown, young) {
		_ = bucket.Delete(ctx, k)
	}
}
