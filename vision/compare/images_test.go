package compare

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"github.com/plangraph/plangraph/vision/geom"
)

// plan is a plan-like drawing the tests draw, in plan units (A's pixels,
// at about 150 DPI): a sheet border, a building of rooms with double-line
// walls, door swings, room names and numbers, symbols, dimension strings,
// a hatched stair, grid bubbles and a title block.
type plan struct {
	w, h    float64
	walls   [][2]int // the two lines of each interior wall
	fills   []pfill
	lines   []pline
	circles []pcircle
	arcs    []parc
	texts   []ptext
}

type pline struct{ x0, y0, x1, y1, width float64 }
type pfill struct {
	x0, y0, x1, y1 float64
	grey           uint8
}
type pcircle struct{ x, y, r, width float64 }
type parc struct{ x, y, r, a0, a1 float64 }
type ptext struct {
	x, y, scale float64 // baseline start; Hershey simplex scale
	s           string
}

var roomNames = []string{"OFFICE", "STORE", "KITCHEN", "LOBBY", "MEETING", "PLANT", "WC", "LAB", "ARCHIVE", "STAFF", "CLASS", "HALL"}

// newPlan draws a w × h plan from seed.
func newPlan(seed uint64, w, h float64) *plan {
	r := rand.New(rand.NewPCG(seed, 26))
	p := &plan{w: w, h: h}
	p.rect(12, 12, w-12, h-12, 2)
	// the building: exterior walls, rooms in a grid of random splits
	bx0, by0, bx1, by1 := 0.08*w, 0.14*h, 0.72*w, 0.86*h
	p.wall(bx0, by0, bx1, by0, 9, 3)
	p.wall(bx1, by0, bx1, by1, 9, 3)
	p.wall(bx1, by1, bx0, by1, 9, 3)
	p.wall(bx0, by1, bx0, by0, 9, 3)
	xs := splits(r, bx0, bx1, 3+r.IntN(2))
	ys := splits(r, by0, by1, 2+r.IntN(2))
	for _, x := range xs[1 : len(xs)-1] {
		p.walls = append(p.walls, [2]int{len(p.lines), len(p.lines) + 1})
		p.wall(x, by0, x, by1, 6, 2)
	}
	for _, y := range ys[1 : len(ys)-1] {
		p.walls = append(p.walls, [2]int{len(p.lines), len(p.lines) + 1})
		p.wall(bx0, y, bx1, y, 6, 2)
	}
	n := 100
	for j := 0; j+1 < len(ys); j++ {
		for i := 0; i+1 < len(xs); i++ {
			x0, x1, y0, y1 := xs[i], xs[i+1], ys[j], ys[j+1]
			cx, cy := (x0+x1)/2, (y0+y1)/2
			n++
			p.text(roomNames[r.IntN(len(roomNames))], cx, cy-4, 0.75)
			p.text(fmt.Sprint(n), cx, cy+22, 0.6)
			// a door swing in the room's corner, symbols about the room
			p.arcs = append(p.arcs, parc{x0 + 8, y0 + 8, 34, 0, 90})
			p.lines = append(p.lines, pline{x0 + 8, y0 + 8, x0 + 8, y0 + 42, 2})
			for k := 0; k < 2; k++ {
				sx := x0 + 20 + r.Float64()*(x1-x0-40)
				sy := y0 + 50 + r.Float64()*(y1-y0-70)
				if math.Abs(sy-cy) < 40 {
					sy = cy + 48
				}
				p.symbol(sx, sy, "ABCDEFGH"[r.IntN(8)])
			}
		}
	}
	// a stair with treads and a hatched landing
	sx0, sy0 := bx1-130, by1-110
	for k := 0; k < 8; k++ {
		p.lines = append(p.lines, pline{sx0, sy0 + float64(k)*10, sx0 + 60, sy0 + float64(k)*10, 1.5})
	}
	for k := 0; k < 9; k++ {
		x := sx0 + 70 + float64(k)*7
		p.lines = append(p.lines, pline{x, sy0, x - 20, sy0 + 20, 1.2})
	}
	// dimension strings above and left of the building
	for i := 0; i+1 < len(xs); i++ {
		p.dim(xs[i], by0-40, xs[i+1], by0-40)
	}
	for j := 0; j+1 < len(ys); j++ {
		p.dim(bx0-45, ys[j], bx0-45, ys[j+1])
	}
	// grid bubbles
	for i, x := range xs {
		p.circles = append(p.circles, pcircle{x, by0 - 80, 14, 2})
		p.text(string(rune('1'+i)), x, by0-80+7, 0.55)
	}
	// the title block
	tx0 := 0.78 * w
	p.rect(tx0, 24, w-24, h-24, 3)
	for k, s := range []string{"PLANGRAPH", "SCHOOL ANNEX", "GROUND FLOOR", "PLAN", "A-101", "REV A", "2024-05-01"} {
		y := 60 + float64(k)*0.11*h
		p.lines = append(p.lines, pline{tx0, y + 24, w - 24, y + 24, 1.5})
		p.text(s, (tx0+w-24)/2, y+8, 0.7)
	}
	return p
}

