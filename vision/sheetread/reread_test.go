package sheetread

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/text"
)

// A legend whose words the page's reading got wrong (OCR read the whole
// sheet downscaled: a term alone, an "=" boxed over two rows) is read again
// at full resolution: its terms and meanings are the new reading's, a word
// of the text layer stays as it was, and blocks of other types, or a
// legend whose words are all the text layer's, are not read again.
func TestRereadLegend(t *testing.T) {
	const dpi = 300
	pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 400, Ht: 200}})
	pdf.SetMargins(0, 0, 0)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AddPage()
	pdf.SetFont("Helvetica", "", 9)
	for i, l := range []string{"AK = Outer edge", "AS = Stop rail", "BA = Floor recess", "BE = Floor drain"} {
		pdf.Text(30, 40+float64(i)*14, l)
	}
	pdf.Text(250, 40, "NOTES")
	path := filepath.Join(t.TempDir(), "p.pdf")
	if err := pdf.OutputFileAndClose(path); err != nil {
		t.Fatal(err)
	}
	img := rendertest.Image(t, path, render.TypePDF, 1, dpi)
	k := float64(dpi) / 72
	legend := geom.Box{XMin: 20 * k, YMin: 25 * k, XMax: 200 * k, YMax: 100 * k}
	notes := geom.Box{XMin: 240 * k, YMin: 25 * k, XMax: 390 * k, YMax: 100 * k}
	words := []text.Word{
		{Text: "AK", Conf: 0.9, Line: 1, Box: geom.Box{XMin: 30 * k, YMin: 33.5 * k, XMax: 43 * k, YMax: 40 * k}},
		{Text: "=", Conf: 0.9, Line: 2, Box: geom.Box{XMin: 46 * k, YMin: 33 * k, XMax: 52 * k, YMax: 55 * k}},
		{Text: "NOTES", Conf: 1, Line: 3, Box: geom.Box{XMin: 250 * k, YMin: 33.5 * k, XMax: 285 * k, YMax: 40 * k}},
	}
	got, read, err := Reread(context.Background(), img, dpi, words, nil, []layout.Block{{Type: "Legend", Box: legend}, {Type: "GeneralNotes", Box: notes}})
	if err != nil || !read {
		t.Fatalf("read %v, err %v", read, err)
	}
	seen := map[string]int{}
	for _, w := range got {
		seen[w.Text]++
		if w.Box == words[1].Box {
			t.Errorf("the first reading's %q over two rows stays", w.Text)
		}
	}
	for _, s := range []string{"AK", "AS", "BA", "BE", "Outer", "edge", "Stop", "rail", "Floor", "recess", "drain"} {
		if seen[s] == 0 {
			t.Errorf("%q not read: %v", s, seen)
		}
	}
	if seen["AK"] != 1 || seen["NOTES"] != 1 || seen["="] != 4 {
		t.Errorf("words read twice or lost: %v", seen)
	}
	// the text layer's own words: nothing to read again
	layer := []text.Word{{Text: "AK", Conf: 1, Box: words[0].Box}, words[2]}
	if again, read, err := Reread(context.Background(), img, dpi, layer, nil, []layout.Block{{Type: "Legend", Box: legend}}); err != nil || read || len(again) != 2 {
		t.Errorf("a text layer's legend read again: %v %v %v", read, err, again)
	}
}
