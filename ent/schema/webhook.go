package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/plangraph/plangraph/internal/ids"
)

// WebhookEndpoint is a URL that receives the organization's events.
type WebhookEndpoint struct{ ent.Schema }

func (WebhookEndpoint) Mixin() []ent.Mixin {
	return []ent.Mixin{Base{Prefix: ids.Webhook}, OrgOwned{}}
}

func (WebhookEndpoint) Fields() []ent.Field {
	return []ent.Field{
		field.String("url").NotEmpty().MaxLen(2048),
		field.String("description").Optional().MaxLen(500),
		// event types to send; empty means every type
		field.Strings("events").Optional(),
		field.Bool("enabled").Default(true),
		// whsec_ + base64 of the signing key; shown once when created or rotated
		field.String("secret").Sensitive().NotEmpty().Annotations(entgql.Skip(entgql.SkipAll)),
		// after a rotation the previous secret also signs until it expires
		field.String("previous_secret").Sensitive().Optional().Annotations(entgql.Skip(entgql.SkipAll)),
		field.Time("previous_secret_expires_at").Optional().Nillable(),
		field.Time("updated_at").Default(Now).UpdateDefault(Now),
	}
}

func (WebhookEndpoint) Edges() []ent.Edge {
	return []ent.Edge{
		// GraphQL's WebhookEndpoint.deliveries is graph/webhooks.graphqls's
		// (newest first, as the REST list)
		edge.To("deliveries", WebhookDelivery.Type).Annotations(cascade(), entgql.Skip(entgql.SkipAll)),
	}
}

// GraphQL: a connection (webhookEndpoints) and node(id); created, changed
// and deleted through graph/webhooks.graphqls's mutations, which check
// URLs and event filters.
func (WebhookEndpoint) Annotations() []schema.Annotation { return gqlRecord() }

// WebhookDelivery is one attempt to deliver an event to an endpoint.
type WebhookDelivery struct{ ent.Schema }

func (WebhookDelivery) Mixin() []ent.Mixin {
	return []ent.Mixin{Base{Prefix: ids.WebhookDelivery}, OrgOwned{}}
}

func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.String("endpoint_id").NotEmpty().Immutable(),
		field.String("event_id").NotEmpty().Immutable(),
		field.String("event_type").NotEmpty().Immutable(),
		field.Int("attempt").Positive().Immutable(),
		field.Bool("manual").Default(false).Immutable(),
		field.Enum("status").Values("succeeded", "failed").Immutable(),
		field.Int("response_status").Optional().Immutable(),
		field.String("error").Optional().MaxLen(1000).Immutable(),
		field.Int("latency_ms").NonNegative().Immutable(),
		field.Time("next_attempt_at").Optional().Nillable().Immutable(),
	}
}

func (WebhookDelivery) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("endpoint", WebhookEndpoint.Type).Ref("deliveries").Field("endpoint_id").Unique().Required().Immutable().
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("endpoint_id", "created_at", "id"),
		index.Fields("event_id", "endpoint_id"),
	}
}

// GraphQL: read through WebhookEndpoint.deliveries and node(id).
func (WebhookDelivery) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.MultiOrder()}
}
