// Package symbols finds instances of legend symbols (exemplar images) on
// drawing images at any rotation angle and at 0.5–2× the exemplar's size.
package symbols

import (
	"context"
	"image"
	"time"

	"github.com/plangraph/plangraph/vision/geom"
)

// Template is one symbol to search for: a grey image with dark ink on a
// light background, cropped closely around the graphic. Ink that reaches
// an edge of the image is taken to be cut there (a symbol cropped from a
// sheet with the lines behind it): line ends at that edge are not the
// symbol's own; a whole symbol has paper around it.
type Template struct {
	Label string
	Image *image.Gray
	// NoText: the symbol's graphic holds no text, so where the drawing's
	// words (Options.Words) are it is not (see words.go)
	NoText bool
	// WordsKnown: the symbol was read from a legend whose words are known,
	// and WordInk is the share of its graphic's ink inside those of them
	// that are surely text (as Options.Words; 0 with NoText). Where much
	// more of the drawing's ink than that lies on words, it is not (see
	// words.go). Without it, a graphic that holds text keeps every
	// candidate.
	WordsKnown bool
	WordInk    float64
	// Text is what the words inside the graphic read (a switch's S3, a
	// motor's M; empty when it holds none or they are not known). Symbols
	// drawn alike are told apart by it where the drawing's words are
	// known (Options.Letters; see letters.go).
	Text string
	// TextBoxes are the boxes of those words, in Image's pixels: the ink
	// of those the symbol's lines surround is lettering, which grows with
	// the symbol while its lines keep the pen's width (see prepareCrop and
	// enclosed).
	TextBoxes []geom.Box
}

// Detection is one found instance. Box is in the searched image's pixels.
type Detection struct {
	// Template indexes Options' template slice.
	Template   int
	Label      string
	Box        geom.Box
	Angle      float64 // degrees, counter-clockwise
	Scale      float64 // instance size / template size
	Confidence float64 // 0..1; 0.5 separates right from wrong on the benchmarks
	// Mirrored is set when the instance is the template's mirror image.
	Mirrored bool

	ncc, chamfer, explained float64
	flip                    bool
	support                 float64 // drawing ink it covers less its own ink missing from the drawing, pixels
	at                      pose    // its pose, full-resolution pixels of the searched image
}

// Skipped is a template that was not searched, and why.
type Skipped struct {
	Template int
	Reason   string
}

// Options tune a search. Zero values take the defaults.
type Options struct {
	MinScale, MaxScale float64 // default 0.5 and 2.0
	// MinConfidence drops weaker detections; default 0.5.
	MinConfidence float64
	// Progress, when set, is called with the share (0..1) done.
	Progress func(done float64)
	// Deadline, when set, bounds the search: what is not searched by then
	// is reported in Result.Unsearched and the detections found so far are
	// returned (the caller's own context still cancels with an error)
	Deadline time.Time
	// Words are the boxes (the searched image's pixels) of the drawing's
	// words that are surely text; templates with NoText are not detected
	// on them
	Words []geom.Box
	// Letters are the drawing's words with what they read (the searched
	// image's pixels), single letters included, that are surely text: a
	// detection whose words read as another template's Text, and not as
	// its own, is that other symbol (see letters.go)
	Letters []Word
	// keepFaint: some symbol is itself drawn in faint lines, so faint
	// linework stays in the drawing (see faintSum); set by Match
	keepFaint bool
	// noText[i]: template i has NoText; set by Match
	noText []bool
	// onWords[i]: the share of the ink around a candidate of template i
	// that words may hold (textInkFor), 0 when they may hold any; set by
	// Match
	onWords []float64
	// letterKeys[i]: letterKey of template i's Text; set by Match
	letterKeys []string
	// budget, when set, makes the search's context from the caller's and
	// Deadline (context.WithDeadline when nil): tests end the budget when
	// they choose, not when a clock says
	budget func(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc)
	// band, when set, limits the ring pass to the scales within
	// band[0]..band[1] (outside them when band[2] is 1; see searchTiled)
	band [3]float64
}

// inBand tells whether the ring pass searches scale s (see band).
func (o Options) inBand(s float64) bool {
	if o.band[1] == 0 {
		return true
	}
	in := s >= o.band[0]*0.9999 && s <= o.band[1]*1.0001
	return in == (o.band[2] == 0)
}

// coverage is img's ink, faint linework cleared unless o.keepFaint.
func (o Options) coverage(img *image.Gray) *fimg {
	m := coverage(img)
	if !o.keepFaint {
		clearFaint(m, img)
	}
	return m
}

// Result is the outcome of one search.
type Result struct {
	Detections []Detection
	Skipped    []Skipped
	Stats      Stats
	// Unsearched are the parts of the image (its pixels) not searched
	// before Options.Deadline; empty when the search finished
	Unsearched []image.Rectangle
	// NearScales, when set, are the scales (of the templates' sizes) that
	// a large image was searched at first, and the only ones searched
	// everywhere (bar Unsearched) before Options.Deadline (see searchTiled)
	NearScales [2]float64
}

// Stats say where a search spent its effort.
type Stats struct {
	StrokeWidth float64 // the drawing's, pixels
	Candidates  int     // from the rotation-invariant pass
	// Unrefined counts the candidates not refined before the search's
	// deadline (the least likely: they are refined best first)
	Unrefined  int
	RingTime   time.Duration // candidate search
	RefineTime time.Duration // pose refinement and verification
	// OnText counts the candidates not refined, and the detections
	// dropped, because they lay on words
	OnText int
	// Claimed counts the candidates not refined because a detection left
	// no doubt where they lay (see refineAll)
	Claimed int
	// OtherText counts the detections dropped because the words inside
	// them read as another symbol's (see letters.go)
	OtherText int
}

// Word is a word of the drawing and its box.
type Word struct {
	Box  geom.Box
	Text string
}
