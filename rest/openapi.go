package rest

// The OpenAPI 3.1 description of the REST API, generated from the code
// rather than kept as a hand-written blob: resource schemas are reflected
// from the representation structs (a field without omitempty is required,
// a pointer without omitempty is nullable), enums come from the Ent schema
// and the packages that check them, and expand values from expandable.
// Handwritten here are the words and the list of operations; the tests
// check that list against the routes the code registers and validate real
// responses against the document.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	entgo "entgo.io/ent"

	"github.com/plangraph/plangraph/ent/schema"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/service/parse"
	listing "github.com/plangraph/plangraph/internal/service/query"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/uploads"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/geom"
)

// OpenAPIPattern is the route of the document. It must be reachable
// without an API key, so the server registers it next to the signed
// upload routes rather than behind authentication.
const OpenAPIPattern = "GET /v1/openapi.json"

// openAPIVersion is the default X-API-Version (internal/server.APIVersions[0];
// that package imports this one, so the value is repeated here).
const openAPIVersion = "2026-01-01"

// openAPIJSON builds the document once. Building panics when a
// representation field has no description (or a description names no
// field); that becomes the error here, and a failing test before then.
var openAPIJSON = sync.OnceValues(func() (b []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return json.Marshal(buildOpenAPI())
})

// OpenAPIDocument is the OpenAPI 3.1 document of the API as JSON.
func OpenAPIDocument() ([]byte, error) { return openAPIJSON() }

