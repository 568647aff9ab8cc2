//go:build devtools

package vecsym

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/vector"
)

// TestDebugPDF matches one symbol region of a PDF page against a region of
// a page, for looking at real sheets:
//
//	VECSYM_PDF=file.pdf VECSYM_PAGE=1 VECSYM_TBOX=x0,y0,x1,y1 [VECSYM_TPAGE=1]
//	VECSYM_BLOCK=x0,y0,x1,y1 [VECSYM_OUT=overlay.png] go test -run TestDebugPDF -v
//
// Boxes are page pixels at 300 DPI. It logs the template and every
// verified pose, and draws the detections on the block's render.
func TestDebugPDF(t *testing.T) {
	path := os.Getenv("VECSYM_PDF")
	if path == "" {
		t.Skip("VECSYM_PDF not set")
	}
	page, _ := strconv.Atoi(os.Getenv("VECSYM_PAGE"))
	tpage := page
	if s := os.Getenv("VECSYM_TPAGE"); s != "" {
		tpage, _ = strconv.Atoi(s)
	}
	rect := func(s string) vector.Rect {
		var f [4]float64
		for i, p := range strings.Split(s, ",") {
			f[i], _ = strconv.ParseFloat(p, 64)
		}
		return vector.Rect{X0: float32(f[0]), Y0: float32(f[1]), X1: float32(f[2]), Y1: float32(f[3])}
	}
	doc := rendertest.Open(t, path, render.TypePDF, render.DefaultDPI)
	pg, _, err := render.Vectors(context.Background(), doc, page-1)
	if err != nil {
		t.Fatal(err)
	}
	tpg := pg
	if tpage != page {
		if tpg, _, err = render.Vectors(context.Background(), doc, tpage-1); err != nil {
			t.Fatal(err)
		}
	}
	tm, err := NewTemplate("T", tpg, rect(os.Getenv("VECSYM_TBOX")))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("template size %.1f width %.2f segs %d arcs %d glyphs %d anchors lines %v arcs %v circle %d glyph %d", tm.size, tm.width,
		len(tm.m.segs), len(tm.m.arcs), len(tm.m.glyphs), tm.lineAnchors, tm.arcAnchors, tm.circle, tm.glyphAnchor)
	for _, a := range tm.m.arcs {
		t.Logf("  arc c %.1f,%.1f r %.2f sweep %.2f full %v", px(a.c), py(a.c), a.r, a.sweep, a.full)
	}
	for _, s := range tm.m.segs {
		t.Logf("  seg %.1f,%.1f - %.1f,%.1f len %.1f fill %v stroke %v curve %v", px(s.a), py(s.a), px(s.b), py(s.b), s.length, s.fill, s.stroke, s.curve)
	}
	for _, g := range tm.m.glyphs {
		t.Logf("  glyph %q at %.1f,%.1f size %.1f", g.r, px(g.c), py(g.c), g.size)
	}
	br := rect(os.Getenv("VECSYM_BLOCK"))
	if n, _ := strconv.Atoi(os.Getenv("VECSYM_REPEAT")); n > 1 {
		// the cost of n symbols: the same one n times, over the whole block
		ts := make([]*Template, n)
		for i := range ts {
			ts[i] = tm
		}
		st := time.Now()
		d := NewDrawing(pg, br)
		rd := time.Since(st)
		dets, err := Match(context.Background(), d, ts, Options{})
		segs, glyphs := d.Marks()
		t.Logf("%d segments %d glyphs read in %v; %d symbols matched in %v (%d detections, %v)", segs, glyphs, rd, n, time.Since(st)-rd, len(dets), err)
		return
	}
	d := NewDrawing(pg, br)
	if s := os.Getenv("VECSYM_DUMP"); s != "" {
		// the drawing's marks inside a box (page pixels)
		db := rect(s)
		for _, sg := range d.m.segs {
			a, b := sg.a+complex(float64(br.X0), float64(br.Y0)), sg.b+complex(float64(br.X0), float64(br.Y0))
			if max(px(a), px(b)) < float64(db.X0) || min(px(a), px(b)) > float64(db.X1) || max(py(a), py(b)) < float64(db.Y0) || min(py(a), py(b)) > float64(db.Y1) {
				continue
			}
			t.Logf("  dseg %.1f,%.1f - %.1f,%.1f len %.1f fill %v stroke %v curve %v faint %v dashed %v path %d w %.2f",
				px(a), py(a), px(b), py(b), sg.length, sg.fill, sg.stroke, sg.curve, sg.faint, sg.dashed, sg.path, pg.Paths[sg.path].Width)
		}
		for _, a := range d.m.arcs {
			c := a.c + complex(float64(br.X0), float64(br.Y0))
			if db.Contains(toPoint(c)) {
				t.Logf("  darc c %.1f,%.1f r %.2f sweep %.2f full %v", px(c), py(c), a.r, a.sweep, a.full)
			}
		}
	}
	lo, _ := strconv.ParseFloat(os.Getenv("VECSYM_MINSCALE"), 64)
	hi, _ := strconv.ParseFloat(os.Getenv("VECSYM_MAXSCALE"), 64)
	dets, err := Match(context.Background(), d, []*Template{tm}, Options{MinScale: lo, MaxScale: hi, Trace: func(c Candidate) {
		t.Logf("pose at %.0f,%.0f k %.2f ang %.0f m %v covered %.3f explained %.3f described %.3f conf %.3f", c.Box.XMin+float64(br.X0), c.Box.YMin+float64(br.Y0),
			c.Scale, c.Angle, c.Mirrored, c.Covered, c.Explained, c.Described, c.Confidence)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d detections", len(dets))
	for _, dt := range dets {
		t.Logf("  det %.0f,%.0f %.0fx%.0f conf %.2f", dt.Box.XMin+float64(br.X0), dt.Box.YMin+float64(br.Y0), dt.Box.Width(), dt.Box.Height(), dt.Confidence)
	}
	out := os.Getenv("VECSYM_OUT")
	if out == "" {
		return
	}
	img := rendertest.Render(t, doc, page)
	r := image.Rect(int(br.X0), int(br.Y0), int(br.X1), int(br.Y1)).Intersect(img.Rect)
	o := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			v := 255 - (255-img.GrayAt(x+r.Min.X, y+r.Min.Y).Y)/2
			o.Set(x, y, color.RGBA{v, v, v, 255})
		}
	}
	red := color.RGBA{255, 0, 0, 255}
	for _, dt := range dets {
		b := dt.Box
		for x := int(b.XMin); x <= int(b.XMax); x++ {
			for _, y := range []int{int(b.YMin), int(b.YMax)} {
				for w := -2; w <= 2; w++ {
					o.Set(x, y+w, red)
				}
			}
		}
		for y := int(b.YMin); y <= int(b.YMax); y++ {
			for _, x := range []int{int(b.XMin), int(b.XMax)} {
				for w := -2; w <= 2; w++ {
					o.Set(x+w, y, red)
				}
			}
		}
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, o); err != nil {
		t.Fatal(err)
	}
	_ = math.Pi
	_ = fmt.Sprint
}
