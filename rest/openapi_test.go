package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	verrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/events/webhooks"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/ratelimit"
	"github.com/plangraph/plangraph/internal/service"
	"github.com/plangraph/plangraph/internal/service/base"
	listing "github.com/plangraph/plangraph/internal/service/query"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/tilepack"
	"github.com/plangraph/plangraph/internal/uploads"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/vision/geom"
)

func openAPIDoc(t *testing.T) (libopenapi.Document, []byte) {
	t.Helper()
	b, err := OpenAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := libopenapi.NewDocument(b)
	if err != nil {
		t.Fatalf("libopenapi: %v", err)
	}
	return doc, b
}

func TestOpenAPIDocumentIsValid31(t *testing.T) {
	doc, raw := openAPIDoc(t)
	if v := doc.GetVersion(); v != "3.1.0" {
		t.Fatalf("version %q, want 3.1.0", v)
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		t.Fatalf("building the model: %v", err)
	}
	if m.Index != nil {
		for _, e := range m.Index.GetReferenceIndexErrors() {
			t.Errorf("reference: %v", e)
		}
		for _, c := range m.Index.GetCircularReferences() {
			if c.IsInfiniteLoop {
				t.Errorf("infinite circular reference: %s", c.GenerateJourneyPath())
			}
		}
	}
	v, errs := validator.NewValidator(doc)
	if errs != nil {
		t.Fatalf("validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("%s", describe(e))
		}
	}

	// every response names its headers and nullable fields use type arrays
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), `"nullable"`) {
		t.Error(`the 3.0 keyword "nullable" is used; 3.1 documents put "null" in the type array`)
	}
	file := d["components"].(map[string]any)["schemas"].(map[string]any)["File"].(map[string]any)
	sha := file["properties"].(map[string]any)["sha256"].(map[string]any)
	if !reflectEqual(sha["type"], []any{"string", "null"}) {
		t.Errorf("File.sha256 type %v, want [string null]", sha["type"])
	}
	for path, item := range d["paths"].(map[string]any) {
		for method, o := range item.(map[string]any) {
			responses := o.(map[string]any)["responses"].(map[string]any)
			for status, r := range responses {
				r := r.(map[string]any)
				if ref, ok := r["$ref"].(string); ok {
					r = d["components"].(map[string]any)["responses"].(map[string]any)[strings.TrimPrefix(ref, "#/components/responses/")].(map[string]any)
				}
				h, _ := r["headers"].(map[string]any)
				for _, want := range []string{"X-Request-Id", "X-API-Version"} {
					if h[want] == nil {
						t.Errorf("%s %s %s: no %s header", method, path, status, want)
					}
				}
				if method == "post" && h["Idempotency-Status"] == nil {
					t.Errorf("%s %s %s: no Idempotency-Status header", method, path, status)
				}
				if status == "429" && h["Retry-After"] == nil {
					t.Errorf("%s %s: 429 without Retry-After", method, path)
				}
			}
		}
	}
}

func reflectEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func describe(e *verrors.ValidationError) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s", e.Message, e.Reason)
	for _, s := range e.SchemaValidationErrors {
		fmt.Fprintf(&sb, "\n    %s at %s (%s)", s.Reason, s.FieldPath, s.KeywordLocation)
	}
	return sb.String()
}

// routeRE matches a net/http route pattern with a method.
var routeRE = regexp.MustCompile(`^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (/\S*)$`)

// tableRoutes are the route patterns of the route table, the one list
// the muxes are given and the document is rendered from.
func tableRoutes(t *testing.T) (routes []string) {
	t.Helper()
	for _, o := range routeTable() {
		s := o.route()
		if !routeRE.MatchString(s) {
			t.Errorf("route %q has no method", s)
			continue
		}
		routes = append(routes, s)
	}
	sort.Strings(routes)
	if n := len(routes); n != len(slices.Compact(slices.Clone(routes))) {
		t.Errorf("the route table has a route twice: %v", routes)
	}
	return slices.Compact(routes)
}