func splits(r *rand.Rand, a, b float64, n int) []float64 {
	out := []float64{a}
	for i := 1; i < n; i++ {
		out = append(out, a+(b-a)*(float64(i)+0.4*(r.Float64()-0.5))/float64(n))
	}
	return append(out, b)
}

func (p *plan) rect(x0, y0, x1, y1, w float64) {
	p.lines = append(p.lines, pline{x0, y0, x1, y0, w}, pline{x1, y0, x1, y1, w},
		pline{x1, y1, x0, y1, w}, pline{x0, y1, x0, y0, w})
}

// wall is a double line of thickness t (between the lines' centres) and
// pen width pw.
func (p *plan) wall(x0, y0, x1, y1, t, pw float64) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	nx, ny := -dy/l*t/2, dx/l*t/2
	p.lines = append(p.lines, pline{x0 + nx, y0 + ny, x1 + nx, y1 + ny, pw}, pline{x0 - nx, y0 - ny, x1 - nx, y1 - ny, pw})
}

// text centres s on x, baseline y.
func (p *plan) text(s string, x, y, scale float64) {
	sz := gocv.GetTextSize(s, gocv.FontHersheySimplex, scale, 2)
	p.texts = append(p.texts, ptext{x - float64(sz.X)/2, y, scale, s})
}

func (p *plan) symbol(x, y float64, c byte) {
	p.circles = append(p.circles, pcircle{x, y, 11, 2})
	p.text(string(c), x, y+6, 0.45)
}

func (p *plan) dim(x0, y0, x1, y1 float64) {
	p.lines = append(p.lines, pline{x0, y0, x1, y1, 1.2})
	for _, e := range [2][2]float64{{x0, y0}, {x1, y1}} {
		p.lines = append(p.lines, pline{e[0] - 6, e[1] + 6, e[0] + 6, e[1] - 6, 1.5})
	}
	l := math.Hypot(x1-x0, y1-y0) / 8 // plan units to "inches"
	s := fmt.Sprintf("%d'-%d\"", int(l)/12, int(l)%12)
	if y0 == y1 {
		p.text(s, (x0+x1)/2, y0-6, 0.5)
	} else {
		p.text(s, x0-32, (y0+y1)/2, 0.5)
	}
}

// textBox is the box of text i (plan units).
func (p *plan) textBox(i int) geom.Box {
	t := p.texts[i]
	sz, base := gocv.GetTextSizeWithBaseline(t.s, gocv.FontHersheySimplex, t.scale, 2)
	return geom.Box{XMin: t.x, YMin: t.y - float64(sz.Y), XMax: t.x + float64(sz.X), YMax: t.y + float64(base)}
}

