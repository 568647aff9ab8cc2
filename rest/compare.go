package rest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/ratelimit"
	"github.com/plangraph/plangraph/internal/service/compare"
	"github.com/plangraph/plangraph/internal/tenant"
	comparejob "github.com/plangraph/plangraph/jobs/compare"
)

// The compare operations: POST /v1/compare, /v1/drawings/{id}/compare,
// /v1/sheets/{id}/compare and /v1/overlays/{id}/analyze decode into the
// compare service's requests and answer 202 with the queued job; the
// overlays' images are served like block images.

func (a *API) compare(w http.ResponseWriter, r *http.Request, in compare.Input) (int, any, error) {
	return accepted(w)(a.s.Compare.Start(r.Context(), in))
}

func (a *API) compareDrawing(w http.ResponseWriter, r *http.Request, in compare.PathInput) (int, any, error) {
	return accepted(w)(a.s.Compare.StartFrom(r.Context(), comparejob.TypeDrawing, r.PathValue("id"), in))
}

func (a *API) compareSheet(w http.ResponseWriter, r *http.Request, in compare.PathInput) (int, any, error) {
	return accepted(w)(a.s.Compare.StartFrom(r.Context(), comparejob.TypeSheet, r.PathValue("id"), in))
}

// analyzeOverlay is POST /v1/overlays/{id}/analyze: its body (options) is
// optional.
func (a *API) analyzeOverlay(w http.ResponseWriter, r *http.Request) {
	var in compare.AnalyzeInput
	if err := a.readJSON(w, r, &in, true); err != nil {
		a.fail(w, r, err)
		return
	}
	status, out, err := accepted(w)(a.s.Compare.Analyze(r.Context(), r.PathValue("id"), in))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, status, out)
}

// accepted answers a request that queued job j: 202 {data: job}, with the
// job at Location (as POST /v1/parse does).
func accepted(w http.ResponseWriter) func(j *ent.Job, err error) (int, any, error) {
	return func(j *ent.Job, err error) (int, any, error) {
		if err != nil {
			return 0, nil, err
		}
		w.Header().Set("Location", "/v1/jobs/"+j.ID)
		return http.StatusAccepted, map[string]any{"data": acceptedOut(j)}, nil
	}
}

// overlayImage serves one of an overlay's images.
func overlayImage(img blobs.OverlayImage) func(*API, http.ResponseWriter, *http.Request) {
	return func(a *API, w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		o, err := a.s.Query.Overlay(r.Context(), id)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		org, _ := tenant.Org(r.Context())
		a.serveBlob(w, r, a.bucket, blobs.OverlayKey(org, o.ID)+img.Suffix, "image/png", "overlay "+id+" has no "+img.Name+" image")
	}
}

// overlayTiles serves the Deep Zoom descriptor of one of an overlay's
// images (its pyramid is made the first time it is asked for).
func overlayTiles(img blobs.OverlayImage) func(*API, http.ResponseWriter, *http.Request) {
	return func(a *API, w http.ResponseWriter, r *http.Request) {
		key, err := a.s.Compare.OverlayTiles(r.Context(), r.PathValue("id"), img)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		a.serveBlob(w, r, a.bucket, key+".dzi", "application/xml", "overlay "+r.PathValue("id")+" has no "+img.Name+" tiles")
	}
}

// overlayTile serves one tile of an overlay image's pyramid.
func overlayTile(img blobs.OverlayImage) func(*API, http.ResponseWriter, *http.Request) {
	return func(a *API, w http.ResponseWriter, r *http.Request) {
		t, ok := a.tileName(w, r)
		if !ok {
			return
		}
		key, err := a.s.Compare.OverlayTiles(r.Context(), r.PathValue("id"), img)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		a.serveTile(w, r, key, t, func() {
			a.fail(w, r, apierr.NotFoundf("overlay %s's %s image has no tile %q", r.PathValue("id"), img.Name, t))
		})
	}
}

