package compare

import (
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// roomLabel writes a room's name and number centred at (cx, cy).
func roomLabel(f *fpdf.Fpdf, s string, cx, cy float64) {
	f.SetFont("Helvetica", "", 10)
	f.Text(cx-f.GetStringWidth(s)/2, cy, s)
}

// dimText writes a dimension string centred above the dimension line.
func dimText(f *fpdf.Fpdf, s string) {
	f.SetFont("Helvetica", "", 9)
	f.Text(150-f.GetStringWidth(s)/2, 226, s)
}

func TestAnalyzeRenamedRoomAndDimension(t *testing.T) {
	a := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		roomLabel(f, "OFFICE 104", 150, 115)
		dimText(f, `12'-6"`)
	})
	b := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		roomLabel(f, "CONFERENCE 104", 150, 115)
		dimText(f, `13'-0"`)
	})
	b.Title = "FIRST FLOOR PLAN"
	ov := testOverlay(a, b, Identity, 3)
	cs := Analyze(a, b, ov, Options{})
	if len(cs) != 2 {
		t.Fatalf("%d changes, want 2:%s", len(cs), describe(cs))
	}
	room := findChange(cs, CategoryText, KindModified, "OFFICE 104 → CONFERENCE 104")
	dim := findChange(cs, CategoryDimension, KindModified, `12'-6" → 13'-0"`)
	if room == nil || dim == nil {
		t.Fatalf("missing the room or the dimension change:%s", describe(cs))
	}
	if room.BoundsA == nil || room.Severity != SeverityModerate || room.Confidence < 0.9 {
		t.Errorf("room change %+v", *room)
	}
	// the new room name's box, in B's pixels
	want := ptBox(115, 105, 185, 117)
	if room.Bounds.IoU(want) < 0.4 {
		t.Errorf("room change bounds %+v, want about %+v", room.Bounds, want)
	}
	// With text ignored nothing is left: the words explain their ink.
	if cs := Analyze(a, b, ov, Options{IgnoreText: true}); len(cs) != 0 {
		t.Errorf("IgnoreText: %d changes:%s", len(cs), describe(cs))
	}
}

func TestAnalyzeUnchangedAndOCRNoise(t *testing.T) {
	draw := func(f *fpdf.Fpdf) {
		drawPlan(f)
		roomLabel(f, "OFFICE 104", 150, 115)
		dimText(f, `12'-6"`)
		receptacle(f, 80, 60)
	}
	a, b := drawSide(t, draw), drawSide(t, draw)
	a.Symbols = []Symbol{receptacleSym(80, 60)}
	// B's matcher missed the symbol: no ink changed, so no change.
	ov := testOverlay(a, b, Identity, 3)
	if len(ov.Regions) != 0 {
		t.Fatalf("identical renders differ: %d regions", len(ov.Regions))
	}
	if cs := Analyze(a, b, ov, Options{}); len(cs) != 0 {
		t.Fatalf("unchanged: %d changes:%s", len(cs), describe(cs))
	}
	// OCR read one letter differently on identical ink: not a change.
	for _, s := range []*Side{a, b} {
		s.Words = nil
	}
	a.Words = []text.Word{{Text: "OFFICE", Box: ptBox(124, 107, 158, 116), Line: 1, Conf: 0.81}}
	b.Words = []text.Word{{Text: "0FFICE", Box: ptBox(124, 107, 158, 116), Line: 1, Conf: 0.74}}
	if cs := Analyze(a, b, ov, Options{}); len(cs) != 0 {
		t.Fatalf("OCR noise: %d changes:%s", len(cs), describe(cs))
	}
}

func TestAnalyzeSymbols(t *testing.T) {
	a := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		receptacle(f, 80, 60)
		receptacle(f, 200, 60)
		receptacle(f, 230, 160)
	})
	b := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		receptacle(f, 80, 60)
		receptacle(f, 200, 60)
		receptacle(f, 100, 160) // two added side by side
		receptacle(f, 120, 160)
		receptacle(f, 230, 130) // moved 30 pt up
	})
	a.Symbols = []Symbol{receptacleSym(80, 60), receptacleSym(200, 60), receptacleSym(230, 160)}
	b.Symbols = []Symbol{receptacleSym(80, 60), receptacleSym(200, 60), receptacleSym(100, 160), receptacleSym(120, 160), receptacleSym(230, 130)}
	ov := testOverlay(a, b, Identity, 3)
	cs := Analyze(a, b, ov, Options{})
	added := findChange(cs, CategorySymbol, KindAdded, "2 × DUPLEX RECEPTACLE added")
	moved := findChange(cs, CategorySymbol, KindMoved, "DUPLEX RECEPTACLE moved 125 px")
	if added == nil || moved == nil || len(cs) != 2 {
		t.Fatalf("want 2 symbols added and 1 moved, nothing else:%s", describe(cs))
	}
	if moved.BoundsA == nil || moved.BoundsA.IoU(ptBox(224.5, 154.5, 235.5, 165.5)) < 0.8 {
		t.Errorf("moved symbol's old place %+v", moved.BoundsA)
	}
	if added.Bounds.IoU(ptBox(94.5, 154.5, 125.5, 165.5)) < 0.8 {
		t.Errorf("added symbols' bounds %+v", added.Bounds)
	}
}

