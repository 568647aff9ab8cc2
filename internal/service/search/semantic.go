package search

import (
	"context"
	"fmt"
	"time"

	textsearch "github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/internal/search/index"
)

// Semantic is the retriever of rows by meaning: the cosine of the query's
// vector with the rows' (an operator's embeddings endpoint, --embeddings-url).
const Semantic = "semantic"

const (
	// semanticCandidates is how many nearest rows the semantic retriever reads.
	semanticCandidates = 50
	// semanticBand keeps rows within this cosine of the nearest one: a
	// model's cosines sit in a band of their own (unrelated texts are not
	// near 0), so the cut is relative to the best match.
	semanticBand = 0.15
	// semanticTimeout bounds the query's embedding.
	semanticTimeout = 10 * time.Second
)

// semanticRanking ranks the scope's rows by their vectors' cosine to q's.
// Without an endpoint it returns ok false (search is lexical, vocabulary
// and structure, _meta.semantic false). A failing endpoint, or rows not
// embedded yet, are said in meta's notes; the other retrievers' results
// stand.
func (s *Service) semanticRanking(ctx context.Context, sc index.Scope, q string, docs map[string]index.Doc, meta *Meta) (textsearch.Ranked, bool, error) {
	if s.Embedder == nil {
		return textsearch.Ranked{}, false, nil
	}
	ectx, cancel := context.WithTimeout(ctx, semanticTimeout)
	vecs, err := s.Embedder.Embed(ectx, []string{q})
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return textsearch.Ranked{}, false, ctx.Err()
		}
		if s.Log != nil {
			s.Log.Warn("semantic search: embedding the query failed", "err", err)
		}
		meta.Notes = append(meta.Notes, "semantic search was skipped: the embeddings endpoint did not answer ("+err.Error()+")")
		return textsearch.Ranked{}, false, nil
	}
	near, missing, err := s.Index().Nearest(ctx, sc, s.Embedder.Name(), vecs[0], semanticCandidates)
	if err != nil {
		return textsearch.Ranked{}, false, err
	}
	if missing > 0 {
		meta.Notes = append(meta.Notes, fmt.Sprintf("%d indexed rows in scope are not embedded yet: semantic search does not see them (workers embed new rows within a minute of their indexing)", missing))
	}
	r := textsearch.Ranked{Retriever: Semantic}
	for _, n := range near {
		if n.Cosine <= 0 || n.Cosine < near[0].Cosine-semanticBand {
			break
		}
		k := docKey(n.Doc)
		if _, seen := docs[k]; !seen {
			docs[k] = n.Doc
		}
		r.Keys = append(r.Keys, k)
	}
	return r, true, nil
}
