package layout

import (
	"image"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A title strip on a sheet without a border (crop marks at its corners, a
// hairline along the paper's edge) is the strip between its own rules, not
// the band from its top rule to the page's edge: the blank margin round it
// holds none of its words and none of its rules.
func TestTitleStripTrimmedToItsRules(t *testing.T) {
	img := blank(1200, 800)
	fillRect(img, 0, 798, 1200, 800) // the paper's edge
	for _, c := range [][2]int{{5, 5}, {1165, 5}, {5, 765}, {1165, 765}} {
		fillRect(img, c[0], c[1]+14, c[0]+30, c[1]+16) // crop marks
		fillRect(img, c[0]+14, c[1], c[0]+16, c[1]+30)
	}
	fillRect(img, 60, 680, 1140, 683) // the strip's two thick rules
	fillRect(img, 60, 751, 1140, 754)
	for _, x := range []int{60, 500, 800, 1000, 1136} {
		fillRect(img, x, 680, x+2, 754) // its cells
	}
	words := drawWords(img, nil, 1, 1010, 700, 16, "DRAWING NO.")
	words = drawWords(img, words, 2, 1010, 725, 16, "M-301")
	words = drawWords(img, words, 3, 810, 700, 12, "TITLE")
	words = drawWords(img, words, 4, 810, 725, 12, "SCALE 1:100")
	words = drawWords(img, words, 5, 510, 700, 12, "PROJECT")
	words = drawWords(img, words, 9, 510, 725, 12, "DATE CLIENT")
	rectOutline(img, 60, 60, 500, 400, 2) // a table above it
	for y := 100; y < 400; y += 40 {
		fillRect(img, 60, y, 500, y+2)
	}
	words = drawWords(img, words, 6, 80, 70, 14, "EQUIPMENT SCHEDULE")
	words = drawWords(img, words, 7, 80, 110, 10, "EF-1 EXHAUST FAN 200 CMH")
	words = drawWords(img, words, 8, 80, 150, 10, "EF-2 EXHAUST FAN 300 CMH")
	var tb *Block
	blocks := Segment(img, words, words[2].Box)
	for i := range blocks {
		if blocks[i].Type == "TitleBlock" {
			tb = &blocks[i]
		}
	}
	if tb == nil {
		t.Fatalf("no title block in %+v", blocks)
	}
	want := geom.Box{XMin: 60, YMin: 680, XMax: 1142, YMax: 754}
	if iou := tb.Box.IoU(want); iou < 0.9 {
		t.Errorf("title block %v, want %v (IoU %.2f)", fmtBox(tb.Box), fmtBox(want), iou)
	}
}

// A view's bubble that the text layer reads as a symbol joined to the
// view's number ("@5. REAR ELEVATION", "@ 4. FRONT ELEVATION") leads the
// title as a bubble does: the title is found, without the glyph or the
// number.
func TestBubbleGlyphBeforeTitle(t *testing.T) {
	for _, lead := range []string{"@5.", "@ 5."} {
		img := blank(1200, 800)
		rectOutline(img, 10, 10, 1190, 790, 3)
		fillRect(img, 1000, 10, 1003, 790)
		words := drawWords(img, nil, 1, 1020, 720, 40, "A101")
		rectOutline(img, 150, 100, 650, 400, 3) // the elevation's outline
		for x := 170; x < 650; x += 40 {
			fillRect(img, x, 100, x+2, 400)
		}
		for i := 0; i < 12; i++ { // notes elsewhere set the type size
			words = drawWords(img, words, 10+i, 720, 100+16*float64(i), 10, "ALL WORK TO COMPLY WITH")
		}
		words = drawWords(img, words, 2, 150, 440, 18, lead+" REAR ELEVATION")
		fillRect(img, 150, 462, 520, 464) // its underline
		p := Analyze(img, words)
		var got []string
		for _, vt := range p.viewTitles() {
			got = append(got, vt.kind+" "+vt.title)
		}
		if len(got) != 1 || got[0] != "Elevation REAR ELEVATION" {
			t.Errorf("%q: titles %q, want [Elevation REAR ELEVATION]", lead, got)
		}
	}
}

// A line of a table's or a note's running text that mentions a kind ("to
// Manufr's and Engr's detail", "… Engr's Detail.") names no block; a
// heading does, in capitals or in title case.
func TestSentenceNamesNoBlock(t *testing.T) {
	for s, want := range map[string]bool{
		"Manufr’s and Engr’s detail": true, "Engr’s Detail.": true,
		"Detail at Joint": false, "GENERAL NOTES.": false, "Typ. Section at Sign Type 9A": false, "FLOOR PLAN": false,
	} {
		if got := sentenceLike(s); got != want {
			t.Errorf("sentenceLike(%q) = %v, want %v", s, got, want)
		}
	}
	var words []text.Word
	img := blank(400, 300)
	words = drawWords(img, words, 1, 20, 20, 12, "G1 Timber to Manufr's and Engr's detail")
	words = drawWords(img, words, 2, 20, 40, 10, "G2 Concrete slab as per drawing")
	words = drawWords(img, words, 3, 20, 60, 10, "G3 Brick wall plastered both sides")
	if b := classify(rect{0, 0, 400, 300}, words, 10); b.Type == "Detail" {
		t.Errorf("classified %+v, a sentence's 'detail' named it", b)
	}
}

// A title strip with notes stacked over its title block: the title block
// is only the cells from the notes down, though its DRAWING field's value
// names a kind ("ALUMINIUM SCHEDULE" is the sheet's title, no schedule's
// heading).
func TestStripTitleFieldNamesNoBlock(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 10, 10, 1190, 790, 3) // border
	fillRect(img, 900, 10, 903, 790)       // the strip's side
	for _, y := range []int{400, 560, 640, 720} {
		fillRect(img, 900, y, 1190, y+2) // its cells
	}
	words := drawWords(img, nil, 1, 915, 30, 14, "GENERAL")
	for i := 0; i < 12; i++ {
		words = drawWords(img, words, 2+i, 915, 60+20*float64(i), 9, "1. ALL WORK TO BE DONE AS SPECIFIED")
	}
	words = drawWords(img, words, 20, 915, 420, 10, "CLIENT")
	words = drawWords(img, words, 21, 915, 440, 12, "THE INN")
	words = drawWords(img, words, 22, 915, 575, 10, "DRAWING")
	words = drawWords(img, words, 23, 950, 600, 14, "ALUMINIUM SCHEDULE")
	words = drawWords(img, words, 24, 915, 655, 10, "DATE SCALE")
	words = drawWords(img, words, 25, 915, 735, 10, "DWG NO.")
	words = drawWords(img, words, 26, 1050, 735, 20, "A-501")
	if y := stripTitleBlockTop(t, img, words); y < 395 || y > 405 {
		t.Errorf("title block from y %.0f, want it from y 400 (under the notes)", y)
	}
}

// stripTitleBlockTop draws a view beside a title strip drawn in img and
// returns the top of the title block Segment finds (the sheet number is
// the last word).
func stripTitleBlockTop(t *testing.T, img *image.Gray, words []text.Word) float64 {
	t.Helper()
	rectOutline(img, 100, 100, 700, 600, 3) // a view
	fillRect(img, 100, 300, 700, 303)
	for _, b := range Segment(img, words, words[len(words)-1].Box) {
		if b.Type == "TitleBlock" {
			return b.Box.YMin
		}
	}
	t.Fatal("no title block")
	return 0
}

// A revision table fills up from its header: its unfilled rows above the
// header (thin empty cells under the notes stacked over the title block)
// are the title block's, not a gap between it and the notes.
func TestStripEmptyRevisionRows(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 10, 10, 1190, 790, 3) // border
	fillRect(img, 900, 10, 903, 790)       // the strip's side
	for _, y := range []int{300, 315, 330, 345, 360, 380, 560, 640, 720} {
		fillRect(img, 900, y, 1190, y+2) // its cells: five empty revision rows, the header, fields
	}
	words := drawWords(img, nil, 1, 915, 30, 14, "GENERAL NOTES")
	for i := 0; i < 10; i++ {
		words = drawWords(img, words, 2+i, 915, 60+20*float64(i), 9, "1. ALL WORK TO BE DONE AS SPECIFIED")
	}
	words = drawWords(img, words, 20, 915, 364, 10, "REV DATE DESCRIPTION")
	words = drawWords(img, words, 21, 915, 420, 10, "CLIENT")
	words = drawWords(img, words, 22, 915, 575, 10, "DRAWING")
	words = drawWords(img, words, 23, 950, 600, 14, "POOL LAYOUT")
	words = drawWords(img, words, 24, 915, 655, 10, "DATE SCALE")
	words = drawWords(img, words, 25, 915, 735, 10, "DWG NO.")
	words = drawWords(img, words, 26, 1050, 735, 20, "A-501")
	if y := stripTitleBlockTop(t, img, words); y < 295 || y > 305 {
		t.Errorf("title block from y %.0f, want it from y 300 (the revision table's first row)", y)
	}
}

