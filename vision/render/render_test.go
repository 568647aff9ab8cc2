package render

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLimitsValidate(t *testing.T) {
	if err := DefaultLimits().Validate(); err != nil {
		t.Fatal(err)
	}
	if l := DefaultLimits(); l.DPI != 300 || l.MaxPixels != 250_000_000 || l.MaxPages != 1000 {
		t.Fatalf("DefaultLimits = %+v", l)
	}
	for _, tc := range []struct {
		l  Limits
		ok bool
	}{
		{Limits{72, 1, 1}, true},
		{Limits{600, MaxMaxPixels, 1}, true},
		{Limits{71, 1000, 1}, false},
		{Limits{601, 1000, 1}, false},
		{Limits{300, 0, 1}, false},
		{Limits{300, MaxMaxPixels + 1, 1}, false},
		{Limits{300, 1000, 0}, false},
	} {
		if err := tc.l.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v.Validate() = %v", tc.l, err)
		}
	}
	if _, err := Open("/nonexistent", TypePDF, Limits{DPI: 1000, MaxPixels: 1, MaxPages: 1}); err == nil || CodeOf(err) != "" {
		t.Errorf("Open with bad limits = %v; want a plain error", err)
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		head string
		want string
	}{
		{"%PDF-1.7\n", TypePDF},
		{strings.Repeat(" ", 500) + "%PDF-1.4", TypePDF},
		{strings.Repeat(" ", 1100) + "%PDF-1.4", "application/octet-stream"},
		{"\x89PNG\r\n\x1a\n....", TypePNG},
		{"\xff\xd8\xff\xe0", TypeJPEG},
		{"II*\x00\x08\x00\x00\x00", TypeTIFF},
		{"MM\x00*\x00\x00\x00\x08", TypeTIFF},
		{"II+\x00", TypeTIFF},
		{"GIF89a", "image/gif"},
		{"PK\x03\x04", "application/zip"},
		{"", "application/octet-stream"},
		{"hello", "application/octet-stream"},
	} {
		if got := Sniff([]byte(tc.head)); got != tc.want {
			t.Errorf("Sniff(%.20q) = %q; want %q", tc.head, got, tc.want)
		}
	}
}

func TestErrorType(t *testing.T) {
	var err error = &Error{Code: CodeNoPages, Message: "the PDF has no pages"}
	if err.Error() != "NO_PAGES: the PDF has no pages" {
		t.Errorf("Error() = %q", err.Error())
	}
	wrapped := fmt.Errorf("job 7: %w", err)
	if CodeOf(wrapped) != CodeNoPages || CodeOf(errors.New("x")) != "" || CodeOf(nil) != "" {
		t.Error("CodeOf does not see through wrapping")
	}
}

