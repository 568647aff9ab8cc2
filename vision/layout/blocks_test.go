package layout

import (
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// A short block of notes (a heading and two lines) is bounded by its ink,
// as a reader draws it, not by a margin of a line height all round: the
// margin that suits a large view would cost a small block a quarter of
// its IoU.
func TestSmallBlockMargin(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 10, 10, 1190, 790, 3)  // border
	fillRect(img, 1000, 10, 1003, 790)      // title-block separator
	fillRect(img, 1020, 720, 1150, 760)     // "sheet number"
	rectOutline(img, 100, 100, 700, 600, 2) // a plan's outline
	for y := 150; y < 600; y += 50 {
		fillRect(img, 100, y, 700, y+2)
	}
	words := []text.Word{{Text: "A-101", Box: geom.Box{XMin: 1020, YMin: 720, XMax: 1150, YMax: 760}, Line: 1}}
	line := func(n int, x, y, h float64, s string) { words = drawWords(img, words, n, x, y, h, s) }
	line(2, 780, 100, 14, "FIRE NOTES")
	line(3, 780, 124, 10, "ALL BUILDING TO BE IN ACCORDANCE")
	line(4, 780, 140, 10, "WITH THE REGULATIONS.")
	ink := geom.Box{XMin: 780, YMin: 100, XMax: 780 + 0.7*10*float64(len("ACCORDANCE")) + 6*0.5*10 + 0.7*10*float64(len("ALLBUILDINGTOBEIN")), YMax: 150}
	for _, b := range Segment(img, words, words[0].Box) {
		if b.Type != "GeneralNotes" {
			continue
		}
		if iou := b.Box.IoU(ink); iou < 0.8 {
			t.Errorf("notes block %v, ink %v: IoU %.2f, want ≥ 0.8", fmtBox(b.Box), fmtBox(ink), iou)
		}
		return
	}
	t.Errorf("no notes block")
}

// drawWords draws s at (x, y) in type h high, each letter a stem, and
// returns words with s's words added on line n.
func drawWords(img *image.Gray, words []text.Word, n int, x, y, h float64, s string) []text.Word {
	for _, w := range strings.Fields(s) {
		wd := float64(len(w)) * 0.7 * h
		words = append(words, text.Word{Text: w, Line: n, Box: geom.Box{XMin: x, YMin: y, XMax: x + wd, YMax: y + h}})
		for lx := x; lx+2 < x+wd; lx += 0.35 * h { // letters' stems
			fillRect(img, int(lx), int(y), int(lx)+2, int(y+h))
		}
		x += wd + 0.5*h
	}
	return words
}

// A column of notes set a few line heights beside a titled view, level
// with it, is a block of its own: a body of text is no fragment of a drawn
// view, whatever the gap.
func TestNotesBesideAView(t *testing.T) {
	img := blank(1200, 800)
	rectOutline(img, 10, 10, 1190, 790, 3) // border
	fillRect(img, 1000, 10, 1003, 790)     // title-block separator
	words := drawWords(img, nil, 1, 1020, 720, 40, "A101")
	// the view: a building outline with walls, and its title and scale
	fillRect(img, 100, 100, 400, 103) // walls, with door openings
	fillRect(img, 440, 100, 600, 103)
	fillRect(img, 100, 100, 103, 500)
	fillRect(img, 597, 100, 600, 250)
	fillRect(img, 597, 290, 600, 500)
	fillRect(img, 100, 497, 250, 500)
	fillRect(img, 290, 497, 600, 500)
	fillRect(img, 300, 100, 303, 260)
	fillRect(img, 300, 300, 303, 500)
	fillRect(img, 100, 300, 600, 303)
	for x := 120; x < 600; x += 60 { // dimension ticks over it
		fillRect(img, x, 80, x+2, 90)
	}
	fillRect(img, 100, 84, 600, 86)
	words = drawWords(img, words, 2, 100, 540, 16, "GROUND FLOOR PLAN")
	words = drawWords(img, words, 3, 100, 562, 10, "SCALE 1:100")
	// notes 4 type heights right of the view, level with it
	words = drawWords(img, words, 4, 645, 200, 10, "1. ALL WORK TO COMPLY")
	for i := 0; i < 10; i++ {
		words = drawWords(img, words, 5+i, 645, 216+16*float64(i), 10, "WITH THE REGULATIONS")
	}
	var got []string
	for _, b := range Segment(img, words, words[0].Box) {
		if b.Type != "TitleBlock" {
			got = append(got, b.Type)
		}
	}
	if fmt.Sprint(got) != "[Plan GeneralNotes]" {
		t.Errorf("blocks %v, want [Plan GeneralNotes]", got)
	}
}

