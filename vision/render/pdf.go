package render

// PDF pages are drawn by the MuPDF that github.com/gen2brain/go-fitz bundles
// (its static libraries are linked through the blank import below), but
// through the small binding here rather than go-fitz's Go API, because that
// API, on hostile or large input:
//   - calls fz_count_pages and fz_bound_page outside fz_try: a page tree
//     with /Count -1 makes MuPDF print "aborting process from uncaught
//     error!" and exit(1), taking every job of the process with it;
//   - copies every page three times (C pixmap → C.GoBytes → image.RGBA),
//     peaking near 12 B/px (≈930 MB for a 36×24 in sheet at 300 DPI) before
//     the grey conversion;
//   - draws page contents only, without annotations (markups, stamps);
//   - cannot be cancelled, and prints MuPDF warnings on stderr.
// Here every MuPDF call runs inside fz_try, the page is drawn straight into
// the Go *image.Gray, MuPDF's allocations are counted against a budget, and
// a cookie aborts drawing when the context is cancelled.
//
// The declarations in mupdf.h are the subset of MuPDF 1.24's public API we use,
// written out because go-fitz ships its headers in its module directory,
// which cgo flags cannot name. fz_new_context_imp refuses to run against a
// library of another version, so a go-fitz upgrade that changes MuPDF makes
// Open fail loudly (and the tests fail) rather than misbehave.

/*
#include "mupdf.h"
*/
import "C"

import (
	"context"
	"fmt"
	"image"
	"io"
	"math"
	"strings"
	"sync"
	"unsafe"

	_ "github.com/gen2brain/go-fitz" // links the bundled MuPDF
)

// MuPDF's working memory beyond the page: resource cache size and the slack
// added to the 4 B/px budget.
const pdfStoreBytes = 64 << 20

var pdfSlackBytes int64 = 64 << 20 // a var for tests

type pdfDoc struct {
	mu    sync.Mutex // MuPDF contexts are single-threaded
	d     *C.pg_doc
	lim   Limits
	n     int
	sizes []pdfPageSize // filled lazily
}

type pdfPageSize struct {
	ok   bool
	w, h int
	dpi  int // the page's DPI: Limits.DPI, less for a page too large at it
}

func openPDF(path string, lim Limits) (Document, error) { return openMuPDF(path, lim, false) }

// OpenSVG opens an SVG drawing (one page), as MuPDF reads it: for tools
// and benchmarks on vector drawings kept as SVG (the service takes PDF and
// raster uploads only: an SVG may name files to read beside it).
func OpenSVG(path string, lim Limits) (Document, error) {
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	return openMuPDF(path, lim, true)
}

func openMuPDF(path string, lim Limits, svg bool) (Document, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var d *C.pg_doc
	budget := uint64(lim.decodeBudget() + pdfSlackBytes)
	isSVG := C.int(0)
	if svg {
		isSVG = 1
	}
	rc := C.pg_open(cpath, C.size_t(budget), C.size_t(pdfStoreBytes), isSVG, &d)
	switch rc {
	case 0:
	case 1:
		C.pg_close(d)
		return nil, errorf(CodeEncryptedPDF, "the PDF is protected by a password; upload an unprotected copy")
	case -1:
		msg := C.GoString(&d.msg[0])
		C.pg_close(d)
		return nil, errorf(CodeCorruptFile, "the PDF cannot be read: %s", cleanMsg(msg))
	default:
		C.pg_close(d)
		return nil, fmt.Errorf("render: cannot start MuPDF (library version is not %s?)", C.PG_FZ_VERSION)
	}
	n := int(C.pg_count(d))
	switch {
	case n < 0:
		msg := C.GoString(&d.msg[0])
		C.pg_close(d)
		return nil, errorf(CodeCorruptFile, "the PDF's page list cannot be read: %s", cleanMsg(msg))
	case n == 0:
		C.pg_close(d)
		return nil, errorf(CodeNoPages, "the PDF has no pages")
	case n > lim.MaxPages:
		C.pg_close(d)
		return nil, errorf(CodeTooManyPages, "the PDF has %d pages; the limit is %d", n, lim.MaxPages)
	}
	return &pdfDoc{d: d, lim: lim, n: n, sizes: make([]pdfPageSize, n)}, nil
}

// checkPDFEnd refuses truncated files. MuPDF repairs a file cut short and
// draws what is left, silently losing pages or geometry; a drawing set
// that lost its tail should be uploaded again instead. Like Acrobat, we
// want %%EOF within the last 1024 bytes (after trailing blanks and NULs).
func checkPDFEnd(f io.ReaderAt, size int64) error {
	const tail = 4096
	off := max(0, size-tail)
	buf := make([]byte, size-off)
	if _, err := f.ReadAt(buf, off); err != nil {
		return err
	}
	buf = []byte(strings.TrimRight(string(buf), " \t\r\n\f\x00"))
	buf = buf[max(0, len(buf)-sniffLen):]
	if !strings.Contains(string(buf), "%%EOF") {
		return errorf(CodeCorruptFile, "the PDF is incomplete (no end-of-file marker); it may have been truncated during upload")
	}
	return nil
}

