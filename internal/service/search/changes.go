package search

import (
	"context"
	"fmt"
	"slices"
	"strings"

	textsearch "github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/sheetmeta"
)

// changes answers "which sheets changed in revision 2?" and "what changed
// on A101?" from the change rows the comparisons left (index.TypeChange):
// a sheet's summary row says whether it was compared and how many changes
// were found, its change rows say what they are. The revision a question
// names is the mark in the sheets' title blocks (their Revision); a sheet
// named without a revision is answered from its newest compared drawing.
func (s *Service) changes(ctx context.Context, sc index.Scope, pq textsearch.Question, max int, a *Answer) error {
	pq.Revision = normRevision(pq.Revision)
	if pq.Subject != "" {
		// "what changed in the door schedule": the change rows that say so
		sc.Types = []string{index.TypeChange}
		if pq.SheetNumber != "" {
			sc.SheetNumberNorm = pq.SheetNumber
		}
		return s.passages(ctx, sc, pq.Subject, max, a)
	}
	rows := sc
	rows.Types = []string{index.TypeSheet, index.TypeChange}
	if pq.SheetNumber != "" {
		rows.SheetNumberNorm = pq.SheetNumber
	}
	docs, err := s.Index().Docs(ctx, rows, 100000)
	if err != nil {
		return err
	}
	var sheets []index.Doc // in scope, newest drawing first
	for _, d := range docs {
		if d.SourceType == index.TypeSheet && inScope(d, textsearch.Question{Levels: pq.Levels}) {
			sheets = append(sheets, d)
		}
	}
	where := scopeText(pq)
	if pq.SheetNumber != "" && len(sheets) == 0 {
		a.Answer = fmt.Sprintf("I could not find sheet %s in this project.", asked(pq))
		return nil
	}
	if pq.Revision != "" {
		var marked []index.Doc
		var revs []string
		for _, d := range sheets {
			r := normRevision(d.Revision)
			if r == pq.Revision {
				marked = append(marked, d)
			}
			if r != "" && !slices.Contains(revs, r) {
				revs = append(revs, r)
			}
		}
		if len(marked) == 0 {
			slices.Sort(revs)
			a.Answer = fmt.Sprintf("No sheet %s is marked revision %s in its title block", where, strings.ToUpper(pq.Revision))
			if len(revs) > 0 {
				a.Answer += " (the marks found are " + strings.ToUpper(strings.Join(revs, ", ")) + ")"
			}
			a.Answer += "."
			return nil
		}
		sheets = marked
		where += ", revision " + strings.ToUpper(pq.Revision)
	} else if pq.SheetNumber != "" {
		sheets = newestCompared(sheets, docs)
	}
	inSheets := map[string]bool{}
	for _, d := range sheets {
		inSheets[d.SheetID] = true
	}
	summary := map[string]index.Doc{}
	perSheet := map[string][]index.Doc{}
	for _, d := range docs {
		if d.SourceType != index.TypeChange || !inSheets[d.SheetID] {
			continue
		}
		switch index.ChangeKind(d) {
		case index.ChangeSheetCompared, index.ChangeSheetAdded, index.ChangeSheetNotAnalysed:
			summary[d.SheetID] = d
		default:
			perSheet[d.SheetID] = append(perSheet[d.SheetID], d)
		}
	}
	slices.SortStableFunc(sheets, func(x, y index.Doc) int { return strings.Compare(x.SheetNumberNorm, y.SheetNumberNorm) })
	var changed, unchanged, unanalysed, never []index.Doc
	for _, d := range sheets {
		sum, ok := summary[d.SheetID]
		switch {
		case !ok:
			never = append(never, d)
		case index.ChangeKind(sum) == index.ChangeSheetNotAnalysed && sum.Count == 0:
			unanalysed = append(unanalysed, sum)
		case sum.Count > 0:
			changed = append(changed, sum)
		default:
			unchanged = append(unchanged, sum)
		}
	}
	if len(summary) == 0 {
		a.Answer = fmt.Sprintf("No sheet %s has been compared with an older revision, so the drawings cannot say what changed: run a comparison first.", where)
		return nil
	}
	mark := markOf(append(content(textsearch.Tokens(pq.Subject)), "added", "removed", "changes", "change"))
	var b strings.Builder
	if pq.SheetList || len(sheets) > 1 {
		fmt.Fprintf(&b, "%d %s %s changed", len(changed), plural(len(changed), "sheet", "sheets"), where)
		if len(changed) > 0 {
			b.WriteString(": " + strings.Join(listOf(changed), "; "))
		}
		b.WriteString(".")
		a.Confidence = 0.9
		for _, d := range changed {
			if len(a.Sources) == max {
				break
			}
			a.Sources = append(a.Sources, sourceOf(d, mark, 1))
		}
	} else {
		sum := summary[sheets[0].SheetID]
		found := perSheet[sheets[0].SheetID]
		fmt.Fprintf(&b, "%s", strings.TrimSuffix(sum.Label, "."))
		if len(found) > 0 {
			var what []string
			for _, d := range found {
				what = append(what, d.Label)
			}
			b.WriteString(": " + strings.Join(what, "; "))
		}
		b.WriteString(".")
		a.Confidence = 0.9
		for _, d := range append([]index.Doc{sum}, found...) {
			if len(a.Sources) == max {
				break
			}
			a.Sources = append(a.Sources, sourceOf(d, mark, 1))
		}
	}
	if len(unchanged) > 0 && (pq.SheetList || len(sheets) > 1) {
		fmt.Fprintf(&b, " Compared without changes: %s.", strings.Join(numbers(unchanged), ", "))
	}
	if len(unanalysed) > 0 {
		fmt.Fprintf(&b, " Compared without change analysis: %s.", strings.Join(numbers(unanalysed), ", "))
	}
	if len(never) > 0 {
		fmt.Fprintf(&b, " Never compared with an older revision: %s.", strings.Join(numbers(never), ", "))
		a.Confidence = 0.5
	}
	a.Answer = b.String()
	return nil
}

