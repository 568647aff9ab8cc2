package testenv

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/config"
	"github.com/plangraph/plangraph/internal/server"
	"github.com/plangraph/plangraph/jobs"
)

// Server is a running service: API on a TLS port, worker in the process.
type Server struct {
	App    *server.App
	Worker *jobs.Worker
	// URL is the HTTPS base address (https://127.0.0.1:PORT).
	URL string
	// PlainURL is the same port addressed as http://.
	PlainURL string
	// CAFile is the generated CA (DATA/tls/ca.pem) the server's
	// certificate chains to.
	CAFile string
	// Client trusts CAFile.
	Client *http.Client
}

// StartServer opens the service on cfg, starts its worker and serves the
// API on a free port of 127.0.0.1 until t ends.
//
// The port is known only once it is bound, after server.Open, so
// cfg.PublicURL (and the problem type base URL Open derives from it) are
// set once the listener is open. That base URL is process-wide
// (apierr.TypesURL), so servers of one test binary must not run in
// parallel.
func StartServer(t testing.TB, cfg config.Config) *Server {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	cfg.PublicURL = ""
	if err := cfg.Resolve(); err != nil {
		t.Fatalf("testenv: config: %v", err)
	}
	log := Logger(t)

	ctx := context.Background()
	app, err := server.Open(ctx, cfg, log)
	if err != nil {
		t.Fatalf("testenv: open server: %v", err)
	}
	t.Cleanup(app.Close)

	w, err := app.StartWorker()
	if err != nil {
		t.Fatalf("testenv: start worker: %v", err)
	}
	t.Cleanup(w.Shutdown)

	ln, tc, err := app.Listen()
	if err != nil {
		t.Fatalf("testenv: listen: %v", err)
	}
	addr := ln.Addr().String()
	s := &Server{App: app, Worker: w, URL: "https://" + addr, PlainURL: "http://" + addr, CAFile: tc.CAFile}
	app.Cfg.PublicURL = s.URL
	app.Uploads.PublicURL = s.URL
	apierr.TypesURL = s.URL + "/errors"

	if s.CAFile == "" {
		t.Fatalf("testenv: the server did not generate a CA (is TLSCert set?)")
	}
	pem, err := os.ReadFile(s.CAFile)
	if err != nil {
		t.Fatalf("testenv: read CA: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		t.Fatalf("testenv: %s holds no certificate", s.CAFile)
	}
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 16,
	}
	s.Client = &http.Client{Transport: tr, Timeout: 30 * time.Second}

	sctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- app.Serve(sctx, ln) }()
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("testenv: serve: %v", err)
			}
		case <-time.After(cfg.ShutdownTimeout + 10*time.Second):
			t.Errorf("testenv: the server did not shut down")
		}
	})
	return s
}

// Logger writes the service's logs to t's log at PLANGRAPH_TEST_LOG_LEVEL
// (warn when unset), and drops anything logged after t is done.
func Logger(t testing.TB) *slog.Logger {
	var level slog.Level = slog.LevelWarn
	if v := os.Getenv("PLANGRAPH_TEST_LOG_LEVEL"); v != "" {
		_ = level.UnmarshalText([]byte(v))
	}
	w := &testWriter{t: t}
	// registered before the server's cleanups, so it runs after them
	t.Cleanup(func() {
		w.mu.Lock()
		w.done = true
		w.mu.Unlock()
	})
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

type testWriter struct {
	mu   sync.Mutex
	t    testing.TB
	done bool
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// CreateKey makes an API key for the organization named org (created when
// missing) and returns the key.
func (s *Server) CreateKey(t testing.TB, org string) string {
	t.Helper()
	key, _ := s.CreateKeyRecord(t, org)
	return key
}

// CreateKeyRecord is CreateKey that also returns the stored key record
// (whose OrgID is the organization's id).
func (s *Server) CreateKeyRecord(t testing.TB, org string) (string, *ent.APIKey) {
	t.Helper()
	key, rec, err := auth.CreateKey(context.Background(), s.App.Store.Client, org, "test")
	if err != nil {
		t.Fatalf("testenv: create key for %q: %v", org, err)
	}
	return key, rec
}

// Request is one HTTP request to the server.
type Request struct {
	Method string
	// Path is relative to the server's URL, or an absolute URL.
	Path string
	// Key is sent as "Authorization: Bearer KEY" unless empty.
	Key string
	// Body is sent as is when a string or []byte, else JSON-encoded; nil
	// sends no body.
	Body any
	// ContentType defaults to application/json when there is a body.
	ContentType string
	Header      http.Header
}

// Response is a read response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends req with the server's client.
func (s *Server) Do(t testing.TB, req Request) *Response {
	t.Helper()
	return Do(t, s.Client, s.URL, req)
}

// Get is Do for GET path with key.
func (s *Server) Get(t testing.TB, key, path string) *Response {
	t.Helper()
	return s.Do(t, Request{Method: http.MethodGet, Path: path, Key: key})
}

// Send is Do for method path with key and a JSON body.
func (s *Server) Send(t testing.TB, method, key, path string, body any) *Response {
	t.Helper()
	return s.Do(t, Request{Method: method, Path: path, Key: key, Body: body})
}

// Do sends req to base with client and reads the whole response.
func Do(t testing.TB, client *http.Client, base string, req Request) *Response {
	t.Helper()
	var body io.Reader
	switch b := req.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		js, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("testenv: encode body: %v", err)
		}
		body = bytes.NewReader(js)
	}
	u := req.Path
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		u = base + u
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	hr, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatalf("testenv: %s %s: %v", method, u, err)
	}
	for k, vs := range req.Header {
		for _, v := range vs {
			hr.Header.Add(k, v)
		}
	}
	if req.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+req.Key)
	}
	if body != nil {
		ct := req.ContentType
		if ct == "" {
			ct = "application/json"
		}
		hr.Header.Set("Content-Type", ct)
	}
	res, err := client.Do(hr)
	if err != nil {
		t.Fatalf("testenv: %s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("testenv: %s %s: read body: %v", method, u, err)
	}
	return &Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// JSON decodes the body into v, failing t when it is not JSON.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("response %d is not the expected JSON (%v): %s", r.Status, err, r.Body)
	}
}

