package rest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/cursor"
	listing "github.com/plangraph/plangraph/internal/service/query"
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

// listRequest is a parsed list request: its filters (from the query string
// or, when continuing, from the cursor), limit and position.
type listRequest struct {
	Filters map[string]string
	Limit   int
	after   *cursor.Cursor
}

// filterSpec names a list's filters; each parser checks one raw value.
type filterSpec = map[string]func(string) error

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
			bad.Add("limit", fmt.Sprintf("must be an integer from 1 to %d", maxLimit))
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
		case spec[name] == nil && listing.CommonFilters[name] == nil:
			bad.Add(name, "is not a filter of this list")
			continue
		}
		v := vals[0]
		check := spec[name]
		if check == nil {
			check = listing.CommonFilters[name]
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

// position is where lr's page starts, nil for a first page.
func (lr listRequest) position() *listing.Position {
	if lr.after == nil {
		return nil
	}
	return &listing.Position{Time: lr.after.Time, ID: lr.after.ID, Prev: lr.after.Prev}
}

// meta builds a list's _meta: cursors to the pages after and before this
// one, from its first and last rows' positions (any: the page is not
// empty; more: there are rows beyond it in the direction of travel).
func (a *API) meta(ctx context.Context, list string, lr listRequest, any, more bool, first, last cursor.Cursor) Meta {
	meta := Meta{Limit: lr.Limit}
	if !any {
		return meta
	}
	org, _ := tenant.Org(ctx)
	mk := func(at cursor.Cursor, toPrev bool) *string {
		s := a.cursors.Encode(cursor.Cursor{Org: org, List: list, Filters: lr.Filters, Limit: lr.Limit, Time: at.Time, ID: at.ID, Prev: toPrev})
		return &s
	}
	prev := lr.after != nil && lr.after.Prev
	// going forward there are newer rows whenever we started from a cursor;
	// going back, there are older rows (the page we came from)
	if (!prev && more) || prev {
		meta.Next = mk(last, false)
	}
	if (prev && more) || (!prev && lr.after != nil) {
		meta.Prev = mk(first, true)
	}
	return meta
}

// writeList answers a list request.
func writeList[T any](w http.ResponseWriter, data []T, meta Meta) {
	if data == nil {
		data = []T{}
	}
	writeJSON(w, http.StatusOK, Page[T]{Data: data, Meta: meta})
}