// newestCompared keeps, of a sheet number's sheets (one per drawing), the
// newest that was compared with an older revision, else the newest.
func newestCompared(sheets, docs []index.Doc) []index.Doc {
	if len(sheets) < 2 {
		return sheets
	}
	compared := map[string]bool{}
	for _, d := range docs {
		if d.SourceType == index.TypeChange {
			compared[d.SheetID] = true
		}
	}
	best := sheets[0] // Docs come newest drawing first
	for _, d := range sheets {
		if compared[d.SheetID] {
			best = d
			break
		}
	}
	return []index.Doc{best}
}

// normRevision is a revision mark as questions name it: lower case, "REV."
// and leading zeros dropped ("REV 02" → "2").
func normRevision(r string) string {
	r = strings.ToLower(strings.TrimSpace(r))
	for _, p := range []string{"revision", "rev.", "rev", "#"} {
		r = strings.TrimSpace(strings.TrimPrefix(r, p))
	}
	if t := strings.TrimLeft(r, "0"); t != "" && t != r && t[0] >= '0' && t[0] <= '9' {
		r = t
	}
	return r
}

// listOf names changed sheets with their counts: "A101 (3 changes)",
// "A105 (added)".
func listOf(sums []index.Doc) []string {
	var out []string
	for _, d := range sums {
		n := strings.TrimSpace(d.SheetNumber + " " + d.SheetTitle)
		if index.ChangeKind(d) == index.ChangeSheetAdded {
			out = append(out, n+" (added)")
			continue
		}
		out = append(out, fmt.Sprintf("%s (%d %s)", n, d.Count, plural(d.Count, "change", "changes")))
	}
	return out
}

func numbers(ds []index.Doc) []string {
	var out []string
	for _, d := range ds {
		n := d.SheetNumber
		if n == "" {
			n = sheetmeta.Normalize(d.SheetTitle)
		}
		out = append(out, n)
	}
	return out
}
