package server_test

// Semantic search end to end: a server configured with an embeddings
// endpoint (--embeddings-url, here a local fake) has its worker embed the
// index on its schedule, and REST and GraphQL search then find a legend
// entry by a word the drawings never use.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/testenv"
)

// conceptEmbeddings embeds a text as two dimensions: how many of its words
// name ventilation (the drawings' "EXHAUST FAN", and "ventilator", a word
// they lack), and how many do not.
func conceptEmbeddings(w http.ResponseWriter, r *http.Request) {
	var req struct{ Input []string }
	if json.NewDecoder(r.Body).Decode(&req) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	data := []map[string]any{}
	for i, t := range req.Input {
		v := []float64{0, 0.1}
		for _, f := range strings.Fields(strings.ToLower(t)) {
			switch strings.Trim(f, ".,:—") {
			case "exhaust", "fan", "ventilator":
				v[0]++
			default:
				v[1]++
			}
		}
		data = append(data, map[string]any{"index": i, "embedding": v})
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
}

func TestSemanticSearchAPI(t *testing.T) {
	fake := httptest.NewServer(http.HandlerFunc(conceptEmbeddings))
	defer fake.Close()
	p := testenv.Profiles(t)[0] // the embedded profile (the service test runs both databases)
	p.Config.EmbeddingsURL, p.Config.EmbeddingsModel = fake.URL+"/v1", "concepts"
	s := startUnlimited(t, p)
	key, rec := s.CreateKeyRecord(t, "acme")
	prj := seedSearch(t, s, key, rec.OrgID)

	var sr struct {
		Data []struct {
			SourceType string   `json:"source_type"`
			Label      string   `json:"label"`
			Why        []string `json:"why"`
		} `json:"data"`
		Meta struct {
			Semantic   bool     `json:"semantic"`
			Retrievers []string `json:"retrievers"`
			Notes      []string `json:"notes"`
		} `json:"_meta"`
	}
	// the worker embeds the rows within its schedule (every 10 s)
	deadline := time.Now().Add(45 * time.Second)
	for {
		sr.Meta.Notes = nil // (absent from an answer without notes)
		postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"query": "ventilator"}).ExpectStatus(t, http.StatusOK).JSON(t, &sr)
		if !sr.Meta.Semantic {
			t.Fatalf("semantic search off with an endpoint: %+v", sr.Meta)
		}
		if len(sr.Meta.Notes) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the index was not embedded in 45 s: %v", sr.Meta.Notes)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if len(sr.Data) == 0 || sr.Data[0].Label != "EF" || sr.Data[0].Why[0] != "semantic" {
		t.Fatalf("search ventilator: %+v", sr)
	}
	g := s.GraphQL(t, key, `query($p: ID!) { search(projectID: $p, input: {query: "ventilator"}) { hits { label why } meta { semantic retrievers } } }`,
		map[string]any{"p": prj})
	if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"semantic":true`) || !strings.Contains(string(g.Data), `"label":"EF"`) {
		t.Errorf("graphql: %s %+v", g.Data, g.Errors)
	}
}
