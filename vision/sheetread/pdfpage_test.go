package sheetread

import (
	"image"
	"path/filepath"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/text"
)

// testDPI is the resolution test pages are rendered at; testK is pixels a
// point.
const (
	testDPI = 300
	testK   = float64(testDPI) / 72
)

// pdfPage is a page a test draws (in points), with the words of the labels
// it letters as a reading would give them (boxes in pixels at testDPI).
type pdfPage struct {
	*fpdf.Fpdf
	conf  float64
	words []text.Word
}

// newPDFPage is a blank page wd × ht points whose labels' words carry
// confidence conf.
func newPDFPage(wd, ht, conf float64) *pdfPage {
	pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: wd, Ht: ht}})
	pdf.SetMargins(0, 0, 0)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AddPage()
	return &pdfPage{Fpdf: pdf, conf: conf}
}

// label letters s in 7 pt Helvetica with its baseline at (x, y) and keeps
// its word.
func (p *pdfPage) label(x, y float64, s string) {
	p.SetFont("Helvetica", "", 7)
	p.Text(x, y, s)
	p.words = append(p.words, text.Word{Text: s, Conf: p.conf, Line: len(p.words) + 1,
		Box: geom.Box{XMin: x * testK, YMin: (y - 5.2) * testK, XMax: (x + p.GetStringWidth(s)) * testK, YMax: (y + 1.5) * testK}})
}

// render is the page rendered at testDPI.
func (p *pdfPage) render(t *testing.T) *image.Gray {
	path := filepath.Join(t.TempDir(), "p.pdf")
	if err := p.OutputFileAndClose(path); err != nil {
		t.Fatal(err)
	}
	return rendertest.Image(t, path, render.TypePDF, 1, testDPI)
}
