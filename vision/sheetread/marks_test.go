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
