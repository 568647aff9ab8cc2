// Package ocr reads the words of a rendered drawing page with Tesseract
// (through gosseract, so it needs cgo, libtesseract and the traineddata of
// the languages used). It is the fallback for scans and for PDFs whose text
// was converted to outlines: Needed tells when a page's text layer is
// missing or unusable, Words reads a whole page and Regions reads only
// parts of it (e.g. the title-block strips), which is much faster on large
// sheets. Words come back as text.Word with boxes in the pixels of the
// image passed in, so they can be fed to sheetinfo.Read and layout.Segment
// like words from a text layer.
package ocr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/otiai10/gosseract/v2"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/text"
)

// Defaults of Options.
const (
	DefaultMaxPixels = 25_000_000
	DefaultMinConf   = 0.4
)

// Options tune OCR. The zero value uses the defaults.
type Options struct {
	// Languages are Tesseract language codes (default: DefaultLanguages,
	// English unless SetDefaultLanguages said otherwise); their
	// traineddata must be installed.
	Languages []string
	// MaxPixels caps the image Tesseract works on (default 25 MP). Larger
	// images (or regions) are downscaled first and the boxes scaled back.
	MaxPixels int
	// MinConf drops words whose confidence (0..1) is lower (default 0.4).
	// A negative value keeps every word.
	MinConf float64
	// Block reads each region as one block of text (a title-block field's
	// cell) rather than as text scattered among linework.
	Block bool
	// Word reads each region as one word (a field's short value, a
	// revision mark a letter or two long, which the other modes pass
	// over); it takes precedence over Block.
	Word bool
}

func (o Options) withDefaults() Options {
	if len(o.Languages) == 0 {
		o.Languages = *defaultLanguages.Load()
	}
	if o.MaxPixels <= 0 {
		o.MaxPixels = DefaultMaxPixels
	}
	if o.MinConf == 0 {
		o.MinConf = DefaultMinConf
	}
	return o
}

// defaultLanguages are the languages OCR reads in when Options names none
// (SetDefaultLanguages; English to begin with).
var defaultLanguages atomic.Pointer[[]string]

func init() {
	defaultLanguages.Store(&[]string{"eng"})
}

// SetDefaultLanguages sets the languages OCR reads in when Options names
// none (the service's --ocr-languages), after checking that each one's
// traineddata is installed where Tesseract looks: a language that is not
// is an error naming it, and the defaults stay as they were.
func SetDefaultLanguages(langs []string) error {
	if len(langs) == 0 {
		return errors.New("ocr: no language")
	}
	have, err := gosseract.GetAvailableLanguages()
	if err != nil {
		return fmt.Errorf("ocr: %w", err)
	}
	for _, l := range langs {
		if !slices.Contains(have, l) {
			return fmt.Errorf("ocr: language %q is not installed (its traineddata; Debian: tesseract-ocr-%s); installed: %s", l, strings.ReplaceAll(l, "_", "-"), strings.Join(have, ", "))
		}
	}
	l := append([]string(nil), langs...)
	defaultLanguages.Store(&l)
	return nil
}

// DefaultLanguages are the languages OCR reads in when Options names none.
func DefaultLanguages() []string {
	return append([]string(nil), *defaultLanguages.Load()...)
}

// pageSegMode is the segmentation used: sparse text finds isolated labels
// scattered between line work, where the automatic modes look for
// paragraphs and columns and miss or merge much of a drawing's text. It
// is set as a variable because gosseract's SetPageSegMode, called before
// Tesseract's Init, is lost.
const pageSegMode = gosseract.PSM_SPARSE_TEXT

// Words OCRs the whole of img, rendered at dpi (0 if unknown), and returns
// its words with boxes in img's pixels (relative to img.Bounds().Min),
// Conf in 0..1 and Line numbering each text line. A cancelled ctx is
// checked before and after recognition; a running recognition cannot be
// interrupted.
func Words(ctx context.Context, img *image.Gray, dpi int, opt Options) ([]text.Word, error) {
	if img == nil {
		return nil, errors.New("ocr: nil image")
	}
	return Regions(ctx, img, dpi, []geom.Box{pageBox(img)}, opt)
}

