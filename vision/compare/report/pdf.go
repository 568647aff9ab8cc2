package report

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"strings"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/draw"

	"github.com/plangraph/plangraph/vision/compare"
)

// PDF writes the same report as a PDF (github.com/go-pdf/fpdf v0.9.0 is
// already in go.mod), with each changed overlay's combined image (fetched
// by img; nil image or error → a line saying it is unavailable) and its
// change list.
//
// Pages are US Letter, portrait. Text is set in the PDF core fonts
// (Helvetica), whose code page is Windows-1252: arrows, ≈, ≥ and primes
// are written as ->, ~, >= and ' "; other characters outside it (CJK
// lettering, for one) print as "." — the Markdown report keeps them. An
// image is scaled to at most pdfImageMaxPx pixels on its longer side and
// fitted to the page's width and at most 60 % of its height.
func PDF(w io.Writer, r *compare.Report, img func(overlayID string) (image.Image, error)) error {
	if r == nil {
		return fmt.Errorf("report: no report")
	}
	p := newPDFWriter()
	p.title(fmt.Sprintf("Revision comparison: %s -> %s", sideName(r.Old), sideName(r.New)))
	for _, l := range summaryLines(r) {
		p.para(l)
	}
	for _, t := range countTables(r) {
		if len(t.rows) > 0 {
			p.counts(t)
		}
	}
	p.list("Warnings", r.Warnings)
	var added, removed, renum []string
	for _, s := range r.SheetsAdded {
		added = append(added, sheetName(s))
	}
	for _, s := range r.SheetsRemoved {
		removed = append(removed, sheetName(s))
	}
	for _, s := range r.SheetsRenumbered {
		renum = append(renum, sheetName(s.Old)+" -> "+sheetName(s.New))
	}
	p.list("Sheets added", added)
	p.list("Sheets removed", removed)
	p.list("Sheets renumbered", renum)
	nImg := 0
	for _, pair := range r.Pairs {
		p.heading(pairTitle(pair), 13)
		for _, b := range pair.BlocksAdded {
			p.para("Block added: " + blockName(b))
		}
		for _, b := range pair.BlocksRemoved {
			p.para("Block removed: " + blockName(b))
		}
		for _, o := range pair.Overlays {
			p.heading(overlayTitle(o), 11)
			p.para(fmt.Sprintf("Score %.3f (%s). %s.", o.Score, Band(o.Score), transformLine(o.Transform)))
			for _, s := range o.Warnings {
				p.para("Warning: " + s)
			}
			switch {
			case !r.Analyzed:
				p.para("Change analysis was not run.")
				continue
			case len(o.Changes) == 0:
				p.para("No changes.")
				continue
			}
			var im image.Image
			var err error
			if img != nil {
				im, err = img(o.OverlayID)
			}
			switch {
			case err != nil:
				p.para(fmt.Sprintf("Overlay image unavailable: %v", err))
			case im == nil || im.Bounds().Empty():
				p.para("Overlay image unavailable.")
			default:
				nImg++
				if err := p.image(fmt.Sprintf("overlay-%d", nImg), im); err != nil {
					p.para(fmt.Sprintf("Overlay image unavailable: %v", err))
				}
			}
			p.changes(o.Changes)
		}
	}
	if err := p.f.Error(); err != nil {
		return err
	}
	return p.f.Output(w)
}

// Page geometry, millimetres.
const (
	pdfMargin     = 15.0
	pdfLine       = 5.0 // text line height at 10 pt
	pdfImageMaxPx = 1800
)

// pdfWriter lays the report out on fpdf pages.
type pdfWriter struct {
	f    *fpdf.Fpdf
	tr   func(string) string
	w, h float64 // page size
}

func newPDFWriter() *pdfWriter {
	f := fpdf.New("P", "mm", "Letter", "")
	f.SetMargins(pdfMargin, pdfMargin, pdfMargin)
	f.SetAutoPageBreak(true, pdfMargin)
	f.SetCreator("plangraph", true)
	f.AddPage()
	w, h := f.GetPageSize()
	return &pdfWriter{f: f, tr: f.UnicodeTranslatorFromDescriptor(""), w: w, h: h}
}

// latin replaces what Windows-1252 lacks by its nearest ASCII.
var latin = strings.NewReplacer("→", "->", "≈", "~", "≥", ">=", "≤", "<=", "′", "'", "″", `"`, "−", "-")

func (p *pdfWriter) text(s string) string { return p.tr(latin.Replace(s)) }

// need starts a new page unless h millimetres are left.
func (p *pdfWriter) need(h float64) {
	if p.f.GetY()+h > p.h-pdfMargin {
		p.f.AddPage()
	}
}

func (p *pdfWriter) title(s string) {
	p.f.SetFont("Helvetica", "B", 16)
	p.f.MultiCell(0, 8, p.text(s), "", "L", false)
	p.f.Ln(2)
}

func (p *pdfWriter) heading(s string, size float64) {
	p.need(20)
	p.f.Ln(2)
	p.f.SetFont("Helvetica", "B", size)
	p.f.MultiCell(0, size*0.5, p.text(s), "", "L", false)
	p.f.Ln(1)
}

