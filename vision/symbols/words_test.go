package symbols

import (
	"context"
	"image"
	"math"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

// onWordScene draws the outlet twice: once on a word (its box, grown a
// little) and once free of it, larger and turned.
func onWordScene(t *testing.T) (tmpls []Template, p *prepared, img *image.Gray, onWord, free, word geom.Box) {
	t.Helper()
	tmpls = testTemplates()[1:2]
	p, reason := prepare(0, tmpls[0], Options{}, 0)
	if p == nil {
		t.Fatal(reason)
	}
	img = canvas(700, 300)
	onWord = place(img, p, 170, 150, 30, 1, false, 2)
	free = place(img, p, 500, 150, 75, 1.2, false, 2)
	word = geom.Box{XMin: onWord.XMin - 6, YMin: onWord.YMin - 4, XMax: onWord.XMax + 6, YMax: onWord.YMax + 4}
	return tmpls, p, img, onWord, free, word
}

// found tells whether a detection overlaps at with IoU 0.5 or more.
func found(res Result, at geom.Box) bool {
	for _, d := range res.Detections {
		if d.Box.IoU(at) >= 0.5 {
			return true
		}
	}
	return false
}

// TestTextlessSymbolsOnWords: of two instances of a symbol drawn without
// letters, the one on a word is text: it is neither refined nor detected
// when the template says it holds no text, and both are found when it may
// hold text; a word beside an instance (a tag overlapping its box's edge)
// does not hide it.
func TestTextlessSymbolsOnWords(t *testing.T) {
	tmpls, p, img, onWord, free, word := onWordScene(t)
	// a tag at the free instance's right edge, over a fifth of its box
	tag := geom.Box{XMin: free.XMax - free.Width()/5, YMin: free.YMin + 10, XMax: free.XMax + 40, YMax: free.YMax - 10}
	run := func(noText bool, words ...geom.Box) Result {
		t.Helper()
		tm := tmpls[0]
		tm.NoText = noText
		res, err := Match(context.Background(), img, []Template{tm}, Options{Words: words})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	base := run(false, word, tag)
	if !found(base, onWord) || !found(base, free) || len(base.Detections) != 2 || base.Stats.OnText != 0 {
		t.Fatalf("a symbol that may hold text: %d detections (%+v), %d on text; want both instances", len(base.Detections), base.Detections, base.Stats.OnText)
	}
	res := run(true, word, tag)
	if found(res, onWord) || !found(res, free) || len(res.Detections) != 1 {
		t.Fatalf("a textless symbol: %+v, want only the instance off the word", res.Detections)
	}
	if res.Stats.OnText == 0 || res.Stats.Candidates >= base.Stats.Candidates {
		t.Errorf("candidates on the word were refined: %d on text, %d candidates against %d", res.Stats.OnText, res.Stats.Candidates, base.Stats.Candidates)
	}
	// two words either side of the instance, a gap in the middle: the
	// candidate's middle is off them, the detection's box mostly on them
	gap := onWord.Width() * 0.3
	mid := (onWord.XMin + onWord.XMax) / 2
	left := geom.Box{XMin: onWord.XMin - 6, YMin: onWord.YMin - 4, XMax: mid - gap/2, YMax: onWord.YMax + 4}
	right := geom.Box{XMin: mid + gap/2, YMin: onWord.YMin - 4, XMax: onWord.XMax + 6, YMax: onWord.YMax + 4}
	none := run(true)
	if len(none.Detections) != 2 {
		t.Errorf("a textless symbol without words: %d detections, want 2", len(none.Detections))
	}
	// ... and its candidates are not refined: most of the ink around them
	// lies on the words
	between := run(true, left, right)
	if found(between, onWord) || !found(between, free) {
		t.Errorf("a textless symbol between two words: %+v, want only the instance off them", between.Detections)
	}
	if between.Stats.Candidates >= none.Stats.Candidates {
		t.Errorf("candidates between two words were refined: %d candidates, %d without words", between.Stats.Candidates, none.Stats.Candidates)
	}
	// a word on each of the two bars inside the instance (as a number
	// inside a keynote's outline that its legend graphic lacks): the
	// outline keeps most of the ink off words, and it is found
	img2 := canvas(300, 300)
	inst := place(img2, p, 150, 150, 0, 1, false, 2)
	tm := tmpls[0]
	tm.NoText = true
	var numbers []geom.Box
	for _, x := range []float64{138, 162} { // the bars, 12 px either side of the centre
		numbers = append(numbers, geom.Box{XMin: x - 4, YMin: 135, XMax: x + 4, YMax: 165})
	}
	res2, err := Match(context.Background(), img2, []Template{tm}, Options{Words: numbers})
	if err != nil {
		t.Fatal(err)
	}
	if !found(res2, inst) {
		t.Errorf("a textless symbol with words on its bars: %+v, want it found", res2.Detections)
	}
}

// TestSymbolsWithTextOnWords: a symbol whose legend graphic holds words
// (a third of its ink, say) is not refined where nearly all the ink
// around a candidate lies on the drawing's words — letters of a room name
// matched a pull station's square with an F — while an instance whose own
// words are on the plan's (its text inside its outline) is found; a
// graphic that is mostly text, or whose words are not known (a symbol
// supplied with a request), keeps every candidate.
func TestSymbolsWithTextOnWords(t *testing.T) {
	tmpls, _, img, onWord, free, word := onWordScene(t) // the outlet, as if its bars were letters
	// words on the free instance's two bars: its own text
	var own []geom.Box
	for _, d := range []float64{-12, 12} {
		x := 500 + d*1.2*math.Cos(75*math.Pi/180)
		y := 150 - d*1.2*math.Sin(75*math.Pi/180)
		own = append(own, geom.Box{XMin: x - 8, YMin: y - 8, XMax: x + 8, YMax: y + 8})
	}
	run := func(known bool, wordInk float64) Result {
		t.Helper()
		tm := tmpls[0]
		tm.WordsKnown, tm.WordInk = known, wordInk
		res, err := Match(context.Background(), img, []Template{tm}, Options{Words: append([]geom.Box{word}, own...)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(true, 0.3)
	if found(res, onWord) || !found(res, free) || res.Stats.OnText == 0 {
		t.Errorf("a third of the graphic's ink in words: %+v, %d candidates on text; want only the instance off the word", res.Detections, res.Stats.OnText)
	}
	for _, c := range []struct {
		known bool
		ink   float64
	}{{false, 0}, {true, 0.6}} {
		res := run(c.known, c.ink)
		if !found(res, onWord) || !found(res, free) || res.Stats.OnText != 0 {
			t.Errorf("words known %v, %.1f of the graphic's ink in words: %+v, %d on text; want both instances", c.known, c.ink, res.Detections, res.Stats.OnText)
		}
	}
	for _, c := range []struct {
		t    Template
		want float64
	}{
		{Template{NoText: true}, TextInk},
		{Template{NoText: true, WordsKnown: true}, TextInk},
		{Template{WordsKnown: true}, TextInk},
		{Template{WordsKnown: true, WordInk: 1.0 / 3}, 0.8},
		{Template{WordsKnown: true, WordInk: 0.6}, 0},
		{Template{WordInk: 0.2}, 0},
	} {
		if got := textInkFor(c.t); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("textInkFor(%+v) = %.3f, want %.3f", c.t, got, c.want)
		}
	}
}

// TestTextCover: the share of a box that words cover, each word counted
// once however many of the index's cells it spans.
func TestTextCover(t *testing.T) {
	ix := newTextIndex([]geom.Box{
		{XMin: 200, YMin: 240, XMax: 600, YMax: 280}, // across three cells in x, two in y
		{XMin: 700, YMin: 10, XMax: 720, YMax: 30},
	})
	for _, c := range []struct {
		b    geom.Box
		want float64
	}{
		{geom.Box{XMin: 250, YMin: 250, XMax: 550, YMax: 270}, 1},   // inside the long word
		{geom.Box{XMin: 500, YMin: 200, XMax: 700, YMax: 300}, 0.2}, // 100×40 of 200×100
		{geom.Box{XMin: 690, YMin: 0, XMax: 730, YMax: 40}, 0.25},
		{geom.Box{XMin: 0, YMin: 0, XMax: 100, YMax: 100}, 0},
	} {
		if got := ix.cover(c.b); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("cover of %v: %.3f, want %.3f", c.b, got, c.want)
		}
	}
	if got := (*textIndex)(nil).cover(geom.Box{XMax: 10, YMax: 10}); got != 0 {
		t.Errorf("no words cover %.2f", got)
	}
	if !ix.onText(400, 260, 30) || ix.onText(400, 300, 30) {
		t.Error("onText: a candidate inside the word is off it, or one below it on it")
	}
	// at half resolution the first word covers pixels 100–299 × 120–139
	// and the second 350–359 × 5–14
	const w, h = 400, 200
	mask := ix.mask(w, h, 0.5)
	lv := newF(w, h)
	for x := 90; x < 110; x++ { // a row of ink half on the word
		lv.p[130*w+x] = 1
	}
	lv.p[150*w+100] = 0.5 // and a faint pixel off it
	if !mask[120*w+100] || !mask[139*w+299] || mask[140*w+100] || mask[120*w+99] || !mask[5*w+350] || mask[15*w+350] {
		t.Error("mask: the words' pixels at half resolution are wrong")
	}
	if got := inkOnWords(lv, mask, 100, 140, 20); math.Abs(got-10/20.5) > 1e-9 {
		t.Errorf("inkOnWords: %.4f, want %.4f", got, 10/20.5)
	}
	if got := inkOnWords(lv, mask, 300, 50, 10); got != 0 {
		t.Errorf("inkOnWords without ink: %.2f", got)
	}
}
