package search

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	textsearch "github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/service/images"
	"github.com/plangraph/plangraph/internal/service/parse"
	"github.com/plangraph/plangraph/internal/tenant"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/similar"
	"github.com/plangraph/plangraph/vision/vecsym"
)

// Visual is the retriever that compares an image with the project's legend
// symbols (vision/similar) and returns the symbols it shows and their
// instances that parse found.
const Visual = "visual"

// Limits of visual search.
const (
	// MaxRegionPixels bounds a region's area (about 6.7 in square at 300
	// DPI): a region is a symbol or a few, not a view.
	MaxRegionPixels = 4_000_000
	// MaxReferences is the most legend symbols one search compares with; a
	// project with more says so in _meta.notes.
	MaxReferences = 400
	// VisualBudget bounds the matcher's time for one search.
	VisualBudget = 20 * time.Second
)

// Region is a part of one of the project's sheets, in the sheet's pixels
// (as blocks' and results' bounds are).
type Region struct {
	SheetID string        `json:"sheet_id"`
	Bounds  *parse.Bounds `json:"bounds"`
}

// visualSlot bounds the visual searches a process runs at once (each keeps
// a core busy for about a second); the others wait their turn.
var visualSlot = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))

// query is a visual search's picture: img, with focus the part asked
// about (a region with the sheet around it, so the matcher sees the
// drawing's pen and lines).
type visualQuery struct {
	img   *image.Gray
	focus image.Rectangle
	// a region's sheet and the part of it img shows (sheet pixels)
	sheetID string
	around  image.Rectangle
	// the region's drawing: its own legends define its symbols
	drawingID string
}

// visualInput checks a search's image_url or region and reads its picture.
func (s *Service) visualInput(ctx context.Context, projectID string, in Input) (*visualQuery, error) {
	if in.ImageURL != nil && in.Region != nil {
		return nil, apierr.Invalid("region", "give image_url or region, not both")
	}
	if in.ImageURL != nil {
		raw := strings.TrimSpace(*in.ImageURL)
		if raw == "" {
			return nil, apierr.Invalid("image_url", "must not be empty")
		}
		budget := images.MaxImagePixels
		img, err := (&images.Reader{Deps: s.Deps}).Read(ctx, "image_url", raw, &budget)
		if err != nil {
			return nil, err
		}
		return &visualQuery{img: img, focus: img.Rect}, nil
	}
	r := in.Region
	if r.SheetID == "" {
		return nil, apierr.Invalid("region.sheet_id", "is required")
	}
	if !r.Bounds.Valid() {
		return nil, apierr.Invalid("region.bounds", "must be a box with 0 ≤ x_min < x_max and 0 ≤ y_min < y_max")
	}
	sh, err := base.Get(ctx, "sheet", r.SheetID, s.DB.Sheet.Get)
	if err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) && ae.Kind == apierr.NotFound {
			return nil, apierr.Invalid("region.sheet_id", "is not a sheet of this project")
		}
		return nil, err
	}
	if sh.ProjectID != projectID {
		return nil, apierr.Invalid("region.sheet_id", "is not a sheet of this project")
	}
	b := r.Bounds.Box()
	if b.XMax > float64(sh.Width) || b.YMax > float64(sh.Height) {
		return nil, apierr.Invalid("region.bounds", fmt.Sprintf("must lie within the sheet (%d × %d px)", sh.Width, sh.Height))
	}
	focus := image.Rect(int(math.Floor(b.XMin)), int(math.Floor(b.YMin)), int(math.Ceil(b.XMax)), int(math.Ceil(b.YMax)))
	switch {
	case focus.Dx()*focus.Dy() > MaxRegionPixels:
		return nil, apierr.Invalid("region.bounds", fmt.Sprintf("is %d × %d px; a region is at most %d pixels (a symbol or a few, not a view)", focus.Dx(), focus.Dy(), MaxRegionPixels))
	case focus.Dx() < 4 || focus.Dy() < 4:
		return nil, apierr.Invalid("region.bounds", "is smaller than 4 × 4 px")
	}
	// the region with as much of the sheet around it on every side
	around := focus.Inset(-max(focus.Dx(), focus.Dy()))
	org, _ := tenant.Org(ctx)
	img, err := blobs.GetPNGRegion(ctx, s.Blobs, blobs.SheetKey(org, sh.DrawingID, sh.PageNumber), around)
	if errors.Is(err, blobs.ErrNoImage) {
		return nil, apierr.Invalid("region.sheet_id", "the sheet has no image yet")
	}
	if err != nil {
		return nil, err
	}
	around = around.Intersect(image.Rect(0, 0, sh.Width, sh.Height))
	q := &visualQuery{img: img, focus: focus.Sub(around.Min).Intersect(img.Rect), sheetID: sh.ID, around: around, drawingID: sh.DrawingID}
	if _, ok := render.InkBounds(img.SubImage(q.focus).(*image.Gray)); !ok {
		return nil, apierr.Invalid("region", "is blank: nothing in it is darker than the paper")
	}
	return q, nil
}

