package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/plangraph/plangraph/internal/tools/synth"
)

// synthCmd writes a synthetic drawing set with its ground truth:
// DIR/synth-SEED.pdf, DIR/synth-SEED-rev.pdf and DIR/synth-SEED-moved.pdf
// (with --revision: the revision, and the original moved as the revision
// is but unedited) and DIR/synth-SEED.json.
func synthCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plangraph synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: plangraph synth --out DIR [--seed N] [--sheets K] [--revision [--revision-motion small|large|turn]] [--vary] [--conventions classic|mixed] [--page 36x24|42x30|24x18] [--dpi D]")
		fmt.Fprintln(stderr, "\nWrites synthetic drawings (vector PDF) and their ground truth (JSON, pixels at --dpi).")
		fs.PrintDefaults()
	}
	var o synth.Options
	out := fs.String("out", "", "output directory (required; created if missing)")
	fs.Int64Var(&o.Seed, "seed", 1, "random seed; the same seed gives the same files")
	fs.IntVar(&o.Sheets, "sheets", 3, "number of sheets")
	fs.BoolVar(&o.Revision, "revision", false, "also write a revised set (shifted, rescaled, with known edits)")
	fs.StringVar(&o.RevisionMotion, "revision-motion", "small", "how a revision's page moves: small (1–3 mm shift, 0.98–1.02×), large (also 0.85–1.15× and up to 3° turned) or turn (a quarter turn: portrait)")
	fs.BoolVar(&o.Vary, "vary", false, "draw each plan instance as another CAD program might export it (lines in pieces, circles as polygons, some mirrored): the legend's geometry is not repeated")
	fs.StringVar(&o.Conventions, "conventions", "classic", "drafting conventions: classic (one house style) or mixed (each sheet picks its title block, numbering, views, legend layout, outlined text…)")
	fs.StringVar(&o.PageSize, "page", "36x24", "sheet size in inches: 36x24, 42x30 or 24x18")
	fs.Float64Var(&o.DPI, "dpi", 300, "resolution of the ground truth's pixel coordinates")
	fs.IntVar(&o.PlanInstances, "plan-instances", 0, "fill each plan with legend symbol instances up to this many, as its rooms leave room (a load fixture; 0: the usual few of each)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		fs.Usage()
		return errors.New("synth: --out is required")
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("synth: unexpected arguments %q", fs.Args())
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	set, err := synth.Generate(o)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	base := filepath.Join(*out, fmt.Sprintf("synth-%d", o.Seed))
	type output struct {
		path  string
		write func(io.Writer) error
	}
	files := []output{{base + ".pdf", set.WritePDF}}
	if o.Revision {
		files = append(files, output{base + "-rev.pdf", set.WriteRevisionPDF}, output{base + "-moved.pdf", set.WriteMovedPDF})
	}
	files = append(files, output{base + ".json", set.WriteTruth})
	for _, f := range files {
		if err := synth.WriteFile(f.path, f.write); err != nil {
			return err
		}
		fmt.Fprintln(stdout, f.path)
	}
	return nil
}
