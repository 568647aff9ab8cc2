// Package search is the search and ask operations over a project's index
// (internal/search/index): POST /v1/projects/{id}/search and .../ask and
// the GraphQL search and ask queries. Search runs several retrievers —
// lexical (full text on the query's words, BM25), vocabulary (the same on
// the abbreviations and synonyms of the words, internal/search's
// vocabulary), structure (sheet numbers, disciplines, block types and
// legend labels the query names), and on PostgreSQL with pg_trgm trigram
// similarity for words the full-text index lacks (OCR damage), and with an
// operator's embeddings endpoint semantic (cosine of vectors, semantic.go) — and fuses
// their rankings by reciprocal rank fusion. Ask answers counts, sheet lists
// and lookups from the same rows without a language model, citing the rows
// that hold the answer.
package search

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/schema"
	"github.com/plangraph/plangraph/internal/apierr"
	textsearch "github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/geom"
)

// Limits of the requests.
const (
	// MaxQuery is the longest query or question, in characters.
	MaxQuery = 500
	// DefaultLimit and MaxLimit bound a search's results.
	DefaultLimit, MaxLimit = 20, 100
	// candidates each full-text retriever reads before scoring
	candidates = 300
)

// Retriever names, as _meta.retrievers and results' why list them.
const (
	Lexical    = "lexical"
	Vocabulary = "vocabulary"
	Structure  = "structure"
	// Trigram is pg_trgm word similarity; its results' why is lexical.
	Trigram = "trigram"
)

// Service is the search and ask operations.
type Service struct {
	*base.Deps
	once sync.Once
	idx  *index.Index
}

// Index is the search index over the service's database and blobs.
func (s *Service) Index() *index.Index {
	s.once.Do(func() { s.idx = index.New(s.DB, s.Blobs) })
	return s.idx
}

// Filters narrow a search.
type Filters struct {
	DrawingID   string `json:"drawing_id,omitempty"`
	Discipline  string `json:"discipline,omitempty"`
	SheetNumber string `json:"sheet_number,omitempty"`
	BlockType   string `json:"block_type,omitempty"`
}

// Input is a search request: a text query, a picture (ImageURL or
// Region: visual search, see visual.go), or both.
type Input struct {
	Query    string   `json:"query"`
	Types    []string `json:"types,omitempty"`
	Filters  *Filters `json:"filters,omitempty"`
	Limit    int      `json:"limit,omitempty"`
	ImageURL *string  `json:"image_url,omitempty"`
	Region   *Region  `json:"region,omitempty"`
}

// Hit is one search result. Bounds are sheet pixels; Count is the number
// of instances of a symbol result (a legend entry on one block).
type Hit struct {
	SourceType  string    `json:"source_type"`
	SourceID    string    `json:"source_id"`
	SheetID     string    `json:"sheet_id"`
	DrawingID   string    `json:"drawing_id"`
	BlockID     *string   `json:"block_id"`
	SheetNumber string    `json:"sheet_number"`
	Label       string    `json:"label"`
	Snippet     string    `json:"snippet"`
	Bounds      *geom.Box `json:"bounds"`
	Count       *int      `json:"count,omitempty"`
	Score       float64   `json:"score"`
	Why         []string  `json:"why"`
}

// Meta says how a search ran: the retrievers used, whether semantic
// vectors were compared (an embeddings endpoint is configured), whether a picture was compared (visual), how many rows the
// project has indexed, the vocabulary concepts the query was expanded
// with, why a result is empty, and notes on what a search left out.
type Meta struct {
	Retrievers []string `json:"retrievers"`
	Semantic   bool     `json:"semantic"`
	Visual     bool     `json:"visual"`
	Indexed    int      `json:"indexed"`
	Expanded   []string `json:"expanded"`
	Reason     string   `json:"reason,omitempty"`
	Notes      []string `json:"notes,omitempty"`
}

// Result is a search's answer.
type Result struct {
	Hits []Hit `json:"data"`
	Meta Meta  `json:"_meta"`
}

// checkProject fails with not-found unless the project is the caller's.
func (s *Service) checkProject(ctx context.Context, id string) error {
	_, err := base.Get(ctx, "project", id, s.DB.Project.Get)
	return err
}

