package legend

import (
	"image"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// finishWords sets a line of words 20 px high from (x, y), 12 px a letter.
func finishWords(words *[]text.Word, x, y int, s string, conf float64) {
	for _, f := range strings.Fields(s) {
		w := 12 * len(f)
		*words = append(*words, text.Word{Text: f, Conf: conf, Box: geom.Box{XMin: float64(x), YMin: float64(y), XMax: float64(x + w), YMax: float64(y + 20)}})
		x += w + 8
	}
}

// tagLegend draws a finish legend as a scan reads it: a wall-protection
// sample across the top row (its line from the tag column on), then a
// column of tags against materials, the tag of "SOLID SURFACE" drawn but
// not read (ink, no word) and "P" read as a lone character.
func tagLegend() (*image.Gray, []text.Word) {
	img := blankImage(700, 330)
	set := func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.Pix[y*img.Stride+x] = 0
			}
		}
	}
	set(10, 28, 200, 32) // the sample: a thick line with ticks
	for x := 10; x < 200; x += 30 {
		set(x, 20, x+3, 40)
	}
	var words []text.Word
	line := func(x, y int, s string, conf float64) { finishWords(&words, x, y, s, conf) }
	line(260, 20, "WALL PROTECTION", 0.95)
	rows := [][2]string{{"ACT", "ACOUSTICAL CEILING"}, {"CT", "CERAMIC TILE"}, {"P", "PAINT"}, {"RB", "RESILIENT BASE"}, {"SS", "SOLID SURFACE"}, {"WSF", "WELDED SEAM FLOORING"}}
	for i, r := range rows {
		y := 70 + 40*i
		switch r[0] {
		case "SS": // two strokes of ink where the tag is
			set(20, y, 29, y+20)
			set(33, y, 42, y+20)
		case "P":
			line(20, y, "P", 0.9)
		default:
			line(20, y, r[0], 0.95)
		}
		line(120, y, r[1], 0.95)
	}
	return img, words
}

// A tag the page's OCR left unread is read again where it stands, in the
// column of tags: its entry is text, its label the reading in the column's
// capitals; a lone character read there is a tag too, not a symbol.
func TestUnreadTagReadAgain(t *testing.T) {
	img, words := tagLegend()
	var asked []image.Rectangle
	read := func(c *image.Gray) (string, float64) {
		asked = append(asked, c.Bounds())
		return "Ss", 0.65
	}
	got := ParseWith(img, words, Options{ReadTag: read})
	byDesc := map[string]Entry{}
	for _, e := range got {
		byDesc[e.Description] = e
	}
	if e := byDesc["SOLID SURFACE"]; e.Label != "SS" || e.HasGraphic {
		t.Errorf("SOLID SURFACE entry %+v, want the tag SS read again, text only (read %v)", e, asked)
	}
	if e := byDesc["PAINT"]; e.Label != "P" || e.HasGraphic {
		t.Errorf("PAINT entry %+v, want the tag P, text only", e)
	}
	if len(asked) != 1 {
		t.Errorf("read again %v, want only the unread tag", asked)
	}
	if e := byDesc["WALL PROTECTION"]; !e.HasGraphic {
		t.Errorf("WALL PROTECTION entry %+v, want its sample", e)
	}
	// without a reader, the unread tag stays what it was: a graphic
	for _, e := range Parse(img, words) {
		if e.Description == "SOLID SURFACE" && !e.HasGraphic {
			t.Errorf("without ReadTag: %+v", e)
		}
	}
}

// OCR reads a lone capital in a column of tags as itself twice: a tag of
// one piece of ink read "Pp" by the page, or "Ss" when read again, is one
// letter; two pieces read "SS" stay two (TestUnreadTagReadAgain).
func TestOneGlyphReadTwice(t *testing.T) {
	img := blankImage(700, 300)
	glyph := func(x, y int) { // one piece: an S-like zigzag, 10 × 20 px
		for _, yy := range []int{y, y + 9, y + 18} {
			for xx := x; xx < x+10; xx++ {
				img.Pix[yy*img.Stride+xx], img.Pix[(yy+1)*img.Stride+xx] = 0, 0
			}
		}
		for yy := y; yy < y+10; yy++ {
			img.Pix[yy*img.Stride+x] = 0
		}
		for yy := y + 9; yy < y+20; yy++ {
			img.Pix[yy*img.Stride+x+9] = 0
		}
	}
	var words []text.Word
	line := func(x, y int, s string, conf float64) { finishWords(&words, x, y, s, conf) }
	rows := [][2]string{{"ACT", "ACOUSTICAL CEILING"}, {"CT", "CERAMIC TILE"}, {"P", "PAINT"}, {"RB", "RESILIENT BASE"}, {"S", "SOLID SURFACE"}, {"WSF", "WELDED SEAM FLOORING"}}
	for i, r := range rows {
		y := 20 + 40*i
		switch r[0] {
		case "P": // read by the page, doubled and unsure
			glyph(20, y)
			words = append(words, text.Word{Text: "Pp", Conf: 0.55, Box: geom.Box{XMin: 19, YMin: float64(y), XMax: 31, YMax: float64(y + 20)}})
		case "S": // not read by the page
			glyph(20, y)
		default:
			line(20, y, r[0], 0.95)
		}
		line(120, y, r[1], 0.95)
	}
	got := ParseWith(img, words, Options{ReadTag: func(*image.Gray) (string, float64) { return "Ss", 0.9 }})
	byDesc := map[string]string{}
	for _, e := range got {
		byDesc[e.Description] = e.Label
	}
	if byDesc["PAINT"] != "P" || byDesc["SOLID SURFACE"] != "S" {
		t.Errorf("labels %v, want P for PAINT and S for SOLID SURFACE", byDesc)
	}
}
