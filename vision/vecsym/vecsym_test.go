package vecsym

import (
	"context"
	"errors"
	"math"
	"math/cmplx"
	"testing"
	"time"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

// pageBuilder draws marks into a vector.Page, as the MuPDF device records
// them.
type pageBuilder struct{ pg *vector.Page }

func newPage(w, h int) *pageBuilder {
	return &pageBuilder{&vector.Page{W: w, H: h, DPI: 300}}
}

var noClip = vector.Rect{X0: -1e30, Y0: -1e30, X1: 1e30, Y1: 1e30}

type style struct {
	flags uint8
	grey  float32
}

var (
	ink    = style{vector.Stroke, 0}
	filled = style{vector.Fill | vector.Stroke, 0}
	faint  = style{vector.Stroke, 0.55}
)

// path adds one path of subpaths: each a list of points (a polyline),
// closed when its first and last points are the same value.
func (b *pageBuilder) path(st style, subs ...[]pt) {
	pg := b.pg
	pa := vector.Path{Flags: st.flags, Grey: st.grey, Alpha: 1, Width: 2, Clip: noClip,
		Cmd0: int32(len(pg.Cmds)), Pt0: int32(len(pg.Pts))}
	for _, s := range subs {
		for i, p := range s {
			c := vector.LineTo
			if i == 0 {
				c = vector.MoveTo
			}
			pg.Cmds = append(pg.Cmds, c)
			pg.Pts = append(pg.Pts, vector.Point{X: float32(px(p)), Y: float32(py(p))})
		}
	}
	pa.Cmd1 = int32(len(pg.Cmds))
	pg.Paths = append(pg.Paths, pa)
}

// circle adds a circle drawn as n Bézier curves (n ≥ 4) or, with poly, as
// an n-sided polygon.
func (b *pageBuilder) circle(st style, c pt, r float64, n int, poly bool, phase float64) {
	b.arc(st, c, r, phase, phase+2*math.Pi, n, poly, true)
}

// arc adds an arc of the circle (c, r) from angle a0 to a1 as a path of its
// own: n Bézier curves or, with poly, n straight sides; closed when closed.
func (b *pageBuilder) arc(st style, c pt, r, a0, a1 float64, n int, poly, closed bool) {
	pg := b.pg
	pa := vector.Path{Flags: st.flags, Grey: st.grey, Alpha: 1, Width: 2, Clip: noClip,
		Cmd0: int32(len(pg.Cmds)), Pt0: int32(len(pg.Pts))}
	put := func(p pt) { pg.Pts = append(pg.Pts, vector.Point{X: float32(px(p)), Y: float32(py(p))}) }
	at := func(a float64) pt { return c + cmplx.Rect(r, a) }
	pg.Cmds = append(pg.Cmds, vector.MoveTo)
	put(at(a0))
	step := (a1 - a0) / float64(n)
	for i := 1; i <= n; i++ {
		s0, s1 := a0+step*float64(i-1), a0+step*float64(i)
		if poly {
			pg.Cmds = append(pg.Cmds, vector.LineTo)
			put(at(s1))
			continue
		}
		k := 4.0 / 3 * math.Tan(step/4) * r
		pg.Cmds = append(pg.Cmds, vector.CurveTo)
		put(at(s0) + cmplx.Rect(k, s0+math.Pi/2))
		put(at(s1) - cmplx.Rect(k, s1+math.Pi/2))
		put(at(s1))
	}
	if closed {
		pg.Cmds = append(pg.Cmds, vector.Close)
	}
	pa.Cmd1 = int32(len(pg.Cmds))
	pg.Paths = append(pg.Paths, pa)
}

// glyph adds a character of size s (em) centred at c, its baseline at angle
// a (radians, page pixels).
func (b *pageBuilder) glyph(r rune, c pt, s, a float64) {
	adv := 0.6
	u, v := cmplx.Rect(s, a), cmplx.Rect(s, a-math.Pi/2) // x axis, y axis (up)
	o := c - u*complex(adv/2, 0) - v*complex(0.35, 0)
	bb := vector.NoRect
	for _, q := range []pt{o, o + u*complex(adv, 0), o + v*complex(0.7, 0), o + u*complex(adv, 0) + v*complex(0.7, 0)} {
		bb = bb.AddPoint(vector.Point{X: float32(px(q)), Y: float32(py(q))})
	}
	b.pg.Glyphs = append(b.pg.Glyphs, vector.Glyph{Rune: r, A: float32(real(u)), B: float32(imag(u)), C: float32(real(v)),
		D: float32(imag(v)), E: float32(px(o)), F: float32(py(o)), Adv: float32(adv), Box: bb})
}

// shape is a symbol drawn at a pose: f maps its frame ([-1, 1]², y down)
// to the page.
type shape func(b *pageBuilder, f func(pt) pt, scale, turn float64)

// place returns the frame map of a symbol at c, half-size half, turned by
// turn radians (as arg z), mirrored or not.
func place(c pt, half, turn float64, mirror bool) func(pt) pt {
	return func(p pt) pt {
		if mirror {
			p = cmplx.Conj(p)
		}
		return c + p*cmplx.Rect(half, turn)
	}
}

// receptacle: a circle with two lines through it.
func receptacle(b *pageBuilder, f func(pt) pt, half, turn float64) {
	c := f(0)
	b.circle(ink, c, 0.6*half, 4, false, turn)
	b.path(ink, []pt{f(complex(-1, -0.22)), f(complex(1, -0.22))})
	b.path(ink, []pt{f(complex(-1, 0.22)), f(complex(1, 0.22))})
}

// flag: a pole with a triangle on one side (not symmetric: its mirror image
// differs).
func flag(b *pageBuilder, f func(pt) pt, half, turn float64) {
	b.path(ink, []pt{f(complex(-0.8, 1)), f(complex(-0.8, -1)), f(complex(0.8, -0.6)), f(complex(-0.8, -0.2))})
	b.path(ink, []pt{f(complex(-1, 1)), f(complex(-0.6, 1))})
}

// switchS: a circle with an S; switchOS: a circle with OS.
func switchS(b *pageBuilder, f func(pt) pt, half, turn float64) {
	b.circle(ink, f(0), 0.9*half, 4, false, turn)
	b.glyph('S', f(0), 1.1*half, turn)
}

// switchM: a circle with an M, drawn as the S (a motor).
func switchM(b *pageBuilder, f func(pt) pt, half, turn float64) {
	b.circle(ink, f(0), 0.9*half, 4, false, turn)
	b.glyph('M', f(0), 1.1*half, turn)
}

func switchOS(b *pageBuilder, f func(pt) pt, half, turn float64) {
	b.circle(ink, f(0), 0.9*half, 4, false, turn)
	b.glyph('O', f(complex(-0.3, 0)), 0.8*half, turn)
	b.glyph('S', f(complex(0.3, 0)), 0.8*half, turn)
}

// triangle, open or filled.
func triangle(st style) shape {
	return func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.path(st, []pt{f(complex(0, -0.9)), f(complex(0.95, 0.75)), f(complex(-0.95, 0.75)), f(complex(0, -0.9))})
	}
}

