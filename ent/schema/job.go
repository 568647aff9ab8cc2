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
	"github.com/plangraph/plangraph/internal/jobstatus"
)

// Job is the API's view of a long operation; asynq tasks carry it out.
type Job struct{ ent.Schema }

func (Job) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Job}, OrgOwned{}} }

func (Job) Fields() []ent.Field {
	return []ent.Field{
		field.String("project_id").Optional().Immutable(),
		field.String("type").NotEmpty().Immutable(),
		field.Enum("status").Values("Queued", "Started", "Completed", "Failed", "Canceled").Default("Queued"),
		field.Enum("target_type").Values("drawing", "sheet", "block", "overlay", "file", "project").Optional().Immutable(),
		field.String("target_id").Optional().Immutable(),
		field.String("parent_id").Optional().Immutable(),
		field.Float("progress").Default(0).Min(0).Max(1),
		field.JSON("error", &jobstatus.Error{}).Optional().Annotations(entgql.Type("JobError")),
		field.JSON("input", json.RawMessage{}).Optional().Annotations(entgql.Skip(entgql.SkipAll)),
		field.JSON("result", json.RawMessage{}).Optional().Annotations(entgql.Type("JSON")),
		field.Time("started_at").Optional().Nillable(),
		field.Time("completed_at").Optional().Nillable(),
	}
}

func (Job) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("project", Project.Type).Ref("jobs").Field("project_id").Unique().Immutable(),
		edge.To("children", Job.Type).Annotations(entgql.RelayConnection(), cascade()).
			From("parent").Field("parent_id").Unique().Immutable(),
		edge.To("features", Feature.Type).Annotations(entgql.RelayConnection(), cascade()),
		edge.To("events", Event.Type).Annotations(entgql.Skip(entgql.SkipAll), cascade()),
	}
}

func (Job) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "created_at", "id"),
		index.Fields("parent_id", "created_at"),
		index.Fields("target_type", "target_id"),
		index.Fields("org_id", "status", "created_at"),
		index.Fields("org_id", "type", "created_at"),
	}
}

func (Job) Annotations() []schema.Annotation { return gqlRecord() }