// visualRanking is what the visual retriever found: keys of rows (legend
// entries, then each one's symbol rows) by confidence, and each key's
// confidence.
type visualRanking struct {
	ranked     textsearch.Ranked
	confidence map[string]float64
	notes      []string
}

// visual compares q with the legend symbols in sc's project and ranks the
// legend entries it shows and their symbol rows (instances per block).
func (s *Service) visual(ctx context.Context, sc index.Scope, q *visualQuery, docs map[string]index.Doc) (*visualRanking, error) {
	x := s.Index()
	out := &visualRanking{ranked: textsearch.Ranked{Retriever: Visual}, confidence: map[string]float64{}}
	// the project's legend entries (the drawing filter applies; the other
	// filters narrow the instances)
	entries, err := x.Docs(ctx, index.Scope{ProjectID: sc.ProjectID, DrawingID: sc.DrawingID, Types: []string{index.TypeLegendEntry}}, MaxReferences+1)
	if err != nil {
		return nil, err
	}
	if len(entries) > MaxReferences {
		entries = entries[:MaxReferences]
		out.notes = append(out.notes, fmt.Sprintf("the project has more than %d legend entries: the query was compared with the newest drawings' first %d", MaxReferences, MaxReferences))
	}
	org, _ := tenant.Org(ctx)
	var refs []*image.Gray
	var refDocs []index.Doc
	for _, d := range entries {
		img, err := blobs.GetPNG(ctx, s.Blobs, blobs.FeatureKey(org, d.SourceID)+".png")
		if errors.Is(err, blobs.ErrNoImage) {
			continue // a legend entry without a graphic
		}
		if err != nil {
			return nil, err
		}
		refs, refDocs = append(refs, img), append(refDocs, d)
	}
	if q.drawingID != "" {
		// the region's own drawing's entries first: where two legends hold
		// the same symbol, the matcher keeps the first reference
		idx := make([]int, len(refs))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			return cmpBool(refDocs[b].DrawingID == q.drawingID, refDocs[a].DrawingID == q.drawingID)
		})
		r2, d2 := make([]*image.Gray, len(refs)), make([]index.Doc, len(refs))
		for i, j := range idx {
			r2[i], d2[i] = refs[j], refDocs[j]
		}
		refs, refDocs = r2, d2
	}
	if len(refs) == 0 {
		out.notes = append(out.notes, "no legend symbol with a graphic is indexed in this project: visual search compares the image with the legend symbols that parse read")
		return out, nil
	}
	select {
	case visualSlot <- struct{}{}:
		defer func() { <-visualSlot }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	res, err := s.rank(ctx, q, refs, refDocs)
	if err != nil {
		return nil, err
	}
	if res.Unfinished {
		out.notes = append(out.notes, fmt.Sprintf("the visual search stopped at its %s budget before the whole image was compared", VisualBudget))
	}
	if len(res.Matches) == 0 {
		out.notes = append(out.notes, fmt.Sprintf("the image shows none of the project's %d legend symbols", len(refs)))
		return out, nil
	}
	matched := make([]string, len(res.Matches))
	conf := map[string]float64{}
	for i, m := range res.Matches {
		matched[i] = refDocs[m.Ref].SourceID
		conf[matched[i]] = m.Confidence
	}
	// each matched symbol's instances per block, within the filters
	ssc := sc
	ssc.Types, ssc.SourceIDs = []string{index.TypeSymbol}, matched
	syms, err := x.Docs(ctx, ssc, 1000)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(syms, func(a, b index.Doc) int {
		if ca, cb := conf[a.SourceID], conf[b.SourceID]; ca != cb {
			if ca > cb {
				return -1
			}
			return 1
		}
		return b.Count - a.Count
	})
	want := func(t string) bool { return len(sc.Types) == 0 || slices.Contains(sc.Types, t) }
	add := func(d index.Doc, c float64) {
		k := docKey(d)
		docs[k] = d
		out.ranked.Keys = append(out.ranked.Keys, k)
		out.confidence[k] = c
	}
	for _, m := range res.Matches {
		d := refDocs[m.Ref]
		if want(index.TypeLegendEntry) {
			add(d, m.Confidence)
		}
		if want(index.TypeSymbol) {
			for _, sd := range syms {
				if sd.SourceID == d.SourceID {
					add(sd, m.Confidence)
				}
			}
		}
	}
	return out, nil
}