func TestOpenPDF(t *testing.T) {
	path := writeTemp(t, "upload.bin", linePDF(200, 100)) // no .pdf extension on purpose
	for _, dpi := range []int{72, 150, 300} {
		lim := DefaultLimits()
		lim.DPI = dpi
		d, err := Open(path, "application/pdf; charset=binary", lim)
		if err != nil {
			t.Fatal(err)
		}
		if d.Pages() != 1 {
			t.Fatalf("Pages = %d", d.Pages())
		}
		w, h, gotDPI, err := d.PageSize(0)
		if err != nil {
			t.Fatal(err)
		}
		wantW, wantH := (200*dpi+71)/72, (100*dpi+71)/72
		if w != wantW || h != wantH || gotDPI != dpi {
			t.Fatalf("dpi %d: PageSize = %d×%d @%d; want %d×%d", dpi, w, h, gotDPI, wantW, wantH)
		}
		img, err := d.Render(0)
		if err != nil {
			t.Fatal(err)
		}
		if img.Rect != image.Rect(0, 0, w, h) {
			t.Fatalf("Render bounds %v; PageSize %d×%d", img.Rect, w, h)
		}
		s := float64(dpi) / 72
		// The line runs from (10,10) to (190,90) in PDF space (y up).
		mid := img.GrayAt(int(100*s), h-1-int(50*s)).Y
		corner := img.GrayAt(2, 2).Y
		if mid > 60 || corner != 255 {
			t.Errorf("dpi %d: line pixel %d, corner %d; want dark line on white", dpi, mid, corner)
		}
		if _, err := d.Render(1); err == nil || CodeOf(err) != "" {
			t.Errorf("Render(1) = %v; want a plain index error", err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Render(0); err == nil {
			t.Error("Render after Close succeeded")
		}
	}
}

func TestPDFPagesAndRotation(t *testing.T) {
	data := makePDF(
		pdfPage{w: 612, h: 792},
		pdfPage{w: 2592, h: 1728, content: "0 0 0 rg 0 0 100 100 re f"},
		pdfPage{w: 612, h: 792, extra: "/Rotate 90"},
	)
	lim := DefaultLimits()
	lim.DPI = 72
	d, err := Open(writeTemp(t, "a.pdf", data), TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want := [][2]int{{612, 792}, {2592, 1728}, {792, 612}}
	if d.Pages() != 3 {
		t.Fatalf("Pages = %d", d.Pages())
	}
	for i, wh := range want {
		w, h, _, err := d.PageSize(i)
		if err != nil || w != wh[0] || h != wh[1] {
			t.Errorf("page %d: %d×%d, %v; want %v", i, w, h, err, wh)
		}
	}
	img, err := d.Render(1)
	if err != nil {
		t.Fatal(err)
	}
	// The filled square is at the bottom left (PDF y is up).
	if img.GrayAt(50, 1728-50).Y != 0 || img.GrayAt(150, 1728-50).Y != 255 {
		t.Errorf("square not where expected")
	}
}

// TestPDFAnnotations checks that annotations (reviewers' markups) are drawn,
// which go-fitz's ImageDPI does not do.
func TestPDFAnnotations(t *testing.T) {
	form := "0 0 0 rg 0 0 100 60 re f"
	objs := pdfObjects(pdfPage{w: 200, h: 100, extra: "/Annots [5 0 R]"})
	objs = append(objs,
		"<< /Type /Annot /Subtype /Square /Rect [50 20 150 80] /F 4 /AP << /N 6 0 R >> >>",
		fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 100 60] /Length %d >>\nstream\n%s\nendstream", len(form), form))
	lim := DefaultLimits()
	lim.DPI = 72
	d, err := Open(writeTemp(t, "annot.pdf", buildPDF(objs, "")), TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.Render(0)
	if err != nil {
		t.Fatal(err)
	}
	if v := img.GrayAt(100, 50).Y; v != 0 {
		t.Errorf("annotation pixel = %d; want 0 (drawn)", v)
	}
}

func TestPDFBadInput(t *testing.T) {
	good := linePDF(200, 100)
	negCount := pdfObjects(pdfPage{w: 200, h: 100})
	negCount[1] = "<< /Type /Pages /Kids [3 0 R] /Count -1 >>"
	hugeCount := pdfObjects(pdfPage{w: 200, h: 100})
	hugeCount[1] = "<< /Type /Pages /Kids [3 0 R] /Count 2000000000 >>"
	// Standard security handler, revision 2, with a /U that no empty user
	// password can produce: MuPDF must ask for a password.
	enc := append(pdfObjects(pdfPage{w: 200, h: 100}),
		"<< /Filter /Standard /V 1 /R 2 /O <"+strings.Repeat("ab", 32)+"> /U <"+strings.Repeat("cd", 32)+"> /P -4 >>")
	encPDF := buildPDF(enc, "/Encrypt 5 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] ")
	three := makePDF(pdfPage{w: 100, h: 100}, pdfPage{w: 100, h: 100}, pdfPage{w: 100, h: 100})

	for _, tc := range []struct {
		name string
		data []byte
		lim  func(*Limits)
		open string // code from Open
	}{
		{"truncated 80%", good[:len(good)*8/10], nil, CodeCorruptFile},
		{"truncated 30%", good[:len(good)*3/10], nil, CodeCorruptFile},
		{"header only", []byte("%PDF-1.4\n%%EOF\n"), nil, CodeCorruptFile},
		{"garbage body", append([]byte("%PDF-1.4\n"+strings.Repeat("\x00\xff garbage ", 100)), "\n%%EOF\n"...), nil, CodeCorruptFile},
		{"no pages", buildPDF([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, ""), nil, CodeNoPages},
		{"negative page count", buildPDF(negCount, ""), nil, CodeCorruptFile}, // exits the process through go-fitz
		{"absurd page count", buildPDF(hugeCount, ""), nil, CodeTooManyPages},
		{"encrypted", encPDF, nil, CodeEncryptedPDF},
		{"too many pages", three, func(l *Limits) { l.MaxPages = 2 }, CodeTooManyPages},
		{"not a pdf", []byte("hello, this is text\n"), nil, CodeCorruptFile},
		{"png sent as pdf", mustPNG(t, gradient(10, 10, 0)), nil, CodeCorruptFile},
		{"empty", nil, nil, CodeCorruptFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := DefaultLimits()
			if tc.lim != nil {
				tc.lim(&lim)
			}
			start := time.Now()
			d, err := Open(writeTemp(t, "x.pdf", tc.data), TypePDF, lim)
			if err == nil {
				d.Close()
			}
			wantCode(t, err, tc.open)
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("took %v", el)
			}
		})
	}
}

// A sheet too large at the DPI asked for is drawn at the highest DPI it
// fits at: a 36 × 24 in sheet under a 50 MP cap at 240 DPI, its marks and
// its size at that DPI.
func TestPDFPageFitsAtLowerDPI(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxPixels = 50_000_000
	d, err := Open(writeTemp(t, "big.pdf", makePDF(pdfPage{w: 2592, h: 1728, content: "0 0 0 rg 1296 864 72 72 re f"})), TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	w, h, dpi, err := d.PageSize(0)
	if err != nil || dpi != 240 || w != 8640 || h != 5760 {
		t.Fatalf("PageSize = %d×%d at %d DPI, %v; want 8640×5760 at 240", w, h, dpi, err)
	}
	img, err := d.Render(0)
	if err != nil || img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Fatalf("Render: %v, %v", img.Bounds(), err)
	}
	// the square 1 in wide from the centre, at 240 px an inch
	if v := img.GrayAt(4320+120, 2880-120).Y; v != 0 {
		t.Errorf("inside the square: %d", v)
	}
	if v := img.GrayAt(4320+250, 2880-120).Y; v != 255 {
		t.Errorf("right of the square: %d", v)
	}
	vec, _, err := Vectors(context.Background(), d, 0)
	if err != nil || vec.DPI != 240 || vec.W != w {
		t.Errorf("Vectors at %d DPI, %d px wide, %v", vec.DPI, vec.W, err)
	}
}

// A sheet too large even at MinFitDPI fails, and its message tells the
// page's size at the DPI asked for.
func TestPDFPageTooLarge(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxPixels = 15_000_000 // under the 19.4 MP the sheet is at 150 DPI
	d, err := Open(writeTemp(t, "big.pdf", makePDF(pdfPage{w: 2592, h: 1728})), TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	w, h, _, err := d.PageSize(0) // sizes are known without rendering
	if err != nil || w != 10800 || h != 7200 {
		t.Fatalf("PageSize = %d×%d, %v", w, h, err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = d.Render(0)
	runtime.ReadMemStats(&after)
	wantCode(t, err, CodePageTooLarge)
	msg := err.(*Error).Message
	for _, s := range []string{"77.8 MP", "15.0 MP", "36.0 × 24.0 in", "300 DPI"} {
		if !strings.Contains(msg, s) {
			t.Errorf("message %q lacks %q", msg, s)
		}
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing the page allocated %d bytes", n)
	}
}

// TestPDFWorkingMemoryCap: MuPDF's own allocations count against the
// budget. A 1500×1500 RGB image stretched over a 1000×1000 px page is
// decoded whole (6.75 MB): fine by default, PAGE_TOO_LARGE when the budget
// is 4 MB.
func TestPDFWorkingMemoryCap(t *testing.T) {
	const iw, ih = 1500, 1500
	raw := bytes.Repeat([]byte{0x80}, iw*ih*3)
	var z bytes.Buffer
	zw := newZlib(&z)
	zw.Write(raw)
	zw.Close()
	content := "1000 0 0 1000 0 0 cm /Im0 Do"
	objs := pdfObjects(pdfPage{w: 1000, h: 1000, content: content, extra: "/Resources << /XObject << /Im0 5 0 R >> >>"})
	objs = append(objs, fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream",
		iw, ih, z.Len(), z.String()))
	path := writeTemp(t, "img.pdf", buildPDF(objs, ""))

	lim := DefaultLimits()
	lim.DPI = 72
	lim.MaxPixels = 1_000_000
	d, err := Open(path, TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	img, err := d.Render(0)
	if err != nil {
		t.Fatalf("with the default budget: %v", err)
	}
	if v := img.GrayAt(500, 500).Y; v != 0x80 {
		t.Errorf("image pixel %d; want 0x80", v)
	}
	t.Logf("MuPDF peak %.1f MB", float64(d.(*pdfDoc).mupdfPeak())/1e6)
	d.Close()

	old := pdfSlackBytes
	pdfSlackBytes = 0
	defer func() { pdfSlackBytes = old }()
	d, err = Open(path, TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_, err = d.Render(0)
	wantCode(t, err, CodePageTooLarge)
	t.Log(err)
}

func TestPDFCancel(t *testing.T) {
	d, err := Open(writeTemp(t, "sheet.pdf", makePDF(pdfPage{w: 2592, h: 1728, content: sheetContent(1)})), TypePDF, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = RenderContext(ctx, d, 0)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want deadline exceeded", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("cancellation took %v", el)
	}
	// The document still works afterwards.
	if _, err := d.Render(0); err != nil {
		t.Fatal(err)
	}
}

func TestPDFConcurrent(t *testing.T) {
	lim := DefaultLimits()
	lim.DPI = 150
	var docs []Document
	for i := range 3 {
		d, err := Open(writeTemp(t, fmt.Sprintf("%d.pdf", i), makePDF(pdfPage{w: 600, h: 400, content: sheetContent(uint64(i))})), TypePDF, lim)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		docs = append(docs, d)
	}
	ref := make([]*image.Gray, len(docs))
	for i, d := range docs {
		var err error
		if ref[i], err = d.Render(0); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for k := range 12 { // several goroutines per document, several documents at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			i := k % len(docs)
			img, err := docs[i].Render(0)
			if err != nil {
				t.Error(err)
				return
			}
			if !bytes.Equal(img.Pix, ref[i].Pix) {
				t.Errorf("doc %d: concurrent render differs", i)
			}
		}()
	}
	wg.Wait()
}

func TestContentTypes(t *testing.T) {
	pngData := mustPNG(t, gradient(10, 10, 0))
	for _, tc := range []struct {
		name, ct string
		data     []byte
		code     string // "" = opens
	}{
		{"png as png", "image/png", pngData, ""},
		{"png unlabeled", "", pngData, ""},
		{"png octet-stream", "application/octet-stream", pngData, ""},
		{"png alias", "image/x-png", pngData, ""},
		{"png as jpeg", "image/jpeg", pngData, CodeCorruptFile},
		{"png as tiff", "image/tiff", pngData, CodeCorruptFile},
		{"gif", "image/gif", []byte("GIF89a...."), CodeUnsupportedType},
		{"gif unlabeled", "", []byte("GIF89a...."), CodeUnsupportedType},
		{"text unlabeled", "", []byte("hello"), CodeUnsupportedType},
		{"garbage as png", "image/png", []byte("not a png at all"), CodeCorruptFile},
		{"empty", "image/png", nil, CodeCorruptFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(writeTemp(t, "f", tc.data), tc.ct, DefaultLimits())
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				d.Close()
				return
			}
			wantCode(t, err, tc.code)
		})
	}
}

func mustPNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngChunk returns a PNG chunk with its CRC.
func pngChunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	return b.Bytes()
}

// withPHYs inserts a pHYs chunk (pixels per metre) after IHDR.
func withPHYs(pngData []byte, ppm uint32) []byte {
	var d [9]byte
	binary.BigEndian.PutUint32(d[0:], ppm)
	binary.BigEndian.PutUint32(d[4:], ppm)
	d[8] = 1
	ihdrEnd := 8 + 12 + 13
	out := append([]byte{}, pngData[:ihdrEnd]...)
	out = append(out, pngChunk("pHYs", d[:])...)
	return append(out, pngData[ihdrEnd:]...)
}

func TestPNG(t *testing.T) {
	g := gradient(37, 23, 3)
	for _, tc := range []struct {
		name string
		data []byte
		dpi  int
		want *image.Gray
	}{
		{"gray no pHYs", mustPNG(t, g), 300, g},
		{"gray 200 dpi", withPHYs(mustPNG(t, g), 7874), 200, g}, // 7874 px/m = 200.0 dpi
		{"gray 400 dpi", withPHYs(mustPNG(t, g), 15748), 400, g},
		{"rgb", mustPNG(t, grayAsRGBA(g)), 300, g},
		{"paletted", mustPNG(t, grayAsPaletted(g)), 300, g},
		{"gray16", mustPNG(t, grayAs16(g)), 300, g},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(writeTemp(t, "p.png", tc.data), TypePNG, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			w, h, dpi, err := d.PageSize(0)
			if err != nil || w != 37 || h != 23 || dpi != tc.dpi || d.Pages() != 1 {
				t.Fatalf("PageSize = %d×%d @%d, %v", w, h, dpi, err)
			}
			img, err := d.Render(0)
			if err != nil {
				t.Fatal(err)
			}
			if img.Rect != tc.want.Rect || !bytes.Equal(img.Pix, tc.want.Pix) {
				t.Errorf("pixels differ")
			}
		})
	}
}

func grayAsRGBA(g *image.Gray) *image.NRGBA {
	m := image.NewNRGBA(g.Rect)
	for i, v := range g.Pix {
		copy(m.Pix[4*i:], []byte{v, v, v, 255})
	}
	return m
}

func grayAsPaletted(g *image.Gray) *image.Paletted {
	pal := make(color.Palette, 256)
	for i := range pal {
		pal[i] = color.Gray{uint8(i)}
	}
	m := image.NewPaletted(g.Rect, pal)
	copy(m.Pix, g.Pix)
	return m
}

func grayAs16(g *image.Gray) *image.Gray16 {
	m := image.NewGray16(g.Rect)
	for i, v := range g.Pix {
		m.Pix[2*i], m.Pix[2*i+1] = v, v
	}
	return m
}

// bombPNG is a valid PNG header claiming w × h pixels followed by a tiny
// IDAT: decoding it would allocate w·h bytes.
func bombPNG(w, h uint32) []byte {
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 0 // 8-bit grey
	var z bytes.Buffer
	zw := newZlib(&z)
	zw.Write(make([]byte, 1000))
	zw.Close()
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, pngChunk("IHDR", ihdr[:])...)
	out = append(out, pngChunk("IDAT", z.Bytes())...)
	return append(out, pngChunk("IEND", nil)...)
}

func TestPNGBomb(t *testing.T) {
	d, err := Open(writeTemp(t, "bomb.png", bombPNG(100000, 100000)), TypePNG, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if w, h, _, _ := d.PageSize(0); w != 100000 || h != 100000 {
		t.Fatalf("PageSize %d×%d", w, h)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = d.Render(0)
	runtime.ReadMemStats(&after)
	wantCode(t, err, CodePageTooLarge)
	if !strings.Contains(err.Error(), "10000.0 MP") {
		t.Errorf("message: %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing the image allocated %d bytes", n)
	}
	// Under the pixel cap but over the decoder budget: 16-bit RGBA is 8 B/px.
	lim := DefaultLimits()
	lim.MaxPixels = 1_000_000
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], 1000)
	binary.BigEndian.PutUint32(ihdr[4:], 1000)
	ihdr[8], ihdr[9] = 16, 6
	data := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr[:])...)
	data = append(data, pngChunk("IEND", nil)...)
	d2, err := Open(writeTemp(t, "deep.png", data), "", lim)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	_, err = d2.Render(0)
	wantCode(t, err, CodePageTooLarge)
}

