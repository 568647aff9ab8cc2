// Package config reads the service's settings from flags, each with a
// PLANGRAPH_* environment equivalent (flags win).
package config

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/wsgorilla"
)

// Config is every setting of the service.
type Config struct {
	Addr        string
	DataDir     string
	DatabaseURL string
	RedisURL    string
	BlobURL     string
	TLSCert     string
	TLSKey      string
	TLSHosts    string
	PublicURL   string
	LogLevel    string
	Concurrency int
	// ShutdownTimeout bounds how long shutdown waits for requests and tasks.
	ShutdownTimeout time.Duration
	// MaxBodyBytes bounds JSON request bodies.
	MaxBodyBytes int64
	// MaxUploadBytes bounds one uploaded file.
	MaxUploadBytes int64
	// AllowedOrigins are the browser origins (comma separated,
	// scheme://host[:port], scheme://*.domain, or *) besides the service's
	// own that may open GraphQL websockets.
	AllowedOrigins string
	// Rate limits per API key, requests per second and burst, for
	// management and vision operations.
	RateManagement, BurstManagement int
	RateVision, BurstVision         int
	// Rendering of uploaded drawings.
	RenderDPI int
	MaxPageMP int
	MaxPages  int
	// OCRLanguages are the Tesseract languages scans are read in, joined
	// by "+" ("eng+jpn"); each one's traineddata must be installed.
	OCRLanguages string
	// BlockSearchBudget bounds one view block's symbol search in a parse;
	// what is not searched by then is reported in the parse's warnings
	// (0: unbounded).
	BlockSearchBudget time.Duration
	// MaxParseBodyBytes bounds POST /v1/parse bodies, which may carry
	// symbol images as data: URLs (the larger of it and MaxBodyBytes applies).
	MaxParseBodyBytes int64
	// ParseImageURLAllowlist names the hosts (comma separated,
	// "*.example.com" for subdomains) whose https URLs parse may fetch
	// symbol images from; empty fetches none.
	ParseImageURLAllowlist string
	// LLMURL, LLMModel and LLMKey name an OpenAI-compatible chat endpoint
	// that words ask's answers from the retrieved sources (internal/search/llm);
	// empty LLMURL uses none.
	LLMURL, LLMModel, LLMKey string
	// EmbeddingsURL, EmbeddingsModel and EmbeddingsKey name an
	// OpenAI-compatible embeddings endpoint for semantic search; an empty
	// EmbeddingsURL uses none.
	EmbeddingsURL, EmbeddingsModel, EmbeddingsKey string
	// Webhook delivery: WebhookAllowPrivateURLs lets endpoint URLs reach
	// private, loopback and link-local addresses (off: they are refused
	// when saved and again when dialled); WebhookTimeout bounds one
	// attempt; WebhookRetryBase is the first retry's delay, doubling per
	// attempt up to an hour; WebhookConcurrency is the deliveries one
	// worker process sends at once; WebhookCAFile adds CA certificates
	// receivers' certificates may chain to (a private PKI).
	WebhookAllowPrivateURLs bool
	WebhookTimeout          time.Duration
	WebhookRetryBase        time.Duration
	WebhookConcurrency      int
	WebhookCAFile           string
	// OrgJobConcurrency is how many job tasks one organization runs at
	// once across every worker process (0: three quarters of Concurrency).
	OrgJobConcurrency int
	// WebhookMaxEndpoints is how many webhook endpoints one organization
	// may have.
	WebhookMaxEndpoints int
	// MetricsAddr, when set, serves GET /metrics on this address (plain
	// HTTP) instead of the API port; MetricsToken, when set, makes
	// /metrics require "Authorization: Bearer TOKEN".
	MetricsAddr  string
	MetricsToken string
}

// DefaultBlockSearchBudget bounds one view block's symbol search unless
// --block-search-budget says otherwise.
const DefaultBlockSearchBudget = 3 * time.Minute

