package testenv_test

import (
	"context"
	"database/sql"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/internal/testenv"
)

func TestPostgresDatabaseIsCreatedAndDropped(t *testing.T) {
	var dbURL string
	t.Run("use", func(t *testing.T) {
		dbURL = testenv.Postgres(t)
		db, err := sql.Open("pgx", dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var name string
		if err := db.QueryRow("SELECT current_database()").Scan(&name); err != nil {
			t.Fatalf("connect to the new database: %v", err)
		}
		if !strings.HasPrefix(name, "plangraph_test_") {
			t.Errorf("database %q, want a plangraph_test_ name", name)
		}
		// an open connection must not keep the database from being dropped
		if _, err := db.Exec("CREATE TABLE t (x int)"); err != nil {
			t.Fatal(err)
		}
	})
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	u.Path = "/postgres"
	admin, err := sql.Open("pgx", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var n int
	if err := admin.QueryRow("SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("database %s still exists after the test ended", name)
	}
}

func TestRedisDatabaseIsReservedAndReleased(t *testing.T) {
	ctx := context.Background()
	var db int
	var addr string
	t.Run("use", func(t *testing.T) {
		raw := testenv.Redis(t)
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "redis" {
			t.Fatalf("Redis URL %q", raw)
		}
		addr = u.Host
		db, err = strconv.Atoi(strings.TrimPrefix(u.Path, "/"))
		if err != nil || db < 1 || db > 15 {
			t.Fatalf("Redis URL %q: database index must be 1–15", raw)
		}
		c := redis.NewClient(&redis.Options{Addr: addr, DB: db})
		defer c.Close()
		if n, err := c.DBSize(ctx).Result(); err != nil || n != 0 {
			t.Errorf("reserved database holds %d keys (err %v), want an empty one", n, err)
		}
		if err := c.Set(ctx, "leftover", "x", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		admin := redis.NewClient(&redis.Options{Addr: addr})
		defer admin.Close()
		if ttl, err := admin.TTL(ctx, testenv.RedisReservationKey(db)).Result(); err != nil || ttl <= 0 {
			t.Errorf("reservation key has TTL %v (err %v), want a lease", ttl, err)
		}
		// a second reservation in the same test gets another index
		other := testenv.Redis(t)
		if other == raw {
			t.Errorf("two reservations got the same database %s", raw)
		}
	})
	c := redis.NewClient(&redis.Options{Addr: addr, DB: db})
	defer c.Close()
	if n, err := c.Exists(ctx, "leftover").Result(); err != nil || n != 0 {
		t.Errorf("database %d was not emptied on release (exists=%d, err %v)", db, n, err)
	}
	admin := redis.NewClient(&redis.Options{Addr: addr})
	defer admin.Close()
	if n, err := admin.Exists(ctx, testenv.RedisReservationKey(db)).Result(); err != nil || n != 0 {
		t.Errorf("database %d is still reserved after the test ended (exists=%d, err %v)", db, n, err)
	}
}

func TestProfiles(t *testing.T) {
	ps := testenv.Profiles(t)
	if len(ps) != 2 || ps[0].Name != "embedded" || ps[1].Name != "postgres" {
		t.Fatalf("profiles %+v, want embedded and postgres", ps)
	}
	emb, pg := ps[0].Config, ps[1].Config
	if emb.DatabaseURL != "" || emb.RedisURL != "" {
		t.Errorf("embedded profile uses %q and %q, want the embedded database and Redis", emb.DatabaseURL, emb.RedisURL)
	}
	if !strings.HasPrefix(pg.DatabaseURL, "postgres://") || !strings.HasPrefix(pg.RedisURL, "redis://") {
		t.Errorf("postgres profile uses %q and %q", pg.DatabaseURL, pg.RedisURL)
	}
	if emb.DataDir == "" || emb.DataDir == pg.DataDir {
		t.Errorf("profiles must have their own data directories: %q, %q", emb.DataDir, pg.DataDir)
	}
}
