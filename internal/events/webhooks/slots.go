package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// slots bounds the attempts in flight to one endpoint across every worker
// process, so that an endpoint that is slow or never answers holds at most
// that many of the webhook pool's slots while the others keep sending.
// Each endpoint has a Redis sorted set of tokens scored by when they lapse
// (a crashed worker's token lapses by itself).
type slots struct {
	rdb   redis.UniversalClient
	limit int
	ttl   time.Duration
}

// acquire takes a slot of endpoint; ok is false when all are taken. A
// Redis failure lets the attempt go ahead (the limit is a courtesy to the
// other endpoints, not a guarantee to anyone).
func (s slots) acquire(ctx context.Context, endpoint string) (release func(), ok bool) {
	if s.rdb == nil || s.limit <= 0 {
		return func() {}, true
	}
	key := "plangraph:webhooks:inflight:" + endpoint
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	now := time.Now()
	var taken *redis.IntCmd
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZRemRangeByScore(ctx, key, "-inf", strconv.FormatInt(now.UnixMilli(), 10))
		p.ZAdd(ctx, key, redis.Z{Score: float64(now.Add(s.ttl).UnixMilli()), Member: token})
		taken = p.ZCard(ctx, key)
		p.Expire(ctx, key, s.ttl)
		return nil
	})
	release = func() { s.rdb.ZRem(context.WithoutCancel(ctx), key, token) }
	if err != nil {
		return func() {}, true
	}
	// this token included; of two taking the last slot at once both may
	// step back, never both go ahead
	if taken.Val() > int64(s.limit) {
		release()
		return nil, false
	}
	return release, true
}
