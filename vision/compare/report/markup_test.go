package report

import (
	"bytes"
	"context"
	"image"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-pdf/fpdf"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
)

// markupSource is a two-page drawing (400×300 pt pages) with a black
// square on each: page 1 plain, its square at x 100–120, y 200–220 in user
// space; page 2 turned 90° (/Rotate 90) and cropped to 20 10 380 290, its
// square at x 250–270, y 230–250.
func markupSource(t *testing.T) []byte {
	t.Helper()
	f := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 400, Ht: 300}})
	f.SetFillColor(0, 0, 0)
	f.AddPage()
	f.Rect(100, 80, 20, 20, "F") // fpdf's y runs down from the top
	f.AddPage()
	f.Rect(250, 50, 20, 20, "F")
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	ctx, err := api.ReadAndValidate(bytes.NewReader(b.Bytes()), pdfcpuConfig())
	if err != nil {
		t.Fatal(err)
	}
	d, _, _, err := ctx.PageDict(2, false)
	if err != nil {
		t.Fatal(err)
	}
	d.Update("Rotate", types.Integer(90))
	d.Update("CropBox", types.NewRectangle(20, 10, 380, 290).Array())
	var out bytes.Buffer
	if err := api.WriteContext(ctx, &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// renderPDF renders every page of a PDF at dpi through vision/render
// (MuPDF, annotations included).
func renderPDF(t *testing.T, pdf []byte, dpi int) []*image.Gray {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	lim := render.DefaultLimits()
	lim.DPI = dpi
	doc, err := render.Open(path, "application/pdf", lim)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	var out []*image.Gray
	for i := 0; i < doc.Pages(); i++ {
		g, err := doc.(render.ContextRenderer).RenderContext(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

// inkBox is the box of the pixels darker than 128 (of those that differ
// from ref, when ref is given).
func inkBox(g, ref *image.Gray) (geom.Box, int) {
	b := geom.Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}
	n := 0
	for y := 0; y < g.Rect.Dy(); y++ {
		for x := 0; x < g.Rect.Dx(); x++ {
			v := g.GrayAt(x, y).Y
			if ref != nil && (v == ref.GrayAt(x, y).Y || int(ref.GrayAt(x, y).Y)-int(v) < 40) || ref == nil && v >= 128 {
				continue
			}
			n++
			b = geom.Box{XMin: min(b.XMin, float64(x)), YMin: min(b.YMin, float64(y)), XMax: max(b.XMax, float64(x+1)), YMax: max(b.YMax, float64(y+1))}
		}
	}
	return b, n
}

func TestMarkup(t *testing.T) {
	const dpi = 100
	src := markupSource(t)
	before := renderPDF(t, src, dpi)
	if len(before) != 2 || before[1].Rect.Dx() != int(math.Round(280*dpi/72.0)) {
		t.Fatalf("source pages %v", before)
	}
	// A cloud 30 px around each square, found on the rendered pages.
	var clouds []Cloud
	for i, g := range before {
		sq, _ := inkBox(g, nil)
		clouds = append(clouds, Cloud{Page: i + 1, Box: grow(sq, 30), Note: "wall moved\nOFFICE 104 → CONFERENCE 104"})
	}
	var out bytes.Buffer
	if err := Markup(&out, bytes.NewReader(src), dpi, clouds); err != nil {
		t.Fatal(err)
	}
	// The annotations' dictionaries: a cloudy red polygon around each
	// square in user space, the note as its contents.
	ctx, err := api.ReadAndValidate(bytes.NewReader(out.Bytes()), pdfcpuConfig())
	if err != nil {
		t.Fatalf("the marked-up PDF does not validate: %v", err)
	}
	squares := [][4]float64{{100, 200, 120, 220}, {250, 230, 270, 250}}
	const around = 30 * 72.0 / dpi
	for p := 1; p <= 2; p++ {
		d, _, _, err := ctx.PageDict(p, false)
		if err != nil {
			t.Fatal(err)
		}
		annots, err := ctx.DereferenceArray(d["Annots"])
		if err != nil || len(annots) != 1 {
			t.Fatalf("page %d: annots %v %v", p, annots, err)
		}
		a, err := ctx.DereferenceDict(annots[0])
		if err != nil {
			t.Fatal(err)
		}
		if st := a.NameEntry("Subtype"); st == nil || *st != "Polygon" {
			t.Errorf("page %d: subtype %v", p, st)
		}
		if it := a.NameEntry("IT"); it == nil || *it != "PolygonCloud" {
			t.Errorf("page %d: intent %v", p, it)
		}
		be := a.DictEntry("BE")
		if be == nil || be.NameEntry("S") == nil || *be.NameEntry("S") != "C" || be.IntEntry("I") == nil || *be.IntEntry("I") != 1 {
			t.Errorf("page %d: border effect %v", p, be)
		}
		if c := a.ArrayEntry("C"); len(c) != 3 || c.String() != "[1.00 0.00 0.00]" && c.String() != "[1 0 0]" {
			t.Errorf("page %d: colour %v", p, c)
		}
		if s, err := ctx.DereferenceText(a["Contents"]); err != nil || s != clouds[p-1].Note {
			t.Errorf("page %d: contents %q %v", p, s, err)
		}
		if ap := a.DictEntry("AP"); ap == nil || ap["N"] == nil {
			t.Errorf("page %d: no appearance stream", p)
		}
		v := a.ArrayEntry("Vertices")
		sq := squares[p-1]
		want := []float64{sq[0] - around, sq[1] - around, sq[2] + around, sq[1] - around, sq[2] + around, sq[3] + around, sq[0] - around, sq[3] + around}
		if len(v) != 8 {
			t.Fatalf("page %d: vertices %v", p, v)
		}
		for i, o := range v {
			f, _ := ctx.DereferenceNumber(o)
			if math.Abs(f-want[i]) > 1.5 {
				t.Errorf("page %d: vertices %v, want ≈ %v", p, v, want)
				break
			}
		}
	}
	// Rendered, each page shows the cloud around its square: the pixels
	// that turned darker hold the cloud's box and stay within the bumps.
	after := renderPDF(t, out.Bytes(), dpi)
	for i := range after {
		got, n := inkBox(after[i], before[i])
		c := clouds[i].Box
		outer := grow(c, (cloudMaxBump/2+cloudLineWidth)*dpi/72+2)
		if n == 0 || got.XMin > c.XMin || got.YMin > c.YMin || got.XMax < c.XMax || got.YMax < c.YMax ||
			got.XMin < outer.XMin || got.YMin < outer.YMin || got.XMax > outer.XMax || got.YMax > outer.YMax {
			t.Errorf("page %d: the cloud drawn at %+v (%d px), want around %+v within %+v", i+1, got, n, c, outer)
		}
	}
	// No clouds: the document is copied as it is.
	out.Reset()
	if err := Markup(&out, bytes.NewReader(src), dpi, nil); err != nil || !bytes.Equal(out.Bytes(), src) {
		t.Errorf("no clouds: %v", err)
	}
	if err := Markup(&out, bytes.NewReader(src), dpi, []Cloud{{Page: 3}}); err == nil {
		t.Error("a cloud on a page the document lacks should fail")
	}
}