// Flag binds every setting to fs. Call Resolve after fs.Parse.
func (c *Config) Flag(fs *flag.FlagSet) {
	str := func(p *string, name, def, usage string) {
		fs.StringVar(p, name, envOr(name, def), usage+" (env "+EnvName(name)+")")
	}
	str(&c.Addr, "addr", "127.0.0.1:8443", "HTTPS address to listen on")
	str(&c.DataDir, "data-dir", "./data", "directory for the embedded database, queue snapshot, blobs and TLS files")
	str(&c.DatabaseURL, "database-url", "", "postgres://… to use PostgreSQL; empty uses SQLite at DATA/plangraph.db")
	str(&c.RedisURL, "redis-url", "", "redis://host:port/db for the job queue; empty runs an in-process Redis")
	str(&c.BlobURL, "blob-url", "", "blob store URL (file:///path or s3://bucket?region=…); empty uses DATA/blobs")
	str(&c.TLSCert, "tls-cert", "", "server certificate PEM; empty generates a local CA and certificate in DATA/tls")
	str(&c.TLSKey, "tls-key", "", "server private key PEM (with --tls-cert)")
	str(&c.TLSHosts, "tls-hosts", "localhost,127.0.0.1,::1", "host names and IPs for the generated certificate")
	str(&c.PublicURL, "public-url", "", "base URL clients reach the service at (for links, upload URLs and problem types); empty derives https://ADDR")
	str(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	str(&c.AllowedOrigins, "allowed-origins", "", "browser origins (comma separated: https://app.example.com, https://*.example.com, or *) that may open GraphQL subscriptions besides the service's own; clients sending no Origin are not affected")
	fs.IntVar(&c.Concurrency, "concurrency", envInt("concurrency", 0), "worker task slots per process; 0 means the number of CPUs (env "+EnvName("concurrency")+")")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", envDuration("shutdown-timeout", 30*time.Second), "how long shutdown waits for in-flight requests and tasks (env "+EnvName("shutdown-timeout")+")")
	fs.Int64Var(&c.MaxUploadBytes, "max-upload-bytes", int64(envInt("max-upload-bytes", 2<<30)), "largest uploaded file in bytes (env "+EnvName("max-upload-bytes")+")")
	fs.IntVar(&c.RateManagement, "rate-management", envInt("rate-management", 50), "management requests per second per API key (env "+EnvName("rate-management")+")")
	fs.IntVar(&c.BurstManagement, "burst-management", envInt("burst-management", 100), "management burst per API key (env "+EnvName("burst-management")+")")
	fs.IntVar(&c.RateVision, "rate-vision", envInt("rate-vision", 5), "vision requests per second per API key (env "+EnvName("rate-vision")+")")
	fs.IntVar(&c.BurstVision, "burst-vision", envInt("burst-vision", 10), "vision burst per API key (env "+EnvName("burst-vision")+")")
	str(&c.OCRLanguages, "ocr-languages", "eng", "Tesseract languages scans and outlined lettering are read in, joined by + (eng+jpn); each one's traineddata (Debian: tesseract-ocr-LANG) must be installed")
	fs.IntVar(&c.RenderDPI, "render-dpi", envInt("render-dpi", 300), "DPI pages are rendered at, 72 to 600 (env "+EnvName("render-dpi")+")")
	fs.IntVar(&c.MaxPageMP, "max-page-megapixels", envInt("max-page-megapixels", 250), "largest rendered page in megapixels; a PDF page larger at --render-dpi is drawn at the highest DPI it fits at, down to 150; larger pages fail (env "+EnvName("max-page-megapixels")+")")
	fs.IntVar(&c.MaxPages, "max-pages", envInt("max-pages", 500), "most pages in one uploaded file (env "+EnvName("max-pages")+")")
	fs.DurationVar(&c.BlockSearchBudget, "block-search-budget", envDuration("block-search-budget", DefaultBlockSearchBudget), "time limit of one view block's symbol search in a parse; what is not searched by then is named in the parse's warnings (SEARCH_INCOMPLETE); 0 means no limit (env "+EnvName("block-search-budget")+")")
	fs.Int64Var(&c.MaxParseBodyBytes, "max-parse-body-bytes", int64(envInt("max-parse-body-bytes", 32<<20)), "largest POST /v1/parse body in bytes (symbol images as data: URLs) (env "+EnvName("max-parse-body-bytes")+")")
	str(&c.ParseImageURLAllowlist, "parse-image-url-allowlist", "", "hosts (comma separated, *.example.com for subdomains) whose https URLs parse may fetch symbol images from; private and loopback addresses are refused even when listed")
	fs.BoolVar(&c.WebhookAllowPrivateURLs, "webhook-allow-private-urls", envBool("webhook-allow-private-urls", false), "let webhook endpoint URLs reach private, loopback and link-local addresses (for receivers on the same network; off refuses them) (env "+EnvName("webhook-allow-private-urls")+")")
	fs.DurationVar(&c.WebhookTimeout, "webhook-timeout", envDuration("webhook-timeout", 10*time.Second), "time limit of one webhook delivery attempt (env "+EnvName("webhook-timeout")+")")
	fs.DurationVar(&c.WebhookRetryBase, "webhook-retry-base", envDuration("webhook-retry-base", 30*time.Second), "delay before the first webhook retry; it doubles per attempt up to 1h, with jitter, for at least 24h (env "+EnvName("webhook-retry-base")+")")
	fs.IntVar(&c.WebhookConcurrency, "webhook-concurrency", envInt("webhook-concurrency", 16), "webhook deliveries a worker process sends at once, apart from its job slots; 0 sends none (env "+EnvName("webhook-concurrency")+")")
	fs.IntVar(&c.OrgJobConcurrency, "org-job-concurrency", envInt("org-job-concurrency", 0), "job tasks one organization runs at once across every worker process on the Redis; 0 means three quarters of --concurrency, at least 1 (env "+EnvName("org-job-concurrency")+")")
	fs.IntVar(&c.WebhookMaxEndpoints, "webhook-max-endpoints", envInt("webhook-max-endpoints", 20), "webhook endpoints one organization may have; creating one more is refused with 409 WEBHOOK_ENDPOINT_LIMIT (env "+EnvName("webhook-max-endpoints")+")")
	str(&c.LLMURL, "llm-url", "", "base URL of an OpenAI-compatible chat API (https://host/v1) that words ask's answers to lookups and open questions from the retrieved sources, every sentence citing one; empty answers from the index alone")
	str(&c.LLMModel, "llm-model", "", "the model name sent to --llm-url")
	str(&c.LLMKey, "llm-api-key", "", "bearer token for --llm-url (empty sends none)")
	str(&c.EmbeddingsURL, "embeddings-url", "", "base URL of an OpenAI-compatible embeddings API (https://host/v1): workers embed the search index's rows and search adds a semantic retriever (exact cosine); empty searches without vectors")
	str(&c.EmbeddingsModel, "embeddings-model", "", "the model name sent to --embeddings-url (changing it embeds the index again)")
	str(&c.EmbeddingsKey, "embeddings-api-key", "", "bearer token for --embeddings-url (empty sends none)")
	str(&c.WebhookCAFile, "webhook-ca-file", "", "PEM file of CA certificates webhook receivers' certificates may chain to, besides the system's")
	str(&c.MetricsAddr, "metrics-addr", "", "serve GET /metrics on this address (plain HTTP, e.g. 127.0.0.1:9090) instead of the API port")
	str(&c.MetricsToken, "metrics-token", "", "require \"Authorization: Bearer TOKEN\" for GET /metrics")
	fs.Int64Var(&c.MaxBodyBytes, "max-body-bytes", int64(envInt("max-body-bytes", 1<<20)), "largest JSON request body in bytes (env "+EnvName("max-body-bytes")+")")
}

// Resolve fills derived defaults and checks the settings.
func (c *Config) Resolve() error {
	if c.DataDir == "" {
		return fmt.Errorf("--data-dir must not be empty")
	}
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return err
	}
	c.DataDir = abs
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return fmt.Errorf("--tls-cert and --tls-key go together")
	}
	if c.PublicURL == "" {
		host := c.Addr
		if strings.HasPrefix(host, ":") || strings.HasPrefix(host, "0.0.0.0:") || strings.HasPrefix(host, "[::]:") {
			host = "localhost" + host[strings.LastIndex(host, ":"):]
		}
		c.PublicURL = "https://" + host
	}
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("--log-level: %q is not debug, info, warn or error", c.LogLevel)
	}
	if _, err := wsgorilla.ParseOrigins(c.AllowedOrigins); err != nil {
		return fmt.Errorf("--allowed-origins: %w", err)
	}
	for name, v := range map[string]int{"rate-management": c.RateManagement, "burst-management": c.BurstManagement, "rate-vision": c.RateVision, "burst-vision": c.BurstVision} {
		if v < 0 {
			return fmt.Errorf("--%s must be 0 (default) or more", name)
		}
	}
	if c.OCRLanguages == "" {
		c.OCRLanguages = "eng"
	}
	for _, l := range strings.Split(c.OCRLanguages, "+") {
		if !ocrLanguageRE.MatchString(l) {
			return fmt.Errorf("--ocr-languages: %q is not a Tesseract language code (eng, jpn, chi_sim, …); join several with +", l)
		}
	}
	if c.RenderDPI == 0 {
		c.RenderDPI = 300
	}
	if c.RenderDPI < 72 || c.RenderDPI > 600 {
		return fmt.Errorf("--render-dpi must be from 72 to 600")
	}
	if c.MaxPageMP == 0 {
		c.MaxPageMP = 250
	}
	if c.MaxPages == 0 {
		c.MaxPages = 500
	}
	if c.MaxPageMP < 0 || c.MaxPages < 0 {
		return fmt.Errorf("--max-page-megapixels and --max-pages must be positive")
	}
	if c.MaxParseBodyBytes == 0 {
		c.MaxParseBodyBytes = 32 << 20
	}
	if c.MaxParseBodyBytes < 0 {
		return fmt.Errorf("--max-parse-body-bytes must be positive")
	}
	if c.BlockSearchBudget < 0 {
		return fmt.Errorf("--block-search-budget must not be negative")
	}
	if c.Concurrency < 0 {
		return fmt.Errorf("--concurrency must be 0 or more")
	}
	if c.WebhookTimeout == 0 {
		c.WebhookTimeout = 10 * time.Second
	}
	if c.WebhookRetryBase == 0 {
		c.WebhookRetryBase = 30 * time.Second
	}
	if c.WebhookMaxEndpoints == 0 {
		c.WebhookMaxEndpoints = 20
	}
	if c.WebhookTimeout < 0 || c.WebhookRetryBase < 0 || c.WebhookConcurrency < 0 || c.WebhookMaxEndpoints < 0 || c.OrgJobConcurrency < 0 {
		return fmt.Errorf("--webhook-timeout, --webhook-retry-base, --webhook-concurrency, --webhook-max-endpoints and --org-job-concurrency must not be negative")
	}
	return nil
}

// Embedded reports whether the database is the embedded SQLite file.
func (c *Config) Embedded() bool { return c.DatabaseURL == "" }

// ocrLanguageRE is a Tesseract language code: eng, deu, chi_sim, jpn_vert.
var ocrLanguageRE = regexp.MustCompile(`^[a-z]{3}(_[a-z]+)?$`)

// EnvName is the environment variable of a flag: addr → PLANGRAPH_ADDR.
func EnvName(flagName string) string {
	return "PLANGRAPH_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(EnvName(name)); ok {
		return v
	}
	return def
}

func envInt(name string, def int) int {
	if v, ok := os.LookupEnv(EnvName(name)); ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

func envBool(name string, def bool) bool {
	if v, ok := os.LookupEnv(EnvName(name)); ok {
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if v, ok := os.LookupEnv(EnvName(name)); ok {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return def
}
