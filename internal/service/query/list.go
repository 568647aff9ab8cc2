package query

import (
	"context"
	"slices"
	"time"

	entgo "entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/intercept"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/service/base"
)

// Lists are newest first (created_at, then id, descending) and paged by
// keyset: a page starts after (or, going back, before) a row's position.

// Position is where a page starts: the created_at and id of the last row
// of the page before it (of the first row of the page after it, when Prev).
type Position struct {
	Time time.Time
	ID   string
	Prev bool
}

// Request is a validated list request.
type Request struct {
	// Filters are the list's filters (Collection.Filters names them) and
	// the common created_after / created_before.
	Filters map[string]string
	Limit   int
	// After is where the page starts; nil for the first page.
	After  *Position
	Expand Expansion
}

// Collection is one list: its filters (each with a check of its raw
// value), the ones it requires, and how its rows are queried.
type Collection[E any] struct {
	Name     string
	Filters  map[string]func(string) error
	Required []string
	// query returns the filtered query (through the GraphQL where-input,
	// the filter code GraphQL runs), loading the relations x names.
	query func(c *ent.Client, f map[string]string, x Expansion) (pageQuery[E], error)
	// Key is a row's position.
	Key func(E) (time.Time, string)
}

// pageQuery is what keyset paging needs of an Ent query (besides the
// generic intercept.Query view every Ent query has).
type pageQuery[T any] interface {
	entgo.Query
	All(context.Context) ([]T, error)
}

// CommonFilters apply to every list.
var CommonFilters = map[string]func(string) error{"created_after": CheckTime, "created_before": CheckTime}

// CheckTime accepts an ISO 8601 date-time or date.
func CheckTime(v string) error {
	_, err := ParseTime(v)
	return err
}

// ParseTime reads an ISO 8601 date-time or date, as UTC.
func ParseTime(v string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, apierr.New(apierr.Validation, "not an ISO 8601 date-time: %q", v)
}

// CheckBool accepts true and false.
func CheckBool(v string) error {
	if v != "true" && v != "false" {
		return apierr.New(apierr.Validation, "must be true or false")
	}
	return nil
}

func anyValue(string) error { return nil }

func oneOf(values ...string) func(string) error {
	return func(v string) error {
		if slices.Contains(values, v) {
			return nil
		}
		return apierr.New(apierr.Validation, "must be one of %v", values)
	}
}

// List returns a page of c's rows (up to r.Limit) and whether there are
// more beyond it in the direction of travel.
func List[E any](ctx context.Context, s *Service, c *Collection[E], r Request) ([]E, bool, error) {
	eq, err := c.query(s.DB, r.Filters, r.Expand)
	if err != nil {
		return nil, false, err
	}
	q, err := intercept.NewQuery(eq)
	if err != nil {
		return nil, false, err
	}
	q.WhereP(datePredicates(r.Filters)...)
	prev := r.After != nil && r.After.Prev
	if r.After != nil {
		t, id := r.After.Time, r.After.ID
		q.WhereP(func(s *sql.Selector) {
			cmp := sql.LT
			if prev {
				cmp = sql.GT
			}
			s.Where(sql.Or(cmp(s.C("created_at"), t), sql.And(sql.EQ(s.C("created_at"), t), cmp(s.C("id"), id))))
		})
	}
	q.Order(func(s *sql.Selector) {
		if prev {
			s.OrderBy(sql.Asc(s.C("created_at")), sql.Asc(s.C("id")))
		} else {
			s.OrderBy(sql.Desc(s.C("created_at")), sql.Desc(s.C("id")))
		}
	})
	q.Limit(r.Limit + 1)
	rows, err := eq.All(ctx)
	if err != nil {
		return nil, false, err
	}
	more := len(rows) > r.Limit
	if more {
		rows = rows[:r.Limit]
	}
	if prev {
		slices.Reverse(rows)
	}
	return rows, more, nil
}

// One returns c's row with id, with the relations x names; a not-found
// error names kind.
func One[E any](ctx context.Context, s *Service, c *Collection[E], kind, id string, x Expansion) (E, error) {
	var zero E
	eq, err := c.query(s.DB, nil, x)
	if err != nil {
		return zero, err
	}
	q, err := intercept.NewQuery(eq)
	if err != nil {
		return zero, err
	}
	q.WhereP(sql.FieldEQ("id", id))
	rows, err := eq.All(ctx)
	if err != nil {
		return zero, err
	}
	if len(rows) == 0 {
		return zero, base.NotFound(kind, id)
	}
	return rows[0], nil
}

// datePredicates turns created_after / created_before into predicates.
func datePredicates(f map[string]string) []func(*sql.Selector) {
	var ps []func(*sql.Selector)
	if v, ok := f["created_after"]; ok {
		t, _ := ParseTime(v)
		ps = append(ps, sql.FieldGT("created_at", t))
	}
	if v, ok := f["created_before"]; ok {
		t, _ := ParseTime(v)
		ps = append(ps, sql.FieldLT("created_at", t))
	}
	return ps
}
