package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent/idempotencyrecord"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/jobs"
)

// project is the REST representation of a project.
type project struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// page is the list envelope.
type page struct {
	Data []project `json:"data"`
	Meta struct {
		Next  *string `json:"next"`
		Prev  *string `json:"prev"`
		Limit int     `json:"limit"`
	} `json:"_meta"`
}

func (p page) ids() []string {
	out := make([]string, len(p.Data))
	for i, d := range p.Data {
		out[i] = d.ID
	}
	return out
}

// list GETs a list and checks the envelope has exactly data and _meta{next,
// prev, limit}, with data an array (never null).
func list(t *testing.T, s *testenv.Server, key, path string) page {
	t.Helper()
	res := s.Get(t, key, path).ExpectStatus(t, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	raw := res.Object(t)
	if _, ok := raw["data"].([]any); !ok {
		t.Fatalf("list has no data array: %s", res.Body)
	}
	meta, ok := raw["_meta"].(map[string]any)
	if !ok {
		t.Fatalf("list has no _meta object: %s", res.Body)
	}
	for _, k := range []string{"next", "prev", "limit"} {
		if _, ok := meta[k]; !ok {
			t.Errorf("_meta has no %q: %s", k, res.Body)
		}
	}
	if len(raw) != 2 || len(meta) != 3 {
		t.Errorf("list envelope has extra members: %s", res.Body)
	}
	var p page
	res.JSON(t, &p)
	return p
}

// follow GETs /v1/projects with cursor c.
func follow(t *testing.T, s *testenv.Server, key string, c *string) page {
	t.Helper()
	if c == nil {
		t.Fatal("no cursor to follow")
	}
	return list(t, s, key, "/v1/projects?cursor="+url.QueryEscape(*c))
}

// startWithKey starts a server on p and makes a key of the organization
// "acme".
func startWithKey(t *testing.T, p testenv.Profile) (*testenv.Server, string) {
	t.Helper()
	s := testenv.StartServer(t, p.Config)
	return s, s.CreateKey(t, "acme")
}

func createProject(t *testing.T, s *testenv.Server, key, name string) project {
	t.Helper()
	res := s.Send(t, http.MethodPost, key, "/v1/projects", map[string]any{"name": name}).ExpectStatus(t, http.StatusCreated)
	var p project
	res.JSON(t, &p)
	return p
}

func TestHTTPSOnly(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key := startWithKey(t, p)
			plain := &http.Client{Timeout: 10 * time.Second}
			t.Cleanup(plain.CloseIdleConnections)
			cases := []struct {
				name string
				req  testenv.Request
			}{
				{"GET list", testenv.Request{Method: http.MethodGet, Path: "/v1/projects", Key: key}},
				{"POST create with a valid key", testenv.Request{Method: http.MethodPost, Path: "/v1/projects", Key: key, Body: map[string]any{"name": "plain"}}},
				{"GET healthz", testenv.Request{Method: http.MethodGet, Path: "/healthz"}},
				{"POST graphql", testenv.Request{Method: http.MethodPost, Path: "/graphql", Key: key, Body: map[string]any{"query": `mutation { createProject(input: {name: "plain"}) { id } }`}}},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					res := testenv.Do(t, plain, s.PlainURL, tc.req)
					pr := res.ExpectProblem(t, http.StatusBadRequest, "HTTPS_REQUIRED")
					if pr.Instance != tc.req.Path {
						t.Errorf("instance %q, want %q", pr.Instance, tc.req.Path)
					}
					if want := strings.Replace(s.PlainURL, "http://", "https://", 1) + tc.req.Path; !strings.Contains(pr.Detail, want) {
						t.Errorf("detail %q does not point to %s", pr.Detail, want)
					}
				})
			}
			// nothing reached the API: no project was created by either interface
			if got := list(t, s, key, "/v1/projects"); len(got.Data) != 0 {
				t.Errorf("a plain-HTTP request created projects: %+v", got.Data)
			}
		})
	}
}

