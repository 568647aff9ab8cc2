package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/vector"
)

// vectorPDF writes a one-page PDF (points, 400×300) with a known set of
// marks: a stroked line, a dashed line, a filled square, a circle, the
// text "AB", a line half outside a clip, a white fill, and an image.
func vectorPDF(t *testing.T) string {
	t.Helper()
	f := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 400, Ht: 300}})
	f.AddPage()
	f.SetLineWidth(1)
	f.Line(10, 20, 110, 20)
	f.SetDashPattern([]float64{4, 2}, 0)
	f.Line(10, 40, 110, 40)
	f.SetDashPattern(nil, 0)
	f.SetFillColor(0, 0, 0)
	f.Rect(150, 10, 20, 20, "F")
	f.Circle(250, 50, 20, "D")
	f.SetFont("Helvetica", "", 20)
	f.Text(20, 100, "AB")
	f.ClipRect(200, 150, 50, 50, false)
	f.Line(180, 175, 300, 175)
	f.ClipEnd()
	f.SetFillColor(255, 255, 255)
	f.Rect(50, 200, 40, 40, "F")
	img := image.NewGray(image.Rect(0, 0, 8, 8))
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	f.RegisterImageOptionsReader("dot", fpdf.ImageOptions{ImageType: "PNG"}, &buf)
	f.ImageOptions("dot", 300, 200, 40, 40, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	path := filepath.Join(t.TempDir(), "marks.pdf")
	if err := f.OutputFileAndClose(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVectorsRecordsMarks(t *testing.T) {
	path := vectorPDF(t)
	doc, err := Open(path, "application/pdf", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	pg, ok, err := Vectors(context.Background(), doc, 0)
	if err != nil || !ok {
		t.Fatalf("Vectors: %v %v", ok, err)
	}
	const k = 300.0 / 72 // pixels per point
	if pg.W != int(math.Round(400*k)) || pg.H != int(math.Round(300*k)) || pg.DPI != 300 || pg.Truncated {
		t.Fatalf("page %d×%d at %d, truncated %v", pg.W, pg.H, pg.DPI, pg.Truncated)
	}
	near := func(p vector.Point, x, y float64) bool {
		return math.Abs(float64(p.X)-x*k) < 1 && math.Abs(float64(p.Y)-y*k) < 1
	}
	// find paths by their first point
	find := func(x, y float64) *vector.Path {
		for i := range pg.Paths {
			if _, p0 := pg.PathCmds(i); near(pg.Pts[p0], x, y) {
				return &pg.Paths[i]
			}
		}
		return nil
	}
	line := find(10, 20)
	if line == nil || line.Flags != vector.Stroke || math.Abs(float64(line.Width)-k) > 0.01 {
		t.Errorf("the line: %+v", line)
	}
	if d := find(10, 40); d == nil || d.Flags&vector.Dashed == 0 {
		t.Errorf("the dashed line: %+v", d)
	}
	if sq := find(150, 10); sq == nil || sq.Flags&vector.Fill == 0 || sq.Grey != 0 {
		t.Errorf("the black square: %+v", sq)
	}
	if w := find(50, 200); w == nil || w.Grey != 1 {
		t.Errorf("the white square: %+v", w)
	}
	curves := 0
	for _, c := range pg.Cmds {
		if c == vector.CurveTo {
			curves++
		}
	}
	if curves < 4 {
		t.Errorf("%d curves; the circle has at least 4", curves)
	}
	// the clipped line keeps its points; its clip says what shows
	if cl := find(180, 175); cl == nil || math.Abs(float64(cl.Clip.X0)-200*k) > 1 || math.Abs(float64(cl.Clip.X1)-250*k) > 1 {
		t.Errorf("the clipped line: %+v", cl)
	}
	if len(pg.Glyphs) != 2 || pg.Glyphs[0].Rune != 'A' || pg.Glyphs[1].Rune != 'B' {
		t.Fatalf("glyphs %+v", pg.Glyphs)
	}
	a := pg.Glyphs[0]
	if math.Abs(float64(a.E)-20*k) > 1 || math.Abs(float64(a.F)-100*k) > 1 || math.Abs(a.Size()-20*k) > 0.5 || a.Box.Empty() {
		t.Errorf("glyph A: %+v (size %.1f)", a, a.Size())
	}
	if len(pg.Images) != 1 || !near(pg.Images[0][0], 300, 240) && !near(pg.Images[0][0], 300, 200) {
		t.Errorf("images %v", pg.Images)
	}
	if a := pg.ImageArea(vector.Rect{X0: 0, Y0: 0, X1: float32(pg.W), Y1: float32(pg.H)}); math.Abs(a-40*40*k*k) > 100*k {
		t.Errorf("image area %.0f, want %.0f", a, 40*40*k*k)
	}
	// the stored form keeps it all
	var buf bytes.Buffer
	if err := pg.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := vector.Decode(buf.Bytes())
	if err != nil || len(back.Paths) != len(pg.Paths) || len(back.Glyphs) != 2 || len(back.Images) != 1 {
		t.Errorf("decoded %+v, %v", back, err)
	}
}

func TestVectorsCapAndCancel(t *testing.T) {
	path := vectorPDF(t)
	doc, err := Open(path, "application/pdf", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	defer func(m int) { MaxVectorFloats = m }(MaxVectorFloats)
	MaxVectorFloats = 40
	pg, _, err := Vectors(context.Background(), doc, 0)
	if err != nil || !pg.Truncated {
		t.Errorf("over the cap: truncated %v, %v", pg != nil && pg.Truncated, err)
	}
	MaxVectorFloats = 48 << 20
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Vectors(ctx, doc, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// raster documents have none
	pngPath := filepath.Join(t.TempDir(), "a.png")
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4)))
	if err := os.WriteFile(pngPath, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rd, err := Open(pngPath, "image/png", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if pg, ok, err := Vectors(context.Background(), rd, 0); ok || pg != nil || err != nil {
		t.Errorf("a PNG: %v %v %v", pg, ok, err)
	}
}

// An SVG drawing is read as geometry too (for tools and benchmarks).
func TestOpenSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.svg")
	svg := `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">` +
		`<line x1="10" y1="10" x2="110" y2="10" stroke="black" stroke-width="2"/>` +
		`<path d="m 150,50 a 20,20 0 0 1 20,-20" fill="none" stroke="black"/></svg>`
	if err := os.WriteFile(path, []byte(svg), 0o644); err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	lim.DPI = 72
	d, err := OpenSVG(path, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	pg, ok, err := Vectors(context.Background(), d, 0)
	if err != nil || !ok || len(pg.Paths) != 2 {
		t.Fatalf("%v %v: %+v", ok, err, pg)
	}
	// the line's ends keep their proportions to the page
	cmds, p0 := pg.PathCmds(0)
	if len(cmds) != 2 || math.Abs(float64(pg.Pts[p0+1].X-pg.Pts[p0].X)/float64(pg.W)-0.5) > 0.01 {
		t.Errorf("line %v %v on a page %d wide", cmds, pg.Pts[p0:p0+2], pg.W)
	}
	if _, err := OpenSVG(filepath.Join(t.TempDir(), "missing.svg"), lim); err == nil {
		t.Error("a missing file opened")
	}
}

// The marks are where the render draws them, on pages turned by /Rotate
// too: ink under the middle of every stroked line, paper beside it.
func TestVectorsWhereRenderDraws(t *testing.T) {
	content := "2 w 0 G 20 30 m 120 30 l S 50 60 m 50 150 l S 200 40 m 260 140 l S"
	for _, rot := range []int{0, 90, 180, 270} {
		path := writeTemp(t, fmt.Sprintf("r%d.pdf", rot), makePDF(pdfPage{w: 300, h: 200, content: content, extra: fmt.Sprintf("/Rotate %d ", rot)}))
		doc, err := Open(path, "application/pdf", DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		img, err := doc.Render(0)
		if err != nil {
			t.Fatal(err)
		}
		pg, _, err := Vectors(context.Background(), doc, 0)
		doc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if pg.W != img.Rect.Dx() || pg.H != img.Rect.Dy() || len(pg.Paths) != 3 {
			t.Fatalf("rotate %d: page %d×%d, image %v, %d paths", rot, pg.W, pg.H, img.Rect, len(pg.Paths))
		}
		for i := range pg.Paths {
			_, p0 := pg.PathCmds(i)
			a, b := pg.Pts[p0], pg.Pts[p0+1]
			mx, my := int((a.X+b.X)/2), int((a.Y+b.Y)/2)
			if img.GrayAt(mx, my).Y > 128 {
				t.Errorf("rotate %d: line %d's middle (%d, %d) is paper", rot, i, mx, my)
			}
			// 30 px off the line, square to it, is paper
			dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
			n := math.Hypot(dx, dy)
			ox, oy := int(float64(mx)-dy/n*30), int(float64(my)+dx/n*30)
			if img.GrayAt(ox, oy).Y < 128 {
				t.Errorf("rotate %d: beside line %d (%d, %d) is ink", rot, i, ox, oy)
			}
		}
	}
}
