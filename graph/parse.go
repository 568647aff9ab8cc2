package graph

import (
	"context"

	"entgo.io/contrib/entgql"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/predicate"
)

// The parse mutation is the parse service's (internal/service/parse);
// what remains here are the feature connections of sheets and blocks.

// featureConnection pages the features of kind within scope, in the order
// they were found.
func (r *Resolver) featureConnection(ctx context.Context, kind feature.Kind, scope predicate.Feature,
	after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, where *ent.FeatureWhereInput) (*ent.FeatureConnection, error) {
	first, last, err := pageSize(first, last)
	if err != nil {
		return nil, err
	}
	order := []*ent.FeatureOrder{{Field: ent.FeatureOrderFieldCreatedAt, Direction: entgql.OrderDirectionAsc}}
	return r.Client.Feature.Query().Where(feature.KindEQ(kind), scope).
		Paginate(countless(ctx), after, first, before, last, ent.WithFeatureOrder(order), ent.WithFeatureFilter(where.Filter))
}

func onSheet(id string) predicate.Feature { return feature.HasBlockWith(block.SheetID(id)) }
