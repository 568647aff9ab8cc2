package legend

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// TestSynthLegends parses the Legend blocks of synthetic sheets, found by
// layout.Segment on 300 DPI renders with the PDF text layer, and checks
// them against the generator's truth: entries with the right label,
// description and has_graphic ≥ 98%, graphic boxes IoU ≥ 0.8, exemplars
// non-blank and tight.
func TestSynthLegends(t *testing.T) {
	seeds := []int64{1, 2, 3, 4, 5, 6}
	if testing.Short() {
		seeds = seeds[:2]
	}
	if n, _ := strconv.Atoi(os.Getenv("PLANGRAPH_LEGEND_SEEDS")); n > 0 { // a longer run
		seeds = nil
		for s := int64(1); s <= int64(n); s++ {
			seeds = append(seeds, 100+s)
		}
	}
	debug := os.Getenv("PLANGRAPH_LEGEND_DEBUG") // folder for debug PNGs
	var right, total, graphics, goodBox, extra int
	for _, seed := range seeds {
		for _, c := range synthLegends(t, seed, 3) {
			got := Parse(c.img, c.words)
			want := wantOf(c.want)
			r, n := MatchEntries(got, want)
			right += r
			total += n
			extra += max(len(got)-n, 0)
			if r < n || len(got) != n {
				t.Logf("%s: %d/%d right, %d found", c.name, r, n, len(got))
				for _, e := range got {
					t.Logf("   got  %q %q g=%v %v", e.Label, e.Description, e.HasGraphic, e.Graphic)
				}
				for _, e := range want {
					t.Logf("   want %q %q g=%v %v", e.Label, e.Description, e.HasGraphic, e.Graphic)
				}
			}
			for _, w := range want {
				if !w.HasGraphic {
					continue
				}
				graphics++
				e, iou := bestGraphic(got, w.Graphic)
				if iou >= 0.8 {
					goodBox++
				} else {
					t.Logf("%s %q: graphic IoU %.2f (got %v want %v)", c.name, w.Label, iou, e.Graphic, w.Graphic)
				}
				if e.HasGraphic {
					checkExemplar(t, c.name+" "+w.Label, e)
				}
			}
			if debug != "" {
				writeDebug(t, filepath.Join(debug, c.name+".png"), c.img, got)
			}
		}
	}
	acc := float64(right) / float64(max(total, 1))
	boxAcc := float64(goodBox) / float64(max(graphics, 1))
	t.Logf("synthetic legends: %d/%d entries right (%.1f%%), %d extra; graphic IoU ≥ 0.8: %d/%d (%.1f%%)",
		right, total, 100*acc, extra, goodBox, graphics, 100*boxAcc)
	if acc < 0.98 {
		t.Errorf("entries right %.1f%% < 98%%", 100*acc)
	}
	if boxAcc < 0.98 {
		t.Errorf("graphic boxes with IoU ≥ 0.8: %.1f%% < 98%%", 100*boxAcc)
	}
	if extra > total/50 {
		t.Errorf("%d entries found that are not in the legends", extra)
	}
}

func wantOf(es []synth.LegendEntryTruth) []WantEntry {
	var out []WantEntry
	for _, e := range es {
		w := WantEntry{Label: e.Label, Description: e.Description, HasGraphic: e.HasGraphic}
		if e.GraphicBox != nil {
			w.Graphic = *e.GraphicBox
		}
		out = append(out, w)
	}
	return out
}

// bestGraphic is the found entry whose graphic best overlaps b.
func bestGraphic(got []Entry, b geom.Box) (Entry, float64) {
	var best Entry
	bi := 0.0
	for _, e := range got {
		if iou := e.Graphic.IoU(b); e.HasGraphic && iou > bi {
			best, bi = e, iou
		}
	}
	return best, bi
}