func TestAuthentication(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key := startWithKey(t, p)
			unknown, err := auth.NewKey()
			if err != nil {
				t.Fatal(err)
			}
			revoked, rec := s.CreateKeyRecord(t, "acme")
			if err := s.App.Store.APIKey.UpdateOneID(rec.ID).SetRevokedAt(time.Now()).Exec(tenant.System(context.Background())); err != nil {
				t.Fatal(err)
			}
			h := func(kv ...string) http.Header {
				out := http.Header{}
				for i := 0; i < len(kv); i += 2 {
					out.Set(kv[i], kv[i+1])
				}
				return out
			}
			gql := map[string]any{"query": "{ projects { totalCount } }"}
			cases := []struct {
				name   string
				method string
				path   string
				header http.Header
				body   any
				want   int
			}{
				{"no key", "GET", "/v1/projects", nil, nil, 401},
				{"empty bearer", "GET", "/v1/projects", h("Authorization", "Bearer "), nil, 401},
				{"malformed bearer", "GET", "/v1/projects", h("Authorization", "Bearer sk_short"), nil, 401},
				{"malformed bearer without prefix", "GET", "/v1/projects", h("Authorization", "Bearer "+strings.TrimPrefix(key, "sk_")), nil, 401},
				{"malformed X-API-Key", "GET", "/v1/projects", h("X-API-Key", "sk_"+strings.Repeat("!", 43)), nil, 401},
				{"well-formed unknown bearer", "GET", "/v1/projects", h("Authorization", "Bearer "+unknown), nil, 401},
				{"well-formed unknown X-API-Key", "GET", "/v1/projects", h("X-API-Key", unknown), nil, 401},
				{"revoked key", "GET", "/v1/projects", h("Authorization", "Bearer "+revoked), nil, 401},
				{"basic scheme", "GET", "/v1/projects", h("Authorization", "Basic "+key), nil, 401},
				{"key without scheme", "GET", "/v1/projects", h("Authorization", key), nil, 401},
				{"bearer", "GET", "/v1/projects", h("Authorization", "Bearer "+key), nil, 200},
				{"bearer, scheme in lower case", "GET", "/v1/projects", h("Authorization", "bearer "+key), nil, 200},
				{"X-API-Key", "GET", "/v1/projects", h("X-API-Key", key), nil, 200},
				{"unknown path without key", "GET", "/v1/nothing-here", nil, nil, 401},
				{"graphql without key", "POST", "/graphql", nil, gql, 401},
				{"graphql GET without key", "GET", "/graphql?query=%7Bprojects%7BtotalCount%7D%7D", nil, nil, 401},
				{"graphql unknown key", "POST", "/graphql", h("Authorization", "Bearer "+unknown), gql, 401},
				{"graphql bearer", "POST", "/graphql", h("Authorization", "Bearer "+key), gql, 200},
				{"graphql X-API-Key", "POST", "/graphql", h("X-API-Key", key), gql, 200},
			}
			seen := map[string]bool{}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					res := s.Do(t, testenv.Request{Method: tc.method, Path: tc.path, Header: tc.header, Body: tc.body})
					if tc.want == 200 {
						res.ExpectStatus(t, http.StatusOK)
						if strings.HasPrefix(tc.path, "/graphql") {
							var g testenv.GraphQLResponse
							res.JSON(t, &g)
							var d struct{ Projects struct{ TotalCount int } }
							g.DataInto(t, &d)
						} else {
							res.Object(t)
						}
						return
					}
					pr := res.ExpectProblem(t, http.StatusUnauthorized, "UNAUTHORIZED")
					if seen[pr.RequestID] {
						t.Errorf("request_id %s was used twice", pr.RequestID)
					}
					seen[pr.RequestID] = true
					if !strings.HasSuffix(pr.Type, "/authentication") {
						t.Errorf("type %q, want …/authentication", pr.Type)
					}
					if pr.Instance != strings.SplitN(tc.path, "?", 2)[0] {
						t.Errorf("instance %q, want %q", pr.Instance, tc.path)
					}
					if got := res.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
						t.Errorf("WWW-Authenticate %q, want a Bearer challenge", got)
					}
					if strings.Contains(string(res.Body), key) || strings.Contains(string(res.Body), unknown) {
						t.Errorf("the problem echoes the key: %s", res.Body)
					}
				})
			}
		})
	}
}

func TestProjectsCRUD(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key := startWithKey(t, p)

			start := time.Now().Add(-time.Minute)
			res := s.Send(t, http.MethodPost, key, "/v1/projects", map[string]any{"name": "  Tower A  "}).ExpectStatus(t, http.StatusCreated)
			var created project
			res.JSON(t, &created)
			if !strings.HasPrefix(created.ID, "prj_") {
				t.Errorf("id %q does not start with prj_", created.ID)
			}
			if created.Name != "Tower A" {
				t.Errorf("name %q, want the trimmed %q", created.Name, "Tower A")
			}
			if loc := res.Header.Get("Location"); loc != "/v1/projects/"+created.ID {
				t.Errorf("Location %q, want /v1/projects/%s", loc, created.ID)
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if created.CreatedAt.Before(start) || created.CreatedAt.After(time.Now().Add(time.Minute)) {
				t.Errorf("created_at %v is not now", created.CreatedAt)
			}

			var got project
			s.Get(t, key, "/v1/projects/"+created.ID).ExpectStatus(t, http.StatusOK).JSON(t, &got)
			if !got.CreatedAt.Equal(created.CreatedAt) || got.ID != created.ID || got.Name != created.Name {
				t.Errorf("GET %+v, want %+v", got, created)
			}

			var patched project
			s.Send(t, http.MethodPatch, key, "/v1/projects/"+created.ID, map[string]any{"name": "Tower B"}).ExpectStatus(t, http.StatusOK).JSON(t, &patched)
			if patched.ID != created.ID || patched.Name != "Tower B" || !patched.CreatedAt.Equal(created.CreatedAt) {
				t.Errorf("PATCH gave %+v", patched)
			}
			if patched.UpdatedAt.Before(created.UpdatedAt) {
				t.Errorf("updated_at went back: %v → %v", created.UpdatedAt, patched.UpdatedAt)
			}
			s.Get(t, key, "/v1/projects/"+created.ID).ExpectStatus(t, http.StatusOK).JSON(t, &got)
			if got.Name != "Tower B" {
				t.Errorf("after PATCH, GET name %q", got.Name)
			}

			// an empty patch changes nothing
			s.Send(t, http.MethodPatch, key, "/v1/projects/"+created.ID, map[string]any{}).ExpectStatus(t, http.StatusOK).JSON(t, &got)
			if got.Name != "Tower B" {
				t.Errorf("empty PATCH changed the name to %q", got.Name)
			}
			pr := s.Send(t, http.MethodPatch, key, "/v1/projects/"+created.ID, map[string]any{"name": " "}).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			if len(pr.Errors["name"]) == 0 {
				t.Errorf("blank name: errors %v has no name", pr.Errors)
			}

			if l := list(t, s, key, "/v1/projects"); !slices.Equal(l.ids(), []string{created.ID}) {
				t.Errorf("list %v, want [%s]", l.ids(), created.ID)
			}

			res = s.Send(t, http.MethodDelete, key, "/v1/projects/"+created.ID, nil).ExpectStatus(t, http.StatusNoContent)
			if len(res.Body) != 0 {
				t.Errorf("204 with a body: %q", res.Body)
			}
			for _, req := range []testenv.Request{
				{Method: http.MethodGet, Path: "/v1/projects/" + created.ID},
				{Method: http.MethodDelete, Path: "/v1/projects/" + created.ID},
				{Method: http.MethodPatch, Path: "/v1/projects/" + created.ID, Body: map[string]any{"name": "ghost"}},
				{Method: http.MethodGet, Path: "/v1/projects/prj_00000000000000000000000000"},
			} {
				req.Key = key
				pr := s.Do(t, req).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				if pr.Instance != req.Path {
					t.Errorf("%s %s: instance %q", req.Method, req.Path, pr.Instance)
				}
			}
			if l := list(t, s, key, "/v1/projects"); len(l.Data) != 0 {
				t.Errorf("after DELETE the list holds %v", l.ids())
			}
		})
	}
}

