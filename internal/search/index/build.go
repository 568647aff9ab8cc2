package index

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// symbolMatchJob is jobs.TypeSymbolMatch (jobs imports this package's
// callers, so the name is repeated rather than imported).
const symbolMatchJob = "vision.symbols.match"

// RebuildSheet replaces the rows of one sheet (of the context's
// organization) with rows built from what is stored now: the sheet, its
// blocks, the legend entries on them, its symbol instances counted per
// legend entry and block, what its latest comparison with an older revision
// found (changeDocs) and the lines of its words. Running it again
// gives the same rows, so ingestion and parse call it at their end, retries
// included. A sheet that no longer exists leaves no rows.
func (x *Index) RebuildSheet(ctx context.Context, sheetID string) error {
	org, ok := tenant.Org(ctx)
	if !ok {
		return errNoOrg
	}
	pg := x.Dialect(ctx) == Postgres
	tx, err := x.DB.Tx(ctx)
	if err != nil {
		return err
	}
	// one rebuild of a sheet at a time, reading what it writes under the lock
	// (SQLite's transactions take the write lock when they begin)
	if pg {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM sheets WHERE id = $1 FOR UPDATE`, sheetID)
		if err != nil {
			tx.Rollback()
			return err
		}
		rows.Close()
	}
	db := tx.Client()
	var docs []Doc
	s, err := db.Sheet.Query().Where(sheet.ID(sheetID)).WithDrawing().Only(ctx)
	switch {
	case ent.IsNotFound(err): // gone: its rows go too
	case err != nil:
		tx.Rollback()
		return err
	default:
		if docs, err = x.sheetDocs(ctx, db, org, s); err != nil {
			tx.Rollback()
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, x.rebind(ctx, `DELETE FROM search_docs WHERE org_id = ? AND sheet_id = ?`), org, sheetID); err != nil {
		tx.Rollback()
		return err
	}
	const batch = 50
	for i := 0; i < len(docs); i += batch {
		part := docs[i:min(i+batch, len(docs))]
		var args []any
		for _, d := range part {
			bounds := ""
			if d.Bounds != nil {
				b, _ := json.Marshal(d.Bounds)
				bounds = string(b)
			}
			args = append(args, org, d.ProjectID, d.DrawingID, d.SheetID, d.BlockID, d.SourceType, d.SourceID,
				d.SheetNumber, d.SheetNumberNorm, d.SheetTitle, d.Discipline, d.Revision, d.BlockType, d.BlockTitle,
				d.Label, d.Body, d.Terms, bounds, d.Count, d.Parsed, EmbedHash(d))
		}
		row := "(" + strings.TrimSuffix(strings.Repeat("?,", 21), ",") + ")"
		q := `INSERT INTO search_docs (` + columns + `) VALUES ` + strings.TrimSuffix(strings.Repeat(row+",", len(part)), ",")
		if _, err := tx.ExecContext(ctx, x.rebind(ctx, q), args...); err != nil {
			tx.Rollback()
			return fmt.Errorf("search index: sheet %s: %w", sheetID, err)
		}
	}
	return tx.Commit()
}

// RebuildDrawing rebuilds the rows of every sheet of a drawing.
func (x *Index) RebuildDrawing(ctx context.Context, drawingID string) error {
	ids, err := x.DB.Sheet.Query().Where(sheet.DrawingID(drawingID)).IDs(ctx)
	if err != nil {
		return err
	}
	return x.rebuild(ctx, ids)
}

// RebuildProject rebuilds the rows of every sheet of a project (after a
// change of the index's format, or to repair it).
func (x *Index) RebuildProject(ctx context.Context, projectID string) error {
	ids, err := x.DB.Sheet.Query().Where(sheet.HasDrawingWith(drawing.ProjectID(projectID))).IDs(ctx)
	if err != nil {
		return err
	}
	return x.rebuild(ctx, ids)
}

// RebuildBlocks rebuilds the rows of the sheets that hold blocks (a parse's
// searched and legend blocks).
func (x *Index) RebuildBlocks(ctx context.Context, blockIDs []string) error {
	ids, err := x.DB.Block.Query().Where(block.IDIn(blockIDs...)).GroupBy(block.FieldSheetID).Strings(ctx)
	if err != nil {
		return err
	}
	return x.rebuild(ctx, ids)
}

// RebuildSheets rebuilds the rows of the given sheets (a comparison's
// newer sheets once it completes).
func (x *Index) RebuildSheets(ctx context.Context, sheetIDs []string) error {
	return x.rebuild(ctx, slices.Clone(sheetIDs))
}

func (x *Index) rebuild(ctx context.Context, sheetIDs []string) error {
	sort.Strings(sheetIDs)
	for _, id := range sheetIDs {
		if err := x.RebuildSheet(ctx, id); err != nil {
			return err
		}
	}
	x.keepFresh(ctx)
	return nil
}

// sheetDocs builds a sheet's rows.
func (x *Index) sheetDocs(ctx context.Context, db *ent.Client, org string, s *ent.Sheet) ([]Doc, error) {
	d := s.Edges.Drawing
	base := Doc{ProjectID: d.ProjectID, DrawingID: d.ID, SheetID: s.ID, SheetNumber: s.SheetNumber,
		SheetNumberNorm: sheetmeta.Normalize(s.SheetNumber), SheetTitle: s.Title, Discipline: s.Discipline, Revision: s.Revision}
	blks, err := db.Block.Query().Where(block.SheetID(s.ID)).Order(block.ByCreatedAt(), block.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	blockIDs := make([]string, len(blks))
	byID := map[string]*ent.Block{}
	for i, b := range blks {
		blockIDs[i], byID[b.ID] = b.ID, b
	}
	parsed, err := db.Job.Query().Where(job.Type(symbolMatchJob), job.TargetIDIn(blockIDs...),
		job.StatusEQ(job.StatusCompleted)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	base.Parsed = parsed
	var out []Doc
	add := func(d Doc, texts ...string) {
		d.Terms = search.Terms(texts...)
		if d.Terms != "" {
			out = append(out, d)
		}
	}
	sd := base
	sd.SourceType, sd.SourceID = TypeSheet, s.ID
	sd.Label = strings.TrimSpace(s.SheetNumber + " " + s.Title)
	sd.Body = strings.ReplaceAll(s.Discipline, "_", " ")
	if s.Width > 0 && s.Height > 0 {
		sd.Bounds = &geom.Box{XMax: float64(s.Width), YMax: float64(s.Height)}
	}
	add(sd, sd.Label, sd.Body, sd.SheetNumberNorm)
	for _, b := range blks {
		bd := base
		bd.SourceType, bd.SourceID, bd.BlockID = TypeBlock, b.ID, b.ID
		bd.BlockType, bd.BlockTitle = string(b.Type), b.Title
		bd.Label = b.Title
		if bd.Label == "" {
			bd.Label = string(b.Type)
		}
		bd.Body = strings.TrimSpace(string(b.Type) + " " + b.Description + " " + b.Scale)
		bb := b.Bounds
		bd.Bounds = &bb
		add(bd, bd.Label, BlockTypeWords(string(b.Type)), b.Description)
	}
	feats, err := db.Feature.Query().Where(feature.BlockIDIn(blockIDs...)).Order(feature.ByCreatedAt(), feature.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	// instances per (legend entry, block); entries may be on another sheet's legend
	type key struct{ entry, block string }
	groups := map[key][]geom.Box{}
	var keys []key
	var entryIDs []string
	for _, f := range feats {
		b := byID[f.BlockID]
		if f.Kind == feature.KindLegendEntry {
			ld := base
			ld.SourceType, ld.SourceID, ld.BlockID = TypeLegendEntry, f.ID, f.BlockID
			ld.BlockType, ld.BlockTitle = string(b.Type), b.Title
			ld.Label, ld.Body = f.Label, f.Description
			ld.Bounds = onSheet(f.Bounds, b)
			add(ld, f.Label, f.Description)
			continue
		}
		if f.DefinedByID == "" {
			continue
		}
		k := key{f.DefinedByID, f.BlockID}
		if _, seen := groups[k]; !seen {
			keys = append(keys, k)
			entryIDs = append(entryIDs, f.DefinedByID)
		}
		if bx := onSheet(f.Bounds, b); bx != nil {
			groups[k] = append(groups[k], *bx)
		} else {
			groups[k] = append(groups[k], geom.Box{})
		}
	}
	entries := map[string]*ent.Feature{}
	if len(entryIDs) > 0 {
		es, err := db.Feature.Query().Where(feature.IDIn(entryIDs...)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			entries[e.ID] = e
		}
	}
	for _, k := range keys {
		e, b := entries[k.entry], byID[k.block]
		if e == nil {
			continue
		}
		sym := base
		sym.SourceType, sym.SourceID, sym.BlockID = TypeSymbol, e.ID, b.ID
		sym.BlockType, sym.BlockTitle = string(b.Type), b.Title
		sym.Label, sym.Body = e.Label, e.Description
		sym.Count = len(groups[k])
		sym.Bounds = union(groups[k])
		add(sym, e.Label, e.Description)
	}
	changes, err := changeDocs(ctx, db, base, s, blks)
	if err != nil {
		return nil, err
	}
	out = append(out, changes...)
	lines, err := x.wordLines(ctx, org, s)
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		wd := base
		wd.SourceType, wd.SourceID = TypeWord, fmt.Sprintf("%s:%d", s.ID, l.n)
		wd.Label = l.text
		wd.Bounds = &l.box
		for _, b := range blks {
			if inside(l.box, b.Bounds) {
				wd.BlockID, wd.BlockType, wd.BlockTitle = b.ID, string(b.Type), b.Title
				break
			}
		}
		add(wd, l.text)
	}
	return out, nil
}

// BlockTypeWords spells a block type as words ("GeneralNotes" → "General
// Notes"), so that "general notes" finds it.
func BlockTypeWords(t string) string {
	var b strings.Builder
	for i, r := range t {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// onSheet moves a box in block pixels to sheet pixels (blocks are crops of
// the page at the sheet's resolution).
func onSheet(bx geom.Box, b *ent.Block) *geom.Box {
	if b == nil || !bx.Valid() {
		return nil
	}
	out := bx.Translate(b.Bounds.XMin, b.Bounds.YMin)
	return &out
}

func union(bs []geom.Box) *geom.Box {
	var u *geom.Box
	for _, b := range bs {
		if !b.Valid() {
			continue
		}
		if u == nil {
			c := b
			u = &c
			continue
		}
		u.XMin, u.YMin = math.Min(u.XMin, b.XMin), math.Min(u.YMin, b.YMin)
		u.XMax, u.YMax = math.Max(u.XMax, b.XMax), math.Max(u.YMax, b.YMax)
	}
	return u
}

func inside(a, b geom.Box) bool {
	return a.XMin >= b.XMin && a.YMin >= b.YMin && a.XMax <= b.XMax && a.YMax <= b.YMax
}

type line struct {
	n    int
	text string
	box  geom.Box
}

// wordLines reads the sheet's stored words and joins them into lines: the
// words of one text line (text.Word.Line) in reading order, split where the
// gap to the next word exceeds three times the line's height (two labels
// that share a baseline across the sheet are two passages).
func (x *Index) wordLines(ctx context.Context, org string, s *ent.Sheet) ([]line, error) {
	if x.Blobs == nil {
		return nil, nil
	}
	raw, err := x.Blobs.ReadAll(ctx, blobs.SheetKey(org, s.DrawingID, s.PageNumber)+"-words.json")
	if err != nil {
		return nil, nil // a sheet without stored words has no word rows
	}
	var words []text.Word
	if err := json.Unmarshal(raw, &words); err != nil {
		return nil, nil
	}
	byLine := map[int][]text.Word{}
	var order []int
	for _, w := range words {
		if strings.TrimSpace(w.Text) == "" || !w.Box.Valid() {
			continue
		}
		if _, ok := byLine[w.Line]; !ok {
			order = append(order, w.Line)
		}
		byLine[w.Line] = append(byLine[w.Line], w)
	}
	var out []line
	for _, n := range order {
		ws := byLine[n]
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].Box.XMin < ws[j].Box.XMin })
		var cur []text.Word
		flush := func() {
			if len(cur) == 0 {
				return
			}
			parts := make([]string, len(cur))
			boxes := make([]geom.Box, len(cur))
			for i, w := range cur {
				parts[i], boxes[i] = w.Text, w.Box
			}
			out = append(out, line{n: len(out), text: strings.Join(parts, " "), box: *union(boxes)})
			cur = nil
		}
		for _, w := range ws {
			if len(cur) > 0 {
				prev := cur[len(cur)-1]
				if w.Box.XMin-prev.Box.XMax > 3*math.Max(prev.Box.Height(), w.Box.Height()) {
					flush()
				}
			}
			cur = append(cur, w)
		}
		flush()
	}
	return out, nil
}
