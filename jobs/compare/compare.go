// Package compare is the compare pipeline: two revisions of a drawing, a
// sheet or a block are paired sheet by sheet and block by block, each block
// pair is registered and compared (overlay.generate, vision/compare's
// Generate), its differences described (changes.analyze, Analyze) and the
// whole summarized as a report (changes.summarize), as jobs run by the jobs
// framework. The older revision is A, the newer B.
//
// A compare job's finalizer is its stage machine, like a parse job's: it
// creates one stage's children (ids derived from the compare job's and a
// name, so concurrent finalizers and retries create each once), returns
// jobs.ErrWaitChildren, and moves on when they have all finished. Its
// result is the summary's report (vision/compare.Report).
package compare

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/jobs"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// What a compare request compares (Input.Type).
const (
	TypeDrawing = "Drawing"
	TypeSheet   = "Sheet"
	TypeBlock   = "Block"
)

// Types are the values of Input.Type.
var Types = []string{TypeBlock, TypeSheet, TypeDrawing}

// Input is a compare job's input, written by the compare operation
// (internal/service/compare) once it has checked the request.
type Input struct {
	// Type is what OldID and NewID are: Drawing, Sheet or Block.
	Type  string `json:"type"`
	OldID string `json:"old_id"`
	NewID string `json:"new_id"`
	// Analyze runs change analysis on every overlay (analyze: ["changes"]).
	Analyze bool           `json:"analyze"`
	Options engine.Options `json:"options"`
}

// overlayInput is an overlay.generate job's input: one block pair of a
// compare job.
type overlayInput struct {
	CompareJobID string         `json:"compare_job_id"`
	BlockAID     string         `json:"block_a_id"`
	BlockBID     string         `json:"block_b_id"`
	Options      engine.Options `json:"options"`
	// Analyze: change analysis follows (the overlay is handed to it).
	Analyze bool `json:"analyze,omitempty"`
	// the pair's sheets' registration and the older sheet's cut (plan.go)
	pairFrame
}

// AnalyzeInput is a changes.analyze job's input: the overlay and the
// options of its comparison (or of POST /v1/overlays/{id}/analyze).
type AnalyzeInput struct {
	OverlayID string         `json:"overlay_id"`
	Options   engine.Options `json:"options"`
}

// summarizeInput is a changes.summarize job's input: its compare job and
// the pairing that job made (a report whose overlays name only their
// blocks).
type summarizeInput struct {
	CompareJobID string        `json:"compare_job_id"`
	Plan         engine.Report `json:"plan"`
}

// Compare runs compare jobs.
type Compare struct {
	R     *jobs.Runner
	Blobs *blob.Bucket
	// Generate and Analyze are the engine's steps: the comparison of a
	// block pair and the description of an overlay's changes
	// (vision/compare's unless a test replaces them).
	Generate func(ctx context.Context, a, b *engine.Side, opt engine.Options) (*engine.Overlay, error)
	Analyze  func(a, b *engine.Side, ov *engine.Overlay, opt engine.Options) []engine.Change

	handoff handoff // generated overlays held for their analysis (handoff.go)
	plans   plans   // each compare job's plan, from its overlays for its summary
}

// plans keeps the plan a compare job made when it created its overlays, in
// this process for planTTL, for its summary: planning registers the
// sheets' thumbnails again (a tenth of a second or more a sheet pair). A
// summary started elsewhere or later plans again, from the same records.
type plans struct {
	mu sync.Mutex
	m  map[string]heldPlan
}

type heldPlan struct {
	rep *engine.Report
	at  time.Time
}

const planTTL = 10 * time.Minute

func (p *plans) put(jobID string, rep *engine.Report) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	for k, v := range p.m {
		if now.Sub(v.at) > planTTL {
			delete(p.m, k)
		}
	}
	if p.m == nil {
		p.m = map[string]heldPlan{}
	}
	p.m[jobID] = heldPlan{rep: rep, at: now}
}

// take returns and forgets job jobID's plan, if still held.
func (p *plans) take(jobID string) *engine.Report {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.m[jobID]
	delete(p.m, jobID)
	if !ok || time.Since(v.at) > planTTL {
		return nil
	}
	return v.rep
}