func TestPNGTruncated(t *testing.T) {
	data := mustPNG(t, gradient(300, 200, 1))
	d, err := Open(writeTemp(t, "t.png", data[:len(data)/2]), TypePNG, DefaultLimits())
	if err != nil {
		t.Fatal(err) // the header is intact
	}
	defer d.Close()
	_, err = d.Render(0)
	wantCode(t, err, CodeCorruptFile)
}

// withJFIF replaces the JPEG's APP0 (or inserts one) with a JFIF segment of
// the given density unit (1 dpi, 2 dots/cm) and density.
func withJFIF(jpg []byte, unit byte, density uint16) []byte {
	seg := []byte{0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 2, unit, byte(density >> 8), byte(density), byte(density >> 8), byte(density), 0, 0}
	rest := jpg[2:]
	if rest[0] == 0xFF && rest[1] == 0xE0 {
		rest = rest[2+int(binary.BigEndian.Uint16(rest[2:])):]
	}
	return append(append([]byte{0xFF, 0xD8}, seg...), rest...)
}

// withExif inserts an Exif APP1 segment with XResolution and ResolutionUnit.
func withExif(jpg []byte, res uint32, unit uint16) []byte {
	var t bytes.Buffer
	t.WriteString("MM\x00*")
	binary.Write(&t, binary.BigEndian, uint32(8))
	binary.Write(&t, binary.BigEndian, uint16(2))
	// XResolution RATIONAL at offset 8+2+24+4 = 38
	binary.Write(&t, binary.BigEndian, []uint16{282, 5})
	binary.Write(&t, binary.BigEndian, []uint32{1, 38})
	binary.Write(&t, binary.BigEndian, []uint16{296, 3})
	binary.Write(&t, binary.BigEndian, uint32(1))
	binary.Write(&t, binary.BigEndian, []uint16{unit, 0})
	binary.Write(&t, binary.BigEndian, uint32(0))
	binary.Write(&t, binary.BigEndian, []uint32{res, 1})
	payload := append([]byte("Exif\x00\x00"), t.Bytes()...)
	seg := append([]byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}, payload...)
	return append(append([]byte{0xFF, 0xD8}, seg...), jpg[2:]...)
}

