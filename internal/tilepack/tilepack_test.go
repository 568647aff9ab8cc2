package tilepack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"

	"gocloud.dev/blob/fileblob"
)

func TestPackRoundTrip(t *testing.T) {
	ctx := context.Background()
	b, err := fileblob.OpenBucket(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := &Reader{Bucket: b, Indexes: 1}
	if _, _, err := r.Tile(ctx, "sheet", "0/0_0.png"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("tile of a missing pack: %v", err)
	}
	w, err := Create(ctx, b, "sheet")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.Put(fmt.Sprintf("%d/%d_0.png", i%12, i), []byte(fmt.Sprintf("tile-%d-%s", i, make([]byte, i%7)))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := w.Put("0/0_0.png", []byte("again")); err == nil {
		t.Error("a tile put twice was accepted")
	}
	// not readable before Close writes the index
	if _, _, err := r.Tile(ctx, "sheet", "0/0_0.png"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("tile of an unfinished pack: %v", err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		rd, n, err := r.Tile(ctx, "sheet", fmt.Sprintf("%d/%d_0.png", i%12, i))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(rd)
		rd.Close()
		if want := fmt.Sprintf("tile-%d-%s", i, make([]byte, i%7)); string(got) != want || n != int64(len(want)) {
			t.Fatalf("tile %d: %q (%d), want %q", i, got, n, want)
		}
	}
	if _, _, err := r.Tile(ctx, "sheet", "13/0_0.png"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing tile: %v", err)
	}
}
