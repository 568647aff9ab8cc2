// Package testenv gives integration tests the service's two deployment
// profiles and a running server on each:
//
//   - "embedded": SQLite in a temporary directory and the in-process Redis;
//   - "postgres": a fresh database on the PostgreSQL at 127.0.0.1:5432 and
//     a reserved database index on the Redis at 127.0.0.1:6379.
//
// PostgreSQL and Redis are part of the test environment (`make test` starts
// them): when they cannot be reached the test fails, it is never skipped.
// PLANGRAPH_TEST_POSTGRES (a URL of the maintenance database, as
// scripts/services.sh prints it) and PLANGRAPH_TEST_REDIS_ADDR (host:port)
// point the tests elsewhere.
package testenv

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	cflog "github.com/cloudflare/cfssl/log"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/internal/config"
)

const (
	defaultPostgresURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	defaultRedisAddr   = "127.0.0.1:6379"

	// redisLease is how long a reserved Redis database stays reserved if
	// the test process dies before releasing it.
	redisLease = 15 * time.Minute
	// redisWait bounds how long Redis waits for a free database index.
	redisWait = 30 * time.Second
)

func init() {
	// cfssl logs every key and signature at info level.
	cflog.Level = cflog.LevelWarning
}

// Profile is one way of running the service.
type Profile struct {
	Name   string
	Config config.Config
}

// Profiles returns the embedded and the postgres profile, each with its own
// data directory, database and Redis, all removed when t ends. Tests run
// each: for _, p := range testenv.Profiles(t) { t.Run(p.Name, …) }.
func Profiles(t testing.TB) []Profile {
	t.Helper()
	return []Profile{
		{Name: "embedded", Config: Config(t, "", "")},
		{Name: "postgres", Config: Config(t, Postgres(t), Redis(t))},
	}
}

// Config is a resolved configuration on databaseURL and redisURL ("" for
// the embedded ones) with a fresh data directory and quiet logs.
func Config(t testing.TB, databaseURL, redisURL string) config.Config {
	t.Helper()
	cfg := config.Config{
		Addr:            "127.0.0.1:0",
		DataDir:         t.TempDir(),
		DatabaseURL:     databaseURL,
		RedisURL:        redisURL,
		TLSHosts:        "localhost,127.0.0.1,::1",
		LogLevel:        "warn",
		Concurrency:     2,
		ShutdownTimeout: 5 * time.Second,
		MaxBodyBytes:    1 << 20,
	}
	if err := cfg.Resolve(); err != nil {
		t.Fatalf("testenv: config: %v", err)
	}
	return cfg
}

func postgresAdminURL() string {
	if u := os.Getenv("PLANGRAPH_TEST_POSTGRES"); u != "" {
		return u
	}
	return defaultPostgresURL
}

func redisAddr() string {
	if a := os.Getenv("PLANGRAPH_TEST_REDIS_ADDR"); a != "" {
		return a
	}
	return defaultRedisAddr
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// Postgres creates a database of its own for t on the test PostgreSQL and
// returns its URL; the database is dropped when t ends.
func Postgres(t testing.TB) string {
	t.Helper()
	adminURL := postgresAdminURL()
	u, err := url.Parse(adminURL)
	if err != nil {
		t.Fatalf("testenv: PostgreSQL URL %q: %v", adminURL, err)
	}
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		t.Fatalf("testenv: PostgreSQL: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		admin.Close()
		t.Fatalf("testenv: PostgreSQL is not reachable at %s (%v): the postgres profile needs it; "+
			"`make test` starts it, or set PLANGRAPH_TEST_POSTGRES", u.Host, err)
	}
	name := "plangraph_test_" + randomHex(8)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		t.Fatalf("testenv: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("testenv: drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// releaseScript deletes a reservation only while it is still ours.
var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// RedisReservationKey is the key on database 0 that reserves database n.
func RedisReservationKey(n int) string { return "plangraph:testdb:" + strconv.Itoa(n) }

// Redis reserves a database index (1–15) of the test Redis for t, empties
// it and returns its URL; the database is emptied and released when t ends.
// When every index is taken it waits for one to be released.
func Redis(t testing.TB) string {
	t.Helper()
	addr := redisAddr()
	admin := redis.NewClient(&redis.Options{Addr: addr, DB: 0})
	ctx, cancel := context.WithTimeout(context.Background(), redisWait+10*time.Second)
	defer cancel()
	pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
	err := admin.Ping(pctx).Err()
	pcancel()
	if err != nil {
		admin.Close()
		t.Fatalf("testenv: Redis is not reachable at %s (%v): the postgres profile needs it; "+
			"`make test` starts it, or set PLANGRAPH_TEST_REDIS_ADDR", addr, err)
	}
	token := randomHex(16)
	n := 0
	deadline := time.Now().Add(redisWait)
	for n == 0 {
		for i := 1; i <= 15; i++ {
			ok, err := admin.SetNX(ctx, RedisReservationKey(i), token, redisLease).Result()
			if err != nil {
				admin.Close()
				t.Fatalf("testenv: Redis reserve database %d: %v", i, err)
			}
			if ok {
				n = i
				break
			}
		}
		if n == 0 {
			if time.Now().After(deadline) {
				admin.Close()
				t.Fatalf("testenv: Redis at %s: every database 1–15 stayed reserved (plangraph:testdb:N on database 0) for %v", addr, redisWait)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	flush := func(ctx context.Context) error {
		c := redis.NewClient(&redis.Options{Addr: addr, DB: n})
		defer c.Close()
		return c.FlushDB(ctx).Err()
	}
	release := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return errors.Join(flush(ctx), releaseScript.Run(ctx, admin, []string{RedisReservationKey(n)}, token).Err(), admin.Close())
	}
	if err := flush(ctx); err != nil {
		_ = release()
		t.Fatalf("testenv: Redis flush database %d: %v", n, err)
	}
	t.Cleanup(func() {
		if err := release(); err != nil {
			t.Errorf("testenv: Redis release database %d: %v", n, err)
		}
	})
	return fmt.Sprintf("redis://%s/%d", addr, n)
}