// lineBox is the box of line i (plan units), its width included.
func (p *plan) lineBox(i int) geom.Box {
	l := p.lines[i]
	return geom.Box{XMin: min(l.x0, l.x1) - l.width, YMin: min(l.y0, l.y1) - l.width,
		XMax: max(l.x0, l.x1) + l.width, YMax: max(l.y0, l.y1) + l.width}
}

// moveWall moves interior wall k by (dx, dy) and returns the box of its
// old and new places.
func (p *plan) moveWall(k int, dx, dy float64) geom.Box {
	b := union(p.lineBox(p.walls[k][0]), p.lineBox(p.walls[k][1]))
	for _, i := range p.walls[k] {
		l := &p.lines[i]
		l.x0, l.y0, l.x1, l.y1 = l.x0+dx, l.y0+dy, l.x1+dx, l.y1+dy
	}
	return union(b, union(p.lineBox(p.walls[k][0]), p.lineBox(p.walls[k][1])))
}

// addHatch hatches the box (x0, y0)–(x1, y1) with 45° lines every gap
// units, inside an outline, and returns the box.
func (p *plan) addHatch(x0, y0, x1, y1, gap float64) geom.Box {
	p.rect(x0, y0, x1, y1, 1.5)
	for d := gap; d < (x1-x0)+(y1-y0); d += gap {
		// the line x + y = x0 + y0 + d, cut to the box
		ax, ay := x0+d, y0
		if ax > x1 {
			ax, ay = x1, y0+(ax-x1)
		}
		bx, by := x0, y0+d
		if by > y1 {
			bx, by = x0+(by-y1), y1
		}
		p.lines = append(p.lines, pline{ax, ay, bx, by, 1.2})
	}
	return geom.Box{XMin: x0 - 2, YMin: y0 - 2, XMax: x1 + 2, YMax: y1 + 2}
}

// addScreen fills the box with a light grey tint and returns it.
func (p *plan) addScreen(x0, y0, x1, y1 float64, grey uint8) geom.Box {
	p.fills = append(p.fills, pfill{x0, y0, x1, y1, grey})
	return geom.Box{XMin: x0, YMin: y0, XMax: x1, YMax: y1}
}

// addSymbol adds a symbol and returns its box.
func (p *plan) addSymbol(x, y float64, c byte) geom.Box {
	p.symbol(x, y, c)
	return geom.Box{XMin: x - 13, YMin: y - 13, XMax: x + 13, YMax: y + 13}
}

// eraseText removes text i and returns its box.
func (p *plan) eraseText(i int) geom.Box {
	b := p.textBox(i)
	p.texts = append(p.texts[:i], p.texts[i+1:]...)
	return b
}

func union(a, b geom.Box) geom.Box {
	return geom.Box{XMin: min(a.XMin, b.XMin), YMin: min(a.YMin, b.YMin), XMax: max(a.XMax, b.XMax), YMax: max(a.YMax, b.YMax)}
}

func (p *plan) clone() *plan {
	q := *p
	q.lines = append([]pline(nil), p.lines...)
	q.circles = append([]pcircle(nil), p.circles...)
	q.arcs = append([]parc(nil), p.arcs...)
	q.fills = append([]pfill(nil), p.fills...)
	q.texts = append([]ptext(nil), p.texts...)
	q.walls = append([][2]int(nil), p.walls...)
	return &q
}

