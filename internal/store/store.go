// Package store opens the database: PostgreSQL through pgx's database/sql
// driver, or an embedded SQLite file. Both go through one Ent client.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	"modernc.org/sqlite"               // registers "sqlite"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/setting"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/secretbox"
	"github.com/plangraph/plangraph/internal/tenant"

	_ "github.com/plangraph/plangraph/ent/runtime" // schema hooks and interceptors
)

func init() {
	apierr.Classify(func(err error) *apierr.Error {
		switch {
		case ent.IsNotFound(err):
			return &apierr.Error{Kind: apierr.NotFound, Detail: "the requested resource does not exist", Err: err}
		case ent.IsValidationError(err):
			var ve *ent.ValidationError
			errors.As(err, &ve)
			return apierr.Invalid(ve.Name, strings.TrimPrefix(ve.Error(), "ent: "))
		case ent.IsConstraintError(err):
			return &apierr.Error{Kind: apierr.Conflict, Detail: "the request conflicts with an existing resource", Err: err}
		case Unreachable(err):
			return &apierr.Error{Kind: apierr.Unavailable, Code: "DATABASE_UNAVAILABLE", Detail: "the database cannot be reached; try again shortly", Err: err}
		}
		return nil
	})
}

// Unreachable is whether err says the database could not be reached or
// dropped the connection (a restart, a failover, a network cut) rather than
// refusing the statement: the request may succeed when tried again, so it
// is answered 503, not 500. The pool opens new connections by itself once
// the database is back.
func Unreachable(err error) bool {
	var (
		ce *pgconn.ConnectError
		pe *pgconn.PgError
		oe *net.OpError
	)
	switch {
	case errors.As(err, &ce), errors.As(err, &oe), errors.Is(err, driver.ErrBadConn), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	case errors.As(err, &pe):
		// class 08: connection exception; 57P01-57P03: shut down, crashed, starting up
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	return false
}

func init() {
	// SQLite's LOWER() folds ASCII only, so a case-insensitive filter
	// (ent's ContainsFold: LOWER(col) LIKE lower(arg)) missed "Étage" for
	// "étage". Replace it with Go's Unicode lower-casing on every connection.
	sqlite.MustRegisterDeterministicScalarFunction("lower", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		switch v := args[0].(type) {
		case string:
			return strings.ToLower(v), nil
		case []byte:
			return []byte(strings.ToLower(string(v))), nil
		}
		return args[0], nil
	})
}

// Store is the open database.
type Store struct {
	*ent.Client
	DB      *sql.DB
	Dialect string
}

// Open connects to databaseURL, or to SQLite at dataDir/plangraph.db when
// databaseURL is empty.
func Open(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	var (
		db  *sql.DB
		dia string
		err error
	)
	switch {
	case databaseURL == "":
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, err
		}
		db, err = OpenSQLite(filepath.Join(dataDir, "plangraph.db"))
		dia = dialect.SQLite
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		db, err = sql.Open("pgx", databaseURL)
		dia = dialect.Postgres
		if err == nil {
			db.SetMaxOpenConns(32)
			db.SetMaxIdleConns(16)
			db.SetConnMaxIdleTime(5 * time.Minute)
		}
	case strings.HasPrefix(databaseURL, "sqlite://"), strings.HasPrefix(databaseURL, "file:"):
		db, err = OpenSQLite(strings.TrimPrefix(databaseURL, "sqlite://"))
		dia = dialect.SQLite
	default:
		return nil, fmt.Errorf("database url: want postgres://… or sqlite://PATH, got %q", redact(databaseURL))
	}
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("database %s: %w", redact(databaseURL), err)
	}
	drv := entsql.OpenDB(dia, db)
	return &Store{Client: ent.NewClient(ent.Driver(drv)), DB: db, Dialect: dia}, nil
}

// OpenSQLite opens path with WAL, foreign keys and a busy timeout.
func OpenSQLite(path string) (*sql.DB, error) {
	dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	// one writer at a time is SQLite's rule; a small pool keeps readers concurrent
	db.SetMaxOpenConns(8)
	return db, nil
}

// Migrate brings the schema up to date. It is safe to run concurrently from
// several processes on PostgreSQL (guarded by an advisory lock).
func (s *Store) Migrate(ctx context.Context) error {
	if s.Dialect == dialect.Postgres {
		conn, err := s.DB.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(7240501)"); err != nil {
			return err
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(7240501)") //nolint:errcheck
	}
	if err := s.Schema.Create(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// the search index's tables and full-text indexes are outside Ent
	return index.Ensure(ctx, s.DB, s.Dialect)
}

// Secret returns the server-wide secret named name, creating a random one
// the first time. Every process reads the same value from the database,
// where box seals it (a value stored before sealing is sealed now).
func (s *Store) Secret(ctx context.Context, name string, box *secretbox.Box) ([]byte, error) {
	ctx = tenant.System(ctx)
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return nil, err
	}
	id := "secret:" + name
	err := s.Setting.Create().SetID(id).SetValue(box.Seal(hex.EncodeToString(buf))).
		OnConflictColumns(setting.FieldID).DoNothing().Exec(ctx)
	if err != nil && !isNoRows(err) {
		return nil, err
	}
	row, err := s.Setting.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	v, err := box.Open(row.Value)
	if err != nil {
		return nil, fmt.Errorf("secret %s: %w", name, err)
	}
	if box != nil && !secretbox.Sealed(row.Value) {
		if err := s.Setting.Update().Where(setting.ID(id), setting.Value(row.Value)).SetValue(box.Seal(v)).Exec(ctx); err != nil {
			return nil, err
		}
	}
	return hex.DecodeString(v)
}

func isNoRows(err error) bool {
	return err == sql.ErrNoRows || strings.Contains(err.Error(), "no rows")
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.DB.PingContext(ctx) }

// Close closes the client and the pool.
func (s *Store) Close() error { return s.Client.Close() }

func redact(u string) string {
	if i := strings.Index(u, "@"); i > 0 {
		if j := strings.Index(u, "://"); j > 0 && j < i {
			return u[:j+3] + "…@" + u[i+1:]
		}
	}
	return u
}

// ServerWarnings are settings of the database server that hurt the service,
// for the operator (logged at start): PostgreSQL with autovacuum off keeps
// neither table statistics nor dead rows in check, so query plans degrade as
// tables grow (the search index analyzes itself; other tables do not).
func (s *Store) ServerWarnings(ctx context.Context) []string {
	if s.Dialect != dialect.Postgres {
		return nil
	}
	var v string
	if err := s.DB.QueryRowContext(ctx, `SHOW autovacuum`).Scan(&v); err != nil || v != "off" {
		return nil
	}
	return []string{"PostgreSQL autovacuum is off: table statistics and dead rows are not maintained, so query plans " +
		"degrade as tables grow; turn it on (autovacuum = on in postgresql.conf) or run VACUUM ANALYZE regularly"}
}