func TestJPEG(t *testing.T) {
	g := gradient(64, 48, 5)
	var gray, col bytes.Buffer
	if err := jpeg.Encode(&gray, g, &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&col, grayAsRGBA(g), &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		dpi  int
	}{
		{"gray no density", gray.Bytes(), 300},
		{"gray jfif 200 dpi", withJFIF(gray.Bytes(), 1, 200), 200},
		{"gray jfif 118 dots/cm", withJFIF(gray.Bytes(), 2, 118), 300}, // 299.7 dpi
		{"jfif aspect only", withJFIF(gray.Bytes(), 0, 1), 300},
		{"color exif 600 dpi", withExif(col.Bytes(), 600, 2), 600},
		{"color exif 40 dots/cm", withExif(col.Bytes(), 40, 3), 102},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(writeTemp(t, "j.jpg", tc.data), "image/jpg", DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			w, h, dpi, err := d.PageSize(0)
			if err != nil || w != 64 || h != 48 || dpi != tc.dpi {
				t.Fatalf("PageSize = %d×%d @%d, %v; want 64×48 @%d", w, h, dpi, err, tc.dpi)
			}
			img, err := d.Render(0)
			if err != nil {
				t.Fatal(err)
			}
			if m, want := mean(img), mean(g); m < want-2 || m > want+2 {
				t.Errorf("mean %.1f; want ≈%.1f", m, want)
			}
		})
	}
}

