package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/testenv"
)

// gqlRaw posts a GraphQL request and returns the status and the result
// (limit errors are answered 422, results 200).
func gqlRaw(t *testing.T, s *testenv.Server, key string, body any) (int, testenv.GraphQLResponse) {
	t.Helper()
	res := s.Do(t, testenv.Request{Method: http.MethodPost, Path: "/graphql", Key: key, Body: body})
	var out testenv.GraphQLResponse
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") && res.Status != http.StatusRequestEntityTooLarge {
		res.JSON(t, &out)
	}
	return res.Status, out
}

// onProfiles runs f on each profile.
func onProfiles(t *testing.T, f func(*testing.T, testenv.Profile)) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) { f(t, p) })
	}
}

// errCode is the first error's extensions.code, "" without errors.
func errCode(g testenv.GraphQLResponse) string {
	if len(g.Errors) == 0 {
		return ""
	}
	c, _ := g.Errors[0].Extensions["code"].(string)
	return c
}

func expectRefused(t *testing.T, what string, g testenv.GraphQLResponse, code string) {
	t.Helper()
	if got := errCode(g); got != code {
		t.Errorf("%s: code %q (errors %v, data %.200s), want %s", what, got, g.Errors, g.Data, code)
	}
}

func TestGraphQLLimits(t *testing.T) { onProfiles(t, graphQLLimits) }

