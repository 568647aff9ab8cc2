package compare

import (
	"cmp"
	"context"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/text"
	"github.com/plangraph/plangraph/vision/vector"
)

// The tests draw each revision as a small PDF page with fpdf (points,
// pageW×pageH), render it through the project's MuPDF binding at 300 DPI
// (image and geometry) and read its words from the recorded glyphs, so
// that the analysis sees what ingestion would hand it.
const (
	pageW, pageH = 400.0, 300.0
	k300         = 300.0 / 72 // pixels per point
)

// drawSide draws one revision and renders it.
func drawSide(t *testing.T, draw func(f *fpdf.Fpdf)) *Side {
	t.Helper()
	f := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: pageW, Ht: pageH}})
	f.AddPage()
	f.SetLineWidth(1)
	f.SetFont("Helvetica", "", 10)
	draw(f)
	path := filepath.Join(t.TempDir(), "side.pdf")
	if err := f.OutputFileAndClose(path); err != nil {
		t.Fatal(err)
	}
	return renderFile(t, path, 300)
}

// renderFile renders page 1 of a PDF at dpi: its image, its geometry and
// the words of its glyphs.
func renderFile(t *testing.T, path string, dpi int) *Side {
	t.Helper()
	lim := render.DefaultLimits()
	lim.DPI = dpi
	doc, err := render.Open(path, "application/pdf", lim)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	img, err := doc.Render(0)
	if err != nil {
		t.Fatal(err)
	}
	pg, _, err := render.Vectors(context.Background(), doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	return &Side{Image: img, DPI: dpi, Words: glyphWords(pg), Page: pg, BlockType: "Plan"}
}

// glyphWords groups a page's glyphs into words: glyphs on one baseline,
// split at spaces and at gaps wider than a quarter of the type size; a
// word's box is its glyphs' ink. Rotated glyphs are left out.
func glyphWords(pg *vector.Page) []text.Word {
	gs := slices.Clone(pg.Glyphs)
	slices.SortStableFunc(gs, func(a, b vector.Glyph) int {
		return cmp.Or(cmp.Compare(math.Round(float64(a.F)/4), math.Round(float64(b.F)/4)), cmp.Compare(a.E, b.E))
	})
	var out []text.Word
	line, lastF := 0, float32(math.NaN())
	var cur *text.Word
	var lastEnd float64
	for _, g := range gs {
		size := g.Size()
		if math.Abs(float64(g.F-lastF)) > 0.3*size || lastF != lastF {
			line++
			cur = nil
		}
		lastF = g.F
		if g.Rune == ' ' || g.Box.Empty() || math.Abs(g.Angle()) > 0.05 {
			cur = nil // rotated lettering is left out: not needed here
			continue
		}
		if d := float64(g.E) - lastEnd; cur != nil && (d > 0.25*size || d < -0.1*size) {
			cur = nil
		}
		b := geom.Box{XMin: float64(g.Box.X0), YMin: float64(g.Box.Y0), XMax: float64(g.Box.X1), YMax: float64(g.Box.Y1)}
		if cur == nil {
			out = append(out, text.Word{Text: string(g.Rune), Box: b, Line: line, Conf: 1})
			cur = &out[len(out)-1]
		} else {
			cur.Text += string(g.Rune)
			cur.Box = unionBox(cur.Box, b)
		}
		lastEnd = float64(g.E) + float64(g.Adv)*size
	}
	return out
}

// testOverlay is what the diff engine hands the analysis, computed the
// simplest way: A warped onto B by tr, ink of one side with no ink of the
// other within tol pixels is added or removed, and the differences
// grouped (components within 8 px) into regions, groups under 8 pixels
// dropped as residue.
func testOverlay(a, b *Side, tr Transform, tol int) *Overlay {
	bb := b.Image.Bounds()
	alignedA := warpGray(a.Image, tr, bb)
	// hysteresis: ink is darker than 128; the other side's ink that excuses
	// it may be as light as 200 (a resampled thin line fades).
	darkA, darkB := darkMask(alignedA, 128), darkMask(b.Image, 128)
	nearA := dilateMask(darkMask(alignedA, 200), bb.Dx(), bb.Dy(), tol)
	nearB := dilateMask(darkMask(b.Image, 200), bb.Dx(), bb.Dy(), tol)
	add, del := image.NewGray(bb), image.NewGray(bb)
	diff := make([]bool, len(darkA))
	for i := range diff {
		add.Pix[i], del.Pix[i] = 255, 255
		if darkB[i] && !nearA[i] {
			add.Pix[i] = b.Image.Pix[i]
			diff[i] = true
		}
		if darkA[i] && !nearB[i] {
			del.Pix[i] = alignedA.Pix[i]
			diff[i] = true
		}
	}
	ov := &Overlay{Transform: tr, Registered: true, AlignedA: alignedA, AlignedB: b.Image, Addition: add, Deletion: del}
	for _, r := range diffGroups(diff, add, del, bb.Dx(), bb.Dy(), 8) {
		ov.Regions = append(ov.Regions, r)
	}
	return ov
}

// warpGray resamples img through the inverse of tr into bounds (bilinear,
// white outside).
func warpGray(img *image.Gray, tr Transform, bounds image.Rectangle) *image.Gray {
	out := image.NewGray(bounds)
	inv := tr.Inverse()
	ib := img.Bounds()
	at := func(x, y int) float64 {
		if !(image.Point{x, y}).In(ib) {
			return 255
		}
		return float64(img.GrayAt(x, y).Y)
	}
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			sx, sy := inv.Apply(float64(x)+0.5, float64(y)+0.5)
			sx, sy = sx-0.5, sy-0.5
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
			out.SetGray(x, y, color.Gray{Y: uint8(math.Round(v))})
		}
	}
	return out
}

