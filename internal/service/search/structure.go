package search

import (
	"context"
	"regexp"
	"slices"
	"strings"

	textsearch "github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/sheetmeta"
)

// reSheetNumber finds sheet numbers in free text: one to three letters, an
// optional separator, digits with an optional decimal part and suffix
// letter (A-101, A101, A 101, FP-2.01, E201A).
var reSheetNumber = regexp.MustCompile(`(?i)\b([a-z]{1,3})[ .-]?(\d{1,4}(?:\.\d{1,3})?[a-z]?)\b`)

// structure is the structure retriever: the rows the query names by the
// drawings' structure rather than by their words — sheets by number
// (A-101 = A101 = A 101), legend entries and symbols whose label is a
// query word (EF, GFI), sheets of a discipline the query names, and among
// the lexical results the blocks of a type the query names (schedule,
// legend, detail).
//
// Rows with the same text (a sheet and its revision) share a rank.
func (s *Service) structure(ctx context.Context, sc index.Scope, q string, toks, lex []string, docs map[string]index.Doc) (textsearch.Ranked, error) {
	r := textsearch.Ranked{Retriever: Structure}
	same := map[string]int{} // rank by type and text
	add := func(ds []index.Doc) {
		for _, d := range ds {
			k := docKey(d)
			if _, ok := docs[k]; !ok {
				docs[k] = d
			}
			if slices.Contains(r.Keys, k) {
				continue
			}
			sig := d.SourceType + "\x00" + d.Label + "\x00" + d.Body
			rank, ok := same[sig]
			if !ok {
				rank = len(r.Keys) + 1
				same[sig] = rank
			}
			r.Keys, r.Ranks = append(r.Keys, k), append(r.Ranks, rank)
		}
	}
	x := s.Index()
	for _, m := range reSheetNumber.FindAllStringSubmatch(q, 4) {
		n := sheetmeta.Normalize(m[1] + m[2])
		if sc.SheetNumberNorm != "" && sc.SheetNumberNorm != n {
			continue
		}
		on := sc
		on.SheetNumberNorm = n
		ds, err := x.Docs(ctx, on, 20)
		if err != nil {
			return r, err
		}
		add(ds)
	}
	for _, k := range lex {
		d := docs[k]
		if d.SourceType != index.TypeLegendEntry && d.SourceType != index.TypeSymbol {
			continue
		}
		if l := strings.Join(textsearch.Tokens(d.Label), " "); l != "" && (slices.Contains(toks, l) || l == strings.Join(toks, " ")) {
			add([]index.Doc{d})
		}
	}
	canon := " " + strings.Join(textsearch.Default.Canonical(toks), " ") + " "
	if len(sc.Types) == 0 || slices.Contains(sc.Types, index.TypeSheet) {
		for _, disc := range sheetmeta.Disciplines() {
			if sc.Discipline != "" && sc.Discipline != disc {
				continue
			}
			if strings.Contains(canon, " "+strings.ReplaceAll(disc, "_", " ")+" ") {
				on := sc
				on.Discipline, on.Types = disc, []string{index.TypeSheet}
				ds, err := x.Docs(ctx, on, 100)
				if err != nil {
					return r, err
				}
				add(ds)
			}
		}
	}
	for _, bt := range blockTypes {
		w := " " + strings.Join(textsearch.Tokens(index.BlockTypeWords(bt)), " ") + " "
		if !strings.Contains(canon, w) {
			continue
		}
		for _, k := range lex {
			if d := docs[k]; d.BlockType == bt && (d.SourceType == index.TypeBlock || d.SourceType == index.TypeWord) {
				add([]index.Doc{d})
			}
		}
	}
	return r, nil
}
