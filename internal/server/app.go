// Package server assembles the service: it opens the database, queue and
// blob store named by the configuration, serves the API over HTTPS and
// runs the workers.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"github.com/plangraph/plangraph/internal/search/embed"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/search/llm"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	cflog "github.com/cloudflare/cfssl/log"
	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/graph"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/config"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/events/webhooks"
	"github.com/plangraph/plangraph/internal/httpsonly"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/ratelimit"
	"github.com/plangraph/plangraph/internal/safefetch"
	"github.com/plangraph/plangraph/internal/secretbox"
	"github.com/plangraph/plangraph/internal/service"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tlsca"
	"github.com/plangraph/plangraph/internal/uploads"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/jobs/compare"
	"github.com/plangraph/plangraph/jobs/ingest"
	"github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/rest"
	"github.com/plangraph/plangraph/vision/ocr"
	"github.com/plangraph/plangraph/vision/render"
)

// App is an open service: its stores and the API built on them.
type App struct {
	Cfg      config.Config
	Log      *slog.Logger
	Store    *store.Store
	Redis    *jobs.Redis
	Queue    *jobs.Queue
	Blobs    *blob.Bucket
	Resolver *graph.Resolver
	// Services are the operations under both APIs.
	Services *service.Services
	Auth     *auth.Authenticator
	REST     *rest.API
	Limiter  *ratelimit.Limiter
	Uploads  *uploads.Service
	Events   *events.Bus
	Webhooks *webhooks.Service
	metrics  *metrics
	// metricsLn is --metrics-addr's listener, opened by Listen.
	metricsLn net.Listener
}

