// Package compare is the compare operations: comparing two revisions of a
// drawing, a sheet or a block (POST /v1/compare, /v1/drawings/{id}/compare,
// /v1/sheets/{id}/compare; the compare mutation) and analyzing the changes
// of a stored overlay (POST /v1/overlays/{id}/analyze; the analyzeOverlay
// mutation). Each checks the request, records the job and queues it; the
// work is jobs/compare's. Its option defaults and limits are the one source
// the OpenAPI document and the checks share.
package compare

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/jobs"
	comparejob "github.com/plangraph/plangraph/jobs/compare"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// Compare request rules.
var (
	// Types are the values of type: what old_id and new_id name.
	Types = comparejob.Types
	// Analyses are the values of analyze; DefaultAnalyze is what an
	// absent analyze means ([] makes overlays only).
	Analyses       = []string{"changes"}
	DefaultAnalyze = []string{"changes"}
)

// Limits and defaults of the options, in pixels at 300 DPI.
const (
	DefaultTolerancePx   = engine.DefaultTolerance
	MinTolerancePx       = 0.5
	MaxTolerancePx       = 50.0
	DefaultCloudMarginPx = engine.DefaultCloudMargin
	MinCloudMarginPx     = 1.0
	MaxCloudMarginPx     = 600.0
)

// Service runs the compare operations.
type Service struct{ *base.Deps }

// Input is a compare request: the body of POST /v1/compare (the json
// names) and the compare mutation's CompareInput (gqlgen.yml binds it).
type Input struct {
	// Type is Block, Sheet or Drawing: what OldID and NewID are.
	Type  string `json:"type"`
	OldID string `json:"old_id"`
	NewID string `json:"new_id"`
	// Analyze is what runs after the overlays: ["changes"] (the default,
	// when absent) analyzes and describes their changes; [] makes overlays
	// only.
	Analyze []string `json:"analyze"`
	Options *Options `json:"options"`
}

// PathInput is the body of POST /v1/drawings/{id}/compare and
// /v1/sheets/{id}/compare, whose path names the newer revision.
type PathInput struct {
	// CompareTo is the older revision, of the path's type.
	CompareTo *string  `json:"compare_to"`
	Analyze   []string `json:"analyze"`
	Options   *Options `json:"options"`
}

// Options are the tolerances that decide what counts as a change; absent
// ones take their defaults.
type Options struct {
	// TolerancePx is how far a mark may move, after alignment, and still be
	// the same mark: pixels at 300 DPI, MinTolerancePx to MaxTolerancePx,
	// default DefaultTolerancePx.
	TolerancePx *float64 `json:"tolerance_px"`
	// IgnoreText leaves changes of words out; IgnoreHatches changes of
	// hatching and screened fills. Both default to false.
	IgnoreText    *bool `json:"ignore_text"`
	IgnoreHatches *bool `json:"ignore_hatches"`
	// CloudMarginPx is the margin a markup cloud keeps around the changes
	// it groups: pixels at 300 DPI, MinCloudMarginPx to MaxCloudMarginPx, default
	// DefaultCloudMarginPx.
	CloudMarginPx *float64 `json:"cloud_margin_px"`
}

// AnalyzeInput is the body of POST /v1/overlays/{id}/analyze (and the
// analyzeOverlay mutation's options).
type AnalyzeInput struct {
	Options *Options `json:"options"`
}

// request is a compare request with the names of its fields as the
// caller sent them: a path's id is not a body field (its errors are 404s).
type request struct {
	typ, oldID, newID string
	oldField          string // "old_id" or "compare_to"
	newField          string // "new_id", or "" for the path's id
	analyze           []string
	options           *Options
}

// Start checks a compare request and queues the compare job.
func (s *Service) Start(ctx context.Context, in Input) (*ent.Job, error) {
	return s.start(ctx, request{typ: in.Type, oldID: in.OldID, newID: in.NewID, oldField: "old_id", newField: "new_id",
		analyze: in.Analyze, options: in.Options})
}

// StartFrom checks a compare of the drawing or sheet id (typ Drawing or
// Sheet, the newer revision: the path's) with in.CompareTo and queues it.
func (s *Service) StartFrom(ctx context.Context, typ, id string, in PathInput) (*ent.Job, error) {
	if in.CompareTo == nil {
		return nil, apierr.Invalid("compare_to", fmt.Sprintf("is required: the id of the older %s", strings.ToLower(typ)))
	}
	return s.start(ctx, request{typ: typ, oldID: *in.CompareTo, newID: id, oldField: "compare_to",
		analyze: in.Analyze, options: in.Options})
}

// prefixes are the id prefixes of each type.
var prefixes = map[string]string{comparejob.TypeDrawing: ids.Drawing, comparejob.TypeSheet: ids.Sheet, comparejob.TypeBlock: ids.Block}

