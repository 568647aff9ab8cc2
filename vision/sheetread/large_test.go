package sheetread

import (
	"context"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/text"
)

// A title block whose sheet number is lettered an inch tall, standing on
// the cell's bottom rule, which the page's reading missed: the number is
// read on its own, shrunk, and its word added with its box over the
// lettering; the cell's rules, its labels (already read), a north arrow
// (a ring, a letter alone) and a title block without large lettering add
// nothing.
func TestReadLargeSheetNumber(t *testing.T) {
	const dpi = 300
	k := float64(dpi) / 72
	page := func(number bool) (*image.Gray, []text.Word) {
		pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 500, Ht: 300}})
		pdf.SetMargins(0, 0, 0)
		pdf.SetAutoPageBreak(false, 0)
		pdf.AddPage()
		pdf.SetLineWidth(1.2)
		pdf.Rect(200, 100, 290, 190, "D")
		pdf.Line(200, 170, 490, 170)
		pdf.Line(380, 170, 380, 290)
		pdf.SetFont("Helvetica", "", 7)
		var words []text.Word
		small := func(x, y float64, s string) {
			pdf.Text(x, y, s)
			words = append(words, text.Word{Text: s, Conf: 1, Line: len(words) + 1,
				Box: geom.Box{XMin: x * k, YMin: (y - 5.2) * k, XMax: (x + pdf.GetStringWidth(s)) * k, YMax: (y + 1.5) * k}})
		}
		small(210, 115, "DRAWING TITLE")
		small(210, 185, "DRAWING No.")
		small(390, 185, "ISSUE")
		small(390, 200, "A")
		for i := range 6 {
			small(20, 40+float64(i)*12, "NOTE TEXT LINE")
		}
		// a north arrow: a ring and a large N, apart
		pdf.Circle(440, 135, 25, "D")
		pdf.SetFont("Helvetica", "", 30)
		pdf.Text(430, 146, "N")
		if number {
			pdf.SetFont("Helvetica", "", 72)
			pdf.Text(212, 289.4, "S2.01") // its baseline on the bottom rule
		}
		path := filepath.Join(t.TempDir(), "p.pdf")
		if err := pdf.OutputFileAndClose(path); err != nil {
			t.Fatal(err)
		}
		return rendertest.Image(t, path, render.TypePDF, 1, dpi), words
	}
	tb := geom.Box{XMin: 200 * k, YMin: 100 * k, XMax: 490 * k, YMax: 290 * k}

	im, words := page(true)
	got, err := readLarge(context.Background(), im, words, tb)
	if err != nil {
		t.Fatal(err)
	}
	lettering := geom.Box{XMin: 212 * k, YMin: 237 * k, XMax: 375 * k, YMax: 290 * k}
	found := false
	for _, w := range got {
		if strings.Contains(w.Text, "2.01") {
			found = true
			if ov := w.Box.Intersect(lettering); !ov.Valid() || ov.Area() < 0.5*w.Box.Area() {
				t.Errorf("%q boxed at %v, not over the lettering %v", w.Text, w.Box, lettering)
			}
			continue
		}
		t.Errorf("another word read: %q at %v", w.Text, w.Box)
	}
	if !found {
		t.Errorf("the sheet number was not read: %v", got)
	}

	im, words = page(false)
	if got, err := readLarge(context.Background(), im, words, tb); err != nil || len(got) > 0 {
		t.Errorf("without large lettering: %v, %v", got, err)
	}
	// the arrow's letter alone is no line of lettering to read
	if runs := largeRuns(im, tb, words); len(runs) > 0 {
		t.Errorf("lines of large lettering found without any: %v", runs)
	}
}
