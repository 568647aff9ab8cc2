//go:build devtools

package compare

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/render"
)

// A tool, not a test: compares two PDF pages (or a page with itself
// re-rendered at another scale and shifted) and writes the overlay
// images as PNGs for a person to look at, with the timings.
//
//	go test -tags devtools -run TestDumpCompare ./vision/compare -args \
//	    -a OLD.pdf -b NEW.pdf [-page 1] [-dpi 300] [-vectors] [-out /tmp/cmp]
//	go test -tags devtools -run TestDumpCompare ./vision/compare -args \
//	    -a SHEET.pdf -rescale 1.07 -dx 37 -dy -21 [-dpi 150]
var (
	dumpA       = flag.String("a", "", "older PDF")
	dumpB       = flag.String("b", "", "newer PDF (empty: -a re-rendered at -rescale, shifted)")
	dumpPage    = flag.Int("page", 1, "page (1-based)")
	dumpDPI     = flag.Int("dpi", 150, "render resolution of A")
	dumpRescale = flag.Float64("rescale", 1.07, "without -b: B's resolution over A's")
	dumpDX      = flag.Int("dx", 37, "without -b: B's crop offset, pixels")
	dumpDY      = flag.Int("dy", -21, "without -b: B's crop offset, pixels")
	dumpVectors = flag.Bool("vectors", false, "record the pages' geometry and register on it")
	dumpHatch   = flag.Bool("hatches", false, "Options.IgnoreHatches")
	dumpOut     = flag.String("out", "/tmp/cmp", "output directory")
	dumpEdit    = flag.Bool("edit", false, "without -b: also erase a patch of B and draw a new symbol and word on it")
	dumpWhole   = flag.Bool("wholebands", false, "diff whole bands (not only the spans of marked columns), every other run")
	dumpCrop    = flag.String("crop", "", "x0,y0,x1,y1: cut both pages to this box (inches from the top left) as a block")
)

