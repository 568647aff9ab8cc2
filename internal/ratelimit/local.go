package ratelimit

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
)

// allower takes n from the bucket at key: redis_rate's Lua script on a
// Redis shared by every api process, or localGCRA when the budgets live in
// this process alone.
type allower interface {
	AllowN(ctx context.Context, key string, limit redis_rate.Limit, n int) (*redis_rate.Result, error)
}

// localGCRA is redis_rate's GCRA script run in this process, for a
// deployment whose Redis lives inside the process too (the embedded
// profile: one api process, nothing to share budgets with). It makes the
// same decisions from the same state, one theoretical arrival time per key,
// without a round trip to the in-process Redis and a Lua interpreter per
// request (which cost a fifth of an embedded server's CPU on a page of 100
// projects).
type localGCRA struct {
	now func() time.Time

	mu    sync.Mutex
	tat   map[string]bucket
	calls int
}

// bucket is one key's theoretical arrival time (seconds, as the script
// keeps it) and when the key expires (the script's SET … EX).
type bucket struct {
	tat     float64
	expires time.Time
}

func newLocalGCRA(now func() time.Time) *localGCRA {
	if now == nil {
		now = time.Now
	}
	return &localGCRA{now: now, tat: map[string]bucket{}}
}

// jan2017 is the script's epoch, so seconds keep the same precision.
var jan2017 = time.Date(2017, 1, 1, 0, 0, 0, 0, time.UTC)

// AllowN is redis_rate's allowN script, line for line.
func (g *localGCRA) AllowN(_ context.Context, key string, limit redis_rate.Limit, n int) (*redis_rate.Result, error) {
	t := g.now()
	now := t.Sub(jan2017).Seconds()
	emission := limit.Period.Seconds() / float64(limit.Rate)
	increment := emission * float64(n)
	burstOffset := emission * float64(limit.Burst)

	g.mu.Lock()
	defer g.mu.Unlock()
	g.sweep(t)
	tat := now
	if b, ok := g.tat[key]; ok && t.Before(b.expires) {
		tat = b.tat
	}
	tat = math.Max(tat, now)
	newTAT := tat + increment
	diff := now - (newTAT - burstOffset)
	remaining := diff / emission
	if remaining < 0 {
		return &redis_rate.Result{Limit: limit, Allowed: 0, Remaining: 0,
			RetryAfter: seconds(-diff), ResetAfter: seconds(tat - now)}, nil
	}
	resetAfter := newTAT - now
	if resetAfter > 0 {
		g.tat[key] = bucket{tat: newTAT, expires: t.Add(time.Duration(math.Ceil(resetAfter)) * time.Second)}
	}
	return &redis_rate.Result{Limit: limit, Allowed: n, Remaining: int(remaining), RetryAfter: -1, ResetAfter: seconds(resetAfter)}, nil
}

// sweep drops expired keys every 1024 calls, so the map holds the keys
// active within their budgets' windows.
func (g *localGCRA) sweep(t time.Time) {
	g.calls++
	if g.calls%1024 != 0 {
		return
	}
	for k, b := range g.tat {
		if !t.Before(b.expires) {
			delete(g.tat, k)
		}
	}
}

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
