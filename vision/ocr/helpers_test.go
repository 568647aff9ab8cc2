package ocr

import (
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

// label is text drawn on a test page: Helvetica (bold) at size pt with its
// baseline's left end at (x, y) pt from the top left.
type label struct {
	s    string
	x, y float64
	size float64
	bold bool
}

// page draws labels (and a few lines, like a drawing's line work) on a
// wPt × hPt page and renders it at dpi through vision/render. It returns
// the image and, per label, the box (in pixels) its capitals should occupy,
// and per word of the labels the same.
func page(t testing.TB, wPt, hPt float64, dpi int, labels []label, lines bool) (*image.Gray, []geom.Box) {
	img, boxes, _ := pageWords(t, wPt, hPt, dpi, labels, lines)
	return img, boxes
}

func pageWords(t testing.TB, wPt, hPt float64, dpi int, labels []label, lines bool) (*image.Gray, []geom.Box, map[string]geom.Box) {
	t.Helper()
	pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: wPt, Ht: hPt}})
	pdf.SetMargins(0, 0, 0)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AddPage()
	k := float64(dpi) / 72
	var boxes []geom.Box
	words := map[string]geom.Box{}
	for _, l := range labels {
		style := ""
		if l.bold {
			style = "B"
		}
		pdf.SetFont("Helvetica", style, l.size)
		pdf.Text(l.x, l.y, l.s)
		wd := pdf.GetStringWidth(l.s)
		boxes = append(boxes, geom.Box{XMin: l.x * k, YMin: (l.y - 0.718*l.size) * k, XMax: (l.x + wd) * k, YMax: l.y * k})
		x := l.x
		for _, w := range strings.Fields(l.s) {
			ww := pdf.GetStringWidth(w)
			words[w] = geom.Box{XMin: x * k, YMin: (l.y - 0.718*l.size) * k, XMax: (x + ww) * k, YMax: l.y * k}
			x += ww + pdf.GetStringWidth(" ")
		}
	}
	if lines {
		pdf.SetLineWidth(1)
		pdf.Rect(18, 18, wPt-36, hPt-36, "D")
		pdf.Line(wPt*0.75, 18, wPt*0.75, hPt-18)
		for i := 1; i < 8; i++ {
			y := hPt * float64(i) / 8
			pdf.Line(wPt*0.75, y, wPt-18, y)
		}
	}
	path := filepath.Join(t.TempDir(), "p.pdf")
	if err := pdf.OutputFileAndClose(path); err != nil {
		t.Fatal(err)
	}
	return rendertest.Image(t, path, render.TypePDF, 1, dpi), boxes, words
}

// find returns the word of ws that matches s (ignoring case, allowing one
// OCR confusion such as O/0 or I/1), and whether there is one.
func find(ws []text.Word, s string) (text.Word, bool) {
	for _, w := range ws {
		if similar(strings.ToUpper(w.Text), strings.ToUpper(s)) {
			return w, true
		}
	}
	return text.Word{}, false
}

func similar(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) != len(rb) {
		return false
	}
	diff := 0
	for i := range ra {
		if ra[i] != rb[i] {
			diff++
		}
	}
	return diff <= 1
}

func near(a, b geom.Box, tol float64) bool {
	d := max(abs(a.XMin-b.XMin), abs(a.YMin-b.YMin), abs(a.XMax-b.XMax), abs(a.YMax-b.YMax))
	return d <= tol
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