func TestProjectsPagination(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key := startWithKey(t, p)
			const n = 45
			want := make([]string, n) // newest first
			for i := range n {
				want[n-1-i] = createProject(t, s, key, fmt.Sprintf("Project %02d", i)).ID
			}

			// forward, 20 at a time
			var pages []page
			pg := list(t, s, key, "/v1/projects?limit=20")
			if pg.Meta.Prev != nil {
				t.Errorf("first page: prev %q, want null", *pg.Meta.Prev)
			}
			for {
				if pg.Meta.Limit != 20 {
					t.Errorf("page %d: _meta.limit %d, want 20", len(pages), pg.Meta.Limit)
				}
				pages = append(pages, pg)
				if pg.Meta.Next == nil || len(pages) > 5 {
					break
				}
				pg = follow(t, s, key, pg.Meta.Next)
				if pg.Meta.Prev == nil {
					t.Errorf("page %d: prev is null", len(pages))
				}
			}
			var sizes []int
			var walked []string
			for _, pg := range pages {
				sizes = append(sizes, len(pg.Data))
				walked = append(walked, pg.ids()...)
			}
			if !slices.Equal(sizes, []int{20, 20, 5}) {
				t.Fatalf("page sizes %v, want [20 20 5]", sizes)
			}
			if !slices.Equal(walked, want) {
				t.Fatalf("walk gave\n%v\nwant (newest first, no repeats)\n%v", walked, want)
			}
			for i := 1; i < n; i++ {
				a, b := pages[i/20].Data[i%20], pages[(i-1)/20].Data[(i-1)%20]
				if a.CreatedAt.After(b.CreatedAt) {
					t.Errorf("item %d created %v after item %d (%v): not newest first", i, a.CreatedAt, i-1, b.CreatedAt)
				}
			}

			// and back: prev of the last page is exactly the middle page,
			// prev of that is exactly the first page, whose prev is null
			back := follow(t, s, key, pages[2].Meta.Prev)
			if !slices.Equal(back.ids(), pages[1].ids()) {
				t.Errorf("prev of page 3 gave\n%v\nwant page 2\n%v", back.ids(), pages[1].ids())
			}
			if back.Meta.Next == nil || back.Meta.Prev == nil {
				t.Fatalf("middle page reached backwards: next %v prev %v, want both", back.Meta.Next, back.Meta.Prev)
			}
			if again := follow(t, s, key, back.Meta.Next); !slices.Equal(again.ids(), pages[2].ids()) {
				t.Errorf("next after going back gave %v, want page 3 %v", again.ids(), pages[2].ids())
			}
			first := follow(t, s, key, back.Meta.Prev)
			if !slices.Equal(first.ids(), pages[0].ids()) {
				t.Errorf("prev of page 2 gave\n%v\nwant page 1\n%v", first.ids(), pages[0].ids())
			}
			if first.Meta.Prev != nil {
				t.Errorf("first page reached backwards: prev %q, want null", *first.Meta.Prev)
			}
			if first.Meta.Next == nil {
				t.Errorf("first page reached backwards: next is null")
			}

			// limits
			for _, tc := range []struct {
				query     string
				wantLimit int
				wantLen   int
				wantNext  bool
			}{
				{"", 20, 20, true},
				{"?limit=1", 1, 1, true},
				{"?limit=100", 100, n, false},
				{"?limit=150", 100, n, false},
				{"?limit=45", 45, n, false},
			} {
				pg := list(t, s, key, "/v1/projects"+tc.query)
				if pg.Meta.Limit != tc.wantLimit || len(pg.Data) != tc.wantLen || (pg.Meta.Next != nil) != tc.wantNext || pg.Meta.Prev != nil {
					t.Errorf("%q: limit %d, %d items, next %v, prev %v; want limit %d, %d items, next %v, prev null",
						tc.query, pg.Meta.Limit, len(pg.Data), pg.Meta.Next != nil, pg.Meta.Prev, tc.wantLimit, tc.wantLen, tc.wantNext)
				}
			}
		})
	}
}

