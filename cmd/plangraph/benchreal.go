package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/service/drawings"
	parsesvc "github.com/plangraph/plangraph/internal/service/parse"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/tools/bench"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/vision/geom"
)

// benchReal scores ingestion and parse on the labelled real sets in a
// folder (the datasets' real/): sheet metadata, title blocks, blocks,
// legend entries and hand counts, and the parse's time against render.
func benchReal(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plangraph bench real", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o bench.RealOptions
	only := fs.String("only", "", "comma-separated parts of file names: run only those sets")
	fs.StringVar(&o.Labels, "labels", "", "folder of label files (default: the labels built in, internal/tools/bench/labels)")
	fs.BoolVar(&o.IngestOnly, "ingest-only", false, "ingest only: score sheets and blocks, not legends, counts or parse time")
	fs.BoolVar(&o.Verbose, "v", false, "list every mismatch")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: plangraph bench real [--only a,b] [--ingest-only] [--labels DIR] [-v] DIR")
	}
	o.Dir = fs.Arg(0)
	if *only != "" {
		o.Only = strings.Split(*only, ",")
	}
	return withLocal(ctx, *cpuProfile, 300, stderr, func(l *local) error {
		o.Parse = l.realParser(stderr)
		_, err := bench.Real(ctx, o, stdout)
		return err
	})
}

// realParser ingests (and parses) a drawing in l and reads back what the
// pipeline stored: sheets, blocks, legend entries and instances.
func (l *local) realParser(progress io.Writer) bench.RealParse {
	return func(ctx context.Context, path string, ingestOnly bool) (bench.RealParsed, error) {
		var p bench.RealParsed
		var drawingID string
		if ingestOnly {
			f, err := l.upload(path)
			if err != nil {
				return p, err
			}
			res, err := l.app.Services.Drawings.Create(l.ctx, drawings.CreateInput{ProjectID: l.project, FileID: f.ID})
			if err != nil {
				return p, err
			}
			j, err := waitJob(l.ctx, l.app.Store.Client, res.Job.ID, progress)
			if err != nil {
				return p, err
			}
			if j.Status != job.StatusCompleted || j.CompletedAt == nil {
				return p, fmt.Errorf("ingest ended %s %+v", j.Status, j.Error)
			}
			p.Ingest = j.CompletedAt.Sub(j.CreatedAt)
			drawingID = res.Drawing.ID
		} else {
			j, res, err := l.parseFile(path, nil, progress)
			if err != nil {
				return p, err
			}
			p.Parsed = true
			for _, w := range res.Warnings {
				p.Warnings = append(p.Warnings, w.Code+": "+w.Message)
			}
			// the drawing's ingestion is the parse's drawing_preprocess child
			ing, err := l.app.Store.Client.Job.Query().Where(job.ParentID(j.ID), job.Type(jobs.TypeDrawingPreprocess)).Only(l.ctx)
			if err != nil {
				return p, fmt.Errorf("the parse's ingestion: %w", err)
			}
			if ing.CompletedAt == nil || j.CompletedAt == nil {
				return p, fmt.Errorf("parse or ingestion without an end time")
			}
			p.Ingest = ing.CompletedAt.Sub(ing.CreatedAt)
			p.Parse = j.CompletedAt.Sub(*ing.CompletedAt)
			drawingID = ing.TargetID
		}
		if err := l.readBack(drawingID, &p); err != nil {
			return p, err
		}
		project := l.project
		p.Ask = func(ctx context.Context, q string) (*search.Answer, error) {
			return l.app.Services.Search.Ask(l.ctx, project, search.AskInput{Question: q, DrawingID: drawingID, MaxSources: search.MaxSources})
		}
		p.Visual = func(ctx context.Context, page int, box geom.Box) (*search.Result, error) {
			sh, err := l.app.Store.Client.Sheet.Query().Where(sheet.DrawingID(drawingID), sheet.PageNumber(page)).Only(l.ctx)
			if err != nil {
				return nil, err
			}
			return l.app.Services.Search.Search(l.ctx, project, search.Input{Region: &search.Region{SheetID: sh.ID,
				Bounds: &parsesvc.Bounds{XMin: &box.XMin, YMin: &box.YMin, XMax: &box.XMax, YMax: &box.YMax}}})
		}
		return p, nil
	}
}

// readBack fills p.Sheets from what the drawing's sheets hold.
func (l *local) readBack(drawingID string, p *bench.RealParsed) error {
	c := l.app.Store.Client
	sheets, err := c.Sheet.Query().Where(sheet.DrawingID(drawingID)).
		WithBlocks().Order(ent.Asc(sheet.FieldPageNumber)).All(l.ctx)
	if err != nil {
		return err
	}
	for _, s := range sheets {
		rs := bench.RealSheet{Page: s.PageNumber, DPI: float64(s.Dpi), Number: s.SheetNumber, Title: s.Title,
			Discipline: s.Discipline, Revision: s.Revision}
		blocks := map[string]*ent.Block{}
		var ids []string
		for _, b := range s.Edges.Blocks {
			blocks[b.ID] = b
			ids = append(ids, b.ID)
			rs.Blocks = append(rs.Blocks, bench.RealBlock{Type: string(b.Type), Title: b.Title, Scale: b.Scale, Box: b.Bounds})
		}
		feats, err := c.Feature.Query().Where(feature.BlockIDIn(ids...)).WithDefinedBy().All(l.ctx)
		if err != nil {
			return err
		}
		for _, f := range feats {
			b := blocks[f.BlockID]
			switch f.Kind {
			case feature.KindLegendEntry:
				e := bench.RealEntry{Label: f.Label, Description: f.Description, HasGraphic: f.HasGraphic}
				if f.HasGraphic {
					e.Graphic = f.Bounds.Translate(b.Bounds.XMin, b.Bounds.YMin)
				}
				rs.Legend = append(rs.Legend, e)
			case feature.KindSymbolInstance:
				in := bench.RealInstance{Box: f.Bounds.Translate(b.Bounds.XMin, b.Bounds.YMin)}
				if f.Confidence != nil {
					in.Confidence = *f.Confidence
				}
				if f.Edges.DefinedBy != nil {
					in.Label = f.Edges.DefinedBy.Label
				}
				rs.Instances = append(rs.Instances, in)
			}
		}
		p.Sheets = append(p.Sheets, rs)
	}
	return nil
}
