// Package service is the one implementation of the API's operations, under
// both the GraphQL resolvers (graph) and the REST handlers (rest): one
// package per domain — projects, files, drawings, parse, webhooks — and
// query for filtered, paginated, expanded reads. Their functions take a
// context (carrying the caller's organization, see internal/tenant) and
// typed input, and return domain values (Ent records) or *apierr.Error.
// Neither API layer holds business logic or touches the database itself.
package service

import (
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/service/parse"
	"github.com/plangraph/plangraph/internal/service/projects"
)

// Services are the operations, over one set of dependencies.
type Services struct {
	Deps     *base.Deps
	Projects *projects.Service
	Parse    *parse.Service
}

// New builds the services over d.
func New(d *base.Deps) *Services {
	return &Services{Deps: d, Projects: &projects.Service{Deps: d}, Parse: &parse.Service{Deps: d}}
}
