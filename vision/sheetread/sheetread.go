// Package sheetread reads a rendered sheet as a whole: its words (the text
// layer, or OCR where the layer lacks them), its layout (border, ruling,
// title block) and its metadata (number, title, discipline, revision).
// Ingestion calls Read once per page; the block stage calls Analyze on the
// words Read kept.
package sheetread

import (
	"context"
	"image"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/ocr"
	"github.com/plangraph/plangraph/vision/sheetinfo"
	"github.com/plangraph/plangraph/vision/text"
)

// Text sources.
const (
	SourcePDF = "pdf" // the PDF's text layer
	SourceOCR = "ocr" // the whole page read by OCR
	// SourceMixed is the text layer with regions it lacked (a title block
	// drawn in outlined lettering) read by OCR.
	SourceMixed = "pdf+ocr"
)

// Sheet is what Read found.
type Sheet struct {
	Words      []text.Word
	TextSource string
	Layout     *layout.Page // nil for a blank page
	Info       sheetinfo.Info
}

// Read reads a sheet rendered at dpi whose text layer holds words (nil for
// a raster file). The whole page is read by OCR when the layer is missing
// or unusable; a title block whose lettering the layer lacks is read by OCR
// alone.
func Read(ctx context.Context, img *image.Gray, dpi int, words []text.Word) (Sheet, error) {
	b := img.Bounds()
	// letter-spaced headings ("L E G E N D") are read as words throughout
	s := Sheet{Words: text.JoinSpacedLetters(words), TextSource: SourcePDF}
	if ocr.Needed(words, b.Dx(), b.Dy()) {
		got, err := readPage(ctx, img, dpi)
		if err != nil {
			return s, err
		}
		s.Words, s.TextSource = text.JoinSpacedLetters(got), SourceOCR
	}
	s.Layout = layout.Analyze(img, s.Words)
	if s.TextSource == SourcePDF {
		// most of the lettering drawn as outlines, a few fonts kept as text:
		// read the whole page, keeping the layer's words
		if unread, total := s.Layout.UnreadText(pageBox(img)); unread >= 40 && 2*unread >= total {
			got, err := readPage(ctx, img, dpi)
			if err != nil {
				return s, err
			}
			s.Words, s.TextSource = addUncovered(s.Words, text.JoinSpacedLetters(got)), SourceMixed
			s.Layout = layout.Analyze(img, s.Words)
		}
	}
	if s.TextSource == SourcePDF {
		tb, ok := s.Layout.TitleBlock()
		if !ok {
			tb, ok = s.Layout.TitleBlockGuess()
		}
		// read it by OCR when the layer lacks its lettering
		if unread, total := s.Layout.UnreadText(tb); ok && unread >= 12 && 3*unread >= total {
			filled, read, err := ocr.Fill(ctx, img, dpi, s.Words, tb, ocr.Options{Languages: ocr.LanguagesFor(s.Words)})
			if err != nil {
				return s, err
			}
			if read {
				s.Words, s.TextSource = filled, SourceMixed
				s.Layout = layout.Analyze(img, s.Words)
			}
		}
	}
	s.Info = Info(s.Layout, s.Words, b.Dx(), b.Dy())
	// a labelled field without a readable value, where lettering no word
	// covers (or only OCR's) lies: read its cell again, closely, as one
	// block of text
	if err := s.rereadCells(ctx, img, dpi, s.Info.Unread, nil); err != nil {
		return s, err
	}
	// a title OCR read in the page-wide pass is read again so too (a
	// page-wide pass over small lettering drops a title's second line or
	// the numbers leading its lines, "1. FRONT ELEVATION"), and kept where
	// the number stays and the title reads as many letters and digits
	if err := s.rereadCells(ctx, img, dpi, s.Info.Recheck, fullerTitle(s.Info)); err != nil {
		return s, err
	}
	// a row of cells OCR read as one line is a line per cell
	if split := s.Layout.SplitAtRules(s.Words); !slices.Equal(split, s.Words) {
		s.Words = split
		s.Info = Info(s.Layout, s.Words, b.Dx(), b.Dy())
	}
	// lettering in the title block too large for the page's reading (a
	// scanned sheet number an inch tall) is read again, shrunk
	{
		tb, ok := s.Layout.TitleBlock()
		if !ok {
			tb, ok = s.Layout.TitleBlockGuess()
		}
		if ok {
			got, err := readLarge(ctx, img, s.Words, tb, ocr.LanguagesFor(s.Words))
			if err != nil {
				return s, err
			}
			s.addRead(got, b)
		}
	}
	// a revision field's mark a letter or two long, which the readings so
	// far passed over, is read alone
	if s.Info.Revision == "" && len(s.Info.UnreadRevision) > 0 {
		got, err := readMarks(ctx, img, s.Words, s.Info.UnreadRevision, ocr.LanguagesFor(s.Words))
		if err != nil {
			return s, err
		}
		s.addRead(got, b)
	}
	return s, nil
}

// readPage reads a whole page by OCR in the default languages and, where
// its lettering is in another script an installed language reads
// (ocr.DetectLanguage: a Japanese sheet read by an English model), again
// in the defaults and that language.
func readPage(ctx context.Context, img *image.Gray, dpi int) ([]text.Word, error) {
	got, err := ocr.Words(ctx, img, dpi, ocr.Options{})
	if err != nil {
		return nil, err
	}
	lang, err := ocr.DetectLanguage(ctx, img, dpi, got)
	if err != nil || lang == "" {
		return got, err
	}
	return ocr.Words(ctx, img, dpi, ocr.Options{Languages: append(ocr.DefaultLanguages(), lang)})
}

