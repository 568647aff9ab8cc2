// Package parse is the parse pipeline: legends read, view blocks searched
// for their symbols and the results combined, as jobs run by the jobs
// framework; its results (ParseResult, …) are what the API returns.
package parse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"math"
	"sort"
	"time"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/legend"
	"github.com/plangraph/plangraph/vision/ocr"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
)

// ViewBlockTypes are the blocks searched for symbols; legends, notes,
// schedules and title blocks are not.
var ViewBlockTypes = []block.Type{block.TypePlan, block.TypeElevation, block.TypeSection, block.TypeDetail, block.TypeDiagram}

// MinSymbolPixels300 is the smallest symbol width or height searched for,
// in pixels at 300 DPI (scaled to the sheet's DPI).
const MinSymbolPixels300 = 10

// SourceRequest marks the results.legend item of the symbols a request
// supplied (options.symbols.legend and exemplars): it has no block.
const SourceRequest = "request"

// ParseInput is a parse job's input, written by the parse mutation.
type ParseInput struct {
	Features []string `json:"features"`
	// exactly one of the targets; a file target also has the drawing made from it
	SheetID   string `json:"sheet_id,omitempty"`
	BlockID   string `json:"block_id,omitempty"`
	DrawingID string `json:"drawing_id,omitempty"`
	FileID    string `json:"file_id,omitempty"`
	// LegendBlockID is the legend to use; legend detection is skipped.
	LegendBlockID string `json:"legend_block_id,omitempty"`
	// Count leaves the instance lists out of the result.
	Count bool `json:"count,omitempty"`
	// Supplied are the legend entries sent with the request, as block-less
	// legend_entry features made with the job, in request order.
	Supplied []SuppliedSymbol `json:"supplied,omitempty"`
}

// Detect reports whether legends are found by reading legend blocks of the
// target (neither a legend block nor symbols were named).
func (in ParseInput) Detect() bool { return in.LegendBlockID == "" && len(in.Supplied) == 0 }

// SuppliedSymbol is one supplied legend entry.
type SuppliedSymbol struct {
	FeatureID string `json:"feature_id"`
	// Source is a region of a sheet the job cuts the exemplar from
	// (exemplars[].source); other images were stored with the request.
	Source *ExemplarSource `json:"source,omitempty"`
}

// ExemplarSource is a region of a sheet, in sheet pixels.
type ExemplarSource struct {
	SheetID string   `json:"sheet_id"`
	Bounds  geom.Box `json:"bounds"`
}

// LegendSymbol is one legend entry in results.
type LegendSymbol struct {
	FeatureID   string `json:"feature_id"`
	Label       string `json:"label"`
	Description string `json:"description"`
	HasGraphic  bool   `json:"has_graphic"`
}

// LegendResult is a vision.legend.parse job's result (the results of the
// parse.child.completed event) and one item of a parse result's legend[].
// BlockID is null, and Source "request", for the supplied symbols.
type LegendResult struct {
	BlockID            *string        `json:"block_id"`
	Source             string         `json:"source,omitempty"`
	SymbolsDetected    int            `json:"symbols_detected"`
	SymbolsWithGraphic int            `json:"symbols_with_graphic"`
	Symbols            []LegendSymbol `json:"symbols"`
	// Warnings name the entries not made into a template to search for,
	// and why (a legend job's result only: the parse result moves them to
	// its own warnings)
	Warnings []ParseWarning `json:"warnings,omitempty"`
}

// ParseInstance is one detected symbol instance.
type ParseInstance struct {
	FeatureID  string   `json:"feature_id"`
	BlockID    string   `json:"block_id,omitempty"`
	Bounds     geom.Box `json:"bounds"`
	Confidence float64  `json:"confidence"`
}

// ParseSymbol is one symbol type with detections.
type ParseSymbol struct {
	Label           string          `json:"label"`
	Description     string          `json:"description"`
	LegendFeatureID string          `json:"legend_feature_id"`
	InstanceCount   int             `json:"instance_count"`
	Instances       []ParseInstance `json:"instances,omitempty"`
}