// Register adds the compare handlers to w.
func (c *Compare) Register(w *jobs.Worker) {
	if c.Generate == nil {
		c.Generate = engine.Generate
	}
	if c.Analyze == nil {
		c.Analyze = engine.Analyze
	}
	c.R.Handle(w, jobs.TypeCompare, c.compare)
	c.R.Handle(w, jobs.TypeOverlayGenerate, c.generate)
	c.R.Handle(w, jobs.TypeChangesAnalyze, c.analyze)
	c.R.Handle(w, jobs.TypeChangesSummarize, c.summarize)
	c.R.Finalize(jobs.TypeCompare, c.advance)
	c.R.Progress(jobs.TypeCompare, compareProgress)
}

func (c *Compare) log() *slog.Logger { return c.R.Log }

// compareProgress weighs the stages by the time they usually take:
// overlays 70 %, change analysis 25 %, the summary the rest; a stage not
// needed counts as done once a later one has started.
func compareProgress(_ *ent.Job, children []*ent.Job) float64 {
	gen, _ := jobs.StageShare(children, jobs.TypeOverlayGenerate)
	ana, hasAna := jobs.StageShare(children, jobs.TypeChangesAnalyze)
	sum, hasSum := jobs.StageShare(children, jobs.TypeChangesSummarize)
	if hasSum {
		gen, ana = 1, 1
	} else if hasAna {
		gen = 1
	}
	return 0.7*gen + 0.25*ana + 0.05*sum
}