// docOperations are "METHOD path" of every operation of the document.
func docOperations(t *testing.T, raw []byte) map[string]map[string]any {
	t.Helper()
	var d struct {
		Paths map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for path, item := range d.Paths {
		for method, o := range item {
			out[strings.ToUpper(method)+" "+path] = o
		}
	}
	return out
}

var templateParam = regexp.MustCompile(`\{([^}]+)\}`)

func TestOpenAPICoversEveryRoute(t *testing.T) {
	_, raw := openAPIDoc(t)
	ops := docOperations(t, raw)
	routes := tableRoutes(t)
	if len(routes) < 20 {
		t.Fatalf("found only %d routes in the table: %v", len(routes), routes)
	}

	// a mux with every route of the code (and the document's own, which
	// the server registers outside authentication) that tells which
	// pattern a request reaches, with net/http's own matching
	code := append(slices.Clone(routes), OpenAPIPattern)
	slices.Sort(code)
	code = slices.Compact(code)
	rec := http.NewServeMux()
	for _, rt := range code {
		rec.Handle(rt, http.NotFoundHandler())
	}
	reached := map[string]bool{}
	for o := range ops {
		m := routeRE.FindStringSubmatch(o)
		// a sample URL: each path parameter stands for itself
		sample := templateParam.ReplaceAllString(m[2], "$1")
		_, pattern := rec.Handler(httptest.NewRequest(m[1], sample, nil))
		if pattern == "" || !strings.HasPrefix(pattern, m[1]+" ") {
			t.Errorf("the OpenAPI document has %s, which no code registers", o)
			continue
		}
		if reached[pattern] {
			t.Errorf("route %s is documented twice", pattern)
		}
		reached[pattern] = true
	}
	for _, rt := range code {
		if !reached[rt] {
			t.Errorf("route %s is not in the OpenAPI document", rt)
		}
	}

	// the routes New registers are on the API's mux with these patterns
	a := New(service.New(&base.Deps{}), Options{CursorKey: []byte("k")})
	for _, rt := range []string{"GET /v1/projects", "POST /v1/files/{id}/confirm", "DELETE /v1/drawings/{id}", "GET /v1/jobs/{id}"} {
		m := routeRE.FindStringSubmatch(rt)
		if _, pattern := a.mux.Handler(httptest.NewRequest(m[1], templateParam.ReplaceAllString(m[2], "$1"), nil)); pattern != rt {
			t.Errorf("%s is served by %q", rt, pattern)
		}
	}
	// every route of the table is on the mux its group says, with its
	// pattern, and the rate limiter classes it as the table does
	a.SheetImages(nil)
	outer := http.NewServeMux()
	a.Uploads(outer, nil)
	for _, o := range routeTable() {
		sample := httptest.NewRequest(o.method, templateParam.ReplaceAllString(o.path, "$1"), nil)
		var pattern string
		switch o.group {
		case groupAPI, groupImages:
			_, pattern = a.mux.Handler(sample)
		case groupSigned:
			_, pattern = outer.Handler(sample)
		case groupPublic:
			pattern = OpenAPIPattern // the server registers it
		}
		if pattern != o.route() {
			t.Errorf("%s is served by %q", o.route(), pattern)
		}
		if got := ratelimit.Classify(sample); got != o.rateClass() {
			t.Errorf("%s: the rate limiter's class is %q, the table's %q", o.route(), got, o.rateClass())
		}
	}

	// list filters: the document's query parameters are the collection's
	// filters, plus paging, dates, expand
	if len(listing.Lists) != len(listResources) {
		t.Errorf("the query service has %d lists, the document %d", len(listing.Lists), len(listResources))
	}
	for _, l := range listing.Lists {
		spec := l.Spec()
		list := spec.Name
		o := ops["GET /v1/"+list]
		if o == nil {
			t.Errorf("no list operation for %s", list)
			continue
		}
		got, required := docQueryParams(t, raw, o)
		want := map[string]bool{"limit": true, "cursor": true}
		for name := range listing.CommonFilters {
			want[name] = true
		}
		for _, f := range spec.Filters {
			want[f] = true
		}
		if len(listing.Expandable[list]) > 0 {
			want["expand"] = true
		}
		if !reflectEqual(sortedKeys(got), sortedKeys(want)) {
			t.Errorf("GET /v1/%s documents %v, the code accepts %v", list, sortedKeys(got), sortedKeys(want))
		}
		slices.Sort(spec.Required)
		if !reflectEqual(required, spec.Required) && !(len(required) == 0 && len(spec.Required) == 0) {
			t.Errorf("GET /v1/%s documents required %v, the code requires %v", list, required, spec.Required)
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// docQueryParams resolves an operation's query parameters.
func docQueryParams(t *testing.T, raw []byte, o map[string]any) (names map[string]bool, required []string) {
	t.Helper()
	var d struct {
		Components struct {
			Parameters map[string]map[string]any `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	names = map[string]bool{}
	params, _ := o["parameters"].([]any)
	for _, p := range params {
		p := p.(map[string]any)
		if ref, ok := p["$ref"].(string); ok {
			p = d.Components.Parameters[strings.TrimPrefix(ref, "#/components/parameters/")]
		}
		if p["in"] != "query" {
			continue
		}
		names[p["name"].(string)] = true
		if p["required"] == true {
			required = append(required, p["name"].(string))
		}
	}
	sort.Strings(required)
	return names, required
}

// ---- real responses ----

type apiEnv struct {
	t   *testing.T
	h   http.Handler
	db  *ent.Client
	ctx context.Context // the test organization
	v   validator.Validator
	// loose validates GET /v1/openapi.json, whose body is a whole document
	loose  validator.Validator
	last   *http.Response // of the latest do
	bucket *blob.Bucket
}

const testOrg = "org_test"

func newAPIEnv(t *testing.T) *apiEnv {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	rdb, err := jobs.OpenRedis(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rdb.Close)
	queue := jobs.NewQueue(rdb)
	t.Cleanup(func() { _ = queue.Close() })
	bucket, err := blobs.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bucket.Close() })
	if _, err := st.Client.Organization.Create().SetID(testOrg).SetName("Test org").Save(tenant.System(ctx)); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	up := &uploads.Service{DB: st.Client, Bucket: bucket, Key: []byte("upload-key-for-tests"), PublicURL: "https://api.test",
		UploadTTL: time.Minute, MaxSize: 1 << 20}
	hooks, err := webhooks.New(st.Client, queue, rdb.Client, log, webhooks.Options{})
	if err != nil {
		t.Fatal(err)
	}
	api := New(service.New(&base.Deps{DB: st.Client, Log: log, Uploads: up, Queue: queue, Blobs: bucket, Webhooks: hooks}),
		Options{CursorKey: []byte("cursor-key-for-tests"), Log: log})

	// the routes as the server lays them out: /v1 behind authentication,
	// the signed URLs and this document without
	mux := http.NewServeMux()
	mux.Handle("/v1/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer sk_") {
			w.Header().Set("WWW-Authenticate", `Bearer realm="plangraph"`)
			httpx.Problem(w, r, errUnauthorized)
			return
		}
		api.ServeHTTP(w, r.WithContext(auth.With(r.Context(), auth.Principal{OrgID: testOrg, KeyID: "key_test"})))
	}))
	api.SheetImages(bucket)
	mux.HandleFunc(OpenAPIPattern, api.OpenAPI)
	api.Uploads(mux, up)
	// and what the server's middleware adds to every response
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rid := httpx.NewRequestID()
		w.Header().Set("X-Request-Id", rid)
		w.Header().Set("X-API-Version", openAPIVersion)
		mux.ServeHTTP(w, r.WithContext(httpx.WithRequestID(r.Context(), rid)))
	})

	// strict: a property or header the document does not declare is an
	// error, except inside the free-form maps (validation messages by
	// field, job results) and the OpenAPI document itself
	doc, _ := openAPIDoc(t)
	v, errs := validator.NewValidator(doc, config.WithStrictMode(), config.WithFormatAssertions(),
		config.WithStrictIgnorePaths("$.body.errors.*", "$.body.results.**", "$.body.**.results.**"))
	if errs != nil {
		t.Fatal(errs)
	}
	loose, errs := validator.NewValidator(doc, config.WithFormatAssertions())
	if errs != nil {
		t.Fatal(errs)
	}
	return &apiEnv{t: t, h: h, db: st.Client, v: v, loose: loose, bucket: bucket,
		ctx: auth.With(ctx, auth.Principal{OrgID: testOrg, KeyID: "key_test"})}
}

var errUnauthorized = apierr.New(apierr.Unauthorized, "a valid API key is required")

type req struct {
	method, target string
	body           any // []byte, string, or a value sent as JSON
	header         map[string]string
	noAuth         bool
}

func (r req) bytes(t *testing.T) ([]byte, string) {
	switch b := r.body.(type) {
	case nil:
		return nil, ""
	case []byte:
		return b, ""
	case string:
		return []byte(b), "application/json"
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		return j, "application/json"
	}
}

func (e *apiEnv) request(r req) *http.Request {
	body, ctype := r.bytes(e.t)
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	hr := httptest.NewRequest(r.method, "https://api.test"+r.target, rd)
	if ctype != "" {
		hr.Header.Set("Content-Type", ctype)
	}
	if !r.noAuth && strings.HasPrefix(r.target, "/v1/") {
		hr.Header.Set("Authorization", "Bearer sk_testtesttesttesttesttesttesttesttesttesttest")
	}
	for k, v := range r.header {
		if v == "" {
			hr.Header.Del(k)
		} else {
			hr.Header.Set(k, v)
		}
	}
	return hr
}

func (e *apiEnv) serve(r req) (*http.Response, []byte) {
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, e.request(r))
	resp := rec.Result()
	b, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, b
}

// do sends r, checks the status, and validates the request and the
// response against the document.
func (e *apiEnv) do(r req, want int) map[string]any {
	e.t.Helper()
	resp, b := e.serve(r)
	if resp.StatusCode != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", r.method, r.target, resp.StatusCode, want, b)
	}
	e.last = resp
	v := e.v
	if r.target == "/v1/openapi.json" {
		v = e.loose
	}
	if ok, errs := v.ValidateHttpRequestResponse(e.request(r), resp); !ok {
		for _, err := range errs {
			e.t.Errorf("%s %s → %d: %s\n  body: %.300s", r.method, r.target, resp.StatusCode, describe(err), b)
		}
	}
	return decodeObject(e.t, resp, b)
}

// doInvalid sends a request the document does not allow: the validator
// must say so, the server must refuse it with want, and the response must
// match the document.
func (e *apiEnv) doInvalid(r req, want int) map[string]any {
	e.t.Helper()
	if ok, _ := e.v.ValidateHttpRequest(e.request(r)); ok {
		e.t.Errorf("%s %s: the document allows this request", r.method, r.target)
	}
	resp, b := e.serve(r)
	if resp.StatusCode != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", r.method, r.target, resp.StatusCode, want, b)
	}
	if ok, errs := e.v.ValidateHttpResponse(e.request(r), resp); !ok {
		for _, err := range errs {
			e.t.Errorf("%s %s → %d: %s\n  body: %.300s", r.method, r.target, resp.StatusCode, describe(err), b)
		}
	}
	return decodeObject(e.t, resp, b)
}

func decodeObject(t *testing.T, resp *http.Response, b []byte) map[string]any {
	t.Helper()
	if !strings.Contains(resp.Header.Get("Content-Type"), "json") || len(b) == 0 {
		return nil
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("response is not a JSON object: %v: %s", err, b)
	}
	return out
}

func field(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

func sfield(t *testing.T, m map[string]any, path ...string) string {
	t.Helper()
	s, ok := field(m, path...).(string)
	if !ok {
		t.Fatalf("no string at %v in %v", path, m)
	}
	return s
}

// pathAndQuery strips the scheme and host of a signed URL.
func pathAndQuery(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

func TestOpenAPIMatchesRealResponses(t *testing.T) {
	e := newAPIEnv(t)
	pdf := []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

	// the document itself, without an API key
	e.do(req{method: "GET", target: "/v1/openapi.json"}, 200)

	// projects
	p := e.do(req{method: "POST", target: "/v1/projects", body: map[string]any{"name": "Tower A"}}, 201)
	pid := sfield(t, p, "id")
	e.do(req{method: "POST", target: "/v1/projects", body: map[string]any{"name": "Tower B"},
		header: map[string]string{"Idempotency-Key": "create-tower-b"}}, 201)
	if s := e.last.Header.Get("Idempotency-Status"); s != "miss" {
		t.Errorf("first use of a key: Idempotency-Status %q", s)
	}
	e.do(req{method: "POST", target: "/v1/projects", body: map[string]any{"name": "Tower B"},
		header: map[string]string{"Idempotency-Key": "create-tower-b"}}, 201)
	if s := e.last.Header.Get("Idempotency-Status"); s != "hit" {
		t.Errorf("repeat of a key: Idempotency-Status %q", s)
	}
	e.do(req{method: "POST", target: "/v1/projects", body: map[string]any{"name": "Tower C"},
		header: map[string]string{"Idempotency-Key": "create-tower-b"}}, 409)
	spare := e.do(req{method: "POST", target: "/v1/projects", body: map[string]any{"name": "Spare"}}, 201)
	e.do(req{method: "GET", target: "/v1/projects/" + pid}, 200)
	e.do(req{method: "PATCH", target: "/v1/projects/" + pid, body: map[string]any{"name": "Tower A (rev)"}}, 200)
	page := e.do(req{method: "GET", target: "/v1/projects?limit=1"}, 200)
	next := sfield(t, page, "_meta", "next")
	page = e.do(req{method: "GET", target: "/v1/projects?cursor=" + url.QueryEscape(next)}, 200)
	if field(page, "_meta", "prev") == nil {
		t.Error("second page has no prev cursor")
	}
	e.do(req{method: "GET", target: "/v1/projects?created_after=2020-01-01T00:00:00Z&created_before=2999-01-01T00:00:00Z&limit=500"}, 200)
	e.do(req{method: "DELETE", target: "/v1/projects/" + sfield(t, spare, "id")}, 204)

	// a file: create the upload, PUT the bytes, confirm, read
	up := e.do(req{method: "POST", target: "/v1/files",
		body: map[string]any{"project_id": pid, "filename": "set.pdf", "content_type": "application/pdf", "size": len(pdf)}}, 201)
	fid := sfield(t, up, "id")
	e.do(req{method: "GET", target: "/v1/files/" + fid}, 200)
	uploadURL := pathAndQuery(t, sfield(t, up, "upload_url"))
	e.do(req{method: "PUT", target: uploadURL, body: pdf, header: map[string]string{"Content-Type": "application/pdf"}}, 200)
	e.do(req{method: "POST", target: "/v1/files/" + fid + "/confirm"}, 200)
	f := e.do(req{method: "POST", target: "/v1/files/" + fid + "/confirm", body: map[string]any{}}, 200)
	e.do(req{method: "GET", target: pathAndQuery(t, sfield(t, f, "download_url"))}, 200)
	f = e.do(req{method: "GET", target: "/v1/files/" + fid}, 200)
	if field(f, "download_url") == nil || field(f, "sha256") == nil {
		t.Errorf("a ready file has no download_url or sha256: %v", f)
	}
	e.do(req{method: "GET", target: "/v1/files?project_id=" + pid + "&content_type=application/pdf"}, 200)

	// a drawing (202, queued job), lists with expand
	d := e.do(req{method: "POST", target: "/v1/drawings", body: map[string]any{"project_id": pid, "file_id": fid, "name": "Set 1"},
		header: map[string]string{"Idempotency-Key": "drawing-1"}}, 202)
	did := sfield(t, d, "data", "drawing", "id")
	if s := sfield(t, d, "data", "status"); s != "PENDING" {
		t.Errorf("202 status %q, want PENDING", s)
	}
	again := e.do(req{method: "POST", target: "/v1/drawings", body: map[string]any{"project_id": pid, "file_id": fid, "name": "Set 1"},
		header: map[string]string{"Idempotency-Key": "drawing-1"}}, 202)
	if e.last.Header.Get("Idempotency-Status") != "hit" || field(again, "data", "job_id") != field(d, "data", "job_id") {
		t.Errorf("repeated POST /v1/drawings: %v %v", e.last.Header, again)
	}
	d2 := e.do(req{method: "POST", target: "/v1/drawings", body: map[string]any{"project_id": pid, "file_id": fid}}, 202)
	list := e.do(req{method: "GET", target: "/v1/drawings?project_id=" + pid + "&expand=file"}, 200)
	if field(list["data"].([]any)[0].(map[string]any), "file") == nil {
		t.Error("expand=file did not expand")
	}
	e.do(req{method: "GET", target: "/v1/drawings?project_id=" + pid + "&name=set"}, 200)
	e.do(req{method: "GET", target: "/v1/drawings/" + did + "?expand=file"}, 200)
	e.do(req{method: "PATCH", target: "/v1/drawings/" + did, body: map[string]any{"name": "Set 1 (issued)"}}, 200)
	e.do(req{method: "DELETE", target: "/v1/drawings/" + sfield(t, d2, "data", "drawing", "id")}, 204)

	// rows the pipeline would make: sheet, blocks, jobs, overlay
	ctx := e.ctx
	sh, err := e.db.Sheet.Create().SetProjectID(pid).SetDrawingID(did).SetPageNumber(1).SetSheetNumber("A-101").
		SetTitle("First floor plan").SetDiscipline("architectural").SetWidth(10800).SetHeight(7200).SetURI("sheets/a101.png").Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mkBlock := func(typ block.Type) *ent.Block {
		b, err := e.db.Block.Create().SetProjectID(pid).SetSheetID(sh.ID).SetType(typ).SetTitle("Level 1").
			SetBounds(geom.Box{XMin: 10, YMin: 20, XMax: 3010, YMax: 2020}).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ba, bb := mkBlock(block.TypePlan), mkBlock(block.TypeLegend)
	now := time.Now().UTC()
	parent, err := e.db.Job.Create().SetType("compare").SetProjectID(pid).SetStatus(job.StatusCompleted).
		SetTargetType(job.TargetTypeDrawing).SetTargetID(did).SetProgress(1).SetResult(json.RawMessage(`{"overlays":1}`)).
		SetStartedAt(now).SetCompletedAt(now).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ov, err := e.db.Overlay.Create().SetProjectID(pid).SetBlockAID(ba.ID).SetBlockBID(bb.ID).SetJobID(parent.ID).
		SetScore(0.93).SetURI("overlays/1.png").Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.Job.Create().SetType("overlay.generate").SetProjectID(pid).SetStatus(job.StatusFailed).
		SetTargetType(job.TargetTypeOverlay).SetTargetID(ov.ID).SetParentID(parent.ID).
		SetError(&jobstatus.Error{Code: "ALIGNMENT_FAILED", Message: "the blocks could not be aligned"}).SetStartedAt(now).Save(ctx); err != nil {
		t.Fatal(err)
	}

	// the sheet's images, as the drawing pipeline stores them
	png := []byte("\x89PNG\r\n\x1a\n")
	pack, err := tilepack.Create(ctx, e.bucket, blobs.TilePack(blobs.SheetKey(testOrg, did, 1)))
	if err != nil || pack.Put("0/0_0.png", png) != nil || pack.Close(ctx) != nil {
		t.Fatalf("tile pack: %v", err)
	}
	// a tile of a sheet stored before packs, one object per tile
	for suffix, data := range map[string][]byte{".png": png, "-thumb.png": png, "_files/1/0_0.png": png,
		".dzi": []byte(`<?xml version="1.0"?><Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="png" Overlap="0" TileSize="256"><Size Width="10800" Height="7200"/></Image>`)} {
		if err := e.bucket.WriteAll(ctx, blobs.SheetKey(testOrg, did, 1)+suffix, data, nil); err != nil {
			t.Fatal(err)
		}
	}
	e.do(req{method: "GET", target: "/v1/sheets/" + sh.ID + "/image"}, 200)
	e.do(req{method: "GET", target: "/v1/sheets/" + sh.ID + "/image?variant=thumbnail"}, 200)
	e.do(req{method: "GET", target: "/v1/sheets/" + sh.ID + "/tiles.dzi"}, 200)
	e.do(req{method: "GET", target: "/v1/sheets/" + sh.ID + "/tiles_files/0/0_0.png"}, 200)
	e.do(req{method: "GET", target: "/v1/sheets/" + sh.ID + "/tiles_files/1/0_0.png"}, 200)
	e.do(req{method: "GET", target: "/v1/sheets/" + sh.ID + "/tiles_files/0/7_7.png"}, 404)
	e.doInvalid(req{method: "GET", target: "/v1/sheets/" + sh.ID + "/image?variant=huge"}, 400)

	e.do(req{method: "GET", target: "/v1/sheets?drawing_id=" + did + "&expand=drawing"}, 200)
	e.do(req{method: "GET", target: "/v1/sheets?project_id=" + pid + "&discipline=architectural&sheet_number=A-101"}, 200)
	e.do(req{method: "GET", target: "/v1/sheets/" + sh.ID + "?expand=drawing"}, 200)
	e.do(req{method: "PATCH", target: "/v1/sheets/" + sh.ID, body: map[string]any{"sheet_number": "A-102", "title": "Second floor", "discipline": "architectural"}}, 200)
	e.do(req{method: "GET", target: "/v1/blocks?sheet_id=" + sh.ID + "&expand=sheet.drawing"}, 200)
	e.do(req{method: "GET", target: "/v1/blocks?type=Plan&expand=sheet"}, 200)
	e.do(req{method: "GET", target: "/v1/blocks/" + ba.ID + "?expand=sheet"}, 200)
	ovs := e.do(req{method: "GET", target: "/v1/overlays?project_id=" + pid + "&has_changes=false&expand=" +
		url.QueryEscape("block_a.sheet.drawing,block_b,job")}, 200)
	if field(ovs["data"].([]any)[0].(map[string]any), "block_a", "sheet", "drawing") == nil {
		t.Error("expand=block_a.sheet.drawing did not expand")
	}
	e.do(req{method: "GET", target: "/v1/overlays?drawing_id=" + did + "&job_id=" + parent.ID}, 200)
	e.do(req{method: "GET", target: "/v1/overlays/" + ov.ID + "?expand=block_a,block_b.sheet,job"}, 200)
	jl := e.do(req{method: "GET", target: "/v1/jobs?project_id=" + pid + "&expand=parent"}, 200)
	if len(jl["data"].([]any)) < 3 {
		t.Errorf("jobs list: %v", jl)
	}
	e.do(req{method: "GET", target: "/v1/jobs?status=Completed&type=compare&target_type=drawing&target_id=" + did}, 200)
	e.do(req{method: "GET", target: "/v1/jobs?parent_id=" + parent.ID + "&expand=parent"}, 200)
	e.do(req{method: "GET", target: "/v1/jobs/" + parent.ID}, 200)

	// parse: queued (no worker runs here), and refused
	if err := e.db.Drawing.UpdateOneID(did).SetStatus(drawing.StatusReady).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	pj := e.do(req{method: "POST", target: "/v1/parse", body: map[string]any{"features": []string{"symbols"}, "sheet_id": sh.ID,
		"options": map[string]any{"symbols": map[string]any{"count": true}, "mep": map[string]any{"systems": []string{"plumbing"}, "measure": true},
			"dimensions": map[string]any{"units": "metric"}, "annotations": map[string]any{"types": []string{"cloud"}}, "text": map[string]any{"regions": []string{"notes"}}}},
		header: map[string]string{"Idempotency-Key": "parse-1"}}, 202)
	if sfield(t, pj, "data", "type") != "parse" || sfield(t, pj, "data", "status") != "PENDING" {
		t.Errorf("parse 202: %v", pj)
	}
	e.do(req{method: "POST", target: "/v1/parse", body: map[string]any{"features": []string{"symbols"}, "block_id": ba.ID,
		"options": map[string]any{"symbols": map[string]any{"legend_block_id": bb.ID}}}}, 202)
	e.do(req{method: "GET", target: "/v1/jobs/" + sfield(t, pj, "data", "job_id")}, 200)
	e.doInvalid(req{method: "POST", target: "/v1/parse", body: map[string]any{"features": []string{"symbols", "rooms"}, "sheet_id": sh.ID}}, 400)
	e.do(req{method: "POST", target: "/v1/parse", body: map[string]any{"features": []string{"symbols"}, "sheet_id": sh.ID, "drawing_id": did}}, 400)
	e.do(req{method: "POST", target: "/v1/parse", body: map[string]any{"features": []string{"symbols"}, "sheet_id": ids.New(ids.Sheet)}}, 404)

	// errors the document allows the request of
	missing := func(prefix string) string { return ids.New(prefix) }
	pr := e.do(req{method: "POST", target: "/v1/projects", body: map[string]any{"name": "   "}}, 400)
	if field(pr, "errors", "name") == nil {
		t.Errorf("400 without errors.name: %v", pr)
	}
	e.do(req{method: "GET", target: "/v1/projects?cursor=not-a-cursor"}, 400)
	pending := e.do(req{method: "POST", target: "/v1/files",
		body: map[string]any{"project_id": pid, "filename": "b.pdf", "content_type": "application/pdf", "size": len(pdf)}}, 201)
	e.do(req{method: "POST", target: "/v1/drawings", body: map[string]any{"project_id": pid, "file_id": sfield(t, pending, "id")}}, 400)
	e.doInvalid(req{method: "GET", target: "/v1/projects", noAuth: true}, 401) // the document requires a key
	e.do(req{method: "GET", target: "/v1/projects/" + missing(ids.Project)}, 404)
	e.do(req{method: "GET", target: "/v1/overlays/" + missing(ids.Overlay) + "?expand=job"}, 404)
	e.do(req{method: "PATCH", target: "/v1/drawings/" + missing(ids.Drawing), body: map[string]any{"name": "x"}}, 404)
	e.do(req{method: "DELETE", target: "/v1/files/" + missing(ids.File)}, 404)
	e.do(req{method: "DELETE", target: "/v1/files/" + fid}, 409)
	e.do(req{method: "PUT", target: uploadURL, body: pdf, header: map[string]string{"Content-Type": "application/pdf"}}, 409)
	e.do(req{method: "PUT", target: pathAndQuery(t, sfield(t, pending, "upload_url")), body: append(slices.Clone(pdf), "extra"...),
		header: map[string]string{"Content-Type": "application/pdf"}}, 413)
	e.do(req{method: "GET", target: "/downloads/" + fid + "?expires=4102444800&signature=forged"}, 403)
	e.do(req{method: "POST", target: "/v1/files/" + fid + "/confirm", body: []byte(`{}`)}, 415) // a body without Content-Type
	e.do(req{method: "DELETE", target: "/v1/files/" + sfield(t, pending, "id")}, 204)

	// requests the document does not allow: the server refuses them too
	e.doInvalid(req{method: "POST", target: "/v1/projects", body: map[string]any{}}, 400)
	e.doInvalid(req{method: "POST", target: "/v1/projects", body: map[string]any{"name": "x", "color": "red"}}, 400)
	e.doInvalid(req{method: "POST", target: "/v1/projects", body: []byte("name=x"), header: map[string]string{"Content-Type": "text/plain"}}, 415)
	e.doInvalid(req{method: "GET", target: "/v1/jobs?status=Bogus"}, 400)
	e.doInvalid(req{method: "GET", target: "/v1/overlays?expand=sheet"}, 400)
	e.doInvalid(req{method: "GET", target: "/v1/drawings"}, 400) // project_id is required
	e.doInvalid(req{method: "GET", target: "/v1/sheets?colour=red"}, 400)
	e.doInvalid(req{method: "POST", target: "/v1/projects", body: map[string]any{"name": "x"},
		header: map[string]string{"Idempotency-Key": "not a valid key!"}}, 400)

	// a method a path does not have is no operation of the document: check
	// the answer against components.responses.MethodNotAllowed
	resp, b := e.serve(req{method: "PUT", target: "/v1/projects"})
	if resp.StatusCode != methodNotAllowedStatus {
		t.Errorf("PUT /v1/projects: status %d, the document says %d: %s", resp.StatusCode, methodNotAllowedStatus, b)
	}
	if p := decodeObject(t, resp, b); p["code"] != "METHOD_NOT_ALLOWED" {
		t.Errorf("PUT /v1/projects: code %v", p["code"])
	}
	e.checkComponentResponse("MethodNotAllowed", resp, b)
}

// checkComponentResponse validates a response that belongs to no
// operation against components.responses[name]: content type, body
// schema and required headers.
func (e *apiEnv) checkComponentResponse(name string, resp *http.Response, b []byte) {
	e.t.Helper()
	doc, _ := openAPIDoc(e.t)
	m, err := doc.BuildV3Model()
	if err != nil {
		e.t.Fatal(err)
	}
	r := m.Model.Components.Responses.GetOrZero(name)
	if r == nil {
		e.t.Fatalf("no components.responses.%s", name)
	}
	ct := resp.Header.Get("Content-Type")
	mt := r.Content.GetOrZero(ct)
	if mt == nil {
		e.t.Fatalf("%s: content type %q is not documented", name, ct)
	}
	if ok, errs := schema_validation.NewSchemaValidator().ValidateSchemaBytes(mt.Schema.Schema(), b); !ok {
		for _, err := range errs {
			e.t.Errorf("%s: %s", name, describe(err))
		}
	}
	for h, hd := range r.Headers.FromOldest() {
		if hd.Required && resp.Header.Get(h) == "" {
			e.t.Errorf("%s: required header %s is missing", name, h)
		}
	}
}
