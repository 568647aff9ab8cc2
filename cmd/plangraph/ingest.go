package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/server"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/render"
)

// ingestCmd runs the ingestion pipeline on a local file without a server:
// a throwaway embedded instance (SQLite, in-process queue) in a temp dir.
func ingestCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newLocalCmd("ingest", "Reads a PDF, PNG, JPEG or TIFF into sheets (number, title, discipline, size).", stderr)
	out := c.fs.String("out", "", "write the sheets as JSON to this file (default: standard output)")
	debugDir := c.fs.String("debug-dir", "", "write page-N.png pictures with the blocks found drawn on each page")
	path, err := c.parse(args)
	if err != nil {
		return err
	}
	l, done, err := c.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer done()
	app, ctx := l.app, l.ctx
	d, f, err := l.ingest(path, stderr)
	if err != nil {
		return err
	}
	sheets, err := app.Store.Client.Sheet.Query().Where(sheet.DrawingID(d.ID)).Order(ent.Asc(sheet.FieldPageNumber)).All(ctx)
	if err != nil {
		return err
	}
	if *debugDir != "" {
		if err := writeDebug(ctx, app, path, f.ContentType, sheets, *debugDir, stderr); err != nil {
			return err
		}
	}
	type blockRow struct {
		Type        string   `json:"type"`
		Title       string   `json:"title"`
		Scale       string   `json:"scale"`
		Description string   `json:"description"`
		Bounds      geom.Box `json:"bounds"`
	}
	type row struct {
		Page        int        `json:"page_number"`
		SheetNumber string     `json:"sheet_number"`
		Title       string     `json:"title"`
		Discipline  string     `json:"discipline"`
		Revision    string     `json:"revision"`
		Width       int        `json:"width"`
		Height      int        `json:"height"`
		DPI         int        `json:"dpi"`
		Blocks      []blockRow `json:"blocks"`
	}
	rows := make([]row, len(sheets))
	for i, s := range sheets {
		rows[i] = row{s.PageNumber, s.SheetNumber, s.Title, s.Discipline, s.Revision, s.Width, s.Height, s.Dpi, []blockRow{}}
		blocks, err := app.Store.Client.Block.Query().Where(block.SheetID(s.ID)).Order(ent.Asc(block.FieldCreatedAt), ent.Asc(block.FieldID)).All(ctx)
		if err != nil {
			return err
		}
		for _, b := range blocks {
			rows[i].Blocks = append(rows[i].Blocks, blockRow{string(b.Type), b.Title, b.Scale, b.Description, b.Bounds})
		}
	}
	return writeJSON(*out, stdout, map[string]any{"file": path, "sheets": rows})
}

// waitJob polls a job until it ends, drawing a progress bar on w.
func waitJob(ctx context.Context, db *ent.Client, id string, w io.Writer) (*ent.Job, error) {
	start := time.Now()
	last := ""
	for {
		j, err := db.Job.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		done := int(j.Progress * 40)
		line := fmt.Sprintf("[%s%s] %3.0f%%  %s  %.0fs", strings.Repeat("#", done), strings.Repeat(".", 40-done), j.Progress*100, j.Status, time.Since(start).Seconds())
		if line != last {
			fmt.Fprint(w, "\r"+line)
			last = line
		}
		if jobstatus.Terminal(string(j.Status)) {
			fmt.Fprintln(w)
			return j, nil
		}
		select {
		case <-ctx.Done():
			fmt.Fprintln(w)
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// writeDebug draws each sheet's blocks on a ~2400 px rendering of its page.
func writeDebug(ctx context.Context, app *server.App, path, ct string, sheets []*ent.Sheet, dir string, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range sheets {
		blocks, err := app.Store.Client.Block.Query().Where(block.SheetID(s.ID)).All(ctx)
		if err != nil {
			return err
		}
		dpi := s.Dpi
		if long := max(s.Width, s.Height); long > 2400 {
			dpi = max(render.MinDPI, s.Dpi*2400/long)
		}
		lim := render.DefaultLimits()
		lim.DPI = dpi
		doc, err := render.Open(path, ct, lim)
		if err != nil {
			return err
		}
		img, err := render.RenderContext(ctx, doc, s.PageNumber-1)
		doc.Close()
		if err != nil {
			return err
		}
		lb := make([]layout.Block, len(blocks))
		for i, b := range blocks {
			lb[i] = layout.Block{Type: string(b.Type), Title: b.Title, Scale: b.Scale, Box: b.Bounds}
		}
		out := filepath.Join(dir, fmt.Sprintf("page-%d.png", s.PageNumber))
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		err = render.EncodePNG(f, layout.Draw(img, lb, float64(img.Bounds().Dx())/float64(s.Width)))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s (%d blocks)\n", out, len(blocks))
	}
	return nil
}