// Regions OCRs only the given boxes of img (in img's pixels; clipped to the
// image, empty ones skipped) and returns their words with boxes in img's
// pixels. Line numbers are unique across regions. Words found twice where
// regions overlap are kept once. ctx is checked between regions.
func Regions(ctx context.Context, img *image.Gray, dpi int, boxes []geom.Box, opt Options) ([]text.Word, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if img == nil {
		return nil, errors.New("ocr: nil image")
	}
	opt = opt.withDefaults()
	var (
		client *gosseract.Client
		out    []text.Word
		line   int
	)
	defer func() {
		if client != nil {
			client.Close()
		}
	}()
	b := img.Bounds()
	for _, rb := range boxes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := image.Rect(
			int(math.Floor(rb.XMin)), int(math.Floor(rb.YMin)),
			int(math.Ceil(rb.XMax)), int(math.Ceil(rb.YMax)),
		).Add(b.Min).Intersect(b)
		if r.Empty() {
			continue
		}
		sub := img.SubImage(r).(*image.Gray)
		if blank(sub) {
			continue
		}
		if client == nil {
			var err error
			if client, err = newClient(opt, dpi, segMode(opt)); err != nil {
				return nil, err
			}
		}
		ws, n, err := recognize(client, sub, dpi, opt)
		if err == nil && segMode(opt) == pageSegMode {
			ws, n, err = splitStacked(sub, dpi, ws, n, opt)
		}
		if err != nil {
			return nil, err
		}
		dx, dy := float64(r.Min.X-b.Min.X), float64(r.Min.Y-b.Min.Y)
		for _, w := range ws {
			w.Box = w.Box.Translate(dx, dy)
			w.Line += line
			out = append(out, w)
		}
		line += n
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(boxes) > 1 {
		out = dedupe(out)
	}
	return out, nil
}

func pageBox(img *image.Gray) geom.Box {
	b := img.Bounds()
	return geom.Box{XMax: float64(b.Dx()), YMax: float64(b.Dy())}
}

// segMode is the page segmentation opt asks for.
func segMode(opt Options) gosseract.PageSegMode {
	switch {
	case opt.Word:
		return gosseract.PSM_SINGLE_WORD
	case opt.Block:
		return gosseract.PSM_SINGLE_BLOCK
	}
	return pageSegMode
}

func newClient(opt Options, dpi int, mode gosseract.PageSegMode) (*gosseract.Client, error) {
	c := gosseract.NewClient()
	if err := c.SetLanguage(opt.Languages...); err != nil {
		c.Close()
		return nil, fmt.Errorf("ocr: %w", err)
	}
	if err := c.SetVariable("tessedit_pageseg_mode", strconv.Itoa(int(mode))); err != nil {
		c.Close()
		return nil, fmt.Errorf("ocr: %w", err)
	}
	// Keep Tesseract's diagnostics ("Estimating resolution…") off stderr.
	if err := c.SetVariable("debug_file", "/dev/null"); err != nil {
		c.Close()
		return nil, fmt.Errorf("ocr: %w", err)
	}
	return c, nil
}

