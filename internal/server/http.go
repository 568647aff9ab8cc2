package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/99designs/gqlgen/graphql/playground"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/plangraph/plangraph/graph"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/ratelimit"
	"github.com/plangraph/plangraph/internal/wsgorilla"
	"github.com/plangraph/plangraph/rest"
	"github.com/plangraph/plangraph/web"
)

// APIVersions are the values X-API-Version accepts; the first is the default.
var APIVersions = []string{"2026-01-01"}

// Handler is every route of the API port.
func (a *App) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		httpx.JSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", a.ready)
	if a.Cfg.MetricsAddr == "" {
		mux.Handle("GET /metrics", a.metrics.handler(a.Cfg.MetricsToken))
	} // else on its own listener (Listen)
	mux.HandleFunc("GET /errors/{kind}", errorDoc)
	mux.HandleFunc("GET /errors", errorDoc)

	origins := a.origins()
	gql := a.graphQL(origins)
	ide := playground.Handler("plangraph GraphQL", "/graphql")
	authed, ws := a.authenticated(limitBody(a.maxBody(), gql)), a.websocketUpgrade(gql, origins)
	mux.Handle("/graphql", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isWebsocket(r) {
			ws.ServeHTTP(w, r) // subscriptions; the key may come in connection_init
			return
		}
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/html") {
			ide.ServeHTTP(w, r) // GraphiQL for a browser; its requests carry the key
			return
		}
		authed.ServeHTTP(w, r)
	}))
	mux.Handle("/v1/", a.authenticated(a.REST))
	a.REST.Uploads(mux, a.Uploads)
	mux.HandleFunc(rest.OpenAPIPattern, a.REST.OpenAPI) // public: no key needed to read the API's description
	a.REST.SheetImages(a.Blobs)
	mux.Handle("/", web.Handler())
	return a.middleware(mux)
}

func (a *App) graphQL(origins *wsgorilla.Origins) http.Handler {
	srv := handler.New(graph.NewSchema(a.Resolver))
	srv.AddTransport(a.websocketTransport(origins))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(graphQLPost{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetParserTokenLimit(graphqlTokenLimit)
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](100)})
	// depth, aliases, complexity, connection pages, nodes(ids:) and each
	// operation's rate limit charge, on every transport
	srv.Use(&graph.Guard{Limits: graph.DefaultLimits(), Charge: a.chargeGraphQL})
	srv.AroundOperations(limitSubscriptions)
	srv.SetErrorPresenter(graph.ErrorPresenter(a.Log, httpx.RequestID))
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		a.Log.ErrorContext(ctx, "graphql panic", "panic", fmt.Sprint(p), "request_id", httpx.RequestID(ctx), "stack", string(debug.Stack()))
		return apierr.Internalf(fmt.Errorf("panic: %v", p), "internal error")
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			r = r.WithContext(graph.WithResponseHeader(r.Context(), w.Header()))
		}
		srv.ServeHTTP(w, r)
	})
}

