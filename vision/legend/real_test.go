package legend

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

// realLabels is testdata/real-legends.json: our own labels of the legends
// of real sheets that the repository does not contain.
type realLabels struct {
	Sheets []struct {
		File    string `json:"file"`
		Page    int    `json:"page"`
		Title   string `json:"title"`
		Entries []struct {
			Label       string    `json:"label"`
			Description string    `json:"description"`
			HasGraphic  bool      `json:"has_graphic"`
			Graphic     *geom.Box `json:"graphic"`
		} `json:"entries"`
	} `json:"sheets"`
}

// TestRealLegends checks Parse on the legends of real sheets kept outside
// the repository, against testdata/real-legends.json. It runs only when
// PLANGRAPH_DATASETS names the datasets folder (holding
// real/va-finish-plan.pdf and real/E201A-power-signal.pdf). The blocks are
// found by layout.Segment on 300 DPI renders, as in ingestion.
//
// Measured: VA "ROOM FINISH LEGEND & ABBREVIATIONS" 19/19 entries (5
// graphics, IoU ≥ 0.99), E201A "CIRCUITING LEGEND" 3/3 (text only), no
// extra entries.
func TestRealLegends(t *testing.T) {
	dir := os.Getenv("PLANGRAPH_DATASETS")
	if dir == "" {
		t.Skip("PLANGRAPH_DATASETS is not set: skipping the real-legend check (set it to the datasets folder, e.g. /work/shared/datasets)")
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "real-legends.json"))
	if err != nil {
		t.Fatal(err)
	}
	var labels realLabels
	if err := json.Unmarshal(raw, &labels); err != nil {
		t.Fatal(err)
	}
	cases := realLegends(t, dir)
	debug := os.Getenv("PLANGRAPH_LEGEND_DEBUG")
	for _, sh := range labels.Sheets {
		var want []WantEntry
		for _, e := range sh.Entries {
			w := WantEntry{Label: e.Label, Description: e.Description, HasGraphic: e.HasGraphic}
			if e.Graphic != nil {
				w.Graphic = *e.Graphic
			}
			want = append(want, w)
		}
		// the legend block holding the labelled entries
		var c *legendCase
		for i := range cases {
			if cases[i].file == sh.File && cases[i].page == sh.Page && (c == nil || len(cases[i].words) > len(c.words)) {
				c = &cases[i]
			}
		}
		if c == nil {
			t.Errorf("%s p%d: no Legend block found", sh.File, sh.Page)
			continue
		}
		got := Parse(c.img, c.words)
		if debug != "" {
			writeDebug(t, filepath.Join(debug, c.name+".png"), c.img, got)
		}
		right, total := MatchEntries(got, want)
		t.Logf("%s p%d %q: %d/%d entries right, %d found", sh.File, sh.Page, sh.Title, right, total, len(got))
		if right != total || len(got) != total {
			for _, e := range got {
				t.Logf("   got %q %q g=%v", e.Label, e.Description, e.HasGraphic)
			}
			t.Errorf("%s: %d/%d entries right, %d found", sh.File, right, total, len(got))
		}
		for _, w := range want {
			if !w.HasGraphic {
				continue
			}
			b := w.Graphic.Translate(-c.origin.XMin, -c.origin.YMin)
			e, iou := bestGraphic(got, b)
			t.Logf("   %q graphic IoU %.2f", w.Label, iou)
			if iou < 0.8 {
				t.Errorf("%s %q: graphic IoU %.2f (got %v, want %v)", sh.File, w.Label, iou, e.Graphic, b)
			} else {
				checkExemplar(t, sh.File+" "+w.Label, e)
			}
		}
	}
}

// realLegends renders the labelled real sheets at 300 DPI and returns the
// Legend blocks that layout.Segment finds, as the ingestion crops them.
func realLegends(t *testing.T, dir string) []legendCase {
	t.Helper()
	var out []legendCase
	for _, sh := range []struct {
		file string
		page int
	}{{"va-finish-plan.pdf", 1}, {"E201A-power-signal.pdf", 1}} {
		sp := renderPages(t, filepath.Join(dir, "real", sh.file), sh.page)[0]
		for i, bl := range sp.blocks {
			if bl.Type != "Legend" {
				continue
			}
			img, words := sp.crop(bl.Box)
			out = append(out, legendCase{name: fmt.Sprintf("%s-p%d-b%d", sh.file, sh.page, i), file: sh.file, page: sh.page,
				origin: bl.Box, img: img, words: words})
		}
	}
	return out
}
