// Package compare compares two revisions of a drawn region (a block: a plan
// view, a detail, a title block…): it registers the older (A) onto the newer
// (B) with a similarity transform, finds what differs beyond a stroke's
// tolerance, renders the overlay images and turns the differences into
// described changes (added/removed/modified/moved; symbol, text, dimension,
// linework, revision_mark, title_block) from the drawings' own words and
// parse features.
//
// Coordinates: every box a caller receives is in B's block pixels unless
// named otherwise (Change.BoundsA is in A's). The images are in B's frame
// and B's size.
//
// The package is pure: it reads images, words and page geometry handed to
// it and returns values; storing, jobs and the API are jobs/compare's and
// internal/service/compare's.
package compare

import (
	"image"
	"math"
	"time"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
	"github.com/plangraph/plangraph/vision/vector"
)

// Side is one revision of a block, everything in its block pixels.
type Side struct {
	// Image is the block's image: dark ink on white paper.
	Image *image.Gray
	// DPI is the resolution Image was rendered at (300 in the service).
	DPI int
	// Words are the block's words (PDF text layer and OCR), block pixels.
	Words []text.Word
	// Page is the block's marks as geometry (a PDF page's paths and glyphs
	// cut to the block and moved into block pixels), nil for a scan or when
	// none were recorded.
	Page *vector.Page
	// Symbols are the legend symbol instances the latest parse found in the
	// block (empty when the block was not parsed).
	Symbols []Symbol
	// BlockType is the block's type (Plan, TitleBlock, …; the data model's
	// names), used to class changes (a title block's are title_block).
	BlockType string
	// Title is the block's view title, when read.
	Title string
}

// Symbol is one detected legend symbol instance.
type Symbol struct {
	// Label is its legend entry's label, Description its legend text.
	Label       string   `json:"label"`
	Description string   `json:"description,omitempty"`
	Bounds      geom.Box `json:"bounds"`
	Confidence  float64  `json:"confidence"`
}

// Options are the tolerances that decide what counts as a change (the
// compare request's options; zero values take the defaults).
type Options struct {
	// Tolerance is how far, in pixels at 300 DPI, a mark may move and still
	// be the same mark (after alignment). Default DefaultTolerance.
	Tolerance float64 `json:"tolerance_px,omitempty"`
	// IgnoreText leaves text changes out (words still explain the ink they
	// cover, so a renamed room is not reported as linework either).
	IgnoreText bool `json:"ignore_text,omitempty"`
	// IgnoreHatches leaves changes of hatching and screened (faint) fills out.
	IgnoreHatches bool `json:"ignore_hatches,omitempty"`
	// CloudMargin is the margin, in pixels at 300 DPI, a markup cloud keeps
	// around the changes it groups. Default DefaultCloudMargin.
	CloudMargin float64 `json:"cloud_margin_px,omitempty"`
	// Budget bounds one block pair's work; past it the result says what was
	// not finished in its Warnings. Default DefaultBudget.
	Budget time.Duration `json:"-"`
	// Prior, when set, is a transform from A's pixels onto B's known
	// beforehand to a few pixels (its ResidualPx): the sheets'
	// registration restricted to the pair. A block that does not register
	// on its own, or registers far from it, is registered again from it,
	// and failing that aligned by it, with a warning (align_prior.go). Not
	// an option of the request: the compare job sets it per block pair.
	Prior *Transform `json:"-"`
	// InkBoxFirst (without a Prior) tries the pose lining up the two
	// sides' ink boxes, upright, as the only coarse candidate, held to the
	// same tests, before the coarse search, which runs only when it fails:
	// two sheets of a drawing set are mostly reprinted upright, and their
	// borders make the ink boxes agree (jobs/compare registers sheet
	// thumbnails so). Not an option of the request.
	InkBoxFirst bool `json:"-"`
}

// Defaults of Options.
const (
	DefaultTolerance   = 3.0
	DefaultCloudMargin = 24.0
	DefaultBudget      = 2 * time.Minute
)

// Transform is a similarity transform mapping A's block pixels onto B's:
//
//	x_B = Scale·(cos θ·x_A − sin θ·y_A) + Tx
//	y_B = Scale·(sin θ·x_A + cos θ·y_A) + Ty
//
// with θ = RotationDeg in degrees, measured in image coordinates (y down:
// a positive angle turns clockwise as seen on screen). Whole page turns are
// rotations of ±90° or 180°. ResidualPx is the registration's remaining
// error: the RMS distance, in B's pixels, between matched marks after the
// transform.
type Transform struct {
	Scale       float64 `json:"scale"`
	RotationDeg float64 `json:"rotation_deg"`
	Tx          float64 `json:"tx"`
	Ty          float64 `json:"ty"`
	ResidualPx  float64 `json:"residual_px"`
}

// Identity is the transform that changes nothing.
var Identity = Transform{Scale: 1}

