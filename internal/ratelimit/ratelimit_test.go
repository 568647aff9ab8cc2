package ratelimit

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/httpx"
)

// backend is one Redis the tests run against.
type backend struct {
	name string
	// client returns a new client (a new "process") on the backend.
	client func(t *testing.T) redis.UniversalClient
	// prefix is unique to the test, so that runs never share buckets.
	prefix string
	// mini is set for miniredis, whose clock the test controls: frozen,
	// and moved on by tick before each request.
	mini *miniredis.Miniredis
	tick func()
	now  *time.Time
	// local runs the budgets in the process (Config.Local) on the frozen clock
	local bool
}

// limiter makes a limiter of cfg on the backend.
func (b backend) limiter(t *testing.T, cfg Config) *Limiter {
	if b.local {
		cfg.Local, cfg.Clock = true, func() time.Time { return *b.now }
		return New(nil, cfg)
	}
	return New(b.client(t), cfg)
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func redisAddr() string {
	if a := os.Getenv("PLANGRAPH_TEST_REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

// backends returns the real Redis (which must be reachable: the test fails
// otherwise), a miniredis with a frozen clock, and the in-process budgets
// (Config.Local) on a frozen clock of their own.
func backends(t *testing.T) []backend {
	t.Helper()
	addr := redisAddr()
	prefix := "plangraph:test:" + randomHex(6) + ":"
	probe := redis.NewClient(&redis.Options{Addr: addr})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := probe.Ping(ctx).Err(); err != nil {
		probe.Close()
		t.Fatalf("Redis is not reachable at %s (%v): `make test` starts it, or set PLANGRAPH_TEST_REDIS_ADDR", addr, err)
	}
	t.Cleanup(func() {
		defer probe.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		keys, err := probe.Keys(ctx, "rate:"+prefix+"*").Result()
		if err == nil && len(keys) > 0 {
			err = probe.Del(ctx, keys...).Err()
		}
		if err != nil {
			t.Errorf("clean up Redis keys %s*: %v", prefix, err)
		}
	})
	real := backend{name: "redis", prefix: prefix, client: func(t *testing.T) redis.UniversalClient {
		c := redis.NewClient(&redis.Options{Addr: addr})
		t.Cleanup(func() { c.Close() })
		return c
	}}

	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	m.SetTime(now)
	// Each request moves the clock on by 20 µs: GCRA state is stored as
	// seconds with 14 significant digits (10 µs steps), so requests at one
	// frozen instant could land on either side of a budget's boundary.
	// 20 µs per request refills nothing measurable.
	tick := func() {
		now = now.Add(20 * time.Microsecond)
		m.SetTime(now)
	}
	mini := backend{name: "miniredis", prefix: prefix, mini: m, tick: tick, now: &now, client: func(t *testing.T) redis.UniversalClient {
		c := redis.NewClient(&redis.Options{Addr: m.Addr()})
		t.Cleanup(func() { c.Close() })
		return c
	}}
	lnow := now
	local := backend{name: "local", prefix: prefix, local: true, now: &lnow, tick: func() { lnow = lnow.Add(20 * time.Microsecond) }}
	return []backend{real, mini, local}
}

// slow is a budget that does not refill noticeably during a test on a real
// clock: 1 request per minute, bursts of 3.
var slow = Limit{Rate: 1, Burst: 3, Period: time.Minute}

type server struct {
	h     http.Handler
	calls atomic.Int64
	tick  func()
}

func newServer(l *Limiter, b backend) *server {
	s := &server{tick: b.tick}
	s.h = l.Middleware(Classify)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.calls.Add(1)
		httpx.JSON(w, http.StatusOK, map[string]string{"ok": "yes"})
	}))
	return s
}

// do sends method path for principal p (zero: unauthenticated).
func (s *server) do(method, path string, p auth.Principal) *httptest.ResponseRecorder {
	if s.tick != nil {
		s.tick()
	}
	r := httptest.NewRequest(method, path, nil)
	ctx := httpx.WithRequestID(r.Context(), "req_test")
	if p != (auth.Principal{}) {
		ctx = auth.With(ctx, p)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r.WithContext(ctx))
	return w
}

