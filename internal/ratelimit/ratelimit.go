// Package ratelimit limits requests per API key. Buckets live in Redis, so
// every api process draws on the same budget; the algorithm is GCRA (the
// generic cell rate algorithm, a leaky bucket without a refill timer) as
// implemented by github.com/go-redis/redis_rate in one Lua script, which
// makes each decision atomic across processes.
//
// Requests fall in two classes with separate budgets: "vision" (the
// expensive synchronous and job-starting vision operations, see Classify)
// and "management" (everything else).
package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/tenant"
)

// The request classes Classify returns; each has its own budget.
const (
	Management = "management"
	Vision     = "vision"
)

// Limit is one budget: Rate requests per Period on average, with up to
// Burst requests at once (the bucket's capacity).
type Limit struct {
	Rate   int
	Burst  int
	Period time.Duration
}

func (l Limit) valid() bool { return l.Rate > 0 && l.Burst > 0 && l.Period > 0 }

// Config sets the budgets of the two classes.
type Config struct {
	Management Limit
	Vision     Limit
	// AuthFailures is the budget of failed authentications (unknown,
	// malformed or revoked keys) per client address.
	AuthFailures Limit
	// Prefix namespaces the Redis keys; empty means DefaultPrefix. Every
	// process that must share budgets uses the same prefix.
	Prefix string
	// Log receives Redis failures; nil means slog.Default().
	Log *slog.Logger
	// Timeout bounds one Redis round trip before the request is let
	// through; zero means 500 ms.
	Timeout time.Duration
	// Local keeps the budgets in this process instead of Redis (the same
	// GCRA): for a Redis inside this process, which no other api process
	// reaches. Clock is its time (nil: time.Now).
	Local bool
	Clock func() time.Time
}

// DefaultPrefix is the Redis key prefix when Config.Prefix is empty. The
// keys are "rate:" + prefix + class + ":" + key id (redis_rate adds
// "rate:").
const DefaultPrefix = "plangraph:ratelimit:"

// Defaults are the budgets of each API key:
//
//   - management: 50 requests per second, bursts of up to 100;
//   - vision: 5 requests per second, bursts of up to 10.
func Defaults() Config {
	return Config{
		Management: Limit{Rate: 50, Burst: 100, Period: time.Second},
		Vision:     Limit{Rate: 5, Burst: 10, Period: time.Second},
		// 30 a minute, in bursts of up to 30: a client that mistyped its key
		// is not hindered, one trying keys at random is slowed to a crawl
		AuthFailures: Limit{Rate: 30, Burst: 30, Period: time.Minute},
		Prefix:       DefaultPrefix,
		Timeout:      500 * time.Millisecond,
	}
}

// Limiter applies Config to requests.
type Limiter struct {
	rl  allower
	cfg Config
	log *slog.Logger
}

