package rest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	comparejob "github.com/plangraph/plangraph/jobs/compare"
	parsejob "github.com/plangraph/plangraph/jobs/parse"

	entgo "entgo.io/ent"

	"github.com/plangraph/plangraph/ent/schema"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/overlayjson"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/uploads"
	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

// transformDocs describe a transform (an overlay's, a report's); changeDocs
// a change (an overlay's, a report's).
var (
	transformDocs = map[string]node{
		"scale":        {"description": "Scale from A to B (B's pixels per A's pixel).", "exclusiveMinimum": 0},
		"rotation_deg": {"description": "Rotation in degrees, image coordinates (y down: positive turns clockwise on screen); whole page turns are ±90 or 180."},
		"tx":           {"description": "Translation along x, B's pixels: x_B = scale·(cos θ·x_A − sin θ·y_A) + tx."},
		"ty":           {"description": "Translation along y, B's pixels: y_B = scale·(sin θ·x_A + cos θ·y_A) + ty."},
		"residual_px":  {"description": "Registration error: RMS distance in B's pixels between matched marks after the transform.", "minimum": 0},
	}
	changeDocs = map[string]node{
		"id":          {"description": "Change id (prefix `chg_`), the same when the overlay is analyzed again with the same result."},
		"kind":        {"description": "What happened.", "enum": []string{engine.KindAdded, engine.KindRemoved, engine.KindModified, engine.KindMoved}},
		"category":    {"description": "What changed: a legend symbol instance, words, a dimension string, walls/lines/hatches, a revision cloud or delta, the title block's revision data.", "enum": changeCategories},
		"description": {"description": "What changed, in the drawing's own words and parse features (for example `OFFICE 104 → CONFERENCE 104`, `2 × DUPLEX RECEPTACLE added`)."},
		"bounds":      {"description": "Where, in B's block pixels."},
		"bounds_a":    {"description": "Where it was on A, in A's block pixels; absent when it was not there (added)."},
		"severity":    {"description": "How much it matters; title-block changes are minor.", "enum": []string{engine.SeverityMajor, engine.SeverityModerate, engine.SeverityMinor}},
		"confidence":  {"description": "How sure the analysis is, 0 to 1.", "minimum": 0, "maximum": 1},
	}
)

// changeCategories are the categories of a change.
var changeCategories = []string{engine.CategorySymbol, engine.CategoryText, engine.CategoryDimension, engine.CategoryLinework,
	engine.CategoryRevisionMark, engine.CategoryTitleBlock}

// Schemas of the OpenAPI document, reflected from the representation
// structs: a field without omitempty is required, a pointer without
// omitempty is nullable; fieldDocs add descriptions and keywords.

type node = map[string]any

func ref(kind, name string) node { return node{"$ref": "#/components/" + kind + "/" + name} }
func schemaRef(name string) node { return ref("schemas", name) }

func str(desc string) node { return node{"type": "string", "description": desc} }

func enumOf(desc string, values []string) node {
	return node{"type": "string", "description": desc, "enum": values}
}

// nullable lets s also be null, the 3.1 way: "null" joins the type array
// (and the enum, when there is one).
func nullable(s node) node {
	out := node{}
	for k, v := range s {
		out[k] = v
	}
	switch t := s["type"].(type) {
	case string:
		out["type"] = []string{t, "null"}
	case []string:
		if !slices.Contains(t, "null") {
			out["type"] = append(slices.Clone(t), "null")
		}
	default:
		if _, isRef := s["$ref"]; isRef {
			return node{"anyOf": []any{s, node{"type": "null"}}}
		}
		if all, ok := s["allOf"].([]any); ok && len(all) == 1 {
			// a wrapped reference (with its own keywords): the reference or null
			delete(out, "allOf")
			out["anyOf"] = []any{all[0], node{"type": "null"}}
			return out
		}
		return out // no type: already allows null
	}
	if e, ok := s["enum"].([]string); ok {
		vals := make([]any, 0, len(e)+1)
		for _, v := range e {
			vals = append(vals, v)
		}
		out["enum"] = append(vals, nil)
	}
	return out
}