// rereadCells reads regions (a sheet's field cells) again as blocks of
// text, those where lettering no word covers lies (any, when the page is
// all OCR), the closer reading replacing the first there (replaceIn); with
// keep, only when keep accepts the metadata it gives.
func (s *Sheet) rereadCells(ctx context.Context, img *image.Gray, dpi int, cells []geom.Box, keep func(sheetinfo.Info) bool) error {
	var regions []geom.Box
	for _, r := range cells {
		if unread, _ := s.Layout.UnreadText(r); unread > 0 || s.TextSource == SourceOCR {
			regions = append(regions, r)
		}
	}
	if len(regions) == 0 {
		return nil
	}
	again, err := ocr.Regions(ctx, img, dpi, regions, ocr.Options{Block: true, Languages: ocr.LanguagesFor(s.Words)})
	if err != nil || len(again) == 0 {
		return err
	}
	b := img.Bounds()
	words := replaceIn(s.Words, again, regions)
	info := Info(s.Layout, words, b.Dx(), b.Dy())
	if keep != nil && !keep(info) {
		return nil
	}
	s.Words, s.Info = words, info
	if s.TextSource == SourcePDF {
		s.TextSource = SourceMixed
	}
	return nil
}

// fullerTitle accepts a reading whose metadata keeps old's sheet number
// and reads its title with as many letters and digits at least.
func fullerTitle(old sheetinfo.Info) func(sheetinfo.Info) bool {
	return func(info sheetinfo.Info) bool {
		return info.Number == old.Number && alnums(info.Title) >= alnums(old.Title)
	}
}

// addRead adds the words a closer reading found where no word was (the
// page b's), and reads the sheet's metadata again when there are any.
func (s *Sheet) addRead(got []text.Word, b image.Rectangle) {
	if len(got) == 0 {
		return
	}
	s.Words = addUncovered(s.Words, got)
	if s.TextSource == SourcePDF {
		s.TextSource = SourceMixed
	}
	s.Info = Info(s.Layout, s.Words, b.Dx(), b.Dy())
}

// replaceIn is words with again's added (renumbered to follow words'
// lines), less the words in regions that again's overlap: a closer reading
// replaces what the first read there, and keeps what it did not read again.
func replaceIn(words, again []text.Word, regions []geom.Box) []text.Word {
	in := func(w text.Word) bool {
		for _, r := range regions {
			if centreIn(w.Box, r) {
				return true
			}
		}
		return false
	}
	var out []text.Word
	maxLine := 0
	for _, w := range words {
		maxLine = max(maxLine, w.Line)
		// a word of the text layer (confidence 1) is exact and stays; an
		// OCR word is replaced where the closer reading found one over it
		replaced := false
		if in(w) && w.Conf < 1 {
			for _, a := range again {
				// a word boxed more than twice as tall took in more than
				// w's line (a cell's label and its value read as one
				// word "S2.01" from the label's top): w stays
				if a.Box.Height() > 2*w.Box.Height() {
					continue
				}
				if ov := w.Box.Intersect(a.Box); ov.Valid() && 2*ov.Area() > min(w.Box.Area(), a.Box.Area()) {
					replaced = true
					break
				}
			}
		}
		if !replaced {
			out = append(out, w)
		}
	}
	for _, w := range again {
		// a new word over a text-layer word adds nothing, nor one that
		// reads as the OCR word it stands over, kept as boxed tighter (a
		// word of letters or digits: a mark's box, "=", is no measure)
		dup := false
		for _, o := range out {
			if o.Conf >= 1 && centreIn(w.Box, o.Box) || o.Conf < 1 && alnums(w.Text) >= 2 && strings.EqualFold(o.Text, w.Text) && centreIn(o.Box, w.Box) {
				dup = true
				break
			}
		}
		if !dup {
			w.Line += maxLine
			out = append(out, w)
		}
	}
	return out
}

func centreIn(b, r geom.Box) bool {
	cx, cy := (b.XMin+b.XMax)/2, (b.YMin+b.YMax)/2
	return cx >= r.XMin && cx <= r.XMax && cy >= r.YMin && cy <= r.YMax
}

// Analyze is the layout and metadata of a sheet whose words are known.
func Analyze(img *image.Gray, words []text.Word) (*layout.Page, sheetinfo.Info) {
	pg := layout.Analyze(img, words)
	b := img.Bounds()
	return pg, Info(pg, words, b.Dx(), b.Dy())
}

// Info reads the sheet's metadata from its words in the title block its
// layout found (pg may be nil).
func Info(pg *layout.Page, words []text.Word, w, h int) sheetinfo.Info {
	var hints sheetinfo.Hints
	if tb, ok := pg.TitleBlock(); ok {
		hints.TitleBlock = tb
	}
	if pg != nil {
		hints.Cells = pg.Cell
	}
	return sheetinfo.ReadHints(words, float64(w), float64(h), hints)
}

func pageBox(img *image.Gray) geom.Box {
	b := img.Bounds()
	return geom.Box{XMin: 0, YMin: 0, XMax: float64(b.Dx()), YMax: float64(b.Dy())}
}

// addUncovered is words with the OCR words over which no word of words
// lies added, numbered after words' lines.
func addUncovered(words, got []text.Word) []text.Word {
	maxLine := 0
	for _, w := range words {
		maxLine = max(maxLine, w.Line)
	}
	out := append([]text.Word(nil), words...)
	for _, g := range got {
		covered := false
		for _, w := range words {
			if centreIn(g.Box, w.Box) || centreIn(w.Box, g.Box) {
				covered = true
				break
			}
		}
		if !covered {
			g.Line += maxLine
			out = append(out, g)
		}
	}
	return out
}
