package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/plangraph/plangraph/vision/compare/report"
)

// CompareRealOptions configure CompareReal: every PDF of Dir compared with
// itself reprinted at Scale and shifted by ShiftPt points right and down
// (nothing changed, so every change reported is false); with Edit, also
// with that reprint carrying known edits (drawEdits), to be found.
type CompareRealOptions struct {
	Dir     string
	Only    []string // parts of file names; empty: every PDF
	Scale   float64  // the reprint's scale (default 0.97)
	ShiftPt float64  // the reprint's shift in points (default 9: 3.2 mm)
	Out     string   // keep the reprints and reports here (default: a temporary directory)
	Edit    bool     // also compare each PDF with its reprint carrying known edits
	Run     CompareRun
}

// CompareRealResult sums a CompareReal run.
type CompareRealResult struct {
	Sets, Sheets, Pairs int
	Changes             int      // all false: the content is the same
	Extras              []string // the first changes of each set
	Skipped             []string // sets whose reprint could not be made, and why
	// With Edit: EditsFound of Edits known edits reported, EditOther
	// changes reported on no edit (false), the first misses and false
	// changes of each set.
	Edits, EditsFound, EditOther int
	EditMisses, EditExtras       []string
}

// CompareReal compares each real PDF with its shifted, rescaled reprint.
func CompareReal(ctx context.Context, o CompareRealOptions, out io.Writer) (CompareRealResult, error) {
	var res CompareRealResult
	if o.Run == nil {
		return res, fmt.Errorf("bench compare --real: no runner")
	}
	if o.Scale == 0 {
		o.Scale = 0.97
	}
	if o.ShiftPt == 0 {
		o.ShiftPt = 9
	}
	files, err := filepath.Glob(filepath.Join(o.Dir, "*.pdf"))
	if err != nil {
		return res, err
	}
	dir, done, err := workDir(o.Out, "plangraph-bench-compare-real-")
	if err != nil {
		return res, err
	}
	defer done()
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".pdf")
		if len(o.Only) > 0 && !containsAny(name, o.Only) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		reprint := filepath.Join(dir, name+"-reprint.pdf")
		if _, err := reprintPDF(f, reprint, o.Scale, o.ShiftPt, false); err != nil {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s: reprint: %v", name, err))
			fmt.Fprintf(out, "%-34s not reprinted: %v\n", name, err)
			continue
		}
		ran, err := o.Run(ctx, f, reprint)
		if err != nil {
			return res, fmt.Errorf("%s: %w", name, err)
		}
		if err := writeJSON(filepath.Join(dir, name+"-report.json"), ran.Report); err != nil {
			return res, err
		}
		pairs := 0
		for _, p := range ran.Report.Pairs {
			pairs += len(p.Overlays)
		}
		changes := reportedChanges(ran)
		res.Sets++
		res.Sheets += len(ran.Report.Pairs)
		res.Pairs += pairs
		res.Changes += len(changes)
		for i, c := range changes {
			if i == 3 {
				break
			}
			res.Extras = append(res.Extras, fmt.Sprintf("%s: %s %s %q at %s", name, c.Kind, c.Category, c.Description, fmtBox(c.page)))
		}
		fmt.Fprintf(out, "%-34s %2d sheets  %3d block pairs  %3d changes (0 expected)  compare %.1f s\n",
			name, len(ran.Report.Pairs), pairs, len(changes), ran.Compare.Seconds())
		if o.Edit {
			if err := compareEdited(ctx, o, f, filepath.Join(dir, name), &res, out); err != nil {
				return res, fmt.Errorf("%s (edited): %w", name, err)
			}
		}
	}
	fmt.Fprintf(out, "overall: %d sets, %d sheets, %d block pairs, %d changes reported between a sheet and its reprint (scale %.2f, shift %.0f pt)\n",
		res.Sets, res.Sheets, res.Pairs, res.Changes, o.Scale, o.ShiftPt)
	for _, e := range res.Extras {
		fmt.Fprintln(out, "  "+e)
	}
	if o.Edit {
		fmt.Fprintf(out, "overall (edited reprint): %d of %d edits found (%.0f%%), %d other changes (false)\n",
			res.EditsFound, res.Edits, 100*float64(res.EditsFound)/math.Max(1, float64(res.Edits)), res.EditOther)
		for _, e := range append(res.EditMisses, res.EditExtras...) {
			fmt.Fprintln(out, "  "+e)
		}
	}
	for _, e := range res.Skipped {
		fmt.Fprintln(out, "  skipped "+e)
	}
	return res, nil
}

// compareEdited compares the PDF f with its reprint carrying known edits
// (written as base-edited.pdf, its report base-edited-report.json) and adds
// the score to res: the report's changes and its blocks added both count.
func compareEdited(ctx context.Context, o CompareRealOptions, f, base string, res *CompareRealResult, out io.Writer) error {
	name := filepath.Base(base)
	edited := base + "-edited.pdf"
	edits, err := reprintPDF(f, edited, o.Scale, o.ShiftPt, true)
	if err != nil {
		return err
	}
	ran, err := o.Run(ctx, f, edited)
	if err != nil {
		return err
	}
	if err := writeJSON(base+"-edited-report.json", ran.Report); err != nil {
		return err
	}
	s := scoreEdits(name, edits, float64(ran.DPI), append(reportedChanges(ran), addedBlocks(ran)...))
	res.Edits += s.Total
	res.EditsFound += s.Found
	res.EditOther += s.Other
	res.EditMisses = append(res.EditMisses, firstN(s.Misses, 3)...)
	res.EditExtras = append(res.EditExtras, firstN(s.Extras, 3)...)
	fmt.Fprintf(out, "%-34s edited: %2d of %2d edits found  %3d other changes (0 expected)  compare %.1f s\n",
		name, s.Found, s.Total, s.Other, ran.Compare.Seconds())
	return nil
}

func firstN(s []string, n int) []string { return s[:min(n, len(s))] }

func containsAny(s string, parts []string) bool {
	for _, p := range parts {
		if p != "" && strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// reprintPDF writes in's pages scaled by scale (content and page alike) and
// moved by shift points right and down on their page (the media box moved
// the other way), as a reprint at another size, placed otherwise, would be.
// With edit, known edits are drawn on each page after (drawEdits) and
// returned.
func reprintPDF(in, out string, scale, shift float64, edit bool) ([]pdfEdit, error) {
	f, err := os.Open(in)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// read as the markup PDF is: real files bend the spec (E201A's measure dictionaries)
	ctx, err := report.OpenPDF(f)
	if err != nil {
		return nil, err
	}
	pages, err := api.PagesForPageSelection(ctx.PageCount, nil, true, true)
	if err != nil {
		return nil, err
	}
	if err := pdfcpu.Resize(ctx, pages, &model.Resize{Scale: scale}); err != nil {
		return nil, err
	}
	err = eachPage(ctx, func(_ int, d types.Dict, inh *model.InheritedPageAttrs) error {
		moved := func(r *types.Rectangle) types.Array {
			return types.NewRectangle(r.LL.X-shift, r.LL.Y+shift, r.UR.X-shift, r.UR.Y+shift).Array()
		}
		d.Update("MediaBox", moved(inh.MediaBox))
		if inh.CropBox != nil {
			d.Update("CropBox", moved(inh.CropBox))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var edits []pdfEdit
	if edit {
		if edits, err = drawEdits(ctx); err != nil {
			return nil, err
		}
	}
	w, err := os.Create(out)
	if err != nil {
		return nil, err
	}
	if err := api.WriteContext(ctx, w); err != nil {
		w.Close()
		return nil, err
	}
	return edits, w.Close()
}