// ParseSummary counts a result.
type ParseSummary struct {
	TotalSymbolsSearched int `json:"total_symbols_searched"`
	TotalInstancesFound  int `json:"total_instances_found"`
}

// ParseWarning says why something was not searched or not found.
type ParseWarning struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	BlockID   string `json:"block_id,omitempty"`
	FeatureID string `json:"feature_id,omitempty"`
	Label     string `json:"label,omitempty"`
}

// Warning codes.
const (
	WarnNoLegend      = "NO_LEGEND"          // no legend block in scope
	WarnNoGraphics    = "NO_GRAPHIC_SYMBOLS" // legends hold only text entries
	WarnNoViewBlocks  = "NO_VIEW_BLOCKS"     // nothing to search
	WarnLegendFailed  = "LEGEND_FAILED"      // a legend block could not be read
	WarnMatchFailed   = "MATCH_FAILED"       // a view block could not be searched
	WarnBlockBlank    = "BLOCK_BLANK"        // a view block has nothing drawn
	WarnSymbolSkipped = "SYMBOL_SKIPPED"     // a symbol was not searched (a line style, too small, too large, blank)
	WarnTextOnly      = "TEXT_ONLY_ENTRY"    // a legend entry has no graphic: nothing to search for
	WarnExemplarBlank = "EXEMPLAR_BLANK"     // an exemplar region of a sheet is empty
	// a block's search ran out of its time budget (Parse.Budget): part of
	// the block, or some symbols, were not searched
	WarnSearchIncomplete = "SEARCH_INCOMPLETE"
)

// BlockMatchResult is a vision.symbols.match job's result: the results of
// the parse.block.completed event, plus what was skipped and why.
type BlockMatchResult struct {
	BlockID  string         `json:"block_id"`
	Symbols  []ParseSymbol  `json:"symbols"`
	Summary  ParseSummary   `json:"summary"`
	Warnings []ParseWarning `json:"warnings,omitempty"`
}

// ParseResult is a completed parse job's results: the specification's
// parse result object, with warnings when something was not searched.
type ParseResult struct {
	Legend   []LegendResult `json:"legend"`
	Symbols  []ParseSymbol  `json:"symbols"`
	Summary  ParseSummary   `json:"summary"`
	Warnings []ParseWarning `json:"warnings,omitempty"`
}

type legendInput struct {
	BlockID    string `json:"block_id"`
	ParseJobID string `json:"parse_job_id"`
}

type matchInput struct {
	BlockID          string   `json:"block_id"`
	ParseJobID       string   `json:"parse_job_id"`
	LegendFeatureIDs []string `json:"legend_feature_ids"`
	Count            bool     `json:"count,omitempty"`
	// Sources are the sheet regions of supplied exemplars, by feature id
	Sources map[string]ExemplarSource `json:"sources,omitempty"`
}

// Parse runs parse jobs.
type Parse struct {
	R     *jobs.Runner
	Blobs *blob.Bucket
	// Match and ReadLegend are the vision steps (symbols.Match and
	// legend.Parse unless a test replaces them).
	Match      func(ctx context.Context, img *image.Gray, tmpls []symbols.Template, opt symbols.Options) (symbols.Result, error)
	ReadLegend func(img *image.Gray, words []text.Word) []legend.Entry
	// Budget bounds one view block's symbol search (0: unbounded); what is
	// not searched by then is named in the block's warnings
	Budget time.Duration
}

// ReadLegend reads a legend block's entries, its tags left unread by the
// page's OCR read again one by one (legend.Options.ReadTag).
func ReadLegend(img *image.Gray, words []text.Word) []legend.Entry {
	return legend.ParseWith(img, words, legend.Options{ReadTag: ocr.Tag})
}