func TestProjectsListParameters(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, keyA := startWithKey(t, p)
			keyB := s.CreateKey(t, "globex")
			var ps []project
			for i := range 3 {
				ps = append(ps, createProject(t, s, keyA, fmt.Sprintf("P%d", i)))
				time.Sleep(5 * time.Millisecond) // distinct created_at on any clock
			}
			createProject(t, s, keyB, "B's")
			p1, p2, p3 := ps[0], ps[1], ps[2]
			if !p1.CreatedAt.Before(p2.CreatedAt) || !p2.CreatedAt.Before(p3.CreatedAt) {
				t.Fatalf("created_at not increasing: %v %v %v", p1.CreatedAt, p2.CreatedAt, p3.CreatedAt)
			}
			cur := list(t, s, keyA, "/v1/projects?limit=1").Meta.Next
			if cur == nil {
				t.Fatal("no next cursor")
			}

			t.Run("invalid", func(t *testing.T) {
				flip := func(s string, i int) string {
					b := []byte(s)
					if b[i] == 'A' {
						b[i] = 'B'
					} else {
						b[i] = 'A'
					}
					return string(b)
				}
				cases := []struct {
					name, key, query, code, field string
				}{
					{"limit 0", keyA, "limit=0", "VALIDATION_ERROR", "limit"},
					{"limit -1", keyA, "limit=-1", "VALIDATION_ERROR", "limit"},
					{"limit abc", keyA, "limit=abc", "VALIDATION_ERROR", "limit"},
					{"limit 1.5", keyA, "limit=1.5", "VALIDATION_ERROR", "limit"},
					{"limit 0 with a cursor", keyA, "limit=0&cursor=" + url.QueryEscape(*cur), "VALIDATION_ERROR", "limit"},
					{"unknown parameter", keyA, "colour=red", "VALIDATION_ERROR", "colour"},
					{"misspelt filter", keyA, "created_afer=2020-01-01", "VALIDATION_ERROR", "created_afer"},
					{"malformed created_after", keyA, "created_after=yesterday", "VALIDATION_ERROR", "created_after"},
					{"malformed created_before", keyA, "created_before=2026-13-45", "VALIDATION_ERROR", "created_before"},
					{"garbage cursor", keyA, "cursor=garbage", "INVALID_CURSOR", "cursor"},
					{"tampered cursor payload", keyA, "cursor=" + url.QueryEscape(flip(*cur, 5)), "INVALID_CURSOR", "cursor"},
					{"tampered cursor signature", keyA, "cursor=" + url.QueryEscape(flip(*cur, len(*cur)-3)), "INVALID_CURSOR", "cursor"},
					{"truncated cursor", keyA, "cursor=" + url.QueryEscape((*cur)[:len(*cur)-1]), "INVALID_CURSOR", "cursor"},
					{"another organization's cursor", keyB, "cursor=" + url.QueryEscape(*cur), "INVALID_CURSOR", "cursor"},
				}
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						pr := s.Get(t, tc.key, "/v1/projects?"+tc.query).ExpectProblem(t, http.StatusBadRequest, tc.code)
						if len(pr.Errors[tc.field]) == 0 {
							t.Errorf("errors %v does not name %q", pr.Errors, tc.field)
						}
						if !strings.Contains(pr.Detail, tc.field) && tc.code == "VALIDATION_ERROR" {
							t.Errorf("detail %q does not name %q", pr.Detail, tc.field)
						}
					})
				}
			})

			t.Run("dates", func(t *testing.T) {
				ts := func(p project) string { return p.CreatedAt.Format(time.RFC3339Nano) }
				plus2 := time.FixedZone("+02", 2*3600)
				cases := []struct {
					name  string
					query url.Values
					want  []project
				}{
					{"after the first", url.Values{"created_after": {ts(p1)}}, []project{p3, p2}},
					{"before the last", url.Values{"created_before": {ts(p3)}}, []project{p2, p1}},
					{"between", url.Values{"created_after": {ts(p1)}, "created_before": {ts(p3)}}, []project{p2}},
					{"after, in another time zone", url.Values{"created_after": {p1.CreatedAt.In(plus2).Format(time.RFC3339Nano)}}, []project{p3, p2}},
					{"after a date", url.Values{"created_after": {"2000-01-01"}}, []project{p3, p2, p1}},
					{"before a date", url.Values{"created_before": {"2000-01-01"}}, nil},
					{"after a far date-time", url.Values{"created_after": {"2999-01-01T00:00:00Z"}}, nil},
				}
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						got := list(t, s, keyA, "/v1/projects?"+tc.query.Encode())
						var want []string
						for _, p := range tc.want {
							want = append(want, p.ID)
						}
						if !slices.Equal(got.ids(), want) {
							t.Errorf("%s gave %v, want %v", tc.query.Encode(), got.ids(), want)
						}
					})
				}
				// the filter travels in the cursor: paging by one never shows p1
				q := url.Values{"created_after": {ts(p1)}, "limit": {"1"}}
				pg := list(t, s, keyA, "/v1/projects?"+q.Encode())
				var walked []string
				for i := 0; i < 5; i++ {
					walked = append(walked, pg.ids()...)
					if pg.Meta.Next == nil {
						break
					}
					pg = follow(t, s, keyA, pg.Meta.Next)
				}
				if !slices.Equal(walked, []string{p3.ID, p2.ID}) {
					t.Errorf("paging a filtered list gave %v, want [%s %s]", walked, p3.ID, p2.ID)
				}
			})
		})
	}
}