func TestTIFFMultiPage(t *testing.T) {
	pages := []tiffPage{
		{img: gradient(40, 30, 1), num: 300, den: 1, unit: 2},
		{img: gradient(17, 61, 2), num: 2000, den: 10, unit: 3, strips: 7}, // 200 px/cm = 508 dpi, 9 strips
		{img: gradient(5, 3, 3)},                                           // no resolution: 300
	}
	wantDPI := []int{300, 508, 300}
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			d, err := Open(writeTemp(t, "m.tif", buildTIFF(order, pages...)), TypeTIFF, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if d.Pages() != 3 {
				t.Fatalf("Pages = %d", d.Pages())
			}
			for _, i := range []int{2, 0, 1} { // any order
				p := pages[i]
				w, h, dpi, err := d.PageSize(i)
				if err != nil || w != p.img.Rect.Dx() || h != p.img.Rect.Dy() || dpi != wantDPI[i] {
					t.Errorf("page %d: %d×%d @%d, %v", i, w, h, dpi, err)
				}
				img, err := d.Render(i)
				if err != nil {
					t.Fatal(err)
				}
				if img.Rect != p.img.Rect || !bytes.Equal(img.Pix, p.img.Pix) {
					t.Errorf("page %d: pixels differ", i)
				}
			}
		})
	}
}

