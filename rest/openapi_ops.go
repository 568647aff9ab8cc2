package rest

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	listing "github.com/plangraph/plangraph/internal/service/query"

	"github.com/plangraph/plangraph/ent/schema"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/ratelimit"
	"github.com/plangraph/plangraph/internal/service/parse"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/uploads"
)

// Operations of the OpenAPI document: the route table (routes) renders
// each operation; parameters, bodies and responses are built here.

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

	// serving: the route the document describes is the one registered
	pattern   string                      // mux pattern, when it is not "method path" (a wildcard rest)
	handler   func(*API) http.HandlerFunc // made when the route is registered
	group     routeGroup                  // the registration that serves it
	class     string                      // rate-limit class; ratelimit.Classify must agree (tested)
	largeBody bool                        // body bounded by MaxParseBodyBytes, not MaxBodyBytes
}

// route is the mux pattern of o.
func (o op) route() string {
	if o.pattern != "" {
		return o.pattern
	}
	return o.method + " " + o.path
}

// rateClass is o's rate-limit class (management unless said otherwise).
func (o op) rateClass() string {
	if o.class != "" {
		return o.class
	}
	return ratelimit.Management
}

// method makes a route's handler of a method expression.
func method(f func(*API, http.ResponseWriter, *http.Request)) func(*API) http.HandlerFunc {
	return func(a *API) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { f(a, w, r) }
	}
}

// deleter makes a DELETE route's handler of the service operation del picks.
func deleter(del func(*API) func(context.Context, string) error) func(*API) http.HandlerFunc {
	return func(a *API) http.HandlerFunc { return a.deleter(del(a)) }
}

func (o op) isPost() bool { return o.method == http.MethodPost }

func (o op) headers(status int) node { return headersFor(status, o.isPost(), !o.signed && !o.public) }

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

// collection is a REST collection (a resource over a query collection):
// its list and single GET handlers and the query service's spec of its
// filters.
type collection interface {
	spec() listing.Spec
	list(*API) http.HandlerFunc
	show(*API) http.HandlerFunc
}

// listResource describes a list and single GET of one collection. Its
// name, filter names and required filters are the query collection's;
// filters give each filter's words and schema, in document order.
type listResource struct {
	res                           collection
	singular, prefix, tag, schema string
	filters                       []filterDoc
}

// filterDoc documents one list filter.
type filterDoc struct {
	name, desc string
	schema     node
}

func filter(name, desc string, s node) filterDoc { return filterDoc{name, desc, s} }

func stringFilter(name, desc string) filterDoc { return filter(name, desc, node{"type": "string"}) }

func (l listResource) name() string { return l.res.spec().Name }

func (l listResource) hasExpand() bool { return len(listing.Expandable[l.name()]) > 0 }

// check is an error when the documented filters are not the collection's.
func (l listResource) check() error {
	spec := l.res.spec()
	var documented []string
	for _, f := range l.filters {
		documented = append(documented, f.name)
	}
	slices.Sort(documented)
	slices.Sort(spec.Filters)
	if !slices.Equal(documented, spec.Filters) {
		return fmt.Errorf("openapi: GET /v1/%s documents the filters %v, the query collection has %v", spec.Name, documented, spec.Filters)
	}
	return nil
}

func (l listResource) listOp() op {
	spec := l.res.spec()
	params := []node{ref("parameters", "Limit"), ref("parameters", "Cursor")}
	for _, f := range l.filters {
		params = append(params, query(f.name, f.desc, f.schema, slices.Contains(spec.Required, f.name)))
	}
	params = append(params, ref("parameters", "CreatedAfter"), ref("parameters", "CreatedBefore"))
	if l.hasExpand() {
		params = append(params, expandParam(spec.Name))
	}
	return op{method: "GET", path: "/v1/" + spec.Name, id: "list" + title(spec.Name), tag: l.tag,
		summary: "List " + spec.Name,
		desc:    "Newest first (created_at, then id, descending). Filters combine with AND; unknown query parameters are rejected (400).",
		params:  params, ok: map[int]node{200: okJSON("A page of "+spec.Name+".", schemaRef(l.schema+"List"))}, errs: listErrs,
		handler: l.res.list}
}