func TestAnalyzeWallMovedAndLinework(t *testing.T) {
	a := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		f.Line(150, 46, 150, 120) // a partition: two faces 5 pt apart
		f.Line(155, 46, 155, 120)
	})
	b := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		f.Line(186, 46, 186, 120) // moved 36 pt (150 px) right
		f.Line(191, 46, 191, 120)
		f.Line(60, 150, 120, 150) // new linework
	})
	b.Words = append(b.Words, text.Word{Text: "STORAGE", Box: ptBox(70, 160, 110, 168), Line: 9, Conf: 1})
	a.Words = append(a.Words, text.Word{Text: "STORAGE", Box: ptBox(70, 160, 110, 168), Line: 9, Conf: 1})
	ov := testOverlay(a, b, Identity, 3)
	cs := Analyze(a, b, ov, Options{})
	wall := findChange(cs, CategoryLinework, KindMoved, "wall moved 150 px (≈ 0.5 in at 300 DPI) right")
	line := findChange(cs, CategoryLinework, KindAdded, "linework added near STORAGE")
	if wall == nil || line == nil || len(cs) != 2 {
		t.Fatalf("want a wall moved and linework added:%s", describe(cs))
	}
	if wall.Severity != SeverityMajor || wall.BoundsA == nil || wall.BoundsA.XMin > 150*k300 || wall.Bounds.XMin < 185*k300 {
		t.Errorf("wall change %+v (bounds A %+v)", *wall, wall.BoundsA)
	}
	if line.Severity != SeverityModerate {
		t.Errorf("60 pt of line (0.83 in) should be moderate: %+v", *line)
	}
}

func TestAnalyzeRevisionMarks(t *testing.T) {
	a := drawSide(t, func(f *fpdf.Fpdf) { drawPlan(f) })
	b := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		f.Line(170, 80, 230, 80) // the change the cloud marks
		cloudPath(f, 160, 65, 80, 30, 10)
		delta(f, 300, 60, 16, "1")
	})
	ov := testOverlay(a, b, Identity, 3)
	for _, geometry := range []bool{true, false} {
		a2, b2 := *a, *b
		if !geometry {
			a2.Page, b2.Page = nil, nil
		}
		cs := Analyze(&a2, &b2, ov, Options{})
		cloud := findChange(cs, CategoryRevisionMark, KindAdded, "revision cloud added")
		dl := findChange(cs, CategoryRevisionMark, KindAdded, "revision delta 1 added")
		line := findChange(cs, CategoryLinework, KindAdded, "linework added")
		if cloud == nil || dl == nil || line == nil || len(cs) != 3 {
			t.Fatalf("geometry %v: want a cloud, a delta and the line:%s", geometry, describe(cs))
		}
		if cloud.Severity != SeverityMinor || cloud.Bounds.IoU(ptBox(155, 60, 245, 100)) < 0.7 {
			t.Errorf("geometry %v: cloud %+v", geometry, *cloud)
		}
		if line.Bounds.Width() > 65*k300 {
			t.Errorf("geometry %v: the line's change holds more than the line: %+v", geometry, line.Bounds)
		}
	}
}