func darkMask(img *image.Gray, below uint8) []bool {
	m := make([]bool, len(img.Pix))
	for i, v := range img.Pix {
		m[i] = v < below
	}
	return m
}

// dilateMask grows a mask by r pixels (square window).
func dilateMask(m []bool, w, h, r int) []bool {
	tmp, out := make([]bool, len(m)), make([]bool, len(m))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for k := max(0, x-r); k <= min(w-1, x+r); k++ {
				if m[y*w+k] {
					tmp[y*w+x] = true
					break
				}
			}
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for k := max(0, y-r); k <= min(h-1, y+r); k++ {
				if tmp[k*w+x] {
					out[y*w+x] = true
					break
				}
			}
		}
	}
	return out
}

// diffGroups groups differing pixels: 8-connected components whose boxes
// come within gap, each a Region with its added and removed counts.
func diffGroups(diff []bool, add, del *image.Gray, w, h, gap int) []Region {
	seen := make([]bool, len(diff))
	type comp struct {
		r          image.Rectangle
		added, rem int
	}
	var cs []comp
	for i := range diff {
		if !diff[i] || seen[i] {
			continue
		}
		c := comp{r: image.Rect(i%w, i/w, i%w+1, i/w+1)}
		stack := []int{i}
		seen[i] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := p%w, p/w
			c.r = c.r.Union(image.Rect(x, y, x+1, y+1))
			if add.Pix[p] != 255 {
				c.added++
			}
			if del.Pix[p] != 255 {
				c.rem++
			}
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx >= 0 && ny >= 0 && nx < w && ny < h && diff[ny*w+nx] && !seen[ny*w+nx] {
						seen[ny*w+nx] = true
						stack = append(stack, ny*w+nx)
					}
				}
			}
		}
		cs = append(cs, c)
	}
	boxes := make([]geom.Box, len(cs))
	for i, c := range cs {
		boxes[i] = rectBox(c.r)
	}
	var out []Region
	for _, cl := range ClusterBoxes(boxes, float64(gap)) {
		var rg Region
		for _, i := range cl {
			rg.Bounds = unionBox(rg.Bounds, boxes[i])
			rg.Added += cs[i].added
			rg.Removed += cs[i].rem
		}
		if rg.Added+rg.Removed >= 8 {
			out = append(out, rg)
		}
	}
	return out
}

