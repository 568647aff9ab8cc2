//go:build devtools

package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestDevWriteReport writes the sample report as Markdown and PDF, and the
// PDF's pages as PNG, into $REPORT_OUT for a person to look at.
func TestDevWriteReport(t *testing.T) {
	dir := os.Getenv("REPORT_OUT")
	if dir == "" {
		t.Skip("REPORT_OUT not set")
	}
	im := image.NewRGBA(image.Rect(0, 0, 800, 500))
	for i := range im.Pix {
		im.Pix[i] = 255
	}
	for x := 100; x < 700; x++ {
		for k := 0; k < 3; k++ {
			im.Set(x, 100+k, color.RGBA{160, 160, 160, 255})
			im.Set(x, 250+k, color.RGBA{220, 30, 30, 255})
			im.Set(x, 290+k, color.RGBA{20, 160, 40, 255})
		}
	}
	var md, pdf bytes.Buffer
	if err := Markdown(&md, sampleReport()); err != nil {
		t.Fatal(err)
	}
	if err := PDF(&pdf, sampleReport(), func(string) (image.Image, error) { return im, nil }); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "report.md"), md.Bytes(), 0o644)
	path := filepath.Join(dir, "report.pdf")
	os.WriteFile(path, pdf.Bytes(), 0o644)
	renderPages(t, path, dir, "report", 100)
}

func renderPages(t *testing.T, path, dir, name string, dpi int) {
	pdf, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range renderPDF(t, pdf, dpi) {
		f, _ := os.Create(filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, i+1)))
		png.Encode(f, g)
		f.Close()
	}
}
