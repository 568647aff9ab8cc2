package rest

import (
	"net/http"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/cursor"
	listing "github.com/plangraph/plangraph/internal/service/query"
)

// resource is one REST collection over its query collection: rows of Ent
// type E, shaped as R with the relations ?expand= loaded.
type resource[E any, R any] struct {
	c        *listing.Collection[E]
	singular string // the kind named in not-found errors
	out      func(E, listing.Expansion) R
}

func (res resource[E, R]) spec() listing.Spec { return res.c.Spec() }

func (res resource[E, R]) list(a *API) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		serveList(a, w, r, res, nil)
	}
}

// serveList answers a list request for res: the query string's filters,
// limit, cursor and expand, and fixed filters (from the path) that a
// cursor must have been made with.
func serveList[E, R any](a *API, w http.ResponseWriter, r *http.Request, res resource[E, R], fixed map[string]string) {
	ctx, q := r.Context(), r.URL.Query()
	x, err := listing.ParseExpand(q.Get("expand"), res.c.Name)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	lr, err := a.parseList(ctx, q, res.c.Name, res.c.Filters, res.c.Required...)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	for k, v := range fixed {
		if lr.after == nil {
			lr.Filters[k] = v
		} else if lr.Filters[k] != v {
			msg := "the cursor continues another list: its " + k + " is not this path's"
			a.fail(w, r, apierr.New(apierr.Validation, "%s", msg).WithCode("INVALID_CURSOR").Field("cursor", msg))
			return
		}
	}
	rows, more, err := listing.List(ctx, a.s.Query, res.c, listing.Request{Filters: lr.Filters, Limit: lr.Limit, After: lr.position(), Expand: x})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out := make([]R, len(rows))
	for i, e := range rows {
		out[i] = res.out(e, x)
	}
	var first, last cursor.Cursor
	if len(rows) > 0 {
		first.Time, first.ID = res.c.Key(rows[0])
		last.Time, last.ID = res.c.Key(rows[len(rows)-1])
	}
	writeList(w, out, a.meta(ctx, res.c.Name, lr, len(rows) > 0, more, first, last))
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

// one fetches the row named by the path's {id} with its expansions.
func (res resource[E, R]) one(a *API, r *http.Request) (R, error) {
	var zero R
	x, err := listing.ParseExpand(r.URL.Query().Get("expand"), res.c.Name)
	if err != nil {
		return zero, err
	}
	for name := range r.URL.Query() {
		if name != "expand" {
			return zero, apierr.Invalid(name, "is not a parameter of this endpoint")
		}
	}
	e, err := listing.One(r.Context(), a.s.Query, res.c, res.singular, r.PathValue("id"), x)
	if err != nil {
		return zero, err
	}
	return res.out(e, x), nil
}