// Open connects to everything cfg names and migrates the database.
func Open(ctx context.Context, cfg config.Config, log *slog.Logger) (_ *App, err error) {
	a := &App{Cfg: cfg, Log: log}
	apierr.TypesURL = cfg.PublicURL + "/errors"
	if cfg.OCRLanguages != "" {
		if err := ocr.SetDefaultLanguages(strings.Split(cfg.OCRLanguages, "+")); err != nil {
			return nil, fmt.Errorf("--ocr-languages: %w", err)
		}
	}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	if a.Store, err = store.Open(ctx, cfg.DatabaseURL, cfg.DataDir); err != nil {
		return nil, err
	}
	if err = a.Store.Migrate(ctx); err != nil {
		return nil, err
	}
	if a.Redis, err = jobs.OpenRedis(ctx, cfg.RedisURL); err != nil {
		return nil, err
	}
	a.Queue = jobs.NewQueue(a.Redis)
	if a.Blobs, err = blobs.Open(ctx, cfg.BlobURL, cfg.DataDir); err != nil {
		return nil, err
	}
	// secrets in the database are sealed with a key kept outside it; the
	// data directory is private whoever made it
	if err := os.Chmod(cfg.DataDir, 0o700); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	box, err := secretbox.Load(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	cursorKey, err := a.Store.Secret(ctx, "cursor", box)
	if err != nil {
		return nil, fmt.Errorf("cursor secret: %w", err)
	}
	uploadKey, err := a.Store.Secret(ctx, "uploads", box)
	if err != nil {
		return nil, fmt.Errorf("upload secret: %w", err)
	}
	maxUpload := cfg.MaxUploadBytes
	if maxUpload <= 0 {
		maxUpload = 2 << 30
	}
	a.Uploads = &uploads.Service{DB: a.Store.Client, Bucket: a.Blobs, Key: uploadKey, PublicURL: cfg.PublicURL,
		UploadTTL: 15 * time.Minute, MaxSize: maxUpload}
	a.Events = events.New(a.Store.Client, a.Redis.Client, log)
	a.Webhooks, err = webhooks.New(a.Store.Client, a.Queue, a.Redis.Client, log, webhooks.Options{
		AllowPrivate: cfg.WebhookAllowPrivateURLs, Timeout: cfg.WebhookTimeout, RetryBase: cfg.WebhookRetryBase,
		Concurrency: cfg.WebhookConcurrency, CAFile: cfg.WebhookCAFile, Box: box,
		MaxEndpoints: cfg.WebhookMaxEndpoints})
	if err != nil {
		return nil, err
	}
	if err := a.Webhooks.SealStored(ctx); err != nil {
		return nil, err
	}
	a.Events.Dispatch = a.Webhooks.Dispatch
	deps := &base.Deps{DB: a.Store.Client, Log: log, Uploads: a.Uploads, Queue: a.Queue, Blobs: a.Blobs,
		ImageFetcher: safefetch.New(cfg.ParseImageURLAllowlist, 20<<20), Events: a.Events, Webhooks: a.Webhooks,
		LLM: llm.New(cfg.LLMURL, cfg.LLMModel, cfg.LLMKey), Embedder: embed.New(cfg.EmbeddingsURL, cfg.EmbeddingsModel, cfg.EmbeddingsKey)}
	a.Resolver = graph.NewResolver(deps)
	a.Services = a.Resolver.S
	// a key's live streams are counted across every api process on this Redis
	a.Services.Live.Shared = &jobs.Slots{RDB: a.Redis.Client, TTL: time.Minute}
	a.Auth = auth.NewAuthenticator(a.Store.Client, 30*time.Second)
	a.REST = rest.New(a.Services, rest.Options{CursorKey: cursorKey, MaxBodyBytes: cfg.MaxBodyBytes, MaxParseBodyBytes: cfg.MaxParseBodyBytes, Log: log})
	a.Limiter = ratelimit.New(a.Redis.Client, ratelimit.Config{
		Management: ratelimit.Limit{Rate: cfg.RateManagement, Burst: cfg.BurstManagement, Period: time.Second},
		Vision:     ratelimit.Limit{Rate: cfg.RateVision, Burst: cfg.BurstVision, Period: time.Second},
		Log:        log,
		// the in-process Redis serves this process alone: its budgets need no Lua round trip
		Local: a.Redis.Embedded,
	})
	a.metrics = newMetrics(a.Queue, a.Store.Client)
	return a, nil
}

// Close releases everything Open opened.
func (a *App) Close() {
	if a.Queue != nil {
		_ = a.Queue.Close()
	}
	if a.Redis != nil {
		a.Redis.Close()
	}
	if a.Blobs != nil {
		_ = a.Blobs.Close()
	}
	blobs.DropLocalCopies()
	if a.Auth != nil {
		a.Auth.Wait()
	}
	if a.Store != nil {
		_ = a.Store.Close()
	}
}

// TLSConfig loads the configured certificate, or makes (once) a local CA
// and server certificate in DATA/tls.
func (a *App) TLSConfig() (*TLSResult, error) {
	cert, key := a.Cfg.TLSCert, a.Cfg.TLSKey
	res := &TLSResult{}
	if cert == "" {
		cflog.Level = cflog.LevelError // cfssl logs every key it makes at info level
		var hosts []string
		for _, h := range strings.Split(a.Cfg.TLSHosts, ",") {
			if h = strings.TrimSpace(h); h != "" {
				hosts = append(hosts, h)
			}
		}
		f, err := tlsca.Ensure(filepath.Join(a.Cfg.DataDir, "tls"), hosts)
		if err != nil {
			return nil, fmt.Errorf("tls: %w", err)
		}
		cert, key, res.CAFile = f.Cert, f.Key, f.CA
	}
	cfg, err := tlsca.LoadServerConfig(cert, key)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	res.Config = cfg
	return res, nil
}

// Listen opens the API port: TLS only; a plain-HTTP request is answered
// 400 HTTPS_REQUIRED and never reaches the API.
func (a *App) Listen() (net.Listener, *TLSResult, error) {
	tc, err := a.TLSConfig()
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", a.Cfg.Addr)
	if err != nil {
		return nil, nil, err
	}
	if a.Cfg.MetricsAddr != "" {
		if a.metricsLn, err = net.Listen("tcp", a.Cfg.MetricsAddr); err != nil {
			_ = ln.Close()
			return nil, nil, fmt.Errorf("--metrics-addr: %w", err)
		}
	}
	return httpsonly.New(ln, tc.Config, http.HandlerFunc(httpsRequired)), tc, nil
}

// MetricsAddr is the address GET /metrics is served on apart from the API
// (--metrics-addr, bound by Listen); empty when it is served on the API
// port.
func (a *App) MetricsAddr() string {
	if a.metricsLn == nil {
		return ""
	}
	return a.metricsLn.Addr().String()
}

// serveMetrics serves GET /metrics alone on --metrics-addr (plain HTTP:
// meant for an internal network or loopback) until the returned function
// stops it.
func (a *App) serveMetrics() (stop func()) {
	if a.metricsLn == nil {
		return func() {}
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.metrics.handler(a.Cfg.MetricsToken))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 15 * time.Second, IdleTimeout: 120 * time.Second,
		ErrorLog: httpErrorLog(a.Log)}
	go func() {
		if err := srv.Serve(a.metricsLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.Log.Error("metrics listener stopped", "err", err)
		}
	}()
	return func() { _ = srv.Close() }
}

