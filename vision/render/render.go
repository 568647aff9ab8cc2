// Package render turns uploaded drawings into grey page images: PDFs through
// MuPDF (the copy bundled with github.com/gen2brain/go-fitz), PNG, JPEG and
// TIFF (including multi-page TIFF) through Go decoders. It also makes the
// derived images the web viewer needs: a thumbnail and a Deep Zoom (DZI) tile
// pyramid.
//
// Bad input never panics and never kills the process: it ends as an *Error
// with a stable Code that a job can record as its failure reason. Any other
// error (I/O, cancellation) is transient and worth a retry.
//
// Memory: a Document holds no decoded page between calls; one Render holds
// one page. Peak memory of one Render:
//   - PDF: the *image.Gray result (1 B/px), which MuPDF draws into
//     directly, plus MuPDF's own working memory (fonts, decoded embedded
//     images, transparency groups), which is capped at 4 B/px ×
//     Limits.MaxPixels + 64 MB; going over it fails the page with
//     PAGE_TOO_LARGE. A 36×24 in vector sheet at 300 DPI measured 78 MB of
//     Go heap and under 1 MB of MuPDF memory (process peak 88 MB). Through
//     go-fitz's ImageDPI the same page peaks at ~12 B/px: C pixmap, a
//     C.GoBytes copy and the *image.RGBA (924 MB measured), plus 1 B/px grey.
//   - PNG/JPEG/TIFF: the decoder's output (1–8 B/px; plus 2 B per sample
//     for progressive JPEG) plus the grey copy (1 B/px, none for 8-bit grey
//     images). Files whose decoder would need more than 4 B/px ×
//     Limits.MaxPixels are refused before decoding.
//
// The garbage of one page is collected before the next only if the Go GC
// runs; a worker that renders page after page keeps about two pages' worth
// of heap (measured 164 MB for the sheet above).
package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"mime"
	"os"
	"strings"
	"sync"
)

// Error codes. They are stable: jobs store them and clients see them.
const (
	CodeCorruptFile     = "CORRUPT_FILE"
	CodeEncryptedPDF    = "ENCRYPTED_PDF"
	CodeNoPages         = "NO_PAGES"
	CodePageTooLarge    = "PAGE_TOO_LARGE"
	CodeTooManyPages    = "TOO_MANY_PAGES"
	CodeUnsupportedType = "UNSUPPORTED_TYPE"
)

// Error is a permanent failure caused by the input file. Message is written
// for the person who uploaded the file.
type Error struct{ Code, Message string }

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

func errorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

// CodeOf returns the Code of an *Error in err's chain, or "".
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Limits bound the work and memory one document may cost.
type Limits struct {
	// DPI at which PDF pages are rendered (72..600).
	DPI int
	// MaxPixels is the largest page (width × height in pixels) that is
	// rendered or decoded. A PDF page larger at DPI is drawn at the highest
	// DPI, down to MinFitDPI, at which it fits (Document.PageSize tells
	// it); bigger pages fail with PAGE_TOO_LARGE.
	MaxPixels int64
	// MaxPages is the most pages a document may have (TOO_MANY_PAGES).
	MaxPages int
}

// Bounds of the settings. MaxPixels is capped so that every buffer MuPDF
// may make for a page (up to 2 B/px with alpha) stays below 2^31 bytes.
const (
	MinDPI           = 72
	MinFitDPI        = 150 // the least DPI a page too large at Limits.DPI is drawn at
	MaxDPI           = 600
	DefaultDPI       = 300
	MaxMaxPixels     = 1_000_000_000
	DefaultMaxPixels = 250_000_000
	DefaultMaxPages  = 1000
)

// DefaultLimits are 300 DPI, 250 MP and 1000 pages.
func DefaultLimits() Limits {
	return Limits{DPI: DefaultDPI, MaxPixels: DefaultMaxPixels, MaxPages: DefaultMaxPages}
}

// Validate reports settings outside their bounds.
func (l Limits) Validate() error {
	switch {
	case l.DPI < MinDPI || l.DPI > MaxDPI:
		return fmt.Errorf("render: DPI %d outside %d..%d", l.DPI, MinDPI, MaxDPI)
	case l.MaxPixels < 1 || l.MaxPixels > MaxMaxPixels:
		return fmt.Errorf("render: MaxPixels %d outside 1..%d", l.MaxPixels, int64(MaxMaxPixels))
	case l.MaxPages < 1:
		return fmt.Errorf("render: MaxPages %d must be at least 1", l.MaxPages)
	}
	return nil
}

// decodeBudget is the most bytes a decoder may need for one page.
func (l Limits) decodeBudget() int64 { return 4 * l.MaxPixels }

// Document is an opened drawing file. Its methods are safe for concurrent
// use, but a document renders one page at a time.
type Document interface {
	// Pages is the number of pages (sheets).
	Pages() int
	// PageSize is the size of page i (0-based) as Render will return it,
	// and its resolution in dots per inch. It does not decode the page.
	PageSize(i int) (widthPx, heightPx int, dpi int, err error)
	// Render decodes or draws page i as 8-bit grey (0 black, 255 white),
	// with bounds starting at (0,0).
	Render(i int) (*image.Gray, error)
	// Close releases the file and any decoder state.
	Close() error
}

// ContextRenderer is implemented by every Document of this package: its
// RenderContext stops (returning ctx.Err()) when ctx is done. PDF drawing
// stops within milliseconds; image decoders only check ctx before decoding.
type ContextRenderer interface {
	RenderContext(ctx context.Context, i int) (*image.Gray, error)
}

