package rest

import (
	"fmt"
	"net/http"
)

// The words of the OpenAPI document shared by the operations: headers,
// common parameters, error responses.

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
