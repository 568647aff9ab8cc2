package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// slots bounds the attempts in flight to one endpoint, and for one
// organization's endpoints together, across every worker process, so that
// an endpoint that is slow or never answers — or an organization with
// many such endpoints — holds at most that many of the webhook pool's
// slots while the others keep sending. Each endpoint and each organization
// has a Redis sorted set of tokens scored by when they lapse (a crashed
// worker's token lapses by itself).
type slots struct {
	rdb         redis.UniversalClient
	perEndpoint int
	perOrg      int
	ttl         time.Duration
}

// acquire takes a slot of endpoint and one of its organization org; ok is
// false when either has all its slots taken (and then neither is held). A
// Redis failure lets the attempt go ahead (the limits are a courtesy to
// the other endpoints and organizations, not a guarantee to anyone).
func (s slots) acquire(ctx context.Context, org, endpoint string) (release func(), ok bool) {
	if s.rdb == nil {
		return func() {}, true
	}
	releaseEndpoint, ok := s.take(ctx, "plangraph:webhooks:inflight:"+endpoint, s.perEndpoint)
	if !ok {
		return nil, false
	}
	releaseOrg, ok := s.take(ctx, "plangraph:webhooks:inflight-org:"+org, s.perOrg)
	if !ok {
		releaseEndpoint()
		return nil, false
	}
	return func() { releaseOrg(); releaseEndpoint() }, true
}

// take adds a token to the set key unless it holds limit live ones
// already (no limit when limit <= 0).
func (s slots) take(ctx context.Context, key string, limit int) (release func(), ok bool) {
	if limit <= 0 {
		return func() {}, true
	}
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
	if taken.Val() > int64(limit) {
		release()
		return nil, false
	}
	return release, true
}
