// Package parse is the parse operation (POST /v1/parse, the parse
// mutation): it validates a request, reads and stores the symbol images it
// supplies, records the job with its supplied legend entries (and, for a
// file, the drawing made from it) and queues the job, which package jobs
// runs. Its option values and limits are the one source the OpenAPI
// document and the checks share.
package parse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/service/drawings"
	"github.com/plangraph/plangraph/internal/service/images"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
)

// Parse request rules (interface specification, POST /parse).
var (
	// Features are the feature values accepted today.
	Features = []string{"symbols"}
	// ComingSoon are the feature values announced but not built.
	ComingSoon = []string{"legend", "rooms", "grid", "schedule", "notes", "title_block"}
	// Values of the option groups that are validated but not used yet.
	MEPSystems      = []string{"hvac_duct", "hvac_pipe", "plumbing", "electrical", "fire_protection"}
	DimensionUnits  = []string{"imperial", "metric"}
	AnnotationTypes = []string{"cloud", "callout", "redline", "keynote"}
	TextRegions     = []string{"notes", "schedules", "specifications"}
	// ImageTypes are the formats of symbol images.
	ImageTypes = images.Types
)

// Limits of a parse request.
const (
	// MaxSymbols is the most symbols (legend entries and exemplars
	// together) a request may supply.
	MaxSymbols = 500
	// MaxLabel and MaxDescription bound a supplied symbol's texts, in
	// characters.
	MaxLabel       = 200
	MaxDescription = 2000
	// MaxImagePixels and MaxImageBytes bound a symbol image.
	MaxImagePixels = images.MaxImagePixels
	MaxImageBytes  = images.MaxImageBytes
	// MaxRequestPixels bounds the pixels of all the symbol images of one
	// request together (as decoded, before cropping): a request over it is
	// refused (400) before the image that would pass it is decoded.
	MaxRequestPixels = images.MaxRequestPixels
)

// Service runs the parse operation.
type Service struct{ *base.Deps }

// supplied is one legend entry sent with a parse request.
type supplied struct {
	field       string // options.symbols.legend[0]
	label, desc string
	imageURL    *string
	source      *ExemplarSource
	img         *image.Gray
	featureID   string
}

// target is what a parse job is about.
type target struct {
	project string
	typ     job.TargetType
	id      string
}

// request is what check makes of a valid request's shape.
type request struct {
	sups          []*supplied
	legendBlockID string
	count         bool
}

