package bench

// Questions over a real set, asked through ask (scoped to the set's
// drawing) once it is ingested, with answers known from the hand labels:
// "Where is the TITLE?" per labelled sheet (right when the answer's first
// source is that sheet) and "Which sheets are DISCIPLINE?" per discipline
// the labels name (right when the sources' sheets are exactly those
// labelled with it). Counts are scored from the stored instances (counts
// column); asking them again would measure the same.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/tools/bench/labels"
)

// RealAsk answers a question over one drawing of a real-set run.
type RealAsk func(ctx context.Context, question string) (*search.Answer, error)

// RealAskScore is the ask outcome of a set.
type RealAskScore struct {
	Lookups, LookupsRight int
	Lists, ListsRight     int
}

// Add sums o into s.
func (s *RealAskScore) Add(o RealAskScore) {
	s.Lookups += o.Lookups
	s.LookupsRight += o.LookupsRight
	s.Lists += o.Lists
	s.ListsRight += o.ListsRight
}

// askReal asks the set's questions; errf records what was wrong.
func askReal(ctx context.Context, set labels.Set, ask RealAsk, errf func(string, ...any)) (RealAskScore, error) {
	var sc RealAskScore
	byDisc := map[string][]string{}
	for _, sh := range set.Sheets {
		if sh.Discipline != "" {
			byDisc[sh.Discipline] = append(byDisc[sh.Discipline], sheetmeta.Normalize(sh.SheetNumber))
		}
		title := strings.Join(strings.Fields(sh.Title), " ")
		if title == "" {
			continue
		}
		q := "Where is the " + strings.ToLower(title) + "?"
		a, err := ask(ctx, q)
		if err != nil {
			return sc, fmt.Errorf("%q: %w", q, err)
		}
		sc.Lookups++
		if len(a.Sources) > 0 && sheetmeta.Normalize(a.Sources[0].SheetNumber) == sheetmeta.Normalize(sh.SheetNumber) {
			sc.LookupsRight++
		} else {
			errf("p%d ask %q: %.160s", sh.Page, q, a.Answer)
		}
	}
	discs := make([]string, 0, len(byDisc))
	for d := range byDisc {
		discs = append(discs, d)
	}
	slices.Sort(discs)
	for _, d := range discs {
		q := "Which sheets are " + strings.ReplaceAll(d, "_", " ") + "?"
		a, err := ask(ctx, q)
		if err != nil {
			return sc, fmt.Errorf("%q: %w", q, err)
		}
		var got []string
		for _, s := range a.Sources {
			if n := sheetmeta.Normalize(s.SheetNumber); !slices.Contains(got, n) {
				got = append(got, n)
			}
		}
		want := slices.Clone(byDisc[d])
		slices.Sort(want)
		want = slices.Compact(want)
		slices.Sort(got)
		sc.Lists++
		if slices.Equal(got, want) {
			sc.ListsRight++
		} else {
			errf("ask %q: sheets %v, labelled %v", q, got, want)
		}
	}
	return sc, nil
}
