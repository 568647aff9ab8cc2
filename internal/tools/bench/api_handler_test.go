package bench

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/server"
	"github.com/plangraph/plangraph/internal/testenv"
)

// BenchmarkListHandler serves one page of 100 sheets through the whole
// handler (auth, rate limiter, middleware, REST or GraphQL) in process, with
// no network and no TLS, so a CPU profile shows the per-request work of each
// layer: go test ./internal/tools/bench -run '^$' -bench ListHandler -cpuprofile cpu.out
func BenchmarkListHandler(b *testing.B) {
	for _, p := range testenv.Profiles(b) {
		b.Run(p.Name, func(b *testing.B) {
			cfg := p.Config
			cfg.RateManagement, cfg.BurstManagement = 1_000_000, 1_000_000
			app, err := server.Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				b.Fatal(err)
			}
			defer app.Close()
			ctx := context.Background()
			key, _, err := auth.CreateKey(ctx, app.Store.Client, "bench", "bench")
			if err != nil {
				b.Fatal(err)
			}
			projectID, err := seedSheets(ctx, app.Store.Client, key, 300)
			if err != nil {
				b.Fatal(err)
			}
			h := app.Handler()
			gqlBody, _ := json.Marshal(map[string]any{
				"query": `query($p: String!) { sheets(first: 100, where: {projectID: $p}, orderBy: [{field: CREATED_AT, direction: DESC}]) {
			edges { node { id drawingID pageNumber sheetNumber title discipline width height dpi uri createdAt drawing { id name status createdAt } } }
			pageInfo { hasNextPage endCursor } } }`,
				"variables": map[string]any{"p": projectID},
			})
			targets := map[string]func() *http.Request{
				"REST": func() *http.Request {
					r := httptest.NewRequest("GET", "/v1/sheets?project_id="+url.QueryEscape(projectID)+"&limit=100&expand=drawing", nil)
					r.Header.Set("Authorization", "Bearer "+key)
					return r
				},
				"GraphQL": func() *http.Request {
					r := httptest.NewRequest("POST", "/graphql", strings.NewReader(string(gqlBody)))
					r.Header.Set("Authorization", "Bearer "+key)
					r.Header.Set("Content-Type", "application/json")
					return r
				},
			}
			for _, name := range []string{"REST", "GraphQL"} {
				mk := targets[name]
				b.Run(name, func(b *testing.B) {
					w := httptest.NewRecorder()
					h.ServeHTTP(w, mk())
					if w.Code != 200 || strings.Contains(w.Body.String(), `"errors"`) {
						b.Fatalf("%s: %d %s", name, w.Code, w.Body.String()[:min(400, w.Body.Len())])
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						w := httptest.NewRecorder()
						h.ServeHTTP(w, mk())
					}
				})
			}
		})
	}
}
