// Package idempotency keeps the records of Idempotency-Key requests: a key
// claimed by the first request, then completed with the response to replay
// or released for a repeat to run again. The HTTP side (hashing requests,
// capturing and replaying responses) is rest's.
package idempotency

import (
	"context"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/idempotencyrecord"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/service/base"
)

// Service keeps the records.
type Service struct{ *base.Deps }

// Claim is a request for a key.
type Claim struct {
	Key, Method, Path, RequestHash string
	// TTL is how long the key is remembered.
	TTL time.Duration
	// Stale is the age after which a record of the same request still
	// processing is taken for abandoned (its process died) and released.
	Stale time.Duration
}

// Claim inserts a "processing" record for c.Key. claimed is true when this
// request inserted it; otherwise rec is the live record that holds the
// key, or nil when there is none any more (claim again). Expired records,
// and records abandoned while processing, are deleted here and reported as
// nil.
func (s *Service) Claim(ctx context.Context, c Claim) (rec *ent.IdempotencyRecord, claimed bool, err error) {
	db := s.DB.IdempotencyRecord
	now := time.Now().UTC()
	rec, err = db.Create().SetKey(c.Key).SetMethod(c.Method).SetPath(c.Path).SetRequestHash(c.RequestHash).
		SetState(idempotencyrecord.StateProcessing).SetExpiresAt(now.Add(c.TTL)).Save(ctx)
	switch {
	case err == nil:
		return rec, true, nil
	case !ent.IsConstraintError(err):
		return nil, false, apierr.Internalf(err, "recording the idempotency key")
	}
	// the unique index (org_id, key) says the key is taken
	rec, err = db.Query().Where(idempotencyrecord.Key(c.Key)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, false, nil
	case err != nil:
		return nil, false, apierr.Internalf(err, "reading the idempotency key")
	}
	if rec.ExpiresAt.Before(now) {
		// expired: treated as absent; only the expired row may be deleted
		_, err := db.Delete().Where(idempotencyrecord.ID(rec.ID), idempotencyrecord.ExpiresAtLT(now)).Exec(ctx)
		if err != nil {
			return nil, false, apierr.Internalf(err, "deleting an expired idempotency key")
		}
		return nil, false, nil
	}
	if rec.RequestHash == c.RequestHash && rec.State == idempotencyrecord.StateProcessing && rec.CreatedAt.Before(now.Add(-c.Stale)) {
		// abandoned by a process that died mid-request: release it; of
		// several repeats racing here one deletes and the unique index
		// lets one of them claim
		_, err := db.Delete().Where(idempotencyrecord.ID(rec.ID), idempotencyrecord.StateEQ(idempotencyrecord.StateProcessing)).Exec(ctx)
		if err != nil {
			return nil, false, apierr.Internalf(err, "releasing an abandoned idempotency key")
		}
		return nil, false, nil
	}
	return rec, false, nil
}

// Get reads record id again; nil when it was deleted meanwhile.
func (s *Service) Get(ctx context.Context, id string) (*ent.IdempotencyRecord, error) {
	rec, err := s.DB.IdempotencyRecord.Query().Where(idempotencyrecord.ID(id)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, apierr.Internalf(err, "reading the idempotency key")
	}
	return rec, nil
}

// Release deletes record id, so that a repeat runs again.
func (s *Service) Release(ctx context.Context, id string) error {
	if err := s.DB.IdempotencyRecord.DeleteOneID(id).Exec(ctx); err != nil && !ent.IsNotFound(err) {
		return err
	}
	return nil
}

// Response is what a completed request answered.
type Response struct {
	Status  int
	Body    []byte
	Headers map[string]string
	// JobID is the job the request queued, if any.
	JobID string
}

// Complete stores record id's response for repeats to replay.
func (s *Service) Complete(ctx context.Context, id string, r Response) error {
	upd := s.DB.IdempotencyRecord.UpdateOneID(id).SetState(idempotencyrecord.StateCompleted).
		SetResponseStatus(r.Status).SetResponseBody(r.Body).SetResponseHeaders(r.Headers)
	if r.JobID != "" {
		upd.SetJobID(r.JobID)
	}
	return upd.Exec(ctx)
}