// checkExemplar: the exemplar has the graphic's size, has ink, and ink
// reaches all four edges (tight).
func checkExemplar(t *testing.T, name string, e Entry) {
	t.Helper()
	x := e.Exemplar
	if x == nil {
		t.Errorf("%s: no exemplar", name)
		return
	}
	b := x.Bounds()
	if b.Dx() != int(e.Graphic.Width()) || b.Dy() != int(e.Graphic.Height()) {
		t.Errorf("%s: exemplar %v, graphic box %v", name, b, e.Graphic)
	}
	edges := [4]bool{}
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x0 := b.Min.X; x0 < b.Max.X; x0++ {
			if x.GrayAt(x0, y).Y < inkLevel {
				ink++
				edges[0] = edges[0] || x0 == b.Min.X
				edges[1] = edges[1] || x0 == b.Max.X-1
				edges[2] = edges[2] || y == b.Min.Y
				edges[3] = edges[3] || y == b.Max.Y-1
			}
		}
	}
	if ink == 0 || edges != [4]bool{true, true, true, true} {
		t.Errorf("%s: exemplar blank or not tight (ink %d, edges %v)", name, ink, edges)
	}
}

// writeDebug draws the found entries over the block: graphic boxes dark,
// entry boxes light.
func writeDebug(t *testing.T, path string, img *image.Gray, es []Entry) {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			v := img.Pix[y*img.Stride+x]
			i := out.PixOffset(x, y)
			out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = v, v, v, 255
		}
	}
	rect := func(g geom.Box, r, gg, bb uint8) {
		set := func(x, y int) {
			if x >= 0 && y >= 0 && x < b.Dx() && y < b.Dy() {
				i := out.PixOffset(x, y)
				out.Pix[i], out.Pix[i+1], out.Pix[i+2] = r, gg, bb
			}
		}
		for x := int(g.XMin); x <= int(g.XMax); x++ {
			set(x, int(g.YMin))
			set(x, int(g.YMax))
		}
		for y := int(g.YMin); y <= int(g.YMax); y++ {
			set(int(g.XMin), y)
			set(int(g.XMax), y)
		}
	}
	for _, e := range es {
		rect(e.Box, 0, 160, 255)
		if e.HasGraphic {
			rect(e.Graphic, 255, 0, 0)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, out); err != nil {
		t.Fatal(err)
	}
	for i, e := range es {
		if e.Exemplar != nil {
			ef, err := os.Create(fmt.Sprintf("%s-ex%02d.png", path[:len(path)-4], i))
			if err == nil {
				_ = png.Encode(ef, e.Exemplar)
				ef.Close()
			}
		}
	}
}

// TestDegenerate: no image, a blank block, words without ink and ink
// without words give no entries and no panic.
func TestDegenerate(t *testing.T) {
	if got := Parse(nil, nil); got != nil {
		t.Errorf("nil image: %v", got)
	}
	blank := image.NewGray(image.Rect(0, 0, 200, 100))
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	if got := Parse(blank, nil); len(got) != 0 {
		t.Errorf("blank: %v", got)
	}
	// a lone word (a note) is not an entry
	words := []text.Word{{Text: "NOTE", Box: geom.Box{XMin: 10, YMin: 10, XMax: 60, YMax: 30}}}
	if got := Parse(blank, words); len(got) != 0 {
		t.Errorf("lone word: %v", got)
	}
	// a square with no text beside it is not an entry either
	for y := 40; y < 70; y++ {
		for x := 100; x < 130; x++ {
			if y == 40 || y == 69 || x == 100 || x == 129 {
				blank.Pix[y*blank.Stride+x] = 0
			}
		}
	}
	if got := Parse(blank, nil); len(got) != 0 {
		t.Errorf("graphic without text: %v", got)
	}
	// with a description beside it, it is; the sub-image origin is honoured
	words = append(words, text.Word{Text: "SQUARE", Box: geom.Box{XMin: 140, YMin: 45, XMax: 190, YMax: 65}})
	got := Parse(blank.SubImage(image.Rect(0, 0, 200, 100)).(*image.Gray), words)
	if len(got) != 1 || got[0].Label != "SQUARE" || !got[0].HasGraphic || got[0].Graphic != (geom.Box{XMin: 100, YMin: 40, XMax: 130, YMax: 70}) {
		t.Fatalf("square: %+v", got)
	}
	checkExemplar(t, "square", got[0])
}

