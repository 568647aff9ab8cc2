package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/service/drawings"
	parsesvc "github.com/plangraph/plangraph/internal/service/parse"
	"github.com/plangraph/plangraph/internal/tools/bench"
	"github.com/plangraph/plangraph/jobs"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
)

func benchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: plangraph bench api [flags]")
	}
	switch args[0] {
	case "api":
		fs := flag.NewFlagSet("plangraph bench api", flag.ContinueOnError)
		fs.SetOutput(stderr)
		var o bench.APIOptions
		fs.StringVar(&o.AdminURL, "admin-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL URL that may create and drop the benchmark's database")
		fs.StringVar(&o.RedisURL, "redis-url", "redis://127.0.0.1:6379/15", "Redis for the queue and rate limits (empty: in-process)")
		fs.IntVar(&o.Sheets, "sheets", 10000, "sheets to seed")
		fs.IntVar(&o.Rate, "rate", 500, "requests per second offered to each target")
		fs.DurationVar(&o.Duration, "duration", 20*time.Second, "how long each target is measured")
		stop, err := parseProfiled(fs, args[1:])
		if err != nil {
			return err
		}
		defer stop()
		o.Out = stdout
		res, err := bench.API(ctx, o)
		if err != nil {
			return err
		}
		if len(res) == 3 && res[0].P50 > 0 {
			fmt.Fprintf(stdout, "REST p50 / bare p50 = %.2f×, GraphQL p50 / bare p50 = %.2f×\n",
				float64(res[1].P50)/float64(res[0].P50), float64(res[2].P50)/float64(res[0].P50))
		}
		return nil
	case "load":
		return benchLoad(ctx, args[1:], stdout, stderr)
	case "render":
		fs := flag.NewFlagSet("plangraph bench render", flag.ContinueOnError)
		fs.SetOutput(stderr)
		page := fs.Int("page", 1, "page to render (1-based)")
		dpi := fs.Int("dpi", 300, "DPI")
		runs := fs.Int("runs", 3, "runs of each; the best time counts")
		ingest := fs.Bool("ingest", true, "also time the whole ingestion of FILE (every page) against the render time")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return fmt.Errorf("usage: plangraph bench render [--page N] [--dpi D] [--ingest=false] FILE.pdf")
		}
		res, err := bench.Render(ctx, fs.Arg(0), *page, *dpi, *runs, stdout)
		if err != nil || !*ingest {
			return err
		}
		return benchIngest(ctx, fs.Arg(0), *dpi, res.Ours, stdout)
	case "sesyd":
		fs := flag.NewFlagSet("plangraph bench sesyd", flag.ContinueOnError)
		fs.SetOutput(stderr)
		limit := fs.Int("plans", 0, "score only the first N plans (0: all)")
		skip := fs.Int("skip", 0, "leave out the first N plans")
		direct := fs.Bool("direct", false, "run the matcher on the plan images directly instead of uploading and parsing them through the service")
		geometry := fs.Bool("geometry", false, "match the plans' and models' SVG versions as geometry (the matcher PDFs drawn as vectors get), in this process")
		stop, err := parseProfiled(fs, args[1:])
		if err != nil {
			return err
		}
		defer stop()
		if fs.NArg() != 1 {
			return fmt.Errorf("usage: plangraph bench sesyd [--plans N] [--skip N] [--direct | --geometry] DIR (DIR/models/*.tiff, DIR/plans/*.tiff + *.xml; --geometry: *.svg)")
		}
		if *geometry {
			_, err = bench.SESYDGeometry(ctx, fs.Arg(0), *skip, *limit, stdout)
			return err
		}
		if *direct {
			_, err = bench.SESYD(ctx, fs.Arg(0), *skip, *limit, bench.MatchDirect, stdout)
			return err
		}
		legend, err := readLegendDir(filepath.Join(fs.Arg(0), "models"))
		if err != nil {
			return err
		}
		l, err := openLocal(ctx, "", 300, stderr)
		if err != nil {
			return err
		}
		defer l.close()
		_, err = bench.SESYD(ctx, fs.Arg(0), *skip, *limit, l.sesydDetect(legend), stdout)
		return err
	case "synth":
		return benchSynth(ctx, args[1:], stdout, stderr)
	case "compare":
		return benchCompare(ctx, args[1:], stdout, stderr)
	case "real":
		return benchReal(ctx, args[1:], stdout, stderr)
	case "search":
		return benchSearch(ctx, args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown benchmark %q (have: api, compare, real, render, search, sesyd, synth)", args[0])
}

// benchSynth scores the parse pipeline on synthetic sheets: each seed's
// drawing goes through the same local instance as plangraph parse, legends
// read from the sheets.
func benchSynth(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plangraph bench synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o bench.SynthOptions
	fs.IntVar(&o.Seeds, "seeds", 3, "drawings to generate, one per seed")
	fs.IntVar(&o.FirstSeed, "first-seed", 1, "first seed (seeds first-seed..first-seed+N-1)")
	fs.IntVar(&o.Sheets, "sheets", 3, "sheets per drawing")
	fs.IntVar(&o.DPI, "dpi", 300, "render DPI, also the ground truth's")
	fs.StringVar(&o.PageSize, "page", "36x24", "sheet size: 36x24, 42x30 or 24x18")
	fs.BoolVar(&o.Vary, "vary", false, "plan instances drafted unlike the legend (synth --vary): lines in pieces, circles as polygons, some mirrored")
	fs.StringVar(&o.Conventions, "conventions", "classic", "drafting conventions of the drawings (synth --conventions): classic or mixed")
	fs.StringVar(&o.Dir, "out", "", "keep the drawings, truths and parse results here (default: a temporary directory, removed after)")
	fs.IntVar(&o.Examples, "examples", 5, "false positives and misses listed for each of the worst labels")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("usage: plangraph bench synth [--seeds N] [--first-seed S] [--sheets K] [--dpi D] [--page SIZE] [--vary] [--conventions classic|mixed] [--out DIR]")
	}
	if o.Examples == 0 {
		o.Examples = -1
	}
	return withLocal(ctx, *cpuProfile, o.DPI, stderr, func(l *local) error {
		o.Parse = l.synthParser(stderr)
		_, err := bench.Synth(ctx, o, stdout)
		return err
	})
}