func (l listResource) getOp() op {
	params := []node{pathID(l.prefix, l.singular)}
	if l.hasExpand() {
		params = append(params, expandParam(l.name()))
	}
	return op{method: "GET", path: "/v1/" + l.name() + "/{id}", id: "get" + l.schema, tag: l.tag,
		summary: "Get a " + l.singular, params: params,
		ok: map[int]node{200: okJSON("The "+l.singular+".", schemaRef(l.schema))}, errs: getErrs,
		handler: l.res.show}
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

var listResources = []listResource{
	{res: projectsRes, singular: "project", prefix: "prj", tag: "Projects", schema: "Project"},
	{res: filesRes, singular: "file", prefix: "fil", tag: "Files", schema: "File", filters: []filterDoc{
		stringFilter("project_id", "Files of this project."),
		filter("content_type", "Files of this MIME type, for example `application/pdf`.", node{"type": "string", "examples": uploads.Types}),
	}},
	{res: drawingsRes, singular: "drawing", prefix: "drw", tag: "Drawings", schema: "Drawing", filters: []filterDoc{
		stringFilter("project_id", "Drawings of this project."),
		stringFilter("name", "Drawings whose name contains this text (case-insensitive)."),
	}},
	{res: sheetsRes, singular: "sheet", prefix: "sht", tag: "Sheets", schema: "Sheet", filters: []filterDoc{
		stringFilter("drawing_id", "Sheets of this drawing."),
		stringFilter("project_id", "Sheets across all drawings of this project."),
		filter("discipline", "Sheets of this discipline, for example `architectural`, `structural`.", node{"type": "string", "examples": sheetmeta.Disciplines()}),
		stringFilter("sheet_number", "Sheets with exactly this sheet number."),
	}},
	{res: blocksRes, singular: "block", prefix: "blk", tag: "Blocks", schema: "Block", filters: []filterDoc{
		stringFilter("sheet_id", "Blocks of this sheet."),
		filter("type", "Blocks of this type.", node{"type": "string", "enum": schema.BlockTypes}),
	}},
	{res: overlaysRes, singular: "overlay", prefix: "ovl", tag: "Overlays", schema: "Overlay", filters: []filterDoc{
		stringFilter("project_id", "Overlays of this project."),
		stringFilter("job_id", "Overlays created by this comparison job."),
		stringFilter("drawing_id", "Overlays involving a block of this drawing."),
		filter("has_changes", "true: only overlays where change detection has run; false: only those where it has not.", node{"type": "boolean"}),
	}},
	{res: jobsRes, singular: "job", prefix: "job", tag: "Jobs", schema: "Job", filters: []filterDoc{
		stringFilter("project_id", "Jobs of this project."),
		filter("status", "Jobs in this status.", node{"type": "string", "enum": jobstatus.All}),
		filter("type", "Jobs of this type, for example `compare`.", node{"type": "string"}),
		filter("target_type", "Jobs whose target is of this kind.", node{"type": "string", "enum": jobTargetTypes}),
		stringFilter("target_id", "Jobs whose target is this resource."),
		stringFilter("parent_id", "Child jobs of this job."),
	}},
}

// routeTable is the REST contract: every route the API serves, with its
// handler, rate-limit class and documentation. New, SheetImages and
// Uploads register it on the muxes; buildOpenAPI renders it.
func routeTable() []op {
	var ops []op
	for _, l := range listResources {
		ops = append(ops, l.listOp(), l.getOp())
	}
	ops = append(ops, jobStreamOp())
	ops = append(ops,
		op{method: "POST", path: "/v1/projects", id: "createProject", handler: jsonOp((*API).createProject), tag: "Projects", summary: "Create a project",
			body: body(object([]string{"name"}, node{"name": node{"type": "string", "minLength": 1, "maxLength": 200, "description": "Project name (surrounding spaces are trimmed)."}}), true, "The new project."),
			ok:   map[int]node{201: okJSON("The project.", schemaRef("Project"))}, errs: createErrs},
		renameOp("/v1/projects/{id}", "updateProject", "Projects", "project", "prj", "Project", 200, (*API).updateProject),
		deleteOp("/v1/projects/{id}", "deleteProject", "Projects", "project", "prj", func(a *API) func(context.Context, string) error { return a.s.Projects.Delete }),

		op{method: "POST", path: "/v1/files", id: "createFile", handler: jsonOp((*API).createFile), tag: "Files", summary: "Start a file upload",
			desc: "Creates a pending file and returns a signed URL. PUT the bytes there (with the returned headers), then POST /v1/files/{id}/confirm.",
			body: body(object([]string{"project_id", "filename", "content_type", "size"}, node{
				"project_id":   str("Project the file belongs to."),
				"filename":     node{"type": "string", "minLength": 1, "maxLength": 255, "description": "File name, without path separators."},
				"content_type": enumOf("MIME type of the bytes; checked on confirmation.", uploads.Types),
				"size":         node{"type": "integer", "format": "int64", "minimum": 1, "description": "Exact size in bytes (the server's maximum applies)."},
			}), true, "The file to upload."),
			ok: map[int]node{201: okJSON("The pending file and where to upload its bytes.", schemaRef("FileUpload"))}, errs: createErrs},
		op{method: "POST", path: "/v1/files/{id}/confirm", id: "confirmFile", handler: jsonOp((*API).confirmFile), tag: "Files", summary: "Confirm an upload",
			desc:   "Checks that all the declared bytes arrived and are of the declared type, then marks the file ready. Confirming a ready file again is harmless.",
			params: []node{pathID("fil", "file")},
			body:   body(object(nil, node{}), false, "No body, or an empty JSON object."),
			ok:     map[int]node{200: okJSON("The ready file, with its download URL.", schemaRef("File"))}, errs: []int{400, 401, 404, 409, 413, 415, 429, 500, 503},
			errText: map[int]string{400: "The upload is missing or incomplete (UPLOAD_MISSING, UPLOAD_INCOMPLETE), its bytes are not of the declared type (CONTENT_TYPE_MISMATCH), or the request is invalid (VALIDATION_ERROR, UNSUPPORTED_API_VERSION).",
				409: "Uploads of the file kept replacing its bytes while they were checked (UPLOAD_IN_PROGRESS): confirm once every upload has finished. The bytes confirmed are always those of one whole upload; an upload still running when the file is confirmed is refused (FILE_ALREADY_CONFIRMED) and changes nothing."}},
		withErrText(deleteOp("/v1/files/{id}", "deleteFile", "Files", "file", "fil", func(a *API) func(context.Context, string) error { return a.s.Files.Delete }),
			map[int]string{409: "A drawing uses the file (FILE_IN_USE); delete the drawing first."}),

		op{method: "POST", path: "/v1/drawings", id: "createDrawing", handler: jsonOp((*API).createDrawing), tag: "Drawings", summary: "Create a drawing from a confirmed file",
			desc: "Creates the drawing and queues its processing (pages → sheets → blocks). Poll the job at Location.",
			body: body(object([]string{"project_id", "file_id"}, node{
				"project_id": str("Project of the drawing (and of the file)."),
				"file_id":    str("Confirmed file to process."),
				"name":       node{"type": "string", "minLength": 1, "maxLength": 255, "description": "Drawing name; defaults to the file name."},
			}), true, "The drawing to create."),
			ok: map[int]node{202: okJSON("Processing was queued.", schemaRef("DrawingAccepted"))}, errs: createErrs,
			errText: map[int]string{400: "The request is invalid (VALIDATION_ERROR), or the file is not confirmed yet (FILE_NOT_READY)."}},
		renameOp("/v1/drawings/{id}", "updateDrawing", "Drawings", "drawing", "drw", "Drawing", 255, (*API).updateDrawing),
		deleteOp("/v1/drawings/{id}", "deleteDrawing", "Drawings", "drawing", "drw", func(a *API) func(context.Context, string) error { return a.s.Drawings.Delete }),

		op{method: "PATCH", path: "/v1/sheets/{id}", id: "updateSheet", handler: jsonOp((*API).updateSheet), tag: "Sheets", summary: "Correct a sheet's metadata",
			params: []node{pathID("sht", "sheet")},
			body: body(object(nil, node{
				"sheet_number": node{"type": "string", "maxLength": 32, "description": "Sheet number as printed."},
				"title":        node{"type": "string", "maxLength": 500, "description": "Sheet title."},
				"discipline":   node{"type": "string", "enum": append([]string{""}, sheetmeta.Disciplines()...), "description": "Discipline; empty clears it."},
			}), true, "Fields to change; absent fields keep their value."),
			ok: map[int]node{200: okJSON("The updated sheet.", schemaRef("Sheet"))}, errs: patchErrs},

		imageOp("/v1/sheets/{id}/image", "getSheetImage", "Sheets", "A sheet's rendered page", "", (*API).sheetImage,
			[]node{pathID("sht", "sheet"),
				query("variant", "`full` (the default): the page as rendered; `thumbnail`: a small preview.", node{"type": "string", "enum": []string{"full", "thumbnail"}, "default": "full"}, false)},
			imageResponse("The PNG image.", "image/png"), "No such sheet, or it has no such image yet (NOT_FOUND)."),
		imageOp("/v1/sheets/{id}/tiles.dzi", "getSheetTiles", "Sheets", "A sheet's Deep Zoom descriptor",
			"Deep Zoom Image (DZI) descriptor of the sheet's tile pyramid; the tiles are at tiles_files/{level}/{col}_{row}.png next to it.", (*API).sheetTiles,
			[]node{pathID("sht", "sheet")},
			imageResponse("The DZI XML descriptor.", "application/xml"), "No such sheet, or it has no tiles yet (NOT_FOUND)."),
		tileOp(),
		imageOp("/v1/blocks/{id}/image", "getBlockImage", "Blocks", "A block's image",
			"The block cut from its sheet's page image (block pixels: parse results' bounds are relative to it).", (*API).blockImage,
			[]node{pathID("blk", "block")},
			imageResponse("The PNG image.", "image/png"), "No such block, or it has no image yet (NOT_FOUND)."),

		op{method: "PUT", path: "/uploads/{id}", id: "uploadFileBytes", handler: func(a *API) http.HandlerFunc { return a.uploads.Put }, group: groupSigned, tag: "Files", summary: "Upload a file's bytes (signed URL)",
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
		op{method: "GET", path: "/downloads/{id}", id: "downloadFileBytes", handler: func(a *API) http.HandlerFunc { return a.uploads.Get }, group: groupSigned, tag: "Files", summary: "Download a file's bytes (signed URL)",
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
	)
	ops = append(ops, compareOps()...)
	ops = append(ops,

		op{method: "GET", path: "/v1/openapi.json", id: "getOpenAPI", handler: method((*API).OpenAPI), group: groupPublic, tag: "Meta", summary: "This OpenAPI document",
			desc: "Needs no API key.", public: true,
			ok:   map[int]node{200: okJSON("The OpenAPI 3.1 document.", node{"type": "object"})},
			errs: []int{400, 500}},
	)
	return append(append(ops, webhookOps()...), searchOps()...)
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
		"Any other URL is 400. The image is cropped to its drawn pixels; a blank or unreadable image is 400, and so is one over " +
		fmt.Sprint(parse.MaxImagePixels) + " pixels or one that takes the request's images past " + fmt.Sprint(parse.MaxRequestPixels) + " pixels together " +
		"(sizes are read from the image's header before it is decoded)."}
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
	return op{method: "POST", path: "/v1/parse", id: "parse", handler: jsonOp((*API).parse), class: ratelimit.Vision, largeBody: true, tag: "Parse", summary: "Detect legend symbols",
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

// imageOp is a GET of the images the blob store holds (SheetImages).
func imageOp(path, id, tag, summary, desc string, h func(*API, http.ResponseWriter, *http.Request), params []node, ok node, notFound string) op {
	return op{method: "GET", path: path, id: id, handler: method(h), group: groupImages, tag: tag, summary: summary, desc: desc,
		params: params, ok: map[int]node{200: ok}, errs: getErrs, errText: map[int]string{404: notFound}}
}

// tileOp is one tile of a sheet's Deep Zoom pyramid: the document names
// the level and the tile, the mux matches the rest of the path.
func tileOp() op {
	o := imageOp("/v1/sheets/{id}/tiles_files/{level}/{tile}", "getSheetTile", "Sheets", "One Deep Zoom tile of a sheet", "", (*API).sheetTile,
		[]node{pathID("sht", "sheet"),
			{"name": "level", "in": "path", "required": true, "description": "Pyramid level.", "schema": node{"type": "integer", "minimum": 0, "maximum": 99}},
			{"name": "tile", "in": "path", "required": true, "description": "`{col}_{row}.png`.", "schema": node{"type": "string", "pattern": `^\d{1,5}_\d{1,5}\.png$`}},
		},
		imageResponse("The PNG tile.", "image/png"), "No such sheet or tile (NOT_FOUND).")
	o.pattern = "GET /v1/sheets/{id}/tiles_files/{tile...}"
	return o
}

// renameOp is a PATCH whose body may change the name (and nothing else).
func renameOp(path, id, tag, what, prefix, schemaName string, maxLen int, h func(*API, http.ResponseWriter, *http.Request, nameBody) (int, any, error)) op {
	return op{method: "PATCH", path: path, id: id, handler: jsonOp(h), tag: tag, summary: "Rename a " + what,
		params: []node{pathID(prefix, what)},
		body:   body(object(nil, node{"name": node{"type": "string", "minLength": 1, "maxLength": maxLen, "description": "New name."}}), true, "Fields to change; absent fields keep their value."),
		ok:     map[int]node{200: okJSON("The updated "+what+".", schemaRef(schemaName))}, errs: patchErrs}
}

// withErrText gives o its own descriptions of error statuses.
func withErrText(o op, text map[int]string) op {
	o.errText = text
	return o
}

// deleteOp is the DELETE of one resource with the service operation del.
func deleteOp(path, id, tag, what, prefix string, del func(*API) func(context.Context, string) error) op {
	return op{method: "DELETE", path: path, id: id, handler: deleter(del), tag: tag, summary: "Delete a " + what,
		params: []node{pathID(prefix, what)}, ok: map[int]node{204: {"description": "Deleted."}}, errs: deleteErrs}
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