// templateOf draws sh alone on a legend page at half-size 30 and reads it.
func templateOf(t testing.TB, label string, sh shape) *Template {
	t.Helper()
	b := newPage(200, 200)
	sh(b, place(complex(100, 100), 30, 0, false), 30, 0)
	tm, err := NewTemplate(label, b.pg, vector.Rect{X0: 60, Y0: 60, X1: 140, Y1: 140})
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

type placed struct {
	label  string
	sh     shape
	c      pt
	half   float64
	turn   float64
	mirror bool
}

// drawAll draws the instances on a plan page and returns their boxes as
// truth.
func drawAll(b *pageBuilder, ins []placed) []symbols.Truth {
	var truth []symbols.Truth
	for _, in := range ins {
		n := len(b.pg.Cmds)
		ng := len(b.pg.Glyphs)
		in.sh(b, place(in.c, in.half, in.turn, in.mirror), in.half, in.turn)
		bb := vector.NoRect
		// the box of what was drawn: its paths' points and its glyphs' boxes
		k := 0
		for i := range b.pg.Paths {
			if int(b.pg.Paths[i].Cmd0) >= n {
				cmds, p0 := b.pg.PathCmds(i)
				k = p0
				for _, c := range cmds {
					m := map[vector.Cmd]int{vector.MoveTo: 1, vector.LineTo: 1, vector.CurveTo: 3}[c]
					for j := 0; j < m; j++ {
						if c != vector.CurveTo || j == 2 {
							bb = bb.AddPoint(b.pg.Pts[k+j])
						}
					}
					k += m
				}
			}
		}
		for _, g := range b.pg.Glyphs[ng:] {
			bb = bb.Union(g.Box)
		}
		truth = append(truth, symbols.Truth{Label: in.label, Box: geom.Box{XMin: float64(bb.X0), YMin: float64(bb.Y0), XMax: float64(bb.X1), YMax: float64(bb.Y1)}})
	}
	return truth
}

func matchPage(t *testing.T, b *pageBuilder, ts []*Template) []symbols.Detection {
	t.Helper()
	d := NewDrawing(b.pg, vector.Rect{X0: 0, Y0: 0, X1: float32(b.pg.W), Y1: float32(b.pg.H)})
	dets, err := Match(context.Background(), d, ts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return dets
}

func score(dets []symbols.Detection, truth []symbols.Truth) symbols.Counts {
	var c symbols.Counts
	for _, lc := range symbols.Score(dets, truth, 0.5) {
		c.Add(lc)
	}
	return c
}

// Instances at any angle (not only 90° steps), 0.5–2× the legend's size,
// mirrored or not, are found and nothing else is.
func TestAnyAngleScaleMirror(t *testing.T) {
	ts := []*Template{templateOf(t, "R", receptacle), templateOf(t, "F", flag)}
	b := newPage(3000, 2000)
	var ins []placed
	i := 0
	for _, sh := range []struct {
		l string
		s shape
	}{{"R", receptacle}, {"F", flag}} {
		for _, turn := range []float64{0, 0.3, 1.1, 2.7, 4.0, 5.9} {
			for _, k := range []float64{0.5, 1.37, 2} {
				mirror := i%3 == 0
				ins = append(ins, placed{sh.l, sh.s, complex(float64(150+(i%12)*230), float64(150+(i/12)*300)), 30 * k, turn, mirror})
				i++
			}
		}
	}
	truth := drawAll(b, ins)
	dets := matchPage(t, b, ts)
	c := score(dets, truth)
	if c.TP != len(truth) || c.FP != 0 {
		t.Errorf("%d instances: TP %d FP %d FN %d", len(truth), c.TP, c.FP, c.FN)
	}
	// poses: scale and mirroring as drawn (angles are ambiguous for the
	// symmetric receptacle, not for the flag)
	for _, d := range dets {
		if d.Label != "F" {
			continue
		}
		for i, in := range ins {
			if in.label == "F" && d.Box.IoU(truth[i].Box) > 0.8 {
				if math.Abs(d.Scale-in.half/30) > 0.02 || d.Mirrored != in.mirror {
					t.Errorf("flag at %v: scale %.3f mirrored %v, drawn %.3f %v", in.c, d.Scale, d.Mirrored, in.half/30, in.mirror)
				}
			}
		}
	}
}

// Scales outside 0.5–2× are not searched.
func TestScaleRange(t *testing.T) {
	ts := []*Template{templateOf(t, "F", flag)}
	b := newPage(1000, 600)
	drawAll(b, []placed{{"F", flag, complex(200, 300), 30 * 0.4, 0.5, false}, {"F", flag, complex(600, 300), 30 * 2.5, 0.5, false}})
	if dets := matchPage(t, b, ts); len(dets) != 0 {
		t.Errorf("found %d instances outside 0.5–2×: %+v", len(dets), dets)
	}
}

// The same symbol drafted otherwise — lines broken into pieces, the circle
// as 8 curves or a 32-gon — is found.
func TestDraftingVariants(t *testing.T) {
	ts := []*Template{templateOf(t, "R", receptacle)}
	b := newPage(1500, 600)
	broken := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.6*half, 8, false, turn+0.4)
		b.path(ink, []pt{f(complex(-1, -0.22)), f(complex(0.1, -0.22))})
		b.path(ink, []pt{f(complex(0.1, -0.22)), f(complex(1, -0.22))})
		b.path(ink, []pt{f(complex(-1, 0.22)), f(complex(-0.4, 0.22)), f(complex(1, 0.22))})
	}
	polygon := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.6*half, 32, true, turn+0.1)
		b.path(ink, []pt{f(complex(-1, -0.22)), f(complex(-0.2, -0.22))}, []pt{f(complex(-0.2, -0.22)), f(complex(1, -0.22))})
		b.path(ink, []pt{f(complex(-1, 0.22)), f(complex(1, 0.22))})
	}
	truth := drawAll(b, []placed{{"R", broken, complex(300, 300), 40, 0.7, false}, {"R", polygon, complex(900, 300), 25, 2.2, true}})
	if c := score(matchPage(t, b, ts), truth); c.TP != 2 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d", c.TP, c.FP, c.FN)
	}
}

