package sheetread

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/text"
)

// A revision field whose mark, a lone letter, the page's reading passed
// over: the mark is read alone, clear of the cell's rule under it and the
// date under that, and its word added over the letter. A field whose
// value region holds only the label reads nothing.
func TestReadRevisionMark(t *testing.T) {
	const dpi = 300
	k := float64(dpi) / 72
	pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 300, Ht: 200}})
	pdf.SetMargins(0, 0, 0)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AddPage()
	pdf.SetLineWidth(0.8)
	pdf.Rect(20, 20, 260, 160, "D")
	pdf.Line(150, 20, 150, 180)
	pdf.Line(20, 120, 280, 120)
	pdf.SetFont("Helvetica", "", 7)
	var words []text.Word
	small := func(x, y float64, s string) {
		pdf.Text(x, y, s)
		words = append(words, text.Word{Text: s, Conf: 0.9, Line: len(words) + 1,
			Box: geom.Box{XMin: x * k, YMin: (y - 5.2) * k, XMax: (x + pdf.GetStringWidth(s)) * k, YMax: (y + 1.5) * k}})
	}
	small(160, 32, "INDEX")
	small(160, 140, "04.07.2011")
	small(30, 32, "REVISION")
	pdf.SetFont("Helvetica", "", 24)
	pdf.Text(200, 110, "j") // the mark, set on the rule at 120 less its descender
	path := filepath.Join(t.TempDir(), "p.pdf")
	if err := pdf.OutputFileAndClose(path); err != nil {
		t.Fatal(err)
	}
	im := rendertest.Image(t, path, render.TypePDF, 1, dpi)
	mark := geom.Box{XMin: 150 * k, YMin: 20 * k, XMax: 280 * k, YMax: 120 * k}
	empty := geom.Box{XMin: 20 * k, YMin: 20 * k, XMax: 150 * k, YMax: 120 * k}
	got, err := readMarks(context.Background(), im, words, []geom.Box{mark, empty})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || strings.ToLower(got[0].Text) != "j" {
		t.Fatalf("read %+v, want the mark j alone", got)
	}
	if c := got[0].Box; c.XMin < 195*k || c.XMax > 215*k || c.YMax > 121*k {
		t.Errorf("the mark boxed at %v, not over the letter", c)
	}
}