func TestAnalyzeTitleBlock(t *testing.T) {
	draw := func(rev, date string) func(f *fpdf.Fpdf) {
		return func(f *fpdf.Fpdf) {
			f.Rect(20, 20, 200, 60, "D")
			f.Line(20, 50, 220, 50)
			f.SetFont("Helvetica", "", 8)
			f.Text(26, 32, "REV")
			f.Text(26, 44, rev)
			f.Text(100, 32, "DATE")
			f.Text(100, 44, date)
			f.Text(26, 66, "SHEET A-101")
		}
	}
	a := drawSide(t, draw("1", "2024-01-05"))
	b := drawSide(t, draw("2", "2024-03-02"))
	a.BlockType, b.BlockType = "TitleBlock", "TitleBlock"
	cs := Analyze(a, b, testOverlay(a, b, Identity, 3), Options{})
	rev := findChange(cs, CategoryTitleBlock, KindModified, "revision 1 → 2")
	date := findChange(cs, CategoryTitleBlock, KindModified, "date 2024-01-05 → 2024-03-02")
	if rev == nil || date == nil || len(cs) != 2 {
		t.Fatalf("want the revision and the date:%s", describe(cs))
	}
	for _, c := range cs {
		if c.Severity != SeverityMinor {
			t.Errorf("%s: severity %s", c.Description, c.Severity)
		}
	}
}

func TestAnalyzeShiftedAndRescaled(t *testing.T) {
	// A is drawn 0.9× and shifted; the transform maps it back onto B.
	const s, dx, dy = 0.9, 25.0, 12.0 // points
	drawA := func(f *fpdf.Fpdf) {
		f.TransformBegin()
		f.TransformTranslate(dx, dy)
		f.TransformScale(s*100, s*100, 0, 0)
		drawPlan(f)
		roomLabel(f, "OFFICE 104", 150, 115)
		receptacle(f, 80, 60)
		f.TransformEnd()
	}
	a := drawSide(t, drawA)
	b := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		roomLabel(f, "OFFICE 104", 150, 115)
		receptacle(f, 80, 60)
		f.Line(200, 150, 240, 150)
	})
	// A's points: x_A = s·x_B + dx, so x_B = (x_A − dx)/s.
	tr := Transform{Scale: 1 / s, Tx: -dx * k300 / s, Ty: -dy * k300 / s}
	sa := receptacleSym(80, 60)
	sa.Bounds = tr.Inverse().ApplyBox(sa.Bounds)
	a.Symbols, b.Symbols = []Symbol{sa}, []Symbol{receptacleSym(80, 60)}
	cs := Analyze(a, b, testOverlay(a, b, tr, 3), Options{})
	if len(cs) != 1 || findChange(cs, CategoryLinework, KindAdded, "linework added") == nil {
		t.Fatalf("want only the new line:%s", describe(cs))
	}
}

func TestAnalyzeHatch(t *testing.T) {
	a := drawSide(t, func(f *fpdf.Fpdf) { drawPlan(f) })
	b := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		f.SetLineWidth(0.5)
		for x := 70.0; x < 130; x += 5 { // diagonal hatch in a 60×40 pt patch
			f.Line(x, 140, x+20, 120)
		}
	})
	ov := testOverlay(a, b, Identity, 3)
	cs := Analyze(a, b, ov, Options{})
	if len(cs) != 1 || findChange(cs, CategoryLinework, KindAdded, "hatch added") == nil || cs[0].Severity != SeverityMinor {
		t.Fatalf("want one minor hatch added:%s", describe(cs))
	}
	if cs := Analyze(a, b, ov, Options{IgnoreHatches: true}); len(cs) != 0 {
		t.Fatalf("IgnoreHatches: %s", describe(cs))
	}
}

func TestAnalyzeRegionsOnly(t *testing.T) {
	// No diff images: the regions' boxes and counts stand in for them.
	a := &Side{DPI: 300, Symbols: nil}
	b := &Side{DPI: 300, Symbols: []Symbol{receptacleSym(100, 100)}, Title: "LEVEL 2"}
	ov := &Overlay{Transform: Identity, Registered: true, Regions: []Region{
		{Bounds: ptBox(94, 94, 106, 106), Added: 180},
		{Bounds: ptBox(200, 50, 300, 54), Removed: 900},
	}}
	cs := Analyze(a, b, ov, Options{})
	if len(cs) != 2 || findChange(cs, CategorySymbol, KindAdded, "DUPLEX RECEPTACLE added") == nil ||
		findChange(cs, CategoryLinework, KindRemoved, "linework removed in LEVEL 2") == nil {
		t.Fatalf("regions only:%s", describe(cs))
	}
	// Order: the major linework (100 pt ≈ 1.4 in) before the moderate symbol.
	if cs[0].Category != CategoryLinework {
		t.Errorf("order:%s", describe(cs))
	}
}

