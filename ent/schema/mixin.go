package schema

import (
	"context"
	"fmt"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"github.com/plangraph/plangraph/ent/intercept"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/tenant"
)

// Now is the clock every created_at comes from: UTC, truncated to
// microseconds so that values survive a round trip through PostgreSQL and
// SQLite unchanged (keyset pagination compares them exactly).
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Base gives a record its prefixed string id and created_at.
type Base struct {
	mixin.Schema
	Prefix string
}

func (b Base) Fields() []ent.Field {
	p := b.Prefix
	return []ent.Field{
		field.String("id").
			Immutable().
			NotEmpty().
			MaxLen(64).
			DefaultFunc(func() string { return ids.New(p) }),
		field.Time("created_at").
			Immutable().
			Default(Now).
			Annotations(entgql.OrderField("CREATED_AT"), noInput()),
	}
}

// OrgOwned marks a record as belonging to one organization. Queries are
// filtered by the context's organization and creates take it from there; a
// context with neither an organization nor tenant.System fails closed.
type OrgOwned struct{ mixin.Schema }

func (OrgOwned) Fields() []ent.Field {
	return []ent.Field{
		field.String("org_id").
			Immutable().
			NotEmpty().
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

func (OrgOwned) Indexes() []ent.Index {
	return []ent.Index{index.Fields("org_id", "created_at", "id")}
}

// ErrNoTenant is returned when a query runs without an organization.
var ErrNoTenant = fmt.Errorf("schema: no organization in context")

type wherer interface {
	WhereP(...func(*sql.Selector))
}

func (OrgOwned) Interceptors() []ent.Interceptor {
	return []ent.Interceptor{
		intercept.TraverseFunc(func(ctx context.Context, q intercept.Query) error {
			if tenant.IsSystem(ctx) {
				return nil
			}
			org, ok := tenant.Org(ctx)
			if !ok {
				return ErrNoTenant
			}
			q.WhereP(sql.FieldEQ("org_id", org))
			return nil
		}),
	}
}

func (OrgOwned) Hooks() []ent.Hook {
	return []ent.Hook{
		func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if tenant.IsSystem(ctx) {
					return next.Mutate(ctx, m)
				}
				org, ok := tenant.Org(ctx)
				if !ok {
					return nil, ErrNoTenant
				}
				if m.Op().Is(ent.OpCreate) {
					if v, set := m.Field("org_id"); set && v != org {
						return nil, fmt.Errorf("schema: record of another organization")
					}
					if err := m.SetField("org_id", org); err != nil {
						return nil, err
					}
				} else if w, ok := m.(wherer); ok {
					w.WhereP(sql.FieldEQ("org_id", org))
				}
				return next.Mutate(ctx, m)
			})
		},
	}
}

// gqlRecord is the GraphQL annotation set of a top-level resource: a Relay
// connection with a where-input filter and newest-first ordering.
func gqlRecord(extra ...schema.Annotation) []schema.Annotation {
	return append([]schema.Annotation{
		entgql.RelayConnection(),
		entgql.QueryField(),
		entgql.MultiOrder(),
	}, extra...)
}

// noInput keeps a field or edge out of GraphQL mutation inputs: it is set
// by the service, never by clients.
func noInput() entgql.Annotation {
	return entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)
}
