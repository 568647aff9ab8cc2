package rest

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/idempotencyrecord"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/service"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
)

// ---- databases ------------------------------------------------------------

// idemDB is one database with two API instances on two connection pools:
// two api processes sharing the database.
type idemDB struct {
	name string
	db   *ent.Client // for inspecting records
	apis [2]*API
	logs *lockedBuffer
	log  *slog.Logger
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func idemRandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// idemPostgresAdmin is the maintenance database URL of the test PostgreSQL.
func idemPostgresAdmin() string {
	for _, env := range []string{"PLANGRAPH_TEST_POSTGRES", "PLANGRAPH_TEST_POSTGRES_URL"} {
		if u := os.Getenv(env); u != "" {
			return u
		}
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// idemPostgres creates a database of its own for t and returns its URL; it
// is dropped when t ends. An unreachable PostgreSQL fails the test.
func idemPostgres(t *testing.T) string {
	t.Helper()
	adminURL := idemPostgresAdmin()
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		t.Fatalf("PostgreSQL %s: %v", adminURL, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		admin.Close()
		t.Fatalf("PostgreSQL is not reachable (%v): `make test` starts it, or set PLANGRAPH_TEST_POSTGRES", err)
	}
	name := "plangraph_idem_" + idemRandomHex(6)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(adminURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// idemDBs opens the embedded SQLite and a fresh PostgreSQL database.
func idemDBs(t *testing.T) []*idemDB {
	t.Helper()
	return []*idemDB{
		openIdemDB(t, "sqlite", "", t.TempDir()),
		openIdemDB(t, "postgres", idemPostgres(t), ""),
	}
}

func openIdemDB(t *testing.T, name, databaseURL, dir string) *idemDB {
	t.Helper()
	ctx := context.Background()
	d := &idemDB{name: name, logs: &lockedBuffer{}}
	log := slog.New(slog.NewTextHandler(d.logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	d.log = log
	for i := range d.apis {
		st, err := store.Open(ctx, databaseURL, dir)
		if err != nil {
			t.Fatalf("%s: open: %v", name, err)
		}
		t.Cleanup(func() { st.Close() })
		if i == 0 {
			if err := st.Migrate(ctx); err != nil {
				t.Fatalf("%s: migrate: %v", name, err)
			}
			d.db = st.Client
		}
		d.apis[i] = New(service.New(&base.Deps{DB: st.Client, Log: log}), Options{CursorKey: []byte("0123456789abcdef0123456789abcdef"), Log: log})
	}
	return d
}

// ---- the handler behind the middleware --------------------------------------

// fakeHandler stands for a REST handler: it counts calls, echoes the body
// and answers with the status that status(call) picks.
type fakeHandler struct {
	calls   atomic.Int64
	status  func(call int64) int // nil: 201
	delay   time.Duration
	started chan struct{} // when set, receives one value per call
	panics  atomic.Bool
}

func (f *fakeHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := f.calls.Add(1)
	if f.started != nil {
		f.started <- struct{}{}
	}
	time.Sleep(f.delay)
	if f.panics.Load() {
		panic("handler exploded")
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		httpx.Problem(w, r, apierr.Internalf(err, "read"))
		return
	}
	if len(body) == 0 {
		body = []byte("null")
	}
	status := http.StatusCreated
	if f.status != nil {
		status = f.status(n)
	}
	switch {
	case status == http.StatusAccepted:
		id := fmt.Sprintf("job_%d", n)
		w.Header().Set("Location", "/v1/jobs/"+id)
		httpx.JSON(w, status, map[string]any{"data": map[string]any{"job_id": id, "type": "parse", "status": "queued"}})
	case status == http.StatusBadRequest:
		httpx.Problem(w, r, apierr.Invalid("name", "is required"))
	case status == http.StatusTooManyRequests:
		httpx.Problem(w, r, apierr.New(apierr.RateLimited, "slow down"))
	case status >= 500:
		httpx.Problem(w, r, apierr.New(apierr.Unavailable, "try again"))
	default:
		id := fmt.Sprintf("prj_%d", n)
		w.Header().Set("Location", "/v1/projects/"+id)
		w.Header().Set("X-Not-Replayed", "1")
		httpx.JSON(w, status, map[string]any{"id": id, "call": n, "echo": json.RawMessage(body)})
	}
}

// ---- HTTP -------------------------------------------------------------------

// idemServer serves api.Idempotent(h) over HTTP. Requests act for the
// organization in X-Test-Org (org_a when absent); a panic becomes a 500 as
// the server's middleware does.
func idemServer(t *testing.T, api *API, h http.Handler) string {
	t.Helper()
	wrapped := api.Idempotent(h)
	var seq atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		org := r.Header.Get("X-Test-Org")
		if org == "" {
			org = "org_a"
		}
		ctx := httpx.WithRequestID(r.Context(), fmt.Sprintf("req_%d", seq.Add(1)))
		ctx = auth.With(ctx, auth.Principal{OrgID: org, KeyID: "key_" + org})
		r = r.WithContext(ctx)
		defer func() {
			if p := recover(); p != nil {
				httpx.Problem(w, r, apierr.Internalf(fmt.Errorf("panic: %v", p), "internal error"))
			}
		}()
		wrapped.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

type idemResp struct {
	status  int
	header  http.Header
	body    []byte
	problem apierr.Problem
}

func (r idemResp) String() string { return fmt.Sprintf("%d %v %s", r.status, r.header, r.body) }

type reqOpt func(*http.Request)

func withOrg(org string) reqOpt { return func(r *http.Request) { r.Header.Set("X-Test-Org", org) } }
func withMethod(m string) reqOpt {
	return func(r *http.Request) { r.Method = m }
}
func withContentType(ct string) reqOpt {
	return func(r *http.Request) { r.Header.Set("Content-Type", ct) }
}
func withKeys(keys ...string) reqOpt {
	return func(r *http.Request) { r.Header[IdempotencyKeyHeader] = keys }
}

var idemClient = &http.Client{Timeout: 30 * time.Second}

// send POSTs body to base+path with key ("" for none).
func send(t *testing.T, base, path, key, body string, opts ...reqOpt) idemResp {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set(IdempotencyKeyHeader, key)
	}
	for _, o := range opts {
		o(req)
	}
	res, err := idemClient.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", req.Method, path, err)
		return idemResp{}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Errorf("%s %s: read: %v", req.Method, path, err)
	}
	out := idemResp{status: res.StatusCode, header: res.Header, body: b}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/problem+json") {
		if err := json.Unmarshal(b, &out.problem); err != nil {
			t.Errorf("problem body %q: %v", b, err)
		}
	}
	return out
}

func orgCtx(org string) context.Context {
	return auth.With(context.Background(), auth.Principal{OrgID: org, KeyID: "key_" + org})
}

// record returns org's record for key, or nil.
func (d *idemDB) record(t *testing.T, org, key string) *ent.IdempotencyRecord {
	t.Helper()
	rec, err := d.db.IdempotencyRecord.Query().Where(idempotencyrecord.Key(key)).Only(orgCtx(org))
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func wantStatus(t *testing.T, r idemResp, status int, idem string) {
	t.Helper()
	if r.status != status || r.header.Get(IdempotencyStatusHeader) != idem {
		t.Fatalf("got %d Idempotency-Status %q, want %d %q: %s", r.status, r.header.Get(IdempotencyStatusHeader), status, idem, r)
	}
}

func wantCode(t *testing.T, r idemResp, status int, code string) {
	t.Helper()
	if r.status != status || r.problem.Code != code {
		t.Fatalf("got %d %q, want %d %s: %s", r.status, r.problem.Code, status, code, r)
	}
}

func wantCalls(t *testing.T, h *fakeHandler, n int64) {
	t.Helper()
	if got := h.calls.Load(); got != n {
		t.Fatalf("handler called %d times, want %d", got, n)
	}
}

// wantReplay checks that hit is first replayed: same status, body bytes and
// stored headers.
func wantReplay(t *testing.T, first, hit idemResp) {
	t.Helper()
	wantStatus(t, hit, first.status, "hit")
	if !bytes.Equal(first.body, hit.body) {
		t.Fatalf("replayed body differs:\nfirst  %s\nreplay %s", first.body, hit.body)
	}
	for _, h := range []string{"Content-Type", "Location", "Cache-Control"} {
		if first.header.Get(h) != hit.header.Get(h) {
			t.Errorf("replayed %s %q, first %q", h, hit.header.Get(h), first.header.Get(h))
		}
	}
}

// ---- the tests ---------------------------------------------------------------

// TestIdempotency runs every row of the specification's table, and the key
// rules, on SQLite and on PostgreSQL, each with two API instances ("api
// processes") on separate connection pools.
func TestIdempotency(t *testing.T) {
	for _, d := range idemDBs(t) {
		t.Run(d.name, func(t *testing.T) {
			t.Run("no key passes through", func(t *testing.T) { idemNoKey(t, d) })
			t.Run("key validation", func(t *testing.T) { idemValidation(t, d) })
			t.Run("first request then replay", func(t *testing.T) { idemReplay(t, d) })
			t.Run("job response replayed with its job_id", func(t *testing.T) { idemJob(t, d) })
			t.Run("4xx cached", func(t *testing.T) { idem4xx(t, d) })
			t.Run("5xx releases the key", func(t *testing.T) { idem5xx(t, d) })
			t.Run("panic releases the key", func(t *testing.T) { idemPanic(t, d) })
			t.Run("different request conflicts", func(t *testing.T) { idemConflict(t, d) })
			t.Run("repeat waits for the original", func(t *testing.T) { idemWaits(t, d) })
			t.Run("still processing", func(t *testing.T) { idemInProgress(t, d) })
			t.Run("organizations are separate", func(t *testing.T) { idemOrgs(t, d) })
			t.Run("expired keys are absent", func(t *testing.T) { idemExpiry(t, d) })
			t.Run("abandoned processing record", func(t *testing.T) { idemAbandoned(t, d) })
			t.Run("body errors", func(t *testing.T) { idemBodyErrors(t, d) })
			t.Run("50 concurrent, fast handler", func(t *testing.T) { idemConcurrent(t, d, 100*time.Millisecond) })
			t.Run("50 concurrent, slow handler", func(t *testing.T) { idemConcurrent(t, d, idempotencyWait+700*time.Millisecond) })
			if s := d.logs.String(); strings.Contains(s, "storing the idempotent response failed") || strings.Contains(s, "releasing the idempotency key failed") {
				t.Errorf("the middleware logged failures:\n%s", s)
			}
		})
	}
}

func idemNoKey(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	base := idemServer(t, d.apis[0], h)
	for i := 0; i < 2; i++ {
		r := send(t, base, "/v1/projects", "", `{"name":"a"}`)
		wantStatus(t, r, 201, "")
	}
	wantCalls(t, h, 2)
	// other methods ignore the header
	for i := 0; i < 2; i++ {
		r := send(t, base, "/v1/projects/prj_1", "nokey-get", `{"name":"a"}`, withMethod(http.MethodPatch))
		wantStatus(t, r, 201, "")
	}
	wantCalls(t, h, 4)
	if rec := d.record(t, "org_a", "nokey-get"); rec != nil {
		t.Errorf("a PATCH stored a record: %+v", rec)
	}
}

func idemValidation(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	base := idemServer(t, d.apis[0], h)
	bad := map[string][]string{
		"empty":       {""},
		"too long":    {strings.Repeat("k", 257)},
		"space":       {"has space"},
		"dot":         {"a.b"},
		"slash":       {"a/b"},
		"non-ASCII":   {"ключ"},
		"two headers": {"k1", "k2"},
	}
	for name, keys := range bad {
		r := send(t, base, "/v1/projects", "", `{}`, withKeys(keys...))
		if r.status != 400 || r.problem.Code != "VALIDATION_ERROR" || len(r.problem.Errors["Idempotency-Key"]) == 0 {
			t.Errorf("%s key %q: %s", name, keys, r)
		}
	}
	wantCalls(t, h, 0)
	for _, key := range []string{"k", strings.Repeat("K", 256), "AZaz09-_", "550e8400-e29b-41d4-a716-446655440000"} {
		r := send(t, base, "/v1/projects", key, `{}`)
		wantStatus(t, r, 201, "miss")
	}
	wantCalls(t, h, 4)
}

func idemReplay(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	base := idemServer(t, d.apis[0], h)
	other := idemServer(t, d.apis[1], h)
	body := `{"name":"Tower A","n":1}`
	first := send(t, base, "/v1/projects", "replay-1", body)
	wantStatus(t, first, 201, "miss")
	var got struct {
		Echo json.RawMessage `json:"echo"`
	}
	if err := json.Unmarshal(first.body, &got); err != nil || string(got.Echo) != body {
		t.Fatalf("the handler did not see the request body: %s (%v)", first.body, err)
	}
	for _, b := range []string{base, other, base} {
		hit := send(t, b, "/v1/projects", "replay-1", body)
		wantReplay(t, first, hit)
		if hit.header.Get("X-Not-Replayed") != "" {
			t.Errorf("a header outside the stored set was replayed")
		}
	}
	wantCalls(t, h, 1)
	rec := d.record(t, "org_a", "replay-1")
	if rec == nil || rec.State != idempotencyrecord.StateCompleted || rec.ResponseStatus != 201 || rec.OrgID != "org_a" ||
		rec.Method != "POST" || rec.Path != "/v1/projects" || rec.JobID != "" || rec.ResponseHeaders["Location"] != "/v1/projects/prj_1" {
		t.Fatalf("record %+v", rec)
	}
	if ttl := rec.ExpiresAt.Sub(rec.CreatedAt); ttl < 24*time.Hour-time.Second || ttl > 24*time.Hour+time.Second {
		t.Errorf("record lives %v, want 24h", ttl)
	}
}

func idemJob(t *testing.T, d *idemDB) {
	h := &fakeHandler{status: func(int64) int { return http.StatusAccepted }}
	base := idemServer(t, d.apis[0], h)
	body := `{"features":["symbols"],"sheet_id":"sht_1"}`
	first := send(t, base, "/v1/parse", "job-1", body)
	wantStatus(t, first, 202, "miss")
	hit := send(t, base, "/v1/parse", "job-1", body)
	wantReplay(t, first, hit)
	if !strings.Contains(string(hit.body), `"job_id":"job_1"`) {
		t.Errorf("replay %s does not carry the original job", hit.body)
	}
	wantCalls(t, h, 1)
	if rec := d.record(t, "org_a", "job-1"); rec == nil || rec.JobID != "job_1" {
		t.Fatalf("record %+v, want job_id job_1", rec)
	}
}

func TestJobIDOf(t *testing.T) {
	for body, want := range map[string]string{
		`{"data":{"job_id":"job_1","status":"queued"}}`: "job_1",
		`{"job_id":"job_2"}`:                            "job_2",
		`{"data":{"id":"prj_1"},"job_id":"job_3"}`:      "job_3",
		`{"data":[{"job_id":"job_4"}]}`:                 "",
		`{"data":{"job_id":7}}`:                         "",
		`{"id":"prj_1"}`:                                "",
		`not json`:                                      "",
		``:                                              "",
	} {
		if got := jobIDOf([]byte(body)); got != want {
			t.Errorf("jobIDOf(%s) = %q, want %q", body, got, want)
		}
	}
}

func idem4xx(t *testing.T, d *idemDB) {
	h := &fakeHandler{status: func(int64) int { return http.StatusBadRequest }}
	base := idemServer(t, d.apis[0], h)
	first := send(t, base, "/v1/projects", "bad-1", `{}`)
	wantStatus(t, first, 400, "miss")
	if first.problem.Code != "VALIDATION_ERROR" {
		t.Fatalf("first %s", first)
	}
	for i := 0; i < 2; i++ {
		wantReplay(t, first, send(t, base, "/v1/projects", "bad-1", `{}`))
	}
	wantCalls(t, h, 1)
	if rec := d.record(t, "org_a", "bad-1"); rec == nil || rec.State != idempotencyrecord.StateCompleted || rec.ResponseStatus != 400 {
		t.Fatalf("record %+v", rec)
	}
}

func idem5xx(t *testing.T, d *idemDB) {
	// first call 503, second 201
	h := &fakeHandler{status: func(n int64) int {
		if n == 1 {
			return http.StatusServiceUnavailable
		}
		return http.StatusCreated
	}}
	base := idemServer(t, d.apis[0], h)
	r := send(t, base, "/v1/projects", "fail-1", `{"name":"x"}`)
	wantStatus(t, r, 503, "miss")
	if rec := d.record(t, "org_a", "fail-1"); rec != nil {
		t.Fatalf("the key was kept after a 5xx: %+v", rec)
	}
	second := send(t, base, "/v1/projects", "fail-1", `{"name":"x"}`)
	wantStatus(t, second, 201, "miss")
	wantReplay(t, second, send(t, base, "/v1/projects", "fail-1", `{"name":"x"}`))
	wantCalls(t, h, 2)

	// a 429 from the handler says nothing about the request: released too
	h429 := &fakeHandler{status: func(n int64) int {
		if n == 1 {
			return http.StatusTooManyRequests
		}
		return http.StatusCreated
	}}
	base = idemServer(t, d.apis[0], h429)
	wantStatus(t, send(t, base, "/v1/projects", "busy-1", `{}`), 429, "miss")
	wantStatus(t, send(t, base, "/v1/projects", "busy-1", `{}`), 201, "miss")
	wantCalls(t, h429, 2)
}

func idemPanic(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	h.panics.Store(true)
	base := idemServer(t, d.apis[0], h)
	r := send(t, base, "/v1/projects", "panic-1", `{}`)
	if r.status != 500 {
		t.Fatalf("panic: %s", r)
	}
	if rec := d.record(t, "org_a", "panic-1"); rec != nil {
		t.Fatalf("the key was kept after a panic: %+v", rec)
	}
	h.panics.Store(false)
	wantStatus(t, send(t, base, "/v1/projects", "panic-1", `{}`), 201, "miss")
	wantCalls(t, h, 2)
}

func idemConflict(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	base := idemServer(t, d.apis[0], h)
	wantStatus(t, send(t, base, "/v1/projects", "conflict-1", `{"name":"a"}`), 201, "miss")
	for name, c := range map[string]struct{ path, body string }{
		"other body":             {"/v1/projects", `{"name":"b"}`},
		"same JSON, other bytes": {"/v1/projects", `{ "name":"a"}`},
		"other path":             {"/v1/drawings", `{"name":"a"}`},
	} {
		r := send(t, base, c.path, "conflict-1", c.body)
		if r.status != 409 || r.problem.Code != "IDEMPOTENCY_CONFLICT" || r.header.Get(IdempotencyStatusHeader) != "" {
			t.Errorf("%s: %s", name, r)
		}
	}
	wantCalls(t, h, 1)

	// while the original is still processing: conflict at once, no waiting
	slow := &fakeHandler{delay: 1500 * time.Millisecond, started: make(chan struct{}, 1)}
	base = idemServer(t, d.apis[0], slow)
	done := make(chan idemResp)
	go func() { done <- send(t, base, "/v1/projects", "conflict-2", `{"name":"a"}`) }()
	<-slow.started
	start := time.Now()
	r := send(t, base, "/v1/projects", "conflict-2", `{"name":"b"}`)
	wantCode(t, r, 409, "IDEMPOTENCY_CONFLICT")
	if el := time.Since(start); el > time.Second {
		t.Errorf("the conflict took %v: it waited for the original", el)
	}
	wantStatus(t, <-done, 201, "miss")
	wantCalls(t, slow, 1)
}

func idemWaits(t *testing.T, d *idemDB) {
	h := &fakeHandler{delay: 400 * time.Millisecond, started: make(chan struct{}, 1), status: func(int64) int { return http.StatusAccepted }}
	base := idemServer(t, d.apis[0], h)
	other := idemServer(t, d.apis[1], h)
	done := make(chan idemResp)
	go func() {
		done <- send(t, base, "/v1/compare", "wait-1", `{"old_id":"blk_1","new_id":"blk_2","type":"Block"}`)
	}()
	<-h.started
	hit := send(t, other, "/v1/compare", "wait-1", `{"old_id":"blk_1","new_id":"blk_2","type":"Block"}`)
	first := <-done
	wantStatus(t, first, 202, "miss")
	wantReplay(t, first, hit)
	wantCalls(t, h, 1)
}

func idemInProgress(t *testing.T, d *idemDB) {
	h := &fakeHandler{delay: idempotencyWait + time.Second, started: make(chan struct{}, 1)}
	base := idemServer(t, d.apis[0], h)
	done := make(chan idemResp)
	go func() { done <- send(t, base, "/v1/projects", "busy-2", `{"name":"a"}`) }()
	<-h.started
	start := time.Now()
	r := send(t, base, "/v1/projects", "busy-2", `{"name":"a"}`)
	el := time.Since(start)
	wantCode(t, r, 409, "IDEMPOTENCY_IN_PROGRESS")
	if r.header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", r.header.Get("Retry-After"))
	}
	if el < idempotencyWait-100*time.Millisecond || el > idempotencyWait+time.Second {
		t.Errorf("answered after %v, want after waiting about %v", el, idempotencyWait)
	}
	first := <-done
	wantStatus(t, first, 201, "miss")
	wantReplay(t, first, send(t, base, "/v1/projects", "busy-2", `{"name":"a"}`))
	wantCalls(t, h, 1)
}

func idemOrgs(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	base := idemServer(t, d.apis[0], h)
	a := send(t, base, "/v1/projects", "shared-key", `{"name":"A"}`, withOrg("org_a"))
	b := send(t, base, "/v1/projects", "shared-key", `{"name":"B"}`, withOrg("org_b"))
	wantStatus(t, a, 201, "miss")
	wantStatus(t, b, 201, "miss")
	wantCalls(t, h, 2)
	wantReplay(t, a, send(t, base, "/v1/projects", "shared-key", `{"name":"A"}`, withOrg("org_a")))
	wantReplay(t, b, send(t, base, "/v1/projects", "shared-key", `{"name":"B"}`, withOrg("org_b")))
	// org_a's body under org_b's key is org_b's conflict
	wantCode(t, send(t, base, "/v1/projects", "shared-key", `{"name":"A"}`, withOrg("org_b")), 409, "IDEMPOTENCY_CONFLICT")
	// a third organization starts afresh
	wantStatus(t, send(t, base, "/v1/projects", "shared-key", `{"name":"A"}`, withOrg("org_c")), 201, "miss")
	wantCalls(t, h, 3)
	n, err := d.db.IdempotencyRecord.Query().Where(idempotencyrecord.Key("shared-key")).Count(tenant.System(context.Background()))
	if err != nil || n != 3 {
		t.Fatalf("%d records for the key (%v), want 3", n, err)
	}
	if ra, rb := d.record(t, "org_a", "shared-key"), d.record(t, "org_b", "shared-key"); ra.OrgID != "org_a" || rb.OrgID != "org_b" || ra.ID == rb.ID {
		t.Fatalf("records %+v %+v", ra, rb)
	}
}

func idemExpiry(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	base := idemServer(t, d.apis[0], h)
	wantStatus(t, send(t, base, "/v1/projects", "old-1", `{"name":"a"}`), 201, "miss")
	expire := func() {
		err := d.db.IdempotencyRecord.Update().Where(idempotencyrecord.Key("old-1")).
			SetExpiresAt(time.Now().UTC().Add(-time.Minute)).Exec(orgCtx("org_a"))
		if err != nil {
			t.Fatal(err)
		}
	}
	expire()
	// expired: absent, so another body is a first request, not a conflict
	second := send(t, base, "/v1/projects", "old-1", `{"name":"b"}`)
	wantStatus(t, second, 201, "miss")
	wantCalls(t, h, 2)
	rec := d.record(t, "org_a", "old-1")
	if rec == nil || rec.RequestHash != requestHash("POST", "/v1/projects", []byte(`{"name":"b"}`)) || time.Until(rec.ExpiresAt) < 23*time.Hour {
		t.Fatalf("record after expiry %+v", rec)
	}
	wantReplay(t, second, send(t, base, "/v1/projects", "old-1", `{"name":"b"}`))
	// the same request after expiry runs again too
	expire()
	wantStatus(t, send(t, base, "/v1/projects", "old-1", `{"name":"b"}`), 201, "miss")
	wantCalls(t, h, 3)
}

func idemAbandoned(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	base := idemServer(t, d.apis[0], h)
	body := `{"name":"a"}`
	hash := requestHash("POST", "/v1/projects", []byte(body))
	ctx := orgCtx("org_a")
	// a record whose process died mid-request long ago
	_, err := d.db.IdempotencyRecord.Create().SetKey("dead-1").SetMethod("POST").SetPath("/v1/projects").
		SetRequestHash(hash).SetCreatedAt(time.Now().UTC().Add(-idempotencyStale - time.Minute)).
		SetExpiresAt(time.Now().UTC().Add(time.Hour)).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := send(t, base, "/v1/projects", "dead-1", body)
	wantStatus(t, r, 201, "miss")
	wantCalls(t, h, 1)
	wantReplay(t, r, send(t, base, "/v1/projects", "dead-1", body))
	// but another request under an abandoned key is still a conflict
	_, err = d.db.IdempotencyRecord.Create().SetKey("dead-2").SetMethod("POST").SetPath("/v1/projects").
		SetRequestHash(hash).SetCreatedAt(time.Now().UTC().Add(-idempotencyStale - time.Minute)).
		SetExpiresAt(time.Now().UTC().Add(time.Hour)).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, send(t, base, "/v1/projects", "dead-2", `{"name":"other"}`), 409, "IDEMPOTENCY_CONFLICT")
	wantCalls(t, h, 1)
}

func idemBodyErrors(t *testing.T, d *idemDB) {
	h := &fakeHandler{}
	small := New(service.New(&base.Deps{DB: d.db, Log: d.log}), Options{MaxBodyBytes: 64, Log: d.log})
	base := idemServer(t, small, h)
	r := send(t, base, "/v1/projects", "big-1", `{"name":"`+strings.Repeat("x", 100)+`"}`)
	wantCode(t, r, 413, "PAYLOAD_TOO_LARGE")
	r = send(t, base, "/v1/projects", "xml-1", `<name/>`, withContentType("application/xml"))
	wantCode(t, r, 415, "UNSUPPORTED_MEDIA_TYPE")
	wantCalls(t, h, 0)
	if d.record(t, "org_a", "big-1") != nil || d.record(t, "org_a", "xml-1") != nil {
		t.Fatal("a rejected body stored a record")
	}
	// a POST without a body is fine
	wantStatus(t, send(t, base, "/v1/jobs/job_1/cancel", "empty-1", "", withContentType("")), 201, "miss")

	// no organization in the context (authentication did not run): refuse
	w := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/projects", strings.NewReader(`{}`))
	req.Header.Set(IdempotencyKeyHeader, "noorg-1")
	d.apis[0].Idempotent(h).ServeHTTP(w, req)
	if w.Code != 500 {
		t.Fatalf("no organization: %d %s", w.Code, w.Body)
	}
	wantCalls(t, h, 1)
}

// idemConcurrent sends 50 requests with one key at once, alternating
// between the two API instances: the handler runs once and every answer is
// the original response (the miss, or replays of it) or 409
// IDEMPOTENCY_IN_PROGRESS.
func idemConcurrent(t *testing.T, d *idemDB, delay time.Duration) {
	h := &fakeHandler{delay: delay, status: func(int64) int { return http.StatusAccepted }}
	bases := []string{idemServer(t, d.apis[0], h), idemServer(t, d.apis[1], h)}
	key := "race-" + idemRandomHex(4)
	body := `{"compare_to":"drw_2"}`
	const n = 50
	out := make([]idemResp, n)
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-gate
			out[i] = send(t, bases[i%2], "/v1/drawings/drw_1/compare", key, body)
		}(i)
	}
	close(gate)
	wg.Wait()
	wantCalls(t, h, 1)
	var miss *idemResp
	for i := range out {
		if out[i].header.Get(IdempotencyStatusHeader) == "miss" {
			if miss != nil {
				t.Fatalf("two misses:\n%s\n%s", miss, out[i])
			}
			miss = &out[i]
		}
	}
	if miss == nil || miss.status != 202 {
		t.Fatalf("no 202 miss among the answers: %v", out)
	}
	hits, busy := 0, 0
	for i, r := range out {
		switch {
		case &out[i] == miss:
		case r.status == 202 && r.header.Get(IdempotencyStatusHeader) == "hit" && bytes.Equal(r.body, miss.body):
			hits++
		case r.status == 409 && r.problem.Code == "IDEMPOTENCY_IN_PROGRESS" && r.header.Get("Retry-After") == "1":
			busy++
		default:
			t.Errorf("answer %d is neither the original response nor 409 IDEMPOTENCY_IN_PROGRESS: %s", i, r)
		}
	}
	t.Logf("%s: 1 miss, %d replays, %d in progress", d.name, hits, busy)
	if delay < idempotencyWait/2 && busy > 0 {
		t.Errorf("%d answers were 409 though the handler took only %v", busy, delay)
	}
	if rec := d.record(t, "org_a", key); rec == nil || rec.State != idempotencyrecord.StateCompleted || rec.JobID != "job_1" {
		t.Fatalf("record %+v", rec)
	}
}