var keyA = auth.Principal{OrgID: "org_a", KeyID: "key_a"}

func header(t *testing.T, w *httptest.ResponseRecorder, name string) int {
	t.Helper()
	v := w.Header().Get(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("header %s = %q, want an integer (headers %v)", name, v, w.Header())
	}
	return n
}

func TestClassify(t *testing.T) {
	cases := []struct {
		method, path, want string
	}{
		{"POST", "/v1/parse", Vision},
		{"POST", "/v1/parse/x", Management},
		{"POST", "/v1/compare", Vision},
		{"POST", "/v1/drawings/drw_1/compare", Vision},
		{"POST", "/v1/sheets/sht_1/compare", Vision},
		{"POST", "/v1/overlays/ovl_1/analyze", Vision},
		{"POST", "/v1/blocks/blk_1/compare", Management},
		{"POST", "/v1/drawings//compare", Management},
		{"GET", "/v1/overlays/ovl_1/analyze", Management},
		{"POST", "/v1/overlays/ovl_1", Management},
		{"GET", "/v1/parse", Management},
		{"POST", "/v1/projects", Management},
		{"POST", "/v1/drawings", Management},
		{"POST", "/v1/projects/prj_1", Management},
		{"POST", "/v1/files", Management},
		{"POST", "/v2/parse", Management},
		{"POST", "/parse", Management},
		{"GET", "/v1/jobs", Management},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.method, c.path, nil)
		if got := Classify(r); got != c.want {
			t.Errorf("Classify(%s %s) = %q, want %q", c.method, c.path, got, c.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	d := Defaults()
	if d.Management != (Limit{Rate: 50, Burst: 100, Period: time.Second}) {
		t.Errorf("management default %+v", d.Management)
	}
	if d.Vision != (Limit{Rate: 5, Burst: 10, Period: time.Second}) {
		t.Errorf("vision default %+v", d.Vision)
	}
	l := New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"}), Config{Vision: Limit{Rate: 7, Burst: 8, Period: time.Minute}})
	got := l.Config()
	if got.Management != d.Management || got.Vision != (Limit{Rate: 7, Burst: 8, Period: time.Minute}) || got.Prefix != DefaultPrefix || got.Timeout <= 0 {
		t.Errorf("New filled the config as %+v", got)
	}
}

// TestHeadersAndLimit: every allowed response carries the RateLimit headers
// counting down; the request after the burst is 429 RATE_LIMITED with a
// Problem Details body and Retry-After, and the handler is not called.
func TestHeadersAndLimit(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			l := b.limiter(t, Config{Management: slow, Vision: slow, Prefix: b.prefix + "headers:"})
			s := newServer(l, b)
			for i := 0; i < slow.Burst; i++ {
				w := s.do("GET", "/v1/projects", keyA)
				if w.Code != http.StatusOK {
					t.Fatalf("request %d: %d %s", i+1, w.Code, w.Body)
				}
				if n := header(t, w, "RateLimit-Limit"); n != slow.Burst {
					t.Errorf("RateLimit-Limit %d, want %d", n, slow.Burst)
				}
				if n := header(t, w, "RateLimit-Remaining"); n != slow.Burst-1-i {
					t.Errorf("request %d: RateLimit-Remaining %d, want %d", i+1, n, slow.Burst-1-i)
				}
				// (i+1) requests used; each takes one minute to pay back
				if n := header(t, w, "RateLimit-Reset"); n < (i+1)*60-1 || n > (i+1)*60+1 {
					t.Errorf("request %d: RateLimit-Reset %d, want about %d", i+1, n, (i+1)*60)
				}
				if p := w.Header().Get("RateLimit-Policy"); p != "3;w=180" {
					t.Errorf("RateLimit-Policy %q, want 3;w=180", p)
				}
			}
			w := s.do("GET", "/v1/projects", keyA)
			if w.Code != http.StatusTooManyRequests {
				t.Fatalf("request after the burst: %d %s, want 429", w.Code, w.Body)
			}
			if s.calls.Load() != int64(slow.Burst) {
				t.Errorf("handler called %d times, want %d", s.calls.Load(), slow.Burst)
			}
			retry := header(t, w, "Retry-After")
			if retry < 59 || retry > 61 {
				t.Errorf("Retry-After %d, want about 60", retry)
			}
			if n := header(t, w, "RateLimit-Remaining"); n != 0 {
				t.Errorf("RateLimit-Remaining %d on 429", n)
			}
			if n := header(t, w, "RateLimit-Limit"); n != slow.Burst {
				t.Errorf("RateLimit-Limit %d on 429", n)
			}
			header(t, w, "RateLimit-Reset")
			if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("Content-Type %q", ct)
			}
			var p apierr.Problem
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
				t.Fatal(err)
			}
			if p.Code != "RATE_LIMITED" || p.Status != 429 || !strings.HasSuffix(p.Type, "/rate-limit") || p.Instance != "/v1/projects" || p.RequestID != "req_test" {
				t.Errorf("problem %+v", p)
			}
			want := "rate limit of 1 request per minute exceeded for this API key; retry after " + strconv.Itoa(retry) + " s"
			if p.Detail != want {
				t.Errorf("detail %q, want %q", p.Detail, want)
			}
		})
	}
}