func (s *Service) checkDrawing(ctx context.Context, field, projectID, id string) error {
	ok, err := s.DB.Drawing.Query().Where(drawing.ID(id), drawing.ProjectID(projectID)).Exist(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apierr.Invalid(field, "is not a drawing of this project")
	}
	return nil
}

func checkText(field, v string) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return "", apierr.Invalid(field, "is required")
	case !utf8.ValidString(v):
		return "", apierr.Invalid(field, "is not valid UTF-8")
	case utf8.RuneCountInString(v) > MaxQuery:
		return "", apierr.Invalid(field, fmt.Sprintf("is longer than %d characters", MaxQuery))
	}
	return v, nil
}

// bounded gives a count left out (0) its default and checks it lies in
// 1..most (a 400 naming field otherwise).
func bounded(field string, v *int, def, most int) error {
	if *v == 0 {
		*v = def
	}
	if *v < 1 || *v > most {
		return apierr.Invalid(field, fmt.Sprintf("must be 1–%d", most))
	}
	return nil
}

// Search runs a search over one project.
func (s *Service) Search(ctx context.Context, projectID string, in Input) (*Result, error) {
	visual := in.ImageURL != nil || in.Region != nil
	q := strings.TrimSpace(in.Query)
	if !visual || q != "" {
		var err error
		if q, err = checkText("query", in.Query); err != nil {
			return nil, err
		}
	}
	if err := bounded("limit", &in.Limit, DefaultLimit, MaxLimit); err != nil {
		return nil, err
	}
	for _, t := range in.Types {
		if !slices.Contains(index.Types, t) {
			return nil, apierr.Invalid("types", fmt.Sprintf("unknown type %q (one of %s)", t, strings.Join(index.Types, ", ")))
		}
	}
	if err := s.checkProject(ctx, projectID); err != nil {
		return nil, err
	}
	sc := index.Scope{ProjectID: projectID, Types: in.Types}
	if f := in.Filters; f != nil {
		if f.DrawingID != "" {
			if err := s.checkDrawing(ctx, "filters.drawing_id", projectID, f.DrawingID); err != nil {
				return nil, err
			}
		}
		if f.BlockType != "" && !slices.Contains(blockTypes, f.BlockType) {
			return nil, apierr.Invalid("filters.block_type", "unknown block type (one of "+strings.Join(blockTypes, ", ")+")")
		}
		if f.Discipline != "" && !slices.Contains(sheetmeta.Disciplines(), f.Discipline) {
			return nil, apierr.Invalid("filters.discipline", "unknown discipline (one of "+strings.Join(sheetmeta.Disciplines(), ", ")+")")
		}
		sc.DrawingID, sc.Discipline, sc.BlockType = f.DrawingID, f.Discipline, f.BlockType
		sc.SheetNumberNorm = sheetmeta.Normalize(f.SheetNumber)
	}
	var vq *visualQuery
	if visual {
		var err error
		if vq, err = s.visualInput(ctx, projectID, in); err != nil {
			return nil, err
		}
	}
	return s.search(ctx, sc, q, vq, in.Limit)
}

// blockTypes are the data model's block types.
var blockTypes = schema.BlockTypes

func docKey(d index.Doc) string { return d.SourceType + "|" + d.SourceID + "|" + d.BlockID }

