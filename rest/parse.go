package rest

import (
	"fmt"
	"net/http"

	"github.com/plangraph/plangraph/graph/generated"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/geom"
)

// parseRequest is the body of POST /v1/parse (interface specification).
type parseRequest struct {
	Features  *[]string     `json:"features"`
	SheetID   *string       `json:"sheet_id"`
	BlockID   *string       `json:"block_id"`
	DrawingID *string       `json:"drawing_id"`
	FileID    *string       `json:"file_id"`
	Options   *parseOptions `json:"options"`
}

type parseOptions struct {
	Symbols *struct {
		LegendBlockID *string         `json:"legend_block_id"`
		Count         *bool           `json:"count"`
		Exemplars     []parseExemplar `json:"exemplars"`
		Legend        []parseSymbol   `json:"legend"`
	} `json:"symbols"`
	MEP *struct {
		Systems []string `json:"systems"`
		Measure *bool    `json:"measure"`
	} `json:"mep"`
	Dimensions *struct {
		Units *string `json:"units"`
	} `json:"dimensions"`
	Annotations *struct {
		Types []string `json:"types"`
	} `json:"annotations"`
	Text *struct {
		Regions []string `json:"regions"`
	} `json:"text"`
}

type parseSymbol struct {
	Label       *string `json:"label"`
	Description *string `json:"description"`
	ImageURL    *string `json:"image_url"`
}

type parseExemplar struct {
	parseSymbol
	Source *struct {
		SheetID *string `json:"sheet_id"`
		Bounds  *struct {
			XMin *float64 `json:"x_min"`
			YMin *float64 `json:"y_min"`
			XMax *float64 `json:"x_max"`
			YMax *float64 `json:"y_max"`
		} `json:"bounds"`
	} `json:"source"`
}

// parse is POST /v1/parse: it checks the body's shape here and everything
// else in the parse mutation, and answers 202 with the queued job.
func (a *API) parse(w http.ResponseWriter, r *http.Request) {
	var req parseRequest
	if err := a.decode(w, r, &req); err != nil {
		a.fail(w, r, err)
		return
	}
	in, err := req.input()
	if err != nil {
		a.fail(w, r, err)
		return
	}
	j, err := a.r.Mutation().Parse(r.Context(), in)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/jobs/"+j.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{"data": acceptedOut(j)})
}

// input converts the request to the GraphQL input (which the mutation
// checks), reporting here only what that input cannot express: the
// coordinates of a bounds object that are missing.
func (req *parseRequest) input() (generated.ParseInput, error) {
	bad := apierr.Fields{}
	in := generated.ParseInput{SheetID: req.SheetID, BlockID: req.BlockID, DrawingID: req.DrawingID, FileID: req.FileID}
	if req.Features != nil {
		in.Features = *req.Features
		if in.Features == nil {
			in.Features = []string{} // present but null: the mutation says it is required
		}
	}
	if o := req.Options; o != nil {
		opts := &generated.ParseOptions{}
		if s := o.Symbols; s != nil {
			so := &generated.ParseSymbolOptions{LegendBlockID: s.LegendBlockID, Count: s.Count}
			for _, l := range s.Legend {
				so.Legend = append(so.Legend, &generated.ParseLegendSymbolInput{Label: deref(l.Label), Description: l.Description, ImageURL: l.ImageURL})
			}
			for i, e := range s.Exemplars {
				field := fmt.Sprintf("options.symbols.exemplars[%d]", i)
				ex := &generated.ParseExemplarInput{Label: deref(e.Label), Description: e.Description, ImageURL: e.ImageURL}
				if src := e.Source; src != nil {
					ex.Source = &generated.ParseExemplarSource{SheetID: deref(src.SheetID)}
					if b := src.Bounds; b != nil {
						required(bad, field+".source.bounds.x_min", b.XMin)
						required(bad, field+".source.bounds.y_min", b.YMin)
						required(bad, field+".source.bounds.x_max", b.XMax)
						required(bad, field+".source.bounds.y_max", b.YMax)
						ex.Source.Bounds = &geom.Box{XMin: deref(b.XMin), YMin: deref(b.YMin), XMax: deref(b.XMax), YMax: deref(b.YMax)}
					}
				}
				so.Exemplars = append(so.Exemplars, ex)
			}
			opts.Symbols = so
		}
		if m := o.MEP; m != nil {
			opts.Mep = &generated.ParseMEPOptions{Systems: m.Systems, Measure: m.Measure}
		}
		if d := o.Dimensions; d != nil {
			opts.Dimensions = &generated.ParseDimensionOptions{Units: d.Units}
		}
		if t := o.Annotations; t != nil {
			opts.Annotations = &generated.ParseAnnotationOptions{Types: t.Types}
		}
		if t := o.Text; t != nil {
			opts.Text = &generated.ParseTextOptions{Regions: t.Regions}
		}
		in.Options = opts
	}
	return in, bad.Err()
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
