package bench

// The search benchmark: questions over synthetic sets whose answers the
// generator knows (synth truth: symbol instances per sheet, sheet titles
// and disciplines, a revision's edits), asked through ask after the set
// and its revision went through the local pipelines (ingest, parse,
// compare). Per question type: exact answers, answers whose every citation
// holds what it is cited for, and numbers the answer states that no cited
// source supports (invented).

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/tools/synth"
)

// SearchProject is a set and its revision run through the pipelines: the
// two drawings' ids and an ask over their project.
type SearchProject struct {
	Base, Revision string
	Ask            func(ctx context.Context, in search.AskInput) (*search.Answer, error)
}

// SearchRun ingests and parses the set at basePath, ingests the revision at
// revPath and compares them (change analysis on).
type SearchRun func(ctx context.Context, basePath, revPath string) (SearchProject, error)

// SearchOptions configure a search benchmark run.
type SearchOptions struct {
	Seeds, FirstSeed, Sheets int
	Dir                      string
	Run                      SearchRun
}

// SearchScore is one question type's tally.
type SearchScore struct {
	Asked, Exact, Cited, Invented int
	Misses                        []string
}

// SearchResult is the tally per question type (count, lookup, sheets,
// changes).
type SearchResult map[string]*SearchScore

// Search runs the benchmark and prints its table to out.
func Search(ctx context.Context, o SearchOptions, out io.Writer) (SearchResult, error) {
	if o.Seeds == 0 {
		o.Seeds = 1
	}
	if o.FirstSeed == 0 {
		o.FirstSeed = 1
	}
	if o.Sheets == 0 {
		o.Sheets = 3
	}
	dir, done, err := workDir(o.Dir, "plangraph-bench-search-")
	if err != nil {
		return nil, err
	}
	defer done()
	res := SearchResult{}
	for seed := o.FirstSeed; seed < o.FirstSeed+o.Seeds; seed++ {
		set, err := synth.Generate(synth.Options{Seed: int64(seed), Sheets: o.Sheets, Revision: true})
		if err != nil {
			return nil, err
		}
		base := filepath.Join(dir, fmt.Sprintf("seed%d.pdf", seed))
		rev := filepath.Join(dir, fmt.Sprintf("seed%d-rev.pdf", seed))
		if err := synth.WriteFile(base, set.WritePDF); err != nil {
			return nil, err
		}
		if err := synth.WriteFile(rev, set.WriteRevisionPDF); err != nil {
			return nil, err
		}
		p, err := o.Run(ctx, base, rev)
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seed, err)
		}
		for _, q := range SearchQuestions(set.Truth, p) {
			a, err := p.Ask(ctx, q.In)
			if err != nil {
				return nil, fmt.Errorf("seed %d: %q: %w", seed, q.In.Question, err)
			}
			sc := res[q.Type]
			if sc == nil {
				sc = &SearchScore{}
				res[q.Type] = sc
			}
			sc.Asked++
			exact, cited := q.Check(a)
			if exact {
				sc.Exact++
			} else if len(sc.Misses) < 5 {
				sc.Misses = append(sc.Misses, fmt.Sprintf("seed %d %q → %q", seed, q.In.Question, a.Answer))
			}
			if cited {
				sc.Cited++
			}
			if inv := Invented(q.In.Question, a); len(inv) > 0 {
				sc.Invented++
				sc.Misses = append(sc.Misses, fmt.Sprintf("seed %d %q: invented %v in %q", seed, q.In.Question, inv, a.Answer))
			}
		}
	}
	res.print(out)
	return res, nil
}

func (r SearchResult) print(out io.Writer) {
	var types []string
	for t := range r {
		types = append(types, t)
	}
	sort.Strings(types)
	fmt.Fprintf(out, "%-8s %6s %7s %7s %9s\n", "type", "asked", "exact%", "cited%", "invented")
	for _, t := range types {
		s := r[t]
		fmt.Fprintf(out, "%-8s %6d %7s %7s %9d\n", t, s.Asked, pct(s.Exact, s.Asked), pct(s.Cited, s.Asked), s.Invented)
	}
	for _, t := range types {
		for _, m := range r[t].Misses {
			fmt.Fprintf(out, "  %s: %s\n", t, m)
		}
	}
}

// SearchQuestion is a question with its known answer's check: whether the
// answer is exact and whether its citations hold it.
type SearchQuestion struct {
	Type  string
	In    search.AskInput
	Check func(a *search.Answer) (exact, cited bool)
}