// search runs the retrievers on a checked request: the text retrievers
// when there is a query, the visual one when there is a picture (vq).
func (s *Service) search(ctx context.Context, sc index.Scope, q string, vq *visualQuery, limit int) (*Result, error) {
	x := s.Index()
	res := &Result{Hits: []Hit{}, Meta: Meta{Retrievers: []string{}, Expanded: []string{}, Visual: vq != nil}}
	n, err := x.Count(ctx, index.Scope{ProjectID: sc.ProjectID})
	if err != nil {
		return nil, err
	}
	res.Meta.Indexed = n
	if n == 0 {
		res.Meta.Reason = "nothing is indexed in this project yet: its drawings are indexed when their ingestion (and parse) completes"
		return res, nil
	}
	docs := map[string]index.Doc{}
	var rankings []textsearch.Ranked
	mark := map[string]bool{}
	var vis *visualRanking
	if vq != nil {
		if vis, err = s.visual(ctx, sc, vq, docs); err != nil {
			return nil, err
		}
		res.Meta.Retrievers = append(res.Meta.Retrievers, Visual)
		res.Meta.Notes = vis.notes
		rankings = append(rankings, vis.ranked)
	}
	if q != "" {
		if reason, err := s.textRankings(ctx, sc, q, n, docs, mark, &rankings, &res.Meta); err != nil {
			return nil, err
		} else if reason != "" && vq == nil {
			res.Meta.Reason = reason
			return res, nil
		}
		sem, ok, err := s.semanticRanking(ctx, sc, q, docs, &res.Meta)
		if err != nil {
			return nil, err
		}
		if ok {
			res.Meta.Semantic = true
			res.Meta.Retrievers = append(res.Meta.Retrievers, Semantic)
			rankings = append(rankings, sem)
		}
	}
	fused := textsearch.Fuse(rankings, func(a, b string) bool { return newer(docs[a], docs[b]) })
	for _, f := range fused {
		if len(res.Hits) == limit {
			break
		}
		h := hitOf(docs[f.Key], f, mark)
		if c, ok := vis.confidenceOf(f.Key); ok {
			h.Snippet += fmt.Sprintf(" — the image shows this symbol (matcher confidence %.2f)", c)
		}
		res.Hits = append(res.Hits, h)
	}
	if len(res.Hits) == 0 {
		res.Meta.Reason = "no indexed sheet, block, legend entry, symbol or words match the query"
		if vq != nil {
			res.Meta.Reason = "no legend symbol of the project matches the image"
			if q != "" {
				res.Meta.Reason = "neither the query nor the image matches anything indexed"
			}
		}
	}
	return res, nil
}

// textRankings runs the text retrievers (lexical, vocabulary, structure,
// trigram) on q, adding their rankings and retriever names; reason says
// why none could run.
func (s *Service) textRankings(ctx context.Context, sc index.Scope, q string, n int, docs map[string]index.Doc, mark map[string]bool, rankings *[]textsearch.Ranked, meta *Meta) (reason string, err error) {
	x := s.Index()
	toks := uniq(textsearch.Tokens(q))
	if len(toks) == 0 {
		return "the query has no words or numbers to search for", nil
	}
	run := func(name string, groups [][]string) ([]string, error) {
		var phrases []string
		for _, g := range groups {
			phrases = append(phrases, g...)
			for _, f := range g {
				for _, t := range strings.Fields(f) {
					mark[t] = true
				}
			}
		}
		found, err := x.Match(ctx, sc, phrases, candidates)
		if err != nil {
			return nil, err
		}
		r := rankBM25(found, n, groups, docs)
		r.Retriever = name
		meta.Retrievers = append(meta.Retrievers, name)
		*rankings = append(*rankings, r)
		return r.Keys, nil
	}
	var groups [][]string
	for _, t := range toks {
		groups = append(groups, []string{t})
	}
	lex, err := run(Lexical, groups)
	if err != nil {
		return "", err
	}
	var vocab [][]string
	for _, m := range textsearch.Default.Find(toks) {
		own := strings.Join(toks[m.Start:m.End], " ")
		var alt []string
		for _, f := range m.Forms {
			if f != own {
				alt = append(alt, f)
			}
		}
		if len(alt) > 0 {
			vocab = append(vocab, alt)
			meta.Expanded = append(meta.Expanded, own+" → "+strings.Join(alt, ", "))
		}
	}
	if len(vocab) > 0 {
		if _, err := run(Vocabulary, vocab); err != nil {
			return "", err
		}
	}
	st, err := s.structure(ctx, sc, q, toks, lex, docs)
	if err != nil {
		return "", err
	}
	meta.Retrievers = append(meta.Retrievers, Structure)
	*rankings = append(*rankings, st)
	if missing := absent(toks, lex, docs); len(missing) > 0 {
		sim, ok, err := x.Similar(ctx, sc, strings.Join(missing, " "), 50)
		if err != nil {
			return "", err
		}
		if ok {
			var keys []string
			for _, d := range sim {
				docs[docKey(d)] = d
				keys = append(keys, docKey(d))
			}
			meta.Retrievers = append(meta.Retrievers, Trigram)
			*rankings = append(*rankings, textsearch.Ranked{Retriever: Trigram, Keys: keys})
			for _, t := range missing {
				mark[t] = true
			}
		}
	}
	return "", nil
}

