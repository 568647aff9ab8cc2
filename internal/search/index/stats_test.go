package index_test

import (
	"context"
	"testing"

	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/internal/tools/synthdb"
)

// TestStatisticsKeptFresh: on PostgreSQL, indexing leaves search_docs
// analyzed and vacuumed, whatever the server's autovacuum does, so that
// full-text matches use the GIN index from the first search on.
func TestStatisticsKeptFresh(t *testing.T) {
	ctx := tenant.WithOrg(context.Background(), "org_index_stats")
	dir := t.TempDir()
	st, err := store.Open(ctx, testenv.Postgres(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	bucket, err := blobs.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer bucket.Close()
	var tuples float64
	if err := st.DB.QueryRowContext(ctx, `SELECT reltuples FROM pg_class WHERE oid = 'search_docs'::regclass`).Scan(&tuples); err != nil {
		t.Fatal(err)
	}
	if tuples >= 0 {
		t.Fatalf("a new database's search_docs already analyzed (reltuples %v): the test shows nothing", tuples)
	}
	set, err := synth.Generate(synth.Options{Seed: 3, Sheets: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := st.Client.Project.Create().SetName("stats").SaveX(ctx)
	if _, err := synthdb.Drawing(ctx, st.Client, bucket, p.ID, "set.pdf", set.Truth, -1); err != nil {
		t.Fatal(err)
	}
	x := index.New(st.Client, bucket)
	if err := x.RebuildProject(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	n, err := x.Count(ctx, index.Scope{ProjectID: p.ID})
	if err != nil || n == 0 {
		t.Fatalf("indexed %d rows (%v)", n, err)
	}
	var analyzed, vacuumed bool
	if err := st.DB.QueryRowContext(ctx, `SELECT c.reltuples, s.last_analyze IS NOT NULL, s.last_vacuum IS NOT NULL
		FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relid = 'search_docs'::regclass`).Scan(&tuples, &analyzed, &vacuumed); err != nil {
		t.Fatal(err)
	}
	if tuples < float64(n)/2 || !analyzed || !vacuumed {
		t.Errorf("after indexing %d rows: reltuples %v, analyzed %v, vacuumed %v", n, tuples, analyzed, vacuumed)
	}
}