// Start validates a parse request, stores the symbols it supplies and
// queues the parse job.
func (s *Service) Start(ctx context.Context, in Input) (*ent.Job, error) {
	if err := in.missingCoordinates(); err != nil {
		return nil, err
	}
	req, err := check(in)
	if err != nil {
		return nil, err
	}
	sups, legendBlockID := req.sups, req.legendBlockID

	// the target, in this organization (another organization's is missing)
	pj := parsejob.ParseInput{Features: dedupe(in.Features), LegendBlockID: legendBlockID, Count: req.count}
	var (
		t       target
		srcFile *ent.File
	)
	switch {
	case in.SheetID != nil:
		var sh *ent.Sheet
		if sh, err = base.Get(ctx, "sheet", *in.SheetID, s.DB.Sheet.Get); err == nil {
			pj.SheetID, t = sh.ID, target{sh.ProjectID, job.TargetTypeSheet, sh.ID}
			_, err = s.ReadyDrawing(ctx, sh.DrawingID, "parse")
		}
	case in.BlockID != nil:
		var b *ent.Block
		if b, err = base.Get(ctx, "block", *in.BlockID, s.DB.Block.Get); err == nil {
			pj.BlockID, t = b.ID, target{b.ProjectID, job.TargetTypeBlock, b.ID}
		}
	case in.DrawingID != nil:
		var d *ent.Drawing
		if d, err = s.ReadyDrawing(ctx, *in.DrawingID, "parse"); err == nil {
			pj.DrawingID, t = d.ID, target{d.ProjectID, job.TargetTypeDrawing, d.ID}
		}
	case in.FileID != nil:
		if srcFile, err = base.Get(ctx, "file", *in.FileID, s.DB.File.Get); err != nil {
			break
		}
		if srcFile.Status != file.StatusReady {
			return nil, apierr.Invalid("file_id", "is not confirmed yet: upload its bytes and call POST /v1/files/{id}/confirm").WithCode("FILE_NOT_READY")
		}
		// the drawing made from the file is the job's target
		pj.FileID, pj.DrawingID = srcFile.ID, ids.New(ids.Drawing)
		t = target{srcFile.ProjectID, job.TargetTypeDrawing, pj.DrawingID}
	}
	if err != nil {
		return nil, err
	}
	if legendBlockID != "" {
		if _, err := base.Get(ctx, "legend block", legendBlockID, s.DB.Block.Get); err != nil {
			return nil, err
		}
	}
	// the supplied symbols' images
	bad := apierr.Fields{}
	budget := MaxRequestPixels
	for _, sup := range sups {
		switch {
		case sup.source != nil:
			sh, err := base.Get(ctx, "sheet", sup.source.SheetID, s.DB.Sheet.Get)
			if err != nil {
				return nil, err
			}
			if b := sup.source.Bounds.Box(); b.XMax > float64(sh.Width) || b.YMax > float64(sh.Height) {
				bad.Add(sup.field+".source.bounds", fmt.Sprintf("must lie within the sheet (%d × %d px)", sh.Width, sh.Height))
			}
		case sup.imageURL != nil:
			img, err := (&images.Reader{Deps: s.Deps}).Read(ctx, sup.field+".image_url", strings.TrimSpace(*sup.imageURL), &budget)
			var ae *apierr.Error
			if errors.As(err, &ae) && ae.Kind == apierr.Validation {
				for k, v := range ae.Fields {
					bad[k] = append(bad[k], v...)
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			sup.img = img
		}
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}

	org, _ := tenant.Org(ctx)
	jobID := ids.New(ids.Job)
	for _, sup := range sups {
		sup.featureID = ids.New(ids.Feature)
		ss := parsejob.SuppliedSymbol{FeatureID: sup.featureID}
		if sup.source != nil {
			ss.Source = &parsejob.ExemplarSource{SheetID: sup.source.SheetID, Bounds: sup.source.Bounds.Box()}
		}
		pj.Supplied = append(pj.Supplied, ss)
		if sup.img != nil {
			if err := blobs.PutPNG(ctx, s.Blobs, blobs.FeatureKey(org, sup.featureID)+".png", sup.img); err != nil {
				return nil, err
			}
			sup.img = nil
		}
	}
	input, err := json.Marshal(pj)
	if err != nil {
		return nil, err
	}
	var j *ent.Job
	err = base.WithTx(ctx, s.DB, func(tx *ent.Tx) error {
		c := tx.Job.Create().SetID(jobID).SetType(jobs.TypeParse).SetStatus(job.StatusQueued).
			SetTargetType(t.typ).SetTargetID(t.id).SetInput(input)
		if t.project != "" {
			c.SetProjectID(t.project)
		}
		var err error
		if j, err = c.Save(ctx); err != nil {
			return err
		}
		if srcFile != nil {
			if _, _, err := drawings.NewDrawing(ctx, tx, srcFile, srcFile.Filename, pj.DrawingID, jobID); err != nil {
				return err
			}
		}
		for i, sup := range sups {
			if err := tx.Feature.Create().SetID(sup.featureID).SetJobID(jobID).SetKind(feature.KindLegendEntry).
				SetLabel(sup.label).SetDescription(sup.desc).SetHasGraphic(sup.imageURL != nil || sup.source != nil).
				SetDedupeKey(fmt.Sprintf("supplied:%s:%d", jobID, i)).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.Enqueue(ctx, j)
	return j, nil
}

// check validates what a request says by itself (features, the one
// target, option values, the supplied symbols' fields), before anything
// is looked up.
func check(in Input) (*request, error) {
	bad := apierr.Fields{}
	// features
	switch {
	case in.Features == nil:
		bad.Add("features", `is required; "symbols" is available`)
	case len(in.Features) == 0:
		bad.Add("features", `must name at least one feature; "symbols" is available`)
	}
	for _, f := range in.Features {
		switch {
		case slices.Contains(Features, f):
		case slices.Contains(ComingSoon, f):
			bad.Add("features", fmt.Sprintf(`%q is coming soon; only "symbols" is available today`, f))
		default:
			bad.Add("features", fmt.Sprintf(`%q is not a parse feature; only "symbols" is available`, f))
		}
	}
	// exactly one target
	targets := []struct {
		name string
		v    *string
	}{{"sheet_id", in.SheetID}, {"block_id", in.BlockID}, {"drawing_id", in.DrawingID}, {"file_id", in.FileID}}
	var given []string
	for _, t := range targets {
		if t.v != nil && *t.v != "" {
			given = append(given, t.name)
		} else if t.v != nil {
			bad.Add(t.name, "must not be empty")
		}
	}
	switch {
	case len(given) == 0:
		for _, t := range targets {
			bad.Add(t.name, "exactly one of sheet_id, block_id, drawing_id and file_id is required")
		}
	case len(given) > 1:
		for _, n := range given {
			bad.Add(n, "only one of sheet_id, block_id, drawing_id and file_id may be given; this request has "+strings.Join(given, ", "))
		}
	}
	opts := in.Options
	if opts == nil {
		opts = &Options{}
	}
	checkValues := func(field string, vals []string, allowed []string) {
		for _, v := range vals {
			if !slices.Contains(allowed, v) {
				bad.Add(field, fmt.Sprintf("%q is not one of %s", v, strings.Join(allowed, ", ")))
			}
		}
	}
	if o := opts.MEP; o != nil {
		checkValues("options.mep.systems", o.Systems, MEPSystems)
	}
	if o := opts.Dimensions; o != nil && o.Units != nil {
		checkValues("options.dimensions.units", []string{*o.Units}, DimensionUnits)
	}
	if o := opts.Annotations; o != nil {
		checkValues("options.annotations.types", o.Types, AnnotationTypes)
	}
	if o := opts.Text; o != nil {
		checkValues("options.text.regions", o.Regions, TextRegions)
	}
	sym := opts.Symbols
	if sym == nil {
		sym = &SymbolOptions{}
	}
	var sups []*supplied
	for i, l := range sym.Legend {
		if l == nil {
			l = &LegendSymbol{} // null in a REST body: its label is missing
		}
		s := &supplied{field: fmt.Sprintf("options.symbols.legend[%d]", i), label: l.Label, imageURL: l.ImageURL}
		if l.Description != nil {
			s.desc = *l.Description
		}
		sups = append(sups, s)
	}
	for i, e := range sym.Exemplars {
		if e == nil {
			e = &Exemplar{}
		}
		s := &supplied{field: fmt.Sprintf("options.symbols.exemplars[%d]", i), label: e.Label, imageURL: e.ImageURL, source: e.Source}
		if e.Description != nil {
			s.desc = *e.Description
		}
		switch {
		case e.ImageURL == nil && e.Source == nil:
			bad.Add(s.field, "needs image_url or source")
		case e.ImageURL != nil && e.Source != nil:
			bad.Add(s.field, "has both image_url and source; give one")
		case e.Source != nil && e.Source.SheetID == "":
			bad.Add(s.field+".source.sheet_id", "is required")
		case e.Source != nil && !e.Source.Bounds.Valid():
			bad.Add(s.field+".source.bounds", "must be a box with 0 ≤ x_min < x_max and 0 ≤ y_min < y_max")
		}
		sups = append(sups, s)
	}
	if len(sups) > MaxSymbols {
		bad.Add("options.symbols", fmt.Sprintf("supplies %d symbols; at most %d", len(sups), MaxSymbols))
	}
	for _, s := range sups {
		s.label, s.desc = strings.TrimSpace(s.label), strings.TrimSpace(s.desc)
		switch {
		case s.label == "":
			bad.Add(s.field+".label", "is required")
		case utf8.RuneCountInString(s.label) > MaxLabel:
			bad.Add(s.field+".label", fmt.Sprintf("must be at most %d characters", MaxLabel))
		}
		if utf8.RuneCountInString(s.desc) > MaxDescription {
			bad.Add(s.field+".description", fmt.Sprintf("must be at most %d characters", MaxDescription))
		}
		if s.imageURL != nil && strings.TrimSpace(*s.imageURL) == "" {
			bad.Add(s.field+".image_url", "must not be empty")
		}
	}
	legendBlockID := ""
	if sym.LegendBlockID != nil {
		legendBlockID = *sym.LegendBlockID
		if legendBlockID == "" {
			bad.Add("options.symbols.legend_block_id", "must not be empty")
		}
	}
	if in.BlockID != nil && *in.BlockID != "" && legendBlockID == "" && len(sups) == 0 {
		bad.Add("options.symbols.legend_block_id", "is required with block_id, unless options.symbols.legend or options.symbols.exemplars supply the symbols")
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}
	return &request{sups: sups, legendBlockID: legendBlockID, count: sym.Count != nil && *sym.Count}, nil
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
