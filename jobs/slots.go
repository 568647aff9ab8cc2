package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrBusy is a task put off because what it needs (its organization's
// job slots, an endpoint's delivery slots) is all taken. The worker does
// not count it as a failed attempt: the task goes to the back of its queue
// without spending a retry.
var ErrBusy = errors.New("busy: all slots taken")

// Slots bounds how many holders a key may have at once across every
// process on one Redis: a sorted set of tokens per key, each scored by
// when it lapses, so that a crashed holder's token lapses by itself.
type Slots struct {
	RDB redis.UniversalClient
	TTL time.Duration
}

// Take adds a token to key unless it has limit live ones already (no limit
// when limit <= 0). A Redis failure lets the holder go ahead: the limits
// are a courtesy to the others, not a guarantee to anyone.
func (s Slots) Take(ctx context.Context, key string, limit int) (release func(), ok bool) {
	release, _, ok = s.take(ctx, key, limit)
	return release, ok
}

func (s Slots) take(ctx context.Context, key string, limit int) (release func(), token string, ok bool) {
	if s.RDB == nil || limit <= 0 {
		return func() {}, "", true
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	token = hex.EncodeToString(b)
	now := time.Now()
	var taken *redis.IntCmd
	_, err := s.RDB.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZRemRangeByScore(ctx, key, "-inf", strconv.FormatInt(now.UnixMilli(), 10))
		p.ZAdd(ctx, key, redis.Z{Score: float64(now.Add(s.TTL).UnixMilli()), Member: token})
		taken = p.ZCard(ctx, key)
		p.Expire(ctx, key, s.TTL)
		return nil
	})
	release = func() { s.RDB.ZRem(context.WithoutCancel(ctx), key, token) }
	if err != nil {
		return func() {}, "", true
	}
	// this token included; of two taking the last slot at once both may
	// step back, never both go ahead
	if taken.Val() > int64(limit) {
		release()
		return nil, "", false
	}
	return release, token, true
}

// Hold is Take for a holder that may outlive TTL (a job runs for up to
// hours): its token is renewed every TTL/3 until release, so it lapses
// only when its process is gone.
func (s Slots) Hold(ctx context.Context, key string, limit int) (release func(), ok bool) {
	drop, token, ok := s.take(ctx, key, limit)
	if !ok || token == "" {
		return drop, ok
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(s.TTL / 3)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				bg := context.WithoutCancel(ctx)
				s.RDB.ZAddXX(bg, key, redis.Z{Score: float64(time.Now().Add(s.TTL).UnixMilli()), Member: token})
				s.RDB.Expire(bg, key, s.TTL)
			}
		}
	}()
	return func() { close(stop); <-done; drop() }, true
}
