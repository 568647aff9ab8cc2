package ocr

import (
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A letter-size sheet (792 × 612 pt) with a title-block strip on the right.
var testLabels = []label{
	{"GENERAL NOTES", 50, 60, 14, true},
	{"VERIFY ALL FIELD CONDITIONS", 50, 80, 9, false},
	{"PANEL LP-2A", 300, 300, 9, false},
	{"LIGHTING PLAN", 600, 400, 14, true},
	{"SHEET NUMBER", 600, 440, 10, false},
	{"E201A", 600, 515, 36, true},
}

const testDPI = 300

func testPage(t *testing.T) (*image.Gray, map[string]geom.Box) {
	t.Helper()
	img, _, words := pageWords(t, 792, 612, testDPI, testLabels, true)
	return img, words
}

// tol is how far an OCR box may be from the drawn one: a few pixels plus
// the side bearings of large type.
func tol(b geom.Box) float64 { return 4 + 0.12*b.Height() }

func checkWords(t *testing.T, got []text.Word, want map[string]geom.Box, tolScale float64) {
	t.Helper()
	for s, b := range want {
		w, ok := find(got, s)
		if !ok {
			t.Errorf("word %q not found in %v", s, texts(got))
			continue
		}
		if !near(w.Box, b, tolScale*tol(b)) {
			t.Errorf("word %q at %+v, drawn at %+v", s, w.Box, b)
		}
		if w.Conf < DefaultMinConf || w.Conf > 1 {
			t.Errorf("word %q conf %v", s, w.Conf)
		}
	}
}

func texts(ws []text.Word) []string {
	var s []string
	for _, w := range ws {
		s = append(s, w.Text)
	}
	return s
}

func TestWords(t *testing.T) {
	img, want := testPage(t)
	got, err := Words(context.Background(), img, testDPI, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkWords(t, got, want, 1)

	// Lines: the words of a drawn line share a Line, different lines differ.
	line := func(s string) int { w, _ := find(got, s); return w.Line }
	if line("GENERAL") != line("NOTES") || line("SHEET") != line("NUMBER") {
		t.Errorf("words of one line numbered apart: %+v", got)
	}
	if line("GENERAL") == line("SHEET") || line("SHEET") == line("E201A") {
		t.Errorf("lines share a number: %+v", got)
	}
	var found bool
	for _, l := range text.Lines(got) {
		if strings.EqualFold(l.Text, "GENERAL NOTES") {
			found = true
		}
	}
	if !found {
		t.Errorf("text.Lines has no GENERAL NOTES line: %+v", text.Lines(got))
	}
	if Needed(got, img.Bounds().Dx(), img.Bounds().Dy()) {
		t.Errorf("Needed is true for the OCR result %v", texts(got))
	}
}

func TestWordsDownscaled(t *testing.T) {
	img, want := testPage(t)
	// 3300 × 2550 px = 8.4 MP, worked on at 3 MP (about 180 DPI).
	got, err := Words(context.Background(), img, testDPI, Options{MaxPixels: 3_000_000})
	if err != nil {
		t.Fatal(err)
	}
	big := map[string]geom.Box{}
	for _, s := range []string{"GENERAL", "NOTES", "LIGHTING", "E201A", "NUMBER"} {
		big[s] = want[s]
	}
	checkWords(t, got, big, 1.5)
}

func TestRegions(t *testing.T) {
	img, want := testPage(t)
	k := float64(testDPI) / 72
	// The title-block strip: right quarter, lower part of the sheet.
	strip := geom.Box{XMin: 594 * k, YMin: 385 * k, XMax: 792 * k, YMax: 612 * k}
	got, err := Regions(context.Background(), img, testDPI, []geom.Box{strip, {XMin: 10, YMin: 10, XMax: 10, YMax: 50}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb := map[string]geom.Box{}
	for _, s := range []string{"LIGHTING", "PLAN", "SHEET", "NUMBER", "E201A"} {
		tb[s] = want[s]
	}
	checkWords(t, got, tb, 1)
	for _, s := range []string{"GENERAL", "PANEL"} {
		if _, ok := find(got, s); ok {
			t.Errorf("%q is outside the region but was returned", s)
		}
	}

	// An input whose bounds do not start at 0,0: boxes are relative to
	// its Min, as for Words.
	off := image.Pt(int(560*k), int(300*k))
	sub := img.SubImage(image.Rectangle{Min: off, Max: img.Bounds().Max}).(*image.Gray)
	r := strip.Translate(-float64(off.X), -float64(off.Y))
	got2, err := Regions(context.Background(), sub, testDPI, []geom.Box{r, r}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := find(got2, "E201A")
	if !ok {
		t.Fatalf("E201A not found in sub-image: %v", texts(got2))
	}
	if wb := want["E201A"].Translate(-float64(off.X), -float64(off.Y)); !near(e.Box, wb, tol(wb)) {
		t.Errorf("E201A at %+v in sub-image, want %+v", e.Box, wb)
	}
	n := 0
	for _, w := range got2 {
		if strings.EqualFold(w.Text, e.Text) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("E201A returned %d times from two identical regions", n)
	}
}

func TestBlankAndLineWork(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 1200, 900))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.Gray{255}), image.Point{}, draw.Src)
	got, err := Words(context.Background(), img, 150, Options{})
	if err != nil || len(got) != 0 {
		t.Fatalf("blank image: %v, %v", got, err)
	}
	// Line work alone must not fail (Tesseract may read a few marks).
	for i := 0; i < 10; i++ {
		for x := 50; x < 1150; x++ {
			img.SetGray(x, 50+i*80, color.Gray{})
			img.SetGray(x, 51+i*80, color.Gray{})
		}
		for y := 50; y < 850; y++ {
			img.SetGray(50+i*110, y, color.Gray{})
		}
	}
	if _, err := Words(context.Background(), img, 150, Options{}); err != nil {
		t.Fatalf("line work: %v", err)
	}
}

func TestCancelled(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 100, 100))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Words(ctx, img, 300, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Words: %v", err)
	}
	if _, err := Regions(ctx, img, 300, []geom.Box{{XMax: 50, YMax: 50}}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Regions: %v", err)
	}
}