// A ratio after a fall's or slope's word is no scale: a pipe's note "LAID
// TO MIN FALL 1:60" under another note makes no view title of it.
func TestSlopeIsNoScale(t *testing.T) {
	for s, want := range map[string]string{
		"LAID TO MIN FALL 1:60 TO": "", "SLOPE 1:50": "", "ROOF PITCH OF 1:12": "",
		"SCALE 1:100": "1:100", "1 : 100": "1 : 100", "FALL 1:40, SCALE 1:20": "1:20", "3/16\" = 1'-0\"": "3/16\" = 1'-0\"",
		// a whole inch and a fraction, spaced or hyphened
		"SCALE: 1 1/2\"=1'-0\"": "1 1/2\"=1'-0\"", "1-1/2\" = 1'-0\"": "1-1/2\" = 1'-0\"",
	} {
		got := ""
		if loc := findScale(s); loc != nil {
			got = s[loc[0]:loc[1]]
		}
		if got != want {
			t.Errorf("findScale(%q) = %q, want %q", s, got, want)
		}
	}
}

// A thin line down the margin beside a view (a file path's rule) is no
// leftover of the view: the view's block keeps to the view, and the strip
// is dropped.
func TestMarginStripNotAbsorbed(t *testing.T) {
	const em = 10.0
	view := region{r: rect{150, 400, 600, 760}}
	rs := []region{view, {r: rect{110, 520, 113, 785}}, {r: rect{610, 500, 640, 515}}}
	rs = dropStrips(absorbSmall(rs, em), em)
	if len(rs) != 1 || rs[0].r != (rect{150, 400, 640, 760}) {
		t.Errorf("regions %+v, want the view with the small mark beside it only", rs)
	}
}