// entEnum is the values of the enum field name of an Ent schema.
func entEnum(fields []entgo.Field, name string) []string {
	for _, f := range fields {
		if d := f.Descriptor(); d.Name == name {
			out := make([]string, len(d.Enums))
			for i, e := range d.Enums {
				out[i] = e.V
			}
			return out
		}
	}
	enumErrs = append(enumErrs, fmt.Errorf("openapi: no enum field %s", name))
	return nil
}

// enumErrs are the enums entEnum could not find (at package
// initialization); buildOpenAPI returns them.
var enumErrs []error

var (
	fileStatuses    = entEnum(schema.File{}.Fields(), "status")
	drawingStatuses = entEnum(schema.Drawing{}.Fields(), "status")
	jobTargetTypes  = entEnum(schema.Job{}.Fields(), "target_type")
)

// acceptedStatuses are the statuses a 202 answer can show.
func acceptedStatuses() []string {
	var out []string
	for _, s := range jobstatus.All {
		if a := jobstatus.Accepted(s); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// ---- schemas reflected from the representation structs ----

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// componentTypes are the structs that become named schemas.
var componentTypes = map[reflect.Type]string{
	reflect.TypeFor[Project]():               "Project",
	reflect.TypeFor[File]():                  "File",
	reflect.TypeFor[Drawing]():               "Drawing",
	reflect.TypeFor[Sheet]():                 "Sheet",
	reflect.TypeFor[Block]():                 "Block",
	reflect.TypeFor[Overlay]():               "Overlay",
	reflect.TypeFor[overlayjson.Transform](): "OverlayTransform",
	reflect.TypeFor[overlayjson.Change]():    "OverlayChange",
	reflect.TypeFor[Job]():                   "Job",
	reflect.TypeFor[Accepted]():              "AcceptedJob",
	reflect.TypeFor[geom.Box]():              "BoundingBox",
	reflect.TypeFor[Meta]():                  "PageMeta",
	reflect.TypeFor[apierr.Problem]():        "Problem",
	// results of parse jobs and their children
	reflect.TypeFor[parsejob.ParseResult]():      "ParseResult",
	reflect.TypeFor[parsejob.LegendResult]():     "ParseLegend",
	reflect.TypeFor[parsejob.BlockMatchResult](): "ParseBlockResult",
	reflect.TypeFor[parsejob.ParseSymbol]():      "ParseSymbol",
	reflect.TypeFor[parsejob.ParseInstance]():    "ParseInstance",
	reflect.TypeFor[parsejob.ParseWarning]():     "ParseWarning",
	// results of compare jobs and their children
	reflect.TypeFor[engine.Report]():            "CompareReport",
	reflect.TypeFor[engine.ReportSheet]():       "CompareSheet",
	reflect.TypeFor[engine.ReportBlock]():       "CompareBlock",
	reflect.TypeFor[engine.ReportSheetPair]():   "CompareSheetPair",
	reflect.TypeFor[engine.ReportOverlay]():     "CompareOverlay",
	reflect.TypeFor[engine.ReportChange]():      "CompareChange",
	reflect.TypeFor[comparejob.OverlayResult](): "OverlayResult",
	reflect.TypeFor[comparejob.AnalyzeResult](): "AnalyzeResult",
}

// fieldDocs describe the properties of each reflected struct (merged into
// the reflected schema). Every property must have one; a name that is not
// a property is a bug caught when the document is built.
var fieldDocs = map[reflect.Type]map[string]node{
	reflect.TypeFor[Project](): {
		"id":         {"description": "Project id (prefix `prj_`).", "examples": []string{"prj_01jd7m3v2k8q9r4s5t6v7w8x9y"}},
		"name":       {"description": "Project name, 1 to 200 characters.", "maxLength": 200},
		"created_at": {"description": "When the project was created."},
		"updated_at": {"description": "When the project was last changed."},
	},
	reflect.TypeFor[File](): {
		"id":           {"description": "File id (prefix `fil_`)."},
		"project_id":   {"description": "Project the file belongs to."},
		"filename":     {"description": "Name given when the upload was created."},
		"content_type": {"description": "MIME type declared at creation and checked against the bytes on confirmation.", "enum": uploads.Types},
		"size":         {"description": "Size in bytes.", "minimum": 0},
		"sha256":       {"description": "Hex SHA-256 of the bytes; null until the upload is confirmed."},
		"status":       {"description": "`pending` until the upload is confirmed, then `ready`.", "enum": fileStatuses},
		"created_at":   {"description": "When the upload was created."},
		"confirmed_at": {"description": "When the upload was confirmed; null while pending."},
		"download_url": {"description": "Signed URL to read the bytes, valid 15 minutes. Present on GET /v1/files/{id} and on confirmation once the file is ready.", "format": "uri"},
	},
	reflect.TypeFor[Drawing](): {
		"id":         {"description": "Drawing id (prefix `drw_`)."},
		"project_id": {"description": "Project the drawing belongs to."},
		"file_id":    {"description": "Uploaded file the drawing was made from."},
		"name":       {"description": "Drawing name, 1 to 255 characters; case-insensitive substring filter `name`.", "maxLength": 255},
		"status":     {"description": "Processing state of the drawing.", "enum": drawingStatuses},
		"page_count": {"description": "Number of pages (sheets) found so far.", "minimum": 0},
		"created_at": {"description": "When the drawing was created."},
		"file":       {"description": "The file, with `expand=file`."},
	},
	reflect.TypeFor[Sheet](): {
		"id":           {"description": "Sheet id (prefix `sht_`)."},
		"drawing_id":   {"description": "Drawing the sheet is a page of (expandable to `drawing`)."},
		"project_id":   {"description": "Project of the drawing."},
		"page_number":  {"description": "Page of the drawing, from 1.", "minimum": 1},
		"sheet_number": {"description": "Sheet number as printed, for example `A-101`; empty when unknown.", "examples": []string{"A-101"}},
		"title":        {"description": "Sheet title; empty when unknown."},
		"discipline":   {"description": "Discipline derived from the sheet number; empty when unknown. Values: " + strings.Join(sheetmeta.Disciplines(), ", ") + "."},
		"revision":     {"description": "Revision mark; empty when unknown."},
		"width":        {"description": "Rendered width in pixels.", "minimum": 0},
		"height":       {"description": "Rendered height in pixels.", "minimum": 0},
		"dpi":          {"description": "Rendering resolution in dots per inch.", "minimum": 1},
		"uri":          {"description": "Location of the rendered sheet image; empty until rendered."},
		"created_at":   {"description": "When the sheet was created."},
		"drawing":      {"description": "The drawing, with `expand=drawing` (or `sheet.drawing` on blocks, `block_a.sheet.drawing` on overlays)."},
	},
	reflect.TypeFor[Block](): {
		"id":          {"description": "Block id (prefix `blk_`)."},
		"sheet_id":    {"description": "Sheet the block is a region of (expandable to `sheet`)."},
		"type":        {"description": "Kind of region.", "enum": schema.BlockTypes},
		"title":       {"description": "Block title; empty when unknown."},
		"description": {"description": "Block description; empty when unknown."},
		"scale":       {"description": "Drawing scale as printed, for example `1/4\" = 1'-0\"`; empty when unknown."},
		"bounds":      {"description": "Position on the sheet, in sheet pixels."},
		"uri":         {"description": "Location of the block image; empty until rendered."},
		"created_at":  {"description": "When the block was created."},
		"sheet":       {"description": "The sheet, with `expand=sheet` (or `sheet.drawing`)."},
	},
	reflect.TypeFor[Overlay](): {
		"id":            {"description": "Overlay id (prefix `ovl_`)."},
		"project_id":    {"description": "Project of the compared blocks."},
		"block_a_id":    {"description": "Older block (expandable to `block_a`)."},
		"block_b_id":    {"description": "Newer block (expandable to `block_b`)."},
		"job_id":        {"description": "Comparison job that created the overlay (expandable to `job`)."},
		"score":         {"description": "Match score of the two blocks; null until computed."},
		"has_changes":   {"description": "Whether change detection has run on this overlay (filter `has_changes`); `changes` is its result."},
		"registered":    {"description": "Whether A could be registered onto B. false: no transform could be trusted; A is placed by its ink's box (`transform`) and `warnings` say why."},
		"transform":     {"description": "The similarity transform mapping A's block pixels onto B's; null for an overlay made before alignment was recorded."},
		"uri":           {"description": "Location of the combined overlay image (PNG in B's frame and size): unchanged ink grey (#a0a0a0), ink of A that B lacks (removed) red (#dc1e1e), ink of B that A lacks (added) green (#14a028), on white; empty until rendered."},
		"addition_uri":  {"description": "Location of B's added ink alone (PNG, dark on white, B's frame)."},
		"deletion_uri":  {"description": "Location of A's removed ink alone (PNG, dark on white, moved into B's frame)."},
		"aligned_a_uri": {"description": "Location of block A moved into B's frame (PNG, B's size)."},
		"aligned_b_uri": {"description": "Location of block B (PNG), the frame of the other images."},
		"changes":       {"description": "The described changes, once change analysis has run (`has_changes`); null before. Bounds are in B's block pixels, `bounds_a` in A's."},
		"warnings":      {"description": "What could not be done: no registration, the time budget spent. Empty when there is nothing to say."},
		"created_at":    {"description": "When the overlay was created."},
		"block_a":       {"description": "Block A, with `expand=block_a` (`block_a.sheet`, `block_a.sheet.drawing` go deeper)."},
		"block_b":       {"description": "Block B, with `expand=block_b` (`block_b.sheet`, `block_b.sheet.drawing` go deeper)."},
		"job":           {"description": "The comparison job, with `expand=job`."},
	},
	reflect.TypeFor[overlayjson.Transform](): transformDocs,
	reflect.TypeFor[overlayjson.Change]():    changeDocs,
	reflect.TypeFor[Job](): {
		"job_id":       {"description": "Job id (prefix `job_`)."},
		"type":         {"description": "Job type, for example `parse`, `compare`, `overlay.generate`, `vision.legend.parse`, `drawing.preprocess`.", "examples": []string{"parse", "compare"}},
		"status":       {"description": "Job status.", "enum": jobstatus.All},
		"target":       {"description": "What the job works on; null for jobs without a target."},
		"project_id":   {"description": "Project of the job; null for jobs outside a project."},
		"parent_id":    {"description": "Parent job of a child job (expandable to `parent`); null for top-level jobs."},
		"progress":     {"description": "Progress from 0 to 1.", "minimum": 0, "maximum": 1},
		"error":        {"description": "Why the job failed; null unless it failed."},
		"results":      {"description": "Result of a completed job; absent until there is one. A `parse` job's is the parse result object (components.schemas.ParseResult), a `vision.legend.parse` child's a ParseLegend, a `vision.symbols.match` child's a ParseBlockResult."},
		"created_at":   {"description": "When the job was created."},
		"started_at":   {"description": "When the job started; null while queued."},
		"completed_at": {"description": "When the job finished; null until then."},
		"parent":       {"description": "The parent job, with `expand=parent`."},
	},
	reflect.TypeFor[Target](): {
		"type": {"description": "Kind of resource.", "enum": jobTargetTypes},
		"id":   {"description": "Id of the resource."},
	},
	reflect.TypeFor[jobstatus.Error](): {
		"code":    {"description": "Stable machine code."},
		"message": {"description": "Human-readable explanation."},
	},
	reflect.TypeFor[Accepted](): {
		"job_id": {"description": "Id of the queued job; poll GET /v1/jobs/{id}."},
		"type":   {"description": "Job type."},
		"status": {"description": "`PENDING` for a job just queued (a repeated idempotent request may show a later status).", "enum": acceptedStatuses()},
		"target": {"description": "What the job works on."},
	},
	reflect.TypeFor[geom.Box](): {
		"x_min": {"description": "Left edge, pixels."},
		"y_min": {"description": "Top edge, pixels."},
		"x_max": {"description": "Right edge, pixels."},
		"y_max": {"description": "Bottom edge, pixels."},
	},
	reflect.TypeFor[parsejob.ParseResult](): {
		"legend":   {"description": "One item per legend block read (its entries are the symbols searched for), plus one with `block_id` null and `source` `request` holding the symbols the request supplied (options.symbols.legend and exemplars)."},
		"symbols":  {"description": "One item per symbol type with at least one detection, in legend order."},
		"summary":  {"description": "Totals."},
		"warnings": {"description": "Why something was not searched or not found: no legend, a legend without graphics, each legend entry not made into a template (`TEXT_ONLY_ENTRY`: no graphic; `SYMBOL_SKIPPED`: a line style — walls, runs: not counted —, a blank graphic, a symbol under 10 px at 300 DPI or larger than a block), a blank block, a block that could not be searched or whose search ran out of time. Absent when there is nothing to say."},
	},
	reflect.TypeFor[parsejob.LegendResult](): {
		"block_id":             {"description": "Legend block id; null for the symbols supplied with the request."},
		"source":               {"description": "`request` for the item of supplied symbols; absent for legend blocks.", "enum": []string{parsejob.SourceRequest}},
		"symbols_detected":     {"description": "Entries found in the legend.", "minimum": 0},
		"symbols_with_graphic": {"description": "Entries with a symbol graphic (text-only entries are not searched for).", "minimum": 0},
		"symbols":              {"description": "The entries, in reading order."},
		"warnings":             {"description": "In a legend job's own result (its parse.child.completed event) only: the entries not made into a template to search for, and why (text only, a line style, a blank or too small graphic). The parse result lists them in its `warnings` instead."},
	},
	reflect.TypeFor[parsejob.LegendSymbol](): {
		"feature_id":  {"description": "Feature id of the legend entry (prefix `ftr_`)."},
		"label":       {"description": "Label (tag) of the entry."},
		"description": {"description": "Legend text of the entry."},
		"has_graphic": {"description": "Whether the entry has a graphic to search for; false for text-only entries."},
	},
	reflect.TypeFor[parsejob.BlockMatchResult](): {
		"block_id": {"description": "The view block searched."},
		"symbols":  {"description": "Symbol types found on the block, with their instances (without `block_id`)."},
		"summary":  {"description": "Totals for the block."},
		"warnings": {"description": "Symbols skipped on this block and why, or why the block was not searched."},
	},
	reflect.TypeFor[parsejob.ParseSymbol](): {
		"label":             {"description": "Label from the legend."},
		"description":       {"description": "Legend description text."},
		"legend_feature_id": {"description": "Feature id of the legend entry matched from."},
		"instance_count":    {"description": "Number of instances.", "minimum": 1},
		"instances":         {"description": "The instances, by block and reading order; absent with `options.symbols.count: true`."},
	},
	reflect.TypeFor[parsejob.ParseInstance](): {
		"feature_id": {"description": "Feature id of the instance; its `defined_by` is the legend entry."},
		"block_id":   {"description": "Block the instance is on (absent in a block's own result)."},
		"bounds":     {"description": "Box of the instance in the block image's pixels."},
		"confidence": {"description": "How closely the instance matches the legend symbol; 0.5 separates right from wrong on the benchmarks.", "minimum": 0, "maximum": 1},
	},
	reflect.TypeFor[parsejob.ParseSummary](): {
		"total_symbols_searched": {"description": "Symbol types with at least one detection.", "minimum": 0},
		"total_instances_found":  {"description": "Detections across all blocks.", "minimum": 0},
	},
	reflect.TypeFor[parsejob.ParseWarning](): {
		"code":       {"description": "Machine code.", "enum": []string{parsejob.WarnNoLegend, parsejob.WarnNoGraphics, parsejob.WarnNoViewBlocks, parsejob.WarnLegendFailed, parsejob.WarnMatchFailed, parsejob.WarnBlockBlank, parsejob.WarnSymbolSkipped, parsejob.WarnTextOnly, parsejob.WarnExemplarBlank, parsejob.WarnSearchIncomplete}},
		"message":    {"description": "Human-readable explanation."},
		"block_id":   {"description": "The block concerned, if any."},
		"feature_id": {"description": "The legend entry concerned, if any."},
		"label":      {"description": "Label of the legend entry concerned, if any."},
	},
	reflect.TypeFor[engine.Report](): {
		"type":              {"description": "What was compared.", "enum": comparejob.Types},
		"old":               {"description": "The older revision (A): its id and name."},
		"new":               {"description": "The newer revision (B): its id and name."},
		"has_changes":       {"description": "Whether anything changed: a change found by the analysis, or a sheet or block added or removed."},
		"analyzed":          {"description": "Whether change analysis ran (`analyze` was not `[]`)."},
		"sheets_added":      {"description": "Sheets of the newer drawing matching none of the older's."},
		"sheets_removed":    {"description": "Sheets of the older drawing matching none of the newer's."},
		"sheets_renumbered": {"description": "Matched sheets whose numbers differ (matched by title or by the likeness of their pages)."},
		"pairs":             {"description": "The matched sheet pairs with their block pairs (one for a Sheet or Block compare), in the newer drawing's page order."},
		"by_category":       {"description": "Changes counted by category."},
		"by_severity":       {"description": "Changes counted by severity."},
		"by_kind":           {"description": "Changes counted by kind."},
		"warnings":          {"description": "What could not be compared, and why. Absent when there is nothing to say."},
	},
	reflect.TypeFor[engine.ReportSide](): {
		"id":   {"description": "Id of the drawing, sheet or block."},
		"name": {"description": "Its name: the drawing's name, the sheet's number and title, the block's title."},
	},
	reflect.TypeFor[engine.ReportRenumber](): {
		"old": {"description": "The sheet in the older drawing."},
		"new": {"description": "The same sheet in the newer drawing."},
	},
	reflect.TypeFor[engine.ReportSheet](): {
		"sheet_id": {"description": "Sheet id (prefix `sht_`)."},
		"number":   {"description": "Sheet number as printed; empty when unread."},
		"title":    {"description": "Sheet title; empty when unread."},
		"page":     {"description": "Page of its drawing, from 1.", "minimum": 1},
	},
	reflect.TypeFor[engine.ReportBlock](): {
		"block_id": {"description": "Block id (prefix `blk_`)."},
		"type":     {"description": "Block type.", "enum": schema.BlockTypes},
		"title":    {"description": "Block title; empty when unread."},
		"bounds":   {"description": "The block on its sheet, sheet pixels."},
	},
	reflect.TypeFor[engine.ReportSheetPair](): {
		"old":            {"description": "The older sheet."},
		"new":            {"description": "The newer sheet."},
		"blocks_added":   {"description": "Blocks of the newer sheet matching none of the older's."},
		"blocks_removed": {"description": "Blocks of the older sheet matching none of the newer's."},
		"overlays":       {"description": "The compared block pairs (matched by type, place on the sheet, title and words)."},
	},
	reflect.TypeFor[engine.ReportOverlay](): {
		"overlay_id":  {"description": "The overlay (GET /v1/overlays/{id})."},
		"old":         {"description": "Block A."},
		"new":         {"description": "Block B."},
		"score":       {"description": "1 for blocks identical after alignment, towards 0 as more of their ink differs: ≥ 0.95 near-identical, 0.80–0.95 moderate, 0.60–0.80 significant, < 0.60 major.", "minimum": 0, "maximum": 1},
		"transform":   {"description": "The transform mapping A's block pixels onto B's."},
		"registered":  {"description": "False when the blocks did not register: the transform then only lines up their ink boxes, and warnings say why."},
		"uri":         {"description": "Location of the combined overlay image."},
		"changes":     {"description": "The pair's changes; empty when nothing changed or change analysis did not run."},
		"by_category": {"description": "The pair's changes counted by category."},
		"warnings":    {"description": "What could not be done for this pair (no registration, analysis failed). Absent when there is nothing to say."},
	},
	reflect.TypeFor[engine.ReportChange](): changeDocs,
	reflect.TypeFor[engine.Transform]():    transformDocs,
	reflect.TypeFor[comparejob.OverlayResult](): {
		"overlay_id": {"description": "The overlay made."},
		"block_a_id": {"description": "Block A (older)."},
		"block_b_id": {"description": "Block B (newer)."},
		"score":      {"description": "The overlay's score (see CompareOverlay.score).", "minimum": 0, "maximum": 1},
		"registered": {"description": "Whether A could be registered onto B."},
		"transform":  {"description": "The transform mapping A's block pixels onto B's."},
		"warnings":   {"description": "What could not be done. Absent when there is nothing to say."},
	},
	reflect.TypeFor[comparejob.AnalyzeResult](): {
		"overlay_id":  {"description": "The overlay analyzed."},
		"score":       {"description": "The overlay's score; null if it has none.", "minimum": 0, "maximum": 1},
		"changes":     {"description": "Number of changes found.", "minimum": 0},
		"by_category": {"description": "Changes counted by category."},
		"by_severity": {"description": "Changes counted by severity."},
		"by_kind":     {"description": "Changes counted by kind."},
	},
	reflect.TypeFor[Meta](): {
		"next":  {"description": "Cursor of the next (older) page; null when there are no more results."},
		"prev":  {"description": "Cursor of the previous (newer) page; null on the first page."},
		"limit": {"description": "Page size applied.", "minimum": 1, "maximum": maxLimit},
	},
	reflect.TypeFor[apierr.Problem](): {
		"type":       {"description": "URI of the problem type, {errors_url}/<kind>; GET it for a description.", "format": "uri", "examples": []string{apierr.TypesURL + "/bad-request"}},
		"title":      {"description": "Short title of the problem type."},
		"status":     {"description": "HTTP status.", "minimum": 400, "maximum": 599},
		"detail":     {"description": "Human-readable explanation of this occurrence."},
		"code":       {"description": "Machine code, for example VALIDATION_ERROR, INVALID_CURSOR, UNAUTHORIZED, NOT_FOUND, CONFLICT, RATE_LIMITED, INTERNAL_ERROR.", "examples": []string{"VALIDATION_ERROR"}},
		"request_id": {"description": "Id of the request (also in X-Request-Id); quote it when reporting a problem.", "examples": []string{"req_01jd7m3v2k8q9r4s5t6v7w8x9y"}},
		"instance":   {"description": "Path of the request."},
		"errors":     {"description": "Validation messages by request field (or query parameter, or `body`)."},
	},
}

// reflector collects the component schemas, and what it could not describe.
type reflector struct {
	schemas node
	errs    []error
}

// structSchema reflects t's JSON encoding.
func (g *reflector) structSchema(t reflect.Type) node {
	props, required := node{}, []string{}
	g.fields(t, props, &required)
	docs := fieldDocs[t]
	for name := range docs {
		if props[name] == nil {
			g.errs = append(g.errs, fmt.Errorf("openapi: %s has no JSON field %q", t, name))
		}
	}
	for name := range props {
		if _, ok := docs[name]; !ok {
			g.errs = append(g.errs, fmt.Errorf("openapi: %s.%s is not described", t, name))
		}
	}
	s := node{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func (g *reflector) fields(t reflect.Type, props node, required *[]string) {
	docs := fieldDocs[t]
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			g.fields(f.Type, props, required)
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		omit := slices.Contains(strings.Split(opts, ","), "omitempty")
		ft := f.Type
		ptr := ft.Kind() == reflect.Pointer
		if ptr {
			ft = ft.Elem()
		}
		s := g.typeSchema(ft)
		if _, isRef := s["$ref"]; isRef {
			// keywords beside a $ref are legal in 3.1 but many tools drop
			// them: wrap the reference instead
			s = node{"allOf": []any{s}}
		}
		for k, v := range docs[name] {
			s[k] = v
		}
		if ptr && !omit {
			s = nullable(s)
		}
		if !omit {
			*required = append(*required, name)
		}
		props[name] = s
	}
}

func (g *reflector) typeSchema(t reflect.Type) node {
	switch t {
	case timeType:
		return node{"type": "string", "format": "date-time"}
	case rawType:
		return node{} // any JSON value
	}
	if name, ok := componentTypes[t]; ok {
		g.component(t)
		return schemaRef(name)
	}
	switch t.Kind() {
	case reflect.String:
		return node{"type": "string"}
	case reflect.Bool:
		return node{"type": "boolean"}
	case reflect.Int, reflect.Int32:
		return node{"type": "integer"}
	case reflect.Int64:
		return node{"type": "integer", "format": "int64"}
	case reflect.Float32, reflect.Float64:
		return node{"type": "number"}
	case reflect.Slice:
		return node{"type": "array", "items": g.typeSchema(t.Elem())}
	case reflect.Map:
		return node{"type": "object", "additionalProperties": g.typeSchema(t.Elem())}
	case reflect.Struct:
		return g.structSchema(t)
	case reflect.Pointer:
		return g.typeSchema(t.Elem())
	}
	g.errs = append(g.errs, fmt.Errorf("openapi: cannot describe %s", t))
	return node{}
}

// component adds the named schema of t (once; recursion stops at the ref).
func (g *reflector) component(t reflect.Type) {
	name := componentTypes[t]
	if _, done := g.schemas[name]; done {
		return
	}
	g.schemas[name] = node{} // placeholder for recursive types (Job.parent)
	g.schemas[name] = g.structSchema(t)
}
