// Package synthdb stores synthetic sets (internal/tools/synth truth) through
// the database as ingestion and parse would leave them, without rendering:
// fixtures for search tests and the search latency benchmark.
package synthdb

import (
	"context"
	"encoding/json"
	"fmt"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Seeded is a synthetic set stored as a drawing through the
// database, as ingestion and parse would leave it (no rendering).
type Seeded struct {
	ID     string
	Sheets []*ent.Sheet   // by truth page
	Blocks [][]*ent.Block // by truth page, block index
}

// Drawing stores a set's truth as a drawing of project (of the
// context's organization): sheets with their numbers, titles and
// disciplines, blocks, legend entries, and the texts of the sheets as
// stored words; every sheet but page index unparsed (-1: none) parsed —
// its symbol instances linked to their legend entries and a completed
// symbol match job per plan block. The search index is not built.
func Drawing(ctx context.Context, db *ent.Client, bucket *blob.Bucket, project, name string, tr synth.Truth, unparsed int) (*Seeded, error) {
	org, _ := tenant.Org(ctx)
	d, err := db.Drawing.Create().SetProjectID(project).SetName(name).SetStatus("ready").SetPageCount(len(tr.Sheets)).Save(ctx)
	if err != nil {
		return nil, err
	}
	out := &Seeded{ID: d.ID}
	for pi, st := range tr.Sheets {
		sh, err := db.Sheet.Create().SetProjectID(project).SetDrawingID(d.ID).SetPageNumber(st.Page).SetSheetNumber(st.SheetNumber).
			SetSheetNumberNorm(sheetmeta.Normalize(st.SheetNumber)).SetTitle(st.Title).SetDiscipline(st.Discipline).
			SetWidth(tr.WidthPx).SetHeight(tr.HeightPx).Save(ctx)
		if err != nil {
			return nil, err
		}
		out.Sheets = append(out.Sheets, sh)
		var blks []*ent.Block
		var words []text.Word
		word := func(s string, b geom.Box) {
			if s != "" && b.Valid() {
				words = append(words, text.Word{Text: s, Box: b, Line: len(words), Conf: 1})
			}
		}
		entries := map[[2]int]*ent.Feature{}
		for bi, bt := range st.Blocks {
			b, err := db.Block.Create().SetProjectID(project).SetSheetID(sh.ID).SetType(block.Type(bt.Type)).SetTitle(bt.Title).
				SetScale(bt.Scale).SetBounds(bt.Box).Save(ctx)
			if err != nil {
				return nil, err
			}
			blks = append(blks, b)
			if bt.TitleBox != nil {
				word(bt.Title, *bt.TitleBox)
			}
			for ei, e := range bt.Entries {
				f, err := db.Feature.Create().SetBlockID(b.ID).SetKind(feature.KindLegendEntry).SetLabel(e.Label).
					SetDescription(e.Description).SetHasGraphic(e.HasGraphic).SetBounds(e.Box.Translate(-bt.Box.XMin, -bt.Box.YMin)).
					SetDedupeKey(fmt.Sprintf("%s:%d:%d", sh.ID, bi, ei)).Save(ctx)
				if err != nil {
					return nil, err
				}
				entries[[2]int{bi, ei}] = f
				word(e.Label, e.LabelBox)
				word(e.Description, e.DescriptionBox)
			}
			for _, fl := range bt.Fields {
				word(fl.Value, fl.ValueBox)
			}
			for _, r := range bt.Rooms {
				word(r.Name+" "+r.Number, r.LabelBox)
			}
		}
		out.Blocks = append(out.Blocks, blks)
		wb, _ := json.Marshal(words)
		if err := bucket.WriteAll(ctx, blobs.SheetKey(org, d.ID, st.Page)+"-words.json", wb, nil); err != nil {
			return nil, err
		}
		if pi == unparsed {
			continue
		}
		bulk := make([]*ent.FeatureCreate, 0, len(st.Instances))
		for ii, in := range st.Instances {
			b := blks[in.Block]
			e := entries[[2]int{in.LegendBlock, in.LegendEntry}]
			bulk = append(bulk, db.Feature.Create().SetBlockID(b.ID).SetKind(feature.KindSymbolInstance).SetLabel(e.Label).SetDescription(e.Description).
				SetHasGraphic(true).SetBounds(in.Box.Translate(-st.Blocks[in.Block].Box.XMin, -st.Blocks[in.Block].Box.YMin)).
				SetDefinedByID(e.ID).SetDedupeKey(fmt.Sprintf("%s:i%d", sh.ID, ii)))
		}
		if len(bulk) > 0 {
			if err := db.Feature.CreateBulk(bulk...).Exec(ctx); err != nil {
				return nil, err
			}
		}
		for bi, bt := range st.Blocks {
			if bt.Type == "Plan" {
				if err := db.Job.Create().SetProjectID(project).SetType("vision.symbols.match").SetStatus(job.StatusCompleted).
					SetTargetType(job.TargetTypeBlock).SetTargetID(blks[bi].ID).Exec(ctx); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}
