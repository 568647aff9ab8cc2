package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/service/compare"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/tools/bench"
	comparejob "github.com/plangraph/plangraph/jobs/compare"
)

// benchSearch asks questions with known answers over synthetic sets: each
// seed's set is parsed and its revision ingested and compared in one local
// instance's project (as plangraph parse and plangraph compare do), then
// ask answers counts, lookups, sheet lists and changes from the index.
func benchSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plangraph bench search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o bench.SearchOptions
	fs.IntVar(&o.Seeds, "seeds", 1, "sets to generate, one per seed")
	fs.IntVar(&o.FirstSeed, "first-seed", 1, "first seed")
	fs.IntVar(&o.Sheets, "sheets", 3, "sheets per set")
	fs.StringVar(&o.Dir, "out", "", "keep the drawings here (default: a temporary directory, removed after)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	latency := fs.Int("latency-sheets", 0, "instead: seed a project of N synthetic sheets through the database (no rendering) and time search and ask")
	rounds := fs.Int("rounds", 3, "with --latency-sheets: times each query is run")
	adminURL := fs.String("admin-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "with --latency-sheets: PostgreSQL URL that may create and drop the benchmark's database (empty: embedded only)")
	profiles := fs.String("profiles", "embedded,postgres", "with --latency-sheets: the profiles to measure, comma-separated (postgres needs --admin-url)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("usage: plangraph bench search [--seeds N] [--first-seed S] [--sheets K] [--out DIR] | --latency-sheets N [--rounds R] [--admin-url URL] [--profiles embedded,postgres]")
	}
	if *latency > 0 {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
		_, err = bench.SearchLatency(ctx, *latency, *rounds, *adminURL, strings.Split(*profiles, ","), stdout)
		return err
	}
	const dpi = 300
	return withLocal(ctx, *cpuProfile, dpi, stderr, func(l *local) error {
		o.Run = func(ctx context.Context, basePath, revPath string) (bench.SearchProject, error) {
			var p bench.SearchProject
			pj, _, err := l.parseFile(basePath, nil, stderr)
			if err != nil {
				return p, err
			}
			p.Base = pj.TargetID
			if pj.TargetType != job.TargetTypeDrawing {
				return p, fmt.Errorf("parse of %s did not target a drawing", basePath)
			}
			nw, _, err := l.ingest(revPath, stderr)
			if err != nil {
				return p, err
			}
			p.Revision = nw.ID
			j, err := l.app.Services.Compare.StartFrom(l.ctx, comparejob.TypeDrawing, nw.ID, compare.PathInput{CompareTo: &p.Base})
			if err != nil {
				return p, err
			}
			final, err := waitJob(l.ctx, l.app.Store.Client, j.ID, stderr)
			if err != nil {
				return p, err
			}
			if final.Status != job.StatusCompleted {
				return p, fmt.Errorf("compare: %s", failure(final))
			}
			project := l.project
			p.Ask = func(ctx context.Context, in search.AskInput) (*search.Answer, error) {
				return l.app.Services.Search.Ask(l.ctx, project, in)
			}
			return p, nil
		}
		_, err := bench.Search(ctx, o, stdout)
		return err
	})
}
