package schema

import (
	"encoding/json"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/plangraph/plangraph/internal/ids"
)

// Event is something that happened to a job, kept for webhook delivery,
// subscriptions and stream resumption (Last-Event-ID). An event's id is
// derived from what it reports (job, type), so recording it twice (a
// retried task) keeps one row and one id.
type Event struct{ ent.Schema }

func (Event) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Event}, OrgOwned{}} }

func (Event) Fields() []ent.Field {
	return []ent.Field{
		field.String("type").NotEmpty().Immutable(),
		field.String("project_id").Optional().Immutable(),
		// the job the event is about, its top-most ancestor, and the chain of
		// ids from that ancestor down to the job ("job_a/job_b/job_c"): a
		// stream of a job carries the events of every job below it
		field.String("job_id").Optional().Immutable(),
		field.String("root_job_id").Optional().Immutable(),
		field.String("job_path").Optional().Immutable(),
		field.JSON("data", json.RawMessage{}).Immutable(),
		// webhook fan-out done: a delivery task exists for every endpoint
		// that wanted the event when it was dispatched
		field.Bool("dispatched").Default(false),
	}
}

func (Event) Edges() []ent.Edge {
	return []ent.Edge{
		// events go with their job (and so with its project)
		edge.From("job", Job.Type).Ref("events").Field("job_id").Unique().Immutable(),
	}
}

func (Event) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("root_job_id", "created_at", "id"),
		index.Fields("project_id", "created_at", "id"),
		index.Fields("dispatched", "created_at"),
	}
}

func (Event) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip(entgql.SkipAll)}
}
