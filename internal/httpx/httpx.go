// Package httpx holds the HTTP plumbing shared by the REST API, GraphQL and
// the operational endpoints: request ids, JSON and problem responses,
// strict JSON decoding.
package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/ids"
)

type ctxKey int

const requestIDKey ctxKey = iota

// WithRequestID stores the request id in ctx.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestID returns the request id of ctx ("" outside a request).
func RequestID(ctx context.Context) string {
	s, _ := ctx.Value(requestIDKey).(string)
	return s
}

// NewRequestID makes a req_ id.
func NewRequestID() string { return ids.New(ids.Request) }

// JSON writes v with status.
func JSON(w http.ResponseWriter, status int, v any) {
	b, err := EncodeJSON(v)
	if err != nil {
		http.Error(w, `{"title":"encoding error"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// EncodeJSON is v as JSON writes it: HTML characters unescaped, a newline
// at the end.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Problem writes err as Problem Details for request r.
func Problem(w http.ResponseWriter, r *http.Request, err error) *apierr.Error {
	return apierr.Write(w, err, RequestID(r.Context()), r.URL.Path)
}

// ReadBody reads a JSON request body of at most max bytes, checking the
// content type: 415 for anything but JSON, 413 when too large.
func ReadBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return nil, apierr.New(apierr.UnsupportedMedia, "Content-Type must be application/json, not %q", ct)
		}
	} else if r.ContentLength != 0 {
		return nil, apierr.New(apierr.UnsupportedMedia, "Content-Type must be application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, apierr.New(apierr.TooLarge, "the request body is larger than %d bytes", max)
		}
		return nil, apierr.New(apierr.Validation, "the request body could not be read").WithCode("VALIDATION_ERROR")
	}
	return body, nil
}

// Decode parses body into v strictly: unknown fields, wrong types, trailing
// data and malformed JSON are validation errors naming the field.
func Decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return apierr.New(apierr.Validation, "a JSON request body is required").Field("body", "is required")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return apierr.New(apierr.Validation, "the request body must hold a single JSON object").Field("body", "has data after the JSON object")
	}
	return nil
}

func decodeError(err error) error {
	var (
		syn *json.SyntaxError
		ute *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syn):
		return apierr.New(apierr.Validation, "malformed JSON at byte %d: %v", syn.Offset, syn).Field("body", "is not valid JSON")
	case errors.As(err, &ute):
		field := ute.Field
		if field == "" {
			field = "body"
		}
		return apierr.Invalid(field, fmt.Sprintf("must be %s, not %s", jsonKind(ute.Type.Kind().String()), ute.Value))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return apierr.New(apierr.Validation, "the JSON body ends early").Field("body", "is truncated")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return apierr.Invalid(name, "is not a known field")
	}
	return apierr.New(apierr.Validation, "the JSON body could not be parsed: %v", err).Field("body", err.Error())
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	}
	return goKind
}

// Info is what inner handlers learn about a request that the outer
// middleware logs: the organization and the matched route.
type Info struct {
	Org   string
	Route string
	// Client is the client's address (host of the connection's remote end).
	Client string
}

const infoKey ctxKey = 1

// WithInfo attaches a fresh Info to ctx.
func WithInfo(ctx context.Context) (context.Context, *Info) {
	i := &Info{}
	return context.WithValue(ctx, infoKey, i), i
}

// InfoOf returns ctx's Info; a throwaway one outside the middleware.
func InfoOf(ctx context.Context) *Info {
	if i, ok := ctx.Value(infoKey).(*Info); ok {
		return i
	}
	return &Info{}
}