// OpenAPI serves the document (GET /v1/openapi.json).
func (a *API) OpenAPI(w http.ResponseWriter, r *http.Request) {
	b, err := openAPIJSON()
	if err != nil {
		httpx.Problem(w, r, apierr.Internalf(err, "building the OpenAPI document"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// node is one JSON object of the document.
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
	panic("openapi: no enum field " + name)
}

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
	reflect.TypeFor[Project]():        "Project",
	reflect.TypeFor[File]():           "File",
	reflect.TypeFor[Drawing]():        "Drawing",
	reflect.TypeFor[Sheet]():          "Sheet",
	reflect.TypeFor[Block]():          "Block",
	reflect.TypeFor[Overlay]():        "Overlay",
	reflect.TypeFor[Job]():            "Job",
	reflect.TypeFor[Accepted]():       "AcceptedJob",
	reflect.TypeFor[geom.Box]():       "BoundingBox",
	reflect.TypeFor[Meta]():           "PageMeta",
	reflect.TypeFor[apierr.Problem](): "Problem",
	// results of parse jobs and their children
	reflect.TypeFor[parsejob.ParseResult]():      "ParseResult",
	reflect.TypeFor[parsejob.LegendResult]():     "ParseLegend",
	reflect.TypeFor[parsejob.BlockMatchResult](): "ParseBlockResult",
	reflect.TypeFor[parsejob.ParseSymbol]():      "ParseSymbol",
	reflect.TypeFor[parsejob.ParseInstance]():    "ParseInstance",
	reflect.TypeFor[parsejob.ParseWarning]():     "ParseWarning",
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
		"id":          {"description": "Overlay id (prefix `ovl_`)."},
		"project_id":  {"description": "Project of the compared blocks."},
		"block_a_id":  {"description": "Older block (expandable to `block_a`)."},
		"block_b_id":  {"description": "Newer block (expandable to `block_b`)."},
		"job_id":      {"description": "Comparison job that created the overlay (expandable to `job`)."},
		"score":       {"description": "Match score of the two blocks; null until computed."},
		"has_changes": {"description": "Whether change detection has run on this overlay."},
		"uri":         {"description": "Location of the overlay image; empty until rendered."},
		"created_at":  {"description": "When the overlay was created."},
		"block_a":     {"description": "Block A, with `expand=block_a` (`block_a.sheet`, `block_a.sheet.drawing` go deeper)."},
		"block_b":     {"description": "Block B, with `expand=block_b` (`block_b.sheet`, `block_b.sheet.drawing` go deeper)."},
		"job":         {"description": "The comparison job, with `expand=job`."},
	},
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
		"warnings": {"description": "Why something was not searched or not found (no legend, a legend without graphics, a blank block, a symbol under 10 px at 300 DPI or larger than a block, a block that could not be searched). Absent when there is nothing to say."},
	},
	reflect.TypeFor[parsejob.LegendResult](): {
		"block_id":             {"description": "Legend block id; null for the symbols supplied with the request."},
		"source":               {"description": "`request` for the item of supplied symbols; absent for legend blocks.", "enum": []string{parsejob.SourceRequest}},
		"symbols_detected":     {"description": "Entries found in the legend.", "minimum": 0},
		"symbols_with_graphic": {"description": "Entries with a symbol graphic (text-only entries are not searched for).", "minimum": 0},
		"symbols":              {"description": "The entries, in reading order."},
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
		"code":       {"description": "Machine code.", "enum": []string{parsejob.WarnNoLegend, parsejob.WarnNoGraphics, parsejob.WarnNoViewBlocks, parsejob.WarnLegendFailed, parsejob.WarnMatchFailed, parsejob.WarnBlockBlank, parsejob.WarnSymbolSkipped, parsejob.WarnExemplarBlank}},
		"message":    {"description": "Human-readable explanation."},
		"block_id":   {"description": "The block concerned, if any."},
		"feature_id": {"description": "The legend entry concerned, if any."},
		"label":      {"description": "Label of the legend entry concerned, if any."},
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

type reflector struct{ schemas node }

// structSchema reflects t's JSON encoding.
func (g *reflector) structSchema(t reflect.Type) node {
	props, required := node{}, []string{}
	g.fields(t, props, &required)
	docs := fieldDocs[t]
	for name := range docs {
		if props[name] == nil {
			panic(fmt.Sprintf("openapi: %s has no JSON field %q", t, name))
		}
	}
	for name := range props {
		if _, ok := docs[name]; !ok {
			panic(fmt.Sprintf("openapi: %s.%s is not described", t, name))
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
	panic("openapi: cannot describe " + t.String())
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

// ---- parameters, headers, responses ----

func pathID(prefix, what string) node {
	return node{"name": "id", "in": "path", "required": true, "description": "Id of the " + what + " (prefix `" + prefix + "_`).",
		"schema": node{"type": "string", "minLength": 1}}
}

func query(name, desc string, s node, required bool) node {
	p := node{"name": name, "in": "query", "description": desc, "schema": s}
	if required {
		p["required"] = true
	}
	return p
}

func expandParam(list string) node {
	allowed := listing.Expandable[list]
	return node{"name": "expand", "in": "query", "style": "form", "explode": false,
		"description": "Comma-separated related objects to add next to their `_id` fields (dot notation goes deeper, at most " +
			fmt.Sprint(listing.MaxExpandDepth) + " levels). On lists every item is expanded.",
		"schema": node{"type": "array", "items": node{"type": "string", "enum": allowed}}}
}

var headerDocs = node{
	"X-Request-Id": node{"description": "Id of this request (`req_…`), also in error bodies as `request_id`.", "required": true,
		"schema": node{"type": "string", "pattern": "^req_"}},
	"X-API-Version": node{"description": "API version that served the request.", "required": true,
		"schema": node{"type": "string", "examples": []string{openAPIVersion}}},
	"RateLimit-Limit": node{"description": "Requests the API key may send at once (the bucket's capacity).",
		"schema": node{"type": "integer", "minimum": 0}},
	"RateLimit-Remaining": node{"description": "Requests that may be sent right now.", "schema": node{"type": "integer", "minimum": 0}},
	"RateLimit-Reset":     node{"description": "Seconds until the budget is full again.", "schema": node{"type": "integer", "minimum": 0}},
	"RateLimit-Policy":    node{"description": "The budget as `burst;w=seconds`.", "schema": node{"type": "string"}},
	"Retry-After": node{"description": "Seconds to wait before retrying.", "required": true,
		"schema": node{"type": "integer", "minimum": 1}},
	"Idempotency-Status": node{"description": "`miss` when the request was processed, `hit` when the stored response of an earlier request with the same Idempotency-Key is replayed. Only on POST requests that carry an Idempotency-Key.",
		"schema": node{"type": "string", "enum": []string{"miss", "hit"}}},
	"Location": node{"description": "URL path of the created resource (or of the queued job).", "required": true,
		"schema": node{"type": "string"}},
	"WWW-Authenticate": node{"description": "Authentication scheme to use.", "required": true, "schema": node{"type": "string"}},
	"Allow":            node{"description": "Methods the path supports.", "required": true, "schema": node{"type": "string"}},
}

var parameterDocs = node{
	"Limit": query("limit", fmt.Sprintf("Page size, at least 1; default %d; values above %d are clamped to %d.", defaultLimit, maxLimit, maxLimit),
		node{"type": "integer", "minimum": 1, "default": defaultLimit}, false),
	"Cursor": query("cursor", "Opaque cursor from `_meta.next` or `_meta.prev` of a previous page. It carries the filters: when paging pass only the cursor (and optionally limit). Invalid or expired cursors (24 h) are answered 400 INVALID_CURSOR.",
		node{"type": "string"}, false),
	"CreatedAfter":  query("created_after", "Only records created after this instant (ISO 8601 date-time; a date or a date-time without offset is read as UTC).", node{"type": "string", "format": "date-time"}, false),
	"CreatedBefore": query("created_before", "Only records created before this instant (ISO 8601 date-time; a date or a date-time without offset is read as UTC).", node{"type": "string", "format": "date-time"}, false),
	"IdempotencyKey": node{"name": "Idempotency-Key", "in": "header", "required": false,
		"description": "Makes the POST safe to retry for 24 hours: a repeat with the same key and body replays the first response (Idempotency-Status: hit); the same key with another body is 409. Keys are scoped to the organization.",
		"schema":      node{"type": "string", "minLength": 1, "maxLength": 256, "pattern": "^[A-Za-z0-9_-]+$"}},
	"APIVersion": node{"name": "X-API-Version", "in": "header", "required": false,
		"description": "API version to use; an unknown version is answered 400 UNSUPPORTED_API_VERSION.",
		"schema":      node{"type": "string", "default": openAPIVersion}},
}

// methodNotAllowedStatus is the status ServeHTTP answers a method a path
// does not have with (code METHOD_NOT_ALLOWED, with Allow). OpenAPI cannot
// attach it to an operation, so the document says it in words and in
// components.responses.MethodNotAllowed; the tests check the code agrees.
const methodNotAllowedStatus = http.StatusMethodNotAllowed

// errorText is the default description of each error status.
var errorText = map[int]string{
	400: "The request is invalid: VALIDATION_ERROR with messages per field in `errors`, INVALID_CURSOR, or UNSUPPORTED_API_VERSION (an unknown X-API-Version).",
	401: "The API key is missing or invalid (UNAUTHORIZED).",
	403: "The signed URL's signature is invalid or has expired (INVALID_SIGNATURE); request a new URL.",
	404: "No such resource in this organization (NOT_FOUND).",
	409: "The request conflicts with the state of a resource (CONFLICT and more specific codes), or its Idempotency-Key was used for a different request (IDEMPOTENCY_CONFLICT) or is still being processed (IDEMPOTENCY_IN_PROGRESS).",
	413: "The request body is too large (PAYLOAD_TOO_LARGE).",
	415: "The request body is not JSON (UNSUPPORTED_MEDIA_TYPE); send Content-Type: application/json.",
	429: "Rate limit exceeded (RATE_LIMITED); retry after Retry-After seconds.",
	500: "Unexpected error (INTERNAL_ERROR); quote request_id when reporting it.",
	503: "A dependency is unavailable or the request took too long (UNAVAILABLE, TIMEOUT).",
}

// op is one operation of the document.
type op struct {
	method, path     string
	id, tag, summary string
	desc             string
	params           []node
	body             node
	ok               map[int]node // success responses
	errs             []int
	errText          map[int]string // per-operation error descriptions
	signed           bool           // signed URL: no API key, no version header
	public           bool           // no API key
}

func (o op) isPost() bool { return o.method == http.MethodPost }

// errorNames name the shared error responses.
var errorNames = map[int]string{
	400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound",
	409: "Conflict", 413: "PayloadTooLarge", 415: "UnsupportedMediaType", 429: "TooManyRequests",
	500: "InternalError", 503: "Unavailable",
}

func methodNotAllowedText() string {
	return fmt.Sprintf("A method the path does not have is answered %d %s with code METHOD_NOT_ALLOWED; the Allow header lists the methods the path has.",
		methodNotAllowedStatus, http.StatusText(methodNotAllowedStatus))
}

// errorResponses are components.responses: one Problem Details response
// per error status.
func errorResponses() node {
	out := node{}
	for status, name := range errorNames {
		h := headersFor(status, true, true)
		switch status {
		case 409:
			ra := maps(headerDocs["Retry-After"].(node))
			ra["required"] = false
			ra["description"] = "With IDEMPOTENCY_IN_PROGRESS: seconds after which the first request's response can be replayed."
			h["Retry-After"] = ra
		}
		out[name] = node{
			"description": errorText[status],
			"headers":     h,
			"content":     node{"application/problem+json": node{"schema": schemaRef("Problem")}},
		}
	}
	h := headersFor(methodNotAllowedStatus, true, true)
	h["Allow"] = ref("headers", "Allow")
	out["MethodNotAllowed"] = node{
		"description": methodNotAllowedText() + " It is attached to no operation: the document lists only the methods each path has.",
		"headers":     h,
		"content":     node{"application/problem+json": node{"schema": schemaRef("Problem")}},
	}
	return out
}

func (o op) headers(status int) node { return headersFor(status, o.isPost(), !o.signed && !o.public) }

// headersFor are the response headers of status; idempotent is whether
// the request may have carried an Idempotency-Key (POST), limited whether
// it passed the rate limiter (which runs after authentication).
func headersFor(status int, idempotent, limited bool) node {
	h := node{"X-Request-Id": ref("headers", "X-Request-Id")}
	if status == 400 {
		v := maps(headerDocs["X-API-Version"].(node))
		v["required"] = false
		v["description"] = "API version that served the request; absent when the requested version was rejected."
		h["X-API-Version"] = v
	} else {
		h["X-API-Version"] = ref("headers", "X-API-Version")
	}
	if limited {
		for _, n := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"} {
			h[n] = ref("headers", n)
		}
	}
	if idempotent {
		h["Idempotency-Status"] = ref("headers", "Idempotency-Status")
	}
	switch status {
	case 201, 202:
		h["Location"] = ref("headers", "Location")
	case 401:
		h["WWW-Authenticate"] = ref("headers", "WWW-Authenticate")
	case 429:
		h["Retry-After"] = ref("headers", "Retry-After")
	}
	return h
}

func maps(n node) node {
	out := node{}
	for k, v := range n {
		out[k] = v
	}
	return out
}

func jsonContent(s node) node { return node{"application/json": node{"schema": s}} }

func (o op) build() node {
	params := []any{}
	for _, p := range o.params {
		params = append(params, p)
	}
	if !o.signed {
		params = append(params, ref("parameters", "APIVersion"))
	}
	if o.isPost() {
		params = append(params, ref("parameters", "IdempotencyKey"))
	}
	responses := node{}
	for status, r := range o.ok {
		r = maps(r)
		hs := o.headers(status)
		if extra, ok := r["headers"].(node); ok {
			for k, v := range extra {
				hs[k] = v
			}
		}
		r["headers"] = hs
		responses[fmt.Sprint(status)] = r
	}
	for _, status := range o.errs {
		r := ref("responses", errorNames[status])
		if desc := o.errText[status]; desc != "" {
			r["description"] = desc // a 3.1 reference may override the description
		}
		responses[fmt.Sprint(status)] = r
	}
	out := node{"operationId": o.id, "tags": []string{o.tag}, "summary": o.summary, "responses": responses}
	if o.desc != "" {
		out["description"] = o.desc
	}
	if len(params) > 0 {
		out["parameters"] = params
	}
	if o.body != nil {
		out["requestBody"] = o.body
	}
	if o.signed || o.public {
		out["security"] = []any{}
	}
	return out
}

// ---- the operations ----

// errors that every API-key operation can answer
var (
	listErrs   = []int{400, 401, 429, 500, 503}
	getErrs    = []int{400, 401, 404, 429, 500, 503}
	createErrs = []int{400, 401, 409, 413, 415, 429, 500, 503}
	patchErrs  = []int{400, 401, 404, 409, 413, 415, 429, 500, 503}
	deleteErrs = []int{400, 401, 404, 409, 429, 500, 503}
)

func body(s node, required bool, desc string) node {
	return node{"required": required, "description": desc, "content": jsonContent(s)}
}

func object(required []string, props node) node {
	s := node{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func okJSON(desc string, s node) node { return node{"description": desc, "content": jsonContent(s)} }

// listResource describes a list and single GET of one collection.
type listResource struct {
	list, singular, prefix, tag, schema string
	filters                             []node
}

func (l listResource) hasExpand() bool { return len(listing.Expandable[l.list]) > 0 }

func (l listResource) listOp() op {
	params := []node{ref("parameters", "Limit"), ref("parameters", "Cursor")}
	params = append(params, l.filters...)
	params = append(params, ref("parameters", "CreatedAfter"), ref("parameters", "CreatedBefore"))
	if l.hasExpand() {
		params = append(params, expandParam(l.list))
	}
	return op{method: "GET", path: "/v1/" + l.list, id: "list" + title(l.list), tag: l.tag,
		summary: "List " + l.list,
		desc:    "Newest first (created_at, then id, descending). Filters combine with AND; unknown query parameters are rejected (400).",
		params:  params, ok: map[int]node{200: okJSON("A page of "+l.list+".", schemaRef(l.schema+"List"))}, errs: listErrs}
}

func (l listResource) getOp() op {
	params := []node{pathID(l.prefix, l.singular)}
	if l.hasExpand() {
		params = append(params, expandParam(l.list))
	}
	return op{method: "GET", path: "/v1/" + l.list + "/{id}", id: "get" + l.schema, tag: l.tag,
		summary: "Get a " + l.singular, params: params,
		ok: map[int]node{200: okJSON("The "+l.singular+".", schemaRef(l.schema))}, errs: getErrs}
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func stringFilter(name, desc string, required bool) node {
	return query(name, desc, node{"type": "string"}, required)
}

var listResources = []listResource{
	{list: "projects", singular: "project", prefix: "prj", tag: "Projects", schema: "Project"},
	{list: "files", singular: "file", prefix: "fil", tag: "Files", schema: "File", filters: []node{
		stringFilter("project_id", "Files of this project.", true),
		query("content_type", "Files of this MIME type, for example `application/pdf`.", node{"type": "string", "examples": uploads.Types}, false),
	}},
	{list: "drawings", singular: "drawing", prefix: "drw", tag: "Drawings", schema: "Drawing", filters: []node{
		stringFilter("project_id", "Drawings of this project.", true),
		stringFilter("name", "Drawings whose name contains this text (case-insensitive).", false),
	}},
	{list: "sheets", singular: "sheet", prefix: "sht", tag: "Sheets", schema: "Sheet", filters: []node{
		stringFilter("drawing_id", "Sheets of this drawing.", false),
		stringFilter("project_id", "Sheets across all drawings of this project.", false),
		query("discipline", "Sheets of this discipline, for example `architectural`, `structural`.", node{"type": "string", "examples": sheetmeta.Disciplines()}, false),
		stringFilter("sheet_number", "Sheets with exactly this sheet number.", false),
	}},
	{list: "blocks", singular: "block", prefix: "blk", tag: "Blocks", schema: "Block", filters: []node{
		stringFilter("sheet_id", "Blocks of this sheet.", false),
		query("type", "Blocks of this type.", node{"type": "string", "enum": schema.BlockTypes}, false),
	}},
	{list: "overlays", singular: "overlay", prefix: "ovl", tag: "Overlays", schema: "Overlay", filters: []node{
		stringFilter("project_id", "Overlays of this project.", false),
		stringFilter("job_id", "Overlays created by this comparison job.", false),
		stringFilter("drawing_id", "Overlays involving a block of this drawing.", false),
		query("has_changes", "true: only overlays where change detection has run; false: only those where it has not.", node{"type": "boolean"}, false),
	}},
	{list: "jobs", singular: "job", prefix: "job", tag: "Jobs", schema: "Job", filters: []node{
		stringFilter("project_id", "Jobs of this project.", false),
		query("status", "Jobs in this status.", node{"type": "string", "enum": jobstatus.All}, false),
		query("type", "Jobs of this type, for example `compare`.", node{"type": "string"}, false),
		query("target_type", "Jobs whose target is of this kind.", node{"type": "string", "enum": jobTargetTypes}, false),
		stringFilter("target_id", "Jobs whose target is this resource.", false),
		stringFilter("parent_id", "Child jobs of this job.", false),
	}},
}

func operations() []op {
	var ops []op
	for _, l := range listResources {
		ops = append(ops, l.listOp(), l.getOp())
	}
	ops = append(ops, jobStreamOp())
	noContent := map[int]node{204: {"description": "Deleted."}}
	ops = append(ops,
		op{method: "POST", path: "/v1/projects", id: "createProject", tag: "Projects", summary: "Create a project",
			body: body(object([]string{"name"}, node{"name": node{"type": "string", "minLength": 1, "maxLength": 200, "description": "Project name (surrounding spaces are trimmed)."}}), true, "The new project."),
			ok:   map[int]node{201: okJSON("The project.", schemaRef("Project"))}, errs: createErrs},
		op{method: "PATCH", path: "/v1/projects/{id}", id: "updateProject", tag: "Projects", summary: "Rename a project",
			params: []node{pathID("prj", "project")},
			body:   body(object(nil, node{"name": node{"type": "string", "minLength": 1, "maxLength": 200, "description": "New name."}}), true, "Fields to change; absent fields keep their value."),
			ok:     map[int]node{200: okJSON("The updated project.", schemaRef("Project"))}, errs: patchErrs},
		op{method: "DELETE", path: "/v1/projects/{id}", id: "deleteProject", tag: "Projects", summary: "Delete a project",
			params: []node{pathID("prj", "project")}, ok: noContent, errs: deleteErrs},

		op{method: "POST", path: "/v1/files", id: "createFile", tag: "Files", summary: "Start a file upload",
			desc: "Creates a pending file and returns a signed URL. PUT the bytes there (with the returned headers), then POST /v1/files/{id}/confirm.",
			body: body(object([]string{"project_id", "filename", "content_type", "size"}, node{
				"project_id":   str("Project the file belongs to."),
				"filename":     node{"type": "string", "minLength": 1, "maxLength": 255, "description": "File name, without path separators."},
				"content_type": enumOf("MIME type of the bytes; checked on confirmation.", uploads.Types),
				"size":         node{"type": "integer", "format": "int64", "minimum": 1, "description": "Exact size in bytes (the server's maximum applies)."},
			}), true, "The file to upload."),
			ok: map[int]node{201: okJSON("The pending file and where to upload its bytes.", schemaRef("FileUpload"))}, errs: createErrs},
		op{method: "POST", path: "/v1/files/{id}/confirm", id: "confirmFile", tag: "Files", summary: "Confirm an upload",
			desc:   "Checks that all the declared bytes arrived and are of the declared type, then marks the file ready. Confirming a ready file again is harmless.",
			params: []node{pathID("fil", "file")},
			body:   body(object(nil, node{}), false, "No body, or an empty JSON object."),
			ok:     map[int]node{200: okJSON("The ready file, with its download URL.", schemaRef("File"))}, errs: []int{400, 401, 404, 409, 413, 415, 429, 500, 503},
			errText: map[int]string{400: "The upload is missing or incomplete (UPLOAD_MISSING, UPLOAD_INCOMPLETE), its bytes are not of the declared type (CONTENT_TYPE_MISMATCH), or the request is invalid (VALIDATION_ERROR, UNSUPPORTED_API_VERSION)."}},
		op{method: "DELETE", path: "/v1/files/{id}", id: "deleteFile", tag: "Files", summary: "Delete a file",
			params: []node{pathID("fil", "file")}, ok: noContent, errs: deleteErrs,
			errText: map[int]string{409: "A drawing uses the file (FILE_IN_USE); delete the drawing first."}},

		op{method: "POST", path: "/v1/drawings", id: "createDrawing", tag: "Drawings", summary: "Create a drawing from a confirmed file",
			desc: "Creates the drawing and queues its processing (pages → sheets → blocks). Poll the job at Location.",
			body: body(object([]string{"project_id", "file_id"}, node{
				"project_id": str("Project of the drawing (and of the file)."),
				"file_id":    str("Confirmed file to process."),
				"name":       node{"type": "string", "minLength": 1, "maxLength": 255, "description": "Drawing name; defaults to the file name."},
			}), true, "The drawing to create."),
			ok: map[int]node{202: okJSON("Processing was queued.", schemaRef("DrawingAccepted"))}, errs: createErrs,
			errText: map[int]string{400: "The request is invalid (VALIDATION_ERROR), or the file is not confirmed yet (FILE_NOT_READY)."}},
		op{method: "PATCH", path: "/v1/drawings/{id}", id: "updateDrawing", tag: "Drawings", summary: "Rename a drawing",
			params: []node{pathID("drw", "drawing")},
			body:   body(object(nil, node{"name": node{"type": "string", "minLength": 1, "maxLength": 255, "description": "New name."}}), true, "Fields to change; absent fields keep their value."),
			ok:     map[int]node{200: okJSON("The updated drawing.", schemaRef("Drawing"))}, errs: patchErrs},
		op{method: "DELETE", path: "/v1/drawings/{id}", id: "deleteDrawing", tag: "Drawings", summary: "Delete a drawing",
			params: []node{pathID("drw", "drawing")}, ok: noContent, errs: deleteErrs},

		op{method: "PATCH", path: "/v1/sheets/{id}", id: "updateSheet", tag: "Sheets", summary: "Correct a sheet's metadata",
			params: []node{pathID("sht", "sheet")},
			body: body(object(nil, node{
				"sheet_number": node{"type": "string", "maxLength": 32, "description": "Sheet number as printed."},
				"title":        node{"type": "string", "maxLength": 500, "description": "Sheet title."},
				"discipline":   node{"type": "string", "enum": append([]string{""}, sheetmeta.Disciplines()...), "description": "Discipline; empty clears it."},
			}), true, "Fields to change; absent fields keep their value."),
			ok: map[int]node{200: okJSON("The updated sheet.", schemaRef("Sheet"))}, errs: patchErrs},

		op{method: "GET", path: "/v1/sheets/{id}/image", id: "getSheetImage", tag: "Sheets", summary: "A sheet's rendered page",
			params: []node{pathID("sht", "sheet"),
				query("variant", "`full` (the default): the page as rendered; `thumbnail`: a small preview.", node{"type": "string", "enum": []string{"full", "thumbnail"}, "default": "full"}, false)},
			ok:      map[int]node{200: imageResponse("The PNG image.", "image/png")},
			errs:    getErrs,
			errText: map[int]string{404: "No such sheet, or it has no such image yet (NOT_FOUND)."}},
		op{method: "GET", path: "/v1/sheets/{id}/tiles.dzi", id: "getSheetTiles", tag: "Sheets", summary: "A sheet's Deep Zoom descriptor",
			desc:    "Deep Zoom Image (DZI) descriptor of the sheet's tile pyramid; the tiles are at tiles_files/{level}/{col}_{row}.png next to it.",
			params:  []node{pathID("sht", "sheet")},
			ok:      map[int]node{200: imageResponse("The DZI XML descriptor.", "application/xml")},
			errs:    getErrs,
			errText: map[int]string{404: "No such sheet, or it has no tiles yet (NOT_FOUND)."}},
		op{method: "GET", path: "/v1/sheets/{id}/tiles_files/{level}/{tile}", id: "getSheetTile", tag: "Sheets", summary: "One Deep Zoom tile of a sheet",
			params: []node{pathID("sht", "sheet"),
				{"name": "level", "in": "path", "required": true, "description": "Pyramid level.", "schema": node{"type": "integer", "minimum": 0, "maximum": 99}},
				{"name": "tile", "in": "path", "required": true, "description": "`{col}_{row}.png`.", "schema": node{"type": "string", "pattern": `^\d{1,5}_\d{1,5}\.png$`}},
			},
			ok:      map[int]node{200: imageResponse("The PNG tile.", "image/png")},
			errs:    getErrs,
			errText: map[int]string{404: "No such sheet or tile (NOT_FOUND)."}},

		op{method: "GET", path: "/v1/blocks/{id}/image", id: "getBlockImage", tag: "Blocks", summary: "A block's image",
			desc:    "The block cut from its sheet's page image (block pixels: parse results' bounds are relative to it).",
			params:  []node{pathID("blk", "block")},
			ok:      map[int]node{200: imageResponse("The PNG image.", "image/png")},
			errs:    getErrs,
			errText: map[int]string{404: "No such block, or it has no image yet (NOT_FOUND)."}},

		op{method: "PUT", path: "/uploads/{id}", id: "uploadFileBytes", tag: "Files", summary: "Upload a file's bytes (signed URL)",
			desc: "The `upload_url` of POST /v1/files: its signature is the credential (no API key). Send exactly `size` bytes with the returned headers; nothing is kept unless all of them arrive.",
			params: []node{
				{"name": "id", "in": "path", "required": true, "description": "File id (prefix `fil_`).", "schema": node{"type": "string", "minLength": 1}},
				query("size", "Declared size in bytes (signed).", node{"type": "integer", "format": "int64", "minimum": 1}, true),
				query("expires", "Expiry as Unix seconds (signed).", node{"type": "integer", "format": "int64"}, true),
				query("signature", "Signature of the URL.", node{"type": "string"}, true),
			},
			body:   node{"required": true, "description": "The file's bytes.", "content": binaryContent()},
			ok:     map[int]node{200: {"description": "Stored.", "headers": node{"ETag": node{"description": "Number of bytes stored, quoted.", "schema": node{"type": "string"}}}}},
			errs:   []int{400, 403, 404, 409, 413, 500, 503},
			signed: true,
			errText: map[int]string{
				400: "Fewer bytes arrived than declared, or the upload was interrupted (UPLOAD_INCOMPLETE).",
				409: "The file is already confirmed; its bytes cannot change (FILE_ALREADY_CONFIRMED).",
				413: "More bytes were sent than declared (PAYLOAD_TOO_LARGE).",
			}},
		op{method: "GET", path: "/downloads/{id}", id: "downloadFileBytes", tag: "Files", summary: "Download a file's bytes (signed URL)",
			desc: "The `download_url` of a ready file: its signature is the credential (no API key).",
			params: []node{
				{"name": "id", "in": "path", "required": true, "description": "File id (prefix `fil_`).", "schema": node{"type": "string", "minLength": 1}},
				query("expires", "Expiry as Unix seconds (signed).", node{"type": "integer", "format": "int64"}, true),
				query("signature", "Signature of the URL.", node{"type": "string"}, true),
			},
			ok: map[int]node{200: {"description": "The bytes, with the file's content type.", "content": binaryContent(), "headers": node{
				"Content-Disposition": node{"description": "`attachment` with the file name.", "required": true, "schema": node{"type": "string"}},
			}}},
			errs: []int{400, 403, 404, 500, 503}, signed: true,
			errText: map[int]string{400: "Nothing has been uploaded for the file yet (UPLOAD_MISSING)."}},

		parseOp(),

		op{method: "GET", path: "/v1/openapi.json", id: "getOpenAPI", tag: "Meta", summary: "This OpenAPI document",
			desc: "Needs no API key.", public: true,
			ok:   map[int]node{200: okJSON("The OpenAPI 3.1 document.", node{"type": "object"})},
			errs: []int{400, 500}},
	)
	return append(ops, webhookOps()...)
}

// parseOp is POST /v1/parse.
func parseOp() op {
	arr := func(desc string, values []string) node {
		return node{"type": "array", "items": node{"type": "string", "enum": values}, "description": desc}
	}
	// codes lists values as code: `a`, `b` and `c`
	codes := func(values []string) string {
		q := make([]string, len(values))
		for i, v := range values {
			q[i] = "`" + v + "`"
		}
		if len(q) < 2 {
			return strings.Join(q, "")
		}
		return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	}
	imageURL := node{"type": "string", "minLength": 1, "description": "The symbol's image: a `data:` URL (PNG, JPEG or single-page TIFF, base64), " +
		"this service's image of a block or file of the same organization (`/v1/blocks/{id}/image`, `/v1/files/{id}` or the file's download URL, relative or absolute), " +
		"or an https URL on a host the operator allowed (`--parse-image-url-allowlist`; addresses that are private, loopback, link-local or reserved are refused even then). " +
		"Any other URL is 400. The image is cropped to its drawn pixels; a blank or unreadable image is 400."}
	label := node{"type": "string", "minLength": 1, "maxLength": parse.MaxLabel, "description": "Label (tag) of the symbol."}
	desc := node{"type": "string", "maxLength": parse.MaxDescription, "description": "Legend text of the symbol."}
	box := object([]string{"x_min", "y_min", "x_max", "y_max"}, node{
		"x_min": node{"type": "number", "minimum": 0, "description": "Left edge, sheet pixels."},
		"y_min": node{"type": "number", "minimum": 0, "description": "Top edge, sheet pixels."},
		"x_max": node{"type": "number", "description": "Right edge, sheet pixels."},
		"y_max": node{"type": "number", "description": "Bottom edge, sheet pixels."},
	})
	symbolsOpts := object(nil, node{
		"legend_block_id": str("Legend block whose entries are searched for (legend detection is skipped). Required with `block_id` unless `legend` or `exemplars` supply the symbols."),
		"count":           node{"type": "boolean", "description": "true: results carry `instance_count` per symbol without `instances` lists."},
		"legend": node{"type": "array", "maxItems": parse.MaxSymbols, "description": "Legend entries supplied with the request; legend detection is skipped. " +
			"In the result they make one `legend[]` item with `block_id` null and `source` `request`; an entry without `image_url` is text only.",
			"items": object([]string{"label"}, node{"label": label, "description": desc, "image_url": imageURL})},
		"exemplars": node{"type": "array", "maxItems": parse.MaxSymbols, "description": "Symbols given by example (searched for like supplied legend entries): an image, or a region of a sheet to cut it from.",
			"items": object([]string{"label"}, node{"label": label, "description": desc, "image_url": imageURL,
				"source": object([]string{"sheet_id", "bounds"}, node{"sheet_id": str("Sheet to cut the exemplar from."), "bounds": box})})},
	})
	notUsed := " Accepted and validated against its values; not used yet (only `symbols` is available)."
	return op{method: "POST", path: "/v1/parse", id: "parse", tag: "Parse", summary: "Detect legend symbols",
		desc: "Starts a parse job: legends are read (`vision.legend.parse`, one child job per legend block), every view block (Plan, Elevation, Section, Detail, Diagram) " +
			"is searched for each legend symbol at 0.5–2× its size and any rotation (`vision.symbols.match`, one child per block), and each instance is stored as a feature " +
			"linked to its legend entry (`defined_by`). Give exactly one of `sheet_id` (its legends, or when it has none those of its drawing), `block_id`, " +
			"`drawing_id` (every sheet; each view block uses its own sheet's legends, or when that sheet has none every legend of the drawing) and `file_id` " +
			"(a drawing is created and processed first; it is the job's target). Poll the job at Location: once `Completed` its `results` are the parse result " +
			"object (components.schemas.ParseResult). A repeated parse replaces the instances an earlier parse stored for the same block and legend entries.",
		body: body(object([]string{"features"}, node{
			"features":   node{"type": "array", "minItems": 1, "items": node{"type": "string", "enum": parse.Features}, "description": "Tasks to run. Only " + codes(parse.Features) + " is available; " + codes(parse.ComingSoon) + " are coming soon and answered 400 VALIDATION_ERROR naming them in `errors.features`."},
			"sheet_id":   str("Parse this sheet."),
			"block_id":   str("Parse this block; needs `options.symbols.legend_block_id`, or symbols in `options.symbols.legend` / `exemplars`."),
			"drawing_id": str("Parse every sheet of this drawing; legends are detected."),
			"file_id":    str("Parse this confirmed file: a drawing and its sheets are made first."),
			"options": object(nil, node{
				"symbols":     symbolsOpts,
				"mep":         object(nil, node{"systems": arr("MEP systems.", parse.MEPSystems), "measure": node{"type": "boolean", "description": "Measure runs."}}),
				"dimensions":  object(nil, node{"units": enumOf("Units.", parse.DimensionUnits)}),
				"annotations": object(nil, node{"types": arr("Annotation types.", parse.AnnotationTypes)}),
				"text":        object(nil, node{"regions": arr("Text regions.", parse.TextRegions)}),
			}),
		}), true, "What to parse. Exactly one of sheet_id, block_id, drawing_id, file_id (else 400 naming them). The `mep`, `dimensions`, `annotations` and `text` option groups:"+notUsed),
		ok:   map[int]node{202: okJSON("The parse job was queued.", schemaRef("ParseAccepted"))},
		errs: []int{400, 401, 404, 409, 413, 415, 429, 500, 503},
		errText: map[int]string{
			400: "The request is invalid (VALIDATION_ERROR, with `errors` by field: a coming-soon or unknown feature, not exactly one target, an unknown option value, an unreadable, blank or disallowed image), or the file is not confirmed (FILE_NOT_READY).",
			404: "The target, the legend block or an exemplar's sheet does not exist in this organization (NOT_FOUND).",
			409: "The drawing is still being processed (DRAWING_NOT_READY) or its processing failed (DRAWING_FAILED); or an Idempotency-Key conflict.",
			413: "The body is larger than the parse limit (`--max-parse-body-bytes`, 32 MiB by default).",
		}}
}

func imageResponse(desc, contentType string) node {
	return node{"description": desc,
		"content": node{contentType: node{"schema": node{"type": "string", "contentMediaType": contentType}}},
		"headers": node{"Cache-Control": node{"description": "Images may be cached privately for an hour.", "schema": node{"type": "string"}}}}
}

func binaryContent() node {
	c := node{}
	for _, t := range uploads.Types {
		c[t] = node{"schema": node{"type": "string", "contentMediaType": t}}
	}
	return c
}

// ---- the document ----

func buildOpenAPI() node {
	g := &reflector{schemas: node{}}
	for t := range componentTypes {
		g.component(t)
	}
	for _, l := range listResources {
		g.schemas[l.schema+"List"] = node{
			"type": "object", "required": []string{"data", "_meta"},
			"description": "A page of " + l.list + ".",
			"properties": node{
				"data":  node{"type": "array", "items": schemaRef(l.schema), "description": "The " + l.list + " of this page, newest first."},
				"_meta": schemaRef("PageMeta"),
			},
		}
	}
	g.schemas["FileUpload"] = node{
		"type": "object", "required": []string{"id", "upload_url", "method", "headers", "expires_at", "file"},
		"description": "A pending file and the signed URL its bytes go to.",
		"properties": node{
			"id":         str("File id (prefix `fil_`)."),
			"upload_url": node{"type": "string", "format": "uri", "description": "Signed URL to PUT the bytes to (PUT /uploads/{id}); no API key needed."},
			"method":     node{"type": "string", "enum": []string{http.MethodPut}, "description": "HTTP method to use on upload_url."},
			"headers": node{"type": "object", "required": []string{"Content-Type"}, "description": "Headers to send with the bytes.",
				"properties": node{"Content-Type": enumOf("The declared content type.", uploads.Types)}, "additionalProperties": node{"type": "string"}},
			"expires_at": node{"type": "string", "format": "date-time", "description": "When upload_url stops working."},
			"file":       schemaRef("File"),
		},
	}
	accepted := g.schemas["AcceptedJob"].(node)
	props := maps(accepted["properties"].(node))
	props["drawing"] = node{"allOf": []any{schemaRef("Drawing")}, "description": "The new drawing."}
	g.schemas["DrawingAccepted"] = node{
		"type": "object", "required": []string{"data"}, "description": "A drawing whose processing was queued.",
		"properties": node{"data": node{"type": "object", "properties": props,
			"required": append(slices.Clone(accepted["required"].([]string)), "drawing")}},
	}

	g.schemas["ParseAccepted"] = node{
		"type": "object", "required": []string{"data"}, "description": "A parse job that was queued.",
		"properties": node{"data": schemaRef("AcceptedJob")},
	}

	paths := node{}
	tags := map[string]bool{}
	for _, o := range operations() {
		item, _ := paths[o.path].(node)
		if item == nil {
			item = node{}
			paths[o.path] = item
		}
		item[strings.ToLower(o.method)] = o.build()
		tags[o.tag] = true
	}
	var tagList []any
	names := make([]string, 0, len(tags))
	for t := range tags {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, t := range names {
		tagList = append(tagList, node{"name": t})
	}

	return node{
		"openapi": "3.1.0",
		"info": node{
			"title":   "plangraph API",
			"version": "1.0.0",
			"description": "Construction-document management over REST (JSON). Every request needs an API key (`Authorization: Bearer sk_…` or `X-API-Key: sk_…`) " +
				"except the signed upload and download URLs and this document. Errors are RFC 9457 Problem Details (`application/problem+json`). " +
				"Lists return `{data, _meta: {next, prev, limit}}`, newest first, paged with opaque cursors. " +
				methodNotAllowedText() + " (components.responses.MethodNotAllowed). An unknown path is answered 404. " +
				"Every response carries X-Request-Id and X-API-Version; responses to authenticated requests carry the RateLimit-* headers of the key's budget.",
		},
		"servers": []any{node{"url": "https://{host}", "description": "The service's HTTPS address (plain HTTP is refused).",
			"variables": node{"host": node{"default": "localhost:8443", "description": "host[:port] of the service"}}}},
		"security": []any{node{"bearerAuth": []string{}}, node{"apiKeyAuth": []string{}}},
		"tags":     tagList,
		"paths":    paths,
		"components": node{
			"schemas":    g.schemas,
			"parameters": parameterDocs,
			"headers":    headerDocs,
			"responses":  errorResponses(),
			"securitySchemes": node{
				"bearerAuth": node{"type": "http", "scheme": "bearer", "bearerFormat": "sk_…",
					"description": "API key as a bearer token: `Authorization: Bearer sk_…`."},
				"apiKeyAuth": node{"type": "apiKey", "in": "header", "name": "X-API-Key",
					"description": "API key in the X-API-Key header."},
			},
		},
	}
}
