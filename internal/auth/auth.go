// Package auth makes and checks API keys. A key is "sk_" followed by 43
// base62 characters (256 random bits); only its SHA-256 is stored.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/apikey"
	"github.com/plangraph/plangraph/ent/organization"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/tenant"
)

const (
	Prefix  = "sk_"
	bodyLen = 43 // ceil(256 / log2(62))
	base62  = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// Principal is who a request acts for.
type Principal struct {
	OrgID string
	KeyID string
}

type ctxKey struct{}

// With stores p in ctx and scopes ctx to p's organization.
func With(ctx context.Context, p Principal) context.Context {
	return tenant.WithOrg(context.WithValue(ctx, ctxKey{}, p), p.OrgID)
}

// From returns the principal of ctx.
func From(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(ctxKey{}).(Principal)
	return p, ok
}

// NewKey returns a fresh random key.
func NewKey() (string, error) {
	var sb strings.Builder
	sb.Grow(len(Prefix) + bodyLen)
	sb.WriteString(Prefix)
	max := big.NewInt(62)
	for i := 0; i < bodyLen; i++ {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", err
		}
		sb.WriteByte(base62[n.Int64()])
	}
	return sb.String(), nil
}

// Hash is what is stored for key.
func Hash(key string) string {
	s := sha256.Sum256([]byte(key))
	return hex.EncodeToString(s[:])
}

// WellFormed reports whether key has the shape of a key this service issues.
func WellFormed(key string) bool {
	if !strings.HasPrefix(key, Prefix) || len(key) != len(Prefix)+bodyLen {
		return false
	}
	for i := len(Prefix); i < len(key); i++ {
		if strings.IndexByte(base62, key[i]) < 0 {
			return false
		}
	}
	return true
}

// CreateKey makes a key for the organization named orgName, creating the
// organization when it does not exist, and returns the key (shown once).
func CreateKey(ctx context.Context, db *ent.Client, orgName, label string) (key string, rec *ent.APIKey, err error) {
	ctx = tenant.System(ctx)
	orgName = strings.TrimSpace(orgName)
	if orgName == "" {
		return "", nil, apierr.Invalid("org", "must not be empty")
	}
	err = db.Organization.Create().SetName(orgName).
		OnConflictColumns(organization.FieldName).DoNothing().Exec(ctx)
	if err != nil && !strings.Contains(err.Error(), "no rows") {
		return "", nil, err
	}
	org, err := db.Organization.Query().Where(organization.Name(orgName)).Only(ctx)
	if err != nil {
		return "", nil, err
	}
	if key, err = NewKey(); err != nil {
		return "", nil, err
	}
	rec, err = db.APIKey.Create().SetOrgID(org.ID).SetName(label).
		SetHash(Hash(key)).SetHint(key[:len(Prefix)+4]).Save(ctx)
	if err != nil {
		return "", nil, err
	}
	return key, rec, nil
}

// FromRequest returns the key sent as "Authorization: Bearer sk_…" or
// "X-API-Key: sk_…".
func FromRequest(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
			return strings.TrimSpace(h[7:])
		}
		return ""
	}
	return strings.TrimSpace(r.Header.Get("X-API-Key"))
}

// Authenticator checks keys against the database, remembering answers for
// a short while so that a busy client costs one lookup per TTL.
type Authenticator struct {
	db  *ent.Client
	ttl time.Duration

	mu    sync.Mutex
	cache map[string]cached // by hash

	touches sync.WaitGroup // last-use writes in flight
}

type cached struct {
	p       Principal
	ok      bool
	expires time.Time
	touched time.Time
}

// NewAuthenticator checks keys in db. Revoking a key takes effect within ttl.
func NewAuthenticator(db *ent.Client, ttl time.Duration) *Authenticator {
	return &Authenticator{db: db, ttl: ttl, cache: map[string]cached{}}
}

var errUnauthorized = apierr.New(apierr.Unauthorized, "a valid API key is required: send it as 'Authorization: Bearer sk_…' or 'X-API-Key: sk_…'")

// Check returns the principal of key, or an Unauthorized error.
func (a *Authenticator) Check(ctx context.Context, key string) (Principal, error) {
	if key == "" {
		return Principal{}, errUnauthorized
	}
	if !WellFormed(key) {
		return Principal{}, apierr.New(apierr.Unauthorized, "the API key is not valid")
	}
	h := Hash(key)
	now := time.Now()
	a.mu.Lock()
	c, hit := a.cache[h]
	a.mu.Unlock()
	if !hit || now.After(c.expires) {
		rec, err := a.db.APIKey.Query().
			Where(apikey.Hash(h), apikey.RevokedAtIsNil()).
			Only(tenant.System(ctx))
		switch {
		case ent.IsNotFound(err):
			c = cached{ok: false}
		case err != nil:
			return Principal{}, apierr.Internalf(err, "checking the API key")
		default:
			c = cached{p: Principal{OrgID: rec.OrgID, KeyID: rec.ID}, ok: true, touched: timeOr(rec.LastUsedAt)}
		}
		c.expires = now.Add(a.ttl)
		a.mu.Lock()
		if len(a.cache) > 100_000 {
			a.cache = map[string]cached{}
		}
		a.cache[h] = c
		a.mu.Unlock()
	}
	if !c.ok {
		return Principal{}, apierr.New(apierr.Unauthorized, "the API key is not valid or was revoked")
	}
	if now.Sub(c.touched) > time.Minute {
		a.touch(h, c.p.KeyID, now)
	}
	return c.p, nil
}

// Known returns the principal of key when a recent check found it valid
// (within the cache's ttl), without asking the database.
func (a *Authenticator) Known(key string) (Principal, bool) {
	if !WellFormed(key) {
		return Principal{}, false
	}
	a.mu.Lock()
	c, hit := a.cache[Hash(key)]
	a.mu.Unlock()
	if !hit || !c.ok || time.Now().After(c.expires) {
		return Principal{}, false
	}
	return c.p, true
}

// touch records last use at most once a minute per key, off the request path.
func (a *Authenticator) touch(h, keyID string, now time.Time) {
	a.mu.Lock()
	c := a.cache[h]
	c.touched = now
	a.cache[h] = c
	a.mu.Unlock()
	a.touches.Add(1)
	go func() {
		defer a.touches.Done()
		ctx, cancel := context.WithTimeout(tenant.System(context.Background()), 5*time.Second)
		defer cancel()
		_ = a.db.APIKey.UpdateOneID(keyID).SetLastUsedAt(now.UTC()).Exec(ctx)
	}()
}

// Wait returns once every last-use write started so far has ended (each
// gives up after 5 s): call it before closing the database, so no write
// lands on a closed store or after its files are gone.
func (a *Authenticator) Wait() { a.touches.Wait() }

func timeOr(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}
