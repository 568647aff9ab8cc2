package render

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image/jpeg"
	"os"
	"strings"
	"testing"
	"time"
)

// fuzzLimits keep each input cheap: small pages, few pages.
var fuzzLimits = Limits{DPI: 72, MaxPixels: 1 << 20, MaxPages: 8}

// fuzzOpen writes data to a file, opens it as contentType and renders up
// to two pages. Bad input must end as an *Error; nothing may panic or hang.
func fuzzOpen(t *testing.T, dir string, data []byte, contentType string) {
	f, err := os.CreateTemp(dir, "fuzz")
	if err != nil {
		t.Fatal(err)
	}
	path := f.Name()
	defer os.Remove(path)
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	f.Close()

	d, err := Open(path, contentType, fuzzLimits)
	if err != nil {
		if CodeOf(err) == "" {
			t.Fatalf("Open: error without a code: %v", err)
		}
		return
	}
	defer d.Close()
	if n := d.Pages(); n < 1 || n > fuzzLimits.MaxPages {
		t.Fatalf("Pages = %d", n)
	}
	for i := range min(d.Pages(), 2) {
		w, h, dpi, err := d.PageSize(i)
		if err != nil {
			if CodeOf(err) == "" {
				t.Fatalf("PageSize: error without a code: %v", err)
			}
			continue
		}
		if w <= 0 || h <= 0 || dpi <= 0 {
			t.Fatalf("PageSize = %d×%d @%d", w, h, dpi)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		img, err := RenderContext(ctx, d, i)
		cancel()
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			t.Fatalf("page %d: render took over 10 s", i)
		case err != nil:
			if CodeOf(err) == "" {
				t.Fatalf("Render: error without a code: %v", err)
			}
		case img.Rect.Dx() != w || img.Rect.Dy() != h:
			t.Fatalf("Render gave %v; PageSize said %d×%d", img.Rect, w, h)
		}
	}
}

func FuzzOpenTIFF(f *testing.F) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		f.Add(buildTIFF(order, tiffPage{img: gradient(8, 6, 1), num: 300, den: 1, unit: 2}))
		f.Add(buildTIFF(order,
			tiffPage{img: gradient(16, 9, 1), num: 200, den: 1, unit: 3, strips: 2},
			tiffPage{img: gradient(5, 4, 2), subfile: 1},
			tiffPage{img: gradient(7, 11, 3)}))
	}
	f.Add([]byte("II*\x00\x08\x00\x00\x00"))
	f.Add([]byte("MM\x00*\x00\x00\x00\x08\x00\x01\x01\x00\x00\x04\x00\x00\x00\x01\xff\xff\xff\xff"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzOpen(t, dir, data, TypeTIFF)
	})
}

func FuzzOpenPNG(f *testing.F) {
	g := gradient(13, 7, 1)
	f.Add(mustPNG(f, g))
	f.Add(withPHYs(mustPNG(f, g), 11811))
	f.Add(mustPNG(f, grayAsRGBA(g)))
	f.Add(mustPNG(f, grayAsPaletted(g)))
	f.Add(mustPNG(f, grayAs16(g)))
	f.Add(bombPNG(100000, 100000))
	f.Add(bombPNG(1000, 1000))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzOpen(t, dir, data, TypePNG)
	})
}

func FuzzOpenPDF(f *testing.F) {
	f.Add(linePDF(200, 100))
	f.Add(makePDF(pdfPage{w: 100, h: 50, content: "0 0 1 rg 10 10 30 20 re f"}, pdfPage{w: 50, h: 100, extra: "/Rotate 90"}))
	f.Add(buildPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, ""))
	neg := pdfObjects(pdfPage{w: 20, h: 20})
	neg[1] = "<< /Type /Pages /Kids [3 0 R] /Count -1 >>"
	f.Add(buildPDF(neg, ""))
	enc := append(pdfObjects(pdfPage{w: 20, h: 20}),
		"<< /Filter /Standard /V 1 /R 2 /O <"+strings.Repeat("ab", 32)+"> /U <"+strings.Repeat("cd", 32)+"> /P -4 >>")
	f.Add(buildPDF(enc, "/Encrypt 5 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>] "))
	annot := append(pdfObjects(pdfPage{w: 100, h: 100, extra: "/Annots [5 0 R]"}),
		"<< /Type /Annot /Subtype /Square /Rect [10 10 50 50] /AP << /N 6 0 R >> >>",
		"<< /Type /XObject /Subtype /Form /BBox [0 0 40 40] /Length 18 >>\nstream\n0 0 40 40 re f\n\nendstream")
	f.Add(buildPDF(annot, ""))
	img := pdfObjects(pdfPage{w: 40, h: 40, content: "40 0 0 40 0 0 cm /Im0 Do", extra: "/Resources << /XObject << /Im0 5 0 R >> >>"})
	img = append(img, "<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x00\xff\xff\x00\nendstream")
	f.Add(buildPDF(img, ""))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzOpen(t, dir, data, TypePDF)
	})
}

