package parse

// The tasks of a parse job's children: reading a legend block and
// searching a view block, each storing what it finds as features.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/legend"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
	"github.com/plangraph/plangraph/vision/vecsym"
)

// recovered turns a panic of a vision step into a permanent failure (a
// retry would panic again).
func (p *Parse) recovered(j *ent.Job, code string, err *error) {
	if r := recover(); r != nil {
		p.log().Error("vision step panicked", "job", j.ID, "type", j.Type, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		*err = jobs.Fail(code, "an internal error stopped the job; it was logged")
	}
}

// reporter records a running job's progress, and its parent's, every
// couple of seconds at most.
func (p *Parse) reporter(ctx context.Context, j *ent.Job) func(done float64) {
	var mu sync.Mutex
	last := time.Now()
	return func(done float64) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < 2*time.Second || ctx.Err() != nil {
			return
		}
		last = time.Now()
		if err := p.R.DB.Job.UpdateOneID(j.ID).SetProgress(min(max(done, 0), 1) * 0.99).Exec(ctx); err == nil {
			p.R.Changed(ctx, j.ID)
			if j.ParentID != "" {
				_ = p.R.RefreshProgress(ctx, j.ParentID)
			}
		}
	}
}

// block loads a block and its image.
func (p *Parse) block(ctx context.Context, id string) (*ent.Block, *image.Gray, error) {
	b, err := p.R.DB.Block.Get(ctx, id)
	if err != nil {
		return nil, nil, notFoundFail(err, "block "+id)
	}
	org, _ := tenant.Org(ctx)
	img, err := blobs.GetPNG(ctx, p.Blobs, blobs.BlockKey(org, b.ID)+".png")
	if errors.Is(err, blobs.ErrNoImage) {
		return nil, nil, jobs.Fail("NOT_FOUND", "block %s has no image", b.ID)
	}
	return b, img, err
}

// legend reads one legend block into legend-entry features. Entries are
// keyed by block and position, so a retry (or a later parse of the same
// legend) updates them in place: their ids stay, instances keep their link.
func (p *Parse) legend(ctx context.Context, j *ent.Job) (_ any, err error) {
	var in legendInput
	if err := json.Unmarshal(j.Input, &in); err != nil || in.BlockID == "" {
		return nil, jobs.Fail("BAD_INPUT", "legend job %s has no block", j.ID)
	}
	b, img, err := p.block(ctx, in.BlockID)
	if err != nil {
		return nil, err
	}
	org, _ := tenant.Org(ctx)
	words := p.blockWords(ctx, b.ID)
	var entries []legend.Entry
	func() {
		defer p.recovered(j, "LEGEND_FAILED", &err)
		entries = p.ReadLegend(img, words)
	}()
	if err != nil {
		return nil, err
	}
	img = nil
	feats, err := p.storeLegend(ctx, j, b, entries)
	if err != nil {
		return nil, err
	}
	stored := make([]*image.Gray, len(entries)) // the graphics as stored
	for i, e := range entries {
		if e.HasGraphic && e.Exemplar != nil {
			ex, ok := render.TightCrop(e.Exemplar)
			if !ok {
				continue
			}
			// the legend reader cut the graphic to its ink: no line of it
			// is cut
			stored[i] = render.PadWhite(ex, render.CropMargin)
			if err := blobs.PutPNG(ctx, p.Blobs, blobs.FeatureKey(org, feats[i].ID)+".png", stored[i]); err != nil {
				return nil, err
			}
		}
	}
	res := LegendResult{BlockID: &b.ID, Symbols: []LegendSymbol{}}
	res.Warnings = entryWarnings(b.ID, entries, feats, stored, minSymbolPx(p.sheetDPI(ctx, b)))
	for _, f := range feats {
		res.Symbols = append(res.Symbols, LegendSymbol{FeatureID: f.ID, Label: f.Label, Description: f.Description, HasGraphic: f.HasGraphic})
		res.SymbolsDetected++
		if f.HasGraphic {
			res.SymbolsWithGraphic++
		}
	}
	return res, nil
}

