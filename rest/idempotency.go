package rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/plangraph/plangraph/internal/service/idempotency"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/idempotencyrecord"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/tenant"
)

// Idempotency (interface specification, "Idempotency"): a POST carrying
// Idempotency-Key is executed at most once per organization and key; a
// repeat gets the first answer. The unique index (org_id, key) of
// idempotency_records decides which request executes, so the guarantee holds
// across api processes.
const (
	// IdempotencyKeyHeader is the request header naming the key.
	IdempotencyKeyHeader = "Idempotency-Key"
	// IdempotencyStatusHeader tells whether the response was computed for
	// this request ("miss") or replayed ("hit").
	IdempotencyStatusHeader = "Idempotency-Status"

	// IdempotencyTTL is how long a key is remembered after its first use.
	IdempotencyTTL = 24 * time.Hour
	// idempotencyMaxKey is the longest key accepted.
	idempotencyMaxKey = 256
)

var (
	// idempotencyWait is how long a repeat waits for the first request to
	// finish before answering 409 IDEMPOTENCY_IN_PROGRESS.
	idempotencyWait = 2 * time.Second
	// idempotencyStale is the age after which a record still "processing"
	// is taken to be abandoned (its process died mid-request) and a repeat
	// of the same request may run it again. Handlers answer in seconds, so
	// this is far beyond any live request.
	idempotencyStale = 10 * time.Minute
	// idempotencyReplayed are the response headers stored and replayed
	// with the status and body.
	idempotencyReplayed = []string{"Content-Type", "Location", "Content-Location", "Cache-Control"}
)

// Idempotent applies the Idempotency-Key rules to POST requests; other
// methods and POSTs without the header pass through untouched. It must run
// after authentication: records are scoped to the context's organization.
//
//   - first use of a key: the handler runs, its response goes to the
//     client with Idempotency-Status: miss and, unless it is a 5xx (or a
//     429, which says nothing about the request), is stored;
//   - a repeat of a stored request (same method, path and body): the
//     stored status, headers and body, byte for byte, with
//     Idempotency-Status: hit; the handler does not run;
//   - a repeat while the first is still running: waits up to 2 s for it,
//     then replays, or answers 409 IDEMPOTENCY_IN_PROGRESS (Retry-After: 1);
//   - a different request under a used key: 409 IDEMPOTENCY_CONFLICT;
//   - after a 5xx the key is released and a repeat runs again;
//   - keys expire 24 hours after first use.
func (a *API) Idempotent(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		vals := r.Header.Values(IdempotencyKeyHeader)
		if len(vals) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		if len(vals) > 1 {
			a.fail(w, r, apierr.Invalid(IdempotencyKeyHeader, "must be sent once"))
			return
		}
		key := vals[0]
		if !validIdempotencyKey(key) {
			a.fail(w, r, apierr.Invalid(IdempotencyKeyHeader,
				fmt.Sprintf("must be 1 to %d characters, each a letter, digit, hyphen or underscore", idempotencyMaxKey)))
			return
		}
		ctx := r.Context()
		if _, ok := tenant.Org(ctx); !ok {
			a.fail(w, r, apierr.Internalf(fmt.Errorf("idempotency: no organization in the request context"), "idempotency key scope"))
			return
		}
		body, err := httpx.ReadBody(w, r, a.bodyLimit(r))
		if err != nil {
			a.fail(w, r, err)
			return
		}
		// the handler reads the body again
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		hash := requestHash(r.Method, r.URL.Path, body)

		// Claim the key, or find who holds it. A record can vanish between
		// a failed claim and the look-up (released after a 5xx, expired,
		// abandoned): then claim again. Three rounds settle every race that
		// is not a stream of 5xx.
		for round := 0; round < 3; round++ {
			rec, claimed, err := a.s.Idempotency.Claim(ctx, idempotency.Claim{Key: key, Method: r.Method, Path: r.URL.Path,
				RequestHash: hash, TTL: IdempotencyTTL, Stale: idempotencyStale})
			if err != nil {
				a.fail(w, r, err)
				return
			}
			if claimed {
				a.runIdempotent(w, r, next, rec)
				return
			}
			if rec == nil {
				continue
			}
			if rec.RequestHash != hash {
				a.fail(w, r, apierr.New(apierr.Conflict,
					"Idempotency-Key %q was already used for a different request (method, path or body); send a new key for a new request", key).
					WithCode("IDEMPOTENCY_CONFLICT"))
				return
			}
			if rec.State == idempotencyrecord.StateProcessing {
				if rec, err = a.awaitIdempotent(ctx, rec); err != nil {
					a.fail(w, r, err)
					return
				}
				if rec == nil { // released or abandoned meanwhile
					continue
				}
				if rec.State == idempotencyrecord.StateProcessing {
					e := apierr.New(apierr.Conflict,
						"a request with Idempotency-Key %q is still being processed; retry after 1 s to receive its response", key).
						WithCode("IDEMPOTENCY_IN_PROGRESS")
					e.Header = http.Header{"Retry-After": {"1"}}
					a.fail(w, r, e)
					return
				}
			}
			replayIdempotent(w, rec)
			return
		}
		e := apierr.New(apierr.Conflict, "the request with Idempotency-Key %q keeps being retried concurrently; retry after 1 s", key).
			WithCode("IDEMPOTENCY_IN_PROGRESS")
		e.Header = http.Header{"Retry-After": {"1"}}
		a.fail(w, r, e)
	})
}

