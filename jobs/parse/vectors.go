package parse

// The symbol search on a PDF's geometry: a view block and a legend graphic
// that the sheet's PDF drew as paths and text (stored at ingestion,
// VectorsKey) are matched as geometry (vision/vecsym) instead of pixels.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"math"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
	"github.com/plangraph/plangraph/vision/vecsym"
	"github.com/plangraph/plangraph/vision/vector"
)

// maxImageShare: a region whose images cover more than this share of it is
// searched as pixels (a scan placed in a PDF, a symbol pasted as a picture).
const maxImageShare = 0.02

// vecPages reads sheets' geometry once per job (a match job here; an
// overlay.generate job through SheetGeometry).
type vecPages struct {
	db    *ent.Client
	blobs *blob.Bucket
	log   *slog.Logger
	pages map[string]*vector.Page // by sheet id; nil when the sheet has none
}

// vecPages is a reader of sheets' geometry for one of p's jobs.
func (p *Parse) vecPages() *vecPages { return &vecPages{db: p.R.DB, blobs: p.Blobs, log: p.log()} }

// SheetGeometry reads the geometry of blocks from their sheets' pages,
// stored at ingestion (read from the drawing's PDF, once, for a drawing
// ingested before pages' geometry was kept). One reader serves one job: it
// keeps the pages it read.
type SheetGeometry struct{ v *vecPages }

// NewSheetGeometry makes a reader over the database and blob store;
// problems that leave a page to its pixels are logged on log.
func NewSheetGeometry(db *ent.Client, bucket *blob.Bucket, log *slog.Logger) *SheetGeometry {
	return &SheetGeometry{&vecPages{db: db, blobs: bucket, log: log}}
}

// Block is block b's marks as geometry, in its image's pixels (the sheet's
// page cut to the block's image, which starts at the whole pixel at or
// before the block's corner), or nil when the sheet has none
// (a scan, a raster upload) or the block is drawn as pictures rather than
// paths and text (more than 2 % of it covered by images).
func (g *SheetGeometry) Block(ctx context.Context, b *ent.Block) (*vector.Page, error) {
	return g.cut(ctx, b.SheetID, blockRect(b.Bounds))
}

// Rect is the marks of part r of a sheet (its pixels) as geometry, in r's
// pixels (r's corner at 0, 0), or nil as for Block.
func (g *SheetGeometry) Rect(ctx context.Context, sheetID string, r image.Rectangle) (*vector.Page, error) {
	return g.cut(ctx, sheetID, vector.Rect{X0: float32(r.Min.X), Y0: float32(r.Min.Y), X1: float32(r.Max.X), Y1: float32(r.Max.Y)})
}

func (g *SheetGeometry) cut(ctx context.Context, sheetID string, r vector.Rect) (*vector.Page, error) {
	pg, err := g.v.sheet(ctx, sheetID)
	if err != nil || pg == nil {
		return nil, err
	}
	if !drawnAsGeometry(pg, r) {
		return nil, nil
	}
	return pg.Cut(r), nil
}

// sheet returns the geometry of a sheet, nil when it has none (a scan, a
// raster upload, a drawing ingested before geometry was kept).
func (v *vecPages) sheet(ctx context.Context, sheetID string) (*vector.Page, error) {
	if pg, ok := v.pages[sheetID]; ok {
		return pg, nil
	}
	if v.pages == nil {
		v.pages = map[string]*vector.Page{}
	}
	s, err := v.db.Sheet.Get(ctx, sheetID)
	if err != nil {
		if ent.IsNotFound(err) {
			v.pages[sheetID] = nil
			return nil, nil
		}
		return nil, err
	}
	org, _ := tenant.Org(ctx)
	key := blobs.SheetKey(org, s.DrawingID, s.PageNumber)
	data, err := v.blobs.ReadAll(ctx, blobs.VectorsKey(key))
	if gcerrors.Code(err) == gcerrors.NotFound {
		// a drawing ingested before pages' geometry was kept: read it now,
		// once for all later searches
		pg, err := v.backfill(ctx, s, key)
		if err != nil {
			v.log.Warn("sheet geometry not read; searching its pixels", "sheet", sheetID, "err", err)
		}
		if pg != nil && pg.Truncated {
			pg = nil
		}
		v.pages[sheetID] = pg
		return pg, nil
	}
	if err != nil {
		return nil, err
	}
	pg, err := vector.Decode(data)
	if err != nil {
		// a damaged blob: the pixels are still there
		v.log.Warn("sheet geometry unreadable; searching its pixels", "sheet", sheetID, "err", err)
		pg = nil
	}
	if pg != nil && pg.Truncated {
		pg = nil // more marks than were kept: the geometry is incomplete
	}
	v.pages[sheetID] = pg
	return pg, nil
}

