package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/vision/geom"
)

// Source types of index rows (the API's source_type).
const (
	TypeSheet       = "sheet"
	TypeBlock       = "block"
	TypeLegendEntry = "legend_entry"
	// TypeSymbol is a legend entry's instances on one block: Count and the
	// union of their bounds; SourceID is the legend entry's id.
	TypeSymbol = "symbol"
	// TypeWord is a line of a sheet's words (PDF text layer or OCR), with
	// its box.
	TypeWord = "word"
	// TypeChange is what the sheet's latest comparison with an older
	// revision found (see changeDocs): a summary row per compared sheet
	// (SourceID: the compare job), a row per described change (SourceID:
	// the change's id; BlockID: the newer block), per block added or
	// removed (SourceID: the block). ChangeKind reads a row's kind.
	TypeChange = "change"
)

// Types lists the source types in the order results prefer on equal rank.
var Types = []string{TypeSheet, TypeBlock, TypeLegendEntry, TypeSymbol, TypeWord, TypeChange}

// Doc is one index row. Bounds are sheet pixels (a block's and a legend
// entry's, an instance union's or a line's box on its sheet).
type Doc struct {
	Seq             int64
	ProjectID       string
	DrawingID       string
	SheetID         string
	BlockID         string
	SourceType      string
	SourceID        string
	SheetNumber     string
	SheetNumberNorm string
	SheetTitle      string
	Discipline      string
	Revision        string
	BlockType       string
	BlockTitle      string
	Label           string
	Body            string
	Terms           string
	Bounds          *geom.Box
	Count           int
	// Parsed: the sheet's view blocks have been searched for symbols (a
	// completed symbol match job), so a zero count means none were found.
	Parsed bool
}

// Index reads and writes the search rows through the Ent client's
// database (raw SQL: full-text search is outside Ent) and reads sheets'
// words from the blob store.
type Index struct {
	DB    *ent.Client
	Blobs *blob.Bucket

	once    sync.Once
	dialect string
	trgm    bool
}

// New returns the index over db and bucket.
func New(db *ent.Client, bucket *blob.Bucket) *Index { return &Index{DB: db, Blobs: bucket} }

// Dialect is the database's dialect (Postgres or SQLite), found once by
// asking it.
func (x *Index) Dialect(ctx context.Context) string {
	x.once.Do(func() {
		x.dialect = Postgres
		if rows, err := x.DB.QueryContext(ctx, `SELECT sqlite_version()`); err == nil {
			rows.Close()
			x.dialect = SQLite
			return
		}
		rows, err := x.DB.QueryContext(ctx, `SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`)
		if err == nil {
			x.trgm = rows.Next()
			rows.Close()
		}
	})
	return x.dialect
}

// Trigram says whether pg_trgm similarity is available (PostgreSQL with
// the extension).
func (x *Index) Trigram(ctx context.Context) bool {
	x.Dialect(ctx)
	return x.trgm
}

// rebind turns ? placeholders into PostgreSQL's $n.
func (x *Index) rebind(ctx context.Context, q string) string {
	if x.Dialect(ctx) != Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

const selectColumns = `seq, project_id, drawing_id, sheet_id, block_id, source_type, source_id, sheet_number,
	sheet_number_norm, sheet_title, discipline, revision, block_type, block_title, label, body, terms, bounds, count, parsed`

func (x *Index) query(ctx context.Context, q querier, sqlText string, args ...any) ([]Doc, error) {
	rows, err := q.QueryContext(ctx, x.rebind(ctx, sqlText), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Doc
	for rows.Next() {
		var d Doc
		var bounds string
		if err := rows.Scan(&d.Seq, &d.ProjectID, &d.DrawingID, &d.SheetID, &d.BlockID, &d.SourceType, &d.SourceID,
			&d.SheetNumber, &d.SheetNumberNorm, &d.SheetTitle, &d.Discipline, &d.Revision, &d.BlockType, &d.BlockTitle,
			&d.Label, &d.Body, &d.Terms, &bounds, &d.Count, &d.Parsed); err != nil {
			return nil, err
		}
		if bounds != "" {
			var b geom.Box
			if json.Unmarshal([]byte(bounds), &b) == nil {
				d.Bounds = &b
			}
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// Scope limits a read to one project of the context's organization and,
// optionally, to some source types, a drawing, a discipline, a sheet
// (normalised number) and a block type.
type Scope struct {
	ProjectID       string
	Types           []string
	DrawingID       string
	Discipline      string
	SheetNumberNorm string
	BlockType       string
	// SourceIDs, when set, keeps rows of these source ids only.
	SourceIDs []string
}

// where renders the scope as a WHERE clause over search_docs aliased d.
func (s Scope) where(ctx context.Context) (string, []any, error) {
	org, ok := tenant.Org(ctx)
	if !ok {
		return "", nil, errNoOrg
	}
	w := []string{"d.org_id = ?", "d.project_id = ?"}
	args := []any{org, s.ProjectID}
	in := func(col string, vals []string) {
		if len(vals) == 0 {
			return
		}
		w = append(w, col+" IN ("+strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",")+")")
		for _, v := range vals {
			args = append(args, v)
		}
	}
	in("d.source_type", s.Types)
	in("d.source_id", s.SourceIDs)
	for _, f := range []struct{ col, v string }{{"d.drawing_id", s.DrawingID}, {"d.discipline", s.Discipline},
		{"d.sheet_number_norm", s.SheetNumberNorm}, {"d.block_type", s.BlockType}} {
		if f.v != "" {
			w = append(w, f.col+" = ?")
			args = append(args, f.v)
		}
	}
	return strings.Join(w, " AND "), args, nil
}

type indexError string

func (e indexError) Error() string { return string(e) }

const errNoOrg = indexError("search index: no organization in context")

// Docs returns the rows in scope (no text condition), newest drawing first,
// at most limit.
func (x *Index) Docs(ctx context.Context, s Scope, limit int) ([]Doc, error) {
	w, args, err := s.where(ctx)
	if err != nil {
		return nil, err
	}
	args = append(args, limit)
	return x.query(ctx, x.DB, `SELECT `+selectColumns+` FROM search_docs d WHERE `+w+
		` ORDER BY d.drawing_id DESC, d.sheet_number_norm, d.seq LIMIT ?`, args...)
}

// Count returns the number of rows in scope.
func (x *Index) Count(ctx context.Context, s Scope) (int, error) {
	w, args, err := s.where(ctx)
	if err != nil {
		return 0, err
	}
	return x.count(ctx, `SELECT COUNT(*) FROM search_docs d WHERE `+w, args...)
}

// count runs a query of one number.
func (x *Index) count(ctx context.Context, q string, args ...any) (int, error) {
	rows, err := x.DB.QueryContext(ctx, x.rebind(ctx, q), args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	if rows.Next() {
		err = rows.Scan(&n)
	}
	return n, err
}