// SearchQuestions are the questions a set's truth answers: per sheet of
// the base drawing, the count of every symbol kind on it and where its
// title is; per discipline, its sheets; and of the revision, which sheets
// changed and, per sheet, whether it changed.
func SearchQuestions(tr synth.Truth, p SearchProject) []SearchQuestion {
	var qs []SearchQuestion
	descs := map[string]bool{}
	for _, st := range tr.Sheets {
		for _, b := range st.Blocks {
			for _, e := range b.Entries {
				descs[strings.ToUpper(e.Description)] = true
			}
		}
	}
	byDisc := map[string][]string{}
	var changed []string
	for _, st := range tr.Sheets {
		num := sheetmeta.Normalize(st.SheetNumber)
		per := map[string]int{}
		for _, in := range st.Instances {
			per[strings.ToUpper(st.Blocks[in.LegendBlock].Entries[in.LegendEntry].Description)]++
		}
		for desc := range descs {
			if ambiguous(desc, descs) {
				continue
			}
			want := per[desc]
			qs = append(qs, SearchQuestion{Type: "count",
				In: search.AskInput{Question: fmt.Sprintf("How many %s on sheet %s?", strings.ToLower(desc), st.SheetNumber), DrawingID: p.Base, MaxSources: 20},
				Check: func(a *search.Answer) (bool, bool) {
					exact := strings.HasPrefix(a.Answer, strconv.Itoa(want)+" ")
					sum := 0
					cited := len(a.Sources) > 0
					for _, s := range a.Sources {
						// counts on the sheet asked about; with none, the legend entry (on its legend's sheet)
						if s.SourceType == "symbol" && sheetmeta.Normalize(s.SheetNumber) != num || !containsWords(s.Snippet, firstWord(desc)) {
							cited = false
						}
						if s.Count != nil {
							sum += *s.Count
						}
					}
					if want > 0 && sum != want {
						cited = false
					}
					return exact, cited
				}})
		}
		if st.Title != "" {
			qs = append(qs, SearchQuestion{Type: "lookup",
				In: search.AskInput{Question: "Where is the " + strings.ToLower(st.Title) + "?", DrawingID: p.Base, MaxSources: 5},
				Check: func(a *search.Answer) (bool, bool) {
					if len(a.Sources) == 0 {
						return false, false
					}
					top := a.Sources[0]
					ok := sheetmeta.Normalize(top.SheetNumber) == num
					return ok && strings.Contains(a.Answer, st.SheetNumber), ok && containsWords(top.Snippet, st.Title)
				}})
		}
		if st.Discipline != "" {
			byDisc[st.Discipline] = append(byDisc[st.Discipline], num)
		}
		if st.Revision != nil && len(st.Revision.Changes) > 0 {
			changed = append(changed, num)
		}
		if st.Revision != nil {
			has := len(st.Revision.Changes) > 0
			qs = append(qs, SearchQuestion{Type: "changes",
				In: search.AskInput{Question: "What changed on sheet " + st.SheetNumber + "?", DrawingID: p.Revision, MaxSources: 20},
				Check: func(a *search.Answer) (bool, bool) {
					said := strings.Contains(a.Answer, "compared with") && !strings.Contains(a.Answer, ": 0 changes")
					cited := len(a.Sources) > 0
					for _, s := range a.Sources {
						cited = cited && s.SourceType == "change" && sheetmeta.Normalize(s.SheetNumber) == num
					}
					return said == has, cited
				}})
		}
	}
	for disc, nums := range byDisc {
		slices.Sort(nums)
		qs = append(qs, SearchQuestion{Type: "sheets",
			In: search.AskInput{Question: "Which sheets are " + strings.ReplaceAll(disc, "_", " ") + "?", DrawingID: p.Base, MaxSources: 20},
			Check: func(a *search.Answer) (bool, bool) {
				var got []string
				for _, s := range a.Sources {
					got = append(got, sheetmeta.Normalize(s.SheetNumber))
				}
				slices.Sort(got)
				return slices.Equal(got, nums) && strings.HasPrefix(a.Answer, strconv.Itoa(len(nums))+" "), slices.Equal(got, nums)
			}})
	}
	if len(tr.Sheets) > 0 && tr.Sheets[0].Revision != nil {
		rev := tr.Sheets[0].Revision.Revision
		slices.Sort(changed)
		qs = append(qs, SearchQuestion{Type: "changes",
			// (the revision's drawing: a run's sets share one project, and another set's sheets marked
			// with the same revision are rightly named when the question is asked of the project)
			In: search.AskInput{Question: "Which sheets changed in revision " + rev + "?", DrawingID: p.Revision, MaxSources: 20},
			Check: func(a *search.Answer) (bool, bool) {
				var got []string
				for _, s := range a.Sources {
					got = append(got, sheetmeta.Normalize(s.SheetNumber))
				}
				slices.Sort(got)
				cited := slices.Equal(got, changed)
				for _, s := range a.Sources {
					cited = cited && s.SourceType == "change"
				}
				return cited && strings.HasPrefix(a.Answer, strconv.Itoa(len(changed))+" "), cited
			}})
	}
	return qs
}

// ambiguous: a description contained in another's (a count of "FAN" would
// count "EXHAUST FAN" too) is left out of the count questions.
func ambiguous(desc string, all map[string]bool) bool {
	for d := range all {
		if d != desc && strings.Contains(" "+d+" ", " "+desc+" ") {
			return true
		}
	}
	return false
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

func containsWords(text, words string) bool {
	t := strings.ToUpper(strings.NewReplacer("«", "", "»", "").Replace(text))
	for _, w := range strings.Fields(strings.ToUpper(words)) {
		if !strings.Contains(t, w) {
			return false
		}
	}
	return true
}

var reNumber = regexp.MustCompile(`\d+`)

// Invented lists the numbers an answer states that neither the question
// nor any cited source holds, nor are the sources' counts summed or the
// sources counted.
func Invented(question string, a *search.Answer) []string {
	allowed := map[string]bool{}
	for _, n := range reNumber.FindAllString(question, -1) {
		allowed[n] = true
	}
	sum := 0
	for _, s := range a.Sources {
		for _, n := range reNumber.FindAllString(s.Label+" "+s.Snippet+" "+s.SheetNumber+" "+s.SheetID+" "+s.SourceID, -1) {
			allowed[n] = true
		}
		if s.Count != nil {
			sum += *s.Count
		}
	}
	allowed[strconv.Itoa(sum)] = true
	allowed[strconv.Itoa(len(a.Sources))] = true
	var out []string
	for _, n := range reNumber.FindAllString(a.Answer, -1) {
		if !allowed[n] {
			out = append(out, n)
		}
	}
	return out
}