// recognize OCRs img (downscaled to opt.MaxPixels if needed) and returns
// its words with boxes relative to img.Bounds().Min, lines numbered from 1,
// and the number of lines.
func recognize(c *gosseract.Client, img *image.Gray, dpi int, opt Options) ([]text.Word, int, error) {
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	work := image.Image(img)
	sx, sy := 1.0, 1.0
	if px := float64(w) * float64(h); px > float64(opt.MaxPixels) {
		f := math.Sqrt(float64(opt.MaxPixels) / px)
		ww, hh := max(1, int(float64(w)*f)), max(1, int(float64(h)*f))
		work = render.Resize(img, ww, hh)
		sx, sy = float64(w)/float64(ww), float64(h)/float64(hh)
		if dpi > 0 {
			dpi = max(1, int(math.Round(float64(dpi)/sx)))
		}
	}
	if dpi > 0 {
		if err := c.SetVariable("user_defined_dpi", strconv.Itoa(dpi)); err != nil {
			return nil, 0, fmt.Errorf("ocr: %w", err)
		}
	}
	var buf bytes.Buffer
	if err := render.EncodePNG(&buf, work); err != nil {
		return nil, 0, fmt.Errorf("ocr: encode: %w", err)
	}
	if err := c.SetImageFromBytes(buf.Bytes()); err != nil {
		return nil, 0, fmt.Errorf("ocr: %w", err)
	}
	bbs, err := c.GetBoundingBoxesVerbose()
	if err != nil {
		return nil, 0, fmt.Errorf("ocr: %w", err)
	}
	type key struct{ block, par, line int }
	lines := map[key]int{}
	var out []text.Word
	for _, bb := range bbs {
		s := strings.TrimSpace(bb.Word)
		conf := bb.Confidence / 100
		if s == "" || conf < opt.MinConf || bb.Box.Empty() || strokeRead(s, bb.Box.Dx(), bb.Box.Dy()) {
			continue
		}
		k := key{bb.BlockNum, bb.ParNum, bb.LineNum}
		ln, ok := lines[k]
		if !ok {
			ln = len(lines) + 1
			lines[k] = ln
		}
		out = append(out, text.Word{
			Text: s,
			Box: geom.Box{
				XMin: float64(bb.Box.Min.X) * sx, YMin: float64(bb.Box.Min.Y) * sy,
				XMax: float64(bb.Box.Max.X) * sx, YMax: float64(bb.Box.Max.Y) * sy,
			},
			Line: ln,
			Conf: max(0, min(1, conf)),
		})
	}
	return joinCJK(out), len(lines), nil
}

// narrowGlyphs are the characters a single stroke may be.
const narrowGlyphs = "1Iil|!.,:;'`’‘"

// strokeRead tells a word boxed w × h pixels that is a stroke read as
// lettering: narrower than an eighth of its height (a rule's short stretch,
// a cell's divider) yet holding a character that is no single stroke (a
// divider read as "J"). A "1", an "I", an "l" stand so narrow and are kept.
func strokeRead(s string, w, h int) bool {
	if 8*w >= h {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune(narrowGlyphs, r) {
			return true
		}
	}
	return false
}

// blank reports an image without any dark pixel, which has no text to find
// (and would cost Tesseract a full layout analysis for nothing).
func blank(img *image.Gray) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		i := img.PixOffset(b.Min.X, y)
		for _, p := range img.Pix[i : i+b.Dx()] {
			if p < 128 {
				return false
			}
		}
	}
	return true
}

// dedupe drops words that repeat a word of the same text mostly covering
// the same place (found twice in overlapping regions), keeping the more
// confident.
func dedupe(ws []text.Word) []text.Word {
	out := ws[:0:0]
	for _, w := range ws {
		dup := false
		for i := range out {
			if strings.EqualFold(out[i].Text, w.Text) && out[i].Box.IoU(w.Box) > 0.5 {
				if w.Conf > out[i].Conf {
					out[i] = w
				}
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, w)
		}
	}
	return out
}

// joinCJK joins the words of a line that Tesseract's Japanese or Chinese
// gives token by token ("シロ ッ コ ファ ン") into the words they are:
// two words side by side on one line, the first ending and the second
// beginning with a Han, Hiragana or Katakana character (or CJK
// punctuation), less than half a line height apart, are one word (their
// boxes' union, the lower confidence). Latin words are not touched.
func joinCJK(ws []text.Word) []text.Word {
	out := ws[:0:0]
	for _, w := range ws {
		if n := len(out); n > 0 {
			p := &out[n-1]
			last, _ := utf8.DecodeLastRuneInString(p.Text)
			first, _ := utf8.DecodeRuneInString(w.Text)
			h := math.Max(p.Box.Height(), w.Box.Height())
			across := math.Min(p.Box.YMax, w.Box.YMax) - math.Max(p.Box.YMin, w.Box.YMin)
			if p.Line == w.Line && isCJK(last) && isCJK(first) && w.Box.XMin-p.Box.XMax < 0.5*h && across >= 0.5*math.Min(p.Box.Height(), w.Box.Height()) {
				p.Text += w.Text
				p.Box = p.Box.Union(w.Box)
				p.Conf = math.Min(p.Conf, w.Conf)
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// isCJK: Han, kana (with the prolonged sound mark "ー", common to both),
// CJK punctuation and full-width forms.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || (r >= 0x3000 && r <= 0x30ff) || (r >= 0xff00 && r <= 0xffef)
}
