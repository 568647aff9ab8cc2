package rest

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	"github.com/plangraph/plangraph/ent/intercept"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/cursor"
	"github.com/plangraph/plangraph/internal/tenant"
)

const (
	defaultLimit = 20
	maxLimit     = 100
)

// Meta is the _meta object of a list response.
type Meta struct {
	Next  *string `json:"next"`
	Prev  *string `json:"prev"`
	Limit int     `json:"limit"`
}

// Page is the list envelope.
type Page[T any] struct {
	Data []T  `json:"data"`
	Meta Meta `json:"_meta"`
}

// pageQuery is what keyset paging needs of an Ent query (besides the
// generic intercept.Query view every Ent query has).
type pageQuery[T any] interface {
	ent.Query
	All(context.Context) ([]T, error)
}

// listRequest is a parsed list request: its filters (from the query string
// or, when continuing, from the cursor), limit and position.
type listRequest struct {
	Filters map[string]string
	Limit   int
	after   *cursor.Cursor
}

// filterSpec names a list's filters; each parser checks one raw value.
type filterSpec map[string]func(string) error

// commonFilters apply to every list.
var commonFilters = filterSpec{"created_after": checkTime, "created_before": checkTime}

func checkTime(v string) error {
	if _, err := parseTime(v); err != nil {
		return err
	}
	return nil
}

func parseTime(v string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, apierr.New(apierr.Validation, "not an ISO 8601 date-time: %q", v)
}

func checkBool(v string) error {
	if v != "true" && v != "false" {
		return apierr.New(apierr.Validation, "must be true or false")
	}
	return nil
}

// parseList reads limit, cursor and the filters of spec (plus the common
// date filters) from q. Unknown parameters are rejected so that a typo
// never silently returns the unfiltered list.
func (a *API) parseList(ctx context.Context, q url.Values, list string, spec filterSpec, required ...string) (listRequest, error) {
	lr := listRequest{Limit: defaultLimit}
	bad := apierr.Fields{}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			bad.Add("limit", "must be an integer from 1 to 100")
		case n < 1:
			bad.Add("limit", "must be at least 1")
		default:
			lr.Limit = min(n, maxLimit)
		}
	}
	org, _ := tenant.Org(ctx)
	if c := q.Get("cursor"); c != "" {
		cur, err := a.cursors.Decode(c, org, list)
		if err != nil {
			return lr, err
		}
		lr.after, lr.Filters = &cur, cur.Filters
		if q.Get("limit") == "" {
			lr.Limit = cur.Limit
		}
		return lr, bad.Err()
	}
	lr.Filters = map[string]string{}
	for name, vals := range q {
		switch {
		case name == "limit" || name == "cursor" || name == "expand":
			continue
		case spec[name] == nil && commonFilters[name] == nil:
			bad.Add(name, "is not a filter of this list")
			continue
		}
		v := vals[0]
		check := spec[name]
		if check == nil {
			check = commonFilters[name]
		}
		if err := check(v); err != nil {
			bad.Add(name, apierr.From(err).Detail)
			continue
		}
		lr.Filters[name] = v
	}
	for _, r := range required {
		if lr.Filters[r] == "" && !slices.Contains(bad[r], "is required") {
			bad.Add(r, "is required")
		}
	}
	return lr, bad.Err()
}

// datePredicates turns created_after / created_before into predicates.
func datePredicates(f map[string]string) []func(*sql.Selector) {
	var ps []func(*sql.Selector)
	if v, ok := f["created_after"]; ok {
		t, _ := parseTime(v)
		ps = append(ps, sql.FieldGT("created_at", t))
	}
	if v, ok := f["created_before"]; ok {
		t, _ := parseTime(v)
		ps = append(ps, sql.FieldLT("created_at", t))
	}
	return ps
}

// paginate runs q newest first from lr's position and builds the
// envelope's cursors. key gives a row's created_at and id.
func paginate[T any](ctx context.Context, a *API, eq pageQuery[T], list string, lr listRequest, key func(T) (time.Time, string)) ([]T, Meta, error) {
	q, err := intercept.NewQuery(eq)
	if err != nil {
		return nil, Meta{}, err
	}
	q.WhereP(datePredicates(lr.Filters)...)
	prev := lr.after != nil && lr.after.Prev
	if lr.after != nil {
		t, id := lr.after.Time, lr.after.ID
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
	q.Limit(lr.Limit + 1)
	rows, err := eq.All(ctx)
	if err != nil {
		return nil, Meta{}, err
	}
	more := len(rows) > lr.Limit
	if more {
		rows = rows[:lr.Limit]
	}
	if prev {
		slices.Reverse(rows)
	}
	meta := Meta{Limit: lr.Limit}
	if len(rows) == 0 {
		return rows, meta, nil
	}
	org, _ := tenant.Org(ctx)
	mk := func(row T, toPrev bool) *string {
		t, id := key(row)
		s := a.cursors.Encode(cursor.Cursor{Org: org, List: list, Filters: lr.Filters, Limit: lr.Limit, Time: t, ID: id, Prev: toPrev})
		return &s
	}
	// going forward there are newer rows whenever we started from a cursor;
	// going back, there are older rows (the page we came from)
	if (!prev && more) || prev {
		meta.Next = mk(rows[len(rows)-1], false)
	}
	if (prev && more) || (!prev && lr.after != nil) {
		meta.Prev = mk(rows[0], true)
	}
	return rows, meta, nil
}

// writeList answers a list request.
func writeList[T any](w http.ResponseWriter, data []T, meta Meta) {
	if data == nil {
		data = []T{}
	}
	writeJSON(w, http.StatusOK, Page[T]{Data: data, Meta: meta})
}