// RenderContext renders page i of d, honouring ctx where d supports it.
func RenderContext(ctx context.Context, d Document, i int) (*image.Gray, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cr, ok := d.(ContextRenderer); ok {
		return cr.RenderContext(ctx, i)
	}
	return d.Render(i)
}

// Content types Open accepts.
const (
	TypePDF  = "application/pdf"
	TypePNG  = "image/png"
	TypeJPEG = "image/jpeg"
	TypeTIFF = "image/tiff"
)

// sniffLen is how much of a file Sniff needs. PDF readers accept the
// %PDF- header anywhere in the first 1024 bytes.
const sniffLen = 1024

// Sniff names the type of a file from its first bytes (at least 1024 if
// the file has them): one of the Type constants, or a best-effort
// description of an unsupported type ("image/gif", "application/zip",
// "application/octet-stream" …).
func Sniff(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return TypePNG
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return TypeJPEG
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")),
		bytes.HasPrefix(head, []byte("II+\x00")), bytes.HasPrefix(head, []byte("MM\x00+")):
		return TypeTIFF
	case bytes.Contains(head[:min(len(head), sniffLen)], []byte("%PDF-")):
		return TypePDF
	case bytes.HasPrefix(head, []byte("GIF8")):
		return "image/gif"
	case bytes.HasPrefix(head, []byte("BM")):
		return "image/bmp"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "application/zip"
	case bytes.HasPrefix(head, []byte{0x1F, 0x8B}):
		return "application/gzip"
	case bytes.HasPrefix(head, []byte("AT&TFORM")):
		return "image/vnd.djvu"
	}
	return "application/octet-stream"
}

// normalizeType maps a Content-Type header value to one of the Type
// constants when it names a supported type (with common aliases), else
// returns the bare media type.
func normalizeType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(ct))
	}
	switch mt {
	case "application/pdf", "application/x-pdf":
		return TypePDF
	case "image/png", "image/x-png":
		return TypePNG
	case "image/jpeg", "image/jpg", "image/pjpeg":
		return TypeJPEG
	case "image/tiff", "image/tif", "image/x-tiff":
		return TypeTIFF
	}
	return mt
}

// Open opens the file at path, which the uploader said is of contentType
// ("" or application/octet-stream: decide from the content). The bytes must
// match the claimed type. Open reads only headers; pages are decoded by
// Render. The caller must Close the Document.
func Open(path string, contentType string, lim Limits) (Document, error) {
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("render: %s is not a regular file", path)
	}
	size := st.Size()
	if size == 0 {
		f.Close()
		return nil, errorf(CodeCorruptFile, "the file is empty")
	}
	head := make([]byte, min(size, sniffLen))
	if _, err := f.ReadAt(head, 0); err != nil {
		f.Close()
		return nil, err
	}
	sniffed := Sniff(head)
	claimed := normalizeType(contentType)
	if claimed == "" || claimed == "application/octet-stream" || claimed == "binary/octet-stream" {
		claimed = sniffed
	}
	switch claimed {
	case TypePDF, TypePNG, TypeJPEG, TypeTIFF:
	default:
		f.Close()
		return nil, errorf(CodeUnsupportedType, "%s files are not supported; upload PDF, PNG, JPEG or TIFF", claimed)
	}
	if sniffed != claimed {
		f.Close()
		what := "of an unknown type"
		if sniffed != "application/octet-stream" {
			what = "a " + sniffed + " file"
		}
		return nil, errorf(CodeCorruptFile, "the file was sent as %s but its content is %s", claimed, what)
	}
	var d Document
	switch claimed {
	case TypePDF:
		err = checkPDFEnd(f, size)
		f.Close() // MuPDF opens the file itself.
		if err == nil {
			d, err = openPDF(path, lim)
		}
	case TypePNG, TypeJPEG:
		d, err = openImage(f, size, claimed, lim)
	case TypeTIFF:
		d, err = openTIFF(f, size, lim)
	}
	if err != nil {
		if claimed != TypePDF {
			f.Close()
		}
		return nil, err
	}
	return d, nil
}

// safely runs a decoder and turns a panic inside it into CORRUPT_FILE.
// (Go decoders are meant not to panic on bad input; this is the backstop.)
func safely(what string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errorf(CodeCorruptFile, "%s could not be decoded (decoder failure)", what)
		}
	}()
	return fn()
}

// decodeErr classifies an error from a Go image decoder.
func decodeErr(what string, err error) error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return err
	case isUnsupported(err):
		return errorf(CodeUnsupportedType, "%s uses a feature that is not supported: %v", what, err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errorf(CodeCorruptFile, "%s is truncated", what)
	default:
		var pe *os.PathError
		if errors.As(err, &pe) {
			return err // I/O, not content
		}
		return errorf(CodeCorruptFile, "%s is damaged: %v", what, err)
	}
}

func pageTooLarge(page, w, h, dpi int, lim Limits) *Error {
	mp := float64(w) * float64(h) / 1e6
	return errorf(CodePageTooLarge,
		"page %d is %d × %d px (%.1f MP, %.1f × %.1f in at %d DPI), over the limit of %.1f MP",
		page+1, w, h, mp, float64(w)/float64(dpi), float64(h)/float64(dpi), dpi, float64(lim.MaxPixels)/1e6)
}

func checkIndex(i, n int) error {
	if i < 0 || i >= n {
		return fmt.Errorf("render: page index %d out of range [0,%d)", i, n)
	}
	return nil
}

// lockedFile is the open file of a raster document; decoders share one
// handle, so reads and Close are serialised by mu.
type lockedFile struct {
	mu sync.Mutex
	f  *os.File
}

// Close closes the file once; later calls do nothing.
func (l *lockedFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