// Object decodes the body as a JSON object.
func (r *Response) Object(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// ExpectStatus fails t unless the response has status.
func (r *Response) ExpectStatus(t testing.TB, status int) *Response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Body)
	}
	return r
}

// Problem is a Problem Details body.
type Problem struct {
	Type      string              `json:"type"`
	Title     string              `json:"title"`
	Status    int                 `json:"status"`
	Detail    string              `json:"detail"`
	Code      string              `json:"code"`
	RequestID string              `json:"request_id"`
	Instance  string              `json:"instance"`
	Errors    map[string][]string `json:"errors"`
}

// ExpectProblem checks that the response is a complete Problem Details
// body with status and code: Content-Type application/problem+json; type,
// title, status, detail, code, request_id and instance all present;
// request_id a req_ id equal to the X-Request-Id header; type under
// {public_url}/errors/. It returns the problem.
func (r *Response) ExpectProblem(t testing.TB, status int, code string) Problem {
	t.Helper()
	r.ExpectStatus(t, status)
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	raw := r.Object(t)
	for _, k := range []string{"type", "title", "status", "detail", "code", "request_id", "instance"} {
		v, ok := raw[k]
		if !ok || v == nil || v == "" {
			t.Errorf("problem has no %q: %s", k, r.Body)
		}
	}
	var p Problem
	r.JSON(t, &p)
	if p.Status != status {
		t.Errorf("problem status %d, want %d", p.Status, status)
	}
	if p.Code != code {
		t.Errorf("problem code %q, want %q: %s", p.Code, code, r.Body)
	}
	if !strings.HasPrefix(p.RequestID, "req_") {
		t.Errorf("problem request_id %q does not start with req_", p.RequestID)
	}
	if h := r.Header.Get("X-Request-Id"); h != p.RequestID {
		t.Errorf("X-Request-Id %q, problem request_id %q: want equal", h, p.RequestID)
	}
	if !strings.HasPrefix(p.Type, apierr.TypesURL+"/") {
		t.Errorf("problem type %q is not under %s/", p.Type, apierr.TypesURL)
	}
	return p
}

// GraphQLResponse is a GraphQL result.
type GraphQLResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []GraphQLError  `json:"errors"`
}

// GraphQLError is one entry of errors.
type GraphQLError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// GraphQL runs query with vars at /graphql as key; the HTTP status must be 200.
func (s *Server) GraphQL(t testing.TB, key, query string, vars map[string]any) GraphQLResponse {
	t.Helper()
	res := s.Do(t, Request{Method: http.MethodPost, Path: "/graphql", Key: key, Body: map[string]any{"query": query, "variables": vars}})
	res.ExpectStatus(t, http.StatusOK)
	var out GraphQLResponse
	res.JSON(t, &out)
	return out
}

// DataInto decodes data into v, failing t when there were errors.
func (g GraphQLResponse) DataInto(t testing.TB, v any) {
	t.Helper()
	if len(g.Errors) > 0 {
		t.Fatalf("graphql errors: %s", fmt.Sprint(g.Errors))
	}
	if err := json.Unmarshal(g.Data, v); err != nil {
		t.Fatalf("graphql data %s: %v", g.Data, err)
	}
}
