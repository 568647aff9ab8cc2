package compare

// The plan of a compare job: its sheets and blocks paired (pair.go) from
// the records ingestion made, as a report whose overlays name only their
// blocks.

import (
	"context"
	"errors"
	"image"
	"strconv"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// newReport is an empty report of a compare of type typ (lists and maps
// made, so that they serialize as [] and {}).
func newReport(typ string) *engine.Report {
	return &engine.Report{Type: typ, SheetsAdded: []engine.ReportSheet{}, SheetsRemoved: []engine.ReportSheet{},
		SheetsRenumbered: []engine.ReportRenumber{}, Pairs: []engine.ReportSheetPair{},
		ByCategory: map[string]int{}, BySeverity: map[string]int{}, ByKind: map[string]int{}}
}

// gone is the failure of a compare whose record was deleted meanwhile.
func gone(err error, what, id string) error {
	if ent.IsNotFound(err) {
		return jobs.Fail("NOT_FOUND", "%s %s no longer exists", what, id)
	}
	return err
}

// pairFrame is how a planned block pair is compared when its sheets
// registered: Sheet maps the older sheet's pixels onto the newer's (the
// pair's prior comes from it), CutA is the part of the older sheet
// compared instead of the older block's own image (CutBlocksIn).
type pairFrame struct {
	Sheet *engine.Transform `json:"sheet_transform,omitempty"`
	CutA  *image.Rectangle  `json:"cut_a,omitempty"`
}

// frames are the pairFrames of a plan's overlays, by overlayKey.
type frames map[string]pairFrame

// plan pairs what in names: the sheets of two drawings and the blocks of
// each sheet pair, the blocks of two sheets, or one pair of blocks; fr
// says how each pair of registered sheets is compared.
func (c *Compare) plan(ctx context.Context, in Input) (_ *engine.Report, fr frames, _ error) {
	db := c.R.DB
	rep := newReport(in.Type)
	fr = frames{}
	switch in.Type {
	case TypeDrawing:
		var ds [2]*ent.Drawing
		for i, id := range []string{in.OldID, in.NewID} {
			d, err := db.Drawing.Get(ctx, id)
			if err != nil {
				return nil, nil, gone(err, "drawing", id)
			}
			ds[i] = d
		}
		rep.Old, rep.New = engine.ReportSide{ID: ds[0].ID, Name: ds[0].Name}, engine.ReportSide{ID: ds[1].ID, Name: ds[1].Name}
		var sheets [2][]*ent.Sheet
		byID := map[string]*ent.Sheet{}
		for i, d := range ds {
			ss, err := db.Sheet.Query().Where(sheet.DrawingID(d.ID)).Order(ent.Asc(sheet.FieldPageNumber)).All(ctx)
			if err != nil {
				return nil, nil, err
			}
			sheets[i] = ss
			for _, s := range ss {
				byID[s.ID] = s
			}
		}
		thumb := func(s SheetInfo) *image.Gray { return c.sheetThumb(ctx, byID[s.ID]) }
		pairing := PairSheets(sheetInfos(sheets[0]), sheetInfos(sheets[1]), thumb)
		for _, p := range pairing.Pairs {
			sp, err := c.sheetPair(ctx, byID[p.Old.ID], byID[p.New.ID], fr)
			if err != nil {
				return nil, nil, err
			}
			rep.Pairs = append(rep.Pairs, sp)
			if p.Renumbered() {
				rep.SheetsRenumbered = append(rep.SheetsRenumbered, engine.ReportRenumber{Old: sp.Old, New: sp.New})
			}
		}
		for _, s := range pairing.Added {
			rep.SheetsAdded = append(rep.SheetsAdded, reportSheet(byID[s.ID]))
		}
		for _, s := range pairing.Removed {
			rep.SheetsRemoved = append(rep.SheetsRemoved, reportSheet(byID[s.ID]))
		}
	case TypeSheet:
		var ss [2]*ent.Sheet
		for i, id := range []string{in.OldID, in.NewID} {
			s, err := db.Sheet.Get(ctx, id)
			if err != nil {
				return nil, nil, gone(err, "sheet", id)
			}
			ss[i] = s
		}
		rep.Old, rep.New = engine.ReportSide{ID: ss[0].ID, Name: sheetName(ss[0])}, engine.ReportSide{ID: ss[1].ID, Name: sheetName(ss[1])}
		sp, err := c.sheetPair(ctx, ss[0], ss[1], fr)
		if err != nil {
			return nil, nil, err
		}
		rep.Pairs = append(rep.Pairs, sp)
		if ss[0].SheetNumberNorm != ss[1].SheetNumberNorm {
			rep.SheetsRenumbered = append(rep.SheetsRenumbered, engine.ReportRenumber{Old: sp.Old, New: sp.New})
		}
	default:
		var bs [2]*ent.Block
		var ss [2]*ent.Sheet
		for i, id := range []string{in.OldID, in.NewID} {
			b, err := db.Block.Query().Where(block.ID(id)).WithSheet().Only(ctx)
			if err != nil {
				return nil, nil, gone(err, "block", id)
			}
			bs[i], ss[i] = b, b.Edges.Sheet
		}
		rep.Old, rep.New = engine.ReportSide{ID: bs[0].ID, Name: blockName(bs[0])}, engine.ReportSide{ID: bs[1].ID, Name: blockName(bs[1])}
		rep.Pairs = append(rep.Pairs, engine.ReportSheetPair{Old: reportSheet(ss[0]), New: reportSheet(ss[1]),
			BlocksAdded: []engine.ReportBlock{}, BlocksRemoved: []engine.ReportBlock{},
			Overlays: []engine.ReportOverlay{{Old: reportBlock(bs[0]), New: reportBlock(bs[1])}}})
	}
	return rep, fr, nil
}

// sheetPair pairs the blocks of two sheets, adding to fr how the pairs of
// registered sheets are compared.
func (c *Compare) sheetPair(ctx context.Context, a, b *ent.Sheet, fr frames) (engine.ReportSheetPair, error) {
	sp := engine.ReportSheetPair{Old: reportSheet(a), New: reportSheet(b), BlocksAdded: []engine.ReportBlock{},
		BlocksRemoved: []engine.ReportBlock{}, Overlays: []engine.ReportOverlay{}}
	var infos [2][]BlockInfo
	byID := map[string]*ent.Block{}
	for i, s := range []*ent.Sheet{a, b} {
		bs, err := c.R.DB.Block.Query().Where(block.SheetID(s.ID)).Order(ent.Asc(block.FieldCreatedAt), ent.Asc(block.FieldID)).All(ctx)
		if err != nil {
			return sp, err
		}
		for _, blk := range bs {
			byID[blk.ID] = blk
			var words []string
			for _, w := range parsejob.BlockWords(ctx, c.Blobs, blk.ID) {
				words = append(words, w.Text)
			}
			infos[i] = append(infos[i], BlockInfo{ID: blk.ID, Type: string(blk.Type), Title: blk.Title, Box: blk.Bounds,
				SheetW: float64(s.Width), SheetH: float64(s.Height), Words: words})
		}
	}
	// pair in the newer sheet's frame when the two sheets register (a page
	// reprinted turned or rescaled), else by places as shares of the sheet
	// (cutting the older sheet at the newer blocks' places where the two
	// layouts cut the page otherwise: pair_cut.go)
	var pairs []FramedPair
	var added, removed []BlockInfo
	if t, ok := SheetTransform(ctx, c.sheetThumb(ctx, a), c.sheetThumb(ctx, b),
		[2]float64{float64(a.Width), float64(a.Height)}, [2]float64{float64(b.Width), float64(b.Height)}); ok {
		ps, ad, rm := PairBlocksIn(infos[0], infos[1], t)
		pairs, added, removed = CutBlocksIn(infos[0], infos[1], t, ps, ad, rm, a.Width, a.Height)
		for _, p := range pairs {
			fr[overlayKey(p.Old.ID, p.New.ID)] = pairFrame{Sheet: &t, CutA: p.CutA}
		}
	} else {
		c.log().Info("sheets do not register; blocks paired by their places on the sheets", "old", a.ID, "new", b.ID)
		ps, ad, rm := PairBlocks(infos[0], infos[1])
		for _, p := range ps {
			pairs = append(pairs, FramedPair{BlockPair: p})
		}
		added, removed = ad, rm
	}
	for _, p := range pairs {
		sp.Overlays = append(sp.Overlays, engine.ReportOverlay{Old: reportBlock(byID[p.Old.ID]), New: reportBlock(byID[p.New.ID])})
	}
	for _, x := range added {
		sp.BlocksAdded = append(sp.BlocksAdded, reportBlock(byID[x.ID]))
	}
	for _, x := range removed {
		sp.BlocksRemoved = append(sp.BlocksRemoved, reportBlock(byID[x.ID]))
	}
	return sp, nil
}

// sheetThumb reads a sheet's thumbnail, nil when it has none or it is
// unreadable.
func (c *Compare) sheetThumb(ctx context.Context, sh *ent.Sheet) *image.Gray {
	org, _ := tenant.Org(ctx)
	img, err := blobs.GetPNG(ctx, c.Blobs, blobs.SheetKey(org, sh.DrawingID, sh.PageNumber)+"-thumb.png")
	if err != nil {
		if !errors.Is(err, blobs.ErrNoImage) {
			c.log().Warn("sheet thumbnail unreadable; not compared by its image", "sheet", sh.ID, "err", err)
		}
		return nil
	}
	return img
}

func sheetInfos(ss []*ent.Sheet) []SheetInfo {
	out := make([]SheetInfo, len(ss))
	for i, s := range ss {
		out[i] = SheetInfo{ID: s.ID, Page: s.PageNumber, Number: s.SheetNumber, NumberNorm: s.SheetNumberNorm, Title: s.Title}
	}
	return out
}

func reportSheet(s *ent.Sheet) engine.ReportSheet {
	return engine.ReportSheet{SheetID: s.ID, Number: s.SheetNumber, Title: s.Title, Page: s.PageNumber}
}

func reportBlock(b *ent.Block) engine.ReportBlock {
	return engine.ReportBlock{BlockID: b.ID, Type: string(b.Type), Title: b.Title, Bounds: b.Bounds}
}

// sheetName names a sheet in a report: its number and title, or its page.
func sheetName(s *ent.Sheet) string {
	if n := strings.TrimSpace(s.SheetNumber + " " + s.Title); n != "" {
		return n
	}
	return "page " + strconv.Itoa(s.PageNumber)
}

// blockName names a block in a report: its title, or its type.
func blockName(b *ent.Block) string {
	if b.Title != "" {
		return b.Title
	}
	return string(b.Type)
}
