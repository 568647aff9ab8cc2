// Package graph is the GraphQL API (gqlgen over Ent). Its resolvers are
// one-liners over the service operations (internal/service), which the
// REST layer calls too; connections and node lookups are Ent's GraphQL
// integration (entgql) over the same where-inputs.
package graph

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/graph/generated"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/service"
	"github.com/plangraph/plangraph/internal/service/base"
)

// Resolver holds what the resolvers use: the services (every operation)
// and, for node lookups and connections (Ent's GraphQL integration), the
// Ent client.
type Resolver struct {
	// S are the operations the resolvers call.
	S      *service.Services
	Client *ent.Client
}

// NewResolver builds the services over d and the resolver over them.
func NewResolver(d *base.Deps) *Resolver {
	return &Resolver{S: service.New(d), Client: d.DB}
}

// NewSchema returns the executable schema.
func NewSchema(r *Resolver) graphql.ExecutableSchema {
	return generated.NewExecutableSchema(generated.Config{Resolvers: r})
}

// MaxPage is the largest page a connection returns.
const MaxPage = 100

// pageSize validates first/last: negative is an error, above MaxPage is
// clamped, and with neither given a page of 20 is returned.
func pageSize(first, last *int) (*int, *int, error) {
	clamp := func(p *int, name string) (*int, error) {
		if p == nil {
			return nil, nil
		}
		if *p < 0 {
			return nil, apierr.Invalid(name, "must not be negative")
		}
		v := min(*p, MaxPage)
		return &v, nil
	}
	f, err := clamp(first, "first")
	if err != nil {
		return nil, nil, err
	}
	l, err := clamp(last, "last")
	if err != nil {
		return nil, nil, err
	}
	if f == nil && l == nil {
		d := 20
		f = &d
	}
	return f, l, nil
}

// countless hides pageInfo from entgql's Paginate when a connection's edges
// are selected and its totalCount is not: Paginate then runs a COUNT over
// the whole filtered set whenever pageInfo is selected, though the count
// only feeds totalCount — hasNextPage, hasPreviousPage and the cursors come
// from the page itself (limit + 1 rows). The page of 100 projects through
// GraphQL spent 8 % of its CPU in that count. Paginate alone sees the
// trimmed selection; gqlgen still answers every selected field.
func countless(ctx context.Context) context.Context {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil {
		return ctx
	}
	fields := graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, nil)
	edges, pageInfo := false, false
	for _, f := range fields {
		switch f.Alias { // entgql looks fields up by their alias
		case "totalCount":
			return ctx
		case "edges":
			edges = true
		case "pageInfo":
			pageInfo = true
		}
	}
	if !edges || !pageInfo {
		return ctx
	}
	keep := make(ast.SelectionSet, 0, len(fields)-1)
	for _, f := range fields {
		if f.Alias != "pageInfo" {
			keep = append(keep, f.Field)
		}
	}
	trimmed := *fc
	trimmed.Field.Selections = keep
	return graphql.WithFieldContext(ctx, &trimmed)
}

// nodeTable resolves an id to its table from the id's prefix.
func nodeTable(_ context.Context, id string) (string, error) {
	if t, ok := prefixTables[ids.Prefix(id)]; ok {
		return t, nil
	}
	return "", apierr.NotFoundf("no resource has id %q", id)
}

var prefixTables = map[string]string{
	ids.Project: "projects", ids.File: "files", ids.Drawing: "drawings", ids.Sheet: "sheets",
	ids.Block: "blocks", ids.Overlay: "overlays", ids.Job: "jobs", ids.Feature: "features",
	ids.Webhook: "webhook_endpoints", ids.WebhookDelivery: "webhook_deliveries",
}

// ErrorPresenter shapes errors the way the REST API does: a message safe
// to show and extensions{code, status, fields}. Internal causes are logged
// with the request id, never returned.
func ErrorPresenter(log *slog.Logger, requestID func(context.Context) string) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		var gerr *gqlerror.Error
		if errors.As(err, &gerr) && gerr.Err == nil {
			return gerr // parse and validation errors of the query itself
		}
		e := apierr.From(err)
		rid := requestID(ctx)
		out := graphql.DefaultErrorPresenter(ctx, err)
		out.Message = e.Detail
		if e.Kind == apierr.Internal {
			log.ErrorContext(ctx, "graphql resolver error", "err", err, "request_id", rid)
			out.Message = "an unexpected error occurred; quote request_id " + rid + " when reporting it"
		}
		out.Extensions = map[string]any{"code": e.MachineCode(), "status": e.Status(), "request_id": rid}
		if ra := e.Header.Get("Retry-After"); ra != "" {
			// a refusal for rate: the seconds to wait (the Guard also sets
			// the HTTP response's Retry-After header, as REST's 429s carry)
			if secs, err := strconv.Atoi(ra); err == nil {
				out.Extensions["retryAfter"] = secs
			}
		}
		if len(e.Fields) > 0 {
			out.Extensions["fields"] = e.Fields
		}
		return out
	}
}

type responseHeaderKey struct{}

// WithResponseHeader lets the GraphQL Guard set headers of the HTTP
// response that carries the operation (Retry-After); a websocket's
// operations have none.
func WithResponseHeader(ctx context.Context, h http.Header) context.Context {
	return context.WithValue(ctx, responseHeaderKey{}, h)
}

// setRetryAfter copies err's Retry-After onto the HTTP response's headers;
// it must run before the transport writes the status (the Guard does).
func setRetryAfter(ctx context.Context, err error) {
	h, _ := ctx.Value(responseHeaderKey{}).(http.Header)
	if ra := apierr.From(err).Header.Get("Retry-After"); h != nil && ra != "" {
		h.Set("Retry-After", ra)
	}
}

// nullIfMissing turns "not found" into a null result, as GraphQL fields
// that fetch one record by id answer for missing (or other
// organizations') records.
func nullIfMissing[T any](v *T, err error) (*T, error) {
	if ent.IsNotFound(err) || err != nil && apierr.From(err).Kind == apierr.NotFound {
		return nil, nil
	}
	return v, err
}