// A diagram's level labels ("ROOF BEAM LEVEL", "GRD. FLOOR LEVEL"), set
// larger than its other labels, head no notes: a region holding a view's
// title over mostly linework is not cut at them.
func TestViewLabelsHeadNoNotes(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 10, 10, 1190, 790, 3)
	fillRect(img, 1000, 10, 1003, 790)
	words := drawWords(img, nil, 1, 1020, 720, 40, "A101")
	for i, y := range []int{150, 350, 500} { // level lines, pipes across them
		fillRect(img, 100, y, 900, y+2)
		words = drawWords(img, words, 2+i, 100, float64(y-22), 18, [...]string{"ROOF BEAM LEVEL", "GRD. FLOOR LEVEL", "GRD. LEVEL"}[i])
	}
	for x := 300; x < 900; x += 60 {
		fillRect(img, x, 120, x+3, 560)
	}
	for i := 0; i < 24; i++ { // pipe labels
		words = drawWords(img, words, 30+i, 310+float64(i%2)*300, 160+16*float64(i), 10, "20 UPVC DISTRIBUTION PIPE")
	}
	words = drawWords(img, words, 20, 150, 600, 24, "11.")
	words = drawWords(img, words, 21, 200, 600, 24, "DIAGRAMMATIC COLD WATER LAYOUT")
	fillRect(img, 200, 628, 800, 630) // its underline
	var got []string
	for _, b := range Segment(img, words, words[0].Box) {
		if b.Type != "TitleBlock" {
			got = append(got, b.Type)
		}
	}
	if len(got) != 1 || got[0] != "Diagram" {
		t.Errorf("blocks %v, want [Diagram]", got)
	}
}