func (s *Service) start(ctx context.Context, r request) (*ent.Job, error) {
	bad := apierr.Fields{}
	kind := strings.ToLower(r.typ)
	prefix, known := prefixes[r.typ]
	if !known {
		bad.Add("type", fmt.Sprintf("must be one of %s", strings.Join(Types, ", ")))
	}
	// the path's id of another type is a record that does not exist
	if r.newField == "" && known && ids.Prefix(r.newID) != prefix {
		return nil, base.NotFound(kind, r.newID)
	}
	for _, f := range []struct{ name, id string }{{r.oldField, r.oldID}, {r.newField, r.newID}} {
		switch {
		case f.name == "":
		case strings.TrimSpace(f.id) == "":
			bad.Add(f.name, "is required")
		case known && ids.Prefix(f.id) != prefix:
			bad.Add(f.name, fmt.Sprintf("must be the id of a %s (%s_…) as type is %s", kind, prefix, r.typ))
		}
	}
	if r.oldID != "" && r.oldID == r.newID {
		field := r.oldField
		bad.Add(field, "names the same "+kind+" as the newer revision; compare two different revisions")
	}
	analyze, err := checkAnalyze(r.analyze)
	if err != nil {
		bad.Add("analyze", err.Error())
	}
	opts := checkOptions(r.options, bad)
	if err := bad.Err(); err != nil {
		return nil, err
	}
	// both records, in this organization (another's is missing), of one
	// project, their drawings processed
	var projects [2]string
	var drawings [2]string
	for i, id := range []string{r.oldID, r.newID} {
		switch r.typ {
		case comparejob.TypeDrawing:
			d, err := base.Get(ctx, "drawing", id, s.DB.Drawing.Get)
			if err != nil {
				return nil, err
			}
			projects[i], drawings[i] = d.ProjectID, d.ID
		case comparejob.TypeSheet:
			sh, err := base.Get(ctx, "sheet", id, s.DB.Sheet.Get)
			if err != nil {
				return nil, err
			}
			projects[i], drawings[i] = sh.ProjectID, sh.DrawingID
		default:
			b, err := base.Get(ctx, "block", id, s.DB.Block.Get)
			if err != nil {
				return nil, err
			}
			sh, err := base.Get(ctx, "sheet", b.SheetID, s.DB.Sheet.Get)
			if err != nil {
				return nil, err
			}
			projects[i], drawings[i] = b.ProjectID, sh.DrawingID
		}
	}
	if projects[0] != projects[1] {
		field := r.oldField
		return nil, apierr.Invalid(field, fmt.Sprintf("belongs to another project (%s) than the newer %s (%s); compare revisions of one project",
			projects[0], kind, projects[1]))
	}
	for _, d := range drawings {
		if _, err := s.ReadyDrawing(ctx, d, "compare"); err != nil {
			return nil, err
		}
	}
	input, err := json.Marshal(comparejob.Input{Type: r.typ, OldID: r.oldID, NewID: r.newID, Analyze: analyze, Options: opts})
	if err != nil {
		return nil, err
	}
	j, err := s.DB.Job.Create().SetType(jobs.TypeCompare).SetStatus(job.StatusQueued).SetProjectID(projects[1]).
		SetTargetType(comparejob.TargetType(r.typ)).SetTargetID(r.newID).SetInput(input).Save(ctx)
	if err != nil {
		return nil, err
	}
	s.Enqueue(ctx, j)
	return j, nil
}

// Analyze checks an overlay and queues the analysis of its changes
// (again, when it was analyzed before: the stored changes are replaced).
func (s *Service) Analyze(ctx context.Context, overlayID string, in AnalyzeInput) (*ent.Job, error) {
	bad := apierr.Fields{}
	opts := checkOptions(in.Options, bad)
	if err := bad.Err(); err != nil {
		return nil, err
	}
	o, err := base.Get(ctx, "overlay", overlayID, s.DB.Overlay.Get)
	if err != nil {
		return nil, err
	}
	input, err := json.Marshal(comparejob.AnalyzeInput{OverlayID: o.ID, Options: opts})
	if err != nil {
		return nil, err
	}
	j, err := s.DB.Job.Create().SetType(jobs.TypeChangesAnalyze).SetStatus(job.StatusQueued).SetProjectID(o.ProjectID).
		SetTargetType(job.TargetTypeOverlay).SetTargetID(o.ID).SetInput(input).Save(ctx)
	if err != nil {
		return nil, err
	}
	s.Enqueue(ctx, j)
	return j, nil
}

// checkAnalyze is whether change analysis runs: analyze absent means the
// default; every value must be one of Analyses.
func checkAnalyze(analyze []string) (bool, error) {
	if analyze == nil {
		analyze = DefaultAnalyze
	}
	for _, a := range analyze {
		if !slices.Contains(Analyses, a) {
			return false, fmt.Errorf("%q is not one of %s", a, strings.Join(Analyses, ", "))
		}
	}
	return slices.Contains(analyze, "changes"), nil
}

// checkOptions checks the options into bad and returns the engine's.
func checkOptions(o *Options, bad apierr.Fields) engine.Options {
	out := engine.Options{Tolerance: DefaultTolerancePx, CloudMargin: DefaultCloudMarginPx}
	if o == nil {
		return out
	}
	if v := o.TolerancePx; v != nil {
		if *v < MinTolerancePx || *v > MaxTolerancePx {
			bad.Add("options.tolerance_px", fmt.Sprintf("must be %g to %g pixels (at 300 DPI)", MinTolerancePx, MaxTolerancePx))
		}
		out.Tolerance = *v
	}
	if v := o.CloudMarginPx; v != nil {
		if *v < MinCloudMarginPx || *v > MaxCloudMarginPx {
			bad.Add("options.cloud_margin_px", fmt.Sprintf("must be %g to %g pixels (at 300 DPI)", MinCloudMarginPx, MaxCloudMarginPx))
		}
		out.CloudMargin = *v
	}
	out.IgnoreText = o.IgnoreText != nil && *o.IgnoreText
	out.IgnoreHatches = o.IgnoreHatches != nil && *o.IgnoreHatches
	return out
}