// draw renders the plan through t (plan units → image pixels) into a w × h
// image: drawn at ss times the plan's size, warped through t at ss times
// the image's, then shrunk by area averaging, as a renderer's
// antialiasing would.
func (p *plan) draw(t Transform, w, h, ss int) *image.Gray {
	k := float64(ss)
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), int(p.h*k), int(p.w*k), gocv.MatTypeCV8U)
	defer canvas.Close()
	const shift = 4
	fx := func(v float64) int { return int(math.Round(v * k * (1 << shift))) }
	ink := color.RGBA{0, 0, 0, 255}
	for _, f := range p.fills {
		r := image.Rect(fx(f.x0), fx(f.y0), fx(f.x1), fx(f.y1))
		gocv.RectangleWithParams(&canvas, r, color.RGBA{f.grey, f.grey, f.grey, 255}, -1, gocv.LineAA, shift)
	}
	for _, l := range p.lines {
		dx, dy := l.x1-l.x0, l.y1-l.y0
		n := math.Hypot(dx, dy)
		nx, ny := -dy/n*l.width/2, dx/n*l.width/2
		ex, ey := dx/n*l.width/2, dy/n*l.width/2 // square caps
		quad := []image.Point{
			{fx(l.x0 + nx - ex), fx(l.y0 + ny - ey)}, {fx(l.x1 + nx + ex), fx(l.y1 + ny + ey)},
			{fx(l.x1 - nx + ex), fx(l.y1 - ny + ey)}, {fx(l.x0 - nx - ex), fx(l.y0 - ny - ey)},
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{quad})
		gocv.FillPolyWithParams(&canvas, pv, ink, gocv.LineAA, shift, image.Point{})
		pv.Close()
	}
	for _, c := range p.circles {
		gocv.CircleWithParams(&canvas, image.Pt(fx(c.x), fx(c.y)), fx(c.r), ink, int(math.Round(c.width*k)), gocv.LineAA, shift)
	}
	for _, a := range p.arcs {
		gocv.EllipseWithParams(&canvas, image.Pt(fx(a.x), fx(a.y)), image.Pt(fx(a.r), fx(a.r)), 0, a.a0, a.a1, ink, int(math.Round(1.5*k)), gocv.LineAA, shift)
	}
	for _, s := range p.texts {
		gocv.PutTextWithParams(&canvas, s.s, image.Pt(int(math.Round(s.x*k)), int(math.Round(s.y*k))),
			gocv.FontHersheySimplex, s.scale*k, ink, int(math.Round(2*k)), gocv.LineAA, false)
	}
	big := gocv.NewMat()
	defer big.Close()
	warp(canvas, &big, levelMap(t, 1/k, image.Point{}, 1/k, image.Point{}), w*ss, h*ss)
	out := shrink(big, ss)
	defer out.Close()
	return matGray(out)
}

// scribble is a drawing unrelated to any plan: scattered circles, slanted
// strokes and numbers.
func scribble(seed uint64, w, h int) *image.Gray {
	r := rand.New(rand.NewPCG(seed, 99))
	p := &plan{w: float64(w), h: float64(h)}
	for i := 0; i < 60; i++ {
		x, y := 40+r.Float64()*(p.w-80), 40+r.Float64()*(p.h-80)
		switch i % 3 {
		case 0:
			p.circles = append(p.circles, pcircle{x, y, 5 + r.Float64()*40, 2})
		case 1:
			a := r.Float64() * math.Pi
			l := 30 + r.Float64()*200
			p.lines = append(p.lines, pline{x, y, x + l*math.Cos(a), y + l*math.Sin(a), 1 + r.Float64()*3})
		default:
			p.texts = append(p.texts, ptext{x, y, 0.5 + r.Float64(), fmt.Sprint(r.IntN(100000))})
		}
	}
	return p.draw(Identity, w, h, 2)
}

// side makes a Side of img at dpi.
func side(img *image.Gray, dpi int) *Side { return &Side{Image: img, DPI: dpi} }

// cornerError is the largest distance, in B's pixels, between where got
// and want put the corners of a w × h image of A.
func cornerError(got, want Transform, w, h int) float64 { return cornerDistance(got, want, w, h) }