// TestDefaultBudgets: with the defaults (frozen clock) a key may send 100
// management and, separately, 10 vision requests at once.
func TestDefaultBudgets(t *testing.T) {
	b := backends(t)[1]
	l := New(b.client(t), Config{Prefix: b.prefix + "defaults:"})
	s := newServer(l, b)
	for i := 0; i < 10; i++ {
		if w := s.do("POST", "/v1/parse", keyA); w.Code != 200 {
			t.Fatalf("vision request %d: %d", i+1, w.Code)
		}
	}
	w := s.do("POST", "/v1/parse", keyA)
	if w.Code != 429 {
		t.Fatalf("11th vision request: %d, want 429", w.Code)
	}
	var p apierr.Problem
	_ = json.Unmarshal(w.Body.Bytes(), &p)
	if want := "rate limit of 5 requests per second exceeded for this API key; retry after 1 s"; p.Detail != want {
		t.Errorf("detail %q, want %q", p.Detail, want)
	}
	if w.Header().Get("Retry-After") != "1" || w.Header().Get("RateLimit-Limit") != "10" || w.Header().Get("RateLimit-Policy") != "10;w=2" {
		t.Errorf("headers %v", w.Header())
	}
	for i := 0; i < 100; i++ {
		if w := s.do("GET", "/v1/jobs", keyA); w.Code != 200 {
			t.Fatalf("management request %d: %d", i+1, w.Code)
		}
	}
	if w := s.do("POST", "/v1/projects", keyA); w.Code != 429 {
		t.Fatalf("101st management request: %d, want 429", w.Code)
	}
	// the budget refills at the configured rate
	*b.now = b.now.Add(time.Second)
	b.mini.SetTime(*b.now)
	for i := 0; i < 5; i++ {
		if w := s.do("POST", "/v1/parse", keyA); w.Code != 200 {
			t.Fatalf("vision request %d one second later: %d", i+1, w.Code)
		}
	}
	if w := s.do("POST", "/v1/parse", keyA); w.Code != 429 {
		t.Fatalf("6th vision request one second later: %d, want 429", w.Code)
	}
}

