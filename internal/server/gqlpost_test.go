package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/plangraph/plangraph/graph"
)

// TestGraphQLPostAsGqlgen sends the same requests to the schema served by
// gqlgen's POST transport and by graphQLPost: statuses, content types and
// bodies (as JSON) are the same, data and errors alike.
func TestGraphQLPostAsGqlgen(t *testing.T) {
	serve := func(tr interface {
		Supports(*http.Request) bool
	}) http.Handler {
		srv := handler.New(graph.NewSchema(&graph.Resolver{}))
		srv.Use(extension.Introspection{})
		switch v := tr.(type) {
		case transport.POST:
			srv.AddTransport(v)
		case graphQLPost:
			srv.AddTransport(v)
		}
		return srv
	}
	theirs, ours := serve(transport.POST{}), serve(graphQLPost{})
	introspect := `{"query":"{ __type(name: \"Answer\") { name description fields { name description type { name kind } } } }"}`
	cases := []struct{ name, body, accept string }{
		{"data", introspect, ""},
		{"data, graphql-response+json", introspect, "application/graphql-response+json"},
		{"data, any", introspect, "*/*"},
		{"data, html then json", introspect, "text/html, application/json;q=0.9"},
		{"data, unknown accept", introspect, "text/plain"},
		{"syntax error", `{"query":"{ __type(name: "}`, ""},
		{"syntax error, graphql-response+json", `{"query":"{ __type(name: "}`, "application/graphql-response+json"},
		{"validation error", `{"query":"{ nope }"}`, ""},
		{"variable of the wrong type", `{"query":"query($n: String!) { __type(name: $n) { name } }","variables":{"n":5}}`, ""},
		{"no such operation", `{"query":"query A { __typename }","operationName":"B"}`, ""},
		{"not JSON", `{"query":`, ""},
		{"extensions and typename", `{"query":"query A { __typename }","operationName":"A","extensions":{"x":1}}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			do := func(h http.Handler) *httptest.ResponseRecorder {
				r := httptest.NewRequest("POST", "/graphql", strings.NewReader(c.body))
				r.Header.Set("Content-Type", "application/json")
				if c.accept != "" {
					r.Header.Set("Accept", c.accept)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				return w
			}
			a, b := do(theirs), do(ours)
			if a.Code != b.Code || a.Header().Get("Content-Type") != b.Header().Get("Content-Type") {
				t.Fatalf("gqlgen %d %q, ours %d %q", a.Code, a.Header().Get("Content-Type"), b.Code, b.Header().Get("Content-Type"))
			}
			var ja, jb any
			if err := json.Unmarshal(a.Body.Bytes(), &ja); err != nil {
				t.Fatalf("gqlgen's body: %v", err)
			}
			if err := json.Unmarshal(b.Body.Bytes(), &jb); err != nil {
				t.Fatalf("our body %s: %v", b.Body.String(), err)
			}
			if !reflect.DeepEqual(ja, jb) {
				t.Fatalf("bodies differ:\ngqlgen %s\nours   %s", a.Body.String(), b.Body.String())
			}
			if strings.HasPrefix(c.name, "data") && !strings.Contains(b.Body.String(), `"__type":{"name":"Answer"`) {
				t.Fatalf("no data: %s", b.Body.String())
			}
		})
	}
}

// TestGraphQLPostClientGone: a request whose context ended before the
// response was made (a browser navigating away mid-query) ends as gqlgen's
// transport ends it, without a panic.
func TestGraphQLPostClientGone(t *testing.T) {
	for _, tr := range []graphql.Transport{transport.POST{}, graphQLPost{}} {
		srv := handler.New(graph.NewSchema(&graph.Resolver{}))
		srv.AddTransport(tr)
		panicked := false
		srv.SetRecoverFunc(func(ctx context.Context, err any) error {
			panicked = true
			return fmt.Errorf("panic: %v", err)
		})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r := httptest.NewRequest("POST", "/graphql", strings.NewReader(`{"query":"{ __typename }"}`)).WithContext(ctx)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if panicked || w.Code != 200 || strings.TrimSpace(w.Body.String()) != "null" {
			t.Errorf("%T: panicked %v, %d %q", tr, panicked, w.Code, w.Body.String())
		}
	}
}
