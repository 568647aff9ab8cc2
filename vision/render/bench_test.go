package render

import (
	"context"
	"image"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	fitz "github.com/gen2brain/go-fitz"
)

var sheet struct {
	once sync.Once
	pdf  []byte
	img  *image.Gray
	err  error
}

// sheetPDF writes a 36×24 in drawing with ~25,000 strokes into the
// benchmark's temporary directory, and returns it with its 300 DPI
// rendering (made once per test binary).
func sheetPDF(b *testing.B) (string, *image.Gray) {
	path := filepath.Join(b.TempDir(), "sheet.pdf")
	sheet.once.Do(func() {
		sheet.pdf = makePDF(pdfPage{w: 2592, h: 1728, content: sheetContent(42)})
		if sheet.err = os.WriteFile(path, sheet.pdf, 0o600); sheet.err != nil {
			return
		}
		d, err := Open(path, TypePDF, DefaultLimits())
		if err != nil {
			sheet.err = err
			return
		}
		defer d.Close()
		sheet.img, sheet.err = d.Render(0)
	})
	if sheet.err != nil {
		b.Fatal(sheet.err)
	}
	if err := os.WriteFile(path, sheet.pdf, 0o600); err != nil {
		b.Fatal(err)
	}
	return path, sheet.img
}

// BenchmarkRenderPDF draws a 36×24 in sheet at 300 DPI (10800×7200 px).
// MB/s counts output pixels (1 byte each); compare ns/op with
// `time pdftoppm -r 300 -gray sheet.pdf out`.
func BenchmarkRenderPDF(b *testing.B) {
	path, _ := sheetPDF(b)
	d, err := Open(path, TypePDF, DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	w, h, _, _ := d.PageSize(0)
	b.SetBytes(int64(w * h))
	b.ResetTimer()
	for b.Loop() {
		if _, err := d.Render(0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d.(*pdfDoc).mupdfPeak())/1e6, "mupdf-peak-MB")
}

// BenchmarkRenderPDFGoFitz is the same page through go-fitz's ImageDPI and
// a grey conversion, for comparison (its C memory is not in B/op).
func BenchmarkRenderPDFGoFitz(b *testing.B) {
	path, _ := sheetPDF(b)
	doc, err := fitz.New(path)
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	b.SetBytes(10800 * 7200)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rgba, err := doc.ImageDPI(0, 300)
		if err != nil {
			b.Fatal(err)
		}
		_ = toGray(rgba)
	}
}

func BenchmarkEncodePNGSheet(b *testing.B) {
	_, img := sheetPDF(b)
	b.SetBytes(int64(len(img.Pix)))
	for b.Loop() {
		if err := EncodePNG(io.Discard, img); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkThumbnailSheet(b *testing.B) {
	_, img := sheetPDF(b)
	b.SetBytes(int64(len(img.Pix)))
	for b.Loop() {
		Thumbnail(img, 512)
	}
}

func BenchmarkWriteDZISheet(b *testing.B) {
	_, img := sheetPDF(b)
	b.SetBytes(int64(len(img.Pix)))
	var n, size int64
	var mu sync.Mutex
	for b.Loop() {
		n, size = 0, 0
		_, err := WriteDZI(context.Background(), img, DZITileSize, DZIOverlap, DZIFormat, func(_ context.Context, _ string, data []byte) error {
			mu.Lock()
			n++
			size += int64(len(data))
			mu.Unlock()
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "tiles")
	b.ReportMetric(float64(size)/1e6, "tile-MB")
}
