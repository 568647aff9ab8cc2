package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/overlayjson"
	"github.com/plangraph/plangraph/vision/geom"
)

// BlockTypes are the kinds of region a sheet is segmented into. Image is a
// picture placed on a sheet (a photograph, a rendering, a perspective):
// not a drawn view, and not searched for symbols.
var BlockTypes = []string{
	"Plan", "Elevation", "Section", "Detail", "Schedule", "Legend", "GeneralNotes",
	"KeyNotes", "SheetNotes", "TitleBlock", "RevisionHistory", "Diagram", "Image",
}

// Block is a region of a sheet: a plan view, detail, schedule, legend…
type Block struct{ ent.Schema }

func (Block) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Block}, OrgOwned{}} }

func (Block) Fields() []ent.Field {
	return []ent.Field{
		field.String("project_id").Immutable().Annotations(entgql.Skip(entgql.SkipAll)),
		field.String("sheet_id").Immutable(),
		field.Enum("type").Values(BlockTypes...),
		field.String("title").Default(""),
		field.String("description").Default(""),
		// drawing scale as printed, e.g. 1/4" = 1'-0"
		field.String("scale").Default(""),
		// position on the sheet, in sheet pixels
		field.JSON("bounds", geom.Box{}).Annotations(entgql.Type("BoundingBox")),
		field.String("uri").Default(""),
	}
}

func (Block) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("sheet", Sheet.Type).Ref("blocks").Field("sheet_id").Unique().Required().Immutable(),
		edge.To("features", Feature.Type).Annotations(cascade(), entgql.RelayConnection()),
	}
}

func (Block) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("sheet_id", "created_at", "id"),
		index.Fields("org_id", "type", "created_at"),
	}
}

func (Block) Annotations() []schema.Annotation { return gqlRecord() }

// Overlay aligns and compares two blocks (usually two revisions of a view).
type Overlay struct{ ent.Schema }

func (Overlay) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Overlay}, OrgOwned{}} }

func (Overlay) Fields() []ent.Field {
	return []ent.Field{
		field.String("project_id").Immutable(),
		field.String("block_a_id").Immutable(),
		field.String("block_b_id").Immutable(),
		field.String("job_id").Optional().Immutable(),
		// 1 for blocks identical after alignment, towards 0 as more ink differs
		field.Float("score").Optional().Nillable(),
		// whether change detection has run on this overlay
		field.Bool("has_changes").Default(false),
		// where the images are served: the combined overlay (uri), B's added
		// ink, A's removed ink, and each block in B's frame
		field.String("uri").Default(""),
		field.String("addition_uri").Default("").Annotations(entgql.Skip(entgql.SkipWhereInput)),
		field.String("deletion_uri").Default("").Annotations(entgql.Skip(entgql.SkipWhereInput)),
		field.String("aligned_a_uri").Default("").Annotations(entgql.Skip(entgql.SkipWhereInput)),
		field.String("aligned_b_uri").Default("").Annotations(entgql.Skip(entgql.SkipWhereInput)),
		// the transform mapping A's block pixels onto B's; registered is
		// false when none could be trusted (the warnings say why)
		field.JSON("transform", &overlayjson.Transform{}).Optional().Annotations(entgql.Type("OverlayTransform")),
		field.Bool("registered").Default(false),
		field.Strings("warnings").Optional(),
		// the groups of differing ink, kept for change analysis run later
		field.JSON("regions", []overlayjson.Region{}).Optional().Annotations(entgql.Skip(entgql.SkipAll)),
		// the described changes, once change analysis has run
		field.JSON("changes", []overlayjson.Change{}).Optional().Annotations(entgql.Type("[OverlayChange!]")),
	}
}

func (Overlay) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("project", Project.Type).Ref("overlays").Field("project_id").Unique().Required().Immutable(),
		edge.To("block_a", Block.Type).Field("block_a_id").Unique().Required().Immutable().Annotations(cascade()),
		edge.To("block_b", Block.Type).Field("block_b_id").Unique().Required().Immutable().Annotations(cascade()),
		edge.To("job", Job.Type).Field("job_id").Unique().Immutable(),
	}
}

func (Overlay) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("project_id", "created_at", "id"),
		// one overlay per comparison job and block pair: a retried
		// overlay.generate updates its overlay instead of adding one
		index.Fields("job_id", "block_a_id", "block_b_id").Unique(),
		index.Fields("block_a_id"),
		index.Fields("block_b_id"),
	}
}

func (Overlay) Annotations() []schema.Annotation { return gqlRecord() }

// Feature is an item of the drawing index: a legend entry or a detected
// symbol instance (linked to its legend entry by defined_by). Legend entries
// a parse request supplied itself (options.symbols.legend / exemplars) have
// no block; they belong to the parse job that received them.
type Feature struct{ ent.Schema }

func (Feature) Mixin() []ent.Mixin { return []ent.Mixin{Base{Prefix: ids.Feature}, OrgOwned{}} }

func (Feature) Fields() []ent.Field {
	return []ent.Field{
		// empty for legend entries supplied with a parse request
		field.String("block_id").Optional().Immutable(),
		// the job that made the feature; its features go with it
		field.String("job_id").Optional().Immutable(),
		field.Enum("kind").Values("legend_entry", "symbol_instance"),
		field.String("label").Default(""),
		field.String("description").Default(""),
		field.Bool("has_graphic").Default(false),
		// pixels within the block image
		field.JSON("bounds", geom.Box{}).Optional().Annotations(entgql.Type("BoundingBox")),
		field.Float("confidence").Optional().Nillable().Min(0).Max(1),
		field.String("defined_by_id").Optional().Immutable(),
		// a retried task re-derives the same key and so never adds a second row
		field.String("dedupe_key").Immutable().Unique().Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

func (Feature) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("block", Block.Type).Ref("features").Field("block_id").Unique().Immutable(),
		edge.From("job", Job.Type).Ref("features").Field("job_id").Unique().Immutable(),
		edge.To("instances", Feature.Type).Annotations(entgql.RelayConnection()).
			From("defined_by").Field("defined_by_id").Unique().Immutable(),
	}
}

func (Feature) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("block_id", "kind"),
		index.Fields("job_id"),
		index.Fields("defined_by_id"),
	}
}

func (Feature) Annotations() []schema.Annotation { return gqlRecord() }