// blockWords reads the words stored with a block at ingestion (BlockWords).
func (p *Parse) blockWords(ctx context.Context, blockID string) []text.Word {
	return BlockWords(ctx, p.Blobs, blockID)
}

// BlockWords reads the words stored with a block of the context's
// organization at ingestion, in its pixels (none when it has none stored).
func BlockWords(ctx context.Context, bucket *blob.Bucket, blockID string) []text.Word {
	org, _ := tenant.Org(ctx)
	var words []text.Word
	if wb, err := bucket.ReadAll(ctx, blobs.BlockKey(org, blockID)+"-words.json"); err == nil {
		_ = json.Unmarshal(wb, &words)
	}
	return words
}

func legendKey(blockID string, i int) string { return fmt.Sprintf("legend:%s:%d", blockID, i) }

// storeLegend upserts the entries' features and removes those of entries
// the legend no longer has, in one transaction.
func (p *Parse) storeLegend(ctx context.Context, j *ent.Job, b *ent.Block, entries []legend.Entry) ([]*ent.Feature, error) {
	tx, err := p.R.DB.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	existing, err := tx.Feature.Query().Where(feature.BlockID(b.ID), feature.KindEQ(feature.KindLegendEntry)).All(ctx)
	if err != nil {
		return nil, err
	}
	byKey := map[string]*ent.Feature{}
	for _, f := range existing {
		byKey[f.DedupeKey] = f
	}
	out := make([]*ent.Feature, len(entries))
	for i, e := range entries {
		key := legendKey(b.ID, i)
		hasGraphic := e.HasGraphic && e.Exemplar != nil && render.Ink(e.Exemplar) > 0
		box := e.Box
		if hasGraphic && e.Graphic.Valid() {
			box = e.Graphic
		}
		label, desc := strings.TrimSpace(e.Label), strings.TrimSpace(e.Description)
		if f, ok := byKey[key]; ok {
			u := tx.Feature.UpdateOne(f).SetLabel(label).SetDescription(desc).SetHasGraphic(hasGraphic)
			if box.Valid() {
				u.SetBounds(box)
			} else {
				u.ClearBounds()
			}
			if out[i], err = u.Save(ctx); err != nil {
				return nil, err
			}
			delete(byKey, key)
			continue
		}
		c := tx.Feature.Create().SetID(ids.New(ids.Feature)).SetBlockID(b.ID).SetJobID(j.ID).SetKind(feature.KindLegendEntry).
			SetLabel(label).SetDescription(desc).SetHasGraphic(hasGraphic).SetDedupeKey(key)
		if box.Valid() {
			c.SetBounds(box)
		}
		if out[i], err = c.Save(ctx); err != nil {
			return nil, err
		}
	}
	for _, f := range byKey {
		if err := tx.Feature.DeleteOne(f).Exec(ctx); err != nil {
			return nil, err
		}
	}
	return out, tx.Commit()
}

