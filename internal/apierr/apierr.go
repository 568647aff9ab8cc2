// Package apierr is the service's one error type. Errors are made where the
// problem is known, with a kind that fixes the HTTP status, and written as
// RFC 9457 Problem Details by Write. Internal errors never show their cause
// to clients.
package apierr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// Kind is a class of error; each maps to one HTTP status and problem type.
type Kind int

const (
	Internal Kind = iota
	Validation
	Unauthorized
	Forbidden
	NotFound
	MethodNotAllowed
	Conflict
	TooLarge
	UnsupportedMedia
	RateLimited
	Unavailable
)

type kindInfo struct {
	status int
	slug   string // last path segment of the problem type URI
	title  string
	code   string // default machine code
}

var kinds = map[Kind]kindInfo{
	Internal:         {http.StatusInternalServerError, "internal", "Internal server error", "INTERNAL_ERROR"},
	Validation:       {http.StatusBadRequest, "bad-request", "Bad request", "VALIDATION_ERROR"},
	Unauthorized:     {http.StatusUnauthorized, "authentication", "Unauthorized", "UNAUTHORIZED"},
	Forbidden:        {http.StatusForbidden, "forbidden", "Forbidden", "FORBIDDEN"},
	NotFound:         {http.StatusNotFound, "not-found", "Not found", "NOT_FOUND"},
	MethodNotAllowed: {http.StatusMethodNotAllowed, "method-not-allowed", "Method not allowed", "METHOD_NOT_ALLOWED"},
	Conflict:         {http.StatusConflict, "conflict", "Conflict", "CONFLICT"},
	TooLarge:         {http.StatusRequestEntityTooLarge, "payload-too-large", "Payload too large", "PAYLOAD_TOO_LARGE"},
	UnsupportedMedia: {http.StatusUnsupportedMediaType, "unsupported-media-type", "Unsupported media type", "UNSUPPORTED_MEDIA_TYPE"},
	RateLimited:      {http.StatusTooManyRequests, "rate-limit", "Too many requests", "RATE_LIMITED"},
	Unavailable:      {http.StatusServiceUnavailable, "unavailable", "Service unavailable", "UNAVAILABLE"},
}

// Error is an error a client can be told about.
type Error struct {
	Kind   Kind
	Code   string              // machine code; defaults from Kind
	Detail string              // human explanation, safe to show
	Fields map[string][]string // field → messages, for validation errors
	Header http.Header         // extra response headers (Retry-After…)
	Err    error               // cause, logged, never shown
}

func (e *Error) Error() string {
	msg := e.Detail
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Status is the HTTP status of the error.
func (e *Error) Status() int { return kinds[e.Kind].status }

// MachineCode is Code or the kind's default.
func (e *Error) MachineCode() string {
	if e.Code != "" {
		return e.Code
	}
	return kinds[e.Kind].code
}

// New makes an error of kind with a message.
func New(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// WithCode sets the machine code.
func (e *Error) WithCode(code string) *Error { e.Code = code; return e }

// Field adds a message about one request field.
func (e *Error) Field(name, msg string) *Error {
	if e.Fields == nil {
		e.Fields = map[string][]string{}
	}
	e.Fields[name] = append(e.Fields[name], msg)
	return e
}

// Invalid is a validation error about one field.
func Invalid(field, msg string) *Error {
	return New(Validation, "%s: %s", field, msg).Field(field, msg)
}

// Fields collects validation messages and turns them into one error.
type Fields map[string][]string

// Add records a message for field.
func (f Fields) Add(field, msg string) { f[field] = append(f[field], msg) }

// Err is nil when nothing was added, else a validation error naming each field.
func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	names := make([]string, 0, len(f))
	for k := range f {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + strings.Join(f[n], "; ")
	}
	return &Error{Kind: Validation, Detail: strings.Join(parts, ". "), Fields: f}
}

// NotFoundf is the error for a missing (or another organization's) record.
func NotFoundf(format string, args ...any) *Error { return New(NotFound, format, args...) }

// Internalf wraps a cause that clients must not see.
func Internalf(err error, format string, args ...any) *Error {
	return &Error{Kind: Internal, Detail: fmt.Sprintf(format, args...), Err: err}
}

var classifiers []func(error) *Error

// Classify teaches From about another package's errors (the data layer
// registers its not-found, validation and constraint errors). Call it from
// init functions only.
func Classify(c func(error) *Error) { classifiers = append(classifiers, c) }

// From turns any error into an *Error: ent's not-found, validation and
// constraint errors get their own kinds; anything unknown is internal.
func From(err error) *Error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	}
	for _, c := range classifiers {
		if e := c(err); e != nil {
			return e
		}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Kind: Unavailable, Detail: "the request took too long", Err: err, Code: "TIMEOUT"}
	case errors.Is(err, context.Canceled):
		return &Error{Kind: Unavailable, Detail: "the request was canceled", Err: err, Code: "CANCELED"}
	}
	return &Error{Kind: Internal, Detail: "an unexpected error occurred", Err: err}
}

// Problem is the RFC 9457 body.
type Problem struct {
	Type      string              `json:"type"`
	Title     string              `json:"title"`
	Status    int                 `json:"status"`
	Detail    string              `json:"detail"`
	Code      string              `json:"code,omitempty"`
	RequestID string              `json:"request_id,omitempty"`
	Instance  string              `json:"instance,omitempty"`
	Errors    map[string][]string `json:"errors,omitempty"`
}

// TypesURL is the base of problem type URIs ({errors_url}/<kind>).
var TypesURL = "https://plangraph.dev/errors"

// ProblemOf builds the body for err.
func ProblemOf(err error, requestID, instance string) (*Error, Problem) {
	e := From(err)
	k := kinds[e.Kind]
	detail := e.Detail
	if e.Kind == Internal {
		detail = "an unexpected error occurred; quote request_id " + requestID + " when reporting it"
	}
	return e, Problem{
		Type:      TypesURL + "/" + k.slug,
		Title:     k.title,
		Status:    k.status,
		Detail:    detail,
		Code:      e.MachineCode(),
		RequestID: requestID,
		Instance:  instance,
		Errors:    e.Fields,
	}
}

// Write sends err as application/problem+json.
func Write(w http.ResponseWriter, err error, requestID, instance string) *Error {
	e, p := ProblemOf(err, requestID, instance)
	for k, vs := range e.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
	return e
}

// Kinds lists every problem type slug with its title and status, for the
// errors documentation page.
func Kinds() []Problem {
	out := make([]Problem, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, Problem{Type: TypesURL + "/" + k.slug, Title: k.title, Status: k.status, Code: k.code})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Status < out[j].Status })
	return out
}