// TestSeparateBudgets: exhausting the vision budget leaves management
// requests alone, and each API key has budgets of its own.
func TestSeparateBudgets(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			l := b.limiter(t, Config{Management: Limit{Rate: 1, Burst: 5, Period: time.Minute}, Vision: slow, Prefix: b.prefix + "classes:"})
			s := newServer(l, b)
			for i := 0; i < slow.Burst; i++ {
				if w := s.do("POST", "/v1/parse", keyA); w.Code != 200 {
					t.Fatalf("vision request %d: %d", i+1, w.Code)
				}
			}
			if w := s.do("POST", "/v1/parse", keyA); w.Code != 429 {
				t.Fatalf("vision request over budget: %d, want 429", w.Code)
			}
			w := s.do("POST", "/v1/projects", keyA)
			if w.Code != 200 {
				t.Fatalf("management request after vision ran out: %d", w.Code)
			}
			if w.Header().Get("RateLimit-Limit") != "5" || w.Header().Get("RateLimit-Remaining") != "4" {
				t.Errorf("management headers %v", w.Header())
			}
			keyB := auth.Principal{OrgID: "org_a", KeyID: "key_b"}
			w = s.do("POST", "/v1/parse", keyB)
			if w.Code != 200 || w.Header().Get("RateLimit-Remaining") != "2" {
				t.Fatalf("another key of the same organization: %d remaining %q", w.Code, w.Header().Get("RateLimit-Remaining"))
			}
			// without a key id the organization's bucket is used
			orgOnly := auth.Principal{OrgID: "org_c"}
			for i := 0; i < slow.Burst; i++ {
				if w := s.do("POST", "/v1/parse", orgOnly); w.Code != 200 {
					t.Fatalf("organization request %d: %d", i+1, w.Code)
				}
			}
			w = s.do("POST", "/v1/parse", orgOnly)
			var p apierr.Problem
			_ = json.Unmarshal(w.Body.Bytes(), &p)
			if w.Code != 429 || !strings.Contains(p.Detail, "for this organization") {
				t.Fatalf("organization over budget: %d %q", w.Code, p.Detail)
			}
		})
	}
}

// TestSharedAcrossProcesses: two limiters on two connections (two api
// processes) draw on one budget.
func TestSharedAcrossProcesses(t *testing.T) {
	for _, b := range backends(t) {
		if b.local {
			continue // budgets in one process are, by design, not shared with another
		}
		t.Run(b.name, func(t *testing.T) {
			cfg := Config{Management: slow, Vision: slow, Prefix: b.prefix + "shared:"}
			s1 := newServer(New(b.client(t), cfg), b)
			s2 := newServer(New(b.client(t), cfg), b)
			want := []struct {
				s         *server
				remaining string
			}{{s1, "2"}, {s2, "1"}, {s1, "0"}}
			for i, step := range want {
				w := step.s.do("POST", "/v1/parse", keyA)
				if w.Code != 200 || w.Header().Get("RateLimit-Remaining") != step.remaining {
					t.Fatalf("request %d: %d remaining %q, want 200 remaining %s", i+1, w.Code, w.Header().Get("RateLimit-Remaining"), step.remaining)
				}
			}
			for _, s := range []*server{s1, s2} {
				if w := s.do("POST", "/v1/parse", keyA); w.Code != 429 {
					t.Fatalf("over the shared budget: %d, want 429", w.Code)
				}
			}
			if s1.calls.Load()+s2.calls.Load() != 3 {
				t.Errorf("handlers called %d times, want 3", s1.calls.Load()+s2.calls.Load())
			}
		})
	}
}

// TestFailOpen: when Redis is down the request goes through and the
// failure is logged.
func TestFailOpen(t *testing.T) {
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1})
	defer c.Close()
	m.Close()
	var logs bytes.Buffer
	l := New(c, Config{Log: slog.New(slog.NewTextHandler(&logs, nil)), Timeout: 200 * time.Millisecond})
	s := newServer(l, backend{})
	start := time.Now()
	for i := 0; i < 3; i++ {
		w := s.do("POST", "/v1/parse", keyA)
		if w.Code != 200 {
			t.Fatalf("request %d with Redis down: %d %s", i+1, w.Code, w.Body)
		}
		if w.Header().Get("RateLimit-Remaining") != "" {
			t.Errorf("RateLimit headers without a budget: %v", w.Header())
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("three requests with Redis down took %v", d)
	}
	if s.calls.Load() != 3 {
		t.Errorf("handler called %d times, want 3", s.calls.Load())
	}
	if !strings.Contains(logs.String(), "rate limit check failed") {
		t.Errorf("the failure was not logged: %q", logs.String())
	}
}