// A symbol OCR read as a character without letters ("©") or with low
// confidence stays a graphic: the word over it is noise, not the entry's
// label.
func TestOCRNoiseOverAGraphic(t *testing.T) {
	for _, noise := range []text.Word{
		{Text: "©", Conf: 0.8, Box: geom.Box{XMin: 100, YMin: 40, XMax: 130, YMax: 70}},
		{Text: "Hee", Conf: 0.45, Box: geom.Box{XMin: 100, YMin: 40, XMax: 130, YMax: 70}},
	} {
		img := image.NewGray(image.Rect(0, 0, 200, 100))
		for i := range img.Pix {
			img.Pix[i] = 255
		}
		for y := 40; y < 70; y++ {
			for x := 100; x < 130; x++ {
				if y == 40 || y == 69 || x == 100 || x == 129 || x-100 == y-40 {
					img.Pix[y*img.Stride+x] = 0
				}
			}
		}
		words := []text.Word{noise, {Text: "GEYSER", Conf: 0.93, Box: geom.Box{XMin: 140, YMin: 45, XMax: 190, YMax: 65}}}
		got := Parse(img, words)
		if len(got) != 1 || got[0].Label != "GEYSER" || !got[0].HasGraphic {
			t.Errorf("%q: %+v", noise.Text, got)
		}
	}
}

// Filled symbols OCR read as digits with high confidence (a row of switch
// glyphs read "666") stay graphics: letters are strokes, not solid shapes.
// An "&" in a description is a word.
func TestSolidGlyphsReadAsText(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 260, 100))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for _, cx := range []int{20, 45, 70} {
		for y := 35; y < 75; y++ {
			for x := cx - 10; x <= cx+10; x++ {
				if dx, dy := x-cx, y-62; dx*dx+dy*dy <= 81 || (x-cx >= 3 && x-cx <= 5 && y < 55 && y-35 >= (x-cx)-3) {
					img.Pix[y*img.Stride+x] = 0
				}
			}
		}
	}
	words := []text.Word{
		{Text: "666", Conf: 0.95, Line: 1, Box: geom.Box{XMin: 10, YMin: 35, XMax: 80, YMax: 72}},
		{Text: "SWITCH", Conf: 0.95, Line: 2, Box: geom.Box{XMin: 110, YMin: 45, XMax: 170, YMax: 65}},
		{Text: "&", Conf: 0.92, Line: 2, Box: geom.Box{XMin: 178, YMin: 45, XMax: 188, YMax: 65}},
		{Text: "FAN", Conf: 0.95, Line: 2, Box: geom.Box{XMin: 196, YMin: 45, XMax: 226, YMax: 65}},
	}
	got := Parse(img, words)
	if len(got) != 1 || got[0].Label != "SWITCH & FAN" || !got[0].HasGraphic {
		t.Errorf("%+v", got)
	}
}

// An abbreviation list set "TERM = meaning", three to a row, gives one
// entry per term, each boxed by its own words.
func TestAbbreviationList(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 900, 120))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	var words []text.Word
	put := func(line int, x, y float64, s string) {
		for _, w := range strings.Fields(s) {
			wd := float64(len([]rune(w))) * 9
			words = append(words, text.Word{Text: w, Line: line, Conf: 1, Box: geom.Box{XMin: x, YMin: y, XMax: x + wd, YMax: y + 15}})
			x += wd + 6
		}
	}
	put(1, 10, 20, "AK = Außenkante")
	put(1, 310, 20, "FFB = Fertigfußboden")
	put(1, 610, 20, "RFB = Rohfußboden")
	put(2, 10, 50, "BA = Bodenaussparung")
	put(2, 310, 50, "GK-Wand = Gipskartonständerwand")
	put(2, 610, 50, "RH = Rohrhülse")
	got := Parse(img, words)
	want := map[string]string{"AK": "Außenkante", "FFB": "Fertigfußboden", "RFB": "Rohfußboden", "BA": "Bodenaussparung",
		"GK-Wand": "Gipskartonständerwand", "RH": "Rohrhülse"}
	if len(got) != len(want) {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for _, e := range got {
		if want[e.Label] != e.Description || e.HasGraphic || e.Box.Width() > 290 {
			t.Errorf("entry %+v", e)
		}
	}
}