func TestOrganizationIsolation(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, keyA := startWithKey(t, p)
			keyB := s.CreateKey(t, "globex")
			pa := createProject(t, s, keyA, "Acme HQ")
			pb := createProject(t, s, keyB, "Globex HQ")

			for _, req := range []testenv.Request{
				{Method: http.MethodGet, Path: "/v1/projects/" + pa.ID},
				{Method: http.MethodPatch, Path: "/v1/projects/" + pa.ID, Body: map[string]any{"name": "stolen"}},
				{Method: http.MethodDelete, Path: "/v1/projects/" + pa.ID},
			} {
				req.Key = keyB
				pr := s.Do(t, req).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				if strings.Contains(pr.Detail, "Acme") {
					t.Errorf("%s: the problem leaks the project: %q", req.Method, pr.Detail)
				}
			}
			var got project
			s.Get(t, keyA, "/v1/projects/"+pa.ID).ExpectStatus(t, http.StatusOK).JSON(t, &got)
			if got.Name != "Acme HQ" {
				t.Errorf("org B's PATCH changed the name to %q", got.Name)
			}
			if l := list(t, s, keyB, "/v1/projects?limit=100"); !slices.Equal(l.ids(), []string{pb.ID}) {
				t.Errorf("org B lists %v, want only [%s]", l.ids(), pb.ID)
			}
			if l := list(t, s, keyA, "/v1/projects?limit=100"); !slices.Equal(l.ids(), []string{pa.ID}) {
				t.Errorf("org A lists %v, want only [%s]", l.ids(), pa.ID)
			}

			var d struct {
				Node     *struct{ ID string }
				Project  *struct{ ID string }
				Projects struct {
					TotalCount int
					Edges      []struct{ Node struct{ ID string } }
				}
			}
			s.GraphQL(t, keyB, `query($id: ID!) {
				node(id: $id) { id }
				project(id: $id) { id }
				projects(first: 100) { totalCount edges { node { id } } }
			}`, map[string]any{"id": pa.ID}).DataInto(t, &d)
			if d.Node != nil || d.Project != nil {
				t.Errorf("org B sees org A's project over GraphQL: node %+v project %+v", d.Node, d.Project)
			}
			if d.Projects.TotalCount != 1 || len(d.Projects.Edges) != 1 || d.Projects.Edges[0].Node.ID != pb.ID {
				t.Errorf("org B's GraphQL projects: %+v, want only %s", d.Projects, pb.ID)
			}
			for _, m := range []string{
				`mutation($id: ID!) { updateProject(id: $id, input: {name: "stolen"}) { id } }`,
				`mutation($id: ID!) { deleteProject(id: $id) }`,
			} {
				g := s.GraphQL(t, keyB, m, map[string]any{"id": pa.ID})
				if len(g.Errors) != 1 || g.Errors[0].Extensions["code"] != "NOT_FOUND" {
					t.Errorf("%s as org B: errors %+v, want one NOT_FOUND", m, g.Errors)
				}
			}
			s.Get(t, keyA, "/v1/projects/"+pa.ID).ExpectStatus(t, http.StatusOK).JSON(t, &got)
			if got.Name != "Acme HQ" {
				t.Errorf("org B's GraphQL mutation changed the name to %q", got.Name)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			cfg := p.Config
			cfg.MaxBodyBytes = 1024
			s := testenv.StartServer(t, cfg)
			key := s.CreateKey(t, "acme")
			existing := createProject(t, s, key, "existing")
			item := "/v1/projects/" + existing.ID

			cases := []struct {
				name        string
				method      string
				path        string
				body        any
				contentType string
				status      int
				code        string
				field       string // must be named in errors
			}{
				{"malformed JSON", "POST", "/v1/projects", `{"name": "x"`, "", 400, "VALIDATION_ERROR", "body"},
				{"syntax error", "POST", "/v1/projects", `{name: x}`, "", 400, "VALIDATION_ERROR", "body"},
				{"not an object", "POST", "/v1/projects", `["x"]`, "", 400, "VALIDATION_ERROR", "body"},
				{"two objects", "POST", "/v1/projects", `{"name":"x"} {"name":"y"}`, "", 400, "VALIDATION_ERROR", "body"},
				{"empty body", "POST", "/v1/projects", "", "", 400, "VALIDATION_ERROR", "body"},
				{"unknown field", "POST", "/v1/projects", `{"name":"x","colour":"red"}`, "", 400, "VALIDATION_ERROR", "colour"},
				{"wrong type", "POST", "/v1/projects", `{"name":5}`, "", 400, "VALIDATION_ERROR", "name"},
				{"missing name", "POST", "/v1/projects", `{}`, "", 400, "VALIDATION_ERROR", "name"},
				{"null name", "POST", "/v1/projects", `{"name":null}`, "", 400, "VALIDATION_ERROR", "name"},
				{"blank name", "POST", "/v1/projects", `{"name":"   "}`, "", 400, "VALIDATION_ERROR", "name"},
				{"name too long", "POST", "/v1/projects", `{"name":"` + strings.Repeat("n", 201) + `"}`, "", 400, "VALIDATION_ERROR", "name"},
				{"body over the limit", "POST", "/v1/projects", `{"name":"` + strings.Repeat("n", 2000) + `"}`, "", 413, "PAYLOAD_TOO_LARGE", ""},
				{"text/plain", "POST", "/v1/projects", `{"name":"x"}`, "text/plain", 415, "UNSUPPORTED_MEDIA_TYPE", ""},
				{"form", "POST", "/v1/projects", `name=x`, "application/x-www-form-urlencoded", 415, "UNSUPPORTED_MEDIA_TYPE", ""},
				{"PATCH wrong type", "PATCH", item, `{"name":true}`, "", 400, "VALIDATION_ERROR", "name"},
				{"PATCH unknown field", "PATCH", item, `{"id":"prj_x"}`, "", 400, "VALIDATION_ERROR", "id"},
				{"PATCH text/plain", "PATCH", item, `{"name":"x"}`, "text/plain", 415, "UNSUPPORTED_MEDIA_TYPE", ""},
				{"unknown path", "GET", "/v1/nope", nil, "", 404, "NOT_FOUND", ""},
				{"unknown nested path", "GET", item + "/sheets/x", nil, "", 404, "NOT_FOUND", ""},
				{"wrong method on the list", "PUT", "/v1/projects", `{"name":"x"}`, "", 405, "METHOD_NOT_ALLOWED", ""},
				{"wrong method on an item", "POST", item, `{"name":"x"}`, "", 405, "METHOD_NOT_ALLOWED", ""},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					res := s.Do(t, testenv.Request{Method: tc.method, Path: tc.path, Key: key, Body: tc.body, ContentType: tc.contentType})
					pr := res.ExpectProblem(t, tc.status, tc.code)
					if pr.Instance != tc.path {
						t.Errorf("instance %q, want %q", pr.Instance, tc.path)
					}
					if tc.field != "" && len(pr.Errors[tc.field]) == 0 {
						t.Errorf("errors %v does not name %q", pr.Errors, tc.field)
					}
					if tc.status == 405 {
						allow := res.Header.Get("Allow")
						want := []string{"GET", "POST"}
						if tc.path == item {
							want = []string{"GET", "PATCH", "DELETE"}
						}
						for _, m := range want {
							if !strings.Contains(allow, m) {
								t.Errorf("Allow %q lacks %s", allow, m)
							}
						}
						if strings.Contains(allow, tc.method) {
							t.Errorf("Allow %q names the refused method %s", allow, tc.method)
						}
					}
				})
			}
			// none of the failed requests created or changed anything
			l := list(t, s, key, "/v1/projects?limit=100")
			if len(l.Data) != 1 || l.Data[0].ID != existing.ID || l.Data[0].Name != "existing" {
				t.Errorf("after the failed requests the list is %+v, want only the existing project unchanged", l.Data)
			}
		})
	}
}

