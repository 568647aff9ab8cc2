package legend

import (
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// tagRows draws a column of boxes, each with its tag inside and its
// description beside, and parses it.
func tagRows(t *testing.T, rows [][2]string) []Entry {
	t.Helper()
	img := blankImage(600, 40+50*len(rows))
	var words []text.Word
	for i, r := range rows {
		y := 20 + 50*i
		drawRect(img, 10, y, 60, y+30)
		words = append(words, text.Word{Text: r[0], Conf: 1, Box: geom.Box{XMin: 22, YMin: float64(y + 7), XMax: float64(22 + 9*len(r[0])), YMax: float64(y + 23)}})
		putWords(&words, 90, float64(y+7), 15, r[1])
	}
	inkWords(img, words)
	return Parse(img, words)
}

// A wall-types table tags its triangles (boxes here) TB, W3, W4: a tag
// with digits names its entry as the letters inside the same graphic
// above it name theirs. A column of tags that all hold digits (door tags
// 101, 102: sample numbers) names nothing.
func TestNumberedTagsNamedAsTheirKind(t *testing.T) {
	got := tagRows(t, [][2]string{{"TB", "Tasblock wall system"}, {"W3", "Tasblock infill column"}, {"W4", "Ceramic wall tiles"}})
	if len(got) != 3 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for i, want := range []string{"TB", "W3", "W4"} {
		if got[i].Label != want {
			t.Errorf("entry %d: label %q (%q), want %q", i, got[i].Label, got[i].Description, want)
		}
	}
	got = tagRows(t, [][2]string{{"101", "Door see door schedule"}, {"B10", "Window see window schedule"}})
	if len(got) != 2 || got[0].Label != "Door see door schedule" || got[1].Label != "Window see window schedule" {
		t.Errorf("sample numbers: %+v, want the descriptions as labels", got)
	}
}

// A filled triangle whose code the text layer holds inside it, drawn in
// the fill's colour (tb-lktn's SWS), shows no code: the entry is named by
// its description, and the triangle is its graphic.
func TestUnseenWordNamesNothing(t *testing.T) {
	img := blankImage(500, 80)
	for y := 20; y < 56; y++ { // a triangle pointing down, 40 px wide at its top
		half := (56 - y) * 20 / 36
		for x := 40 - half; x <= 40+half; x++ {
			img.Pix[y*img.Stride+x] = 0
		}
	}
	words := []text.Word{{Text: "SWS", Conf: 1, Box: geom.Box{XMin: 28, YMin: 21, XMax: 52, YMax: 37}}}
	putWords(&words, 90, 25, 15, "Single wall system")
	inkWords(img, words[1:])
	got := Parse(img, words)
	if len(got) != 1 || got[0].Label != "Single wall system" || !got[0].HasGraphic {
		t.Errorf("%+v, want one entry named by its description, with the triangle", got)
	}
}

// A tag set at its symbol's foot, in the symbol's cell (a corner guard's
// "CG" lower left of its L mark), reads a little lower than the symbol's
// row where OCR boxes the words tight to their ink: it still names the
// entry, as it does where a text layer's taller boxes put it on the row.
func TestTagAtSymbolFoot(t *testing.T) {
	img := blankImage(900, 360)
	var words []text.Word
	for i, desc := range []string{"CORNER GUARD", "WALL BUMPER", "HAND RAIL"} {
		y := 20 + 110*i
		for x := 150; x < 850; x++ { // the row rules
			img.Pix[(y-10)*img.Stride+x-140] = 0
		}
		switch i {
		case 0: // an L: its stem, then its foot
			for yy := y + 10; yy < y+57; yy++ {
				img.Pix[yy*img.Stride+150], img.Pix[yy*img.Stride+151] = 0, 0
			}
			for x := 150; x < 197; x++ {
				img.Pix[(y+55)*img.Stride+x], img.Pix[(y+56)*img.Stride+x] = 0, 0
			}
			putWords(&words, 80, float64(y+58), 29, "CG") // its foot's height
		default:
			drawRect(img, 150, y+10, 197, y+57)
		}
		putWords(&words, 420, float64(y+34), 29, desc)
	}
	inkWords(img, words)
	got := Parse(img, words)
	if len(got) != 3 || got[0].Label != "CG" || got[0].Description != "CORNER GUARD" || !got[0].HasGraphic {
		t.Errorf("want CG | CORNER GUARD with its graphic, then two more: %+v", got)
	}
}