// Symbols drawn alike are told apart by their letters, and an open
// triangle from a filled one.
func TestLettersAndFills(t *testing.T) {
	ts := []*Template{templateOf(t, "S", switchS), templateOf(t, "OS", switchOS),
		templateOf(t, "D", triangle(ink)), templateOf(t, "T", triangle(filled))}
	b := newPage(2000, 600)
	truth := drawAll(b, []placed{
		{"S", switchS, complex(200, 300), 30, 0.5, false}, {"OS", switchOS, complex(500, 300), 45, 1.5, false},
		{"D", triangle(ink), complex(900, 300), 30, 0.2, false}, {"T", triangle(filled), complex(1300, 300), 40, 2.0, false},
	})
	// a motor is drawn as the switch, with another letter: neither symbol
	drawAll(b, []placed{{"M", switchM, complex(1700, 300), 35, 0.8, false}})
	// the filled triangle plotted without its outline is still one
	truth = append(truth, drawAll(b, []placed{{"T", triangle(style{vector.Fill, 0}), complex(1300, 480), 30, 4.0, false}})...)
	dets := matchPage(t, b, ts)
	if c := score(dets, truth); c.TP != 5 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d: %+v", c.TP, c.FP, c.FN, dets)
	}
}

// A line crossing a symbol (a wall, a pipe) and faint linework over it do
// not hide it; a symbol that is a part of a larger figure is not found.
func TestClutter(t *testing.T) {
	ts := []*Template{templateOf(t, "R", receptacle), templateOf(t, "F", flag)}
	b := newPage(1600, 800)
	truth := drawAll(b, []placed{{"R", receptacle, complex(300, 300), 35, 0.9, false}, {"F", flag, complex(800, 300), 35, 0.3, false}})
	b.path(ink, []pt{complex(150, 250), complex(480, 360)})                                               // crossing the receptacle
	b.path(faint, []pt{complex(700, 300), complex(900, 300)}, []pt{complex(800, 200), complex(800, 420)}) // a faint grid over the flag
	// the flag's lines running on into a larger figure: not a flag
	f := place(complex(1300, 400), 35, 0, false)
	b.path(ink, []pt{f(complex(-0.8, 1)), f(complex(-0.8, -1)), f(complex(0.8, -0.6)), f(complex(-0.8, -0.2)), f(complex(-0.8, 3))})
	b.path(ink, []pt{f(complex(-3, 1)), f(complex(2, 1))})
	dets := matchPage(t, b, ts)
	if c := score(dets, truth); c.TP != 2 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d: %+v", c.TP, c.FP, c.FN, dets)
	}
}