// Symbols in consecutive rows of a ruled table, nearer each other than a
// graphic's parts are, are two graphics: the row rule parts them.
func TestRowRulePartsSymbols(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 400, 140))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	set := func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	// the table: border, a column rule, row rules every 40 px
	set(10, 10, 390, 12)
	set(10, 128, 390, 130)
	set(10, 10, 12, 130)
	set(388, 10, 390, 130)
	set(80, 10, 82, 130)
	set(10, 49, 390, 50)
	set(10, 89, 390, 90)
	// a symbol in each row, 34 px tall: 4 px from the rule either side
	for _, y := range []int{13, 53, 93} {
		set(30, y+1, 60, y+2)
		set(30, y+33, 60, y+34)
		set(30, y+1, 31, y+34)
		set(59, y+1, 60, y+34)
		set(30+(y/10), y+5, 32+(y/10), y+30) // each its own mark
	}
	var words []text.Word
	for i, d := range []string{"EXHAUST", "SUPPLY", "RETURN"} {
		y := float64(22 + 40*i)
		words = append(words, text.Word{Text: d, Conf: 1, Line: i, Box: geom.Box{XMin: 100, YMin: y, XMax: 100 + 9*float64(len(d)), YMax: y + 16}})
	}
	got := Parse(img, words)
	if len(got) != 3 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for i, e := range got {
		if !e.HasGraphic || e.Graphic.Height() > 36 {
			t.Errorf("entry %d %q: graphic %v", i, e.Label, e.Graphic)
		}
	}
}

// A legend whose graphics stand right of their text, two entries to a row,
// one of them text only: each graphic goes with the text before it.
func TestGraphicsRightOfTheirText(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 700, 140))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	square := func(x, y int) {
		for yy := y; yy < y+24; yy++ {
			for xx := x; xx < x+24; xx++ {
				if yy == y || yy == y+23 || xx == x || xx == x+23 || xx-x == yy-y {
					img.Pix[yy*img.Stride+xx] = 0
				}
			}
		}
	}
	var words []text.Word
	put := func(line int, x, y float64, s string) {
		words = append(words, text.Word{Text: s, Line: line, Conf: 1, Box: geom.Box{XMin: x, YMin: y, XMax: x + 9*float64(len(s)), YMax: y + 16}})
	}
	// column 1: label at 10, description at 60, graphic at 250; column 2 from 350
	rows := []struct{ l1, d1, l2, d2 string }{{"AF", "TERMINAL", "DD", "ROOF ENTRY"}, {"V4A", "STAINLESS", "TS", "TEST JOINT"}, {"E", "EARTHING", "FS", "ROD"}}
	for i, r := range rows {
		y := 20 + 40*i
		put(2*i, 10, float64(y+4), r.l1)
		put(2*i, 60, float64(y+4), r.d1)
		if r.l1 != "V4A" { // a text-only entry
			square(250, y)
		}
		put(2*i+1, 350, float64(y+4), r.l2)
		put(2*i+1, 400, float64(y+4), r.d2)
		square(600, y)
	}
	got := map[string]Entry{}
	for _, e := range Parse(img, words) {
		got[e.Label] = e
	}
	for _, r := range rows {
		for _, c := range []struct {
			l, d string
			x    float64
		}{{r.l1, r.d1, 250}, {r.l2, r.d2, 600}} {
			e, ok := got[c.l]
			switch {
			case !ok || e.Description != c.d:
				t.Errorf("%s: %+v", c.l, e)
			case c.l == "V4A" && e.HasGraphic:
				t.Errorf("V4A has a graphic: %v", e.Graphic)
			case c.l != "V4A" && (!e.HasGraphic || e.Graphic.XMin != c.x):
				t.Errorf("%s: graphic %v, want at x %g", c.l, e.Graphic, c.x)
			}
		}
	}
}