func TestVersioning(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key := startWithKey(t, p)
			gql := map[string]any{"query": "{ projects { totalCount } }"}
			cases := []struct {
				name    string
				method  string
				path    string
				key     string
				body    any
				version string // "" sends no header
				status  int
			}{
				{"default on REST", "GET", "/v1/projects", key, nil, "", 200},
				{"explicit on REST", "GET", "/v1/projects", key, nil, "2026-01-01", 200},
				{"default on GraphQL", "POST", "/graphql", key, gql, "", 200},
				{"explicit on GraphQL", "POST", "/graphql", key, gql, "2026-01-01", 200},
				{"default on an error", "GET", "/v1/projects", "", nil, "", 401},
				{"default on healthz", "GET", "/healthz", "", nil, "", 200},
				{"unknown on REST", "GET", "/v1/projects", key, nil, "1999-01-01", 400},
				{"not a date", "GET", "/v1/projects", key, nil, "latest", 400},
				{"unknown on GraphQL", "POST", "/graphql", key, gql, "1999-01-01", 400},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					h := http.Header{}
					if tc.version != "" {
						h.Set("X-API-Version", tc.version)
					}
					res := s.Do(t, testenv.Request{Method: tc.method, Path: tc.path, Key: tc.key, Body: tc.body, Header: h})
					if tc.status == 400 {
						pr := res.ExpectProblem(t, 400, "UNSUPPORTED_API_VERSION")
						if len(pr.Errors["X-API-Version"]) == 0 {
							t.Errorf("errors %v does not name X-API-Version", pr.Errors)
						}
						if !strings.Contains(pr.Detail, "2026-01-01") {
							t.Errorf("detail %q does not list the supported version", pr.Detail)
						}
						return
					}
					res.ExpectStatus(t, tc.status)
					if got := res.Header.Get("X-API-Version"); got != "2026-01-01" {
						t.Errorf("X-API-Version %q, want 2026-01-01", got)
					}
				})
			}
		})
	}
}

