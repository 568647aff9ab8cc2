// Package jobs runs every long operation on asynq workers over Redis: a
// real Redis in production, an in-process one (miniredis, which runs
// asynq's Lua scripts) in the embedded profile. It is the framework — queue,
// workers, the runner of job lifecycles with parents' finalizers, dispatch,
// job events and the registry of job types; the pipelines (jobs/ingest,
// jobs/parse) register their handlers with a Runner and are never imported
// here.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// Redis is the queue's connection: options for asynq plus a client for
// everything else (rate limits, pub/sub).
type Redis struct {
	Opt      asynq.RedisConnOpt
	Client   redis.UniversalClient
	Embedded bool
	mini     *miniredis.Miniredis
}

// OpenRedis connects to url (redis://[:password@]host:port/db), or starts
// an in-process Redis when url is empty.
func OpenRedis(ctx context.Context, url string) (*Redis, error) {
	r := &Redis{}
	if url == "" {
		// loopback only, and a random password: another local user or a
		// page in a browser on this machine cannot queue tasks or read them
		var pw [24]byte
		if _, err := rand.Read(pw[:]); err != nil {
			return nil, fmt.Errorf("embedded redis password: %w", err)
		}
		password := hex.EncodeToString(pw[:])
		m := miniredis.NewMiniRedis()
		m.RequireAuth(password)
		if err := m.StartAddr("127.0.0.1:0"); err != nil {
			return nil, fmt.Errorf("embedded redis: %w", err)
		}
		r.mini, r.Embedded = m, true
		url = "redis://:" + password + "@" + m.Addr()
	}
	opt, err := asynq.ParseRedisURI(url)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("redis url: %w", err)
	}
	r.Opt = opt
	r.Client = opt.MakeRedisClient().(redis.UniversalClient)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := r.Client.Ping(pctx).Err(); err != nil {
		r.Close()
		return nil, fmt.Errorf("redis: %w", err)
	}
	return r, nil
}

// Ping checks that Redis answers.
func (r *Redis) Ping(ctx context.Context) error { return r.Client.Ping(ctx).Err() }

// Close closes the client and stops the embedded server.
func (r *Redis) Close() {
	if r.Client != nil {
		_ = r.Client.Close()
	}
	if r.mini != nil {
		r.mini.Close()
	}
}
