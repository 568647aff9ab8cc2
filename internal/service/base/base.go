// Package base holds what every service package shares: its dependencies
// (the database, queue, blob store, uploads, events, webhooks) and the
// small helpers several operations use (existence checks, transactions,
// not-found errors, deleting what a record stored).
package base

import (
	"context"
	"github.com/plangraph/plangraph/internal/search/embed"
	"github.com/plangraph/plangraph/internal/search/llm"
	"log/slog"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/organization"
	"github.com/plangraph/plangraph/ent/overlay"
	"github.com/plangraph/plangraph/ent/predicate"
	"github.com/plangraph/plangraph/ent/schema"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/events/webhooks"
	"github.com/plangraph/plangraph/internal/safefetch"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/uploads"
	"github.com/plangraph/plangraph/jobs"
)

// Deps are the dependencies of the services.
type Deps struct {
	DB      *ent.Client
	Log     *slog.Logger
	Uploads *uploads.Service
	Queue   *jobs.Queue
	// Blobs holds images (symbols supplied to parse are stored there).
	Blobs *blob.Bucket
	// ImageFetcher fetches parse images from the operator's allowlisted
	// hosts; nil fetches nothing.
	ImageFetcher *safefetch.Client
	// Events records and announces job events (subscriptions, streams,
	// webhooks).
	Events *events.Bus
	// Webhooks checks webhook endpoint settings and queues deliveries;
	// nil refuses the webhook operations.
	Webhooks *webhooks.Service
	// LLM words ask's answers from the retrieved sources; nil answers
	// from the index alone.
	LLM *llm.Client
	// Embedder makes the query vectors of semantic search (the index's rows
	// are embedded by workers, jobs.RegisterEmbed); nil searches without.
	Embedder *embed.Client
}

// NotFound is the API's not-found error for a kind of record and an id.
func NotFound(kind, id string) *apierr.Error {
	return apierr.NotFoundf("%s %q does not exist", kind, id)
}

// NotFoundAs turns Ent's not-found into the API's for kind/id; other
// errors pass unchanged.
func NotFoundAs(err error, kind, id string) error {
	if ent.IsNotFound(err) {
		return NotFound(kind, id)
	}
	return err
}

// Get fetches one record by id, a not-found error naming kind when it is
// missing or another organization's.
func Get[T any](ctx context.Context, kind, id string, get func(context.Context, string) (T, error)) (T, error) {
	v, err := get(ctx, id)
	return v, NotFoundAs(err, kind, id)
}

// MustExist fails with a validation error on field when exists says no.
func MustExist(ctx context.Context, field string, exists func(context.Context) (bool, error)) error {
	ok, err := exists(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apierr.Invalid(field, "does not exist")
	}
	return nil
}

// WithTx runs fn in a transaction, committing when it returns nil.
func WithTx(ctx context.Context, c *ent.Client, fn func(*ent.Tx) error) error {
	tx, err := c.Tx(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// LockOrg holds the context's organization until tx ends, so that
// transactions that count the organization's records before adding one
// take turns. On PostgreSQL it locks the organization's row; SQLite
// transactions already take turns (they begin IMMEDIATE).
func LockOrg(ctx context.Context, tx *ent.Tx) error {
	org, ok := tenant.Org(ctx)
	if !ok {
		return schema.ErrNoTenant
	}
	_, err := tx.Organization.Query().Where(organization.ID(org), func(s *sql.Selector) {
		if s.Dialect() == dialect.Postgres {
			s.ForUpdate()
		}
	}).Only(ctx)
	return err
}

// StoredUnder lists what deleting the drawings matching which leaves in
// blob storage: the key prefixes of their page images, blocks, legend
// entries and the overlays of their blocks (see blobs.DrawingBlobPrefixes).
// It is read before the rows go.
func (d *Deps) StoredUnder(ctx context.Context, which predicate.Drawing) ([]string, error) {
	org, _ := tenant.Org(ctx)
	drws, err := d.DB.Drawing.Query().Where(which).IDs(ctx)
	if err != nil || len(drws) == 0 {
		return nil, err
	}
	onDrawings := block.HasSheetWith(sheet.HasDrawingWith(which))
	blks, err := d.DB.Block.Query().Where(onDrawings).IDs(ctx)
	if err != nil {
		return nil, err
	}
	ftrs, err := d.DB.Feature.Query().Where(feature.KindEQ(feature.KindLegendEntry), feature.HasBlockWith(onDrawings)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	// an overlay goes with either of its blocks (the rows cascade)
	ovls, err := d.DB.Overlay.Query().Where(overlay.Or(overlay.HasBlockAWith(onDrawings), overlay.HasBlockBWith(onDrawings))).IDs(ctx)
	if err != nil {
		return nil, err
	}
	return blobs.DrawingBlobPrefixes(org, drws, blks, ftrs, ovls), nil
}

// DeleteStored queues the deletion of the blobs under prefixes, once the
// records that named them are gone. A failure to queue leaves the blobs
// behind; it is logged, the deletion itself has happened.
func (d *Deps) DeleteStored(ctx context.Context, prefixes []string) {
	if len(prefixes) == 0 || d.Queue == nil {
		return
	}
	if err := d.Queue.EnqueueDeleteBlobs(ctx, prefixes); err != nil {
		d.Log.WarnContext(ctx, "could not queue the deletion of stored images", "prefixes", len(prefixes), "err", err)
	}
}

// ReadyDrawing fetches a drawing whose processing has completed (its sheets
// and blocks are complete only then), else fails: 409 DRAWING_NOT_READY
// while it is processed, DRAWING_FAILED when it could not be; verb says
// what the caller wanted to do with it ("parse", "compare").
func (d *Deps) ReadyDrawing(ctx context.Context, id, verb string) (*ent.Drawing, error) {
	dr, err := Get(ctx, "drawing", id, d.DB.Drawing.Get)
	if err != nil {
		return nil, err
	}
	switch dr.Status {
	case drawing.StatusReady:
		return dr, nil
	case drawing.StatusFailed:
		return nil, apierr.New(apierr.Conflict, "drawing %s could not be processed; there is nothing to %s", id, verb).WithCode("DRAWING_FAILED")
	}
	return nil, apierr.New(apierr.Conflict, "drawing %s is still being processed (%s); %s it when its job has completed", id, dr.Status, verb).WithCode("DRAWING_NOT_READY")
}

// Enqueue queues job j, just committed with everything it works on: the
// request has had its effect and is answered as accepted whatever the queue
// says, so an Idempotency-Key retry replays it instead of doing it twice.
// The task is queued apart from the request's cancellation (a client that
// hangs up does not take it back); when the queue cannot take it now (Redis
// down), the requeue sweep (jobs.RequeueStale, every minute on every
// profile) queues it once Redis answers again.
func (d *Deps) Enqueue(ctx context.Context, j *ent.Job) {
	qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), enqueueTimeout)
	defer cancel()
	if err := jobs.Enqueue(qctx, d.Queue, j, jobs.QueueDefault); err != nil {
		d.Log.WarnContext(ctx, "job saved; the requeue sweep will queue it", "job", j.ID, "type", j.Type, "err", err)
	}
}

// enqueueTimeout bounds how long a request waits for the queue to take a
// job's task before leaving it to the requeue sweep.
const enqueueTimeout = 5 * time.Second
