package sheetread

import (
	"context"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

// A revision field whose mark, a lone letter, the page's reading passed
// over: the mark is read alone, clear of the cell's rule under it and the
// date under that, and its word added over the letter. A field whose
// value region holds only the label reads nothing.
func TestReadRevisionMark(t *testing.T) {
	k := testK
	pdf := newPDFPage(300, 200, 0.9)
	pdf.SetLineWidth(0.8)
	pdf.Rect(20, 20, 260, 160, "D")
	pdf.Line(150, 20, 150, 180)
	pdf.Line(20, 120, 280, 120)
	pdf.label(160, 32, "INDEX")
	pdf.label(160, 140, "04.07.2011")
	pdf.label(30, 32, "REVISION")
	pdf.SetFont("Helvetica", "", 24)
	pdf.Text(200, 110, "j") // the mark, set on the rule at 120 less its descender
	im, words := pdf.render(t), pdf.words
	mark := geom.Box{XMin: 150 * k, YMin: 20 * k, XMax: 280 * k, YMax: 120 * k}
	empty := geom.Box{XMin: 20 * k, YMin: 20 * k, XMax: 150 * k, YMax: 120 * k}
	got, err := readMarks(context.Background(), im, words, []geom.Box{mark, empty}, nil)
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

// A revision field of empty cells (the dividers between them run from the
// rule over the row to the bar under it, as a title block's blank
// revision columns do) holds no mark: a divider is linework, not a "1" or
// an "I" to read.
func TestEmptyRevisionCellsHoldNoMark(t *testing.T) {
	k := testK
	pdf := newPDFPage(300, 120, 0.9)
	pdf.SetLineWidth(0.8)
	pdf.Line(20, 40, 280, 40)
	pdf.Rect(20, 60, 260, 4, "F") // the bar under the row
	pdf.SetLineWidth(2)           // a letter's stem as thick (a half-size print)
	for _, x := range []float64{120, 160, 200, 240} {
		pdf.Line(x, 40, x, 60)
	}
	pdf.label(30, 54, "REV NO")
	pdf.label(30, 80, "DRAWN BY")
	im, words := pdf.render(t), pdf.words
	field := geom.Box{XMin: 110 * k, YMin: 38 * k, XMax: 280 * k, YMax: 62 * k}
	if ls := inkLines(im, field, words, 0.6, 8); len(ls) != 0 {
		t.Fatalf("found lettering %+v among the empty cells' dividers", ls)
	}
	got, err := readMarks(context.Background(), im, words, []geom.Box{field}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("read %+v, want no mark", got)
	}
}