// confidenceOf is the matcher's confidence for a row the visual retriever
// found (false for any other row, or without a visual search).
func (v *visualRanking) confidenceOf(key string) (float64, bool) {
	if v == nil {
		return 0, false
	}
	c, ok := v.confidence[key]
	return c, ok
}

// rank compares q with the references: as geometry (vision/vecsym), as the
// match job does, where the region's sheet and a reference's legend are
// both drawn as a PDF's paths and text; as pixels otherwise.
func (s *Service) rank(ctx context.Context, q *visualQuery, refs []*image.Gray, refDocs []index.Doc) (similar.Result, error) {
	deadline := time.Now().Add(VisualBudget)
	var res similar.Result
	pixels := refs
	if q.sheetID != "" {
		g := parsejob.NewSheetGeometry(s.DB, s.Blobs, s.Log)
		d, err := g.Drawing(ctx, q.sheetID, q.around)
		if err != nil {
			return res, err
		}
		if d != nil {
			ids := make([]string, len(refDocs))
			for i, rd := range refDocs {
				ids[i] = rd.SourceID
			}
			feats, err := s.DB.Feature.Query().Where(feature.IDIn(ids...)).All(ctx)
			if err != nil {
				return res, err
			}
			byID := map[string]*ent.Feature{}
			for _, f := range feats {
				byID[f.ID] = f
			}
			pixels = slices.Clone(refs)
			var vts []*vecsym.Template
			var tags []string
			var which []int
			for i, rd := range refDocs {
				f := byID[rd.SourceID]
				if f == nil {
					continue
				}
				vt, err := g.Template(ctx, f)
				if err != nil {
					return res, err
				}
				if vt != nil {
					vts, tags, which = append(vts, vt), append(tags, parsejob.EntryTag(f.Label, f.Description)), append(which, i)
					pixels[i] = nil // searched as geometry
				}
			}
			// the words about the drawing too: a symbol at its edge may have
			// its tag outside it, and one beside it takes a tag it reaches
			m := max(q.focus.Dx(), q.focus.Dy())
			wide := q.around.Inset(-m)
			words, err := g.Words(ctx, q.sheetID, wide)
			if err != nil {
				return res, err
			}
			for i := range words {
				words[i].Box = words[i].Box.Translate(float64(wide.Min.X-q.around.Min.X), float64(wide.Min.Y-q.around.Min.Y))
			}
			vr, err := similar.RankGeometry(ctx, d, words, q.focus, vts, tags, deadline)
			if err != nil {
				return res, err
			}
			for _, m := range vr.Matches {
				m.Ref = which[m.Ref]
				res.Matches = append(res.Matches, m)
			}
			res.Unfinished = vr.Unfinished
		}
	}
	if slices.ContainsFunc(pixels, func(p *image.Gray) bool { return p != nil }) {
		pr, err := similar.Rank(ctx, q.img, q.focus, pixels, deadline)
		if err != nil {
			return res, err
		}
		res.Matches = append(res.Matches, pr.Matches...)
		res.Unfinished = res.Unfinished || pr.Unfinished
	}
	// a region's symbols are defined by its own drawing's legends: their
	// matches come first, then other drawings' (another set's legend may
	// hold a look-alike: a plain swatch)
	own := func(m similar.Match) bool { return q.drawingID != "" && refDocs[m.Ref].DrawingID == q.drawingID }
	slices.SortStableFunc(res.Matches, func(a, b similar.Match) int {
		if c := cmpBool(own(b), own(a)); c != 0 {
			return c
		}
		switch {
		case a.Confidence > b.Confidence:
			return -1
		case a.Confidence < b.Confidence:
			return 1
		}
		return 0
	})
	return res, nil
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
