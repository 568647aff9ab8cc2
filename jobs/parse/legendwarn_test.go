package parse_test

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/text"
)

// synthLegend is the first Legend of a synthetic set (drawing conventions
// "mixed", one sheet a seed) holding symbols, line styles and text-only
// rows with their labels in the PDF's text layer: the block's image and
// words at 300 DPI, cut at its true box, and its true entries.
func synthLegend(t *testing.T) (*image.Gray, []text.Word, []synth.LegendEntryTruth) {
	t.Helper()
	const dpi = 300
	for seed := int64(1); seed <= 40; seed++ {
		set, err := synth.Generate(synth.Options{Seed: seed, Sheets: 1, Conventions: "mixed"})
		if err != nil {
			t.Fatal(err)
		}
		st := set.Truth.Sheets[0]
		for _, tb := range st.Blocks {
			kinds := map[string]int{}
			for _, e := range tb.Entries {
				kinds[e.Kind]++
			}
			if tb.Type != "Legend" || kinds["symbol"] == 0 || kinds["line"] == 0 || kinds["text"] == 0 {
				continue
			}
			path := filepath.Join(t.TempDir(), fmt.Sprintf("synth-%d.pdf", seed))
			if err := synth.WriteFile(path, set.WritePDF); err != nil {
				t.Fatal(err)
			}
			var words []text.Word
			for _, w := range rendertest.Words(t, path, st.Page, dpi).Words {
				if w.Box.XMin >= tb.Box.XMin && w.Box.YMin >= tb.Box.YMin && w.Box.XMax <= tb.Box.XMax && w.Box.YMax <= tb.Box.YMax {
					w.Box = w.Box.Translate(-tb.Box.XMin, -tb.Box.YMin)
					words = append(words, w)
				}
			}
			labelled := 0
			for _, e := range tb.Entries {
				lb := e.LabelBox.Translate(-tb.Box.XMin, -tb.Box.YMin)
				for _, w := range words {
					if w.Box.IoU(lb) > 0.3 {
						labelled++
						break
					}
				}
			}
			if labelled < len(tb.Entries) {
				continue // its text drawn as outlines: OCR's case, not this test's
			}
			img := rendertest.Image(t, path, render.TypePDF, st.Page, dpi)
			r := image.Rect(int(tb.Box.XMin), int(tb.Box.YMin), int(math.Ceil(tb.Box.XMax)), int(math.Ceil(tb.Box.YMax))).Intersect(img.Rect)
			crop := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
			for y := 0; y < r.Dy(); y++ {
				copy(crop.Pix[y*crop.Stride:(y+1)*crop.Stride], img.Pix[img.PixOffset(r.Min.X, r.Min.Y+y):])
			}
			t.Logf("seed %d: legend %q with %v", seed, tb.Title, kinds)
			return crop, words, tb.Entries
		}
	}
	t.Fatal("no synthetic seed has a legend of symbols, line styles and text rows with a text layer")
	return nil, nil, nil
}

// TestParseSaysWhichLegendEntriesAreNotSearched: a legend of a synthetic
// sheet, read by the real legend reader. The parse result names, once
// each, the entries it made no template of and why: a line style (wall
// type, dashed run: not counted) as SYMBOL_SKIPPED and a text-only row as
// TEXT_ONLY_ENTRY, with their legend entry; those are not searched, the
// symbols are, and the legend[] items of the result carry no warnings
// (the legend job's own result, in its event, does).
func TestParseSaysWhichLegendEntriesAreNotSearched(t *testing.T) {
	img, words, truth := synthLegend(t)
	e := newParseEnv(t)
	e.fake.realLegend = true
	lb := e.addBlock(t, e.sheet, block.TypeLegend, img)
	wb, err := json.Marshal(words)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.bucket.WriteAll(e.ctx, blobs.BlockKey(parseOrg, lb.ID)+"-words.json", wb, nil); err != nil {
		t.Fatal(err)
	}
	j := e.start(t, parse.ParseInput{BlockID: e.plan.ID, LegendBlockID: lb.ID}, job.TargetTypeBlock, e.plan.ID)
	r := e.result(t, j.ID)
	if len(r.Legend) != 1 || r.Legend[0].Warnings != nil {
		t.Fatalf("legend %+v", r.Legend)
	}
	byLabel := map[string]parse.LegendSymbol{}
	for _, s := range r.Legend[0].Symbols {
		byLabel[strings.ToUpper(strings.TrimSpace(s.Label))] = s
	}
	warnedFor := map[string][]parse.ParseWarning{}
	for _, w := range r.Warnings {
		if w.FeatureID != "" {
			warnedFor[w.FeatureID] = append(warnedFor[w.FeatureID], w)
		}
	}
	e.fake.mu.Lock()
	searched := e.fake.searched
	e.fake.mu.Unlock()
	lines, texts, symbolsSearched := 0, 0, 0
	for _, te := range truth {
		s, ok := byLabel[strings.ToUpper(te.Label)]
		if !ok {
			t.Errorf("the reader did not read entry %q (%s)", te.Label, te.Kind)
			continue
		}
		ws := warnedFor[s.FeatureID]
		switch te.Kind {
		case "text":
			texts++
			if s.HasGraphic || len(ws) != 1 || ws[0].Code != parse.WarnTextOnly || ws[0].BlockID != lb.ID || ws[0].Label != s.Label {
				t.Errorf("text-only entry %q: has_graphic %v, warnings %+v", te.Label, s.HasGraphic, ws)
			}
		case "line":
			if te.Symbol == "wall_rated" {
				// a filled band is closed at its ends: searched as a symbol
				continue
			}
			lines++
			if !s.HasGraphic || len(ws) != 1 || ws[0].Code != parse.WarnSymbolSkipped || !strings.Contains(ws[0].Message, "line style") ||
				!strings.Contains(ws[0].Message, "not counted") || ws[0].BlockID != lb.ID {
				t.Errorf("line entry %q (%s): has_graphic %v, warnings %+v", te.Label, te.Symbol, s.HasGraphic, ws)
			}
			if searched[s.Label] > 0 {
				t.Errorf("line entry %q was searched for", te.Label)
			}
		case "symbol":
			if len(ws) != 0 || searched[s.Label] == 0 {
				t.Errorf("symbol %q: searched %d times, warnings %+v", te.Label, searched[s.Label], ws)
			}
			symbolsSearched++
		}
	}
	if lines == 0 || texts == 0 || symbolsSearched == 0 {
		t.Errorf("checked %d line styles, %d text rows, %d symbols", lines, texts, symbolsSearched)
	}
	// the legend job's event carries the same warnings
	children, err := e.db.Job.Query().Where(job.ParentID(j.ID), job.Type(jobs.TypeLegendParse)).All(e.ctx)
	if err != nil || len(children) != 1 {
		t.Fatalf("%d legend jobs (%v)", len(children), err)
	}
	var lr parse.LegendResult
	if err := json.Unmarshal(children[0].Result, &lr); err != nil {
		t.Fatal(err)
	}
	fromLegend := 0
	for _, w := range r.Warnings {
		if w.BlockID == lb.ID {
			fromLegend++
		}
	}
	if len(lr.Warnings) == 0 || len(lr.Warnings) != fromLegend {
		t.Errorf("the legend job warned %d times, the parse result names %d warnings of the legend", len(lr.Warnings), fromLegend)
	}
}
