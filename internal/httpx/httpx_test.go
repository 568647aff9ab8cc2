package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/apierr"
)

type project struct {
	Name  *string  `json:"name"`
	Count int      `json:"count"`
	Tags  []string `json:"tags"`
}

func TestDecodeNamesTheField(t *testing.T) {
	tests := []struct {
		body, field string
	}{
		{`{"name": 5}`, "name"},
		{`{"count": "x"}`, "count"},
		{`{"tags": {}}`, "tags"},
		{`{"nope": 1}`, "nope"},
		{`{"name": "a"`, "body"},
		{`{"name": "a"} {}`, "body"},
		{`not json`, "body"},
		{``, "body"},
	}
	for _, tt := range tests {
		var p project
		err := Decode([]byte(tt.body), &p)
		e := apierr.From(err)
		if e == nil || e.Status() != 400 || e.MachineCode() != "VALIDATION_ERROR" {
			t.Errorf("Decode(%q) = %v, want a 400 validation error", tt.body, err)
			continue
		}
		if len(e.Fields[tt.field]) == 0 {
			t.Errorf("Decode(%q): errors %v do not name %q", tt.body, e.Fields, tt.field)
		}
	}
	var p project
	if err := Decode([]byte(`{"name":"x","count":2,"tags":["a"]}`), &p); err != nil || *p.Name != "x" || p.Count != 2 {
		t.Fatalf("valid body: %v %+v", err, p)
	}
}

func TestReadBodyLimitsAndContentType(t *testing.T) {
	req := func(ct, body string) *http.Request {
		r := httptest.NewRequest("POST", "/", strings.NewReader(body))
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		return r
	}
	if _, err := ReadBody(httptest.NewRecorder(), req("text/plain", "{}"), 100); apierr.From(err).Status() != 415 {
		t.Errorf("text/plain: %v, want 415", err)
	}
	if _, err := ReadBody(httptest.NewRecorder(), req("application/json", strings.Repeat("x", 101)), 100); apierr.From(err).Status() != 413 {
		t.Errorf("oversized: %v, want 413", err)
	}
	if b, err := ReadBody(httptest.NewRecorder(), req("application/json; charset=utf-8", "{}"), 100); err != nil || string(b) != "{}" {
		t.Errorf("json with charset: %q %v", b, err)
	}
	if b, err := ReadBody(httptest.NewRecorder(), req("application/merge-patch+json", "{}"), 100); err != nil || string(b) != "{}" {
		t.Errorf("+json: %q %v", b, err)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{}`, `{"name":"a"}`, `{"count":1e400}`, `[`, `{"tags":[1,2]}`, "\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var p project
		if err := Decode(b, &p); err != nil {
			if e := apierr.From(err); e.Status() != 400 {
				t.Fatalf("Decode error is not a 400: %v", err)
			}
		}
	})
}