func TestNeeded(t *testing.T) {
	const w, h = 3000, 2000
	mk := func(ss ...string) []text.Word {
		var ws []text.Word
		for i, s := range ss {
			x := float64(100 + 50*i)
			ws = append(ws, text.Word{Text: s, Box: geom.Box{XMin: x, YMin: 100, XMax: x + 40, YMax: 120}, Line: 1, Conf: 1})
		}
		return ws
	}
	normal := mk("GENERAL", "NOTES", "1.", "ALL", "WORK", "SHALL", "COMPLY", "WITH", "NEC", "2020.", "SHEET", "E201A", "(E)", "12\"")
	cases := []struct {
		name  string
		words []text.Word
		want  bool
	}{
		{"empty", nil, true},
		{"normal", normal, false},
		{"few", mk("E201A", "LIGHTING", "PLAN"), true},
		{"garbage", mk("\ue001\ue002", "#$%", "\ufffd\ufffd\ufffd", "&*", "~~", "\x01\x02", "\ue010", "^^^", "$$", "@!", "NOTES", "E2"), true},
		{"mostly garbage", append(normal, mk("\ue001\ue002", "#$%", "\ufffd\ufffd", "&*", "~~", "\x01\x02", "\ue010", "^^^", "$$", "@!", "%%", "**", "++", "==", "||")...), true},
		{"off page", func() []text.Word {
			ws := mk("GENERAL", "NOTES", "1.", "ALL", "WORK", "SHALL", "COMPLY", "WITH", "NEC", "2020.", "SHEET")
			for i := range ws {
				ws[i].Box = ws[i].Box.Translate(5000, 0)
			}
			return ws
		}(), true},
	}
	for _, c := range cases {
		if got := Needed(c.words, w, h); got != c.want {
			t.Errorf("%s: Needed = %v, want %v", c.name, got, c.want)
		}
	}
}

// A word boxed narrower than an eighth of its height is a stroke read as
// lettering (a revision cell's divider read "J", 2 × 23 px on a half-size
// print), unless every character could be one stroke ("1", "I", "l").
func TestStrokeRead(t *testing.T) {
	for _, c := range []struct {
		s    string
		w, h int
		want bool
	}{
		{"J", 2, 23, true},
		{"A", 2, 23, true},
		{"1", 2, 23, false},
		{"I", 2, 23, false},
		{"l|", 2, 23, false},
		{"J", 9, 23, false},
		{"A1", 5, 46, true},
		{"A1", 12, 46, false},
	} {
		if got := strokeRead(c.s, c.w, c.h); got != c.want {
			t.Errorf("strokeRead(%q, %d×%d) = %v, want %v", c.s, c.w, c.h, got, c.want)
		}
	}
}