// A perspective titled as a view from somewhere, or a vicinity map (a street
// map pasted in), is a picture, not a drawn view.
func TestViewFromIsImage(t *testing.T) {
	for _, s := range []string{"VIEW FROM THE NORTHWEST", "Views from the street", "VICINITY MAP", "Location Map"} {
		if k := kindOf(s); k != "Image" {
			t.Errorf("kindOf(%q) = %q, want Image", s, k)
		}
	}
	if k := kindOf("NORTH ELEVATION"); k != "Elevation" {
		t.Errorf("kindOf(NORTH ELEVATION) = %q", k)
	}
}

// A title is typed by its head noun: a kind word in a qualifier after
// "TO" / "FOR" names another block, and "SCHEMATIC" qualifying a drawing
// is a design stage, not a diagram.
func TestTitleHeadNoun(t *testing.T) {
	for s, want := range map[string]string{
		"REMARKS TO DOOR SCHEDULE:": "KeyNotes",
		"REMARKS":                   "",
		"GENERAL REQUIREMENTS FOR WINDOW SCHEDULE:": "GeneralNotes",
		"NOTES FOR FOUNDATION PLAN":                 "GeneralNotes",
		"TYPICAL DETAIL FOR STAIR SECTION":          "Detail",
		"KEY TO WINDOW LAYOUT:":                     "Legend",
		"SCHEMATIC DRAWING":                         "",
		"PLUMBING SCHEMATIC":                        "Diagram",
		"SCHEMATIC DIAGRAM":                         "Diagram",
		"EXTENSION TO REAR - GROUND FLOOR PLAN":     "Plan",
		"DOOR SCHEDULE":                             "Schedule",
		"SECTION A-A":                               "Section",
	} {
		if k := kindOf(s); k != want {
			t.Errorf("kindOf(%q) = %q, want %q", s, k, want)
		}
	}
}

// An untitled revision table is known by its column-heading row, whose
// cells a text layer may give as separate lines level with each other.
func TestRevisionTableHeader(t *testing.T) {
	line := func(s string, x, y float64) text.Line {
		n := len(strings.Fields(s))
		return text.Line{Text: s, Box: geom.Box{XMin: x, YMin: y, XMax: x + 100, YMax: y + 10}, Words: make([]text.Word, n)}
	}
	rev := []text.Line{
		line("a IP 27.11.2010 Änderungen Kernzone", 0, 0),
		line("INDEX BESCHREIBUNG DER ÄNDERUNG", 0, 20),
		line("DATUM", 300, 21),
	}
	if !revisionTable(rev) {
		t.Error("INDEX … DATUM header row not read as a revision table")
	}
	door := []text.Line{
		line("MARK SIZE TYPE FRAME HARDWARE", 0, 0),
		line("D1 3'-0\" x 7'-0\" A HM 1", 0, 20),
	}
	if revisionTable(door) {
		t.Error("a door schedule read as a revision table")
	}
	if revisionTable([]text.Line{line("REV", 0, 0), line("DATE", 0, 40)}) {
		t.Error("words on different rows read as one header row")
	}
}