// cleanMsg keeps MuPDF's message short and printable.
func cleanMsg(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if s == "" {
		return "unknown error"
	}
	return s
}

func (p *pdfDoc) Pages() int { return p.n }

// size returns page i's pixel size at the document's DPI; p.mu is held.
func (p *pdfDoc) size(i int) (pdfPageSize, error) {
	if p.d == nil {
		return pdfPageSize{}, fmt.Errorf("render: document is closed")
	}
	if err := checkIndex(i, p.n); err != nil {
		return pdfPageSize{}, err
	}
	if s := p.sizes[i]; s.ok {
		return s, nil
	}
	bound := func(dpi int) (pdfPageSize, error) {
		var box C.fz_irect
		var pts C.fz_rect
		if C.pg_bound(p.d, C.int(i), C.float(float64(dpi)/72), &box, &pts) == 0 {
			return pdfPageSize{}, errorf(CodeCorruptFile, "page %d cannot be read: %s", i+1, cleanMsg(C.GoString(&p.d.msg[0])))
		}
		w, h := int(box.x1)-int(box.x0), int(box.y1)-int(box.y0)
		if w <= 0 || h <= 0 {
			return pdfPageSize{}, errorf(CodeCorruptFile, "page %d has no area", i+1)
		}
		return pdfPageSize{ok: true, w: w, h: h, dpi: dpi}, nil
	}
	s, err := bound(p.lim.DPI)
	if err != nil {
		return s, err
	}
	// a sheet too large at the DPI asked for (a long civil roll, a 60 in
	// site plan) is drawn at the highest DPI it fits at, down to
	// MinFitDPI; below that it stays too large (PAGE_TOO_LARGE at the DPI
	// asked for)
	if px := int64(s.w) * int64(s.h); px > p.lim.MaxPixels && p.lim.DPI > MinFitDPI {
		d := int(float64(p.lim.DPI) * math.Sqrt(float64(p.lim.MaxPixels)/float64(px)))
		for ; d >= MinFitDPI; d-- {
			f, err := bound(d)
			if err != nil {
				return f, err
			}
			if int64(f.w)*int64(f.h) <= p.lim.MaxPixels {
				s = f
				break
			}
		}
	}
	p.sizes[i] = s
	return s, nil
}

func (p *pdfDoc) PageSize(i int) (int, int, int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, err := p.size(i)
	if err != nil {
		return 0, 0, 0, err
	}
	return s.w, s.h, s.dpi, nil
}

func (p *pdfDoc) Render(i int) (*image.Gray, error) {
	return p.RenderContext(context.Background(), i)
}

func (p *pdfDoc) RenderContext(ctx context.Context, i int) (*image.Gray, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, err := p.size(i)
	if err != nil {
		return nil, err
	}
	if int64(s.w)*int64(s.h) > p.lim.MaxPixels {
		return nil, pageTooLarge(i, s.w, s.h, s.dpi, p.lim)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	img := image.NewGray(image.Rect(0, 0, s.w, s.h))
	C.pg_set_abort(p.d, 0)
	p.d.budget.refused = 0
	aborted := make(chan struct{})
	d := p.d
	stop := context.AfterFunc(ctx, func() { C.pg_set_abort(d, 1); close(aborted) })
	rc := C.pg_render(p.d, C.int(i), C.float(float64(s.dpi)/72), (*C.uchar)(unsafe.Pointer(&img.Pix[0])), C.int(s.w), C.int(s.h))
	if !stop() {
		<-aborted // the abort is in flight; d must outlive it
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch rc {
	case 1:
		return img, nil
	case -1:
		return nil, errorf(CodeCorruptFile, "page %d changed size while drawing", i+1)
	}
	if p.d.budget.refused != 0 {
		return nil, errorf(CodePageTooLarge, "page %d needs more than the %d MB of working memory allowed to draw it (for a %.1f MP page limit); it may embed very large images",
			i+1, (p.lim.decodeBudget()+pdfSlackBytes)>>20, float64(p.lim.MaxPixels)/1e6)
	}
	return nil, errorf(CodeCorruptFile, "page %d cannot be drawn: %s", i+1, cleanMsg(C.GoString(&p.d.msg[0])))
}

// mupdfPeak is the most memory MuPDF held at once for this document.
func (p *pdfDoc) mupdfPeak() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.d == nil {
		return 0
	}
	return int64(p.d.budget.peak)
}

func (p *pdfDoc) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.d != nil {
		C.pg_close(p.d)
		p.d = nil
	}
	return nil
}