// synthParser parses drawings in l as plangraph parse does (legends read
// from the drawing), showing progress on progress, and places the blocks
// the result names.
func (l *local) synthParser(progress io.Writer) bench.SynthParse {
	return func(ctx context.Context, path string) (bench.SynthParsed, error) {
		p := bench.SynthParsed{Blocks: map[string]bench.SynthBlock{}}
		_, res, err := l.parseFile(path, nil, progress)
		if err != nil {
			return p, err
		}
		p.Result = res
		ids := instanceBlocks(res)
		for _, lg := range res.Legend {
			if lg.BlockID != nil {
				ids = append(ids, *lg.BlockID)
			}
		}
		blocks, err := l.app.Store.Client.Block.Query().Where(block.IDIn(ids...)).WithSheet().All(l.ctx)
		if err != nil {
			return p, err
		}
		for _, b := range blocks {
			p.Blocks[b.ID] = bench.SynthBlock{Page: b.Edges.Sheet.PageNumber, Bounds: b.Bounds, DPI: b.Edges.Sheet.Dpi}
		}
		return p, nil
	}
}

// instanceBlocks lists the blocks of a parse result's instances.
func instanceBlocks(res parsejob.ParseResult) []string {
	var ids []string
	for _, s := range res.Symbols {
		for _, in := range s.Instances {
			ids = append(ids, in.BlockID)
		}
	}
	return ids
}

// benchIngest times the drawing job of file (every stage of every page,
// from its creation to its completion) in a throwaway local instance and
// compares it with one page's render time.
func benchIngest(ctx context.Context, file string, dpi int, render time.Duration, stdout io.Writer) error {
	l, err := openLocal(ctx, "", dpi, io.Discard)
	if err != nil {
		return err
	}
	defer l.close()
	f, err := l.upload(file)
	if err != nil {
		return err
	}
	res, err := l.app.Services.Drawings.Create(l.ctx, drawings.CreateInput{ProjectID: l.project, FileID: f.ID})
	if err != nil {
		return err
	}
	j, err := waitJob(l.ctx, l.app.Store.Client, res.Job.ID, io.Discard)
	if err != nil {
		return err
	}
	if j.Status != job.StatusCompleted || j.CompletedAt == nil {
		return fmt.Errorf("ingest of %s ended %s %+v", file, j.Status, j.Error)
	}
	pages, err := l.app.Store.Client.Sheet.Query().Where(sheet.DrawingID(res.Drawing.ID)).Count(l.ctx)
	if err != nil {
		return err
	}
	took := j.CompletedAt.Sub(j.CreatedAt)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Fprintf(stdout, "whole ingest of %s (%d pages: render, text, OCR where needed, metadata, images, tiles, blocks): %.2f s = %.1f× one page's render time (%.2f s per page = %.1f×); peak RSS %.0f MB\n",
		filepath.Base(file), pages, took.Seconds(), took.Seconds()/render.Seconds(),
		took.Seconds()/float64(max(pages, 1)), took.Seconds()/float64(max(pages, 1))/render.Seconds(), float64(ru.Maxrss)/1024)
	return nil
}

// sesydDetect uploads a plan to l, parses it with legend as the request's
// symbols (data URLs), and places the instances on the plan.
func (l *local) sesydDetect(legend []*parsesvc.LegendSymbol) bench.SESYDDetect {
	return func(ctx context.Context, path string, _ *image.Gray, tmpls []symbols.Template) ([]symbols.Detection, string, error) {
		index := map[string]int{}
		for i, t := range tmpls {
			index[t.Label] = i
		}
		opts := &parsesvc.Options{Symbols: &parsesvc.SymbolOptions{Legend: legend}}
		j, res, err := l.parseFile(path, opts, io.Discard)
		if err != nil {
			return nil, "", err
		}
		blocks, err := l.app.Store.Client.Block.Query().Where(block.IDIn(instanceBlocks(res)...)).All(l.ctx)
		if err != nil {
			return nil, "", err
		}
		at := map[string]geom.Box{}
		for _, b := range blocks {
			at[b.ID] = b.Bounds
		}
		var dets []symbols.Detection
		for _, s := range res.Symbols {
			for _, in := range s.Instances {
				o := at[in.BlockID]
				dets = append(dets, symbols.Detection{Template: index[s.Label], Label: s.Label, Confidence: in.Confidence,
					Box: in.Bounds.Translate(o.XMin, o.YMin)})
			}
		}
		views, _ := l.app.Store.Client.Job.Query().Where(job.ParentID(j.ID), job.Type(jobs.TypeSymbolMatch)).Count(l.ctx)
		return dets, fmt.Sprintf("uploaded and parsed: %d view blocks searched, %d warnings", views, len(res.Warnings)), nil
	}
}

// parseProfiled adds --cpuprofile to fs, reads the flags in args and
// starts the CPU profile the flag names; stop ends it.
func parseProfiled(fs *flag.FlagSet, args []string) (stop func(), err error) {
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return startCPUProfile(*cpuProfile)
}

// startCPUProfile profiles the process into path (nothing when empty).
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