// Register adds the parse handlers to w.
func (p *Parse) Register(w *jobs.Worker) {
	if p.Match == nil {
		p.Match = symbols.Match
	}
	if p.ReadLegend == nil {
		p.ReadLegend = ReadLegend
	}
	p.R.Handle(w, jobs.TypeParse, p.parse)
	p.R.Handle(w, jobs.TypeLegendParse, p.legend)
	p.R.Handle(w, jobs.TypeSymbolMatch, p.match)
	p.R.Finalize(jobs.TypeParse, p.advance)
	p.R.Progress(jobs.TypeParse, parseProgress)
	p.R.ChildEvent(jobs.TypeParse, blockEvent)
}

// parseProgress weighs the stages of a parse by the time they usually
// take: processing the file (when there is one) 20 %, reading legends 5 %,
// searching blocks the rest, each stage by its children's own progress.
func parseProgress(_ *ent.Job, children []*ent.Job) float64 {
	ingest, hasIngest := jobs.StageShare(children, jobs.TypeDrawingPreprocess)
	legends, hasLegends := jobs.StageShare(children, jobs.TypeLegendParse)
	match, hasMatch := jobs.StageShare(children, jobs.TypeSymbolMatch)
	if hasMatch { // the stages before are done, or were not needed
		legends, ingest = 1, 1
	} else if hasLegends {
		ingest = 1
	}
	if hasIngest {
		return 0.2*ingest + 0.05*legends + 0.75*match
	}
	return 0.05*legends + 0.95*match
}

func (p *Parse) log() *slog.Logger { return p.R.Log }

