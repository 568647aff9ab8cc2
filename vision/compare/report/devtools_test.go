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
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
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

// TestDevMarkupReal marks up every PDF in $REAL_DIR (the real sets) with a
// cloud in the middle of each of its first pages (up to 3) and reports,
// per page, its rotation and whether the rendered cloud lands where it was
// asked to (the pixels that turned darker, against the asked box).
func TestDevMarkupReal(t *testing.T) {
	dir, out := os.Getenv("REAL_DIR"), os.Getenv("REPORT_OUT")
	if dir == "" {
		t.Skip("REAL_DIR not set")
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	const dpi = 72
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		before := renderPDF(t, src, dpi)
		var clouds []Cloud
		for i, g := range before[:min(3, len(before))] {
			w, h := float64(g.Rect.Dx()), float64(g.Rect.Dy())
			clouds = append(clouds, Cloud{Page: i + 1, Box: geom.Box{XMin: 0.3 * w, YMin: 0.6 * h, XMax: 0.5 * w, YMax: 0.8 * h}, Note: "test"})
		}
		var buf bytes.Buffer
		if err := Markup(&buf, bytes.NewReader(src), dpi, clouds); err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
			continue
		}
		ctx, _ := readPDF(bytes.NewReader(buf.Bytes()), pdfcpuConfig())
		after := renderPDF(t, buf.Bytes(), dpi)
		for i, c := range clouds {
			fr, _ := frameOf(ctx, c.Page)
			got, n := inkBox(after[i], before[i])
			fmt.Printf("%-40s p%d rot %3d box %v: cloud drawn at %.0f,%.0f–%.0f,%.0f (%d px), asked %.0f,%.0f–%.0f,%.0f\n",
				filepath.Base(path), c.Page, fr.rotate, fr.box, got.XMin, got.YMin, got.XMax, got.YMax, n,
				c.Box.XMin, c.Box.YMin, c.Box.XMax, c.Box.YMax)
			if out != "" && i == 0 {
				f, _ := os.Create(filepath.Join(out, "real-"+strings.TrimSuffix(filepath.Base(path), ".pdf")+".png"))
				png.Encode(f, after[i])
				f.Close()
			}
		}
	}
}