// ptBox is a box given in points, in pixels at 300 DPI.
func ptBox(x0, y0, x1, y1 float64) geom.Box {
	return geom.Box{XMin: x0 * k300, YMin: y0 * k300, XMax: x1 * k300, YMax: y1 * k300}
}

// describe lists changes one a line for failure messages.
func describe(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString("\n  " + c.Severity + " " + c.Category + "/" + c.Kind + ": " + c.Description)
	}
	return b.String()
}

// findChange returns the first change of the category and kind whose
// description contains sub, or nil.
func findChange(cs []Change, category, kind, sub string) *Change {
	for i := range cs {
		if cs[i].Category == category && cs[i].Kind == kind && strings.Contains(cs[i].Description, sub) {
			return &cs[i]
		}
	}
	return nil
}

// drawPlan draws the fixed parts of a small plan: a room's walls (double
// lines) and a dimension line along the bottom, with ticks.
func drawPlan(f *fpdf.Fpdf) {
	f.SetLineWidth(1)
	f.Rect(40, 40, 220, 150, "D")
	f.Rect(46, 46, 208, 138, "D")
	f.Line(40, 230, 260, 230)
	f.Line(40, 222, 40, 238)
	f.Line(260, 222, 260, 238)
}

// cloudPath draws a revision cloud around the rectangle (x, y, w, h):
// bumps of about bump points bulging outwards along each side, each a
// cubic Bézier close to a half circle.
func cloudPath(f *fpdf.Fpdf, x, y, w, h, bump float64) {
	corners := [][2]float64{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}
	f.MoveTo(x, y)
	for i := range corners {
		p, q := corners[i], corners[(i+1)%4]
		l := math.Hypot(q[0]-p[0], q[1]-p[1])
		n := max(1, int(math.Round(l/bump)))
		ux, uy := (q[0]-p[0])/l, (q[1]-p[1])/l
		nx, ny := uy, -ux // outwards for a clockwise (on screen) loop
		s := l / float64(n)
		for j := 0; j < n; j++ {
			ax, ay := p[0]+ux*s*float64(j), p[1]+uy*s*float64(j)
			bx, by := ax+ux*s, ay+uy*s
			r := s / 2 * 4 / 3
			f.CurveBezierCubicTo(ax+nx*r, ay+ny*r, bx+nx*r, by+ny*r, bx, by)
		}
	}
	f.ClosePath()
	f.DrawPath("D")
}

// delta draws a revision delta (an upward triangle of side s) with its
// number inside.
func delta(f *fpdf.Fpdf, cx, cy, s float64, num string) {
	h := s * math.Sqrt(3) / 2
	f.Polygon([]fpdf.PointType{{X: cx, Y: cy - 2*h/3}, {X: cx + s/2, Y: cy + h/3}, {X: cx - s/2, Y: cy + h/3}}, "D")
	f.SetFont("Helvetica", "", 8)
	f.Text(cx-f.GetStringWidth(num)/2, cy+h/3-3, num)
}

// receptacle draws a duplex receptacle symbol (a circle with two short
// parallel strokes) centred at (cx, cy).
func receptacle(f *fpdf.Fpdf, cx, cy float64) {
	f.Circle(cx, cy, 5, "D")
	f.Line(cx-2, cy-3, cx-2, cy+3)
	f.Line(cx+2, cy-3, cx+2, cy+3)
}

// receptacleSym is the detection of a receptacle drawn at (cx, cy), its
// box a pixel looser than the drawing as a matcher's would be.
func receptacleSym(cx, cy float64) Symbol {
	return Symbol{Label: "DUPLEX RECEPTACLE", Description: "Duplex receptacle, 120 V", Bounds: ptBox(cx-5.5, cy-5.5, cx+5.5, cy+5.5), Confidence: 0.9}
}