// New makes a limiter over rdb (unused with cfg.Local). Limits left zero (or invalid) in cfg take
// their value from Defaults.
func New(rdb redis.UniversalClient, cfg Config) *Limiter {
	d := Defaults()
	if !cfg.Management.valid() {
		cfg.Management = d.Management
	}
	if !cfg.Vision.valid() {
		cfg.Vision = d.Vision
	}
	if !cfg.AuthFailures.valid() {
		cfg.AuthFailures = d.AuthFailures
	}
	if cfg.Prefix == "" {
		cfg.Prefix = d.Prefix
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = d.Timeout
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	if cfg.Local {
		return &Limiter{rl: newLocalGCRA(cfg.Clock), cfg: cfg, log: log}
	}
	return &Limiter{rl: redis_rate.NewLimiter(rdb), cfg: cfg, log: log}
}

// Config returns the effective configuration (defaults filled in).
func (l *Limiter) Config() Config { return l.cfg }

func (l *Limiter) limit(class string) Limit {
	switch class {
	case Vision:
		return l.cfg.Vision
	case authFailures:
		return l.cfg.AuthFailures
	}
	return l.cfg.Management
}

// authFailures is the class of the failed-authentication budgets.
const authFailures = "auth_failures"

// AuthBlocked returns a RATE_LIMITED problem when the client address addr
// has used up its budget of failed authentications (Config.AuthFailures),
// else nil; it takes nothing from the budget. While blocked, the address's
// requests are refused before their key is looked up, except those with a
// key known valid (see auth.Authenticator.Known): random keys from one
// address cost the database nothing. It fails open when Redis does not answer.
func (l *Limiter) AuthBlocked(ctx context.Context, addr string) error {
	res, lim, err := l.allow(ctx, authFailures, "ip:"+addr, 0)
	if err != nil {
		l.log.WarnContext(ctx, "failed-authentication limit check failed; request allowed", "err", err, "client", addr)
		return nil
	}
	if res.Remaining >= 1 {
		return nil
	}
	return refusal(res, lim, "client address's failed authentications")
}

// AuthFailed takes one failed authentication from addr's budget.
func (l *Limiter) AuthFailed(ctx context.Context, addr string) {
	if _, _, err := l.allow(ctx, authFailures, "ip:"+addr, 1); err != nil {
		l.log.WarnContext(ctx, "failed authentication not counted", "err", err, "client", addr)
	}
}

// ClientAddr is the host of r's remote address.
func ClientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Classify puts the vision operations the API serves in class "vision":
// POST /v1/parse, /v1/compare, /v1/drawings/{id}/compare,
// /v1/sheets/{id}/compare, /v1/overlays/{id}/analyze and
// /v1/projects/{id}/search and /ask (REST's route table marks the same).
// Every other request is "management".
func Classify(r *http.Request) string {
	if r.Method != http.MethodPost {
		return Management
	}
	s := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if len(s) < 2 || s[0] != "v1" {
		return Management
	}
	s = s[1:]
	switch {
	case len(s) == 1 && (s[0] == "parse" || s[0] == "compare"):
		return Vision
	case len(s) == 3 && s[1] != "" && (s[0] == "drawings" || s[0] == "sheets") && s[2] == "compare":
		return Vision
	case len(s) == 3 && s[1] != "" && s[0] == "overlays" && s[2] == "analyze":
		return Vision
	case len(s) == 3 && s[1] != "" && s[0] == "projects" && (s[2] == "search" || s[2] == "ask"):
		return Vision
	}
	return Management
}

// subject is whom a request's budget belongs to: its API key, else its
// organization, else (no authentication ran) the client address.
func subject(r *http.Request) (id, what string) {
	if id, what, ok := ctxSubject(r.Context()); ok {
		return id, what
	}
	return "ip:" + ClientAddr(r), "client address"
}

// ctxSubject is the API key (else the organization) ctx is authenticated as.
func ctxSubject(ctx context.Context) (id, what string, ok bool) {
	if p, ok := auth.From(ctx); ok {
		if p.KeyID != "" {
			return "key:" + p.KeyID, "API key", true
		}
		if p.OrgID != "" {
			return "org:" + p.OrgID, "organization", true
		}
	}
	if org, ok := tenant.Org(ctx); ok {
		return "org:" + org, "organization", true
	}
	return "", "", false
}

// allow takes n requests of class from who's budget.
func (l *Limiter) allow(ctx context.Context, class, who string, n int) (*redis_rate.Result, Limit, error) {
	lim := l.limit(class)
	ctx, cancel := context.WithTimeout(ctx, l.cfg.Timeout)
	defer cancel()
	res, err := l.rl.AllowN(ctx, l.cfg.Prefix+class+":"+who,
		redis_rate.Limit{Rate: lim.Rate, Burst: lim.Burst, Period: lim.Period}, n)
	return res, lim, err
}

// refusal is the 429 problem of a request over lim.
func refusal(res *redis_rate.Result, lim Limit, what string) *apierr.Error {
	retry := ceilSeconds(res.RetryAfter, 1)
	e := apierr.New(apierr.RateLimited, "rate limit of %s exceeded for this %s; retry after %d s", describe(lim), what, retry)
	e.Header = http.Header{"Retry-After": {strconv.Itoa(retry)}}
	return e
}

// Charge takes n operations of class (Vision or Management) from the
// budget of the API key ctx is authenticated as: operations that do not
// arrive one per request (GraphQL aliases, operations over a websocket)
// are charged this way. Over the budget it returns a RATE_LIMITED problem
// and nothing is taken (the n operations are refused together). Like
// Middleware it fails open when Redis does not answer; n <= 0 and an
// unauthenticated ctx cost nothing.
func (l *Limiter) Charge(ctx context.Context, class string, n int) error {
	who, what, ok := ctxSubject(ctx)
	if n <= 0 || !ok {
		return nil
	}
	if class != Vision {
		class = Management
	}
	res, lim, err := l.allow(ctx, class, who, n)
	if err != nil {
		l.log.WarnContext(ctx, "rate limit check failed; operation allowed", "err", err, "class", class, "subject", who,
			"request_id", httpx.RequestID(ctx))
		return nil
	}
	if res.Allowed >= n {
		return nil
	}
	if n > lim.Burst {
		return apierr.New(apierr.RateLimited, "this operation asks for %d %s requests at once; the budget holds at most %d (%s)",
			n, class, lim.Burst, describe(lim))
	}
	return refusal(res, lim, what)
}

// Middleware limits each request against the budget of class(r) (Classify
// when nil) for its API key. Every response carries the IETF headers
// RateLimit-Limit (the bucket's capacity, Burst), RateLimit-Remaining
// (requests that may be sent right now) and RateLimit-Reset (seconds until
// the bucket is full again), plus RateLimit-Policy ("Burst;w=seconds", the
// same budget written as a quota per window). A request over the limit is
// answered 429 RATE_LIMITED with Retry-After (whole seconds, at least 1)
// and never reaches next.
//
// When Redis fails or is too slow the request is logged and let through:
// the limiter fails open, so a Redis outage degrades protection rather
// than the API.
func (l *Limiter) Middleware(class func(*http.Request) string) func(http.Handler) http.Handler {
	if class == nil {
		class = Classify
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c := class(r)
			if c != Vision {
				c = Management
			}
			who, what := subject(r)
			res, lim, err := l.allow(r.Context(), c, who, 1)
			if err != nil {
				// fail open: no budget is known, so no RateLimit headers
				l.log.WarnContext(r.Context(), "rate limit check failed; request allowed",
					"err", err, "class", c, "subject", who, "request_id", httpx.RequestID(r.Context()))
				next.ServeHTTP(w, r)
				return
			}
			h := w.Header()
			h.Set("RateLimit-Limit", strconv.Itoa(lim.Burst))
			h.Set("RateLimit-Remaining", strconv.Itoa(max(res.Remaining, 0)))
			h.Set("RateLimit-Reset", strconv.Itoa(ceilSeconds(res.ResetAfter, 0)))
			h.Set("RateLimit-Policy", fmt.Sprintf("%d;w=%d", lim.Burst, ceilSeconds(time.Duration(float64(lim.Period)*float64(lim.Burst)/float64(lim.Rate)), 1)))
			if res.Allowed > 0 {
				next.ServeHTTP(w, r)
				return
			}
			httpx.Problem(w, r, refusal(res, lim, what))
		})
	}
}

// ceilSeconds rounds d up to whole seconds, at least min.
func ceilSeconds(d time.Duration, min int) int {
	s := int(math.Ceil(d.Seconds()))
	if s < min {
		return min
	}
	return s
}

// describe writes a limit for people: "50 requests per second".
func describe(l Limit) string {
	n := fmt.Sprintf("%d requests", l.Rate)
	if l.Rate == 1 {
		n = "1 request"
	}
	switch l.Period {
	case time.Second:
		return n + " per second"
	case time.Minute:
		return n + " per minute"
	case time.Hour:
		return n + " per hour"
	}
	return n + " per " + l.Period.String()
}