// authenticated requires an API key, scopes the request to its
// organization and applies the key's rate limit.
func (a *App) authenticated(next http.Handler) http.Handler {
	limited := a.Limiter.Middleware(ratelimit.Classify)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := a.checkKey(r.Context(), auth.FromRequest(r))
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="plangraph"`)
			httpx.Problem(w, r, err)
			return
		}
		httpx.InfoOf(r.Context()).Org = p.OrgID
		limited.ServeHTTP(w, r.WithContext(auth.With(r.Context(), p)))
	})
}

// middleware wraps every route: request id, panic recovery, version,
// metrics and the access log.
func (a *App) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rid := httpx.NewRequestID()
		ctx, info := httpx.WithInfo(httpx.WithRequestID(r.Context(), rid))
		info.Client = ratelimit.ClientAddr(r)
		r = r.WithContext(ctx)
		rw := &responseWriter{ResponseWriter: w, status: http.StatusOK}
		rw.Header().Set("X-Request-Id", rid)
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				a.Log.ErrorContext(ctx, "panic", "panic", fmt.Sprint(p), "request_id", rid, "path", r.URL.Path, "stack", string(debug.Stack()))
				if !rw.wrote {
					httpx.Problem(rw, r, apierr.Internalf(fmt.Errorf("panic: %v", p), "internal error"))
				}
			}
			route := info.Route
			if route == "" {
				route = r.Pattern
			}
			if route == "" {
				route = "unmatched"
			}
			d := time.Since(start)
			a.metrics.observe(route, r.Method, rw.status, d)
			a.Log.InfoContext(ctx, "request", "request_id", rid, "method", r.Method, "path", r.URL.Path, "route", route,
				"status", rw.status, "duration_ms", float64(d.Microseconds())/1000, "bytes", rw.bytes, "org", info.Org)
		}()
		v := r.Header.Get("X-API-Version")
		if v == "" {
			v = APIVersions[0]
		}
		if !knownVersion(v) {
			httpx.Problem(rw, r, apierr.Invalid("X-API-Version", fmt.Sprintf("unknown version %q; supported: %s", v, strings.Join(APIVersions, ", "))).WithCode("UNSUPPORTED_API_VERSION"))
			return
		}
		rw.Header().Set("X-API-Version", v)
		next.ServeHTTP(rw, r)
	})
}

// maxBody is --max-body-bytes (1 MiB when unset).
func (a *App) maxBody() int64 {
	if a.Cfg.MaxBodyBytes > 0 {
		return a.Cfg.MaxBodyBytes
	}
	return 1 << 20
}

func knownVersion(v string) bool {
	for _, k := range APIVersions {
		if k == v {
			return true
		}
	}
	return false
}

type responseWriter struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (w *responseWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *responseWriter) Write(b []byte) (int, error) {
	w.wrote = true
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Hijack hands the connection over (a websocket); the log records 101.
func (w *responseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil && !w.wrote {
		w.status, w.wrote = http.StatusSwitchingProtocols, true
	}
	return c, rw, err
}

// Unwrap lets http.ResponseController reach the connection (flush, hijack).
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes through for streaming responses.
func (w *responseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// ready answers 200 when the database, Redis and the blob store answer.
func (a *App) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	checks := map[string]string{}
	ok := true
	for name, f := range map[string]func(context.Context) error{
		"database": a.Store.Ping,
		"redis":    a.Redis.Ping,
		"blobs":    func(ctx context.Context) error { return blobs.Ping(ctx, a.Blobs) },
	} {
		if err := f(ctx); err != nil {
			checks[name] = "unavailable"
			ok = false
			a.Log.WarnContext(ctx, "readiness check failed", "check", name, "err", err)
		} else {
			checks[name] = "ok"
		}
	}
	status := http.StatusOK
	if !ok {
		status = http.StatusServiceUnavailable
	}
	httpx.JSON(w, status, map[string]any{"status": map[bool]string{true: "ok", false: "unavailable"}[ok], "checks": checks})
}

// httpsRequired answers a plain-HTTP request on the TLS port.
func httpsRequired(w http.ResponseWriter, r *http.Request) {
	rid := httpx.NewRequestID()
	w.Header().Set("X-Request-Id", rid)
	w.Header().Set("Connection", "close")
	host := r.Host
	if host == "" {
		host = "HOST:PORT"
	}
	apierr.Write(w, apierr.New(apierr.Validation, "this port speaks HTTPS only: use https://%s%s", host, r.URL.RequestURI()).WithCode("HTTPS_REQUIRED"), rid, r.URL.Path)
}

// errorDoc describes the problem types that {errors_url}/<kind> names.
func errorDoc(w http.ResponseWriter, r *http.Request) {
	kind := r.PathValue("kind")
	all := apierr.Kinds()
	if kind == "" {
		httpx.JSON(w, http.StatusOK, map[string]any{"data": all})
		return
	}
	for _, k := range all {
		if strings.HasSuffix(k.Type, "/"+kind) {
			httpx.JSON(w, http.StatusOK, k)
			return
		}
	}
	httpx.Problem(w, r, apierr.NotFoundf("no problem type %q", kind))
}

// checkKey authenticates key for the client of ctx's request: a client
// address that has failed authentication too often is refused (429) unless
// its key is one known valid, and each failure counts against it.
func (a *App) checkKey(ctx context.Context, key string) (auth.Principal, error) {
	addr := httpx.InfoOf(ctx).Client
	if err := a.Limiter.AuthBlocked(ctx, addr); err != nil {
		if p, ok := a.Auth.Known(key); ok {
			return p, nil
		}
		return auth.Principal{}, err
	}
	p, err := a.Auth.Check(ctx, key)
	if e := (*apierr.Error)(nil); errors.As(err, &e) && e.Kind == apierr.Unauthorized {
		a.Limiter.AuthFailed(ctx, addr)
	}
	return p, err
}
