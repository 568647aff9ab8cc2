// Package index keeps a project's search index in the database, so every
// api process sees the same one: one row per sheet, block, legend entry,
// symbol count (a legend entry's instances on one block) and line of words,
// with the tokens of its text (search.Terms) under the database's own
// full-text index — a tsvector column with GIN on PostgreSQL (plus pg_trgm
// similarity on labels when the extension can be created), an external
// content FTS5 table on SQLite. Rows are tenant data: every statement here
// is scoped by org_id, and rows go with their sheet and project (foreign keys
// ON DELETE CASCADE).
package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Dialects, as entgo.io/ent/dialect names them.
const (
	Postgres = "postgres"
	SQLite   = "sqlite3"
)

const columns = `org_id, project_id, drawing_id, sheet_id, block_id, source_type, source_id,
	sheet_number, sheet_number_norm, sheet_title, discipline, revision, block_type, block_title,
	label, body, terms, bounds, count, parsed, embed_hash`

func commonColumns(text string) string {
	return `org_id TEXT NOT NULL,
	project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	drawing_id TEXT NOT NULL,
	sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
	block_id TEXT NOT NULL DEFAULT '',
	source_type TEXT NOT NULL,
	source_id TEXT NOT NULL,
	sheet_number TEXT NOT NULL DEFAULT '',
	sheet_number_norm TEXT NOT NULL DEFAULT '',
	sheet_title TEXT NOT NULL DEFAULT '',
	discipline TEXT NOT NULL DEFAULT '',
	revision TEXT NOT NULL DEFAULT '',
	block_type TEXT NOT NULL DEFAULT '',
	block_title TEXT NOT NULL DEFAULT '',
	label ` + text + ` NOT NULL DEFAULT '',
	body ` + text + ` NOT NULL DEFAULT '',
	terms TEXT NOT NULL DEFAULT '',
	bounds TEXT NOT NULL DEFAULT '',
	count INTEGER NOT NULL DEFAULT 0,
	parsed BOOLEAN NOT NULL DEFAULT FALSE,
	embed_hash TEXT NOT NULL DEFAULT ''`
}

// embeddingsDDL is the vectors' table (see embed.go): one vector per
// organization, model and text hash; vec holds little-endian float32s.
func embeddingsDDL(blob string) []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS search_embeddings (org_id TEXT NOT NULL, model TEXT NOT NULL, hash TEXT NOT NULL,
			dims INTEGER NOT NULL, vec ` + blob + ` NOT NULL, PRIMARY KEY (org_id, model, hash))`,
		`CREATE INDEX IF NOT EXISTS search_docs_embed ON search_docs(org_id, embed_hash)`,
	}
}

// indexes both databases keep
var btreeDDL = []string{
	`CREATE INDEX IF NOT EXISTS search_docs_sheet ON search_docs(sheet_id)`,
	`CREATE INDEX IF NOT EXISTS search_docs_project ON search_docs(org_id, project_id, source_type)`,
	// sheets named by number (the structure retriever, ask's scope)
	`CREATE INDEX IF NOT EXISTS search_docs_sheet_number ON search_docs(org_id, project_id, sheet_number_norm)`,
}

var sqliteDDL = []string{
	`CREATE TABLE IF NOT EXISTS search_docs (seq INTEGER PRIMARY KEY AUTOINCREMENT, ` + commonColumns("TEXT") + `)`,
	// external content: the text lives once, in search_docs; triggers keep the index in step
	`CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(terms, content='search_docs', content_rowid='seq', tokenize='unicode61')`,
	`CREATE TRIGGER IF NOT EXISTS search_docs_ai AFTER INSERT ON search_docs BEGIN
		INSERT INTO search_fts(rowid, terms) VALUES (new.seq, new.terms); END`,
	`CREATE TRIGGER IF NOT EXISTS search_docs_ad AFTER DELETE ON search_docs BEGIN
		INSERT INTO search_fts(search_fts, rowid, terms) VALUES ('delete', old.seq, old.terms); END`,
	`CREATE TRIGGER IF NOT EXISTS search_docs_au AFTER UPDATE ON search_docs BEGIN
		INSERT INTO search_fts(search_fts, rowid, terms) VALUES ('delete', old.seq, old.terms);
		INSERT INTO search_fts(rowid, terms) VALUES (new.seq, new.terms); END`,
}

var postgresDDL = []string{
	`CREATE TABLE IF NOT EXISTS search_docs (seq BIGSERIAL PRIMARY KEY, ` + commonColumns("TEXT") + `,
		tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', terms)) STORED)`,
	// fastupdate off: GIN's default pending list (up to gin_pending_list_limit,
	// 4 MB) is scanned linearly by every query until a vacuum merges it, which
	// made each full-text match 3–5× slower after a project's indexing (see
	// BENCHMARKS.md, search latency); the index is written once per sheet
	// and read by every search, so inserts pay instead. ALTER covers indexes
	// made before.
	`CREATE INDEX IF NOT EXISTS search_docs_tsv ON search_docs USING GIN (tsv) WITH (fastupdate = off)`,
	`ALTER INDEX search_docs_tsv SET (fastupdate = off)`,
}

// Ensure creates the index's tables (idempotent; run by the store's
// migration after Ent's). On PostgreSQL it also tries to create pg_trgm and
// a trigram index on labels and bodies; when the extension cannot be created (no
// privilege, not installed) search runs without the trigram retriever.
func Ensure(ctx context.Context, db *sql.DB, dialect string) error {
	ddl := sqliteDDL
	if dialect == Postgres {
		ddl = postgresDDL
	}
	// the table first, then the indexes
	ddl = append(append(ddl[:1:1], btreeDDL...), ddl[1:]...)
	for _, s := range ddl {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("search index: %s: %w", strings.Fields(s)[0:3], err)
		}
	}
	if err := addEmbedHash(ctx, db, dialect); err != nil {
		return err
	}
	blobType := "BLOB"
	if dialect == Postgres {
		blobType = "BYTEA"
	}
	for _, s := range embeddingsDDL(blobType) {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("search index: embeddings: %w", err)
		}
	}
	if dialect == Postgres {
		if _, err := db.ExecContext(ctx, `CREATE EXTENSION IF NOT EXISTS pg_trgm`); err == nil {
			for _, s := range []string{
				`CREATE INDEX IF NOT EXISTS search_docs_text_trgm ON search_docs USING GIN (lower(label || ' ' || body) gin_trgm_ops) WITH (fastupdate = off)`,
				`ALTER INDEX search_docs_text_trgm SET (fastupdate = off)`,
			} {
				if _, err := db.ExecContext(ctx, s); err != nil {
					return fmt.Errorf("search index: trigram index: %w", err)
				}
			}
		}
	}
	return nil
}

// addEmbedHash adds embed_hash to a search_docs table made before it
// (its rows get "" until the project is indexed again: `plangraph reindex`).
func addEmbedHash(ctx context.Context, db *sql.DB, dialect string) error {
	if dialect == Postgres {
		_, err := db.ExecContext(ctx, `ALTER TABLE search_docs ADD COLUMN IF NOT EXISTS embed_hash TEXT NOT NULL DEFAULT ''`)
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT 1 FROM pragma_table_info('search_docs') WHERE name = 'embed_hash'`)
	if err != nil {
		return err
	}
	has := rows.Next()
	rows.Close()
	if has {
		return nil
	}
	_, err = db.ExecContext(ctx, `ALTER TABLE search_docs ADD COLUMN embed_hash TEXT NOT NULL DEFAULT ''`)
	return err
}
