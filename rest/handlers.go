package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
)

// resource describes one REST collection: how to query it, filter it,
// present a row and expand relations. E is the Ent entity, R its
// representation.
type resource[E any, R any] struct {
	name     string // list name, e.g. "sheets"; also the key of expandable
	singular string
	filters  filterSpec
	required []string
	// query returns the filtered query for a list's filters.
	query func(c *ent.Client, f map[string]string) pageQuery[E]
	key   func(E) (time.Time, string)
	out   func(E) R
	// get fetches one row by id through its service (a not-found error
	// when missing).
	get    func(ctx context.Context, id string) (E, error)
	expand func(ctx context.Context, c *ent.Client, rows []R, x expansion) error
}

func (res resource[E, R]) list(a *API) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		q := r.URL.Query()
		x, err := parseExpand(q.Get("expand"), res.name)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		lr, err := a.parseList(ctx, q, res.name, res.filters, res.required...)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		rows, meta, err := paginate(ctx, a, res.query(a.r.Client, lr.Filters), res.name, lr, res.key)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		out := make([]R, len(rows))
		for i, e := range rows {
			out[i] = res.out(e)
		}
		if res.expand != nil && len(x) > 0 {
			if err := res.expand(ctx, a.r.Client, out, x); err != nil {
				a.fail(w, r, err)
				return
			}
		}
		writeList(w, out, meta)
	}
}

// one fetches the row named by the path's {id} with its expansions.
func (res resource[E, R]) one(a *API, r *http.Request) (R, error) {
	var zero R
	x, err := parseExpand(r.URL.Query().Get("expand"), res.name)
	if err != nil {
		return zero, err
	}
	for name := range r.URL.Query() {
		if name != "expand" {
			return zero, apierr.Invalid(name, "is not a parameter of this endpoint")
		}
	}
	e, err := res.get(r.Context(), r.PathValue("id"))
	if err != nil {
		return zero, err
	}
	out := res.out(e)
	if res.expand != nil && len(x) > 0 {
		if err := res.expand(r.Context(), a.r.Client, []R{out}, x); err != nil {
			return zero, err
		}
	}
	return out, nil
}

func (res resource[E, R]) show(a *API) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		out, err := res.one(a, r)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, out)
	}
}

// notFoundAs turns Ent's not-found into the API's for kind/id.
func notFoundAs(err error, kind, id string) error {
	if ent.IsNotFound(err) {
		return notFound(kind, id)
	}
	return err
}