// Apply maps a point of A onto B.
func (t Transform) Apply(x, y float64) (float64, float64) {
	s, c := math.Sincos(t.RotationDeg * math.Pi / 180)
	return t.Scale*(c*x-s*y) + t.Tx, t.Scale*(s*x+c*y) + t.Ty
}

// Inverse maps B's points back onto A (ResidualPx is kept).
func (t Transform) Inverse() Transform {
	s, c := math.Sincos(-t.RotationDeg * math.Pi / 180)
	k := 1 / t.Scale
	return Transform{
		Scale: k, RotationDeg: -t.RotationDeg,
		Tx: -k * (c*t.Tx - s*t.Ty), Ty: -k * (s*t.Tx + c*t.Ty),
		ResidualPx: t.ResidualPx,
	}
}

// ApplyBox maps a box of A onto B: the box around its four corners' images.
func (t Transform) ApplyBox(b geom.Box) geom.Box {
	out := geom.Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}
	for _, p := range [4][2]float64{{b.XMin, b.YMin}, {b.XMax, b.YMin}, {b.XMin, b.YMax}, {b.XMax, b.YMax}} {
		x, y := t.Apply(p[0], p[1])
		out.XMin, out.YMin = min(out.XMin, x), min(out.YMin, y)
		out.XMax, out.YMax = max(out.XMax, x), max(out.YMax, y)
	}
	return out
}

// Change kinds.
const (
	KindAdded    = "added"
	KindRemoved  = "removed"
	KindModified = "modified"
	KindMoved    = "moved"
)

// Change categories.
const (
	CategorySymbol       = "symbol"
	CategoryText         = "text"
	CategoryDimension    = "dimension"
	CategoryLinework     = "linework"
	CategoryRevisionMark = "revision_mark"
	CategoryTitleBlock   = "title_block"
)

// Severities.
const (
	SeverityMajor    = "major"
	SeverityModerate = "moderate"
	SeverityMinor    = "minor"
)

// Region is one group of differences found by Diff: ink of A with no ink of
// B within the tolerance (removed), ink of B with none of A (added), or both
// close together.
type Region struct {
	// Bounds in B's pixels (for removed ink: where A's ink lands on B).
	Bounds geom.Box `json:"bounds"`
	// Added and Removed are the counts of differing ink pixels in it.
	Added   int `json:"added"`
	Removed int `json:"removed"`
}

// Overlay is the result of comparing two sides.
type Overlay struct {
	// Transform maps A onto B; Registered is false when no transform could
	// be trusted (the blocks do not register: Transform is then the one
	// that lines up the blocks' ink boxes, and Warnings say so).
	Transform  Transform `json:"transform"`
	Registered bool      `json:"registered"`
	// Score is 1 for blocks identical after alignment, falling towards 0 as
	// more of their ink differs (the bands: ≥ 0.95 near-identical, 0.80–0.95
	// moderate, 0.60–0.80 significant, < 0.60 major).
	Score float64 `json:"score"`
	// AlignedA is A's image moved into B's frame (B's size); AlignedB is B.
	AlignedA *image.Gray `json:"-"`
	AlignedB *image.Gray `json:"-"`
	// Combined shows unchanged ink grey, A's ink that B lacks (removed) red
	// and B's ink that A lacks (added) green, on white (drawn as it is
	// read, from the other images).
	Combined *Combined `json:"-"`
	// Addition is B's added ink alone, Deletion A's removed ink alone (both
	// in B's frame, dark on white).
	Addition *image.Gray `json:"-"`
	Deletion *image.Gray `json:"-"`
	// Regions are the groups of differences, alignment residue dropped.
	Regions []Region `json:"regions"`
	// Warnings say what could not be done (no registration, budget spent).
	Warnings []string `json:"warnings,omitempty"`
}

// Change is one described difference between the sides.
type Change struct {
	Kind        string   `json:"kind"`
	Category    string   `json:"category"`
	Description string   `json:"description"`
	Bounds      geom.Box `json:"bounds"`
	// BoundsA is where the change was on A (in A's pixels), when it was
	// there (removed, modified, moved).
	BoundsA    *geom.Box `json:"bounds_a,omitempty"`
	Severity   string    `json:"severity"`
	Confidence float64   `json:"confidence"`
}

// Colours of the Combined image. ColourUncompared is B's ink beyond the
// part A's block covers: A could not have had it, so it is neither added
// nor unchanged (Generate warns when there is much of it).
var (
	ColourUnchanged  = [3]uint8{160, 160, 160}
	ColourRemoved    = [3]uint8{220, 30, 30}
	ColourAdded      = [3]uint8{20, 160, 40}
	ColourUncompared = [3]uint8{90, 140, 220}
)

// withDefaults fills Options' zero values.
func (o Options) withDefaults() Options {
	if o.Tolerance <= 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.CloudMargin <= 0 {
		o.CloudMargin = DefaultCloudMargin
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	return o
}
