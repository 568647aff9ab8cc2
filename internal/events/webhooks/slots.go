package webhooks

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/jobs"
)

// slots bounds the attempts in flight to one endpoint, and for one
// organization's endpoints together, across every worker process, so that
// an endpoint that is slow or never answers — or an organization with
// many such endpoints — holds at most that many of the webhook pool's
// slots while the others keep sending (jobs.Slots: a crashed worker's
// token lapses by itself).
type slots struct {
	rdb         redis.UniversalClient
	perEndpoint int
	perOrg      int
	ttl         time.Duration
}

// acquire takes a slot of endpoint and one of its organization org; ok is
// false when either has all its slots taken (and then neither is held). A
// Redis failure lets the attempt go ahead.
func (s slots) acquire(ctx context.Context, org, endpoint string) (release func(), ok bool) {
	js := jobs.Slots{RDB: s.rdb, TTL: s.ttl}
	releaseEndpoint, ok := js.Take(ctx, "plangraph:webhooks:inflight:"+endpoint, s.perEndpoint)
	if !ok {
		return nil, false
	}
	releaseOrg, ok := js.Take(ctx, "plangraph:webhooks:inflight-org:"+org, s.perOrg)
	if !ok {
		releaseEndpoint()
		return nil, false
	}
	return func() { releaseOrg(); releaseEndpoint() }, true
}