// compare starts (or, run again, resumes) the stages of a compare job.
func (c *Compare) compare(ctx context.Context, j *ent.Job) (any, error) {
	tracef("start "+j.ID, "since created %.0f ms", time.Since(j.CreatedAt).Seconds()*1000)
	children, err := c.R.DB.Job.Query().Where(job.ParentID(j.ID)).Order(ent.Asc(job.FieldCreatedAt), ent.Asc(job.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	return c.advance(ctx, j, children)
}

// Keys of a compare job's children (see jobs.ChildID).
func overlayKey(a, b string) string { return "overlay:" + a + ":" + b }
func analyzeKey(ovl string) string  { return "analyze:" + ovl }

const summarizeKey = "summarize"

// advance moves a compare job on: the block pairs' overlays, then (when
// asked) their change analysis, then the summary, whose report is the
// result. It runs when the job starts and whenever all its children have
// finished, and is safe to run again at any point. The pairing is made
// when the overlays are created and again when the summary is (from the
// same records, so the same unless a sheet or block was edited meanwhile:
// the summary places the overlays it finds either way).
func (c *Compare) advance(ctx context.Context, j *ent.Job, children []*ent.Job) (any, error) {
	var in Input
	if err := json.Unmarshal(j.Input, &in); err != nil || in.OldID == "" || in.NewID == "" {
		return nil, jobs.Fail("BAD_INPUT", "compare job %s has no valid input", j.ID)
	}
	var gens []*ent.Job
	have := map[string]*ent.Job{}
	for _, ch := range children {
		if !jobstatus.Terminal(string(ch.Status)) {
			return nil, jobs.ErrWaitChildren
		}
		have[ch.ID] = ch
		if ch.Type == jobs.TypeOverlayGenerate {
			gens = append(gens, ch)
		}
	}
	// 4. the summary is done: its report is the result
	if s := have[jobs.ChildID(j.ID, summarizeKey)]; s != nil {
		if s.Status != job.StatusCompleted {
			code, msg := "SUMMARY_FAILED", "the comparison could not be summarized"
			if s.Error != nil {
				code, msg = s.Error.Code, "the comparison could not be summarized: "+s.Error.Message
			}
			return nil, jobs.Fail(code, "%s", msg)
		}
		lap := laps("done " + j.ID)
		if err := c.indexReport(ctx, s.Result); err != nil {
			return nil, err // the search rows; rebuilt whole on a retry
		}
		lap("index report")
		return json.RawMessage(s.Result), nil
	}
	// 1. one overlay per block pair
	var plan *engine.Report
	if len(gens) == 0 {
		lap := laps("plan " + j.ID)
		p, fr, err := c.plan(ctx, in)
		lap("plan")
		if err != nil {
			return nil, err
		}
		plan = p
		var all []engine.ReportOverlay
		for _, sp := range p.Pairs {
			all = append(all, sp.Overlays...)
		}
		// the largest pairs first: the workers start them first, and the
		// small ones fill in beside them
		slices.SortStableFunc(all, func(x, y engine.ReportOverlay) int {
			return cmp.Compare(y.New.Bounds.Area(), x.New.Bounds.Area())
		})
		for _, o := range all {
			oi := overlayInput{CompareJobID: j.ID, BlockAID: o.Old.BlockID, BlockBID: o.New.BlockID, Options: in.Options, Analyze: in.Analyze,
				pairFrame: fr[overlayKey(o.Old.BlockID, o.New.BlockID)]}
			if err := c.R.AddChildOnce(ctx, j, overlayKey(oi.BlockAID, oi.BlockBID), jobs.TypeOverlayGenerate, job.TargetTypeBlock, oi.BlockBID, oi); err != nil {
				return nil, err
			}
		}
		lap(fmt.Sprintf("%d overlays queued", len(all)))
		if len(all) > 0 {
			c.plans.put(j.ID, p)
			return nil, jobs.ErrWaitChildren
		}
	}
	// 2. change analysis of every overlay made
	if in.Analyze {
		waiting := false
		for _, g := range gens {
			var res OverlayResult
			if g.Status != job.StatusCompleted || json.Unmarshal(g.Result, &res) != nil || res.OverlayID == "" {
				continue
			}
			if have[jobs.ChildID(j.ID, analyzeKey(res.OverlayID))] != nil {
				continue
			}
			ai := AnalyzeInput{OverlayID: res.OverlayID, Options: in.Options}
			if err := c.R.AddChildOnce(ctx, j, analyzeKey(res.OverlayID), jobs.TypeChangesAnalyze, job.TargetTypeOverlay, res.OverlayID, ai); err != nil {
				return nil, err
			}
			waiting = true
		}
		if waiting {
			return nil, jobs.ErrWaitChildren
		}
	}
	// 3. the summary
	if plan == nil {
		plan = c.plans.take(j.ID)
	}
	if plan == nil {
		p, _, err := c.plan(ctx, in)
		if err != nil {
			return nil, err
		}
		plan = p
	}
	if err := c.R.AddChildOnce(ctx, j, summarizeKey, jobs.TypeChangesSummarize, TargetType(in.Type), in.NewID,
		summarizeInput{CompareJobID: j.ID, Plan: *plan}); err != nil {
		return nil, err
	}
	return nil, jobs.ErrWaitChildren
}

// TargetType is the job target type of a compare of type typ (Drawing,
// Sheet or Block): the compare job's target is the newer record.
func TargetType(typ string) job.TargetType {
	switch typ {
	case TypeDrawing:
		return job.TargetTypeDrawing
	case TypeSheet:
		return job.TargetTypeSheet
	}
	return job.TargetTypeBlock
}

// OverlayResult is an overlay.generate job's result (the results of its
// compare.child.completed event).
type OverlayResult struct {
	OverlayID  string           `json:"overlay_id"`
	BlockAID   string           `json:"block_a_id"`
	BlockBID   string           `json:"block_b_id"`
	Score      float64          `json:"score"`
	Registered bool             `json:"registered"`
	Transform  engine.Transform `json:"transform"`
	Warnings   []string         `json:"warnings,omitempty"`
}

// AnalyzeResult is a changes.analyze job's result (the results of its
// compare.child.completed event, or of a changes.analyze job started on a
// stored overlay): the overlay's score and its changes counted.
type AnalyzeResult struct {
	OverlayID  string         `json:"overlay_id"`
	Score      *float64       `json:"score"`
	Changes    int            `json:"changes"`
	ByCategory map[string]int `json:"by_category"`
	BySeverity map[string]int `json:"by_severity"`
	ByKind     map[string]int `json:"by_kind"`
}

// failure is the job error of a child that did not complete, for warnings.
func failure(j *ent.Job) string {
	if j.Error != nil {
		return fmt.Sprintf("%s: %s", j.Error.Code, j.Error.Message)
	}
	return string(j.Status)
}