// Serve runs the API on ln until ctx ends, then drains in-flight requests.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a.Handler(),
		ReadHeaderTimeout: 15 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          httpErrorLog(a.Log),
		// requests outlive ctx (they are drained); streams end with it
		BaseContext: func(net.Listener) context.Context { return httpx.WithShutdown(context.WithoutCancel(ctx), ctx.Done()) },
	}
	defer a.serveMetrics()()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), a.Cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) && !errors.Is(e, net.ErrClosed) {
		return e
	}
	return err
}

// StartWorker runs task handlers in this process until Shutdown.
func (a *App) StartWorker() (*jobs.Worker, error) {
	w := jobs.NewWorker(a.Redis, jobs.WorkerConfig{Concurrency: a.Cfg.Concurrency, ShutdownTimeout: a.Cfg.ShutdownTimeout,
		WebhookConcurrency: a.Cfg.WebhookConcurrency}, a.Log)
	if err := jobs.RegisterMaintenance(w, a.Store.Client, a.Queue, a.Blobs); err != nil {
		return nil, err
	}
	if err := a.Webhooks.Register(w); err != nil {
		return nil, err
	}
	runner := jobs.NewRunner(a.Store.Client, a.Queue, a.Log)
	runner.Events = a.Events
	runner.OrgSlots, runner.OrgLimit = jobs.Slots{RDB: a.Redis.Client, TTL: time.Minute}, a.Cfg.OrgJobConcurrency
	if runner.OrgLimit == 0 {
		n := a.Cfg.Concurrency
		if n <= 0 {
			n = runtime.NumCPU() // asynq's default
		}
		runner.OrgLimit = max(1, n*3/4)
	}
	(&ingest.Ingest{R: runner, Blobs: a.Blobs, Limits: render.Limits{
		DPI: a.Cfg.RenderDPI, MaxPixels: int64(a.Cfg.MaxPageMP) * 1_000_000, MaxPages: a.Cfg.MaxPages}}).Register(w)
	(&parse.Parse{R: runner, Blobs: a.Blobs, Budget: a.Cfg.BlockSearchBudget}).Register(w)
	(&compare.Compare{R: runner, Blobs: a.Blobs}).Register(w)
	if c := embed.New(a.Cfg.EmbeddingsURL, a.Cfg.EmbeddingsModel, a.Cfg.EmbeddingsKey); c != nil {
		if err := jobs.RegisterEmbed(w, index.New(a.Store.Client, a.Blobs), c, a.Log); err != nil {
			return nil, err
		}
	}
	if err := w.Start(); err != nil {
		return nil, err
	}
	if a.Redis.Embedded {
		// the in-process Redis starts empty: queue again what was accepted before a restart
		n, err := jobs.Recover(context.Background(), a.Store.Client, a.Queue)
		if err != nil {
			w.Shutdown()
			return nil, fmt.Errorf("recovering jobs: %w", err)
		}
		if n > 0 {
			a.Log.Info("queued unfinished jobs again", "jobs", n)
		}
		if n, err = a.Webhooks.Recover(context.Background()); err != nil {
			w.Shutdown()
			return nil, fmt.Errorf("recovering webhook deliveries: %w", err)
		}
		if n > 0 {
			a.Log.Info("fanned recent events out to webhooks again", "events", n)
		}
	}
	return w, nil
}

// TLSResult is the server's TLS configuration and, when the certificate
// was generated here, the CA file clients should trust.
type TLSResult struct {
	Config *tls.Config
	CAFile string
}