func TestGraphQL(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key := startWithKey(t, p)
			type gproject struct {
				ID        string
				Name      string
				CreatedAt time.Time
				UpdatedAt time.Time
			}
			create := func(name string) gproject {
				var d struct{ CreateProject gproject }
				s.GraphQL(t, key, `mutation($name: String!) { createProject(input: {name: $name}) { id name createdAt updatedAt } }`,
					map[string]any{"name": name}).DataInto(t, &d)
				return d.CreateProject
			}
			var made []gproject
			for _, n := range []string{"G1", "G2", "G3"} {
				g := create(n)
				if !strings.HasPrefix(g.ID, "prj_") || g.Name != n || g.CreatedAt.IsZero() {
					t.Errorf("createProject gave %+v", g)
				}
				made = append(made, g)
			}
			// what GraphQL made, REST sees
			var viaREST project
			s.Get(t, key, "/v1/projects/"+made[0].ID).ExpectStatus(t, http.StatusOK).JSON(t, &viaREST)
			if viaREST.Name != "G1" {
				t.Errorf("REST sees %+v", viaREST)
			}

			type conn struct {
				TotalCount int
				Edges      []struct {
					Cursor string
					Node   struct{ ID, Name string }
				}
				PageInfo struct {
					HasNextPage     bool
					HasPreviousPage bool
					StartCursor     *string
					EndCursor       *string
				}
			}
			const connQ = `query($first: Int, $after: Cursor, $order: [ProjectOrder!]) {
				projects(first: $first, after: $after, orderBy: $order) {
					totalCount
					edges { cursor node { id name } }
					pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
				}
			}`
			newest := []map[string]any{{"field": "CREATED_AT", "direction": "DESC"}}
			var d1, d2 struct{ Projects conn }
			s.GraphQL(t, key, connQ, map[string]any{"first": 2, "order": newest}).DataInto(t, &d1)
			c1 := d1.Projects
			if c1.TotalCount != 3 || len(c1.Edges) != 2 || !c1.PageInfo.HasNextPage || c1.PageInfo.EndCursor == nil {
				t.Fatalf("first page: %+v", c1)
			}
			if c1.Edges[0].Node.ID != made[2].ID || c1.Edges[1].Node.ID != made[1].ID || c1.Edges[0].Cursor == "" {
				t.Errorf("newest first gave %+v, want G3, G2", c1.Edges)
			}
			s.GraphQL(t, key, connQ, map[string]any{"first": 2, "after": *c1.PageInfo.EndCursor, "order": newest}).DataInto(t, &d2)
			c2 := d2.Projects
			if c2.TotalCount != 3 || len(c2.Edges) != 1 || c2.PageInfo.HasNextPage || c2.Edges[0].Node.ID != made[0].ID {
				t.Errorf("second page: %+v, want only G1 and no next page", c2)
			}
			// without totalCount (no COUNT is run then) the pages and their pageInfo are the same,
			// walking forwards and backwards
			noCount := strings.Replace(connQ, "totalCount", "", 1)
			for i, vars := range []map[string]any{{"first": 2, "order": newest}, {"first": 2, "after": *c1.PageInfo.EndCursor, "order": newest}} {
				var d struct{ Projects conn }
				s.GraphQL(t, key, noCount, vars).DataInto(t, &d)
				want := []conn{c1, c2}[i]
				want.TotalCount = 0
				if !reflect.DeepEqual(d.Projects, want) {
					t.Errorf("page %d without totalCount: %+v, want %+v", i+1, d.Projects, want)
				}
			}
			const backQ = `query($last: Int, $before: Cursor, $order: [ProjectOrder!]) {
				projects(last: $last, before: $before, orderBy: $order) { edges { node { name } } pageInfo { hasNextPage hasPreviousPage } } }`
			var back struct {
				Projects struct {
					Edges    []struct{ Node struct{ Name string } }
					PageInfo struct{ HasNextPage, HasPreviousPage bool }
				}
			}
			s.GraphQL(t, key, backQ, map[string]any{"last": 1, "before": c2.Edges[0].Cursor, "order": newest}).DataInto(t, &back)
			if len(back.Projects.Edges) != 1 || back.Projects.Edges[0].Node.Name != "G2" || !back.Projects.PageInfo.HasPreviousPage || !back.Projects.PageInfo.HasNextPage {
				t.Errorf("last 1 before G1: %+v, want G2 with pages before and after", back.Projects)
			}

			var one struct {
				Project *gproject
				Node    *struct {
					Typename string `json:"__typename"`
					ID       string
					Name     string
				}
			}
			s.GraphQL(t, key, `query($id: ID!) {
				project(id: $id) { id name createdAt updatedAt }
				node(id: $id) { __typename id ... on Project { name } }
			}`, map[string]any{"id": made[1].ID}).DataInto(t, &one)
			if one.Project == nil || one.Project.ID != made[1].ID || one.Project.Name != "G2" {
				t.Errorf("project(id) gave %+v", one.Project)
			}
			if one.Node == nil || one.Node.Typename != "Project" || one.Node.ID != made[1].ID || one.Node.Name != "G2" {
				t.Errorf("node(id) gave %+v", one.Node)
			}

			var upd struct{ UpdateProject gproject }
			s.GraphQL(t, key, `mutation($id: ID!) { updateProject(id: $id, input: {name: "G2 renamed"}) { id name createdAt updatedAt } }`,
				map[string]any{"id": made[1].ID}).DataInto(t, &upd)
			if upd.UpdateProject.ID != made[1].ID || upd.UpdateProject.Name != "G2 renamed" || !upd.UpdateProject.CreatedAt.Equal(made[1].CreatedAt) {
				t.Errorf("updateProject gave %+v", upd.UpdateProject)
			}

			var del struct{ DeleteProject string }
			s.GraphQL(t, key, `mutation($id: ID!) { deleteProject(id: $id) }`, map[string]any{"id": made[1].ID}).DataInto(t, &del)
			if del.DeleteProject != made[1].ID {
				t.Errorf("deleteProject returned %q, want %q", del.DeleteProject, made[1].ID)
			}
			var after struct {
				Project  *gproject
				Node     *struct{ ID string }
				Projects struct{ TotalCount int }
			}
			s.GraphQL(t, key, `query($id: ID!) { project(id: $id) { id } node(id: $id) { id } projects { totalCount } }`,
				map[string]any{"id": made[1].ID}).DataInto(t, &after)
			if after.Project != nil || after.Node != nil || after.Projects.TotalCount != 2 {
				t.Errorf("after deleteProject: %+v", after)
			}
			s.Get(t, key, "/v1/projects/"+made[1].ID).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")

			t.Run("errors", func(t *testing.T) {
				cases := []struct {
					name, query string
					vars        map[string]any
					code, field string
				}{
					{"empty name", `mutation { createProject(input: {name: ""}) { id } }`, nil, "VALIDATION_ERROR", "name"},
					{"blank name", `mutation($n: String!) { createProject(input: {name: $n}) { id } }`, map[string]any{"n": "   "}, "VALIDATION_ERROR", "name"},
					{"blank rename", `mutation($id: ID!) { updateProject(id: $id, input: {name: " "}) { id } }`, map[string]any{"id": made[0].ID}, "VALIDATION_ERROR", "name"},
					{"negative first", `{ projects(first: -1) { totalCount } }`, nil, "VALIDATION_ERROR", "first"},
					{"update a missing project", `mutation { updateProject(id: "prj_00000000000000000000000000", input: {name: "x"}) { id } }`, nil, "NOT_FOUND", ""},
				}
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						g := s.GraphQL(t, key, tc.query, tc.vars)
						if len(g.Errors) != 1 {
							t.Fatalf("errors %+v, want one", g.Errors)
						}
						e := g.Errors[0]
						if e.Extensions["code"] != tc.code {
							t.Errorf("extensions.code %v, want %s (%+v)", e.Extensions["code"], tc.code, e)
						}
						if rid, _ := e.Extensions["request_id"].(string); !strings.HasPrefix(rid, "req_") {
							t.Errorf("extensions.request_id %q", rid)
						}
						if tc.field != "" {
							fields, _ := e.Extensions["fields"].(map[string]any)
							if fields[tc.field] == nil {
								t.Errorf("extensions.fields %v does not name %q", e.Extensions["fields"], tc.field)
							}
						}
						if e.Message == "" || len(e.Path) == 0 {
							t.Errorf("error without message or path: %+v", e)
						}
						if string(g.Data) != "null" {
							t.Errorf("data %s, want null", g.Data)
						}
					})
				}
				var n struct{ Projects struct{ TotalCount int } }
				s.GraphQL(t, key, `{ projects { totalCount } }`, nil).DataInto(t, &n)
				if n.Projects.TotalCount != 2 {
					t.Errorf("failed mutations changed the count to %d", n.Projects.TotalCount)
				}
			})
		})
	}
}