// match searches one view block for the legend entries of its input and
// stores what it finds as symbol-instance features. A block and symbol that
// the sheet's PDF drew as geometry are matched as geometry; the others (a
// scan, an image supplied with the request) as pixels.
func (p *Parse) match(ctx context.Context, j *ent.Job) (_ any, err error) {
	var in matchInput
	if err := json.Unmarshal(j.Input, &in); err != nil || in.BlockID == "" {
		return nil, jobs.Fail("BAD_INPUT", "match job %s has no block", j.ID)
	}
	b, err := p.R.DB.Block.Get(ctx, in.BlockID)
	if err != nil {
		return nil, notFoundFail(err, "block "+in.BlockID)
	}
	fs, err := p.R.DB.Feature.Query().Where(feature.IDIn(in.LegendFeatureIDs...)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[string]*ent.Feature{}
	for _, f := range fs {
		byID[f.ID] = f
	}
	org, _ := tenant.Org(ctx)
	// the block's search (geometry and pixels together) stops at its
	// budget and says what it left unsearched
	var deadline time.Time
	if p.Budget > 0 {
		deadline = time.Now().Add(p.Budget)
	}
	res := BlockMatchResult{BlockID: b.ID, Symbols: []ParseSymbol{}}
	br := blockRect(b.Bounds)
	bw, bh := int(br.X1-br.X0), int(br.Y1-br.Y0)
	minPx := minSymbolPx(p.sheetDPI(ctx, b))
	skip := func(f *ent.Feature, why string) {
		res.Warnings = append(res.Warnings, ParseWarning{Code: WarnSymbolSkipped, FeatureID: f.ID, Label: f.Label, Message: why})
	}
	vp := p.vecPages()
	drawing, err := vp.drawing(ctx, b)
	if err != nil {
		return nil, err
	}
	// the block's image, read only when some symbol is searched as pixels
	var img *image.Gray
	blank := false
	if drawing != nil {
		segs, glyphs := drawing.Marks()
		blank = segs+glyphs == 0
	} else {
		if _, img, err = p.block(ctx, b.ID); err != nil {
			return nil, err
		}
		blank = render.Ink(img) == 0
	}
	if blank {
		res.Warnings = append(res.Warnings, ParseWarning{Code: WarnBlockBlank, BlockID: b.ID, Message: "the block has nothing drawn"})
	}
	var tmpls []symbols.Template  // searched as pixels
	var vtmpls []*vecsym.Template // searched as geometry
	var tmplFeat, vtmplFeat []*ent.Feature
	for _, id := range in.LegendFeatureIDs {
		f := byID[id]
		if f == nil || !f.HasGraphic || blank {
			continue
		}
		ex, err := blobs.GetPNG(ctx, p.Blobs, blobs.FeatureKey(org, f.ID)+".png")
		if errors.Is(err, blobs.ErrNoImage) {
			skip(f, "the symbol has no stored image")
			continue
		}
		if err != nil {
			return nil, err
		}
		if why := unsearchable(ex, minPx, bw, bh); why != "" {
			skip(f, why)
			continue
		}
		if drawing != nil {
			var src *ExemplarSource
			if s, ok := in.Sources[f.ID]; ok {
				src = &s
			}
			vt, err := vp.template(ctx, f, src)
			if err != nil {
				return nil, err
			}
			if vt != nil {
				vtmpls = append(vtmpls, vt)
				vtmplFeat = append(vtmplFeat, f)
				continue
			}
		}
		tmpls = append(tmpls, symbols.Template{Label: f.Label, Image: ex})
		tmplFeat = append(tmplFeat, f)
	}
	// the legends, notes and title blocks drawn inside the view are not
	// searched (see enclosed.go)
	var inside []geom.Box
	if len(tmpls)+len(vtmpls) > 0 {
		if inside, err = p.enclosedBlocks(ctx, b); err != nil {
			return nil, err
		}
	}
	var dets []symbols.Detection
	if len(vtmpls) > 0 {
		var vd []symbols.Detection
		tags := make([]string, len(vtmplFeat))
		for i, f := range vtmplFeat {
			tags[i] = entryTag(f.Label, f.Description)
		}
		func() {
			defer p.recovered(j, "MATCH_FAILED", &err)
			vd, err = vecsym.Match(ctx, drawing, vtmpls, vecsym.Options{Progress: p.reporter(ctx, j), Deadline: deadline,
				Tags: tags, Words: drawingWords(p.blockWords(ctx, b.ID))})
		}()
		var inc *vecsym.Incomplete
		if errors.As(err, &inc) {
			for _, t := range inc.Templates {
				f := vtmplFeat[t]
				res.Warnings = append(res.Warnings, ParseWarning{Code: WarnSearchIncomplete, BlockID: b.ID, FeatureID: f.ID, Label: f.Label,
					Message: fmt.Sprintf("the symbol's search in this block did not finish within the block's %s time budget; it is not counted here", p.Budget)})
			}
			err = nil
		}
		if err != nil {
			return nil, matchFailure(ctx, err)
		}
		for _, d := range vd {
			d.Template += len(tmplFeat) // after the pixel-searched ones
			dets = append(dets, d)
		}
	}
	if len(tmpls) > 0 {
		if img == nil {
			if _, img, err = p.block(ctx, b.ID); err != nil {
				return nil, err
			}
		}
		var mres symbols.Result
		// the block is searched as if in place on its sheet: padded with
		// paper so that its origin sits on the sheet's grid of render.MatchGrid
		// pixels, the matcher's image pyramid falls on the same grid for
		// every block of the sheet, whatever the block's bounds
		padded, dx, dy := render.OnSheetGrid(img, b.Bounds.XMin, b.Bounds.YMin)
		clearBoxes(padded, inside, image.Pt(dx, dy))
		words, letters := p.textInputs(ctx, b.ID, tmplFeat, tmpls, float64(dx), float64(dy))
		func() {
			defer p.recovered(j, "MATCH_FAILED", &err)
			mres, err = p.Match(ctx, padded, tmpls, symbols.Options{Progress: p.reporter(ctx, j), Words: words, Letters: letters, Deadline: deadline})
		}()
		if err != nil {
			return nil, matchFailure(ctx, err)
		}
		switch left := unsearchedShare(mres.Unsearched, padded.Bounds()); {
		case left > 0:
			res.Warnings = append(res.Warnings, ParseWarning{Code: WarnSearchIncomplete, BlockID: b.ID,
				Message: fmt.Sprintf("the search stopped at the block's %s time budget with %.0f%% of the block unsearched; its counts cover the searched part only", p.Budget, 100*left)})
		case mres.Stats.Unrefined > 0:
			res.Warnings = append(res.Warnings, ParseWarning{Code: WarnSearchIncomplete, BlockID: b.ID,
				Message: fmt.Sprintf("the search stopped at the block's %s time budget having examined the likeliest %d of %d candidate places; its counts may be short", p.Budget, mres.Stats.Candidates-mres.Stats.Unrefined, mres.Stats.Candidates)})
		}
		if s := mres.NearScales; s[1] > 0 {
			res.Warnings = append(res.Warnings, ParseWarning{Code: WarnSearchIncomplete, BlockID: b.ID,
				Message: fmt.Sprintf("within the block's %s time budget the symbols were searched only at %.2f–%.2f times their legend size (the likeliest, searched first); instances drawn smaller or larger may be missing", p.Budget, s[0], s[1])})
		}
		padded = nil
		for i := range mres.Detections {
			mres.Detections[i].Box = mres.Detections[i].Box.Translate(-float64(dx), -float64(dy))
		}
		for _, s := range mres.Skipped {
			if s.Template >= 0 && s.Template < len(tmplFeat) {
				skip(tmplFeat[s.Template], s.Reason)
			}
		}
		dets = append(dets, mres.Detections...)
	}
	img = nil
	dets = outsideBoxes(dets, inside)
	if len(vtmpls) > 0 && len(tmpls) > 0 {
		dets = suppressAcross(dets, len(tmplFeat))
	}
	tmplFeat = append(tmplFeat, vtmplFeat...)
	insts, err := p.storeInstances(ctx, j, b, in.LegendFeatureIDs, tmplFeat, dets, float64(bw), float64(bh))
	if err != nil {
		return nil, err
	}
	searched := map[string]*ent.Feature{}
	for _, f := range tmplFeat {
		searched[f.ID] = f
	}
	for _, id := range in.LegendFeatureIDs { // in legend order
		f, list := searched[id], insts[id]
		if f == nil || len(list) == 0 {
			continue
		}
		s := ParseSymbol{Label: f.Label, Description: f.Description, LegendFeatureID: f.ID, InstanceCount: len(list)}
		if !in.Count {
			s.Instances = list
		}
		res.Symbols = append(res.Symbols, s)
		res.Summary.TotalInstancesFound += len(list)
	}
	res.Summary.TotalSymbolsSearched = len(res.Symbols)
	return res, nil
}

// unsearchedShare is the share of all's area in the unsearched rectangles
// (which do not overlap).
func unsearchedShare(unsearched []image.Rectangle, all image.Rectangle) float64 {
	a := float64(all.Dx() * all.Dy())
	if a == 0 {
		return 0
	}
	n := 0.0
	for _, r := range unsearched {
		r = r.Intersect(all)
		n += float64(r.Dx() * r.Dy())
	}
	return min(n/a, 1)
}

// suppressAcross resolves overlaps between the detections of symbols
// searched as pixels (Template < split) and those searched as geometry:
// each search suppresses within itself by what its detections explain,
// measures the two do not share, so across them the more confident of two
// overlapping detections (IoU ≥ 0.3, or 70 % of the smaller inside the
// larger) is kept.
func suppressAcross(dets []symbols.Detection, split int) []symbols.Detection {
	order := make([]int, len(dets))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return dets[order[a]].Confidence > dets[order[b]].Confidence })
	var kept []symbols.Detection
	for _, i := range order {
		d := dets[i]
		ok := true
		for _, k := range kept {
			if (d.Template < split) == (k.Template < split) {
				continue
			}
			in := d.Box.Intersect(k.Box).Area()
			if in > 0 && (d.Box.IoU(k.Box) >= 0.3 || in >= 0.7*min(d.Box.Area(), k.Box.Area())) {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, d)
		}
	}
	return kept
}