// An L-shaped symbol is not found at every corner: only where it stands
// alone.
func TestSimpleSymbolAtCorners(t *testing.T) {
	ell := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.path(ink, []pt{f(complex(-1, -1)), f(complex(-1, 1)), f(complex(1, 1))})
	}
	ts := []*Template{templateOf(t, "CG", ell)}
	b := newPage(1500, 800)
	truth := drawAll(b, []placed{{"CG", ell, complex(300, 300), 30, 0, false}, {"CG", ell, complex(700, 300), 40, 1.2, false}})
	// rectangles and a T-junction: corners everywhere
	b.path(ink, []pt{complex(900, 100), complex(1400, 100), complex(1400, 600), complex(900, 600), complex(900, 100)})
	b.path(ink, []pt{complex(1000, 300), complex(1300, 300)}, []pt{complex(1150, 300), complex(1150, 500)})
	// an L with a line leaving one of its ends square (a leader's elbow
	// and its tick): nearly an L, not one standing alone
	b.path(ink, []pt{complex(300, 600), complex(300, 660), complex(360, 660)}, []pt{complex(360, 660), complex(360, 640)})
	dets := matchPage(t, b, ts)
	if c := score(dets, truth); c.TP != 2 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d: %+v", c.TP, c.FP, c.FN, dets)
	}
}

