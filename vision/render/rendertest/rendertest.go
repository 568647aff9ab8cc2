// Package rendertest loads drawing pages for the vision packages' tests:
// it opens a document through vision/render, renders its pages and reads
// a PDF page's words through vision/text, failing the test on any error.
// Pages are numbered from 1, as a PDF viewer and pdftotext number them.
//
// It is for tests only; vision/render itself must not import it (nor
// anything that imports the packages whose tests use it).
package rendertest

import (
	"context"
	"errors"
	"image"
	"testing"

	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/text"
)

// Open opens the document at path, of content type typ (render.TypePDF,
// render.TypeTIFF …), within render's default limits with PDF pages drawn
// at dpi. It is closed when the test ends (closing it sooner does no
// harm).
func Open(t testing.TB, path, typ string, dpi int) render.Document {
	t.Helper()
	doc := open(t, path, typ, dpi)
	t.Cleanup(func() { doc.Close() })
	return doc
}

func open(t testing.TB, path, typ string, dpi int) render.Document {
	t.Helper()
	lim := render.DefaultLimits()
	lim.DPI = dpi
	doc, err := render.Open(path, typ, lim)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// Render renders page n of doc.
func Render(t testing.TB, doc render.Document, n int) *image.Gray {
	t.Helper()
	img, err := render.RenderContext(context.Background(), doc, n-1)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// Image renders page n of the document at path, of content type typ, at
// dpi (see Open); the document is closed before it returns.
func Image(t testing.TB, path, typ string, n, dpi int) *image.Gray {
	t.Helper()
	doc := open(t, path, typ, dpi)
	defer doc.Close()
	return Render(t, doc, n)
}

// Words reads the text layer of page n of the PDF at path, its boxes in
// pixels at dpi. Without pdftotext the test fails, saying how to install
// it.
func Words(t testing.TB, path string, n, dpi int) text.Page {
	t.Helper()
	page, err := text.PDFPage(context.Background(), path, n, float64(dpi)/72)
	if errors.Is(err, text.ErrNoPdftotext) {
		t.Fatalf("%v: run scripts/deps.sh", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// Page renders page n of the PDF at path at dpi and reads its words at
// the same resolution (Image and Words).
func Page(t testing.TB, path string, n, dpi int) (*image.Gray, text.Page) {
	t.Helper()
	return Image(t, path, render.TypePDF, n, dpi), Words(t, path, n, dpi)
}
