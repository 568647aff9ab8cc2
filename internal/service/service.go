// Package service is the one implementation of the API's operations, under
// both the GraphQL resolvers (graph) and the REST handlers (rest): one
// package per domain — projects, files, drawings, parse, compare, webhooks
// — query for filtered, paginated, expanded reads and live for jobs'
// progress.
// Their functions take a context (carrying the caller's organization, see
// internal/tenant) and typed input, and return domain values (Ent records)
// or *apierr.Error. Neither API layer holds business logic or touches the
// database itself.
package service

import (
	"log/slog"

	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/service/compare"
	"github.com/plangraph/plangraph/internal/service/drawings"
	"github.com/plangraph/plangraph/internal/service/files"
	"github.com/plangraph/plangraph/internal/service/idempotency"
	"github.com/plangraph/plangraph/internal/service/live"
	"github.com/plangraph/plangraph/internal/service/parse"
	"github.com/plangraph/plangraph/internal/service/projects"
	"github.com/plangraph/plangraph/internal/service/query"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/service/webhooks"
)

// Services are the operations, over one set of dependencies.
type Services struct {
	Deps     *base.Deps
	Projects *projects.Service
	Files    *files.Service
	Drawings *drawings.Service
	Parse    *parse.Service
	Compare  *compare.Service
	Query    *query.Service
	Webhooks *webhooks.Service
	// Search is search and ask over a project's index.
	Search *search.Service
	Live   *live.Service
	// Idempotency keeps Idempotency-Key records for REST.
	Idempotency *idempotency.Service
}

// New builds the services over d.
func New(d *base.Deps) *Services {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Services{Deps: d, Projects: &projects.Service{Deps: d}, Files: &files.Service{Deps: d},
		Drawings: &drawings.Service{Deps: d}, Parse: &parse.Service{Deps: d}, Compare: &compare.Service{Deps: d}, Query: &query.Service{Deps: d},
		Webhooks: &webhooks.Service{Deps: d}, Live: &live.Service{Deps: d}, Idempotency: &idempotency.Service{Deps: d},
		Search: &search.Service{Deps: d}}
}
