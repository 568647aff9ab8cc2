package index

import (
	"context"
	"strings"
)

// textMatcher is one database's full-text search over the terms column.
// Both implementations mean the same: a row matches when its terms contain
// any of the phrases (each a run of search.Tokens, contiguous), and rows
// come best first by the database's own relevance (SQLite FTS5's bm25(),
// PostgreSQL's ts_rank_cd); callers re-score the candidates with
// search.BM25 so that the final order does not depend on the database.
type textMatcher interface {
	match(ctx context.Context, x *Index, w string, args []any, phrases []string, limit int) ([]Doc, error)
}

type sqliteFTS struct{}

// match builds an FTS5 expression of quoted phrases joined by OR. Tokens
// are letters and digits only, so quoting makes every one a literal
// (NEAR, AND, * are words like any other).
func (sqliteFTS) match(ctx context.Context, x *Index, w string, args []any, phrases []string, limit int) ([]Doc, error) {
	q := make([]string, len(phrases))
	for i, p := range phrases {
		q[i] = `"` + p + `"`
	}
	all := append([]any{strings.Join(q, " OR ")}, args...)
	all = append(all, limit)
	return x.query(ctx, x.DB, `SELECT `+prefixed("d.")+` FROM search_fts JOIN search_docs d ON d.seq = search_fts.rowid
		WHERE search_fts MATCH ? AND `+w+` ORDER BY bm25(search_fts), d.seq LIMIT ?`, all...)
}

type postgresFTS struct{}

// match builds a tsquery of phrases (tokens joined by <->) joined by |;
// tokens are letters and digits only, so nothing in them is tsquery syntax.
func (postgresFTS) match(ctx context.Context, x *Index, w string, args []any, phrases []string, limit int) ([]Doc, error) {
	q := make([]string, len(phrases))
	for i, p := range phrases {
		q[i] = "(" + strings.Join(strings.Fields(p), " <-> ") + ")"
	}
	tsq := strings.Join(q, " | ")
	all := append([]any{tsq}, args...)
	all = append(all, tsq, limit)
	return x.query(ctx, x.DB, `SELECT `+prefixed("d.")+` FROM search_docs d
		WHERE d.tsv @@ to_tsquery('simple', ?) AND `+w+`
		ORDER BY ts_rank_cd(d.tsv, to_tsquery('simple', ?)) DESC, d.seq LIMIT ?`, all...)
}

func prefixed(p string) string {
	cols := strings.Split(selectColumns, ",")
	for i, c := range cols {
		cols[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// Match returns the rows in scope whose terms contain any of phrases (each
// a space-separated run of search.Tokens), the database's best first, at
// most limit.
func (x *Index) Match(ctx context.Context, s Scope, phrases []string, limit int) ([]Doc, error) {
	var clean []string
	for _, p := range phrases {
		if p = strings.Join(strings.Fields(p), " "); p != "" && validPhrase(p) {
			clean = append(clean, p)
		}
	}
	if len(clean) == 0 {
		return nil, nil
	}
	w, args, err := s.where(ctx)
	if err != nil {
		return nil, err
	}
	var m textMatcher = sqliteFTS{}
	if x.Dialect(ctx) == Postgres {
		m = postgresFTS{}
	}
	return m.match(ctx, x, w, args, clean, limit)
}

// validPhrase accepts tokens of letters and digits separated by single
// spaces: what search.Tokens makes, and nothing a full-text parser would
// read as syntax.
func validPhrase(p string) bool {
	for _, r := range p {
		if r == ' ' {
			continue
		}
		if r == '"' || r == '\'' || r == '*' || r == ':' || r == '&' || r == '|' || r == '!' || r == '(' || r == ')' ||
			r == '<' || r == '>' || r == '-' || r == '^' || r == '+' || r == '\\' {
			return false
		}
	}
	return true
}

// Similar returns the rows in scope whose label or body has words similar to
// text by pg_trgm's word similarity (threshold 0.6: an OCR-damaged "EXHAUST
// FAM" still finds "EXHAUST FAN"), most similar first. Without the
// extension (SQLite, or PostgreSQL without pg_trgm) it returns nothing and
// ok false.
func (x *Index) Similar(ctx context.Context, s Scope, text string, limit int) (docs []Doc, ok bool, err error) {
	if !x.Trigram(ctx) || strings.TrimSpace(text) == "" {
		return nil, false, nil
	}
	w, args, err := s.where(ctx)
	if err != nil {
		return nil, true, err
	}
	t := strings.ToLower(text)
	all := append([]any{t}, args...)
	all = append(all, t, limit)
	docs, err = x.query(ctx, x.DB, `SELECT `+prefixed("d.")+` FROM search_docs d
		WHERE ? <% lower(d.label || ' ' || d.body) AND `+w+`
		ORDER BY word_similarity(?, lower(d.label || ' ' || d.body)) DESC, d.seq LIMIT ?`, all...)
	return docs, true, err
}