// compareOps are the compare routes of the table.
func compareOps() []op {
	opts := object(nil, node{
		"tolerance_px": node{"type": "number", "minimum": compare.MinTolerancePx, "maximum": compare.MaxTolerancePx, "default": compare.DefaultTolerancePx,
			"description": "How far a mark may move, after alignment, and still be the same mark: pixels at 300 DPI (a line moved by less is not a change)."},
		"ignore_text":    node{"type": "boolean", "default": false, "description": "Leave changes of words (text, dimension strings) out."},
		"ignore_hatches": node{"type": "boolean", "default": false, "description": "Leave changes of hatching and screened (faint) fills out."},
		"cloud_margin_px": node{"type": "number", "minimum": compare.MinCloudMarginPx, "maximum": compare.MaxCloudMarginPx, "default": compare.DefaultCloudMarginPx,
			"description": "Margin a revision cloud of /markup.pdf keeps around the changes it groups: pixels at 300 DPI."},
	})
	opts["description"] = "The tolerances that decide what counts as a change; absent ones take their defaults."
	analyze := node{"type": "array", "items": node{"type": "string", "enum": compare.Analyses}, "default": compare.DefaultAnalyze,
		"description": "What runs after the overlays: `[\"changes\"]` (the default) analyzes each overlay's changes (`changes.analyze`) before the summary; `[]` makes overlays only."}
	what := "Starts a compare job (its target is the newer revision, B; the older is A): the two revisions' sheets are paired by normalised sheet number " +
		"(`A-101` = `A101` = `A 101`), then title, then the likeness of their pages (renumbered sheets); unmatched sheets are reported added or removed. " +
		"Within each sheet pair blocks are paired by type, place on the sheet, title and words (unmatched blocks are reported). Each block pair gets an " +
		"`overlay.generate` child (A registered onto B with a similarity transform, then compared; the overlay and its images are stored, GET /v1/overlays?job_id=…), " +
		"then a `changes.analyze` child per overlay unless `analyze` is `[]`, then one `changes.summarize`, whose report (components.schemas.CompareReport) " +
		"is the compare job's `results` once Completed, also as GET /v1/jobs/{id}/report.md, /report.pdf and /markup.pdf. Events: `compare.started`, " +
		"`compare.child.completed` (each overlay with its score, each analysis with its change counts), `compare.completed` or `compare.failed`. " +
		"A pair that does not register still completes, its overlay's `warnings` saying so."
	errs := []int{400, 401, 404, 409, 413, 415, 429, 500, 503}
	errText := func(field string) map[int]string {
		return map[int]string{
			400: fmt.Sprintf("The request is invalid (VALIDATION_ERROR, with `errors` by field): %s missing, of another type or the same as the newer revision, "+
				"the revisions in two projects, an unknown `analyze` value or an option out of range.", field),
			404: "A revision does not exist in this organization (NOT_FOUND).",
			409: "A revision's drawing is still being processed (DRAWING_NOT_READY) or its processing failed (DRAWING_FAILED); or an Idempotency-Key conflict.",
		}
	}
	ok := map[int]node{202: okJSON("The compare job was queued; poll it at Location.", schemaRef("JobAccepted"))}
	pathOp := func(path, id, tag, what2, prefix string, h func(*API, http.ResponseWriter, *http.Request, compare.PathInput) (int, any, error)) op {
		return op{method: "POST", path: path, id: id, handler: jsonOp(h), class: ratelimit.Vision, tag: tag,
			summary: "Compare a " + what2 + " with an older revision", desc: what, params: []node{pathID(prefix, what2+" (the newer revision)")},
			body: body(object([]string{"compare_to"}, node{
				"compare_to": str("The older " + what2 + " (A), of the same project."),
				"analyze":    analyze, "options": opts,
			}), true, "The older revision and what to do."),
			ok: ok, errs: errs, errText: errText("`compare_to`")}
	}
	ops := []op{
		pathOp("/v1/drawings/{id}/compare", "compareDrawing", "Drawings", "drawing", "drw", (*API).compareDrawing),
		pathOp("/v1/sheets/{id}/compare", "compareSheet", "Sheets", "sheet", "sht", (*API).compareSheet),
		{method: "POST", path: "/v1/compare", id: "compare", handler: jsonOp((*API).compare), class: ratelimit.Vision, tag: "Overlays",
			summary: "Compare two revisions of a block, sheet or drawing", desc: what,
			body: body(object([]string{"old_id", "new_id", "type"}, node{
				"type":    enumOf("What `old_id` and `new_id` are.", compare.Types),
				"old_id":  str("The older revision (A)."),
				"new_id":  str("The newer revision (B), of the same project; the job's target."),
				"analyze": analyze, "options": opts,
			}), true, "The two revisions and what to do."),
			ok: ok, errs: errs, errText: errText("`old_id` or `new_id`")},
		{method: "POST", path: "/v1/overlays/{id}/analyze", id: "analyzeOverlay", handler: method((*API).analyzeOverlay), class: ratelimit.Vision, tag: "Overlays",
			summary: "Analyze an overlay's changes",
			desc: "Starts a `changes.analyze` job on a stored overlay (its target): the differences of the overlay are grouped, classified (symbol, text, dimension, " +
				"linework, revision_mark, title_block) and described from the drawings' own words and parse features; they replace the overlay's `changes` " +
				"and set `has_changes`. Its `results` once Completed are an AnalyzeResult. Events: `changes.analyze.started`, `changes.analyze.completed` or `.failed`.",
			params: []node{pathID("ovl", "overlay")},
			body:   body(object(nil, node{"options": opts}), false, "No body, or the options."),
			ok:     map[int]node{202: okJSON("The analysis job was queued; poll it at Location.", schemaRef("JobAccepted"))},
			errs:   errs, errText: map[int]string{400: "An option is out of range (VALIDATION_ERROR).", 404: "No such overlay in this organization (NOT_FOUND)."}},
	}
	descs := map[string]string{
		"image":     "The combined overlay in B's frame and size: unchanged ink grey (#a0a0a0), ink of A that B lacks (removed) red (#dc1e1e), ink of B that A lacks (added) green (#14a028), on white.",
		"addition":  "B's added ink alone, dark on white, in B's frame.",
		"deletion":  "A's removed ink alone, dark on white, moved into B's frame.",
		"aligned_a": "Block A moved into B's frame (B's size): lay it over aligned_b to compare by eye.",
		"aligned_b": "Block B, the frame of the other images.",
	}
	for _, img := range blobs.OverlayImages {
		ops = append(ops, imageOp("/v1/overlays/{id}/"+img.Name, "getOverlay"+title(camel(img.Name)), "Overlays", "An overlay's "+strings.ReplaceAll(img.Name, "_", " ")+" image",
			descs[img.Name], overlayImage(img), []node{pathID("ovl", "overlay")}, imageResponse("The PNG image.", "image/png"),
			"No such overlay, or it has no such image (NOT_FOUND)."))
		what := strings.ReplaceAll(img.Name, "_", " ")
		ops = append(ops, imageOp("/v1/overlays/{id}/"+img.Name+"/tiles.dzi", "getOverlay"+title(camel(img.Name))+"Tiles", "Overlays",
			"An overlay's "+what+" image as Deep Zoom",
			"Deep Zoom Image (DZI) descriptor of the image's tile pyramid (256 px PNG tiles, 1 px overlap), its tiles at tiles_files/{level}/{col}_{row}.png next to it: "+
				"a viewer reads the tiles it shows, never the whole block-sized picture. The pyramid is made from the image the first time it is asked for "+
				"(a large block's takes a few seconds), then kept.", overlayTiles(img), []node{pathID("ovl", "overlay")},
			imageResponse("The DZI XML descriptor.", "application/xml"), "No such overlay, or it has no such image (NOT_FOUND)."))
		t := imageOp("/v1/overlays/{id}/"+img.Name+"/tiles_files/{level}/{tile}", "getOverlay"+title(camel(img.Name))+"Tile", "Overlays",
			"One Deep Zoom tile of an overlay's "+what+" image", "", overlayTile(img),
			[]node{pathID("ovl", "overlay"),
				{"name": "level", "in": "path", "required": true, "description": "Pyramid level.", "schema": node{"type": "integer", "minimum": 0, "maximum": 99}},
				{"name": "tile", "in": "path", "required": true, "description": "`{col}_{row}.png`.", "schema": node{"type": "string", "pattern": `^\d{1,5}_\d{1,5}\.png$`}},
			},
			imageResponse("The PNG tile.", "image/png"), "No such overlay or tile (NOT_FOUND).")
		t.pattern = "GET /v1/overlays/{id}/" + img.Name + "/tiles_files/{tile...}"
		ops = append(ops, t)
	}
	report := func(file, id, summary, ct, desc string, render func(*API) func(context.Context, string) ([]byte, error), conflict string) op {
		return op{method: "GET", path: "/v1/jobs/{id}/" + file, id: id, handler: document(file, ct, render), tag: "Jobs", summary: summary,
			desc: desc + " Only for a compare job that has completed.", params: []node{pathID("job", "compare job")},
			ok: map[int]node{200: {"description": "The document.", "content": node{ct: node{"schema": node{"type": "string", "contentMediaType": ct}}},
				"headers": node{"Content-Disposition": node{"description": "`inline` with a file name.", "schema": node{"type": "string"}}}}},
			errs: getErrs, errText: map[int]string{404: "No such job in this organization, or it is not a compare job (NOT_FOUND).", 409: conflict}}
	}
	notDone := "The compare job is still running (JOB_NOT_COMPLETED) or did not complete (JOB_FAILED)."
	ops = append(ops,
		report("report.md", "getCompareReportMarkdown", "A comparison's report as Markdown", "text/markdown; charset=utf-8",
			"The compare job's report (its `results`, components.schemas.CompareReport) as Markdown: what was compared, the counts by category, severity and kind, "+
				"sheets added, removed and renumbered, and per sheet pair its blocks added and removed and each overlay with its score, band and changes.",
			func(a *API) func(context.Context, string) ([]byte, error) { return a.s.Compare.Markdown }, notDone),
		report("report.pdf", "getCompareReportPDF", "A comparison's report as a PDF", "application/pdf",
			"The same report as a PDF (US Letter), with each changed overlay's combined image and its change list.",
			func(a *API) func(context.Context, string) ([]byte, error) { return a.s.Compare.PDF }, notDone),
		report("markup.pdf", "getCompareMarkup", "The newer drawing marked up with revision clouds", "application/pdf",
			"The newer drawing's own PDF with a revision cloud (a PDF polygon annotation with the cloudy border effect, intent PolygonCloud, as Bluebeam draws its Cloud markup) "+
				"around each group of nearby changes, the changes' descriptions as its note; clouds keep the compare request's `cloud_margin_px` around their changes. "+
				"Only for Drawing and Sheet compares of drawings made from PDF files.",
			func(a *API) func(context.Context, string) ([]byte, error) { return a.s.Compare.Markup },
			notDone+" Or there is nothing to mark up (MARKUP_UNAVAILABLE): a Block compare, or a newer drawing made from an image file rather than a PDF."),
	)
	return ops
}

// document makes the handler of a GET serving a document that render
// makes of the job in the path (named file in Content-Disposition).
func document(file, ct string, render func(*API) func(context.Context, string) ([]byte, error)) func(*API) http.HandlerFunc {
	return func(a *API) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			id := r.PathValue("id")
			b, err := render(a)(r.Context(), id)
			if err != nil {
				a.fail(w, r, err)
				return
			}
			w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", strings.TrimPrefix(id, "job_")+"-"+file))
			writeImage(w, bytes.NewReader(b), int64(len(b)), ct)
		}
	}
}

// camel is a snake_case name in camel case (aligned_a → alignedA).
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = title(parts[i])
	}
	return strings.Join(parts, "")
}