func TestDumpCompare(t *testing.T) {
	if *dumpA == "" {
		t.Skip("no -a")
	}
	ctx := context.Background()
	a, ta := renderSide(t, *dumpA, *dumpPage, *dumpDPI)
	var b *Side
	var tb time.Duration
	if *dumpB != "" {
		b, tb = renderSide(t, *dumpB, *dumpPage, *dumpDPI)
	} else {
		dpi := int(float64(*dumpDPI)**dumpRescale + 0.5)
		b, tb = renderSide(t, *dumpA, *dumpPage, dpi)
		b = cropSide(b, *dumpDX, *dumpDY)
		if *dumpEdit {
			for _, e := range editSide(b) {
				t.Logf("edit %s at %v", e.what, e.at)
			}
		}
	}
	if *dumpCrop != "" {
		var x0, y0, x1, y1 float64
		if _, err := fmt.Sscanf(*dumpCrop, "%g,%g,%g,%g", &x0, &y0, &x1, &y1); err != nil {
			t.Fatal(err)
		}
		a, b = cutSide(a, x0, y0, x1, y1), cutSide(b, x0, y0, x1, y1)
	}
	t.Logf("A %v rendered in %v, B %v in %v", a.Image.Rect.Size(), ta, b.Image.Rect.Size(), tb)
	lastCPU := cpuTime()
	traceStage = func(stage string, d time.Duration) {
		c := cpuTime()
		t.Logf("  %-24s %8.0f ms wall %8.0f ms cpu", stage, d.Seconds()*1000, (c-lastCPU).Seconds()*1000)
		lastCPU = c
	}
	var ov *Overlay
	var el time.Duration
	for run := 0; run < *dumpRepeat; run++ {
		ov = nil
		wholeBands = *dumpWhole && run%2 == 1
		runtime.GC() // the last run's images are garbage: their pages are reused
		t0 := time.Now()
		var err error
		ov, err = Generate(ctx, a, b, Options{IgnoreHatches: *dumpHatch})
		if err != nil {
			t.Fatal(err)
		}
		el = time.Since(t0)
		t.Logf("run %d: %v (whole bands %v)", run+1, el, wholeBands)
	}
	t.Logf("generate %v (%.2f× B's render): registered %v %+v score %.4f regions %d", el, el.Seconds()/tb.Seconds(),
		ov.Registered, ov.Transform, ov.Score, len(ov.Regions))
	if *dumpB == "" {
		dpiB := float64(int(float64(*dumpDPI)**dumpRescale + 0.5))
		want := Transform{Scale: dpiB / float64(*dumpDPI), Tx: -float64(*dumpDX), Ty: -float64(*dumpDY)}
		t.Logf("alignment error %.3f px at the worst corner (truth %+v)", cornerError(ov.Transform, want, a.Image.Rect.Dx(), a.Image.Rect.Dy()), want)
	}
	for _, w := range ov.Warnings {
		t.Logf("warning: %s", w)
	}
	for _, r := range ov.Regions {
		t.Logf("region %+v", r)
	}
	if err := os.MkdirAll(*dumpOut, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, img := range map[string]image.Image{"combined": ov.Combined, "addition": ov.Addition, "deletion": ov.Deletion,
		"aligned_a": ov.AlignedA, "b": ov.AlignedB} {
		p := filepath.Join(*dumpOut, name+".png")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := render.EncodePNG(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
		t.Logf("wrote %s", p)
	}
}

func renderSide(t *testing.T, path string, page, dpi int) (*Side, time.Duration) {
	lim := render.DefaultLimits()
	lim.DPI = dpi
	doc, err := render.Open(path, render.TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	t0 := time.Now()
	img, err := render.RenderContext(context.Background(), doc, page-1)
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(t0)
	s := &Side{Image: img, DPI: dpi}
	if *dumpVectors {
		pg, ok, err := render.Vectors(context.Background(), doc, page-1)
		if err != nil || !ok {
			t.Fatal(fmt.Errorf("vectors: ok %v err %v", ok, err))
		}
		s.Page = pg
	}
	return s, el
}

// cropSide cuts the side's image at offset (dx, dy) (negative: paper is
// added before), keeping its size, so that its content shifts by
// (−dx, −dy). Geometry is dropped.
func cropSide(s *Side, dx, dy int) *Side {
	b := s.Image.Rect
	out := image.NewGray(b)
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	for y := 0; y < b.Dy(); y++ {
		sy := y + dy
		if sy < 0 || sy >= b.Dy() {
			continue
		}
		for x := 0; x < b.Dx(); x++ {
			if sx := x + dx; sx >= 0 && sx < b.Dx() {
				out.Pix[y*out.Stride+x] = s.Image.Pix[sy*s.Image.Stride+sx]
			}
		}
	}
	return &Side{Image: out, DPI: s.DPI}
}

// cutSide cuts a block out of a page: the box (inches) at the side's DPI.
// Geometry is dropped.
func cutSide(s *Side, x0, y0, x1, y1 float64) *Side {
	d := float64(s.DPI)
	r := image.Rect(int(x0*d), int(y0*d), int(x1*d), int(y1*d)).Intersect(s.Image.Rect)
	return &Side{Image: contiguous(s.Image.SubImage(r).(*image.Gray)), DPI: s.DPI}
}

// TestDumpSynth writes a synthetic sheet and its revision (with their
// truth) for TestDumpCompare:
//
//	go test -tags devtools -run TestDumpSynth ./vision/compare -args -seed 3 -size 36x24 -out /tmp/synth
func TestDumpSynth(t *testing.T) {
	if *dumpSeed == 0 {
		t.Skip("no -seed")
	}
	set, err := synth.Generate(synth.Options{Seed: *dumpSeed, Sheets: 1, Revision: true, PageSize: *dumpSize})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(*dumpOut, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, fn := range map[string]func(io.Writer) error{"a.pdf": set.WritePDF, "b.pdf": set.WriteRevisionPDF, "truth.json": set.WriteTruth} {
		if err := synth.WriteFile(filepath.Join(*dumpOut, name), fn); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("revision transform %+v", set.Truth.Sheets[0].Revision.Transform)
	for _, c := range set.Truth.Sheets[0].Revision.Changes {
		t.Logf("change %s %+v", c.Kind, c.Box)
	}
}

var (
	dumpRepeat = flag.Int("repeat", 1, "Generate this many times (the later runs reuse the heap's pages)")
	dumpSeed   = flag.Int64("seed", 0, "synthetic set's seed")
	dumpSize   = flag.String("size", "36x24", "synthetic page size")
)

// cpuTime is the process's user and system CPU time so far (all threads,
// OpenCV's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type edit struct {
	what string
	at   image.Rectangle
}

// editSide erases a patch of a side's image (a 4 % square at 40 % of its
// size) and draws a circled letter and a word (at 62 %), in place.
func editSide(s *Side) []edit {
	w, h := s.Image.Rect.Dx(), s.Image.Rect.Dy()
	side := w / 25
	er := image.Rect(w*2/5, h*2/5, w*2/5+side, h*2/5+side)
	for y := er.Min.Y; y < er.Max.Y; y++ {
		for x := er.Min.X; x < er.Max.X; x++ {
			s.Image.Pix[y*s.Image.Stride+x] = 255
		}
	}
	m := view(s.Image)
	defer m.Close()
	k := float64(s.DPI) / 150
	c := image.Pt(w*31/50, h*31/50)
	r := int(14 * k)
	gocv.Circle(&m, c, r, color.RGBA{0, 0, 0, 255}, int(2*k+0.5))
	gocv.PutText(&m, "NEW WORD", image.Pt(c.X+2*r, c.Y+r/2), gocv.FontHersheySimplex, 0.6*k, color.RGBA{0, 0, 0, 255}, int(k+0.5))
	sz := gocv.GetTextSize("NEW WORD", gocv.FontHersheySimplex, 0.6*k, int(k+0.5))
	return []edit{{"erased", er}, {"symbol and word added", image.Rect(c.X-r-2, c.Y-r-2, c.X+2*r+sz.X+2, c.Y+r+2)}}
}