func FuzzOpenJPEG(f *testing.F) {
	var gray, col bytes.Buffer
	jpeg.Encode(&gray, gradient(16, 16, 1), nil)
	jpeg.Encode(&col, grayAsRGBA(gradient(16, 16, 2)), nil)
	f.Add(gray.Bytes())
	f.Add(withJFIF(gray.Bytes(), 1, 200))
	f.Add(withExif(col.Bytes(), 300, 2))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzOpen(t, dir, data, TypeJPEG)
	})
}

// FuzzSniff feeds any bytes through content sniffing with no declared type.
func FuzzSniff(f *testing.F) {
	f.Add([]byte("%PDF-1.4"))
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte("II*\x00"))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xE0})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		typ := Sniff(data)
		if typ == "" {
			t.Fatal("empty type")
		}
		if len(data) > 0 && len(data) < 4096 {
			fuzzOpen(t, dir, data, "")
		}
	})
}

// TestPDFHostileNumbers is a deterministic complement to FuzzOpenPDF, whose
// coverage guidance cannot see inside MuPDF: every number in a few small
// PDFs is replaced in turn by values that break naive parsers. No input
// may panic, hang or abort the process.
func TestPDFHostileNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	img := pdfObjects(pdfPage{w: 40, h: 40, content: "40 0 0 40 0 0 cm /Im0 Do", extra: "/Resources << /XObject << /Im0 5 0 R >> >>"})
	img = append(img, "<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x00\xff\xff\x00\nendstream")
	seeds := [][]string{
		pdfObjects(pdfPage{w: 200, h: 100, content: "0 0 0 RG 4 w 10 10 m 190 90 l S", extra: "/Rotate 0"}, pdfPage{w: 50, h: 60}),
		img,
	}
	hostile := []string{"-1", "0", "2147483648", "-2147483649", "99999999999999999999", "1e30", "-0.0", "3.4e38"}
	dir := t.TempDir()
	runs := 0
	for _, objs := range seeds {
		for o := range objs {
			toks := strings.Fields(objs[o])
			for k, tok := range toks {
				if strings.Trim(tok, "0123456789.-[]") != "" || strings.Trim(tok, "[]") == "" || strings.Contains(tok, "stream") {
					continue
				}
				for _, v := range hostile {
					mut := append([]string{}, objs...)
					tt := append([]string{}, toks...)
					tt[k] = strings.Replace(tok, strings.Trim(tok, "[]"), v, 1)
					mut[o] = strings.Join(tt, " ")
					if strings.Contains(objs[o], "stream\n") { // keep stream bodies byte-exact
						continue
					}
					fuzzOpen(t, dir, buildPDF(mut, ""), TypePDF)
					runs++
				}
			}
		}
	}
	// Content streams: the same values as coordinates, widths and matrices.
	for _, content := range []string{
		"0 0 0 RG 4 w 10 10 m 190 90 l S 1 0 0 1 5 5 cm 0 0 1 rg 10 10 30 20 re f",
		"q 40 0 0 40 0 0 cm /Im0 Do Q 0.5 g 1 1 10 10 re f",
	} {
		toks := strings.Fields(content)
		for k, tok := range toks {
			if strings.Trim(tok, "0123456789.-") != "" {
				continue
			}
			for _, v := range hostile {
				tt := append([]string{}, toks...)
				tt[k] = v
				objs := pdfObjects(pdfPage{w: 200, h: 100, content: strings.Join(tt, " "), extra: "/Resources << /XObject << /Im0 5 0 R >> >>"})
				objs = append(objs, img[4])
				fuzzOpen(t, dir, buildPDF(objs, ""), TypePDF)
				runs++
			}
		}
	}
	t.Logf("%d mutated PDFs", runs)
}
