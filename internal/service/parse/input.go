package parse

import (
	"fmt"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/vision/geom"
)

// Input is a parse request: the body of POST /v1/parse (the json names)
// and the parse mutation's ParseInput (gqlgen.yml binds the GraphQL input
// types to these).
type Input struct {
	Options *Options `json:"options"`
	// Features are the tasks to run; only "symbols" is available.
	Features []string `json:"features"`
	// The target: exactly one of a sheet, a block, a drawing (every
	// sheet) and a confirmed file (a drawing is made of it first).
	SheetID   *string `json:"sheet_id"`
	BlockID   *string `json:"block_id"`
	DrawingID *string `json:"drawing_id"`
	FileID    *string `json:"file_id"`
}

// missingCoordinates reports the coordinates of exemplar bounds that are
// missing (only a REST body can leave them out), before anything else is
// checked.
func (in *Input) missingCoordinates() error {
	bad := apierr.Fields{}
	if in.Options == nil || in.Options.Symbols == nil {
		return nil
	}
	for i, e := range in.Options.Symbols.Exemplars {
		if e == nil || e.Source == nil || e.Source.Bounds == nil {
			continue
		}
		b := e.Source.Bounds
		for _, c := range []struct {
			name string
			v    *float64
		}{{"x_min", b.XMin}, {"y_min", b.YMin}, {"x_max", b.XMax}, {"y_max", b.YMax}} {
			if c.v == nil {
				bad.Add(fmt.Sprintf("options.symbols.exemplars[%d].source.bounds.%s", i, c.name), "is required")
			}
		}
	}
	return bad.Err()
}

// Options are the option groups of a parse request.
type Options struct {
	Symbols *SymbolOptions `json:"symbols"`
	// The other groups are validated against their values; not used yet.
	MEP         *MEPOptions        `json:"mep"`
	Dimensions  *DimensionOptions  `json:"dimensions"`
	Annotations *AnnotationOptions `json:"annotations"`
	Text        *TextOptions       `json:"text"`
}

// SymbolOptions choose the legend searched for and the result's shape.
type SymbolOptions struct {
	// LegendBlockID is the legend block whose entries are searched for.
	LegendBlockID *string `json:"legend_block_id"`
	// Count leaves the instance lists out of the result.
	Count *bool `json:"count"`
	// Exemplars are symbols given by example; Legend entries supplied
	// with the request. Either skips legend detection.
	Exemplars []*Exemplar     `json:"exemplars"`
	Legend    []*LegendSymbol `json:"legend"`
}

// LegendSymbol is a legend entry supplied with the request; without
// ImageURL it is text only.
type LegendSymbol struct {
	Label       string  `json:"label"`
	Description *string `json:"description"`
	ImageURL    *string `json:"image_url"`
}

// Exemplar is a symbol given by example: an image or a region of a sheet
// (exactly one of ImageURL and Source).
type Exemplar struct {
	Label       string          `json:"label"`
	Description *string         `json:"description"`
	ImageURL    *string         `json:"image_url"`
	Source      *ExemplarSource `json:"source"`
}

// ExemplarSource is the region of a sheet an exemplar is cut from.
type ExemplarSource struct {
	SheetID string  `json:"sheet_id"`
	Bounds  *Bounds `json:"bounds"`
}

// Bounds is a box in sheet pixels. Its coordinates are pointers so that a
// missing one is reported (GraphQL requires all four).
type Bounds struct {
	XMin *float64 `json:"x_min"`
	YMin *float64 `json:"y_min"`
	XMax *float64 `json:"x_max"`
	YMax *float64 `json:"y_max"`
}

// box is b with missing coordinates as 0.
func (b *Bounds) Box() geom.Box {
	v := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	return geom.Box{XMin: v(b.XMin), YMin: v(b.YMin), XMax: v(b.XMax), YMax: v(b.YMax)}
}

// Valid reports whether b is a box with 0 ≤ x_min < x_max and
// 0 ≤ y_min < y_max.
func (b *Bounds) Valid() bool {
	if b == nil {
		return false
	}
	box := b.Box()
	return box.Valid() && box.XMin >= 0 && box.YMin >= 0
}

// MEPOptions are accepted and validated; not used yet.
type MEPOptions struct {
	Systems []string `json:"systems"`
	Measure *bool    `json:"measure"`
}

// DimensionOptions are accepted and validated; not used yet.
type DimensionOptions struct {
	Units *string `json:"units"`
}

// AnnotationOptions are accepted and validated; not used yet.
type AnnotationOptions struct {
	Types []string `json:"types"`
}

// TextOptions are accepted and validated; not used yet.
type TextOptions struct {
	Regions []string `json:"regions"`
}
