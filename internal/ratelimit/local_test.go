package ratelimit

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// TestLocalGCRAMatchesScript: the in-process GCRA decides as redis_rate's
// Lua script does, step for step, on the same clock — bursts, refusals with
// their retry and reset times, refills, costs of 0 and of several, keys
// expiring.
func TestLocalGCRAMatchesScript(t *testing.T) {
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer c.Close()
	script := redis_rate.NewLimiter(c)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	m.SetTime(now)
	local := newLocalGCRA(func() time.Time { return now })
	limits := []redis_rate.Limit{
		{Rate: 5, Burst: 10, Period: time.Second},
		{Rate: 30, Burst: 30, Period: time.Minute},
		{Rate: 1, Burst: 3, Period: time.Second},
	}
	rng := rand.New(rand.NewSource(1))
	ctx := context.Background()
	refused := 0
	for i := 0; i < 3000; i++ {
		// mostly quick steps (10 µs multiples, the precision the script stores), now and then a pause
		step := time.Duration(rng.Intn(40)) * 10 * time.Millisecond
		if rng.Intn(50) == 0 {
			step = time.Duration(rng.Intn(90)) * time.Second
		}
		now = now.Add(step)
		m.SetTime(now)
		m.FastForward(step) // expire keys as Redis would
		key := []string{"a", "b", "c"}[rng.Intn(3)]
		lim := limits[rng.Intn(len(limits))]
		n := []int{0, 1, 1, 1, 2, 5}[rng.Intn(6)]
		want, err := script.AllowN(ctx, key+lim.String(), lim, n)
		if err != nil {
			t.Fatal(err)
		}
		got, err := local.AllowN(ctx, key+lim.String(), lim, n)
		if err != nil {
			t.Fatal(err)
		}
		if got.Allowed != want.Allowed || got.Remaining != want.Remaining || !near(got.RetryAfter, want.RetryAfter) || !near(got.ResetAfter, want.ResetAfter) {
			t.Fatalf("step %d (%s, %v, n=%d): local %+v, script %+v", i, key, lim, n, *got, *want)
		}
		if want.Allowed == 0 && n > 0 {
			refused++
		}
	}
	if refused < 100 {
		t.Fatalf("only %d refusals: the sequence does not test the limit", refused)
	}
}

// near: the script hands times over as decimal strings of its floats
func near(a, b time.Duration) bool {
	d := a - b
	return d < 2*time.Microsecond && d > -2*time.Microsecond
}