func graphQLLimits(t *testing.T, p testenv.Profile) {
	cfg := p.Config
	cfg.RateManagement, cfg.BurstManagement = 100000, 100000
	cfg.MaxBodyBytes = 256 << 10
	s := testenv.StartServer(t, cfg)
	s.App.Uploads.PublicURL = s.URL
	key := s.CreateKey(t, "acme")
	prj := createProject(t, s, key, "Limits").ID
	for i := range 105 {
		createUpload(t, s, key, prj, fmt.Sprintf("f%03d.pdf", i), "application/pdf", 1000)
	}
	q := func(query string, vars map[string]any) testenv.GraphQLResponse {
		_, g := gqlRaw(t, s, key, map[string]any{"query": query, "variables": vars})
		return g
	}

	t.Run("body", func(t *testing.T) {
		big := `{ projects(where: {nameContains: "` + strings.Repeat("x", 300<<10) + `"}) { totalCount } }`
		if st, _ := gqlRaw(t, s, key, map[string]any{"query": big}); st != http.StatusRequestEntityTooLarge {
			t.Errorf("a 300 KiB body with --max-body-bytes 256 KiB: %d, want 413", st)
		}
	})
	t.Run("tokens", func(t *testing.T) {
		g := q("{ "+strings.Repeat("__typename ", 12000)+"}", nil)
		if len(g.Errors) == 0 || !strings.Contains(g.Errors[0].Message, "token limit") {
			t.Errorf("12,000 tokens: %v", g.Errors)
		}
	})
	t.Run("depth", func(t *testing.T) {
		// project → files → edges → node → project → … (4 levels a round)
		inner := "id"
		for range 5 {
			inner = "project { files(first: 1) { edges { node { " + inner + " } } } }"
		}
		expectRefused(t, "depth 21", q(`query($id: ID!) { file(id: $id) { `+inner+` } }`, map[string]any{"id": "fil_x"}), "DEPTH_LIMIT_EXCEEDED")
	})
	t.Run("aliases", func(t *testing.T) {
		var b strings.Builder
		for i := range 31 {
			fmt.Fprintf(&b, "a%d: __typename ", i)
		}
		expectRefused(t, "31 aliases", q("{ "+b.String()+"}", nil), "ALIAS_LIMIT_EXCEEDED")
	})
	t.Run("complexity", func(t *testing.T) {
		// 1 + 100 × (edges 1 + node 1 + files (1 + 100 × 3)) = 30,301
		expectRefused(t, "100 × 100 nested", q(`{ projects(first: 100) { edges { node { files(first: 100) { edges { node { id } } } } } } }`, nil), "COMPLEXITY_LIMIT_EXCEEDED")
		// the nested page defaults to 20: 1 + 100 × (2 + 1 + 20 × 3) = 6,301
		expectRefused(t, "100 × default", q(`{ projects(first: 100) { edges { node { files { edges { node { id } } } } } } }`, nil), "COMPLEXITY_LIMIT_EXCEEDED")
		// a variable counts as its value
		expectRefused(t, "100 × $n", q(`query($n: Int) { projects(first: 100) { edges { node { files(first: $n) { edges { node { id } } } } } } }`, map[string]any{"n": 100}), "COMPLEXITY_LIMIT_EXCEEDED")
		if g := q(`{ projects(first: 10) { edges { node { files(first: 100) { edges { node { id } } } } } } }`, nil); len(g.Errors) > 0 {
			t.Errorf("10 × 100 (3,031) is refused: %v", g.Errors)
		}
	})
	t.Run("nested pages", func(t *testing.T) {
		type edges struct {
			Edges []struct{ Node struct{ ID string } }
		}
		count := func(query string, vars map[string]any) int {
			t.Helper()
			var out struct {
				Project  *struct{ Files edges }
				Projects struct {
					Edges []struct{ Node struct{ Files edges } }
				}
			}
			q(query, vars).DataInto(t, &out)
			if out.Project != nil {
				return len(out.Project.Files.Edges)
			}
			if len(out.Projects.Edges) != 1 {
				t.Fatalf("%d projects", len(out.Projects.Edges))
			}
			return len(out.Projects.Edges[0].Node.Files.Edges)
		}
		vars := map[string]any{"id": prj}
		for name, c := range map[string]struct {
			query string
			vars  map[string]any
			want  int
		}{
			"by id, no page":       {`query($id: ID!) { project(id: $id) { files { edges { node { id } } } } }`, vars, 20},
			"by id, first 500":     {`query($id: ID!) { project(id: $id) { files(first: 500) { edges { node { id } } } } }`, vars, 100},
			"by id, last $n":       {`query($id: ID!, $n: Int) { project(id: $id) { files(last: $n) { edges { node { id } } } } }`, map[string]any{"id": prj, "n": 1000}, 100},
			"in a list, no page":   {`{ projects(first: 1) { edges { node { files { edges { node { id } } } } } } }`, nil, 20},
			"in a list, first 500": {`{ projects(first: 1) { edges { node { files(first: 500) { edges { node { id } } } } } } }`, nil, 100},
			"in a fragment":        {`query($id: ID!) { project(id: $id) { ...F } } fragment F on Project { files(first: 101) { edges { node { id } } } }`, vars, 100},
		} {
			if got := count(c.query, c.vars); got != c.want {
				t.Errorf("%s: %d files, want %d (the project has 105)", name, got, c.want)
			}
		}
		// the cached document is not changed: the same query with a small
		// page still gets that page
		if got := count(`query($id: ID!, $n: Int) { project(id: $id) { files(last: $n) { edges { node { id } } } } }`, map[string]any{"id": prj, "n": 3}); got != 3 {
			t.Errorf("last 3 after last 1000: %d", got)
		}
	})
	t.Run("introspection", func(t *testing.T) {
		// GraphiQL's query (graphql-js getIntrospectionQuery) stays within the limits
		g := q(introspectionQuery, nil)
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"queryType"`) {
			t.Errorf("introspection: %v", g.Errors)
		}
	})
	t.Run("nodes", func(t *testing.T) {
		ids := func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprintf("prj_%026d", i)
			}
			return out
		}
		query := `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`
		for _, n := range []int{101, 1000} {
			expectRefused(t, fmt.Sprintf("%d ids", n), q(query, map[string]any{"ids": ids(n)}), "TOO_MANY_IDS")
		}
		// 100 are looked up (99 do not exist)
		g := q(query, map[string]any{"ids": append(ids(99), prj)})
		var out struct{ Nodes []*struct{ ID string } }
		_ = json.Unmarshal(g.Data, &out)
		if errCode(g) != "NOT_FOUND" || len(out.Nodes) != 100 || out.Nodes[99] == nil || out.Nodes[99].ID != prj {
			t.Errorf("100 ids: code %q, data %.300s", errCode(g), g.Data)
		}
	})
}

// The parse mutation is charged to the vision budget, once per alias, and
// operations over a websocket are charged one by one.
func TestGraphQLRateClasses(t *testing.T) { onProfiles(t, graphQLRateClasses) }

func graphQLRateClasses(t *testing.T, p testenv.Profile) {
	cfg := p.Config
	cfg.RateManagement, cfg.BurstManagement = 1, 4
	cfg.RateVision, cfg.BurstVision = 1, 2
	s := testenv.StartServer(t, cfg)
	parse := `parse(input: {features: ["symbols"], sheetID: "sht_missing"}) { id }`

	t.Run("aliases", func(t *testing.T) {
		key := s.CreateKey(t, "aliases")
		_, g := gqlRaw(t, s, key, map[string]any{"query": "mutation { a: " + parse + " b: " + parse + " c: " + parse + " }"})
		expectRefused(t, "three parses with a vision burst of 2", g, "RATE_LIMITED")
	})
	t.Run("one by one", func(t *testing.T) {
		key := s.CreateKey(t, "single")
		var codes []string
		for range 3 {
			_, g := gqlRaw(t, s, key, map[string]any{"query": "mutation { " + parse + " }"})
			codes = append(codes, errCode(g))
		}
		if codes[0] == "RATE_LIMITED" || codes[1] == "RATE_LIMITED" || codes[2] != "RATE_LIMITED" {
			t.Errorf("three parses in a row with a vision burst of 2: codes %v, want the third RATE_LIMITED", codes)
		}
		// the refusal says when to come back, as REST's 429 does
		res := s.Do(t, testenv.Request{Method: http.MethodPost, Path: "/graphql", Key: key, Body: map[string]any{"query": "mutation { " + parse + " }"}})
		var g testenv.GraphQLResponse
		res.JSON(t, &g)
		if errCode(g) != "RATE_LIMITED" {
			t.Fatalf("a fourth parse: code %q, want RATE_LIMITED", errCode(g))
		}
		ra, err := strconv.Atoi(res.Header.Get("Retry-After"))
		if err != nil || ra < 1 {
			t.Errorf("a refused GraphQL operation: Retry-After header %q, want whole seconds ≥ 1", res.Header.Get("Retry-After"))
		}
		if secs, _ := g.Errors[0].Extensions["retryAfter"].(float64); int(secs) != ra {
			t.Errorf("extensions.retryAfter %v, want the header's %d", g.Errors[0].Extensions["retryAfter"], ra)
		}
	})
	t.Run("websocket", func(t *testing.T) {
		key := s.CreateKey(t, "ws")
		ws, _, err := testenv.DialGraphQLWS(s.URL, testenv.WSOptions{TLS: s.Client.Transport.(*http.Transport).TLSClientConfig,
			Init: map[string]any{"apiKey": key}})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		limited := 0
		for range 8 {
			sub, err := ws.Subscribe(`{ projects(first: 1) { totalCount } }`, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, errs, _ := sub.Collect(10 * time.Second)
			for _, r := range res {
				errs = append(errs, r.Errors...)
			}
			for _, e := range errs {
				if e.Extensions["code"] == "RATE_LIMITED" {
					limited++
				}
			}
		}
		// a burst of 4, then 1 a second: 8 queries at once cannot all pass
		if limited < 3 {
			t.Errorf("8 queries over one websocket with a management burst of 4: %d refused, want at least 3", limited)
		}
	})
}

// One websocket runs at most 20 subscriptions at once; one key holds at
// most 50 live streams on a server.
func TestSubscriptionCaps(t *testing.T) { onProfiles(t, subscriptionCaps) }

func subscriptionCaps(t *testing.T, p testenv.Profile) {
	cfg := p.Config
	cfg.RateManagement, cfg.BurstManagement = 100000, 100000
	s := testenv.StartServer(t, cfg)
	key := s.CreateKey(t, "acme")
	prj := createProject(t, s, key, "Live").ID
	dial := func() *testenv.GraphQLWS {
		ws, _, err := testenv.DialGraphQLWS(s.URL, testenv.WSOptions{TLS: s.Client.Transport.(*http.Transport).TLSClientConfig,
			Init: map[string]any{"apiKey": key}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ws.Close)
		return ws
	}
	// subscribe starts n projectJobs subscriptions on ws and returns how
	// many were refused (an error within a second) and their codes
	subscribe := func(ws *testenv.GraphQLWS, n int) (refused int, codes []any) {
		var subs []*testenv.Subscription
		for range n {
			sub, err := ws.Subscribe(`subscription($p: ID!) { projectJobs(projectId: $p) { id } }`, map[string]any{"p": prj})
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, sub)
		}
		for _, sub := range subs {
			res, errs, _ := sub.Collect(200 * time.Millisecond)
			for _, r := range res {
				errs = append(errs, r.Errors...)
			}
			if len(errs) > 0 {
				refused++
				codes = append(codes, errs[0].Extensions["code"])
			}
		}
		return refused, codes
	}
	ws := dial()
	if refused, codes := subscribe(ws, 21); refused != 1 || codes[0] != "RATE_LIMITED" {
		t.Errorf("21 subscriptions on one connection: %d refused (%v), want 1 RATE_LIMITED", refused, codes)
	}
	// 20 open on the first connection; 20 + 11 more on two others: the
	// key's 51st is refused
	r1, _ := subscribe(dial(), 20)
	r2, codes := subscribe(dial(), 11)
	if r1 != 0 || r2 != 1 || codes[0] != "RATE_LIMITED" {
		t.Errorf("51 streams of one key: refused %d on the second connection and %d (%v) on the third, want 0 and 1", r1, r2, codes)
	}
	// the SSE stream counts too
	res := s.Get(t, key, "/v1/jobs/job_missing/stream")
	if res.Status != http.StatusTooManyRequests {
		t.Errorf("an SSE stream beyond the key's 50: %d", res.Status)
	}
	if p.Config.Embedded() {
		return // one process: its database and Redis are its own
	}
	// the cap holds across the api processes of one deployment: a second
	// server on the same database and Redis refuses the key's 51st too
	s2 := testenv.StartServer(t, cfg)
	if res := s2.Get(t, key, "/v1/jobs/job_missing/stream"); res.Status != http.StatusTooManyRequests {
		t.Errorf("an SSE stream on a second api process beyond the key's 50: %d, want 429", res.Status)
	}
}

const introspectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`
