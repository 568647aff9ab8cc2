package ocr

import (
	"image"
	"image/draw"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A title drawn tight over the first row of its table, its last letters'
// word boxed down over the word under it (as Tesseract's sparse reading did
// on a scanned "ABBREVIATIONS" over "IN  inch"), is read again a line at a
// time: the title whole, the row's word its own.
func TestSplitStacked(t *testing.T) {
	const dpi = 300
	img, _, words := pageWords(t, 500, 200, dpi, []label{
		{s: "ABBREVIATIONS", x: 60, y: 60, size: 20, bold: true},
		{s: "IN", x: 170, y: 80, size: 7},
		{s: "inch", x: 230, y: 80, size: 7},
	}, false)
	title, in := words["ABBREVIATIONS"], words["IN"]
	// Tesseract's reading: "ABBREVIATIO" boxed from the title's top to the
	// bottom of "IN" below it, "NS" a word of its own, "inch" right.
	cut := title.XMin + 0.83*title.Width()
	ws := []text.Word{
		{Text: "ABBREVIATIO", Box: geom.Box{XMin: title.XMin, YMin: title.YMin, XMax: cut, YMax: in.YMax}, Line: 1, Conf: 0.9},
		{Text: "NS", Box: geom.Box{XMin: cut + 2, YMin: title.YMin, XMax: title.XMax, YMax: title.YMax}, Line: 2, Conf: 0.9},
		{Text: "inch", Box: words["inch"], Line: 3, Conf: 0.9},
	}
	got, n, err := splitStacked(img, dpi, ws, 3, Options{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, w := range got {
		texts = append(texts, w.Text)
	}
	if len(got) != 3 {
		t.Fatalf("words %q, want ABBREVIATIONS, IN, inch", texts)
	}
	w, ok := find(got, "ABBREVIATIONS")
	if !ok || !near(w.Box, title, 0.3*title.Height()) {
		t.Errorf("title read %q, want ABBREVIATIONS boxed %v", texts, title)
	}
	w2, ok := find(got, "IN")
	if !ok || !near(w2.Box, in, 0.5*in.Height()) {
		t.Errorf("row's word read %q, want IN boxed %v", texts, in)
	}
	if w.Line == w2.Line || n != 4 {
		t.Errorf("lines %d and %d of %d: the title and the row share a line", w.Line, w2.Line, n)
	}

	// A word boxed up over a label just above it, a few rows apart, is
	// read again when it stands 1.6 times as tall as its line's other words
	// (a plan's "PLAN" over its grid line's "A.3"): the line's own word
	// comes back, boxed as its line is.
	img3, _, words3 := pageWords(t, 500, 200, dpi, []label{
		{s: "A.3", x: 160, y: 69.2, size: 13},
		{s: "FLOOR PLAN", x: 60, y: 86, size: 20, bold: true},
	}, false)
	floor, plan, a3 := words3["FLOOR"], words3["PLAN"], words3["A.3"]
	tall := []text.Word{
		{Text: "FLOOR", Box: floor, Line: 1, Conf: 0.95},
		{Text: "PLAN", Box: geom.Box{XMin: plan.XMin, YMin: a3.YMin, XMax: plan.XMax, YMax: plan.YMax}, Line: 1, Conf: 0.95},
	}
	got3, _, err := splitStacked(img3, dpi, tall, 1, Options{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := find(got3, "PLAN"); !ok || !near(w.Box, plan, 0.3*plan.Height()) {
		t.Errorf("PLAN boxed over the label above it read %+v, want PLAN boxed %v", got3, plan)
	}

	// Words of one line, an i's dot over its stem included, are left alone.
	img2, _, words2 := pageWords(t, 400, 100, dpi, []label{
		{s: "minimum", x: 40, y: 50, size: 12},
		{s: "CEILING", x: 200, y: 50, size: 12},
	}, false)
	one := []text.Word{{Text: "minimum", Box: pad(words2["minimum"], 0.3), Line: 1}, {Text: "CEILING", Box: pad(words2["CEILING"], 0.3), Line: 1}}
	got2, _, err := splitStacked(img2, dpi, one, 1, Options{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(got2) != 2 || got2[0].Text != "minimum" || got2[1].Text != "CEILING" {
		t.Errorf("words of one line read again: %+v", got2)
	}
}

// A rule drawn across a word's box (the line under a title) is no line of
// text, and a box taller than it is wide (a stack of marks) is no word.
func TestStackedBands(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 300, 120))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	fill := func(x0, y0, x1, y1 int) {
		draw.Draw(img, image.Rect(x0, y0, x1, y1), image.Black, image.Point{}, draw.Src)
	}
	for x := 10; x < 290; x += 20 { // a title's letters
		fill(x, 10, x+12, 50)
	}
	fill(0, 62, 300, 64) // the rule under it
	fill(100, 80, 130, 100)
	top, bottom, ok := stackedBands(img, geom.Box{XMax: 300, YMax: 110}, 10, stackedMinGap)
	if !ok || top != (band{10, 50}) || bottom != (band{80, 100}) {
		t.Errorf("bands %v %v %v, want {10 50} {80 100}", top, bottom, ok)
	}
	if _, _, ok := stackedBands(img, geom.Box{XMax: 300, YMax: 66}, 10, stackedMinGap); ok {
		t.Error("a title over its rule taken for two lines")
	}
	if _, _, ok := stackedBands(img, geom.Box{XMin: 100, XMax: 130, YMin: 10, YMax: 110}, 10, stackedMinGap); ok {
		t.Error("a box taller than wide taken for a word of two lines")
	}
}

func pad(b geom.Box, f float64) geom.Box {
	d := f * b.Height()
	return geom.Box{XMin: b.XMin - d, YMin: b.YMin - d, XMax: b.XMax + d, YMax: b.YMax + d}
}

// Tag reads a legend's tag cut from its page as one word.
func TestTag(t *testing.T) {
	img, _, words := pageWords(t, 200, 60, 300, []label{{s: "RES-W", x: 40, y: 35, size: 9}}, false)
	for _, f := range []float64{0.2, 0.4, 0.6, 1} {
		b := pad(words["RES-W"], f)
		s, conf := Tag(img.SubImage(image.Rect(int(b.XMin), int(b.YMin), int(b.XMax), int(b.YMax))).(*image.Gray))
		if s != "RES-W" || conf < 0.6 {
			t.Errorf("pad %.1f: read %q (%.2f), want RES-W", f, s, conf)
		}
	}
	white := image.NewGray(image.Rect(0, 0, 40, 20))
	draw.Draw(white, white.Bounds(), image.White, image.Point{}, draw.Src)
	if s, _ := Tag(white); s != "" {
		t.Errorf("a blank crop read %q", s)
	}
}