// newer orders equal-scored results: the newest drawing (revision) first
// (ids sort by creation time), then sheets before blocks, legend entries,
// symbols and words, then by key.
func newer(a, b index.Doc) bool {
	if a.DrawingID != b.DrawingID {
		return a.DrawingID > b.DrawingID
	}
	ta, tb := slices.Index(index.Types, a.SourceType), slices.Index(index.Types, b.SourceType)
	if ta != tb {
		return ta < tb
	}
	return docKey(a) < docKey(b)
}

// rankBM25 orders found by BM25 over groups (n: the project's row count),
// equal scores sharing a rank, and records them in docs.
func rankBM25(found []index.Doc, n int, groups [][]string, docs map[string]index.Doc) textsearch.Ranked {
	terms := make([][]string, len(found))
	for i, d := range found {
		terms[i] = strings.Fields(d.Terms)
		docs[docKey(d)] = d
	}
	score := textsearch.BM25(terms, n, groups)
	idx := make([]int, len(found))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		case newer(found[a], found[b]):
			return -1
		case newer(found[b], found[a]):
			return 1
		}
		return 0
	})
	r := textsearch.Ranked{Keys: make([]string, 0, len(found))}
	for n, i := range idx {
		if score[i] <= 0 {
			continue
		}
		rank := len(r.Keys) + 1
		if n > 0 && len(r.Ranks) > 0 && score[i] == score[idx[n-1]] {
			rank = r.Ranks[len(r.Ranks)-1] // equal scores share a rank
		}
		r.Keys, r.Ranks = append(r.Keys, docKey(found[i])), append(r.Ranks, rank)
	}
	return r
}

// absent lists the query tokens that no lexical candidate contains.
func absent(toks, keys []string, docs map[string]index.Doc) []string {
	have := map[string]bool{}
	for _, k := range keys {
		for _, t := range strings.Fields(docs[k].Terms) {
			have[t] = true
		}
	}
	var out []string
	for _, t := range toks {
		if !have[t] && len([]rune(t)) >= 3 {
			out = append(out, t)
		}
	}
	return out
}

func uniq(toks []string) []string {
	var out []string
	for _, t := range toks {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func hitOf(d index.Doc, f textsearch.Fused, mark map[string]bool) Hit {
	h := Hit{SourceType: d.SourceType, SourceID: d.SourceID, SheetID: d.SheetID, DrawingID: d.DrawingID,
		SheetNumber: d.SheetNumber, Label: d.Label, Bounds: d.Bounds, Score: f.Score, Snippet: snippetOf(d, mark)}
	if d.BlockID != "" {
		b := d.BlockID
		h.BlockID = &b
	}
	if d.SourceType == index.TypeSymbol {
		c := d.Count
		h.Count = &c
	}
	for _, r := range f.Retrievers {
		w := r
		if r == Trigram {
			w = Lexical
		}
		if !slices.Contains(h.Why, w) {
			h.Why = append(h.Why, w)
		}
	}
	return h
}

// snippetOf is a row's text with the matched words marked: its label and
// body, and where it is (a block's or symbol's block title, a word line's
// sheet).
func snippetOf(d index.Doc, mark map[string]bool) string {
	t := d.Label
	if d.Body != "" {
		t += " — " + d.Body
	}
	switch d.SourceType {
	case index.TypeSymbol:
		t += fmt.Sprintf(" — %d on %s", d.Count, where(d))
	case index.TypeLegendEntry, index.TypeWord:
		t += " — " + where(d)
	}
	return textsearch.Snippet(t, mark, 240)
}

// where names a row's place: "sheet E-101, block FIRST FLOOR POWER PLAN".
func where(d index.Doc) string {
	s := "sheet " + d.SheetNumber
	if d.SheetNumber == "" {
		s = "sheet " + d.SheetTitle
	}
	if d.BlockTitle != "" {
		s += ", " + d.BlockTitle
	}
	return s
}
