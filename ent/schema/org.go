package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/plangraph/plangraph/internal/ids"
)

// Organization is a tenant: every other record belongs to exactly one.
type Organization struct{ ent.Schema }

func (Organization) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Organization}} }

func (Organization) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).Unique(),
	}
}

func (Organization) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("api_keys", APIKey.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Organization) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// APIKey authenticates requests for one organization. Only a SHA-256 hash
// of the key is stored; the key itself is shown once, when created.
type APIKey struct{ ent.Schema }

func (APIKey) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.APIKey}} }

func (APIKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("org_id").Immutable().NotEmpty(),
		field.String("name").Default("").MaxLen(200),
		field.String("hash").Immutable().NotEmpty().Unique().Sensitive(),
		// first characters of the key, for people to tell keys apart
		field.String("hint").Immutable().Default(""),
		field.Time("last_used_at").Optional().Nillable(),
		field.Time("revoked_at").Optional().Nillable(),
	}
}

func (APIKey) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("api_keys").Field("org_id").Unique().Required().Immutable(),
	}
}

func (APIKey) Indexes() []ent.Index {
	return []ent.Index{index.Fields("org_id")}
}

func (APIKey) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll), entsql.Table("api_keys")}
}

// Setting is a server-wide key/value pair, e.g. the secret that signs
// cursors and upload URLs, shared by every process through the database.
type Setting struct{ ent.Schema }

func (Setting) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").Immutable().NotEmpty(),
		field.String("value").Sensitive(),
		field.Time("created_at").Immutable().Default(Now),
	}
}

func (Setting) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}

// IdempotencyRecord remembers a POST made with an Idempotency-Key so that a
// repeat gets the same answer (see rest/idempotency.go).
type IdempotencyRecord struct{ ent.Schema }

func (IdempotencyRecord) Mixin() []ent.Mixin {
	return []ent.Mixin{Base{Prefix: ids.Idempotency}, OrgOwned{}}
}

func (IdempotencyRecord) Fields() []ent.Field {
	return []ent.Field{
		field.String("key").Immutable().NotEmpty().MaxLen(256),
		field.String("method").Immutable(),
		field.String("path").Immutable(),
		// SHA-256 of method, path and body: a different request under the same key is a conflict
		field.String("request_hash").Immutable(),
		field.Enum("state").Values("processing", "completed").Default("processing"),
		field.Int("response_status").Optional(),
		field.Bytes("response_body").Optional(),
		field.JSON("response_headers", map[string]string{}).Optional(),
		field.String("job_id").Optional(),
		field.Time("expires_at"),
	}
}

func (IdempotencyRecord) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("org_id", "key").Unique(),
		index.Fields("expires_at"),
	}
}

func (IdempotencyRecord) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
