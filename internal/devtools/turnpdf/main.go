//go:build devtools

// Command turnpdf writes a copy of a PDF as other offices' plotters might
// have written it, to try the parse on: with -turn each page stored turned
// (its content turned a quarter counter-clockwise inside a media box turned
// with it, /Rotate raised by 90, so that a viewer shows the page as
// before: the same labels hold); with -scale S the pages printed at S of
// their size (a half-size set: label boxes × S, layoutdev -label-scale).
//
//	go run -tags devtools ./internal/devtools/turnpdf [-turn] [-scale S] IN.pdf OUT.pdf
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/plangraph/plangraph/internal/tools/bench"
	"github.com/plangraph/plangraph/vision/compare/report"
)

func main() {
	turnPages := flag.Bool("turn", false, "store each page turned, shown as before")
	scale := flag.Float64("scale", 1, "print the pages at this scale")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: turnpdf [-turn] [-scale S] IN.pdf OUT.pdf")
		os.Exit(2)
	}
	if err := turn(flag.Arg(0), flag.Arg(1), *turnPages, *scale); err != nil {
		fmt.Fprintln(os.Stderr, "turnpdf:", err)
		os.Exit(1)
	}
}

func turn(in, out string, turnPages bool, scale float64) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	ctx, err := report.OpenPDF(f)
	if err != nil {
		return err
	}
	if scale != 1 {
		pages, err := api.PagesForPageSelection(ctx.PageCount, nil, true, true)
		if err != nil {
			return err
		}
		if err := pdfcpu.Resize(ctx, pages, &model.Resize{Scale: scale}); err != nil {
			return err
		}
	}
	for p := 1; turnPages && p <= ctx.PageCount; p++ {
		d, _, inh, err := ctx.PageDict(p, false)
		if err != nil {
			return err
		}
		if inh == nil || inh.MediaBox == nil {
			return fmt.Errorf("page %d has no media box", p)
		}
		// (x, y) → (−y, x): a box [x0,x1]×[y0,y1] becomes [−y1,−y0]×[x0,x1]
		turned := func(r *types.Rectangle) types.Array {
			return types.NewRectangle(-r.UR.Y, r.LL.X, -r.LL.Y, r.UR.X).Array()
		}
		d.Update("MediaBox", turned(inh.MediaBox))
		if inh.CropBox != nil {
			d.Update("CropBox", turned(inh.CropBox))
		}
		d.Update("Rotate", types.Integer((inh.Rotate+90)%360))
		d.Delete("Annots")
		if err := bench.WrapContent(ctx, d, []byte("q 0 1 -1 0 0 0 cm\n"), []byte("\nQ\n")); err != nil {
			return err
		}
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := api.WriteContext(ctx, w); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
