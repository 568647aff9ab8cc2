package sheetinfo

import (
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// cells is a ruling of title-block cells for tests: the first box holding b.
func cells(boxes ...geom.Box) func(geom.Box) geom.Box {
	return func(b geom.Box) geom.Box {
		cx, cy := (b.XMin+b.XMax)/2, (b.YMin+b.YMax)/2
		for _, c := range boxes {
			if cx >= c.XMin && cx <= c.XMax && cy >= c.YMin && cy <= c.YMax {
				return c
			}
		}
		return geom.Box{}
	}
}

// upLine makes a line of words turned a quarter anticlockwise (reading
// bottom to top) starting at x, y (its bottom end) with type height h.
func upLine(n int, x, y, h float64, s string) []text.Word {
	var out []text.Word
	for _, w := range splitWords(s) {
		wd := float64(len(w)) * h * 0.6
		out = append(out, text.Word{Text: w, Line: n, Conf: 1, Box: geom.Box{XMin: x, YMin: y - wd, XMax: x + h, YMax: y}})
		y -= wd + h*0.3
	}
	return out
}

func TestLabelledFieldsInOtherLanguages(t *testing.T) {
	tb := geom.Box{XMin: 3000, YMin: 2500, XMax: 4200, YMax: 3000}
	tests := []struct {
		name                    string
		words                   []text.Word
		number, title, revision string
	}{
		{"German", page(
			line(1, 3050, 2520, 12, "PHASE"), line(2, 3050, 2545, 24, "Ausführungsplanung"),
			line(3, 3050, 2600, 28, "Grundriss"), line(4, 3050, 2640, 28, "Erdgeschoss"),
			line(5, 3700, 2520, 12, "PLANNUMMER"), line(5, 3950, 2520, 12, "INDEX"),
			line(6, 3700, 2545, 44, "5.1.00"), line(6, 3960, 2545, 44, "j"),
			line(7, 3700, 2610, 12, "DATUM"), line(8, 3750, 2625, 16, "04.07.2011"),
			line(9, 3700, 2660, 12, "ARCHITEKTEN BDA"),
		), "5.1.00", "Grundriss Erdgeschoss", "J"},
		{"Malay", page(
			line(1, 3050, 2520, 12, "TAJUK LUKISAN"), line(2, 3050, 2545, 18, "1. ELECT. PLAN"),
			line(3, 3050, 2600, 12, "NO. KEPINGAN"), line(4, 3060, 2620, 30, "WD-1/01"),
			line(5, 3400, 2600, 12, "PINDAAN NO"),
		), "WD-1/01", "1. ELECT. PLAN", ""},
		{"Japanese", page(
			line(1, 3050, 2520, 10, "図面名称"), line(1, 3150, 2520, 14, "空気調和設備"),
			line(2, 3060, 2545, 14, "機器表（共用部 換気）"),
			line(3, 3700, 2520, 10, "図面番号"), line(4, 3710, 2540, 22, "M-03-01"),
		), "M-03-01", "空気調和設備 機器表（共用部 換気）", ""},
		{"ISO, a long number, a label's colon on its line", page(
			line(1, 3050, 2520, 12, "Drawing Title:"), line(2, 3050, 2545, 20, "Main Pool Piping & Conduit Overall"), line(3, 3050, 2570, 20, "Layout"),
			line(4, 3050, 2640, 12, "Drawing Number"), line(4, 3700, 2640, 12, "Revision"),
			line(5, 3050, 2660, 20, "L04-A04D02-CHP-16-00-DWG-SP-10001"), line(5, 3710, 2660, 26, "N0"),
		), "L04-A04D02-CHP-16-00-DWG-SP-10001", "Main Pool Piping & Conduit Overall Layout", "N0"},
		{"a dash the font encodes apart", page(
			line(1, 3700, 2800, 12, "DWG NO:"), line(2, 3710, 2820, 30, "100‐00"),
			line(3, 3050, 2800, 12, "DRAWING"), line(4, 3060, 2820, 18, "SITE PLAN & ROOF PLAN"),
		), "100-00", "SITE PLAN & ROOF PLAN", ""},
	}
	for _, tt := range tests {
		got := ReadHints(tt.words, 4200, 3000, Hints{TitleBlock: tb})
		if got.Number != tt.number || got.Title != tt.title || got.Revision != tt.revision {
			t.Errorf("%s: got number %q title %q revision %q, want %q %q %q", tt.name, got.Number, got.Title, got.Revision, tt.number, tt.title, tt.revision)
		}
	}
}

// TestTitleInItsCell: a stacked title centred in its cell far below its
// label is read whole, and a second row of the field with no label of its
// own continues it; a row holding another label does not.
func TestTitleInItsCell(t *testing.T) {
	words := page(
		line(1, 3100, 2600, 8, "SHEET TITLE"),
		line(2, 3110, 2650, 18, "FIRST AND SECOND"), line(3, 3110, 2672, 18, "FLOOR PLUMBING"), line(4, 3110, 2694, 18, "PLAN AND DETAILS"),
		line(5, 3110, 2722, 18, "SECOND ROW"),
		line(6, 3110, 2800, 8, "SCALE"), line(7, 3110, 2815, 12, "AS NOTED"),
		line(8, 3700, 2600, 8, "DRAWING NO."), line(9, 3710, 2650, 40, "P-2.01"),
	)
	title := geom.Box{XMin: 3090, YMin: 2590, XMax: 3600, YMax: 2717}
	row2 := geom.Box{XMin: 3090, YMin: 2717, XMax: 3600, YMax: 2790}
	scale := geom.Box{XMin: 3090, YMin: 2790, XMax: 3600, YMax: 2840}
	num := geom.Box{XMin: 3600, YMin: 2590, XMax: 4190, YMax: 2840}
	got := ReadHints(words, 4200, 3000, Hints{TitleBlock: geom.Box{XMin: 3000, YMin: 2500, XMax: 4200, YMax: 3000}, Cells: cells(title, row2, scale, num)})
	if got.Number != "P-2.01" || got.Title != "FIRST AND SECOND FLOOR PLUMBING PLAN AND DETAILS SECOND ROW" {
		t.Errorf("got %q %q", got.Number, got.Title)
	}
}

// TestValueInTheCellBeside reads a field whose label sits alone in its cell
// and whose value is in the next cell on the right (a row of label and value
// cells).
func TestValueInTheCellBeside(t *testing.T) {
	words := page(
		line(1, 3100, 2600, 8, "DRAWING NO."), line(2, 3110, 2630, 30, "C8/253/1"),
		line(3, 3610, 2750, 10, "PINDAAN"), line(4, 3790, 2745, 14, "B"),
		line(5, 3100, 2850, 10, "DATE"), line(6, 3310, 2850, 10, "SCALE"), line(7, 3310, 2870, 10, "1:100"),
	)
	num := geom.Box{XMin: 3090, YMin: 2590, XMax: 3600, YMax: 2700}
	revLabel := geom.Box{XMin: 3600, YMin: 2740, XMax: 3760, YMax: 2780}
	revValue := geom.Box{XMin: 3760, YMin: 2740, XMax: 3900, YMax: 2780}
	date := geom.Box{XMin: 3090, YMin: 2840, XMax: 3300, YMax: 2890}
	scale := geom.Box{XMin: 3300, YMin: 2840, XMax: 3600, YMax: 2890}
	got := ReadHints(words, 4200, 3000, Hints{TitleBlock: geom.Box{XMin: 3000, YMin: 2500, XMax: 4200, YMax: 3000}, Cells: cells(num, revLabel, revValue, date, scale)})
	if got.Number != "C8/253/1" || got.Revision != "B" {
		t.Errorf("number %q revision %q, want C8/253/1 and B", got.Number, got.Revision)
	}
}

// TestSidewaysTitleBlock reads fields set a quarter turn anticlockwise, as
// a vertical title strip sets them.
func TestSidewaysTitleBlock(t *testing.T) {
	words := page(
		upLine(1, 4000, 2900, 12, "DRAWING TITLE"),
		upLine(2, 4020, 2900, 24, "ROOF FRAMING"), upLine(3, 4048, 2900, 24, "PLANS"),
		upLine(4, 4100, 2900, 12, "SHEET NO."), upLine(5, 4120, 2900, 40, "S-201"),
	)
	got := ReadHints(words, 4200, 3000, Hints{TitleBlock: geom.Box{XMin: 3950, YMin: 100, XMax: 4200, YMax: 3000}})
	if got.Number != "S-201" || got.Title != "ROOF FRAMING PLANS" || got.Discipline != "structural" {
		t.Errorf("got %+v", got)
	}
}

func TestDiscipline(t *testing.T) {
	tests := []struct{ number, title, tbWord, want string }{
		// the office named in the notes stacked over the title block
		{"500-00", "ALUMINIUM SCHEDULE", "@COPYRIGHT REMAINS WITH ALSFINE AND ANGUS ARCHITECTS", "architectural"},
		{"E201A", "FLOOR PLAN", "", "electrical"},
		{"A1.3", "ELECTRICAL/ REFLECTED CEILING PLAN", "", "architectural"}, // a common designator decides
		{"F-2", "PARKING LEVEL P1 SUSPENDED SLAB SHORING PLAN", "", "structural"},
		{"WD-1/01", "1. ELECT. PLAN", "", "electrical"},                                      // an office's own scheme: the title decides
		{"WD-1/01", "1. FLOOR PLAN / REFL. CEILING PLAN / ELECT. PLAN", "", "architectural"}, // the first named
		{"500-00", "ALUMINIUM SCHEDULE", "ARCHITECTS", "architectural"},
		{"5.1.00", "Grundriss Erdgeschoss", "", "architectural"},
		{"123", "COVER", "", ""},
	}
	for _, tt := range tests {
		ws := page(line(1, 3050, 2600, 12, "DRAWING TITLE"), line(2, 3050, 2620, 18, tt.title),
			line(3, 3700, 2600, 12, "SHEET NO."), line(4, 3710, 2620, 36, tt.number))
		if w, notes := strings.CutPrefix(tt.tbWord, "@"); notes {
			ws = append(ws, line(5, 3050, 1800, 10, w)...) // over the title block
		} else if tt.tbWord != "" {
			ws = append(ws, line(5, 3050, 2800, 10, tt.tbWord)...)
		}
		if got := ReadHints(ws, 4200, 3000, Hints{TitleBlock: geom.Box{XMin: 3000, YMin: 2500, XMax: 4200, YMax: 3000}}).Discipline; got != tt.want {
			t.Errorf("%s %q: discipline %q, want %q", tt.number, tt.title, got, tt.want)
		}
	}
}

// TestUnreadField: a labelled number field whose value the words lack is
// reported for a closer reading.
func TestUnreadField(t *testing.T) {
	words := page(line(1, 3700, 2600, 12, "DRAWING NUMBER"), line(2, 3050, 2600, 12, "DRAWING TITLE"), line(3, 3050, 2620, 18, "SITE PLAN"))
	got := ReadHints(words, 4200, 3000, Hints{TitleBlock: geom.Box{XMin: 3000, YMin: 2500, XMax: 4200, YMax: 3000}})
	if got.Number != "" || len(got.Unread) != 1 || !got.Unread[0].Valid() || got.Unread[0].XMin > 3700 {
		t.Errorf("got %+v", got)
	}
}

// A field label's word set in display type is the sheet's title, not a
// label: "PROJECT INFORMATION" at five times the labels' size, with DATE,
// DRAWN, SCALE and SHEET labels in small type.
func TestDisplayTypeIsNoLabel(t *testing.T) {
	words := page(
		line(1, 3100, 2600, 8, "DATE"), line(2, 3100, 2620, 8, "DRAWN"), line(3, 3100, 2640, 8, "SCALE"),
		line(4, 3100, 2700, 40, "PROJECT"), line(5, 3100, 2736, 40, "INFORMATION"),
		line(6, 3500, 2800, 8, "SHEET"), line(7, 3560, 2815, 40, "A0.0"),
	)
	row := func(y0, y1 float64) geom.Box { return geom.Box{XMin: 3050, YMin: y0, XMax: 3450, YMax: y1} }
	c := cells(row(2595, 2615), row(2615, 2635), row(2635, 2660), row(2660, 2790), geom.Box{XMin: 3450, YMin: 2790, XMax: 4190, YMax: 2900})
	got := ReadHints(words, 4200, 3000, Hints{TitleBlock: geom.Box{XMin: 3000, YMin: 2500, XMax: 4200, YMax: 3000}, Cells: c})
	if got.Number != "A0.0" || got.Title != "PROJECT INFORMATION" {
		t.Errorf("got %q %q", got.Number, got.Title)
	}
}

// A number field's designator read apart from its number (OCR splits
// "AF101" printed with its letters spaced) is one number with it; a word
// of the value further on is not.
func TestSpacedDesignator(t *testing.T) {
	for value, want := range map[string]string{"AF 101": "AF101", "E 2.01": "E2.01", "101 A": "101"} {
		words := page(
			line(1, 3100, 2600, 8, "SHEET TITLE"), line(2, 3110, 2650, 18, "FIRST FLOOR FINISH PLAN"),
			line(8, 3700, 2600, 8, "DRAWING NO."), line(9, 3710, 2650, 40, value),
		)
		title := geom.Box{XMin: 3090, YMin: 2590, XMax: 3600, YMax: 2717}
		num := geom.Box{XMin: 3600, YMin: 2590, XMax: 4190, YMax: 2840}
		got := ReadHints(words, 4200, 3000, Hints{TitleBlock: geom.Box{XMin: 3000, YMin: 2500, XMax: 4200, YMax: 3000}, Cells: cells(title, num)})
		if got.Number != want {
			t.Errorf("%q: number %q, want %q", value, got.Number, want)
		}
	}
}
