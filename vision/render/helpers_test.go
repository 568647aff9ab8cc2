package render

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"image"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// buildPDF writes a classic PDF whose objects are objs (numbered from 1)
// with a correct cross-reference table. trailerExtra is added to the
// trailer dictionary.
func buildPDF(objs []string, trailerExtra string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailerExtra, x)
	return b.Bytes()
}

// pdfPage is one page: MediaBox size in points and its content stream.
type pdfPage struct {
	w, h    float64
	content string
	extra   string // more page dictionary entries
}

// pdfObjects lays out catalog (1), page tree (2), then per page a page
// object and its content stream.
func pdfObjects(pages ...pdfPage) []string {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	var kids bytes.Buffer
	for i, p := range pages {
		pageObj, contObj := 3+2*i, 4+2*i
		fmt.Fprintf(&kids, "%d 0 R ", pageObj)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Contents %d 0 R %s>>", p.w, p.h, contObj, p.extra),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(p.content), p.content))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), len(pages))
	return objs
}

func makePDF(pages ...pdfPage) []byte { return buildPDF(pdfObjects(pages...), "") }

// linePDF is a one-page w × h pt PDF with a thick black diagonal line.
func linePDF(w, h float64) []byte {
	return makePDF(pdfPage{w: w, h: h, content: fmt.Sprintf("0 0 0 RG 4 w 10 10 m %g %g l S", w-10, h-10)})
}

// sheetContent draws a plausible 36×24 in drawing: border, a 0.5 in grid,
// 2000 walls, 3000 circle symbols and 20000 short strokes.
func sheetContent(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var c bytes.Buffer
	c.WriteString("0 0 0 RG 0 0 0 rg\n4 w 36 36 2520 1656 re S\n0.25 w\n")
	for x := 36.0; x < 2592; x += 36 {
		fmt.Fprintf(&c, "%.1f 36 m %.1f 1692 l\n", x, x)
	}
	for y := 36.0; y < 1728; y += 36 {
		fmt.Fprintf(&c, "36 %.1f m 2556 %.1f l\n", y, y)
	}
	c.WriteString("S\n3 w\n")
	for i := range 2000 {
		x, y, l := 36+r.Float64()*2400, 36+r.Float64()*1500, 50+r.Float64()*450
		if i%2 == 0 {
			fmt.Fprintf(&c, "%.2f %.2f m %.2f %.2f l S\n", x, y, x+l, y)
		} else {
			fmt.Fprintf(&c, "%.2f %.2f m %.2f %.2f l S\n", x, y, x, y+l*0.6)
		}
	}
	c.WriteString("1 w\n")
	for range 3000 {
		x, y, rr := 60+r.Float64()*2400, 60+r.Float64()*1500, 5+r.Float64()*10
		k := rr * 0.5523
		fmt.Fprintf(&c, "%.2f %.2f m %.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f %.2f %.2f %.2f %.2f c "+
			"%.2f %.2f %.2f %.2f %.2f %.2f c %.2f %.2f %.2f %.2f %.2f %.2f c S\n",
			x+rr, y, x+rr, y+k, x+k, y+rr, x, y+rr, x-k, y+rr, x-rr, y+k, x-rr, y,
			x-rr, y-k, x-k, y-rr, x, y-rr, x+k, y-rr, x+rr, y-k, x+rr, y)
	}
	c.WriteString("0.5 w\n")
	for range 20000 {
		x, y := 40+r.Float64()*2500, 40+r.Float64()*1640
		fmt.Fprintf(&c, "%.2f %.2f m %.2f %.2f l S\n", x, y, x+(r.Float64()-0.5)*60, y+(r.Float64()-0.5)*60)
	}
	return c.String()
}

// tiffPage is one page of a test TIFF: 8-bit grey pixels and a resolution
// (xres/yres numerator/denominator; unit 2 inch, 3 cm, 0: no tags).
type tiffPage struct {
	img     *image.Gray
	num     uint32
	den     uint32
	unit    uint16
	subfile uint32 // NewSubfileType; 1 marks a reduced-resolution image
	strips  int    // rows per strip; 0: one strip
}

// buildTIFF is a minimal classic-TIFF encoder: uncompressed 8-bit grey
// (BlackIsZero) strips, one IFD per page, in the given byte order.
func buildTIFF(order binary.ByteOrder, pages ...tiffPage) []byte {
	var b bytes.Buffer
	if order == binary.LittleEndian {
		b.WriteString("II")
	} else {
		b.WriteString("MM")
	}
	u16 := func(v uint16) { binary.Write(&b, order, v) }
	u32 := func(v uint32) { binary.Write(&b, order, v) }
	u16(42)
	u32(0) // first IFD offset, patched below
	prevNext := 4
	for _, p := range pages {
		w, h := p.img.Rect.Dx(), p.img.Rect.Dy()
		rps := p.strips
		if rps <= 0 {
			rps = h
		}
		var stripOffs, stripCounts []uint32
		for y := 0; y < h; y += rps {
			stripOffs = append(stripOffs, uint32(b.Len()))
			n := min(rps, h-y)
			for r := 0; r < n; r++ {
				b.Write(p.img.Pix[(y+r)*p.img.Stride : (y+r)*p.img.Stride+w])
			}
			stripCounts = append(stripCounts, uint32(n*w))
		}
		if b.Len()%2 == 1 {
			b.WriteByte(0)
		}
		// Out-of-line values: strip offsets/counts arrays (if >1) and the resolution rationals.
		arr := func(vs []uint32) uint32 {
			off := uint32(b.Len())
			for _, v := range vs {
				u32(v)
			}
			return off
		}
		var offsAt, countsAt uint32
		if len(stripOffs) > 1 {
			offsAt, countsAt = arr(stripOffs), arr(stripCounts)
		}
		resAt := uint32(b.Len())
		u32(p.num)
		u32(p.den)
		u32(p.num)
		u32(p.den)

		type entry struct {
			tag, typ uint16
			count    uint32
			value    uint32 // inline SHORT goes in the first 2 bytes
		}
		var es []entry
		if p.subfile != 0 {
			es = append(es, entry{254, 4, 1, p.subfile})
		}
		es = append(es,
			entry{256, 4, 1, uint32(w)},
			entry{257, 4, 1, uint32(h)},
			entry{258, 3, 1, 8},
			entry{259, 3, 1, 1},
			entry{262, 3, 1, 1})
		if len(stripOffs) > 1 {
			es = append(es, entry{273, 4, uint32(len(stripOffs)), offsAt})
		} else {
			es = append(es, entry{273, 4, 1, stripOffs[0]})
		}
		es = append(es, entry{277, 3, 1, 1}, entry{278, 4, 1, uint32(rps)})
		if len(stripOffs) > 1 {
			es = append(es, entry{279, 4, uint32(len(stripCounts)), countsAt})
		} else {
			es = append(es, entry{279, 4, 1, stripCounts[0]})
		}
		if p.unit != 0 {
			es = append(es, entry{282, 5, 1, resAt}, entry{283, 5, 1, resAt + 8}, entry{296, 3, 1, uint32(p.unit)})
		}
		ifdAt := b.Len()
		buf := b.Bytes()
		order.PutUint32(buf[prevNext:], uint32(ifdAt))
		u16(uint16(len(es)))
		for _, e := range es {
			u16(e.tag)
			u16(e.typ)
			u32(e.count)
			if e.typ == 3 && e.count == 1 {
				u16(uint16(e.value))
				u16(0)
			} else {
				u32(e.value)
			}
		}
		prevNext = b.Len()
		u32(0)
	}
	return b.Bytes()
}

// gradient is a w × h grey image with a distinct value pattern per seed.
func gradient(w, h, seed int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			g.Pix[y*g.Stride+x] = uint8(x*3 + y*7 + seed*31)
		}
	}
	return g
}

func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func wantCode(t testing.TB, err error, codes ...string) {
	t.Helper()
	got := CodeOf(err)
	for _, c := range codes {
		if got == c {
			return
		}
	}
	t.Fatalf("error = %v; want code %v", err, codes)
}

func mean(g *image.Gray) float64 {
	b := g.Bounds()
	var s float64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			s += float64(g.GrayAt(x, y).Y)
		}
	}
	return s / float64(b.Dx()*b.Dy())
}

func newZlib(w io.Writer) *zlib.Writer { return zlib.NewWriter(w) }
