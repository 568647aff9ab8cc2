package index

import (
	"container/heap"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/internal/search/embed"
	"github.com/plangraph/plangraph/internal/tenant"
)

// Semantic vectors (optional, --embeddings-url). Every row carries the hash
// of the text a model would embed for it (EmbedText, column embed_hash,
// written with the row, endpoint or not); search_embeddings keeps one
// vector per organization, model and text hash, so a rebuilt sheet whose
// texts did not change keeps its vectors and equal texts are embedded once.
// EmbedPending (a worker's periodic task) embeds the texts that have none;
// Nearest ranks the rows of a scope by cosine to a query's vector, exactly
// (in Go, streaming the scope's vectors).

// EmbedText is the text embedded for a row: what it says, without the
// sheet around it (its place is the row's, not the vector's).
func EmbedText(d Doc) string {
	switch d.SourceType {
	case TypeSheet:
		return strings.TrimSpace("Sheet " + d.Label + ". " + d.Body)
	case TypeBlock:
		return strings.TrimSpace(BlockTypeWords(d.BlockType) + ": " + d.Label + ". " + strings.TrimPrefix(d.Body, d.BlockType))
	case TypeLegendEntry, TypeSymbol:
		if d.Body == "" || strings.EqualFold(d.Body, d.Label) {
			return "Symbol: " + d.Label
		}
		return "Symbol: " + d.Label + " — " + d.Body
	case TypeChange:
		return strings.TrimSpace(d.Label + ". " + kindWords(d.Body))
	}
	return strings.TrimSpace(d.Label + " " + d.Body)
}

// EmbedHash is the hash of a row's EmbedText ("" for a row with no text).
func EmbedHash(d Doc) string {
	t := embed.Clip(EmbedText(d))
	if t == "" {
		return ""
	}
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:16])
}

// pendingBatch is how many texts one pass of EmbedPending reads.
const pendingBatch = embed.Batch

// EmbedPending embeds, with c, the texts of every organization's rows that
// have no vector of c's model yet, a batch at a time, until none is left,
// ctx ends or the endpoint fails. It returns how many texts it embedded.
// Two workers running it at once may embed a text twice; the second
// write is dropped.
func (x *Index) EmbedPending(ctx context.Context, c *embed.Client) (int, error) {
	ctx = tenant.System(ctx)
	model := c.Name()
	done := 0
	for ctx.Err() == nil {
		docs, err := x.pending(ctx, model, pendingBatch)
		if err != nil || len(docs) == 0 {
			return done, err
		}
		texts := make([]string, len(docs))
		for i, d := range docs {
			texts[i] = embed.Clip(EmbedText(d.Doc))
		}
		vecs, err := c.Embed(ctx, texts)
		if err != nil {
			return done, err
		}
		if err := x.storeVectors(ctx, model, docs, vecs); err != nil {
			return done, err
		}
		done += len(docs)
	}
	return done, ctx.Err()
}

type orgDoc struct {
	Doc
	org, hash string
}

