package search_test

// Semantic search with an operator's embeddings endpoint
// (base.Deps.Embedder): a local fake of an OpenAI-compatible embeddings API
// whose "model" puts a legend entry's words and a word the drawings never
// use in one dimension, so only the vectors can find the entry by that
// word. Checks the rows not embedded yet (notes), the worker's pass
// (EmbedPending: every text once, kept across rebuilds), the fused hit's
// why, a failing endpoint (lexical results stand), vectors pruned, and
// both database profiles.

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/plangraph/plangraph/internal/search/embed"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/testenv"
)

const fakeDims = 64

// fakeEmbedder embeds a text as the sum of its words' dimensions (a hash
// of the word), words of concept all in dimension 0, plus a small constant.
type fakeEmbedder struct {
	mu      sync.Mutex
	concept map[string]bool
	status  int
	texts   int
	calls   int
}

func (f *fakeEmbedder) vector(t string) []float64 {
	v := make([]float64, fakeDims)
	v[fakeDims-1] = 0.05
	for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if f.concept[w] {
			v[0] += 3
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[1+int(h.Sum32()%(fakeDims-2))]++
	}
	return v
}

func (f *fakeEmbedder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "fake-embed" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.status != 0 {
		w.WriteHeader(f.status)
		return
	}
	f.texts += len(req.Input)
	var data []any
	// answered in reverse: the client orders by index
	for i := len(req.Input) - 1; i >= 0; i-- {
		data = append(data, map[string]any{"index": i, "embedding": f.vector(req.Input[i])})
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
}

func TestSemanticSearch(t *testing.T) {
	set := genSet(t)
	// the concept: a legend entry's description, and a word no drawing has
	const unseen = "zyxwvut"
	var entry string
	for _, s := range set.Truth.Sheets {
		for _, b := range s.Blocks {
			for _, e := range b.Entries {
				if entry == "" && e.HasGraphic && len(strings.Fields(e.Description)) >= 2 {
					entry = e.Description
				}
			}
		}
	}
	if entry == "" {
		t.Fatal("the set has no legend entry with a description")
	}
	for _, p := range []struct{ name, url string }{{"embedded", ""}, {"postgres", testenv.Postgres(t)}} {
		t.Run(p.name, func(t *testing.T) {
			st, bucket := open(t, p.url)
			f := seed(t, st, bucket, orgA, set)
			fk := &fakeEmbedder{concept: map[string]bool{unseen: true}}
			for _, w := range strings.Fields(strings.ToLower(entry)) {
				fk.concept[strings.Trim(w, ",()")] = true
			}
			srv := httptest.NewServer(fk)
			defer srv.Close()
			q := search.Input{Query: unseen, Limit: 20}

			// no endpoint: no semantic retriever, nothing found by the word
			res, err := f.svc.Search(f.ctx, f.project, q)
			if err != nil {
				t.Fatal(err)
			}
			if res.Meta.Semantic || slices.Contains(res.Meta.Retrievers, search.Semantic) || len(res.Hits) != 0 {
				t.Fatalf("without an endpoint: %+v", res)
			}

			f.svc.Embedder = embed.New(srv.URL+"/v1", "fake-embed", "")
			defer func() { f.svc.Embedder = nil }()
			// nothing embedded yet: the notes say how much semantic search cannot see
			res, err = f.svc.Search(f.ctx, f.project, q)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := f.svc.Index().Count(f.ctx, index.Scope{ProjectID: f.project})
			if !res.Meta.Semantic || len(res.Hits) != 0 || !hasNote(res.Meta.Notes, "not embedded yet") {
				t.Fatalf("before embedding (%d rows): %+v", n, res.Meta)
			}

			// the worker's pass embeds every distinct text once
			x := f.svc.Index()
			sent := fk.texts
			done, err := x.EmbedPending(f.ctx, f.svc.Embedder)
			if err != nil || done == 0 || done > n || fk.texts-sent != done {
				t.Fatalf("embedded %d texts (%d sent) of %d rows: %v", done, fk.texts-sent, n, err)
			}
			if again, err := x.EmbedPending(f.ctx, f.svc.Embedder); again != 0 || err != nil {
				t.Errorf("a second pass embedded %d: %v", again, err)
			}
			// a rebuilt project keeps its vectors (its texts did not change)
			if err := x.RebuildProject(f.ctx, f.project); err != nil {
				t.Fatal(err)
			}
			if again, err := x.EmbedPending(f.ctx, f.svc.Embedder); again != 0 || err != nil {
				t.Errorf("after a rebuild a pass embedded %d: %v", again, err)
			}

			// the word the drawings never use finds the entry by meaning
			res, err = f.svc.Search(f.ctx, f.project, q)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Meta.Semantic || hasNote(res.Meta.Notes, "not embedded") || len(res.Hits) == 0 {
				t.Fatalf("after embedding: %+v", res)
			}
			top := res.Hits[0]
			if !strings.Contains(unmark(top.Snippet), entry) || !slices.Equal(top.Why, []string{search.Semantic}) {
				t.Errorf("first hit for %q: %+v, want the %q entry's text found by meaning", unseen, top, entry)
			}
			if !slices.ContainsFunc(res.Hits, func(h search.Hit) bool {
				return h.SourceType == "legend_entry" && strings.Contains(unmark(h.Snippet), entry)
			}) {
				t.Errorf("search %q: no legend entry %q in %+v", unseen, entry, res.Hits)
			}
			// with words the index has, lexical and semantic rank together
			res, err = f.svc.Search(f.ctx, f.project, search.Input{Query: strings.ToLower(entry), Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 || !slices.Contains(res.Hits[0].Why, search.Semantic) || !slices.Contains(res.Hits[0].Why, search.Lexical) {
				t.Errorf("search %q: %+v, want the first hit found by both", entry, res.Hits)
			}
			// scope: other source types and other organizations are not searched
			res, err = f.svc.Search(f.ctx, f.project, search.Input{Query: unseen, Types: []string{"sheet"}})
			if err != nil || len(res.Hits) == 0 || res.Hits[0].SourceType != "sheet" {
				t.Errorf("sheets only: %+v %v", res, err)
			}

			// a failing endpoint: the other retrievers answer, the notes say why
			fk.mu.Lock()
			fk.status = http.StatusServiceUnavailable
			fk.mu.Unlock()
			res, err = f.svc.Search(f.ctx, f.project, search.Input{Query: strings.ToLower(entry)})
			if err != nil || res.Meta.Semantic || len(res.Hits) == 0 || !hasNote(res.Meta.Notes, "embeddings endpoint did not answer") {
				t.Errorf("endpoint down: %+v %v", res, err)
			}

			// vectors of another model, or that no row uses, are pruned
			if k, err := x.PruneVectors(f.ctx, f.svc.Embedder.Name()); k != 0 || err != nil {
				t.Errorf("pruned %d vectors still in use: %v", k, err)
			}
			if k, err := x.PruneVectors(f.ctx, "another-model"); k != int64(done) || err != nil {
				t.Errorf("a change of model pruned %d of %d vectors: %v", k, done, err)
			}
			// with rows to embed and the endpoint down, a pass fails (and embeds nothing)
			if k, err := x.EmbedPending(f.ctx, f.svc.Embedder); err == nil || k != 0 {
				t.Errorf("a pass with the endpoint down: %d embedded, error %v", k, err)
			}
		})
	}
}

func hasNote(notes []string, part string) bool {
	return slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, part) })
}
