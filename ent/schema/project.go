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

func cascade() schema.Annotation { return entsql.OnDelete(entsql.Cascade) }

// Project groups the drawings, files and jobs of one building project.
type Project struct{ ent.Schema }

func (Project) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Project}, OrgOwned{}} }

func (Project) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200).
			Annotations(entgql.OrderField("NAME")),
		field.Time("updated_at").Default(Now).UpdateDefault(Now).Annotations(noInput()),
	}
}

func (Project) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("files", File.Type).Annotations(cascade(), entgql.RelayConnection(), noInput()),
		edge.To("drawings", Drawing.Type).Annotations(cascade(), entgql.RelayConnection(), noInput()),
		edge.To("jobs", Job.Type).Annotations(cascade(), entgql.RelayConnection(), noInput()),
		edge.To("overlays", Overlay.Type).Annotations(cascade(), entgql.RelayConnection(), noInput()),
	}
}

func (Project) Annotations() []schema.Annotation {
	return gqlRecord(entgql.Mutations(entgql.MutationCreate(), entgql.MutationUpdate()))
}

// File is an uploaded document (PDF or image) kept in the blob store.
type File struct{ ent.Schema }

func (File) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.File}, OrgOwned{}} }

func (File) Fields() []ent.Field {
	return []ent.Field{
		field.String("project_id").Immutable(),
		field.String("filename").NotEmpty().MaxLen(255),
		field.String("content_type").NotEmpty(),
		field.Int64("size").NonNegative(),
		field.String("sha256").Optional(),
		field.Enum("status").Values("pending", "ready").Default("pending"),
		// where the bytes are: each upload (PUT) writes an object of its
		// own and takes this field over while the file is pending, so the
		// bytes confirmed are exactly those of one upload
		field.String("storage_key").Annotations(entgql.Skip(entgql.SkipAll)),
		field.Time("confirmed_at").Optional().Nillable(),
	}
}

func (File) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("project", Project.Type).Ref("files").Field("project_id").Unique().Required().Immutable(),
		edge.To("drawings", Drawing.Type),
	}
}

func (File) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "created_at", "id"),
		index.Fields("project_id", "content_type", "created_at"),
	}
}

func (File) Annotations() []schema.Annotation { return gqlRecord() }

// Drawing is one uploaded drawing set (one file), split into sheets.
type Drawing struct{ ent.Schema }

func (Drawing) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Drawing}, OrgOwned{}} }

func (Drawing) Fields() []ent.Field {
	return []ent.Field{
		field.String("project_id").Immutable(),
		field.String("file_id").Optional().Immutable(),
		field.String("name").NotEmpty().MaxLen(255).
			Annotations(entgql.OrderField("NAME")),
		field.Enum("status").Values("pending", "processing", "ready", "failed").Default("pending"),
		field.Int("page_count").Default(0),
	}
}

func (Drawing) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("project", Project.Type).Ref("drawings").Field("project_id").Unique().Required().Immutable(),
		edge.From("file", File.Type).Ref("drawings").Field("file_id").Unique().Immutable(),
		edge.To("sheets", Sheet.Type).Annotations(cascade(), entgql.RelayConnection()),
	}
}

func (Drawing) Indexes() []ent.Index {
	return []ent.Index{index.Fields("project_id", "created_at", "id")}
}

func (Drawing) Annotations() []schema.Annotation { return gqlRecord() }

// Sheet is one page of a drawing.
type Sheet struct{ ent.Schema }

func (Sheet) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Sheet}, OrgOwned{}} }

func (Sheet) Fields() []ent.Field {
	return []ent.Field{
		// denormalised from the drawing so that project-wide sheet lists use one index
		field.String("project_id").Immutable().Annotations(entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput)),
		field.String("drawing_id").Immutable(),
		field.Int("page_number").Positive(),
		field.String("sheet_number").Default(""),
		// sheet_number with separators removed and upper-cased: A-100 = A100 = A.100
		field.String("sheet_number_norm").Default("").Annotations(entgql.Skip(entgql.SkipAll)),
		field.String("title").Default(""),
		field.String("discipline").Default(""),
		field.String("revision").Default(""),
		field.Int("width").NonNegative().Default(0),
		field.Int("height").NonNegative().Default(0),
		field.Int("dpi").Positive().Default(300),
		field.String("uri").Default(""),
	}
}

func (Sheet) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("drawing", Drawing.Type).Ref("sheets").Field("drawing_id").Unique().Required().Immutable(),
		edge.To("blocks", Block.Type).Annotations(cascade(), entgql.RelayConnection()),
	}
}

func (Sheet) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("drawing_id", "created_at", "id"),
		index.Fields("project_id", "created_at", "id"),
		index.Fields("org_id", "discipline", "created_at"),
		index.Fields("org_id", "sheet_number"),
		index.Fields("project_id", "sheet_number_norm"),
		index.Fields("drawing_id", "page_number").Unique(),
	}
}

func (Sheet) Annotations() []schema.Annotation { return gqlRecord() }