// pending reads up to n rows (one per organization and text) whose text
// has no vector of model.
func (x *Index) pending(ctx context.Context, model string, n int) ([]orgDoc, error) {
	rows, err := x.DB.QueryContext(ctx, x.rebind(ctx, `SELECT d.org_id, d.embed_hash, MIN(d.source_type), MIN(d.block_type),
		MIN(d.label), MIN(d.body) FROM search_docs d
		WHERE d.embed_hash <> '' AND NOT EXISTS (SELECT 1 FROM search_embeddings e
			WHERE e.org_id = d.org_id AND e.model = ? AND e.hash = d.embed_hash)
		GROUP BY d.org_id, d.embed_hash LIMIT ?`), model, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []orgDoc
	for rows.Next() {
		var d orgDoc
		if err := rows.Scan(&d.org, &d.hash, &d.SourceType, &d.BlockType, &d.Label, &d.Body); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

func (x *Index) storeVectors(ctx context.Context, model string, docs []orgDoc, vecs [][]float32) error {
	var args []any
	for i, d := range docs {
		args = append(args, d.org, model, d.hash, len(vecs[i]), embed.Encode(vecs[i]))
	}
	q := `INSERT INTO search_embeddings (org_id, model, hash, dims, vec) VALUES ` +
		strings.TrimSuffix(strings.Repeat("(?,?,?,?,?),", len(docs)), ",") + ` ON CONFLICT DO NOTHING`
	if _, err := x.DB.ExecContext(ctx, x.rebind(ctx, q), args...); err != nil {
		return fmt.Errorf("search index: storing vectors: %w", err)
	}
	return nil
}

// PruneVectors deletes vectors of other models than model and vectors no
// row of their organization uses any more (deleted sheets and projects,
// changed texts). It returns how many it deleted.
func (x *Index) PruneVectors(ctx context.Context, model string) (int64, error) {
	ctx = tenant.System(ctx)
	res, err := x.DB.ExecContext(ctx, x.rebind(ctx, `DELETE FROM search_embeddings WHERE model <> ? OR NOT EXISTS
		(SELECT 1 FROM search_docs d WHERE d.org_id = search_embeddings.org_id AND d.embed_hash = search_embeddings.hash)`), model)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Scored is a row with its cosine to a query.
type Scored struct {
	Doc
	Cosine float64
}

// Nearest returns up to k rows in scope with a vector of model, by cosine
// to q (a unit vector) from highest, and how many rows in scope have a text
// but no vector of model yet (not embedded: they cannot be found this way).
func (x *Index) Nearest(ctx context.Context, s Scope, model string, q []float32, k int) ([]Scored, int, error) {
	w, args, err := s.where(ctx)
	if err != nil {
		return nil, 0, err
	}
	all := append([]any{model}, args...)
	rows, err := x.DB.QueryContext(ctx, x.rebind(ctx, `SELECT d.seq, e.vec FROM search_docs d
		JOIN search_embeddings e ON e.org_id = d.org_id AND e.model = ? AND e.hash = d.embed_hash
		WHERE `+w), all...)
	if err != nil {
		return nil, 0, err
	}
	top := &scoredHeap{}
	for rows.Next() {
		var seq int64
		var vec []byte
		if err := rows.Scan(&seq, &vec); err != nil {
			rows.Close()
			return nil, 0, err
		}
		c, ok := embed.Dot(q, vec)
		if !ok {
			continue
		}
		if top.Len() < k {
			heap.Push(top, seqScore{seq, c})
		} else if c > (*top)[0].cos {
			(*top)[0] = seqScore{seq, c}
			heap.Fix(top, 0)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	missing, err := x.countNotEmbedded(ctx, w, args, model)
	if err != nil || top.Len() == 0 {
		return nil, missing, err
	}
	cos := map[int64]float64{}
	seqs := make([]any, 0, top.Len())
	for _, t := range *top {
		cos[t.seq] = t.cos
		seqs = append(seqs, t.seq)
	}
	docs, err := x.query(ctx, x.DB, `SELECT `+selectColumns+` FROM search_docs d WHERE d.seq IN (`+
		strings.TrimSuffix(strings.Repeat("?,", len(seqs)), ",")+`)`, seqs...)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Scored, len(docs))
	for i, d := range docs {
		out[i] = Scored{d, cos[d.Seq]}
	}
	sortScored(out)
	return out, missing, nil
}

func (x *Index) countNotEmbedded(ctx context.Context, w string, args []any, model string) (int, error) {
	return x.count(ctx, `SELECT COUNT(*) FROM search_docs d WHERE `+w+` AND d.embed_hash <> '' AND NOT EXISTS
		(SELECT 1 FROM search_embeddings e WHERE e.org_id = d.org_id AND e.model = ? AND e.hash = d.embed_hash)`,
		append(append([]any{}, args...), model)...)
}

// sortScored orders by cosine, then by seq (stable results).
func sortScored(s []Scored) {
	sort.Slice(s, func(i, j int) bool {
		return s[i].Cosine > s[j].Cosine || s[i].Cosine == s[j].Cosine && s[i].Seq < s[j].Seq
	})
}

type seqScore struct {
	seq int64
	cos float64
}

// scoredHeap is a min-heap on cosine (the k best so far, worst on top).
type scoredHeap []seqScore

func (h scoredHeap) Len() int { return len(h) }
func (h scoredHeap) Less(i, j int) bool {
	return h[i].cos < h[j].cos || h[i].cos == h[j].cos && h[i].seq > h[j].seq
}
func (h scoredHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *scoredHeap) Push(v any)   { *h = append(*h, v.(seqScore)) }
func (h *scoredHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}
