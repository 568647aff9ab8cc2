package search_test

// Visual search over a synthetic sheet stored as ingestion and parse leave
// it: its page image, its legend entries' exemplar images and its symbol
// instances. A region around a drawn symbol, or a picture of a legend
// symbol turned a quarter, finds the legend entry and its instances.

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/parse"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/internal/tools/synthdb"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render/rendertest"
)

func pixRect(b geom.Box, pad int) image.Rectangle {
	return image.Rect(int(math.Floor(b.XMin))-pad, int(math.Floor(b.YMin))-pad, int(math.Ceil(b.XMax))+pad, int(math.Ceil(b.YMax))+pad)
}

func bounds(b geom.Box) *parse.Bounds {
	return &parse.Bounds{XMin: &b.XMin, YMin: &b.YMin, XMax: &b.XMax, YMax: &b.YMax}
}

// visualFixture is a seeded one-sheet project with images, the legend
// entry ids by truth (legend block, entry) and the page.
type visualFixture struct {
	*fixture
	entry map[[2]int]string
	page  *image.Gray
}

func seedVisual(t *testing.T, databaseURL string) *visualFixture {
	t.Helper()
	page, set, _ := rendertest.SynthSheet(t, 2)
	st, bucket := open(t, databaseURL)
	f := &visualFixture{fixture: seedUnindexed(t, st, bucket, orgA, set), entry: map[[2]int]string{}, page: page}
	sh := f.sheets[0]
	if page.Rect.Dx() != sh.Width || page.Rect.Dy() != sh.Height {
		t.Fatalf("page %v, sheet %d × %d", page.Rect, sh.Width, sh.Height)
	}
	if err := blobs.PutPNG(f.ctx, bucket, blobs.SheetKey(orgA, f.drawing, sh.PageNumber)+".png", page); err != nil {
		t.Fatal(err)
	}
	// the legend's exemplars, as parse stores them
	for bi, bt := range set.Truth.Sheets[0].Blocks {
		for ei, e := range bt.Entries {
			if e.GraphicBox == nil {
				continue
			}
			ft, err := st.Client.Feature.Query().Where(feature.BlockID(f.blocks[0][bi].ID), feature.KindEQ(feature.KindLegendEntry),
				feature.DedupeKey(fmt.Sprintf("%s:%d:%d", sh.ID, bi, ei))).Only(f.ctx)
			if err != nil {
				t.Fatal(err)
			}
			f.entry[[2]int{bi, ei}] = ft.ID
			ex := page.SubImage(pixRect(*e.GraphicBox, 2)).(*image.Gray)
			if err := blobs.PutPNG(f.ctx, bucket, blobs.FeatureKey(orgA, ft.ID)+".png", ex); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := f.svc.Index().RebuildProject(f.ctx, f.project); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestVisualSearch(t *testing.T) {
	for _, p := range []struct{ name, url string }{{"embedded", ""}, {"postgres", testenv.Postgres(t)}} {
		t.Run(p.name, func(t *testing.T) {
			f := seedVisual(t, p.url)
			st := f.truth.Sheets[0]
			t.Run("region", func(t *testing.T) { testRegion(t, f, st) })
			t.Run("image", func(t *testing.T) { testImage(t, f, st) })
			t.Run("bad input", func(t *testing.T) { testVisualBadInput(t, f) })
		})
	}
}

// testRegion asks about the region of one drawn instance of each symbol:
// at least 80 % find their legend entry first among the entries (a symbol
// drawn across a wall's fill is missed), and with it the entry's instances
// on the plan with their count.
func testRegion(t *testing.T, f *visualFixture, st synth.SheetTruth) {
	counts := map[[2]int]int{}
	for _, in := range st.Instances {
		counts[[2]int{in.LegendBlock, in.LegendEntry}]++
	}
	asked := map[[2]int]bool{}
	right := 0
	for _, in := range st.Instances {
		k := [2]int{in.LegendBlock, in.LegendEntry}
		if asked[k] {
			continue
		}
		asked[k] = true
		r := pixRect(in.Box, 2)
		res, err := f.svc.Search(f.ctx, f.project, search.Input{Region: &search.Region{SheetID: f.sheets[0].ID,
			Bounds: bounds(geom.Box{XMin: float64(r.Min.X), YMin: float64(r.Min.Y), XMax: float64(r.Max.X), YMax: float64(r.Max.Y)})}})
		if err != nil {
			t.Fatalf("%s: %v", in.Label, err)
		}
		if !res.Meta.Visual || !slices.Equal(res.Meta.Retrievers, []string{search.Visual}) {
			t.Errorf("%s: meta %+v", in.Label, res.Meta)
		}
		var entry, sym *search.Hit
		for i, h := range res.Hits {
			if h.SourceType == index.TypeLegendEntry && entry == nil {
				entry = &res.Hits[i]
			}
			if h.SourceType == index.TypeSymbol && h.SourceID == f.entry[k] {
				sym = &res.Hits[i]
			}
		}
		if entry == nil || entry.SourceID != f.entry[k] || !slices.Contains(entry.Why, search.Visual) {
			t.Logf("%s at %.0f°: first legend entry %+v, want %s (hits %+v)", in.Label, in.Angle, entry, f.entry[k], res.Hits)
			continue
		}
		right++
		if sym == nil || sym.Count == nil || *sym.Count != counts[k] {
			t.Errorf("%s: symbol row %+v, want its %d instances", in.Label, sym, counts[k])
		}
	}
	t.Logf("%d of %d symbols' regions found their legend entry first", right, len(asked))
	if len(asked) < 5 {
		t.Fatalf("only %d symbols asked", len(asked))
	}
	if float64(right) < 0.8*float64(len(asked)) {
		t.Errorf("%d of %d symbols' regions found their legend entry first, want ≥ 80 %%", right, len(asked))
	}
}

// testImage sends a legend symbol's picture turned a quarter as a data URL,
// with a query too.
func testImage(t *testing.T, f *visualFixture, st synth.SheetTruth) {
	var k [2]int
	var box geom.Box
	for bi, bt := range st.Blocks {
		for ei, e := range bt.Entries {
			if e.GraphicBox != nil && box == (geom.Box{}) {
				k, box = [2]int{bi, ei}, *e.GraphicBox
			}
		}
	}
	src := f.page.SubImage(pixRect(box, 4)).(*image.Gray)
	w, h := src.Rect.Dx(), src.Rect.Dy()
	turned := image.NewGray(image.Rect(0, 0, h, w))
	for y := range h {
		for x := range w {
			turned.SetGray(y, w-1-x, src.GrayAt(src.Rect.Min.X+x, src.Rect.Min.Y+y))
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, turned); err != nil {
		t.Fatal(err)
	}
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
	res, err := f.svc.Search(f.ctx, f.project, search.Input{ImageURL: &url, Types: []string{index.TypeLegendEntry}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].SourceID != f.entry[k] {
		t.Errorf("a legend symbol turned a quarter: %+v, want %s first", res.Hits, f.entry[k])
	}
	for _, h := range res.Hits {
		if h.SourceType != index.TypeLegendEntry {
			t.Errorf("types [legend_entry] gave a %s", h.SourceType)
		}
	}
	// a query and a picture: both retrievers
	res, err = f.svc.Search(f.ctx, f.project, search.Input{Query: st.Blocks[k[0]].Entries[k[1]].Label, ImageURL: &url})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Meta.Retrievers, search.Visual) || !slices.Contains(res.Meta.Retrievers, search.Lexical) || len(res.Hits) == 0 ||
		res.Hits[0].SourceID != f.entry[k] || !slices.Contains(res.Hits[0].Why, search.Visual) {
		t.Errorf("query and image: %+v %+v", res.Meta, res.Hits)
	}
}

func testVisualBadInput(t *testing.T, f *visualFixture) {
	sh := f.sheets[0]
	other := f.svc.DB.Project.Create().SetName("other").SaveX(f.ctx)
	img := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("not a png"))
	box := func(x0, y0, x1, y1 float64) *parse.Bounds {
		return bounds(geom.Box{XMin: x0, YMin: y0, XMax: x1, YMax: y1})
	}
	for name, c := range map[string]struct {
		project string
		in      search.Input
		field   string
	}{
		"nothing to search":    {f.project, search.Input{}, "query"},
		"both":                 {f.project, search.Input{ImageURL: &img, Region: &search.Region{SheetID: sh.ID, Bounds: box(0, 0, 10, 10)}}, "region"},
		"not an image":         {f.project, search.Input{ImageURL: &img}, "image_url"},
		"no sheet":             {f.project, search.Input{Region: &search.Region{Bounds: box(0, 0, 10, 10)}}, "region.sheet_id"},
		"unknown sheet":        {f.project, search.Input{Region: &search.Region{SheetID: "sht_nope", Bounds: box(0, 0, 10, 10)}}, "region.sheet_id"},
		"another project's":    {other.ID, search.Input{Region: &search.Region{SheetID: sh.ID, Bounds: box(0, 0, 10, 10)}}, "region.sheet_id"},
		"no bounds":            {f.project, search.Input{Region: &search.Region{SheetID: sh.ID}}, "region.bounds"},
		"inverted":             {f.project, search.Input{Region: &search.Region{SheetID: sh.ID, Bounds: box(10, 10, 0, 0)}}, "region.bounds"},
		"outside the sheet":    {f.project, search.Input{Region: &search.Region{SheetID: sh.ID, Bounds: box(0, 0, float64(sh.Width+1), 10)}}, "region.bounds"},
		"a whole view":         {f.project, search.Input{Region: &search.Region{SheetID: sh.ID, Bounds: box(0, 0, 2500, 2500)}}, "region.bounds"},
		"blank (paper corner)": {f.project, search.Input{Region: &search.Region{SheetID: sh.ID, Bounds: box(1, 1, 12, 12)}}, "region"},
	} {
		_, err := f.svc.Search(f.ctx, c.project, c.in)
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Kind != apierr.Validation || len(ae.Fields[c.field]) == 0 {
			t.Errorf("%s: %v, want a validation error on %s", name, err, c.field)
		}
	}
}

// TestVisualSearchOwnDrawing: a project holding a second drawing with the
// same legend (another set's look-alike symbols): a region of the first
// drawing's sheet finds the first drawing's legend entry first, though
// the second's matches as well and is newer.
func TestVisualSearchOwnDrawing(t *testing.T) {
	f := seedVisual(t, "")
	st := f.truth.Sheets[0]
	db := f.svc.DB
	d2, err := synthdb.Drawing(f.ctx, db, f.svc.Blobs, f.project, "other.pdf", f.truth, -1)
	if err != nil {
		t.Fatal(err)
	}
	for k, id := range f.entry {
		src, err := db.Feature.Get(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		twin, err := db.Feature.Query().Where(feature.BlockID(d2.Blocks[0][k[0]].ID), feature.KindEQ(feature.KindLegendEntry),
			feature.DedupeKey(strings.Replace(src.DedupeKey, f.sheets[0].ID, d2.Sheets[0].ID, 1))).Only(f.ctx)
		if err != nil {
			t.Fatal(err)
		}
		img, err := blobs.GetPNG(f.ctx, f.svc.Blobs, blobs.FeatureKey(orgA, id)+".png")
		if err != nil {
			t.Fatal(err)
		}
		if err := blobs.PutPNG(f.ctx, f.svc.Blobs, blobs.FeatureKey(orgA, twin.ID)+".png", img); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.svc.Index().RebuildProject(f.ctx, f.project); err != nil {
		t.Fatal(err)
	}
	own, other := 0, 0
	asked := map[[2]int]bool{}
	for _, in := range st.Instances {
		k := [2]int{in.LegendBlock, in.LegendEntry}
		if asked[k] || len(asked) == 6 {
			continue
		}
		asked[k] = true
		r := pixRect(in.Box, 2)
		res, err := f.svc.Search(f.ctx, f.project, search.Input{Region: &search.Region{SheetID: f.sheets[0].ID,
			Bounds: bounds(geom.Box{XMin: float64(r.Min.X), YMin: float64(r.Min.Y), XMax: float64(r.Max.X), YMax: float64(r.Max.Y)})}})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.SourceType == index.TypeLegendEntry {
				if h.DrawingID == f.drawing {
					own++
				} else {
					other++
				}
				break
			}
		}
	}
	if own == 0 || other > 0 {
		t.Errorf("first legend entries: %d of the region's own drawing, %d of the other", own, other)
	}
}
