package sheetread

import (
	"context"
	"image"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A title block whose sheet number is lettered an inch tall, standing on
// the cell's bottom rule, which the page's reading missed: the number is
// read on its own, shrunk, and its word added with its box over the
// lettering; the cell's rules, its labels (already read), a north arrow
// (a ring, a letter alone) and a title block without large lettering add
// nothing.
func TestReadLargeSheetNumber(t *testing.T) {
	k := testK
	page := func(number bool) (*image.Gray, []text.Word) {
		pdf := newPDFPage(500, 300, 1)
		pdf.SetLineWidth(1.2)
		pdf.Rect(200, 100, 290, 190, "D")
		pdf.Line(200, 170, 490, 170)
		pdf.Line(380, 170, 380, 290)
		pdf.label(210, 115, "DRAWING TITLE")
		pdf.label(210, 185, "DRAWING No.")
		pdf.label(390, 185, "ISSUE")
		pdf.label(390, 200, "A")
		for i := range 6 {
			pdf.label(20, 40+float64(i)*12, "NOTE TEXT LINE")
		}
		// a north arrow: a ring and a large N, apart
		pdf.Circle(440, 135, 25, "D")
		pdf.SetFont("Helvetica", "", 30)
		pdf.Text(430, 146, "N")
		if number {
			pdf.SetFont("Helvetica", "", 72)
			pdf.Text(212, 289.4, "S2.01") // its baseline on the bottom rule
		}
		return pdf.render(t), pdf.words
	}
	tb := geom.Box{XMin: 200 * k, YMin: 100 * k, XMax: 490 * k, YMax: 290 * k}

	im, words := page(true)
	got, err := readLarge(context.Background(), im, words, tb, nil)
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
	if got, err := readLarge(context.Background(), im, words, tb, nil); err != nil || len(got) > 0 {
		t.Errorf("without large lettering: %v, %v", got, err)
	}
	// the arrow's letter alone is no line of lettering to read
	if runs := largeRuns(im, tb, words); len(runs) > 0 {
		t.Errorf("lines of large lettering found without any: %v", runs)
	}
}