// parse starts (or, run again, resumes) the stages of a parse job.
func (p *Parse) parse(ctx context.Context, j *ent.Job) (any, error) {
	children, err := p.R.DB.Job.Query().Where(job.ParentID(j.ID)).Order(ent.Asc(job.FieldCreatedAt), ent.Asc(job.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	return p.advance(ctx, j, children)
}

// stage tracks the children of one stage: those missing are created, and
// the stage is done when all of them have finished.
type stage struct {
	p        *Parse
	parent   *ent.Job
	have     map[string]*ent.Job
	waiting  bool
	finished []*ent.Job
}

// need makes sure parent has the child named key.
func (s *stage) need(ctx context.Context, key, jobType string, tt job.TargetType, targetID string, input any) error {
	c, ok := s.have[jobs.ChildID(s.parent.ID, key)]
	if !ok {
		s.waiting = true
		return s.p.R.AddChildOnce(ctx, s.parent, key, jobType, tt, targetID, input)
	}
	if !jobstatus.Terminal(string(c.Status)) {
		s.waiting = true
		return nil
	}
	s.finished = append(s.finished, c)
	return nil
}

// advance moves a parse job on: each stage's children are created once
// the previous stage has finished; when the last has, the result is
// combined. It runs when the job starts and whenever all its children have
// finished, and is safe to run again at any point.
func (p *Parse) advance(ctx context.Context, j *ent.Job, children []*ent.Job) (any, error) {
	var in ParseInput
	if err := json.Unmarshal(j.Input, &in); err != nil {
		return nil, jobs.Fail("BAD_INPUT", "parse job %s has no valid input", j.ID)
	}
	have := map[string]*ent.Job{}
	for _, c := range children {
		if !jobstatus.Terminal(string(c.Status)) {
			return nil, jobs.ErrWaitChildren
		}
		have[c.ID] = c
	}
	// 1. a file is made into its drawing first (the drawing job was created with the parse job)
	if in.FileID != "" {
		var dj *ent.Job
		for _, c := range children {
			if c.Type == jobs.TypeDrawingPreprocess {
				dj = c
			}
		}
		if dj == nil {
			return nil, jobs.Fail("INTERNAL_ERROR", "the processing job of drawing %s is missing", in.DrawingID)
		}
		if dj.Status != job.StatusCompleted {
			code, msg := "DRAWING_FAILED", "the file could not be processed"
			if dj.Error != nil {
				code, msg = dj.Error.Code, "the file could not be processed: "+dj.Error.Message
			}
			return nil, jobs.Fail(code, "%s", msg)
		}
	}
	var warns []ParseWarning
	// 2. exemplars cut from sheets
	w, err := p.cutExemplars(ctx, in)
	if err != nil {
		return nil, err
	}
	warns = append(warns, w...)
	// 3. legends
	legends, err := p.legendBlocks(ctx, in)
	if err != nil {
		return nil, err
	}
	if in.Detect() && len(legends) == 0 {
		warns = append(warns, ParseWarning{Code: WarnNoLegend, Message: "no legend block was found in the target (or, for a sheet, in its drawing); " +
			"name one with options.symbols.legend_block_id or supply the symbols in options.symbols.legend"})
	}
	ls := &stage{p: p, parent: j, have: have}
	for _, b := range legends {
		if err := ls.need(ctx, "legend:"+b.ID, jobs.TypeLegendParse, job.TargetTypeBlock, b.ID, legendInput{BlockID: b.ID, ParseJobID: j.ID}); err != nil {
			return nil, err
		}
	}
	if ls.waiting {
		return nil, jobs.ErrWaitChildren
	}
	// 4. matching, per view block
	plan, w, err := p.matchPlan(ctx, j, in, legends, ls.finished)
	if err != nil {
		return nil, err
	}
	warns = append(warns, w...)
	ms := &stage{p: p, parent: j, have: have}
	for _, m := range plan.blocks {
		if err := ms.need(ctx, "match:"+m.BlockID, jobs.TypeSymbolMatch, job.TargetTypeBlock, m.BlockID, m); err != nil {
			return nil, err
		}
	}
	if ms.waiting {
		return nil, jobs.ErrWaitChildren
	}
	// 5. the search index of the sheets searched, then the combined result
	if err := p.indexSheets(ctx, plan); err != nil {
		return nil, err
	}
	return p.combine(in, plan, ms.finished, warns)
}

// cutExemplars crops the exemplars given as regions of sheets and stores
// them like the other legend images (once: a retry finds them stored).
func (p *Parse) cutExemplars(ctx context.Context, in ParseInput) ([]ParseWarning, error) {
	var warns []ParseWarning
	org, _ := tenant.Org(ctx)
	for _, s := range in.Supplied {
		if s.Source == nil {
			continue
		}
		f, err := p.R.DB.Feature.Get(ctx, s.FeatureID)
		if err != nil {
			return nil, err
		}
		key := blobs.FeatureKey(org, f.ID) + ".png"
		if !f.HasGraphic {
			warns = append(warns, ParseWarning{Code: WarnExemplarBlank, FeatureID: f.ID, Label: f.Label,
				Message: fmt.Sprintf("the exemplar region of sheet %s has nothing drawn", s.Source.SheetID)})
			continue
		}
		if ok, err := p.Blobs.Exists(ctx, key); err != nil || ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		sh, err := p.R.DB.Sheet.Get(ctx, s.Source.SheetID)
		if ent.IsNotFound(err) {
			return nil, jobs.Fail("NOT_FOUND", "sheet %s of an exemplar no longer exists", s.Source.SheetID)
		}
		if err != nil {
			return nil, err
		}
		page, err := blobs.GetPNG(ctx, p.Blobs, blobs.SheetKey(org, sh.DrawingID, sh.PageNumber)+".png")
		if errors.Is(err, blobs.ErrNoImage) {
			return nil, jobs.Fail("NOT_FOUND", "sheet %s has no image", sh.ID)
		}
		if err != nil {
			return nil, err
		}
		b := s.Source.Bounds
		r := image.Rect(int(math.Floor(b.XMin)), int(math.Floor(b.YMin)), int(math.Ceil(b.XMax)), int(math.Ceil(b.YMax))).Intersect(page.Rect)
		var crop *image.Gray
		ok := false
		if !r.Empty() {
			crop, ok = render.TightCrop(page.SubImage(r).(*image.Gray))
		}
		page = nil
		if !ok {
			if err := p.R.DB.Feature.UpdateOneID(f.ID).SetHasGraphic(false).Exec(ctx); err != nil {
				return nil, err
			}
			warns = append(warns, ParseWarning{Code: WarnExemplarBlank, FeatureID: f.ID, Label: f.Label,
				Message: fmt.Sprintf("the exemplar region of sheet %s has nothing drawn", sh.ID)})
			continue
		}
		if err := blobs.PutPNG(ctx, p.Blobs, key, crop); err != nil {
			return nil, err
		}
	}
	return warns, nil
}

// blockOrder sorts blocks by sheet page, then as segmentation made them.
func (p *Parse) blockOrder(ctx context.Context, bs []*ent.Block) error {
	sheetIDs := map[string]bool{}
	for _, b := range bs {
		sheetIDs[b.SheetID] = true
	}
	ids := make([]string, 0, len(sheetIDs))
	for id := range sheetIDs {
		ids = append(ids, id)
	}
	sheets, err := p.R.DB.Sheet.Query().Where(sheet.IDIn(ids...)).Select(sheet.FieldID, sheet.FieldPageNumber).All(ctx)
	if err != nil {
		return err
	}
	page := map[string]int{}
	for _, s := range sheets {
		page[s.ID] = s.PageNumber
	}
	sort.SliceStable(bs, func(a, b int) bool {
		if pa, pb := page[bs[a].SheetID], page[bs[b].SheetID]; pa != pb {
			return pa < pb
		}
		if !bs[a].CreatedAt.Equal(bs[b].CreatedAt) {
			return bs[a].CreatedAt.Before(bs[b].CreatedAt)
		}
		return bs[a].ID < bs[b].ID
	})
	return nil
}

// drawingOf is the drawing a sheet or block target belongs to.
func (p *Parse) drawingOf(ctx context.Context, in ParseInput) (string, error) {
	switch {
	case in.DrawingID != "":
		return in.DrawingID, nil
	case in.SheetID != "":
		s, err := p.R.DB.Sheet.Get(ctx, in.SheetID)
		if err != nil {
			return "", err
		}
		return s.DrawingID, nil
	}
	return "", nil
}

// legendBlocks are the legend blocks the job reads: the one named, or none
// when symbols were supplied, or those detected in the target — a sheet's
// own, else (a sheet without a legend) those of its drawing.
func (p *Parse) legendBlocks(ctx context.Context, in ParseInput) ([]*ent.Block, error) {
	var bs []*ent.Block
	var err error
	switch {
	case in.LegendBlockID != "":
		b, err := p.R.DB.Block.Get(ctx, in.LegendBlockID)
		if ent.IsNotFound(err) {
			return nil, jobs.Fail("NOT_FOUND", "legend block %s no longer exists", in.LegendBlockID)
		}
		if err != nil {
			return nil, err
		}
		return []*ent.Block{b}, nil
	case !in.Detect():
		return nil, nil
	case in.SheetID != "":
		bs, err = p.R.DB.Block.Query().Where(block.SheetID(in.SheetID), block.TypeEQ(block.TypeLegend)).All(ctx)
		if err != nil || len(bs) > 0 {
			return bs, p.blockOrder(ctx, bs)
		}
		fallthrough
	default:
		d, err := p.drawingOf(ctx, in)
		if err != nil || d == "" {
			return nil, notFoundFail(err, "the target")
		}
		bs, err = p.R.DB.Block.Query().Where(block.TypeEQ(block.TypeLegend), block.HasSheetWith(sheet.DrawingID(d))).All(ctx)
		if err != nil {
			return nil, err
		}
	}
	return bs, p.blockOrder(ctx, bs)
}

func notFoundFail(err error, what string) error {
	if ent.IsNotFound(err) {
		return jobs.Fail("NOT_FOUND", "%s no longer exists", what)
	}
	return err
}

// viewBlocks are the blocks searched for symbols.
func (p *Parse) viewBlocks(ctx context.Context, in ParseInput) ([]*ent.Block, error) {
	if in.BlockID != "" {
		b, err := p.R.DB.Block.Get(ctx, in.BlockID)
		if err != nil {
			return nil, notFoundFail(err, "block "+in.BlockID)
		}
		return []*ent.Block{b}, nil
	}
	q := p.R.DB.Block.Query().Where(block.TypeIn(ViewBlockTypes...))
	if in.SheetID != "" {
		q.Where(block.SheetID(in.SheetID))
	} else {
		q.Where(block.HasSheetWith(sheet.DrawingID(in.DrawingID)))
	}
	bs, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	return bs, p.blockOrder(ctx, bs)
}

// combine builds the parse result from the block results.
func (p *Parse) combine(in ParseInput, plan *parsePlan, matchJobs []*ent.Job, warns []ParseWarning) (any, error) {
	res := ParseResult{Legend: plan.legend, Symbols: []ParseSymbol{}}
	byBlock := map[string]*ent.Job{}
	for _, c := range matchJobs {
		byBlock[c.TargetID] = c
	}
	bySymbol := map[string]*ParseSymbol{}
	failed, done := 0, 0
	var firstFail *ent.Job
	seenWarn := map[string]bool{}
	for _, m := range plan.blocks {
		c := byBlock[m.BlockID]
		if c == nil {
			continue
		}
		if c.Status != job.StatusCompleted {
			failed++
			if firstFail == nil {
				firstFail = c
			}
			msg := "the block could not be searched"
			if c.Error != nil {
				msg += ": " + c.Error.Message
			}
			warns = append(warns, ParseWarning{Code: WarnMatchFailed, BlockID: m.BlockID, Message: msg})
			continue
		}
		done++
		var br BlockMatchResult
		if err := json.Unmarshal(c.Result, &br); err != nil {
			return nil, fmt.Errorf("match job %s: %w", c.ID, err)
		}
		for _, w := range br.Warnings {
			// a symbol skipped for its size is skipped on every block: say it once
			k := w.Code + "|" + w.FeatureID + "|" + w.Message
			if w.Code == WarnSymbolSkipped && seenWarn[k] {
				continue
			}
			seenWarn[k] = true
			if w.Code != WarnSymbolSkipped && w.BlockID == "" {
				w.BlockID = br.BlockID
			}
			warns = append(warns, w)
		}
		for _, s := range br.Symbols {
			ps := bySymbol[s.LegendFeatureID]
			if ps == nil {
				ps = &ParseSymbol{Label: s.Label, Description: s.Description, LegendFeatureID: s.LegendFeatureID}
				bySymbol[s.LegendFeatureID] = ps
			}
			ps.InstanceCount += s.InstanceCount
			for _, inst := range s.Instances {
				inst.BlockID = br.BlockID
				ps.Instances = append(ps.Instances, inst)
			}
		}
	}
	if failed > 0 && done == 0 {
		code, msg := "MATCH_FAILED", "symbol matching failed"
		if firstFail.Error != nil {
			code, msg = firstFail.Error.Code, firstFail.Error.Message
		}
		return nil, jobs.Fail(code, "no block could be searched: %s", msg)
	}
	for _, ps := range bySymbol {
		if ps.InstanceCount == 0 {
			continue
		}
		if in.Count {
			ps.Instances = nil
		}
		res.Symbols = append(res.Symbols, *ps)
		res.Summary.TotalInstancesFound += ps.InstanceCount
	}
	sort.SliceStable(res.Symbols, func(a, b int) bool {
		oa, oka := plan.order[res.Symbols[a].LegendFeatureID]
		ob, okb := plan.order[res.Symbols[b].LegendFeatureID]
		if oka != okb {
			return oka
		}
		if oa != ob {
			return oa < ob
		}
		return res.Symbols[a].LegendFeatureID < res.Symbols[b].LegendFeatureID
	})
	res.Summary.TotalSymbolsSearched = len(res.Symbols)
	res.Warnings = warns
	return res, nil
}
