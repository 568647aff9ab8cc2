// Package tilepack stores a deep-zoom pyramid as two objects instead of one
// per tile: NAME.pack holds every tile's bytes one after another and
// NAME.idx (JSON) maps each tile name ("12/3_4.png") to its offset and
// length. A 113 MP sheet has ~1,900 tiles; writing them as separate
// objects cost seconds of file creation (or 1,900 PUTs on S3), while a
// tile is served with one ranged read of the pack.
package tilepack

import (
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// Writer fills a pack. Put may be called from several goroutines.
type Writer struct {
	bucket *blob.Bucket
	name   string
	mu     sync.Mutex
	w      *blob.Writer
	off    int64
	idx    map[string][2]int64
}

// Create starts the pack NAME.pack in bucket.
func Create(ctx context.Context, bucket *blob.Bucket, name string) (*Writer, error) {
	w, err := bucket.NewWriter(ctx, name+".pack", &blob.WriterOptions{ContentType: "application/octet-stream"})
	if err != nil {
		return nil, err
	}
	return &Writer{bucket: bucket, name: name, w: w, idx: map[string][2]int64{}}, nil
}

// Put appends the bytes of tile.
func (p *Writer) Put(tile string, data []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, dup := p.idx[tile]; dup {
		return fmt.Errorf("tilepack: tile %s twice", tile)
	}
	n, err := p.w.Write(data)
	if err != nil {
		return err
	}
	p.idx[tile] = [2]int64{p.off, int64(n)}
	p.off += int64(n)
	return nil
}

// Close finishes the pack and writes its index; the pack is readable only
// once the index exists.
func (p *Writer) Close(ctx context.Context) error {
	if err := p.w.Close(); err != nil {
		return err
	}
	b, err := json.Marshal(p.idx)
	if err != nil {
		return err
	}
	return p.bucket.WriteAll(ctx, p.name+".idx", b, &blob.WriterOptions{ContentType: "application/json"})
}

// Abort drops a pack that will not be finished.
func (p *Writer) Abort() {
	_ = p.w.Close() // an unfinished pack without an index is never read
}

// Reader serves tiles of packs, keeping recently used indexes in memory.
type Reader struct {
	Bucket *blob.Bucket
	// Indexes is how many pack indexes are cached (default 64).
	Indexes int

	mu    sync.Mutex
	lru   *list.List
	cache map[string]*list.Element
}

type cached struct {
	name string
	idx  map[string][2]int64
}

// ErrNotFound is returned (wrapped by gcerrors.NotFound semantics) when a
// pack or a tile does not exist.
var ErrNotFound = fmt.Errorf("tilepack: not found")

// Tile opens the bytes of tile in pack name. It returns ErrNotFound when
// the pack has no index (none was written) or no such tile.
func (r *Reader) Tile(ctx context.Context, name, tile string) (io.ReadCloser, int64, error) {
	idx, err := r.index(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	loc, ok := idx[tile]
	if !ok {
		return nil, 0, ErrNotFound
	}
	rd, err := r.Bucket.NewRangeReader(ctx, name+".pack", loc[0], loc[1], nil)
	if err != nil {
		return nil, 0, err
	}
	return rd, loc[1], nil
}

func (r *Reader) index(ctx context.Context, name string) (map[string][2]int64, error) {
	r.mu.Lock()
	if r.cache == nil {
		r.cache, r.lru = map[string]*list.Element{}, list.New()
	}
	if e, ok := r.cache[name]; ok {
		r.lru.MoveToFront(e)
		idx := e.Value.(*cached).idx
		r.mu.Unlock()
		return idx, nil
	}
	r.mu.Unlock()
	b, err := r.Bucket.ReadAll(ctx, name+".idx")
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var idx map[string][2]int64
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, fmt.Errorf("tilepack: index of %s: %w", name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.cache[name]; !ok {
		r.cache[name] = r.lru.PushFront(&cached{name, idx})
		limit := r.Indexes
		if limit <= 0 {
			limit = 64
		}
		for r.lru.Len() > limit {
			old := r.lru.Back()
			r.lru.Remove(old)
			delete(r.cache, old.Value.(*cached).name)
		}
	}
	return idx, nil
}
