package graph

import (
	"github.com/plangraph/plangraph/graph/generated"
	"github.com/plangraph/plangraph/internal/service/webhooks"
)

// The webhook resolvers call internal/service/webhooks; these give its
// results the GraphQL models' types (the same fields).

func withSecret(s *webhooks.EndpointWithSecret, err error) (*generated.WebhookEndpointWithSecret, error) {
	return (*generated.WebhookEndpointWithSecret)(s), err
}

func redelivery(d *webhooks.Redelivery, err error) (*generated.WebhookRedelivery, error) {
	return (*generated.WebhookRedelivery)(d), err
}