func TestLevelMapRoundTrip(t *testing.T) {
	// a 2 × shrunk level's pixel centre (0, 0) is the full frame's (1, 1)
	m := levelMap(Identity, 2, image.Point{}, 1, image.Point{})
	if x, y := m.apply(0, 0); math.Abs(x-0.5) > 1e-12 || math.Abs(y-0.5) > 1e-12 {
		t.Fatalf("level centre → full centre: got (%g, %g), want (0.5, 0.5)", x, y)
	}
	tr := Transform{Scale: 1.2, RotationDeg: 1.5, Tx: 30, Ty: -12}
	inv := levelMap(tr.Inverse(), 1, image.Point{}, 1, image.Point{})
	fwd := levelMap(tr, 1, image.Point{}, 1, image.Point{})
	x, y := fwd.then(inv).apply(123, 456)
	if math.Hypot(x-123, y-456) > 1e-9 {
		t.Fatalf("map then inverse: got (%g, %g)", x, y)
	}
}

// TestComposePixels: Combined's pixel is white over paper on both sides
// (eight at a time or one), else the label's colour faded by the darker
// side's ink taken to its shade (one of 64), rounded: 255 − round(ink·(255
// − colour)/255), with the uncompared colour outside the cover before
// added, removed, unchanged; its rows are the palette's indices of the
// same colours.
func TestComposePixels(t *testing.T) {
	const w, h = 21, 3 // not a multiple of eight: the tail of a row
	r := image.Rect(0, 0, w, h)
	g := func() *image.Gray {
		m := image.NewGray(r)
		for i := range m.Pix {
			m.Pix[i] = 255
		}
		return m
	}
	in := diffInput{aligned: g(), b: g(), addition: g(), deletion: g(),
		cover: cover{q: [4][2]float64{{0, 0}, {16, 0}, {16, h}, {0, h}}, frame: r}}
	at := func(x, y int) int { return y*w + x }
	// row 1: unchanged ink 128 (A) under B's 200, removed 0, added 77,
	// removed and added both (added wins), B's ink beyond the cover
	in.aligned.Pix[at(2, 1)], in.b.Pix[at(2, 1)] = 128, 200
	in.aligned.Pix[at(9, 1)], in.deletion.Pix[at(9, 1)] = 0, 0
	in.b.Pix[at(10, 1)], in.addition.Pix[at(10, 1)] = 178, 178
	in.b.Pix[at(11, 1)], in.addition.Pix[at(11, 1)], in.deletion.Pix[at(11, 1)] = 50, 50, 50
	in.b.Pix[at(19, 1)], in.addition.Pix[at(19, 1)] = 0, 0
	out := compose(in)
	// row by row as the encoder reads them, then pixel by pixel
	rows := make([][]byte, h)
	for y := range h {
		rows[y] = slices.Clone(out.PalettedRow(y, make([]byte, w)))
	}
	plte := out.PaletteRGB()
	fade := func(ink int, col [3]uint8) color.RGBA {
		ink = int(math.Round(float64(ink>>2) * 255 / 63)) // its shade
		var c [3]uint8
		for i := range c {
			c[i] = uint8(255 - int(math.Round(float64(ink)*float64(255-col[i])/255)))
		}
		return color.RGBA{c[0], c[1], c[2], 255}
	}
	want := map[image.Point]color.RGBA{
		{2, 1}: fade(127, ColourUnchanged), {9, 1}: fade(255, ColourRemoved), {10, 1}: fade(77, ColourAdded),
		{11, 1}: fade(205, ColourAdded), {19, 1}: fade(255, ColourUncompared),
	}
	if c := want[image.Pt(2, 1)]; c != (color.RGBA{208, 208, 208, 255}) {
		t.Fatalf("fade(127, unchanged) = %v", c) // 255 − round(127·95/255 = 47.3) = 208
	}
	for y := range h {
		for x := range w {
			c, ok := want[image.Pt(x, y)]
			if !ok {
				c = color.RGBA{255, 255, 255, 255}
			}
			if got := out.RGBAAt(x, y); got != c {
				t.Errorf("pixel (%d,%d) = %v, want %v", x, y, got, c)
			}
			if got := plte[3*int(rows[y][x]):][:3]; got[0] != c.R || got[1] != c.G || got[2] != c.B {
				t.Errorf("row %d, pixel %d = %v, want %v", y, x, got, c)
			}
		}
	}
}
