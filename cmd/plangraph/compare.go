package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/overlay"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/service/compare"
	"github.com/plangraph/plangraph/internal/tenant"
	comparejob "github.com/plangraph/plangraph/jobs/compare"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// compareCmd compares two revisions of a drawing set in a throwaway
// embedded instance, as POST /v1/drawings/{new}/compare does: both files
// are ingested, then the compare job tree runs with a progress bar, and the
// report is written as Markdown, PDF, JSON, the overlays' images and the
// newer drawing marked up with revision clouds.
func compareCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newLocalCmd("compare", "Compares two revisions of a drawing set (PDF, PNG, JPEG or TIFF): sheets and blocks paired, "+
		"each block pair aligned and compared, the changes described. The Markdown report goes to standard output unless --out names a file.", stderr, "OLD", "NEW")
	out := c.fs.String("out", "", "write the report as Markdown to this file (default: standard output)")
	pdfOut := c.fs.String("pdf", "", "write the report as a PDF, with each changed overlay's image, to this file")
	jsonOut := c.fs.String("json", "", "write the completed compare job (as GET /v1/jobs/{id} shows it; its results are the report) to this file")
	imagesDir := c.fs.String("images", "", "write each overlay's images (combined, addition, deletion, aligned_a, aligned_b) as PNGs to this directory")
	markupOut := c.fs.String("markup", "", "write NEW marked up with a revision cloud around each group of changes to this PDF (NEW must be a PDF)")
	tolerance := c.fs.Float64("tolerance-px", compare.DefaultTolerancePx, "how far a mark may move and still be the same mark, pixels at 300 DPI")
	margin := c.fs.Float64("cloud-margin-px", compare.DefaultCloudMarginPx, "margin of the revision clouds around their changes, pixels at 300 DPI")
	ignoreText := c.fs.Bool("ignore-text", false, "leave changes of words out")
	ignoreHatches := c.fs.Bool("ignore-hatches", false, "leave changes of hatching and screened fills out")
	overlaysOnly := c.fs.Bool("overlays-only", false, "make the overlays without describing their changes (analyze: [])")
	paths, err := c.parseFiles(args)
	if err != nil {
		return err
	}
	l, done, err := c.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer done()
	app, lctx := l.app, l.ctx
	var drws [2]*ent.Drawing
	for i, p := range paths {
		fmt.Fprintf(stderr, "ingesting %s\n", p)
		if drws[i], _, err = l.ingest(p, stderr); err != nil {
			return err
		}
	}
	var analyze []string
	if *overlaysOnly {
		analyze = []string{}
	}
	old := drws[0].ID
	j, err := app.Services.Compare.StartFrom(lctx, comparejob.TypeDrawing, drws[1].ID, compare.PathInput{CompareTo: &old, Analyze: analyze,
		Options: &compare.Options{TolerancePx: tolerance, CloudMarginPx: margin, IgnoreText: ignoreText, IgnoreHatches: ignoreHatches}})
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "comparing")
	final, err := waitJob(lctx, app.Store.Client, j.ID, stderr)
	if err != nil {
		return err
	}
	if final.Status != job.StatusCompleted {
		return fmt.Errorf("compare: %s", failure(final))
	}
	var rep engine.Report
	if err := json.Unmarshal(final.Result, &rep); err != nil {
		return err
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	fmt.Fprintf(stderr, "%s in %s\n", summary(&rep), final.CompletedAt.Sub(final.CreatedAt).Round(100*time.Millisecond))
	svc := app.Services.Compare
	for _, d := range []struct {
		path string
		make func(context.Context, string) ([]byte, error)
	}{{*pdfOut, svc.PDF}, {*markupOut, svc.Markup}} {
		if d.path == "" {
			continue
		}
		b, err := d.make(lctx, j.ID)
		if err == nil {
			err = os.WriteFile(d.path, b, 0o644)
		}
		if err != nil {
			return err
		}
	}
	if *jsonOut != "" {
		doc := map[string]any{"job_id": final.ID, "type": final.Type, "status": final.Status,
			"target":  map[string]string{"type": string(final.TargetType), "id": final.TargetID},
			"results": rep, "created_at": final.CreatedAt, "completed_at": final.CompletedAt}
		if err := writeJSON(*jsonOut, stdout, doc); err != nil {
			return err
		}
	}
	if *imagesDir != "" {
		if err := l.writeOverlayImages(j.ID, &rep, *imagesDir); err != nil {
			return err
		}
	}
	md, err := svc.Markdown(lctx, j.ID)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = stdout.Write(md)
		return err
	}
	return os.WriteFile(*out, md, 0o644)
}

// summary is a line saying what a comparison found.
func summary(r *engine.Report) string {
	n, changes := 0, 0
	for _, p := range r.Pairs {
		n += len(p.Overlays)
		for _, o := range p.Overlays {
			changes += len(o.Changes)
		}
	}
	s := fmt.Sprintf("%d sheet pairs, %d block pairs compared", len(r.Pairs), n)
	if r.Analyzed {
		s += fmt.Sprintf(", %d changes", changes)
	}
	return s + fmt.Sprintf("; %d sheets added, %d removed, %d renumbered", len(r.SheetsAdded), len(r.SheetsRemoved), len(r.SheetsRenumbered))
}

// writeOverlayImages copies the images of compare job jobID's overlays to
// dir, named by sheet, block type and place in the report: A-101_Plan_1.png
// (combined), A-101_Plan_1-addition.png, …
func (l *local) writeOverlayImages(jobID string, r *engine.Report, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ovs, err := l.app.Store.Client.Overlay.Query().Where(overlay.JobID(jobID)).All(l.ctx)
	if err != nil {
		return err
	}
	names := map[string]string{}
	used := map[string]int{}
	for _, p := range r.Pairs {
		sheet := p.New.Number
		if sheet == "" {
			sheet = fmt.Sprintf("page%d", p.New.Page)
		}
		for _, o := range p.Overlays {
			base := strings.Map(func(r rune) rune {
				if r == '/' || r == '\\' || r == ' ' {
					return '_'
				}
				return r
			}, sheet+"_"+o.New.Type)
			used[base]++
			names[o.OverlayID] = fmt.Sprintf("%s_%d", base, used[base])
		}
	}
	sort.Slice(ovs, func(a, b int) bool { return ovs[a].ID < ovs[b].ID })
	org, _ := tenant.Org(l.ctx)
	for _, o := range ovs {
		name := names[o.ID]
		if name == "" {
			name = o.ID
		}
		for _, img := range blobs.OverlayImages {
			data, err := l.app.Blobs.ReadAll(l.ctx, blobs.OverlayKey(org, o.ID)+img.Suffix)
			if err != nil {
				continue // not made (the difference was not computed)
			}
			file := name + ".png"
			if img != blobs.OverlayCombined {
				file = name + "-" + img.Name + ".png"
			}
			if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
