package sheetread

import (
	"context"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/text"
)

// A title OCR read in part in the page-wide pass (its second line and the
// number leading the first dropped, as on a half-size print) is read again
// closely round it, and the title comes out whole; the sheet number stays.
func TestRecheckTitle(t *testing.T) {
	k := testK
	// an 11 × 17 sheet, its title block a strip down the right edge
	pdf := newPDFPage(1224, 792, 0.9)
	pdf.SetLineWidth(1)
	pdf.Rect(10, 10, 1204, 772, "D")
	pdf.Line(1090, 10, 1090, 782)
	pdf.Line(1090, 640, 1214, 640)
	pdf.Line(1090, 700, 1214, 700)
	pdf.label(1096, 652, "DRAWING TITLE")
	pdf.label(1096, 712, "DRAWING No.")
	pdf.SetFont("Helvetica", "", 7)
	pdf.Text(1096, 668, "1. FRONT ELEVATION")
	pdf.Text(1096, 680, "2. REAR ELEVATION")
	pdf.SetFont("Helvetica", "", 16)
	pdf.Text(1096, 740, "A-201")
	for i := range 8 {
		pdf.label(30, 40+float64(i)*12, "NOTE TEXT LINE")
	}
	im := pdf.render(t)
	words := append(pdf.words,
		word("A-201", 1096, 728, 1144, 741, k),
		// the page-wide pass read the first line's words but its number
		word("FRONT", 1104, 662, 1128, 669, k),
		word("ELEVATION", 1130, 662, 1169, 669, k))
	s := Sheet{Words: words, TextSource: SourceOCR}
	b := im.Bounds()
	s.Layout = layout.Analyze(im, s.Words)
	s.Info = Info(s.Layout, s.Words, b.Dx(), b.Dy())
	if s.Info.Number != "A-201" || strings.Contains(s.Info.Title, "REAR") {
		t.Fatalf("before: number %q, title %q: the page is not as the test means", s.Info.Number, s.Info.Title)
	}
	// the title label's region is the whole strip (no cell round it): it
	// is read round the title only
	if len(s.Info.Recheck) != 1 || s.Info.Recheck[0].Height() > 12*7*k {
		t.Fatalf("the title read again in %v, want one region a few lines high", s.Info.Recheck)
	}
	if err := s.rereadCells(context.Background(), im, testDPI, s.Info.Recheck, fullerTitle(s.Info)); err != nil {
		t.Fatal(err)
	}
	if s.Info.Number != "A-201" || !strings.Contains(s.Info.Title, "REAR ELEVATION") || !strings.HasPrefix(s.Info.Title, "1") {
		t.Errorf("after: number %q, title %q, want A-201 and 1. FRONT ELEVATION 2. REAR ELEVATION", s.Info.Number, s.Info.Title)
	}
}

// word is an OCR word (confidence 0.9) boxed x0,y0–x1,y1 points, in pixels
// of k a point.
func word(s string, x0, y0, x1, y1, k float64) text.Word {
	return text.Word{Text: s, Conf: 0.9, Line: int(y0), Box: geom.Box{XMin: x0 * k, YMin: y0 * k, XMax: x1 * k, YMax: y1 * k}}
}