// backfill reads the geometry of a sheet whose drawing was ingested before
// pages' geometry was kept, from its file, and stores it (nil when the file
// is not a PDF or is gone).
func (v *vecPages) backfill(ctx context.Context, s *ent.Sheet, key string) (*vector.Page, error) {
	d, err := v.db.Drawing.Get(ctx, s.DrawingID)
	if err != nil {
		return nil, err
	}
	f, err := v.db.File.Get(ctx, d.FileID)
	if ent.IsNotFound(err) || err == nil && f.ContentType != render.TypePDF {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	path, cleanup, err := blobs.FetchFile(ctx, v.blobs, f)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	lim := render.DefaultLimits()
	if s.Dpi > 0 {
		lim.DPI = s.Dpi
	}
	doc, err := render.Open(path, f.ContentType, lim)
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	pg, _, err := render.Vectors(ctx, doc, s.PageNumber-1)
	if err != nil {
		return nil, err
	}
	if pg.W != s.Width || pg.H != s.Height {
		return nil, fmt.Errorf("page %d is %d×%d px at %d DPI, the sheet %d×%d", s.PageNumber, pg.W, pg.H, lim.DPI, s.Width, s.Height)
	}
	return pg, blobs.PutVectors(ctx, v.blobs, key, pg)
}

// blockRect is a block's image on its sheet: block images start at the
// whole pixel at or before the block's corner.
func blockRect(b geom.Box) vector.Rect {
	return vector.Rect{X0: float32(math.Floor(b.XMin)), Y0: float32(math.Floor(b.YMin)),
		X1: float32(math.Ceil(b.XMax)), Y1: float32(math.Ceil(b.YMax))}
}

func boxRect(b geom.Box) vector.Rect {
	return vector.Rect{X0: float32(b.XMin), Y0: float32(b.YMin), X1: float32(b.XMax), Y1: float32(b.YMax)}
}

// drawnAsGeometry reports whether r of pg is made of paths and text rather
// than pictures.
func drawnAsGeometry(pg *vector.Page, r vector.Rect) bool {
	area := float64(r.X1-r.X0) * float64(r.Y1-r.Y0)
	return area > 0 && pg.ImageArea(r) <= maxImageShare*area
}

// drawing is a view block's geometry, or nil when it must be searched as
// pixels.
func (v *vecPages) drawing(ctx context.Context, b *ent.Block) (*vecsym.Drawing, error) {
	pg, err := v.sheet(ctx, b.SheetID)
	if err != nil || pg == nil {
		return nil, err
	}
	r := blockRect(b.Bounds)
	if !drawnAsGeometry(pg, r) {
		return nil, nil
	}
	return vecsym.NewDrawing(pg, r), nil
}

// template is a symbol's geometry — a legend entry's graphic on its legend
// block, or an exemplar's region of a sheet — or nil when it has none (an
// image supplied with the request, a graphic pasted as a picture).
func (v *vecPages) template(ctx context.Context, f *ent.Feature, src *ExemplarSource) (*vecsym.Template, error) {
	var sheetID string
	var r vector.Rect
	var legendOrigin *vector.Rect // the legend block's bounds, for a legend graphic
	switch {
	case f.BlockID != "" && f.Bounds.Valid():
		lb, err := v.db.Block.Get(ctx, f.BlockID)
		if ent.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		o := blockRect(lb.Bounds)
		sheetID = lb.SheetID
		r = boxRect(f.Bounds.Translate(float64(o.X0), float64(o.Y0)))
		legendOrigin = &o
	case src != nil:
		sheetID, r = src.SheetID, boxRect(src.Bounds)
	default:
		return nil, nil
	}
	pg, err := v.sheet(ctx, sheetID)
	if err != nil || pg == nil {
		return nil, err
	}
	if !drawnAsGeometry(pg, r.Grow(2)) {
		return nil, nil
	}
	var t *vecsym.Template
	if legendOrigin != nil {
		// a legend graphic: the words set beside the symbol are its tag
		words := BlockWords(ctx, v.blobs, f.BlockID)
		t, err = vecsym.NewTemplateBeside(f.Label, pg, r, graphicText(f.Bounds, words, float64(legendOrigin.X0), float64(legendOrigin.Y0)))
	} else {
		t, err = vecsym.NewTemplate(f.Label, pg, r)
	}
	if errors.Is(err, vecsym.ErrNoGeometry) {
		return nil, nil
	}
	return t, err
}

// Drawing is part r of a sheet (its pixels) as geometry to search, in r's
// pixels (r's corner at 0, 0), or nil as for Block.
func (g *SheetGeometry) Drawing(ctx context.Context, sheetID string, r image.Rectangle) (*vecsym.Drawing, error) {
	pg, err := g.v.sheet(ctx, sheetID)
	if err != nil || pg == nil {
		return nil, err
	}
	vr := vector.Rect{X0: float32(r.Min.X), Y0: float32(r.Min.Y), X1: float32(r.Max.X), Y1: float32(r.Max.Y)}
	if !drawnAsGeometry(pg, vr) {
		return nil, nil
	}
	return vecsym.NewDrawing(pg, vr), nil
}

// Template is legend entry f's graphic as geometry, as the match job
// searches it, or nil when it has none (a graphic pasted as a picture, a
// scanned legend).
func (g *SheetGeometry) Template(ctx context.Context, f *ent.Feature) (*vecsym.Template, error) {
	return g.v.template(ctx, f, nil)
}

// EntryTag is the tag that tells legend entry's symbol from others drawn
// alike (vecsym.Options.Tags), as the match job gives it.
func EntryTag(label, description string) string { return entryTag(label, description) }

// Words are the words of a sheet (its text layer and OCR) centred within
// part r of it, in r's pixels, as the match job gives a block's to the
// geometry matcher (vecsym.Options.Words: the tags set beside symbols; a
// tag at the part's edge, half out of it, is still the symbol's).
func (g *SheetGeometry) Words(ctx context.Context, sheetID string, r image.Rectangle) ([]symbols.Word, error) {
	s, err := g.v.db.Sheet.Get(ctx, sheetID)
	if err != nil {
		return nil, err
	}
	org, _ := tenant.Org(ctx)
	data, err := g.v.blobs.ReadAll(ctx, blobs.SheetKey(org, s.DrawingID, s.PageNumber)+"-words.json")
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var words []text.Word
	if err := json.Unmarshal(data, &words); err != nil {
		return nil, fmt.Errorf("sheet %s words: %w", sheetID, err)
	}
	box := geom.Box{XMin: float64(r.Min.X), YMin: float64(r.Min.Y), XMax: float64(r.Max.X), YMax: float64(r.Max.Y)}
	var in []text.Word
	for _, w := range words {
		if x, y := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2; x >= box.XMin && y >= box.YMin && x <= box.XMax && y <= box.YMax {
			w.Box = w.Box.Translate(-box.XMin, -box.YMin)
			in = append(in, w)
		}
	}
	return drawingWords(in), nil
}
