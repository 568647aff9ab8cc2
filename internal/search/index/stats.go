package index

import (
	"context"
	"log/slog"
)

// staleRows is how many rows written since the last analyze, beyond a
// tenth of the table, make the planner's statistics stale (autovacuum's
// own rule, with its defaults of 50 rows and 10 %, made coarser: an analyze
// samples the whole table).
const staleRows = 1000

// keepFresh vacuums and analyzes search_docs on PostgreSQL when it was never
// analyzed or the rows written since its last analyze pass staleRows plus a
// tenth of the table.
// Search speed must not hang on the server's autovacuum (off on some
// servers, a minute or more behind on every one): without statistics the
// planner scans every row of the project for each full-text match instead
// of using the GIN index (150–600 ms instead of a few at 50 000 rows), and
// without a vacuum counts cannot use the index alone. A failure (no
// privilege, a vacuum already running) is logged, never returned: the
// index itself was written.
func (x *Index) keepFresh(ctx context.Context) {
	if x.Dialect(ctx) != Postgres {
		return
	}
	// reltuples is -1 until the table's first analyze; the activity counters
	// reach pg_stat_user_tables within a second or so of each commit
	var mods, live int64
	var tuples float64
	rows, err := x.DB.QueryContext(ctx, `SELECT s.n_mod_since_analyze, s.n_live_tup, c.reltuples
		FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relid = 'search_docs'::regclass`)
	if err != nil {
		slog.WarnContext(ctx, "search index: reading table statistics", "err", err)
		return
	}
	ok := rows.Next() && rows.Scan(&mods, &live, &tuples) == nil
	rows.Close()
	if !ok || (tuples >= 0 && mods < staleRows+live/10) {
		return
	}
	// VACUUM cannot run in a transaction: ExecContext on the pool autocommits
	if _, err := x.DB.ExecContext(ctx, `VACUUM (ANALYZE) search_docs`); err != nil {
		slog.WarnContext(ctx, "search index: vacuum analyze", "err", err)
	}
}
