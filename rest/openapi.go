package rest

// The OpenAPI 3.1 description of the REST API, generated from the code
// rather than kept as a hand-written blob. Its paths are the route table
// (routeTable, openapi_ops.go), the same table the muxes are given, so
// every route served is documented; list filters are the query
// collections' (internal/service/query); resource schemas are reflected
// from the representation structs (openapi_schema.go: a field without
// omitempty is required, a pointer without omitempty is nullable), enums
// come from the Ent schema and the packages that check them, and expand
// values from query.Expandable. Handwritten are the words
// (openapi_docs.go, fieldDocs) and request bodies; the tests validate the
// document and real responses against it.

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/uploads"
)

// OpenAPIPattern is the route of the document. It must be reachable
// without an API key, so the server registers it next to the signed
// upload routes rather than behind authentication.
const OpenAPIPattern = "GET /v1/openapi.json"

// openAPIVersion is the default X-API-Version (internal/server.APIVersions[0];
// that package imports this one, so the value is repeated here).
const openAPIVersion = "2026-01-01"

// openAPIBuilt is the document, built once.
var openAPIBuilt struct {
	once sync.Once
	b    []byte
	err  error
}

// openAPIJSON builds the document once. Building fails when a
// representation field has no description (or a description names no
// field), or a list documents other filters than its collection has: a
// failing test before then.
func openAPIJSON() ([]byte, error) {
	d := &openAPIBuilt
	d.once.Do(func() {
		doc, err := buildOpenAPI()
		if err == nil {
			d.b, err = json.Marshal(doc)
		}
		d.err = err
	})
	return d.b, d.err
}

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

// buildOpenAPI renders the document, or says why it cannot.
func buildOpenAPI() (node, error) {
	g := &reflector{schemas: node{}}
	for t := range componentTypes {
		g.component(t)
	}
	errs := append(slices.Clone(enumErrs), g.errs...)
	for _, l := range listResources {
		if err := l.check(); err != nil {
			errs = append(errs, err)
		}
		g.schemas[l.schema+"List"] = node{
			"type": "object", "required": []string{"data", "_meta"},
			"description": "A page of " + l.name() + ".",
			"properties": node{
				"data":  node{"type": "array", "items": schemaRef(l.schema), "description": "The " + l.name() + " of this page, newest first."},
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

	g.schemas["JobAccepted"] = node{
		"type": "object", "required": []string{"data"}, "description": "A job that was queued (compare, changes.analyze).",
		"properties": node{"data": schemaRef("AcceptedJob")},
	}
	g.schemas["ParseAccepted"] = node{
		"type": "object", "required": []string{"data"}, "description": "A parse job that was queued.",
		"properties": node{"data": schemaRef("AcceptedJob")},
	}

	paths := node{}
	tags := map[string]bool{}
	for _, o := range routeTable() {
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

	if len(errs) > 0 {
		return nil, errors.Join(errs...)
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
	}, nil
}
