package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/overlay"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/tenant"
)

// The blob sweep: every blob written is named by a row (a file's
// storage_key; a sheet's page images, tiles and words under its drawing's
// key and page; a block's, a legend entry's or an overlay's images under its
// id, see internal/blobs) or it is garbage — left by a failed ingestion
// whose sheets were deleted, a retried stage that wrote new ids, an upload
// that a later one replaced, or a deletion whose cleanup task could not be
// queued. The sweep deletes such blobs once they are older than a grace
// period (a stage writes its blobs before it commits their rows). Keys it
// does not recognise are never touched.

// TypeSweepBlobs deletes blobs that no row names.
const TypeSweepBlobs = "maintenance:sweep_blobs"

// SweepGrace is the default age under which a blob is never swept.
const SweepGrace = 24 * time.Hour

// NewSweepBlobsTask makes the sweep task.
func NewSweepBlobsTask() *asynq.Task {
	return asynq.NewTask(TypeSweepBlobs, nil, asynq.Queue(QueueLow), asynq.MaxRetry(3), asynq.Timeout(2*time.Hour))
}

// SweepBlobs is the sweep's task handler: blobs older than grace that no
// row names are deleted.
func SweepBlobs(db *ent.Client, bucket *blob.Bucket, grace time.Duration) asynq.HandlerFunc {
	return func(ctx context.Context, _ *asynq.Task) error {
		_, err := Sweep(ctx, db, bucket, time.Now().Add(-grace))
		return err
	}
}

// SweepStats counts what a sweep looked at and deleted.
type SweepStats struct{ Seen, Deleted int }

// sweepBatch is how many candidate blobs are checked against the rows at once.
const sweepBatch = 500

// blobRef is a recognised blob key: the row that would name it.
type blobRef struct {
	key  string
	kind string // a prefix of internal/ids: fil, drw (a page's blobs), blk, ftr, ovl
	id   string
	page int // kind drw: the page number
}

// parseBlobKey recognises the keys internal/blobs and internal/uploads make.
func parseBlobKey(key string) (blobRef, bool) {
	top, rest, ok := strings.Cut(key, "/")
	if !ok {
		return blobRef{}, false
	}
	org, rest, ok := strings.Cut(rest, "/")
	if !ok || !ids.Valid(ids.Organization, org) {
		return blobRef{}, false
	}
	// the id runs to the first '.', '-', '_' after its prefix's underscore, or '/'
	idOf := func(kind, s string) (string, string, bool) {
		p := len(kind) + 1
		if len(s) <= p {
			return "", "", false
		}
		end := strings.IndexAny(s[p:], ".-_/")
		if end < 0 {
			end = len(s) - p
		}
		id := s[:p+end]
		return id, s[p+end:], ids.Valid(kind, id)
	}
	ref := blobRef{key: key}
	var tail string
	switch top {
	case "files":
		ref.kind = ids.File
	case "sheets":
		ref.kind = ids.Drawing
	case "blocks":
		ref.kind = ids.Block
	case "features":
		ref.kind = ids.Feature
	case "overlays":
		ref.kind = ids.Overlay
	default:
		return blobRef{}, false
	}
	ref.id, tail, ok = idOf(ref.kind, rest)
	if !ok {
		return blobRef{}, false
	}
	if ref.kind == ids.Drawing { // sheets/{org}/{drawing}/{page}{suffix}
		page, ok := strings.CutPrefix(tail, "/")
		if !ok {
			return blobRef{}, false
		}
		n := 0
		for n < len(page) && page[n] >= '0' && page[n] <= '9' {
			n++
		}
		p, err := strconv.Atoi(page[:n])
		if err != nil || p < 1 {
			return blobRef{}, false
		}
		ref.page = p
	}
	return ref, true
}

// Sweep deletes the blobs modified before cutoff that no row names.
func Sweep(ctx context.Context, db *ent.Client, bucket *blob.Bucket, cutoff time.Time) (SweepStats, error) {
	ctx = tenant.System(ctx)
	var st SweepStats
	var batch []blobRef
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		orphans, err := unnamed(ctx, db, batch)
		if err != nil {
			return err
		}
		for _, key := range orphans {
			if err := bucket.Delete(ctx, key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
				return fmt.Errorf("sweep: delete %s: %w", key, err)
			}
			st.Deleted++
		}
		batch = batch[:0]
		return nil
	}
	it := bucket.List(nil)
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return st, fmt.Errorf("sweep: list: %w", err)
		}
		st.Seen++
		if obj.IsDir || !obj.ModTime.Before(cutoff) {
			continue
		}
		ref, ok := parseBlobKey(obj.Key)
		if !ok {
			continue
		}
		batch = append(batch, ref)
		if len(batch) >= sweepBatch {
			if err := flush(); err != nil {
				return st, err
			}
		}
	}
	return st, flush()
}

// unnamed returns the keys of refs that no row names. A drawing still
// processing keeps every blob under its key.
func unnamed(ctx context.Context, db *ent.Client, refs []blobRef) ([]string, error) {
	byKind := map[string][]string{}
	var fileKeys []string
	for _, r := range refs {
		byKind[r.kind] = append(byKind[r.kind], r.id)
		if r.kind == ids.File {
			fileKeys = append(fileKeys, r.key)
		}
	}
	live := map[string]bool{} // ids of existing rows; for files, storage keys; for pages, "drw/page"
	mark := func(vals []string, err error) error {
		for _, v := range vals {
			live[v] = true
		}
		return err
	}
	if len(fileKeys) > 0 {
		keys, err := db.File.Query().Where(file.StorageKeyIn(fileKeys...)).Select(file.FieldStorageKey).Strings(ctx)
		if err := mark(keys, err); err != nil {
			return nil, err
		}
	}
	if v := byKind[ids.Block]; len(v) > 0 {
		if err := mark(db.Block.Query().Where(block.IDIn(v...)).IDs(ctx)); err != nil {
			return nil, err
		}
	}
	if v := byKind[ids.Feature]; len(v) > 0 {
		if err := mark(db.Feature.Query().Where(feature.IDIn(v...)).IDs(ctx)); err != nil {
			return nil, err
		}
	}
	if v := byKind[ids.Overlay]; len(v) > 0 {
		if err := mark(db.Overlay.Query().Where(overlay.IDIn(v...)).IDs(ctx)); err != nil {
			return nil, err
		}
	}
	busy := map[string]bool{}
	if v := byKind[ids.Drawing]; len(v) > 0 {
		ds, err := db.Drawing.Query().Where(drawing.IDIn(v...)).Select(drawing.FieldID, drawing.FieldStatus).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			busy[d.ID] = d.Status == drawing.StatusPending || d.Status == drawing.StatusProcessing
		}
		shs, err := db.Sheet.Query().Where(sheet.DrawingIDIn(v...)).Select(sheet.FieldDrawingID, sheet.FieldPageNumber).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range shs {
			live[s.DrawingID+"/"+strconv.Itoa(s.PageNumber)] = true
		}
	}
	var out []string
	for _, r := range refs {
		switch r.kind {
		case ids.File:
			if live[r.key] {
				continue
			}
		case ids.Drawing:
			if busy[r.id] || live[r.id+"/"+strconv.Itoa(r.page)] {
				continue
			}
		default:
			if live[r.id] {
				continue
			}
		}
		out = append(out, r.key)
	}
	return out, nil
}
