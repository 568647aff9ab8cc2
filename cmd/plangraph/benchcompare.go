package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/service/compare"
	"github.com/plangraph/plangraph/internal/tools/bench"
	comparejob "github.com/plangraph/plangraph/jobs/compare"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// benchCompare scores the compare job tree on synthetic revision pairs:
// each seed's sheet and its revision go through the same local instance as
// plangraph compare (both ingested, then a Drawing compare with change
// analysis), and the original against itself moved as the revision is.
func benchCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plangraph bench compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o bench.CompareOptions
	fs.IntVar(&o.Seeds, "seeds", 3, "revision pairs to generate, one per seed")
	fs.IntVar(&o.FirstSeed, "first-seed", 1, "first seed (seeds first-seed..first-seed+N-1)")
	fs.StringVar(&o.PageSize, "page", "36x24", "sheet size: 36x24, 42x30 or 24x18")
	fs.StringVar(&o.Motion, "motion", "small", "how each revision's page moves (synth --revision-motion): small, large or turn")
	fs.StringVar(&o.Conventions, "conventions", "classic", "drafting conventions of the drawings (synth --conventions): classic or mixed")
	fs.StringVar(&o.Dir, "out", "", "keep the drawings, truths and reports here (default: a temporary directory, removed after)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	realDir := fs.String("real", "", "instead: compare each PDF of this folder with itself reprinted rescaled and shifted (0 changes expected)")
	only := fs.String("only", "", "with --real: comma-separated parts of file names to run")
	var ro bench.CompareRealOptions
	fs.Float64Var(&ro.Scale, "reprint-scale", 0.97, "with --real: the reprint's scale")
	fs.Float64Var(&ro.ShiftPt, "reprint-shift", 9, "with --real: the reprint's shift right and down, in points")
	fs.BoolVar(&ro.Edit, "edit", false, "with --real: also compare each PDF with its reprint carrying known edits (3 boxes a page), scoring edits found and other changes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("usage: plangraph bench compare [--seeds N] [--first-seed S] [--page SIZE] [--motion small|large|turn] [--conventions classic|mixed] [--out DIR] | --real DIR [--only a,b] [--reprint-scale S] [--reprint-shift PT] [--edit]")
	}
	const dpi = 300
	if *realDir != "" {
		ro.Dir, ro.Out = *realDir, o.Dir
		if *only != "" {
			ro.Only = strings.Split(*only, ",")
		}
		return withLocal(ctx, *cpuProfile, dpi, stderr, func(l *local) error {
			ro.Run = l.compareRunner(dpi, stderr)
			_, err := bench.CompareReal(ctx, ro, stdout)
			return err
		})
	}
	return withLocal(ctx, *cpuProfile, dpi, stderr, func(l *local) error {
		o.Run = l.compareRunner(dpi, stderr)
		_, err := bench.Compare(ctx, o, stdout)
		return err
	})
}

// compareRunner compares two drawings in l as plangraph compare does.
func (l *local) compareRunner(dpi int, progress io.Writer) bench.CompareRun {
	return func(ctx context.Context, oldPath, newPath string) (bench.CompareRan, error) {
		var ran bench.CompareRan
		old, _, err := l.ingest(oldPath, progress)
		if err != nil {
			return ran, err
		}
		nw, _, err := l.ingest(newPath, progress)
		if err != nil {
			return ran, err
		}
		cpu0 := bench.ProcessCPU()
		j, err := l.app.Services.Compare.StartFrom(l.ctx, comparejob.TypeDrawing, nw.ID, compare.PathInput{CompareTo: &old.ID})
		if err != nil {
			return ran, err
		}
		final, err := waitJob(l.ctx, l.app.Store.Client, j.ID, progress)
		if err != nil {
			return ran, err
		}
		ran.CPU = bench.ProcessCPU() - cpu0
		if final.Status != job.StatusCompleted {
			return ran, fmt.Errorf("compare: %s", failure(final))
		}
		var rep engine.Report
		if err := json.Unmarshal(final.Result, &rep); err != nil {
			return ran, err
		}
		ran.Report, ran.DPI = rep, dpi
		if final.CompletedAt != nil {
			ran.Compare = final.CompletedAt.Sub(final.CreatedAt)
		}
		return ran, nil
	}
}
