package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/testenv"
)

// TestServerWarnings: a PostgreSQL server without autovacuum is named to the
// operator; SQLite has nothing to warn of.
func TestServerWarnings(t *testing.T) {
	ctx := context.Background()
	lite, err := store.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	if w := lite.ServerWarnings(ctx); len(w) != 0 {
		t.Errorf("SQLite: %q", w)
	}
	pg, err := store.Open(ctx, testenv.Postgres(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	var av string
	if err := pg.DB.QueryRowContext(ctx, `SHOW autovacuum`).Scan(&av); err != nil {
		t.Fatal(err)
	}
	w := pg.ServerWarnings(ctx)
	warned := len(w) == 1 && strings.Contains(w[0], "autovacuum is off")
	if warned != (av == "off") {
		t.Errorf("autovacuum %s, warnings %q", av, w)
	}
}