// A title-block label set underlined ("TITLE:" over its value lines), whose
// box (OCR's) stops above the underline: its cell runs down to the cell's
// rule, not to the underline, so the value under the line is the label's.
func TestUnderlinedLabelsCell(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 20, 20, 1180, 780, 3) // the border
	fillRect(img, 900, 20, 903, 780)       // the title strip's left rule
	fillRect(img, 900, 300, 1180, 302)     // its cells
	fillRect(img, 900, 560, 1180, 562)
	words := drawWords(img, nil, 1, 920, 320, 14, "TITLE:")
	lb := words[0].Box
	fillRect(img, int(lb.XMin), int(lb.YMax)+3, int(lb.XMax), int(lb.YMax)+5) // the underline
	words = drawWords(img, words, 2, 920, 380, 12, "PARKING LEVEL P1")
	words = drawWords(img, words, 3, 920, 405, 12, "SHORING PLAN")
	words = drawWords(img, words, 4, 920, 700, 20, "S-201")
	words = drawWords(img, words, 5, 100, 100, 12, "GENERAL NOTES")
	pg := Analyze(img, words)
	c := pg.Cell(lb)
	if c.YMin > 300 || c.YMax < 555 || c.XMin > 905 {
		t.Errorf("the label's cell %v, want the strip's cell from y 300 to 560 (x from 900)", fmtBox(c))
	}
}

// A row of title-block cells OCR read as one line ("ARCHITECT … DRAWING
// TITLE") is cut at the cells' rule; a text layer's line stays as it is.
func TestSplitAtRules(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 20, 20, 1180, 780, 3)
	fillRect(img, 20, 600, 1180, 602) // the strip
	fillRect(img, 500, 600, 502, 780) // a cell's rule
	ocr := drawWords(img, nil, 1, 60, 640, 14, "ARCHITECT SMFA")
	ocr = drawWords(img, ocr, 1, 540, 640, 14, "DRAWING TITLE")
	pdf := drawWords(img, nil, 2, 60, 700, 14, "PROJECT NO")
	pdf = drawWords(img, pdf, 2, 540, 700, 14, "FOOTING PLAN")
	for i := range ocr {
		ocr[i].Conf = 0.9
	}
	for i := range pdf {
		pdf[i].Conf = 1
	}
	words := append(append([]text.Word(nil), ocr...), pdf...)
	got := Analyze(img, words).SplitAtRules(words)
	left, right := got[0].Line, got[2].Line
	if got[1].Line != left || got[3].Line != right || left == right {
		t.Errorf("OCR's line across the rule: lines %d %d | %d %d, want one line each side", got[0].Line, got[1].Line, got[2].Line, got[3].Line)
	}
	for i := 4; i < 8; i++ {
		if got[i].Line != 2 {
			t.Errorf("the text layer's word %q moved to line %d", got[i].Text, got[i].Line)
		}
	}
}

// An imperial scale's ratio, a whole inch and a fraction included.
func TestScaleRatio(t *testing.T) {
	for s, want := range map[string]float64{
		`1 1/2"=1'-0"`: 8, `1-1/2" = 1'-0"`: 8, `1/4" = 1'-0"`: 48, `3" = 1'-0"`: 4, "1:50": 50,
	} {
		if got := scaleRatio(s); got != want {
			t.Errorf("scaleRatio(%q) = %v, want %v", s, got, want)
		}
	}
}