func TestDimensionKind(t *testing.T) {
	for s, want := range map[string]int{
		`12'-6"`: 2, `12' - 6 1/2"`: 2, `13'-0" CLR`: 2, `6"`: 2, `3/4"`: 2, `12′-6″`: 2, `14'`: 2,
		"3600 mm": 2, "3.6 m": 2, "360cm": 2, "3600": 1, "3,600": 1, "3.60": 1, "104": 1,
		"OFFICE 104": 0, "A-101": 0, "TYP": 0, "SEE NOTE 3": 0,
	} {
		if got := dimensionKind(s); got != want {
			t.Errorf("dimensionKind(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTextDiffAndFieldName(t *testing.T) {
	if got := textDiff("OFFICE 104", "CONFERENCE 104"); got != "OFFICE 104 → CONFERENCE 104" {
		t.Errorf("short: %q", got)
	}
	got := textDiff("PROVIDE TWO DUPLEX OUTLETS AT 18 IN ABOVE FLOOR", "PROVIDE TWO DUPLEX OUTLETS AT 24 IN ABOVE FLOOR")
	if got != "… AT 18 IN … → … AT 24 IN …" {
		t.Errorf("long: %q", got)
	}
	for label, want := range map[string]string{"REV": "revision", "REV. NO.": "revision", "Revision:": "revision",
		"ISSUE DATE": "date", "Date:": "date", "DRAWN BY": "drawn by", "": ""} {
		if got := fieldName(label); got != want {
			t.Errorf("fieldName(%q) = %q, want %q", label, got, want)
		}
	}
	if !strings.Contains(textDiff("A", "B"), "→") {
		t.Error("arrow")
	}
}

func TestAnalyzeTextMovedRemovedAndSymbolRemoved(t *testing.T) {
	a := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		roomLabel(f, "NOTE 3", 100, 90)
		roomLabel(f, "STAIR", 200, 160)
		receptacle(f, 230, 60)
	})
	b := drawSide(t, func(f *fpdf.Fpdf) {
		drawPlan(f)
		roomLabel(f, "NOTE 3", 160, 90) // moved 60 pt right
	})
	a.Symbols = []Symbol{receptacleSym(230, 60)}
	cs := Analyze(a, b, testOverlay(a, b, Identity, 3), Options{})
	moved := findChange(cs, CategoryText, KindMoved, `text "NOTE 3" moved 250 px (≈ 0.8 in at 300 DPI)`)
	gone := findChange(cs, CategoryText, KindRemoved, `text "STAIR" removed`)
	sym := findChange(cs, CategorySymbol, KindRemoved, "DUPLEX RECEPTACLE removed")
	if moved == nil || gone == nil || sym == nil || len(cs) != 3 {
		t.Fatalf("want NOTE 3 moved, STAIR removed and the receptacle removed:%s", describe(cs))
	}
	if gone.BoundsA == nil || gone.BoundsA.IoU(gone.Bounds) < 0.9 || sym.BoundsA == nil {
		t.Errorf("removed changes keep their place on A: %+v %+v", gone, sym)
	}
}

func TestAnalyzeQuarterTurn(t *testing.T) {
	// A is B's drawing turned a quarter counter-clockwise about (150, 150)
	// pt; the transform turns it back (clockwise on screen: +90°).
	content := func(f *fpdf.Fpdf) {
		drawPlan(f)
		receptacle(f, 80, 60)
	}
	a := drawSide(t, func(f *fpdf.Fpdf) {
		f.TransformBegin()
		f.TransformRotate(90, 150, 150)
		content(f)
		f.TransformEnd()
	})
	b := drawSide(t, func(f *fpdf.Fpdf) {
		content(f)
		f.Line(200, 150, 240, 150)
	})
	c := 150 * k300
	tr := Transform{Scale: 1, RotationDeg: 90, Tx: 2 * c, Ty: 0}
	sa := receptacleSym(80, 60)
	sa.Bounds = tr.Inverse().ApplyBox(sa.Bounds)
	a.Symbols, b.Symbols = []Symbol{sa}, []Symbol{receptacleSym(80, 60)}
	ov := testOverlay(a, b, tr, 3)
	cs := Analyze(a, b, ov, Options{})
	line := findChange(cs, CategoryLinework, KindAdded, "linework added")
	if line == nil || len(cs) != 1 || line.Bounds.IoU(ptBox(200, 149, 240, 151)) < 0.3 {
		t.Fatalf("want only the new line (regions %d):%s", len(ov.Regions), describe(cs))
	}
}

func TestAnalyzePlainNumbers(t *testing.T) {
	// 3600 sits on a dimension line: a dimension; 104 inside a room: text.
	draw := func(dim, room string) func(f *fpdf.Fpdf) {
		return func(f *fpdf.Fpdf) {
			drawPlan(f)
			dimText(f, dim)
			roomLabel(f, room, 150, 115)
		}
	}
	a, b := drawSide(t, draw("3600", "104")), drawSide(t, draw("3900", "105"))
	cs := Analyze(a, b, testOverlay(a, b, Identity, 3), Options{})
	if len(cs) != 2 || findChange(cs, CategoryDimension, KindModified, "3600 → 3900") == nil ||
		findChange(cs, CategoryText, KindModified, "104 → 105") == nil {
		t.Fatalf("want the dimension and the room number:%s", describe(cs))
	}
}

func TestAnalyzeTitleBlockLabelLeft(t *testing.T) {
	// Regions only; the value's label stands to its left on its line.
	word := func(s string, x0, x1 float64) text.Word {
		return text.Word{Text: s, Box: ptBox(x0, 20, x1, 28), Line: 1, Conf: 0.9}
	}
	a := &Side{DPI: 300, BlockType: "TitleBlock", Words: []text.Word{word("REVISION", 10, 50), word("1", 90, 94)}}
	b := &Side{DPI: 300, BlockType: "TitleBlock", Words: []text.Word{word("REVISION", 10, 50), word("2", 90, 94)}}
	ov := &Overlay{Transform: Identity, Registered: true, Regions: []Region{{Bounds: ptBox(89, 19, 95, 29), Added: 60, Removed: 55}}}
	cs := Analyze(a, b, ov, Options{})
	if len(cs) != 1 || cs[0].Category != CategoryTitleBlock || cs[0].Description != "revision 1 → 2" || cs[0].Severity != SeverityMinor {
		t.Fatalf("want revision 1 → 2:%s", describe(cs))
	}
	if cs := Analyze(a, b, ov, Options{IgnoreText: true}); len(cs) != 0 {
		t.Errorf("IgnoreText: %s", describe(cs))
	}
}

// TestReadableWords: OCR's readings of outlined lettering and hatching
// ("z—=O:", a two-letter guess at 0.5) are not text; a text layer's words,
// confident OCR words and single confident digits (a revision mark) are.
func TestReadableWords(t *testing.T) {
	for _, c := range []struct {
		w    text.Word
		want bool
	}{
		{text.Word{Text: "z—=O:", Conf: 0.45}, false},
		{text.Word{Text: "z—=O:", Conf: 0.9}, false},
		{text.Word{Text: "LZ", Conf: 0.5}, false},
		{text.Word{Text: "OFFICE", Conf: 0.93}, true},
		{text.Word{Text: "2", Conf: 0.9}, true},
		{text.Word{Text: "12'-6\"", Conf: 0.85}, true},
		{text.Word{Text: "—", Conf: 1}, true},
		{text.Word{Text: "BENGKEL", Conf: 0}, true},
	} {
		if got := readable(c.w); got != c.want {
			t.Errorf("readable(%q at %.2f) = %v, want %v", c.w.Text, c.w.Conf, got, c.want)
		}
	}
}

// TestNearLabelLandmarks: linework is described near the nearest phrase a
// reader would know — a text layer's, or a recognised one read with
// confidence holding a word of four letters — not near OCR's fragments of
// outlined lettering ("ol", "TT", "Kon)") or a dimension.
func TestNearLabelLandmarks(t *testing.T) {
	at := func(x float64) geom.Box { return geom.Box{XMin: x, YMin: 100, XMax: x + 40, YMax: 120} }
	an := &analysis{dpi: 300, phrasesB: []phrase{
		{text: "ol", box: at(110), conf: 0.9},
		{text: "Kon)", box: at(120), conf: 0.95},
		{text: "TT", box: at(130), conf: 0.7},
		{text: "12'-6\"", box: at(140), conf: 1},
		{text: "STORE", box: at(160), conf: 0.6},
		{text: "Shed", box: at(200), conf: 0.9},
		{text: "UP", box: at(400), conf: 1},
	}}
	if got := an.nearLabel(at(100)); got != "Shed" {
		t.Errorf("near %q, want Shed", got)
	}
	an.labels = nil
	an.phrasesB = append(an.phrasesB, phrase{text: "WC", box: at(150), conf: 1})
	if got := an.nearLabel(at(100)); got != "WC" {
		t.Errorf("near %q, want the text layer's WC", got)
	}
}