// matchFailure is the error a failed search ends its job with.
func matchFailure(ctx context.Context, err error) error {
	var f *jobs.Failure
	if ctx.Err() != nil || errors.As(err, &f) {
		return err
	}
	return jobs.Fail("MATCH_FAILED", "symbol matching failed: %v", err)
}

func instanceKey(blockID, legendID string, b geom.Box) string {
	return fmt.Sprintf("inst:%s:%s:%d,%d,%d,%d", blockID, legendID,
		int(math.Round(b.XMin)), int(math.Round(b.YMin)), int(math.Round(b.XMax)), int(math.Round(b.YMax)))
}

// sameInstanceIoU is the overlap at which a detection is taken to be an
// instance stored before (the matcher's boxes may move by a pixel or two
// between runs).
const sameInstanceIoU = 0.5

// storeInstances makes the block's instance features of the searched
// legend entries exactly the detections, in one transaction: a detection
// overlapping a stored instance of the same entry (IoU ≥ 0.5) updates it, so
// a retried task or a later parse keeps the instances' ids and adds no rows;
// stored instances no longer detected are deleted; new ones are keyed by
// block, entry and rounded box. The block's row is locked first, so two
// parses of one block cannot both add the same instances. Returns the
// instances by legend entry, in reading order.
func (p *Parse) storeInstances(ctx context.Context, j *ent.Job, b *ent.Block, legendIDs []string, tmplFeat []*ent.Feature,
	dets []symbols.Detection, bw, bh float64) (map[string][]ParseInstance, error) {
	type want struct {
		legendID string
		box      geom.Box
		conf     float64
		key      string
		row      *ent.Feature
	}
	var wants []*want
	seen := map[string]*want{}
	for _, d := range dets {
		if d.Template < 0 || d.Template >= len(tmplFeat) {
			continue
		}
		box := geom.Box{XMin: max(0, d.Box.XMin), YMin: max(0, d.Box.YMin), XMax: min(bw, d.Box.XMax), YMax: min(bh, d.Box.YMax)}
		if !box.Valid() || math.IsNaN(d.Confidence) {
			continue
		}
		conf := math.Round(min(1, max(0, d.Confidence))*10000) / 10000
		lid := tmplFeat[d.Template].ID
		k := instanceKey(b.ID, lid, box)
		if old := seen[k]; old != nil {
			old.conf = max(old.conf, conf)
			continue
		}
		w := &want{legendID: lid, box: box, conf: conf, key: k}
		seen[k] = w
		wants = append(wants, w)
	}
	tx, err := p.R.DB.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	// writing the block's row locks it (PostgreSQL) until commit; SQLite has one writer anyway
	if err := tx.Block.UpdateOneID(b.ID).SetTitle(b.Title).Exec(ctx); err != nil {
		return nil, err
	}
	existing, err := tx.Feature.Query().Where(feature.BlockID(b.ID), feature.KindEQ(feature.KindSymbolInstance),
		feature.DefinedByIDIn(legendIDs...)).All(ctx)
	if err != nil {
		return nil, err
	}
	// pair detections with stored instances of the same entry, best overlap first
	type pair struct {
		w   *want
		f   *ent.Feature
		iou float64
	}
	var pairs []pair
	for _, w := range wants {
		for _, f := range existing {
			if f.DefinedByID == w.legendID {
				if iou := f.Bounds.IoU(w.box); iou >= sameInstanceIoU {
					pairs = append(pairs, pair{w, f, iou})
				}
			}
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].iou > pairs[b].iou })
	used := map[string]bool{}
	for _, pr := range pairs {
		if pr.w.row == nil && !used[pr.f.ID] {
			pr.w.row, used[pr.f.ID] = pr.f, true
		}
	}
	var stale []string
	for _, f := range existing {
		if !used[f.ID] {
			stale = append(stale, f.ID)
		}
	}
	for len(stale) > 0 {
		n := min(len(stale), 500)
		if _, err := tx.Feature.Delete().Where(feature.IDIn(stale[:n]...)).Exec(ctx); err != nil {
			return nil, err
		}
		stale = stale[n:]
	}
	out := map[string][]ParseInstance{}
	var creates []*ent.FeatureCreate
	flush := func() error {
		if len(creates) == 0 {
			return nil
		}
		err := tx.Feature.CreateBulk(creates...).Exec(ctx)
		creates = creates[:0]
		return err
	}
	for _, w := range wants {
		var id string
		if f := w.row; f != nil {
			id = f.ID
			if f.Confidence == nil || *f.Confidence != w.conf || f.Bounds != w.box {
				if err := tx.Feature.UpdateOne(f).SetConfidence(w.conf).SetBounds(w.box).Exec(ctx); err != nil {
					return nil, err
				}
			}
		} else {
			id = ids.New(ids.Feature)
			lf := byFeature(tmplFeat, w.legendID)
			creates = append(creates, tx.Feature.Create().SetID(id).SetBlockID(b.ID).SetJobID(j.ID).
				SetKind(feature.KindSymbolInstance).SetLabel(lf.Label).SetDescription(lf.Description).SetHasGraphic(true).
				SetBounds(w.box).SetConfidence(w.conf).SetDefinedByID(w.legendID).SetDedupeKey(w.key))
			if len(creates) == 200 {
				if err := flush(); err != nil {
					return nil, err
				}
			}
		}
		out[w.legendID] = append(out[w.legendID], ParseInstance{FeatureID: id, Bounds: w.box, Confidence: w.conf})
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	for _, list := range out {
		sort.SliceStable(list, func(a, b int) bool {
			if list[a].Bounds.YMin != list[b].Bounds.YMin {
				return list[a].Bounds.YMin < list[b].Bounds.YMin
			}
			return list[a].Bounds.XMin < list[b].Bounds.XMin
		})
	}
	return out, nil
}

func byFeature(fs []*ent.Feature, id string) *ent.Feature {
	for _, f := range fs {
		if f.ID == id {
			return f
		}
	}
	return &ent.Feature{}
}