func TestOperations(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := testenv.StartServer(t, p.Config)

			var health map[string]any
			s.Get(t, "", "/healthz").ExpectStatus(t, http.StatusOK).JSON(t, &health)
			if health["status"] != "ok" {
				t.Errorf("healthz %v", health)
			}

			var ready struct {
				Status string
				Checks map[string]string
			}
			s.Get(t, "", "/readyz").ExpectStatus(t, http.StatusOK).JSON(t, &ready)
			want := map[string]string{"database": "ok", "redis": "ok", "blobs": "ok"}
			if ready.Status != "ok" || len(ready.Checks) != len(want) {
				t.Errorf("readyz %+v", ready)
			}
			for k, v := range want {
				if ready.Checks[k] != v {
					t.Errorf("readyz check %s = %q, want %q", k, ready.Checks[k], v)
				}
			}

			res := s.Get(t, "", "/metrics").ExpectStatus(t, http.StatusOK)
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("metrics Content-Type %q", ct)
			}
			body := string(res.Body)
			for _, want := range []string{
				"plangraph_http_requests_total",
				`route="GET /healthz"`,
				"plangraph_http_request_duration_seconds",
				"plangraph_queue_tasks",
				`queue="low"`,
			} {
				if !strings.Contains(body, want) {
					t.Errorf("metrics lack %s", want)
				}
			}
		})
	}
}

func TestQueuePurgesExpiredIdempotencyRecords(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := testenv.StartServer(t, p.Config)
			_, rec := s.CreateKeyRecord(t, "acme")
			ctx := tenant.System(context.Background())
			db := s.App.Store.Client
			mk := func(key string, expires time.Time) string {
				r, err := db.IdempotencyRecord.Create().SetOrgID(rec.OrgID).SetKey(key).
					SetMethod(http.MethodPost).SetPath("/v1/projects").SetRequestHash("hash-" + key).
					SetExpiresAt(expires).Save(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return r.ID
			}
			expired := mk("expired", time.Now().UTC().Add(-time.Hour))
			live := mk("live", time.Now().UTC().Add(24*time.Hour))

			if err := s.App.Queue.Enqueue(context.Background(), jobs.NewPurgeIdempotencyTask()); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(15 * time.Second)
			for {
				left, err := db.IdempotencyRecord.Query().IDs(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Contains(left, expired) {
					if !slices.Equal(left, []string{live}) {
						t.Errorf("after the purge %v remain, want only the unexpired %s", left, live)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the worker did not purge the expired record within 15s (records: %v)", left)
				}
				time.Sleep(100 * time.Millisecond)
			}
			n, err := db.IdempotencyRecord.Query().Where(idempotencyrecord.Key("live")).Count(ctx)
			if err != nil || n != 1 {
				t.Errorf("unexpired record: count %d, err %v", n, err)
			}
		})
	}
}

// Rows created in the same microsecond (a webhook event fanned out to
// deliveries in one step) are listed in the same order by REST and by
// GraphQL's default order: newest first, ties by id, descending. GraphQL's
// pagination broke ties by id ascending, and the webhook delivery log came
// out in a different order from its REST list now and then.
func TestListsBreakTiesAlike(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := testenv.StartServer(t, p.Config)
			key, rec := s.CreateKeyRecord(t, "acme")
			ctx := tenant.System(context.Background())
			at := time.Now().UTC().Truncate(time.Microsecond)
			for i := range 4 {
				if _, err := s.App.Store.Client.Project.Create().SetOrgID(rec.OrgID).SetName(fmt.Sprintf("Tie %d", i)).SetCreatedAt(at).Save(ctx); err != nil {
					t.Fatal(err)
				}
			}
			rest := list(t, s, key, "/v1/projects?limit=100").ids()
			g := s.GraphQL(t, key, `{ projects(first: 100) { edges { node { id } } } }`, nil)
			var gq struct {
				Projects struct {
					Edges []struct{ Node struct{ ID string } }
				}
			}
			g.DataInto(t, &gq)
			var gids []string
			for _, e := range gq.Projects.Edges {
				gids = append(gids, e.Node.ID)
			}
			if len(rest) != 4 || !slices.Equal(gids, rest) {
				t.Errorf("GraphQL %v, REST %v", gids, rest)
			}
		})
	}
}