func TestTIFFReducedResolutionSkipped(t *testing.T) {
	data := buildTIFF(binary.LittleEndian,
		tiffPage{img: gradient(20, 20, 1)},
		tiffPage{img: gradient(5, 5, 2), subfile: 1}, // overview of page 1
		tiffPage{img: gradient(30, 10, 3)})
	d, err := Open(writeTemp(t, "r.tif", data), TypeTIFF, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Pages() != 2 {
		t.Fatalf("Pages = %d; want 2", d.Pages())
	}
	img, err := d.Render(1)
	if err != nil || img.Rect.Dx() != 30 {
		t.Fatalf("page 2: %v, %v", img.Rect, err)
	}
}

func TestTIFFTooManyPages(t *testing.T) {
	tiny := make([]tiffPage, 1001)
	for i := range tiny {
		tiny[i] = tiffPage{img: gradient(2, 2, i)}
	}
	data := buildTIFF(binary.LittleEndian, tiny...)
	start := time.Now()
	_, err := Open(writeTemp(t, "many.tif", data), TypeTIFF, DefaultLimits())
	wantCode(t, err, CodeTooManyPages)
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v", el)
	}
	d, err := Open(writeTemp(t, "1000.tif", buildTIFF(binary.LittleEndian, tiny[:1000]...)), TypeTIFF, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Pages() != 1000 {
		t.Fatalf("Pages = %d", d.Pages())
	}
	img, err := d.Render(999)
	if err != nil || !bytes.Equal(img.Pix, tiny[999].img.Pix) {
		t.Fatalf("page 1000: %v", err)
	}
}

func TestTIFFBadInput(t *testing.T) {
	good := buildTIFF(binary.LittleEndian, tiffPage{img: gradient(50, 40, 1)}, tiffPage{img: gradient(10, 10, 2)})
	loop := append([]byte{}, good...)
	// Point the last IFD's "next" at the first IFD.
	first := binary.LittleEndian.Uint32(loop[4:])
	loop[len(loop)-4] = byte(first)
	loop[len(loop)-3] = byte(first >> 8)
	loop[len(loop)-2] = byte(first >> 16)
	loop[len(loop)-1] = byte(first >> 24)
	badOff := append([]byte{}, good...)
	binary.LittleEndian.PutUint32(badOff[4:], 1<<30)
	big := buildTIFF(binary.BigEndian, tiffPage{img: gradient(4, 4, 1)})
	// Rewrite width/height to 100000 (LONG values of the 2nd and 3rd entries).
	ifd := int(binary.BigEndian.Uint32(big[4:]))
	binary.BigEndian.PutUint32(big[ifd+2+8:], 100000)
	binary.BigEndian.PutUint32(big[ifd+2+12+8:], 100000)
	noIFD := []byte("II*\x00\x00\x00\x00\x00")
	// Point page 1's only strip near the end of the file: its pixels run past EOF.
	short := append([]byte{}, good...)
	ifd0 := int(binary.LittleEndian.Uint32(short[4:]))
	binary.LittleEndian.PutUint32(short[ifd0+2+5*12+8:], uint32(len(short)-10))

	for _, tc := range []struct {
		name         string
		data         []byte
		open, render string
	}{
		{"directory loop", loop, CodeCorruptFile, ""},
		{"offset outside file", badOff, CodeCorruptFile, ""},
		{"no directories", noIFD, CodeNoPages, ""},
		{"bigtiff", []byte("II+\x00\x08\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00"), CodeUnsupportedType, ""},
		{"header only", []byte("II*\x00"), CodeCorruptFile, ""},
		{"pixels truncated", short, "", CodeCorruptFile},
		{"page over the cap", big, "", CodePageTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(writeTemp(t, "b.tif", tc.data), TypeTIFF, DefaultLimits())
			if tc.open != "" {
				wantCode(t, err, tc.open)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			_, err = d.Render(0)
			wantCode(t, err, tc.render)
		})
	}
}

func TestSafelyRecovers(t *testing.T) {
	err := safely("the thing", func() error { panic("boom") })
	wantCode(t, err, CodeCorruptFile)
}

// TestPDFColourToGrey: colours become grey the way poppler's pdftoppm -gray
// does it (plain luma, no ICC gamma games): mid-grey stays 128, red is ~77.
func TestPDFColourToGrey(t *testing.T) {
	content := "0.5 0.5 0.5 rg 0 0 30 100 re f 0.5 g 30 0 30 100 re f 1 0 0 rg 60 0 40 100 re f"
	lim := DefaultLimits()
	lim.DPI = 72
	d, err := Open(writeTemp(t, "c.pdf", makePDF(pdfPage{w: 100, h: 100, content: content})), TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.Render(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x    int
		want uint8
	}{{10, 128}, {40, 128}, {80, 77}} {
		if v := img.GrayAt(tc.x, 50).Y; v+2 < tc.want || v > tc.want+2 {
			t.Errorf("x=%d: %d; want ≈%d", tc.x, v, tc.want)
		}
	}
}

// TestToGray checks every fast path against color.GrayModel on opaque
// pixels, and that transparency is composed over white.
func TestToGray(t *testing.T) {
	const w, h = 19, 7
	rect := image.Rect(3, 2, 3+w, 2+h) // not at the origin
	rgba, nrgba, rgba64, cmyk := image.NewRGBA(rect), image.NewNRGBA(rect), image.NewNRGBA64(rect), image.NewCMYK(rect)
	ycc := image.NewYCbCr(rect, image.YCbCrSubsampleRatio444)
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			c := color.RGBA{uint8(x * 37), uint8(y * 91), uint8(x*y*13 + 5), 255}
			rgba.Set(x, y, c)
			nrgba.Set(x, y, c)
			rgba64.Set(x, y, c)
			cmyk.Set(x, y, color.CMYK{uint8(x * 11), uint8(y * 23), uint8(x + y), uint8(x * 3)})
			yy, cb, cr := color.RGBToYCbCr(c.R, c.G, c.B)
			ycc.Y[ycc.YOffset(x, y)], ycc.Cb[ycc.COffset(x, y)], ycc.Cr[ycc.COffset(x, y)] = yy, cb, cr
		}
	}
	for _, img := range []image.Image{rgba, nrgba, rgba64, cmyk, ycc, grayAsPaletted(gradient(w, h, 1)), grayAs16(gradient(w, h, 2))} {
		g := toGray(img)
		b := img.Bounds()
		if g.Rect != image.Rect(0, 0, w, h) && g.Rect != image.Rect(0, 0, b.Dx(), b.Dy()) {
			t.Fatalf("%T: bounds %v", img, g.Rect)
		}
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				want := color.GrayModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.Gray).Y
				if got := g.GrayAt(x, y).Y; got+1 < want || got > want+1 {
					t.Fatalf("%T (%d,%d): %d; want %d", img, x, y, got, want)
				}
			}
		}
	}
	// Transparent pixels are paper white; half-transparent black is mid grey.
	n := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	n.Pix = []uint8{0, 0, 0, 0, 0, 0, 0, 128}
	if g := toGray(n); g.Pix[0] != 255 || g.Pix[1] < 126 || g.Pix[1] > 128 {
		t.Errorf("NRGBA over white: %v", g.Pix)
	}
	r64 := image.NewRGBA64(image.Rect(0, 0, 1, 1))
	if g := toGray(r64); g.Pix[0] != 255 {
		t.Errorf("transparent RGBA64: %v", g.Pix)
	}
}
