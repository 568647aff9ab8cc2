package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/tools/bench/labels"
	"github.com/plangraph/plangraph/vision/geom"
)

func TestScoreReal(t *testing.T) {
	set := labels.Set{File: "x.pdf", Sheets: []labels.Sheet{{
		Page: 1, SheetNumber: "A1.1", Title: "FLOOR PLAN, CLERESTORY PLAN", Discipline: "architectural",
		Blocks: []labels.Block{
			{Type: "Plan", Title: "FLOOR PLAN", Box: labels.Box{100, 100, 500, 400}},
			{Type: "Plan", Title: "CLERESTORY PLAN", Box: labels.Box{520, 100, 900, 400}},
			{Type: "TitleBlock", Box: labels.Box{950, 0, 1000, 700}},
		},
		Legends: []labels.Legend{{Entries: []labels.Entry{
			{Label: "EF", Description: "EXHAUST FAN", Kind: "symbol"},
			{Label: "GFI", Description: "GROUND FAULT", Kind: "text"},
		}}},
		Counts: []labels.Count{{Label: "EF", View: "FLOOR PLAN", Count: 2}, {Label: "EF", View: "CLERESTORY PLAN", Count: 10}},
	}}}
	at := func(b labels.Box) geom.Box { return b.At(144) }
	p := RealParsed{Parsed: true, Sheets: []RealSheet{{
		Page: 1, DPI: 144, Number: "A1.1", Title: "Floor plan, clerestory plan", Discipline: "architectural",
		Blocks: []RealBlock{
			{Type: "Plan", Box: at(labels.Box{100, 100, 900, 400})}, // both plans as one
			{Type: "TitleBlock", Box: at(labels.Box{951, 1, 1000, 700})},
			{Type: "GeneralNotes", Box: at(labels.Box{0, 500, 50, 600})}, // nothing labelled there
		},
		Legend: []RealEntry{{Label: "EF", Description: "EXHAUST FAN", HasGraphic: true}, {Label: "LEGEND", HasGraphic: false}},
		Instances: []RealInstance{
			{Label: "EF", Box: at(labels.Box{200, 200, 210, 210})}, {Label: "EF", Box: at(labels.Box{300, 200, 310, 210})},
			{Label: "EF", Box: at(labels.Box{600, 200, 610, 210})},
		},
	}}}
	sc := ScoreReal(set, p)
	if sc.NumberRight != 1 || sc.TitleRight != 1 || sc.DisciplineRight != 1 || sc.RevisionLabelled != 0 {
		t.Errorf("metadata %+v", sc)
	}
	if sc.Blocks != 3 || sc.BlocksRight != 1 || sc.TitleBlocksFound != 1 || sc.ExtraBlocks != 1 {
		t.Errorf("blocks: %d labelled, %d right, %d title blocks found, %d extra", sc.Blocks, sc.BlocksRight, sc.TitleBlocksFound, sc.ExtraBlocks)
	}
	if sc.LegendEntries != 2 || sc.LegendRight != 1 || sc.LegendDescribe != 1 || sc.LegendExtra != 1 {
		t.Errorf("legend: %d labelled, %d right, %d described, %d extra", sc.LegendEntries, sc.LegendRight, sc.LegendDescribe, sc.LegendExtra)
	}
	if sc.Counts != 2 || sc.CountsRight != 1 {
		t.Errorf("counts: %d of %d right", sc.CountsRight, sc.Counts)
	}
}

// TestAskReal: a lookup is right when its first source is the labelled
// sheet (A-101 = A101), a list when its sources' sheets are exactly the
// discipline's.
func TestAskReal(t *testing.T) {
	set := labels.Set{File: "x.pdf", Sheets: []labels.Sheet{
		{Page: 1, SheetNumber: "A-101", Title: "FLOOR  PLAN", Discipline: "architectural"},
		{Page: 2, SheetNumber: "A-201", Title: "ELEVATIONS", Discipline: "architectural"},
		{Page: 3, SheetNumber: "E-101", Title: "LIGHTING PLAN", Discipline: "electrical"},
	}}
	src := func(n ...string) []search.Source {
		var out []search.Source
		for _, x := range n {
			out = append(out, search.Source{SheetNumber: x})
		}
		return out
	}
	answers := map[string][]search.Source{
		"Where is the floor plan?":        src("A101"),
		"Where is the elevations?":        src("E-101", "A-201"), // right sheet, but not first
		"Where is the lighting plan?":     src("E 101"),
		"Which sheets are architectural?": src("A-101", "A-201", "A-101"),
		"Which sheets are electrical?":    src("E-101", "A-101"),
	}
	var asked []string
	ask := func(_ context.Context, q string) (*search.Answer, error) {
		asked = append(asked, q)
		return &search.Answer{Answer: "…", Sources: answers[q]}, nil
	}
	var errs []string
	sc, err := askReal(context.Background(), set, ask, func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) })
	if err != nil {
		t.Fatal(err)
	}
	if sc != (RealAskScore{Lookups: 3, LookupsRight: 2, Lists: 2, ListsRight: 1}) || len(errs) != 2 {
		t.Errorf("score %+v, errors %q (asked %q)", sc, errs, asked)
	}
}
