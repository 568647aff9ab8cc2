package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/internal/bench"
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
		cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		stop, err := startCPUProfile(*cpuProfile)
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
	case "render":
		fs := flag.NewFlagSet("plangraph bench render", flag.ContinueOnError)
		fs.SetOutput(stderr)
		page := fs.Int("page", 1, "page to render (1-based)")
		dpi := fs.Int("dpi", 300, "DPI")
		runs := fs.Int("runs", 3, "runs of each; the best time counts")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return fmt.Errorf("usage: plangraph bench render [--page N] [--dpi D] FILE.pdf")
		}
		_, err := bench.Render(ctx, fs.Arg(0), *page, *dpi, *runs, stdout)
		return err
	case "sesyd":
		fs := flag.NewFlagSet("plangraph bench sesyd", flag.ContinueOnError)
		fs.SetOutput(stderr)
		limit := fs.Int("plans", 0, "score only the first N plans (0: all)")
		skip := fs.Int("skip", 0, "leave out the first N plans")
		cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
		if fs.NArg() != 1 {
			return fmt.Errorf("usage: plangraph bench sesyd [--plans N] DIR (DIR/models/*.tiff, DIR/plans/*.tiff + *.xml)")
		}
		_, err = bench.SESYD(ctx, fs.Arg(0), *skip, *limit, stdout)
		return err
	case "synth":
		return benchSynth(ctx, args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown benchmark %q (have: api, render, sesyd, synth)", args[0])
}

// benchSynth scores the parse pipeline on synthetic sheets: each seed's
// drawing goes through the same local instance as plangraph parse, legends
// read from the sheets.
func benchSynth(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plangraph bench synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o bench.SynthOptions
	fs.IntVar(&o.Seeds, "seeds", 3, "drawings to generate (seeds 1..N)")
	fs.IntVar(&o.Sheets, "sheets", 3, "sheets per drawing")
	fs.IntVar(&o.DPI, "dpi", 300, "render DPI, also the ground truth's")
	fs.StringVar(&o.PageSize, "page", "36x24", "sheet size: 36x24, 42x30 or 24x18")
	fs.StringVar(&o.Dir, "out", "", "keep the drawings, truths and parse results here (default: a temporary directory, removed after)")
	fs.IntVar(&o.Examples, "examples", 5, "false positives and misses listed for each of the worst labels")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("usage: plangraph bench synth [--seeds N] [--sheets K] [--dpi D] [--page SIZE] [--out DIR]")
	}
	if o.Examples == 0 {
		o.Examples = -1
	}
	stop, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stop()
	l, err := openLocal(ctx, "", o.DPI, stderr)
	if err != nil {
		return err
	}
	defer l.close()
	o.Parse = l.synthParser(stderr)
	_, err = bench.Synth(ctx, o, stdout)
	return err
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
		var ids []string
		for _, lg := range res.Legend {
			if lg.BlockID != nil {
				ids = append(ids, *lg.BlockID)
			}
		}
		for _, s := range res.Symbols {
			for _, in := range s.Instances {
				ids = append(ids, in.BlockID)
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
