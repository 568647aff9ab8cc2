package sheetinfo

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// line makes the words of one line at x, y with type height h.
func line(n int, x, y, h float64, s string) []text.Word {
	var out []text.Word
	for _, w := range splitWords(s) {
		wd := float64(len(w)) * h * 0.6
		out = append(out, text.Word{Text: w, Line: n, Conf: 1, Box: geom.Box{XMin: x, YMin: y, XMax: x + wd, YMax: y + h}})
		x += wd + h*0.3
	}
	return out
}

func splitWords(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

func page(lines ...[]text.Word) []text.Word {
	var out []text.Word
	for _, l := range lines {
		out = append(out, l...)
	}
	return out
}

func TestRightStripTitleBlockWithoutLabels(t *testing.T) {
	// 42x30 in at 100 px/in: 4200 x 3000; a right strip like many US sets
	words := page(
		line(1, 400, 300, 12, "RECEPTION 101A"),
		line(2, 900, 800, 12, "U-18"),
		line(3, 1500, 1200, 24, "SEE E501 FOR DETAILS"),
		line(4, 3890, 2540, 26, "FLOOR PLAN -"),
		line(5, 3860, 2580, 26, "LEVEL 01 - AREA"),
		line(6, 3915, 2620, 26, "A - POWER &"),
		line(7, 3990, 2660, 26, "SIGNAL"),
		line(8, 3850, 2750, 16, "DATE: APRIL 23, 2021"),
		line(9, 3900, 2790, 16, "CONSTRUCTION"),
		line(10, 3910, 2810, 16, "DOCUMENTS"),
		line(11, 3890, 2855, 66, "E201A"),
		line(12, 3740, 2945, 12, "COPYRIGHT SOMEBODY, INC."),
	)
	got := Read(words, 4200, 3000)
	if got.Number != "E201A" || got.Discipline != "electrical" {
		t.Fatalf("number %q discipline %q", got.Number, got.Discipline)
	}
	if got.Title != "FLOOR PLAN - LEVEL 01 - AREA A - POWER & SIGNAL" {
		t.Fatalf("title %q", got.Title)
	}
}

func TestBottomStripWithLabels(t *testing.T) {
	words := page(
		line(1, 320, 2430, 32, "FIRST FLOOR FINISH PLAN"), // the view title on the plan, not the sheet title
		line(2, 3140, 2642, 16, "Project Title"),
		line(3, 3154, 2662, 12, "RENOVATE BUILDING 28"),
		line(4, 3154, 2677, 12, "FIRST FLOOR EAST RRTP"),
		line(5, 3142, 2778, 16, "Drawing Title"),
		line(6, 3143, 2803, 16, "FIRST FLOOR FINISH PLAN"),
		line(7, 3140, 2848, 16, "Issue Date"),
		line(8, 3146, 2868, 12, "MAY 22, 2020"),
		line(9, 3423, 2767, 16, "Drawing Number"),
		line(10, 3449, 2817, 42, "AF101"),
		line(11, 3992, 2862, 16, "33"),
	)
	got := Read(words, 4200, 3000)
	if got.Number != "AF101" || got.Discipline != "architectural" || got.Title != "FIRST FLOOR FINISH PLAN" {
		t.Fatalf("got %+v", got)
	}
}

func TestMultiLineLabelledTitle(t *testing.T) {
	words := page(
		line(1, 3142, 2778, 16, "Drawing Title"),
		line(2, 3143, 2803, 16, "MATERIAL AND ROOM FINISH"),
		line(3, 3143, 2823, 16, "SCHEDULE"),
		line(4, 3140, 2848, 16, "Issue Date"),
		line(5, 3423, 2767, 16, "Drawing Number"),
		line(6, 3449, 2817, 42, "AF600"),
	)
	got := Read(words, 4200, 3000)
	if got.Number != "AF600" || got.Title != "MATERIAL AND ROOM FINISH SCHEDULE" {
		t.Fatalf("got %+v", got)
	}
}

func TestNoSheetNumber(t *testing.T) {
	got := Read(page(line(1, 10, 10, 12, "NOTES ONLY")), 1000, 800)
	if got.Number != "" || got.Title != "" {
		t.Fatalf("got %+v", got)
	}
}

func TestSheetNumberForms(t *testing.T) {
	for _, n := range []string{"A3", "E201A", "AF101", "M-101", "S3.1", "FP-2.01", "A.100"} {
		got := Read(page(line(1, 3800, 2850, 50, n)), 4200, 3000)
		if got.Number != n {
			t.Errorf("Read(%q) number = %q", n, got.Number)
		}
	}
}

func TestRevision(t *testing.T) {
	tests := []struct {
		name  string
		words []text.Word
		want  string
	}{
		{"value below the label", page(
			line(1, 3830, 2600, 16, "REVISION"),
			line(2, 3832, 2622, 16, "3"),
			line(3, 3830, 2850, 50, "A-101"),
		), "3"},
		{"value on the label's line", page(
			line(1, 3830, 2600, 16, "REV. B"),
			line(2, 3830, 2850, 50, "A-101"),
		), "B"},
		{"no field", page(line(1, 3830, 2850, 50, "A-101")), ""},
		{"a label far from the title block does not count", page(
			line(1, 100, 100, 16, "REV"),
			line(2, 100, 122, 16, "7"),
			line(3, 3830, 2850, 50, "A-101"),
		), ""},
	}
	for _, tt := range tests {
		if got := Read(tt.words, 4200, 3000).Revision; got != tt.want {
			t.Errorf("%s: revision %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A revision lettered far larger than its label ("A" under "ISSUE"), which
// OCR boxes up to the label's top and reads on one line with the sheet
// number beside it, is the label's value: its middle is under the label,
// and of that line only the words in the label's column count.
func TestRevisionLargeUnderLabel(t *testing.T) {
	words := page(line(1, 3830, 2600, 16, "ISSUE"))
	big := []text.Word{
		{Text: "S2.01", Line: 2, Conf: 0.9, Box: geom.Box{XMin: 3500, YMin: 2600, XMax: 3780, YMax: 2700}},
		{Text: "A", Line: 2, Conf: 0.8, Box: geom.Box{XMin: 3831, YMin: 2600, XMax: 3880, YMax: 2690}},
	}
	words = append(words, big...)
	if got := Read(words, 4200, 3000).Revision; got != "A" {
		t.Errorf("revision %q, want A", got)
	}
}

// OCR reads a revision mark's zero as the letter O, which revision marks
// do not use: it is a zero. A text layer's mark is as printed.
func TestOCRRevisionZero(t *testing.T) {
	for _, c := range []struct {
		value string
		conf  float64
		want  string
	}{{"NO", 0.95, "N0"}, {"PO1", 0.9, "P01"}, {"O", 0.9, "0"}, {"B", 0.9, "B"}, {"NO", 1, "NO"}} {
		words := page(
			line(1, 3830, 2600, 16, "REVISION"),
			line(2, 3832, 2622, 16, c.value),
			line(3, 3830, 2850, 50, "A-101"),
		)
		for i := range words {
			words[i].Conf = c.conf
		}
		if got := Read(words, 4200, 3000).Revision; got != c.want {
			t.Errorf("%q at %.2f: revision %q, want %q", c.value, c.conf, got, c.want)
		}
	}
}

func TestRevisionTable(t *testing.T) {
	// a revision table in the bottom strip (rows above the header, as on the
	// VA sheet), a form number below it, the sheet number far away
	header := page(line(1, 146, 2064, 12, "Revision#"), line(1, 218, 2064, 12, "Description"), line(1, 495, 2064, 12, "Date:"))
	rowAt := func(y float64, mark, desc, date string) []text.Word {
		return page(line(2, 146, y, 12, mark), line(2, 218, y, 12, desc), line(2, 495, y, 12, date))
	}
	form := page(line(3, 127, 2088, 12, "VA FORM 08-6231"))
	number := line(4, 2817, 2010, 42, "AF101")
	tests := []struct {
		name  string
		words []text.Word
		want  string
	}{
		{"one row above the header", page(header, rowAt(2048, "1", "REVISION SET 1 (PREBID ADDENDUM)", "07/6/2021"), form, number), "1"},
		{"the latest date wins", page(header, rowAt(2048, "2", "ADDENDUM 2", "MAY 3, 2021"), rowAt(2032, "3", "ADDENDUM 3", "04/01/2021"),
			rowAt(2016, "1", "BID SET", "01/15/2021"), number), "2"},
		{"without dates the highest mark", page(header, rowAt(2080, "A", "ISSUED FOR PERMIT", ""), rowAt(2096, "B", "ISSUED FOR BID", ""), number), "B"},
		{"a header without rows", page(header, form, number), ""},
		{"an unnumbered row names its issue", page(header, page(line(2, 170, 2048, 12, "ASI #1"), line(2, 495, 2048, 12, "04/18/2025")), number), "ASI #1"},
		{"an unnumbered row without a number in its name is no revision", page(header,
			page(line(2, 170, 2048, 12, "ISSUED FOR PERMIT"), line(2, 495, 2048, 12, "04/18/2025")), number), ""},
		{"an unnumbered undated row is no revision", page(header, page(line(2, 170, 2048, 12, "ASI #1"), line(2, 300, 2048, 12, "SIGNAGE")), number), ""},
		{"a table in the middle of the sheet does not count", page(
			line(1, 1500, 1000, 12, "REV"), line(1, 1560, 1000, 12, "DESCRIPTION"),
			line(2, 1500, 1016, 12, "4"), line(2, 1560, 1016, 12, "CHANGED"), number), ""},
	}
	for _, tt := range tests {
		if got := Read(tt.words, 3024, 2160).Revision; got != tt.want {
			t.Errorf("%s: revision %q, want %q", tt.name, got, tt.want)
		}
	}
}