func (p *pdfWriter) para(s string) {
	p.f.SetFont("Helvetica", "", 10)
	p.f.MultiCell(0, pdfLine, p.text(s), "", "L", false)
}

// list writes a titled bullet list (nothing when empty).
func (p *pdfWriter) list(title string, items []string) {
	if len(items) == 0 {
		return
	}
	p.heading(title, 12)
	for _, s := range items {
		p.para("- " + s)
	}
}

// counts writes a two-column count table.
func (p *pdfWriter) counts(t countTable) {
	p.need(pdfLine * float64(len(t.rows)+2))
	p.f.Ln(2)
	p.f.SetFont("Helvetica", "B", 10)
	p.f.CellFormat(50, pdfLine, p.text(t.title), "B", 0, "L", false, 0, "")
	p.f.CellFormat(25, pdfLine, "changes", "B", 1, "R", false, 0, "")
	p.f.SetFont("Helvetica", "", 10)
	for _, row := range t.rows {
		p.f.CellFormat(50, pdfLine, p.text(row.key), "", 0, "L", false, 0, "")
		p.f.CellFormat(25, pdfLine, fmt.Sprint(row.n), "", 1, "R", false, 0, "")
	}
}

// image places an image fitted to the page's width and 60 % of its
// height, on a new page when it does not fit on this one.
func (p *pdfWriter) image(name string, im image.Image) error {
	im = shrink(im, pdfImageMaxPx)
	var buf bytes.Buffer
	if err := png.Encode(&buf, im); err != nil {
		return err
	}
	opt := fpdf.ImageOptions{ImageType: "PNG"}
	p.f.RegisterImageOptionsReader(name, opt, &buf)
	if err := p.f.Error(); err != nil {
		return err
	}
	b := im.Bounds()
	maxW, maxH := p.w-2*pdfMargin, 0.6*(p.h-2*pdfMargin)
	wmm := maxW
	hmm := wmm * float64(b.Dy()) / float64(b.Dx())
	if hmm > maxH {
		hmm = maxH
		wmm = hmm * float64(b.Dx()) / float64(b.Dy())
	}
	// Shrink into what is left of this page rather than leave a third of
	// it or more blank.
	if left := p.h - pdfMargin - p.f.GetY() - 3; hmm > left && left >= 0.35*(p.h-2*pdfMargin) {
		wmm, hmm = wmm*left/hmm, left
	}
	p.need(hmm + 2)
	p.f.ImageOptions(name, pdfMargin, p.f.GetY()+1, wmm, hmm, false, opt, 0, "")
	p.f.SetDrawColor(160, 160, 160)
	p.f.Rect(pdfMargin, p.f.GetY()+1, wmm, hmm, "D")
	p.f.SetDrawColor(0, 0, 0)
	p.f.SetY(p.f.GetY() + hmm + 3)
	return p.f.Error()
}

// shrink scales an image down to at most maxPx on its longer side.
func shrink(im image.Image, maxPx int) image.Image {
	b := im.Bounds()
	if max(b.Dx(), b.Dy()) <= maxPx {
		return im
	}
	k := float64(maxPx) / float64(max(b.Dx(), b.Dy()))
	out := image.NewRGBA(image.Rect(0, 0, max(1, int(float64(b.Dx())*k)), max(1, int(float64(b.Dy())*k))))
	draw.ApproxBiLinear.Scale(out, out.Bounds(), im, b, draw.Src, nil)
	return out
}

// changes writes a change list: number, severity, category, kind,
// description (wrapped), confidence.
func (p *pdfWriter) changes(cs []compare.ReportChange) {
	cols := []float64{8, 20, 26, 20, 0, 16}
	cols[4] = p.w - 2*pdfMargin - cols[0] - cols[1] - cols[2] - cols[3] - cols[5]
	head := []string{"#", "severity", "category", "kind", "change", "conf."}
	row := func(cells []string, bold bool) {
		style := ""
		if bold {
			style = "B"
		}
		p.f.SetFont("Helvetica", style, 9)
		lines := p.f.SplitLines([]byte(p.text(cells[4])), cols[4])
		h := 4.5 * float64(max(1, len(lines)))
		p.need(h)
		x, y := p.f.GetX(), p.f.GetY()
		for i, c := range cells {
			if i == 4 {
				p.f.MultiCell(cols[i], 4.5, p.text(c), "", "L", false)
			} else {
				align := "L"
				if i == 0 || i == 5 {
					align = "R"
				}
				p.f.CellFormat(cols[i], 4.5, p.text(c), "", 0, align, false, 0, "")
			}
			x += cols[i]
			p.f.SetXY(x, y)
		}
		p.f.SetXY(pdfMargin, y+h)
		if bold {
			p.f.Line(pdfMargin, y+h, p.w-pdfMargin, y+h)
		}
	}
	p.f.Ln(1)
	row(head, true)
	for i, c := range cs {
		row([]string{fmt.Sprint(i + 1), c.Severity, c.Category, c.Kind, c.Description, fmt.Sprintf("%.2f", c.Confidence)}, false)
	}
	p.f.Ln(2)
}