// validIdempotencyKey: 1 to 256 of [A-Za-z0-9_-].
func validIdempotencyKey(k string) bool {
	if len(k) < 1 || len(k) > idempotencyMaxKey {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// requestHash is the request's fingerprint: SHA-256 over the method, the
// path and the body, each length-prefixed so that no two requests share an
// encoding.
func requestHash(method, path string, body []byte) string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(method), []byte(path), body} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write(part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// awaitIdempotent polls rec until it completes or idempotencyWait passes;
// it returns nil when the record was deleted meanwhile.
func (a *API) awaitIdempotent(ctx context.Context, rec *ent.IdempotencyRecord) (*ent.IdempotencyRecord, error) {
	deadline := time.Now().Add(idempotencyWait)
	pause := 20 * time.Millisecond
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return rec, nil
		}
		t := time.NewTimer(min(pause, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, apierr.From(ctx.Err())
		case <-t.C:
		}
		pause = min(pause*3/2, 200*time.Millisecond)
		cur, err := a.s.Idempotency.Get(ctx, rec.ID)
		if cur == nil || err != nil {
			return nil, err
		}
		if cur.State != idempotencyrecord.StateProcessing {
			return cur, nil
		}
		rec = cur
	}
}

// runIdempotent runs next for the request that claimed rec and stores its
// response, or releases the key when the response must not be replayed.
func (a *API) runIdempotent(w http.ResponseWriter, r *http.Request, next http.Handler, rec *ent.IdempotencyRecord) {
	// the outcome is recorded even when the client has gone away
	ctx := context.WithoutCancel(r.Context())
	release := func(why string) {
		if err := a.s.Idempotency.Release(ctx, rec.ID); err != nil {
			a.log.ErrorContext(ctx, "releasing the idempotency key failed", "err", err, "why", why,
				"key", rec.Key, "request_id", httpx.RequestID(ctx))
		}
	}
	cw := &idempotencyWriter{ResponseWriter: w}
	capture := &replayCapture{}
	r = r.WithContext(context.WithValue(r.Context(), replayCaptureKey{}, capture))
	done := false
	defer func() {
		if !done { // the handler panicked: let a repeat run again
			release("handler panicked")
		}
	}()
	w.Header().Set(IdempotencyStatusHeader, "miss")
	next.ServeHTTP(cw, r)
	done = true

	status := cw.finalStatus()
	if status >= 500 || status == http.StatusTooManyRequests {
		release(fmt.Sprintf("response status %d", status))
		return
	}
	headers := cw.replayHeaders()
	body := cw.body.Bytes()
	if capture.body != nil { // the answer shows something once (a secret): replays get its stored copy
		body = capture.body
	}
	err := a.s.Idempotency.Complete(ctx, rec.ID, idempotency.Response{Status: status, Body: body, Headers: headers, JobID: jobIDOf(body)})
	if err != nil {
		// the client has its answer; a repeat must not find the key stuck
		a.log.ErrorContext(ctx, "storing the idempotent response failed", "err", err,
			"key", rec.Key, "request_id", httpx.RequestID(ctx))
		release("store failed")
	}
}

// replayCapture holds the body stored for replays when it is not the one
// sent (see onceOnly).
type replayCapture struct{ body []byte }

type replayCaptureKey struct{}

// onceOnly is an answer that shows something once only (a webhook
// endpoint's signing secret): an Idempotency-Key replay of its request gets
// replayCopy() instead, so that the secret is never stored in the
// replayable record (interface specification, "Idempotency": the replay
// returns the endpoint without its secret).
type onceOnly interface{ replayCopy() any }

// storeForReplay records, for the Idempotency-Key middleware above r, the
// body that replays of r's request answer instead of out when out is
// onceOnly. It encodes as writeJSON does.
func storeForReplay(r *http.Request, out any) {
	o, ok := out.(onceOnly)
	if !ok {
		return
	}
	c, _ := r.Context().Value(replayCaptureKey{}).(*replayCapture)
	if c == nil {
		return
	}
	if b, err := httpx.EncodeJSON(o.replayCopy()); err == nil {
		c.body = b
	}
}

// replayIdempotent writes a stored response.
func replayIdempotent(w http.ResponseWriter, rec *ent.IdempotencyRecord) {
	h := w.Header()
	for k, v := range rec.ResponseHeaders {
		h.Set(k, v)
	}
	h.Set(IdempotencyStatusHeader, "hit")
	status := rec.ResponseStatus
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(rec.ResponseBody)
}

// jobIDOf finds data.job_id or job_id in a JSON body.
func jobIDOf(body []byte) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return ""
	}
	str := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return s
	}
	if raw, ok := top["data"]; ok {
		var data map[string]json.RawMessage
		if json.Unmarshal(raw, &data) == nil {
			if s := str(data["job_id"]); s != "" {
				return s
			}
		}
	}
	return str(top["job_id"])
}

// idempotencyWriter passes a response through to the client and keeps a
// copy of its status, headers and body.
type idempotencyWriter struct {
	http.ResponseWriter
	status  int
	headers map[string]string // replayed headers as sent
	body    bytes.Buffer
}

func (c *idempotencyWriter) WriteHeader(code int) {
	if c.status == 0 && code >= 200 { // 1xx are interim: not the response
		c.status = code
		c.headers = c.snapshot()
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *idempotencyWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	c.body.Write(b)
	return c.ResponseWriter.Write(b)
}

func (c *idempotencyWriter) snapshot() map[string]string {
	m := map[string]string{}
	for _, k := range idempotencyReplayed {
		if v := c.Header().Get(k); v != "" {
			m[k] = v
		}
	}
	return m
}

// finalStatus is the status sent (200 when the handler wrote nothing).
func (c *idempotencyWriter) finalStatus() int {
	if c.status == 0 {
		return http.StatusOK
	}
	return c.status
}

func (c *idempotencyWriter) replayHeaders() map[string]string {
	if c.headers == nil {
		return c.snapshot()
	}
	return c.headers
}

// Unwrap lets http.ResponseController reach the connection.
func (c *idempotencyWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// Flush passes through for streaming responses.
func (c *idempotencyWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
