package bench

// Search latency: a project of N synthetic sheets seeded through the
// database (internal/tools/synthdb: no rendering), indexed, then searched
// and asked on one core's worth of sequential requests, on the embedded
// profile (SQLite) and on PostgreSQL.

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/internal/tools/synthdb"
)

// SearchLatencyResult is one profile's figures.
type SearchLatencyResult struct {
	Profile              string
	Sheets, Rows         int
	BuildPerSheet        time.Duration
	SearchP50, SearchP95 time.Duration
	AskP50, AskP95       time.Duration
}

// SearchLatency seeds sheets sheets on each of profiles ("embedded";
// "postgres" through adminURL, skipped when it is empty) and measures
// searches and asks, each query rounds times, printing a table to out.
func SearchLatency(ctx context.Context, sheets, rounds int, adminURL string, profiles []string, out io.Writer) ([]SearchLatencyResult, error) {
	var res []SearchLatencyResult
	for _, p := range profiles {
		switch p = strings.TrimSpace(p); {
		case p == "postgres" && adminURL == "":
			continue
		case p != "embedded" && p != "postgres":
			return nil, fmt.Errorf("unknown profile %q (embedded, postgres)", p)
		}
		r, err := searchLatency(ctx, p, sheets, rounds, adminURL, out)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		res = append(res, r)
		printLatency(out, []SearchLatencyResult{r}) // as soon as it is measured
	}
	printLatency(out, res)
	return res, nil
}

func printLatency(out io.Writer, res []SearchLatencyResult) {
	fmt.Fprintf(out, "%-9s %6s %7s %12s %10s %10s %10s %10s\n", "profile", "sheets", "rows", "build/sheet", "search p50", "search p95", "ask p50", "ask p95")
	for _, r := range res {
		fmt.Fprintf(out, "%-9s %6d %7d %12s %10s %10s %10s %10s\n", r.Profile, r.Sheets, r.Rows, r.BuildPerSheet.Round(time.Microsecond*100),
			r.SearchP50.Round(time.Microsecond*100), r.SearchP95.Round(time.Microsecond*100), r.AskP50.Round(time.Microsecond*100), r.AskP95.Round(time.Microsecond*100))
	}
}

func searchLatency(ctx context.Context, profile string, sheets, rounds int, adminURL string, out io.Writer) (SearchLatencyResult, error) {
	r := SearchLatencyResult{Profile: profile}
	dir, err := os.MkdirTemp("", "plangraph-bench-search-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	dbURL := ""
	if profile == "postgres" {
		u, drop, err := createDatabase(ctx, adminURL, "plangraph_bench_"+strings.ToLower(ids.New("b")[2:14]))
		if err != nil {
			return r, err
		}
		defer drop()
		dbURL = u
	}
	st, err := store.Open(ctx, dbURL, dir)
	if err != nil {
		return r, err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return r, err
	}
	bucket, err := blobs.Open(ctx, "", dir)
	if err != nil {
		return r, err
	}
	defer bucket.Close()
	ctx = tenant.WithOrg(ctx, "org_bench_search")
	svc := &search.Service{Deps: &base.Deps{DB: st.Client, Blobs: bucket}}
	prj, err := st.Client.Project.Create().SetName("search latency").Save(ctx)
	if err != nil {
		return r, err
	}
	fmt.Fprintf(out, "%s: seeding %d sheets…\n", profile, sheets)
	var truths []synth.Truth
	for seed := 1; r.Sheets < sheets; seed++ {
		set, err := synth.Generate(synth.Options{Seed: int64(seed), Sheets: min(25, sheets-r.Sheets)})
		if err != nil {
			return r, err
		}
		if _, err := synthdb.Drawing(ctx, st.Client, bucket, prj.ID, fmt.Sprintf("set%d.pdf", seed), set.Truth, -1); err != nil {
			return r, err
		}
		r.Sheets += len(set.Truth.Sheets)
		truths = append(truths, set.Truth)
	}
	t0 := time.Now()
	if err := svc.Index().RebuildProject(ctx, prj.ID); err != nil {
		return r, err
	}
	r.BuildPerSheet = time.Since(t0) / time.Duration(r.Sheets)
	fmt.Fprintf(out, "%s: index built, %s a sheet; querying…\n", profile, r.BuildPerSheet.Round(time.Millisecond))
	if r.Rows, err = svc.Index().Count(ctx, index.Scope{ProjectID: prj.ID}); err != nil {
		return r, err
	}
	queries, questions := latencyQueries(truths[0])
	var ts, ta []time.Duration
	for range rounds {
		for _, q := range queries {
			t := time.Now()
			if _, err := svc.Search(ctx, prj.ID, search.Input{Query: q}); err != nil {
				return r, fmt.Errorf("search %q: %w", q, err)
			}
			ts = append(ts, time.Since(t))
		}
		for _, q := range questions {
			t := time.Now()
			if _, err := svc.Ask(ctx, prj.ID, search.AskInput{Question: q}); err != nil {
				return r, fmt.Errorf("ask %q: %w", q, err)
			}
			ta = append(ta, time.Since(t))
		}
	}
	r.SearchP50, r.SearchP95 = quantile(ts, 0.5), quantile(ts, 0.95)
	r.AskP50, r.AskP95 = quantile(ta, 0.5), quantile(ta, 0.95)
	return r, nil
}

// latencyQueries are searches and questions of each kind over a truth's
// sheets: symbol descriptions and abbreviations, sheet numbers and titles.
func latencyQueries(tr synth.Truth) (queries, questions []string) {
	seen := map[string]bool{}
	for _, st := range tr.Sheets {
		queries = append(queries, st.SheetNumber, strings.ToLower(st.Title))
		questions = append(questions, "Where is the "+strings.ToLower(st.Title)+"?")
		for _, b := range st.Blocks {
			for _, e := range b.Entries {
				d := strings.ToLower(e.Description)
				if seen[d] || d == "" {
					continue
				}
				seen[d] = true
				queries = append(queries, d, e.Label)
				questions = append(questions, "How many "+d+"?", "How many "+d+" on sheet "+st.SheetNumber+"?")
			}
		}
	}
	questions = append(questions, "Which sheets are electrical?", "Which sheets changed in revision 1?", "what is the general contractor responsible for")
	return queries, questions
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}
