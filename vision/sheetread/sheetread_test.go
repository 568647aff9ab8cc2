package sheetread

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/bench/labels"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/text"
)

// TestMixedConventions reads the number, title and discipline of synthetic
// sheets drawn as other offices draw them (synth's mixed conventions:
// vertical strips with rotated text, ISO and German labelled boxes, stacked
// titles, numbers without designators, outlined lettering read by OCR) and
// checks them against the generator's truth.
func TestMixedConventions(t *testing.T) {
	if testing.Short() {
		t.Skip("renders and OCRs synthetic sheets")
	}
	const dpi = 300
	var n, num, title, disc int
	styles := map[string]bool{}
	for seed := int64(1); seed <= 6; seed++ {
		set, err := synth.Generate(synth.Options{Seed: seed, Sheets: 2, PageSize: "24x18", DPI: dpi, Conventions: "mixed"})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "set.pdf")
		if err := synth.WriteFile(path, set.WritePDF); err != nil {
			t.Fatal(err)
		}
		doc := rendertest.Open(t, path, render.TypePDF, dpi)
		for i, st := range set.Truth.Sheets {
			img := rendertest.Render(t, doc, i+1)
			pg := rendertest.Words(t, path, i+1, dpi)
			s, err := Read(context.Background(), img, dpi, pg.Words)
			if err != nil {
				t.Fatal(err)
			}
			n++
			styles[st.TitleBlockStyle] = true
			ok := func(got, want string, same func(a, b string) bool, c *int, what string) {
				if same(got, want) {
					*c++
					return
				}
				t.Logf("seed %d sheet %d (%s title block, %s text): %s %q, want %q", seed, i+1, st.TitleBlockStyle, s.TextSource, what, got, want)
			}
			ok(s.Info.Number, st.SheetNumber, labels.SameNumber, &num, "number")
			ok(s.Info.Title, st.Title, labels.SameText, &title, "title")
			ok(s.Info.Discipline, st.Discipline, func(a, b string) bool { return a == b }, &disc, "discipline")
		}
		doc.Close()
	}
	t.Logf("%d sheets (%s title blocks): number %d, title %d, discipline %d right", n, strings.Join(keys(styles), ", "), num, title, disc)
	if float64(num) < 0.9*float64(n) || float64(title) < 0.8*float64(n) || float64(disc) < 0.8*float64(n) {
		t.Errorf("number %d/%d, title %d/%d, discipline %d/%d: want ≥ 90%%, 80%%, 80%%", num, n, title, n, disc, n)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A closer reading whose word is boxed over two lines (a cell's label and
// its value read as one word from the label's top) does not replace the
// label's word: only a reading of about its line does.
func TestReplaceInKeepsWordsUnderATallReading(t *testing.T) {
	label := text.Word{Text: "DRAWING", Conf: 0.96, Line: 1, Box: geom.Box{XMin: 100, YMin: 100, XMax: 250, YMax: 126}}
	old := text.Word{Text: "52.01", Conf: 0.5, Line: 2, Box: geom.Box{XMin: 100, YMin: 140, XMax: 370, YMax: 226}}
	again := []text.Word{{Text: "S2.01", Conf: 0.8, Line: 1, Box: geom.Box{XMin: 100, YMin: 100, XMax: 370, YMax: 230}}}
	got := replaceIn([]text.Word{label, old}, again, []geom.Box{{XMin: 90, YMin: 90, XMax: 400, YMax: 240}})
	seen := map[string]bool{}
	for _, w := range got {
		seen[w.Text] = true
	}
	if !seen["DRAWING"] || !seen["S2.01"] || seen["52.01"] {
		t.Errorf("words after the closer reading: %v, want DRAWING and S2.01 (52.01 replaced)", seen)
	}
}

// A closer reading that boxes a word more than twice as tall as the page's
// reading of it keeps the page's word; the same word read again over it
// is that word, not a second one (a legend's "GWB" read twice named its
// entry "GWB GWB (SC)" or lost its "(SC)").
func TestReplaceInSameWordTallerOnce(t *testing.T) {
	page := text.Word{Text: "GWB", Conf: 0.9, Line: 27, Box: geom.Box{XMin: 64, YMin: 954, XMax: 132, YMax: 984}}
	again := []text.Word{
		{Text: "GWB", Conf: 0.58, Line: 1, Box: geom.Box{XMin: 63, YMin: 934, XMax: 117, YMax: 997}},
		{Text: "(SC)", Conf: 0.96, Line: 1, Box: geom.Box{XMin: 132, YMin: 934, XMax: 199, YMax: 997}},
	}
	got := replaceIn([]text.Word{page}, again, []geom.Box{{XMin: 0, YMin: 900, XMax: 400, YMax: 1000}})
	n := map[string]int{}
	for _, w := range got {
		n[w.Text]++
	}
	if n["GWB"] != 1 || n["(SC)"] != 1 || len(got) != 2 {
		t.Errorf("words after the closer reading: %v, want GWB and (SC) once each", got)
	}
}