// A region of a page drawn without paths (a scan, a picture) has no
// template.
func TestNoGeometry(t *testing.T) {
	b := newPage(100, 100)
	b.glyph('X', complex(50, 50), 10, 0)
	if _, err := NewTemplate("X", b.pg, vector.Rect{X0: 0, Y0: 0, X1: 100, Y1: 100}); err != ErrNoGeometry {
		t.Errorf("a region of text only: %v, want ErrNoGeometry", err)
	}
}

// A cancelled search stops and says so.
func TestCancel(t *testing.T) {
	ts := []*Template{templateOf(t, "R", receptacle)}
	b := newPage(1000, 1000)
	for i := 0; i < 50; i++ {
		drawAll(b, []placed{{"R", receptacle, complex(float64(50+(i%10)*90), float64(50+(i/10)*90)), 30, float64(i), false}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := NewDrawing(b.pg, vector.Rect{X1: 1000, Y1: 1000})
	if _, err := Match(ctx, d, ts, Options{}); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

// A legend graphic's box is the ink's: a large circle drawn as four
// curves, whose control points lie well outside it, is still the graphic.
func TestTemplateOfCurves(t *testing.T) {
	b := newPage(400, 400)
	b.circle(ink, complex(200, 200), 100, 4, false, math.Pi/4) // curves from 45° to 135°…: control points 14 px out
	b.path(ink, []pt{complex(100, 200), complex(300, 200)})
	tm, err := NewTemplate("C", b.pg, vector.Rect{X0: 99, Y0: 99, X1: 301, Y1: 301})
	if err != nil {
		t.Fatal(err)
	}
	if tm.circle < 0 || len(tm.m.segs) < 10 {
		t.Errorf("the circle is not in the template: circle %d, %d segments", tm.circle, len(tm.m.segs))
	}
}

// Marks inside a symbol's closed outline count against it even when they
// do not touch it: a circle is not a circle with a letter drawn in strokes
// (as CAD programs export text set in their own line fonts).
func TestMarksInsideAnOutline(t *testing.T) {
	ring := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.9*half, 4, false, turn)
	}
	lettered := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		ring(b, f, half, turn)
		// an S in strokes, clear of the circle
		b.path(ink, []pt{f(complex(0.3, -0.45)), f(complex(-0.3, -0.45)), f(complex(-0.3, 0)), f(complex(0.3, 0)), f(complex(0.3, 0.45)), f(complex(-0.3, 0.45))})
	}
	ts := []*Template{templateOf(t, "O", ring)}
	b := newPage(1200, 600)
	truth := drawAll(b, []placed{{"O", ring, complex(300, 300), 35, 0, false}})
	drawAll(b, []placed{{"S", lettered, complex(800, 300), 35, 0.4, false}})
	if c := score(matchPage(t, b, ts), truth); c.TP != 1 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d", c.TP, c.FP, c.FN)
	}
}

