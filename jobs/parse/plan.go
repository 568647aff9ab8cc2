package parse

// The matching stage's plan: which view blocks are searched, with which
// legends' symbols (a sheet's own legend, else the legends that serve its
// discipline), and the warnings for what is not searched.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/jobs"
)

// parsePlan is what the matching stage searches, and the legend it used.
type parsePlan struct {
	legend []LegendResult
	// order of legend entries in results (supplied first, then by legend block)
	order  map[string]int
	blocks []matchInput
}

// matchPlan decides which legend entries each view block is searched for:
// the supplied symbols and the named legend's entries; with detection, the
// entries of the legends on the block's own sheet, or when its sheet has
// none, those of the target's legends that serve its sheet's discipline
// (serves; the first entry of each label). A block no legend serves is not
// searched, and a NO_LEGEND warning names it.
func (p *Parse) matchPlan(ctx context.Context, j *ent.Job, in ParseInput, legends []*ent.Block, legendJobs []*ent.Job) (*parsePlan, []ParseWarning, error) {
	plan := &parsePlan{legend: []LegendResult{}, order: map[string]int{}}
	var warns []ParseWarning
	var supplied []string
	if len(in.Supplied) > 0 {
		fids := make([]string, len(in.Supplied))
		for i, s := range in.Supplied {
			fids[i] = s.FeatureID
		}
		fs, err := p.R.DB.Feature.Query().Where(feature.IDIn(fids...)).All(ctx)
		if err != nil {
			return nil, nil, err
		}
		byID := map[string]*ent.Feature{}
		for _, f := range fs {
			byID[f.ID] = f
		}
		lr := LegendResult{Source: SourceRequest, Symbols: []LegendSymbol{}}
		for _, id := range fids {
			f := byID[id]
			if f == nil {
				continue
			}
			lr.Symbols = append(lr.Symbols, LegendSymbol{FeatureID: f.ID, Label: f.Label, Description: f.Description, HasGraphic: f.HasGraphic})
			lr.SymbolsDetected++
			if f.HasGraphic {
				lr.SymbolsWithGraphic++
				supplied = append(supplied, f.ID)
			}
			plan.order[f.ID] = len(plan.order)
		}
		plan.legend = append(plan.legend, lr)
	}
	// legend results by block, in legend order
	byBlock := map[string]*ent.Job{}
	for _, c := range legendJobs {
		byBlock[c.TargetID] = c
	}
	type entry struct{ id, label, sheet string }
	bySheet, byLegend := map[string][]entry{}, map[string][]entry{}
	var all []entry // every graphic entry, in legend order
	total, withGraphic, read := 0, 0, 0
	var firstFail *ent.Job
	for _, b := range legends {
		c := byBlock[b.ID]
		if c == nil {
			continue
		}
		if c.Status != job.StatusCompleted {
			msg := "the legend could not be read"
			if c.Error != nil {
				msg += ": " + c.Error.Message
			}
			warns = append(warns, ParseWarning{Code: WarnLegendFailed, BlockID: b.ID, Message: msg})
			if firstFail == nil {
				firstFail = c
			}
			continue
		}
		read++
		var lr LegendResult
		if err := json.Unmarshal(c.Result, &lr); err != nil {
			return nil, nil, fmt.Errorf("legend job %s: %w", c.ID, err)
		}
		if lr.Symbols == nil {
			lr.Symbols = []LegendSymbol{}
		}
		// the entries the legend job made no template of (text only, line
		// styles, …) are said once, here, and not searched
		skipped := map[string]bool{}
		for _, w := range lr.Warnings {
			if w.FeatureID != "" {
				skipped[w.FeatureID] = true
			}
		}
		warns = append(warns, lr.Warnings...)
		lr.Warnings = nil
		plan.legend = append(plan.legend, lr)
		total += lr.SymbolsDetected
		for _, s := range lr.Symbols {
			plan.order[s.FeatureID] = len(plan.order)
			if !s.HasGraphic || skipped[s.FeatureID] {
				continue
			}
			withGraphic++
			e := entry{s.FeatureID, s.Label, b.SheetID}
			bySheet[b.SheetID] = append(bySheet[b.SheetID], e)
			byLegend[b.ID] = append(byLegend[b.ID], e)
			all = append(all, e)
		}
	}
	if firstFail != nil && read == 0 && len(in.Supplied) == 0 {
		// no legend could be read: there is nothing to search for
		code, msg := "LEGEND_FAILED", "the legend could not be read"
		if firstFail.Error != nil {
			code, msg = firstFail.Error.Code, firstFail.Error.Message
		}
		return nil, nil, jobs.Fail(code, "no legend could be read: %s", msg)
	}
	if read > 0 && withGraphic == 0 && len(supplied) == 0 {
		warns = append(warns, ParseWarning{Code: WarnNoGraphics, Message: fmt.Sprintf(
			"the legend has no symbol graphics to search for (%d entries: text only, line styles or graphics that cannot be searched, as the other warnings say)", total)})
	}
	views, err := p.viewBlocks(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	var sources map[string]ExemplarSource
	for _, s := range in.Supplied {
		if s.Source != nil {
			if sources == nil {
				sources = map[string]ExemplarSource{}
			}
			sources[s.FeatureID] = *s.Source
		}
	}
	if len(views) == 0 {
		warns = append(warns, ParseWarning{Code: WarnNoViewBlocks, Message: "the target has no view block (plan, elevation, section, detail or diagram) to search"})
	}
	var disc map[string]string
	if in.Detect() && len(all) > 0 {
		if disc, err = p.disciplines(ctx, legends, views); err != nil {
			return nil, nil, err
		}
	}
	// served[d]: the entries a sheet of discipline d without a legend of its
	// own is searched for (the first entry of each label)
	served := map[string][]entry{}
	for _, v := range views {
		fids := append([]string{}, supplied...)
		switch {
		case in.LegendBlockID != "":
			for _, e := range byLegend[in.LegendBlockID] {
				fids = append(fids, e.id)
			}
		case in.Detect():
			es := bySheet[v.SheetID]
			if len(es) == 0 {
				d := disc[v.SheetID]
				if _, ok := served[d]; !ok {
					served[d] = []entry{}
					seen := map[string]bool{}
					for _, e := range all {
						if !serves(disc[e.sheet], d) {
							continue
						}
						norm := strings.ToLower(strings.Join(strings.Fields(e.label), " "))
						if norm == "" || !seen[norm] {
							seen[norm] = true
							served[d] = append(served[d], e)
						}
					}
				}
				es = served[d]
				if len(es) == 0 && len(all) > 0 {
					warns = append(warns, ParseWarning{Code: WarnNoLegend, BlockID: v.ID, Message: fmt.Sprintf(
						"the block's sheet has no legend, and no legend of the target is on a sheet of its discipline (%s) or of a general or unnamed one: it was not searched", d)})
				}
			}
			for _, e := range es {
				fids = append(fids, e.id)
			}
		}
		if len(fids) == 0 {
			continue
		}
		plan.blocks = append(plan.blocks, matchInput{BlockID: v.ID, ParseJobID: j.ID, LegendFeatureIDs: fids, Count: in.Count, Sources: sources})
	}
	return plan, warns, nil
}

// serves tells whether a legend on a sheet of discipline legend serves a
// sheet of discipline sheet that has no legend of its own: a legend
// serves the sheets of its discipline (an electrical legend the electrical
// plans of the set, not its architectural floor plans, sections and
// elevations); a sheet of no known discipline is served by every legend,
// and a legend on a general sheet (a cover sheet's symbol list) or on one
// of no known discipline serves every sheet.
func serves(legend, sheet string) bool {
	return legend == sheet || legend == "" || legend == "general" || sheet == ""
}

// disciplines are the disciplines of the sheets of legends and views, by
// sheet id.
func (p *Parse) disciplines(ctx context.Context, legends, views []*ent.Block) (map[string]string, error) {
	ids := map[string]bool{}
	for _, bs := range [][]*ent.Block{legends, views} {
		for _, b := range bs {
			ids[b.SheetID] = true
		}
	}
	list := make([]string, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	sheets, err := p.R.DB.Sheet.Query().Where(sheet.IDIn(list...)).Select(sheet.FieldID, sheet.FieldDiscipline).All(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, s := range sheets {
		out[s.ID] = strings.ToLower(strings.TrimSpace(s.Discipline))
	}
	return out, nil
}
