// Package rest is the REST API of the interface specification, under /v1.
// Handlers decode spec-shaped requests, call the service operation (the one
// implementation each operation has, internal/service, which GraphQL calls
// too) and shape spec-shaped responses.
package rest

import (
	"log/slog"
	"net/http"
	"sync"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/cursor"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/service"
	"github.com/plangraph/plangraph/internal/tilepack"
	"github.com/plangraph/plangraph/internal/uploads"
	"gocloud.dev/blob"
)

// API serves /v1.
type API struct {
	s       *service.Services
	cursors cursor.Codec
	maxBody int64
	// maxParseBody bounds POST /v1/parse, whose symbol images may come as data: URLs
	maxParseBody int64
	log          *slog.Logger
	mux          *http.ServeMux
	idem         http.Handler // mux behind Idempotency-Key handling
	tileOnce     sync.Once
	tileReader   *tilepack.Reader
	bucket       *blob.Bucket     // of the image routes (SheetImages)
	uploads      *uploads.Service // of the signed byte routes (Uploads)
	largeBody    map[string]bool  // routes whose bodies are bounded by maxParseBody
}

// Options configure the API.
type Options struct {
	// CursorKey signs list cursors; every api process must share it.
	CursorKey    []byte
	MaxBodyBytes int64
	// MaxParseBodyBytes bounds POST /v1/parse bodies (at least MaxBodyBytes).
	MaxParseBodyBytes int64
	Log               *slog.Logger
}

// New builds the REST API over the services s.
func New(s *service.Services, o Options) *API {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 1 << 20
	}
	a := &API{s: s, cursors: cursor.Codec{Key: o.CursorKey}, maxBody: o.MaxBodyBytes, maxParseBody: max(o.MaxBodyBytes, o.MaxParseBodyBytes),
		log: o.Log, mux: http.NewServeMux()}
	a.largeBody = map[string]bool{}
	for _, o := range routeTable() {
		if o.largeBody {
			a.largeBody[o.route()] = true
		}
	}
	a.register(a.mux, groupAPI)
	a.idem = a.Idempotent(a.mux)
	return a
}

// routeGroup says which registration serves a route of routeTable.
type routeGroup int

const (
	groupAPI    routeGroup = iota // New: the API's mux, behind the API key
	groupImages                   // SheetImages: the API's mux, once there is a blob store
	groupSigned                   // Uploads: the server's mux (the signature is the credential)
	groupPublic                   // the document itself: the server registers OpenAPIPattern
)

// register puts the routes of group g of routeTable on mux: the table the
// OpenAPI document is rendered from is the one the muxes serve.
func (a *API) register(mux *http.ServeMux, g routeGroup) {
	for _, o := range routeTable() {
		if o.group == g {
			mux.HandleFunc(o.route(), o.handler(a))
		}
	}
}

// bodyLimit is the largest body r may have (the routes marked largeBody
// have no wildcards: their pattern is the method and path).
func (a *API) bodyLimit(r *http.Request) int64 {
	if a.largeBody[r.Method+" "+r.URL.Path] {
		return a.maxParseBody
	}
	return a.maxBody
}

// ServeHTTP routes the request; paths and methods the API does not have
// get Problem Details bodies like every other error.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, pattern := a.mux.Handler(r)
	if pattern != "" {
		httpx.InfoOf(r.Context()).Route = pattern
		if r.Method == http.MethodPost {
			a.idem.ServeHTTP(w, r)
			return
		}
		a.mux.ServeHTTP(w, r)
		return
	}
	// let the mux decide between 404 and 405, then answer in our format
	rec := &statusRecorder{header: http.Header{}}
	h.ServeHTTP(rec, r)
	if rec.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", rec.header.Get("Allow"))
		httpx.Problem(w, r, apierr.New(apierr.MethodNotAllowed, "%s is not allowed on %s; allowed: %s", r.Method, r.URL.Path, rec.header.Get("Allow")))
		return
	}
	httpx.Problem(w, r, apierr.NotFoundf("no endpoint %s %s", r.Method, r.URL.Path))
}

type statusRecorder struct {
	header http.Header
	status int
}

func (s *statusRecorder) Header() http.Header         { return s.header }
func (s *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (s *statusRecorder) WriteHeader(code int)        { s.status = code }

func writeJSON(w http.ResponseWriter, status int, v any) { httpx.JSON(w, status, v) }

// fail writes err; internal causes are logged with the request id.
func (a *API) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := httpx.Problem(w, r, err)
	if e.Kind == apierr.Internal {
		a.log.ErrorContext(r.Context(), "request failed", "err", err, "request_id", httpx.RequestID(r.Context()), "path", r.URL.Path)
	}
}

// decode reads and strictly decodes the JSON body into v.
func (a *API) decode(w http.ResponseWriter, r *http.Request, v any) error {
	return a.readJSON(w, r, v, false)
}

// emptyBody accepts no body or an empty JSON object.
func (a *API) emptyBody(w http.ResponseWriter, r *http.Request) error {
	if r.ContentLength == 0 {
		return nil
	}
	var v struct{}
	return a.readJSON(w, r, &v, true)
}

// readJSON is the one way request bodies are read: within r's limit and
// strictly decoded into v; optional lets the body be empty.
func (a *API) readJSON(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	body, err := httpx.ReadBody(w, r, a.bodyLimit(r))
	if err != nil || (optional && len(body) == 0) {
		return err
	}
	return httpx.Decode(body, v)
}

// notFound is the error for an id that does not exist for this organization.
func notFound(kind, id string) error { return apierr.NotFoundf("%s %q does not exist", kind, id) }