// A search past its deadline names the templates it did not search and is
// no failure; the caller's cancellation still is.
func TestDeadline(t *testing.T) {
	ts := []*Template{templateOf(t, "R", receptacle)}
	b := newPage(1000, 1000)
	drawAll(b, []placed{{"R", receptacle, complex(500, 500), 30, 0, false}})
	d := NewDrawing(b.pg, vector.Rect{X1: 1000, Y1: 1000})
	dets, err := Match(context.Background(), d, ts, Options{Deadline: time.Now().Add(-time.Second)})
	var inc *Incomplete
	if !errors.As(err, &inc) || len(inc.Templates) != 1 || inc.Templates[0] != 0 || len(dets) != 0 {
		t.Errorf("deadline passed: %v %v", dets, err)
	}
	if dets, err := Match(context.Background(), d, ts, Options{Deadline: time.Now().Add(time.Minute)}); err != nil || len(dets) != 1 {
		t.Errorf("in time: %v %v", dets, err)
	}
}

// Lights drawn where grid lines cross — dash-dot lines that CAD programs
// export dash by dash, each dash its own path — are found: the dashes are
// pieces of lines passing through, not marks of the symbol's.
func TestGridLinesDashByDash(t *testing.T) {
	light := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.8*half, 4, false, turn)
	}
	ts := []*Template{templateOf(t, "L", light)}
	b := newPage(1600, 800)
	var ins []placed
	// grid line u through a: dash 15 px, gap, dot, gap
	grid := func(a, u pt, length float64) {
		for s := 0.0; s < length; s += 21 {
			b.path(ink, []pt{a + u*complex(s, 0), a + u*complex(s+15, 0)})
			b.path(ink, []pt{a + u*complex(s+17, 0), a + u*complex(s+18, 0)})
		}
	}
	grid(complex(40, 400), 1, 1500)
	for i, x := range []float64{300, 800, 1300} {
		ins = append(ins, placed{"L", light, complex(x, 400), 30, 0, false})
		u := cmplx.Rect(1, math.Pi/2+0.2*float64(i))
		grid(complex(x, 400)-u*complex(380, 0), u, 760)
	}
	truth := drawAll(b, ins)
	if c := score(matchPage(t, b, ts), truth); c.TP != 3 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d", c.TP, c.FP, c.FN)
	}
}

// Lights with their wiring drawn to them — lines from the centre (one
// dashed, dash by dash), leaders from the outline or from inside — are
// found: a line that starts in a closed symbol and leaves it says where it
// is connected.
func TestLightsWithLeaders(t *testing.T) {
	light := func(b *pageBuilder, f func(pt) pt, half, turn float64) {
		b.circle(ink, f(0), 0.8*half, 4, false, turn)
	}
	ts := []*Template{templateOf(t, "L", light)}
	b := newPage(1600, 800)
	truth := drawAll(b, []placed{{"L", light, complex(300, 400), 30, 0, false}, {"L", light, complex(800, 400), 30, 0, false},
		{"L", light, complex(1300, 400), 30, 0, false}})
	for _, c := range []pt{complex(300, 400), complex(800, 400), complex(1300, 400)} {
		// a wire from the centre, dash by dash, and a thin line up
		for s := 0.0; s < 200; s += 12 {
			b.path(ink, []pt{c + complex(s, 0), c + complex(s+8, 0)})
		}
		b.path(ink, []pt{c, c - complex(0, 150)})
		// and a leader: from the outline, or from inside, off the centre
		b.path(ink, []pt{c + cmplx.Rect(24, 2.5), c + cmplx.Rect(180, 2.5)})
		b.path(ink, []pt{c + complex(-8, 6), c + complex(-150, 120)})
	}
	if c := score(matchPage(t, b, ts), truth); c.TP != 3 || c.FP != 0 {
		t.Errorf("TP %d FP %d FN %d", c.TP, c.FP, c.FN)
	}
}
