package synth

import (
	"bytes"
	"math"

	"github.com/go-pdf/fpdf"
)

// capHeight is Helvetica's cap height (and ascender) per unit of font size.
// Text boxes span the advance width horizontally and baseline to cap height
// vertically: sheet text is upper case and digits.
const capHeight = 0.718

// measurer gives Helvetica advance widths (fpdf's core-font metrics, the
// same AFM numbers PDF readers use for the standard fonts).
type measurer struct{ f *fpdf.Fpdf }

func newMeasurer() *measurer {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetFont("Helvetica", "", 10)
	return &measurer{f}
}

func (m *measurer) width(s string, size float64, bold bool) float64 {
	style := ""
	if bold {
		style = "B"
	}
	m.f.SetFont("Helvetica", style, size)
	return m.f.GetStringWidth(winAnsi(s))
}

// winAnsi encodes s for the core fonts (WinAnsi): runes up to U+00FF map
// to their Latin-1 byte. ASCII strings come back unchanged.
func winAnsi(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			r = '?'
		}
		b = append(b, byte(r))
	}
	return string(b)
}

// textItem is one run of real PDF text, placed at its baseline's left end
// and optionally turned counter-clockwise by Rot degrees about that point.
type textItem struct {
	S          string
	X, Y, Size float64
	Bold       bool
	Rot        float64
	W          float64
}

// text makes a left-aligned run with its baseline at y.
func (m *measurer) text(s string, x, y, size float64, bold bool) textItem {
	return textItem{S: s, X: x, Y: y, Size: size, Bold: bold, W: m.width(s, size, bold)}
}

// textC centres a run on (cx, cy): horizontally on its advance width and
// vertically on its cap height.
func (m *measurer) textC(s string, cx, cy, size float64, bold bool) textItem {
	w := m.width(s, size, bold)
	return textItem{S: s, X: cx - w/2, Y: cy + capHeight*size/2, Size: size, Bold: bold, W: w}
}

// fit returns the largest size ≤ size at which s fits in width w.
func (m *measurer) fit(s string, w, size float64, bold bool) float64 {
	if tw := m.width(s, size, bold); tw > w {
		size *= w / tw
	}
	return math.Floor(size*10) / 10
}

// wrap splits s into lines no wider than w.
func (m *measurer) wrap(s string, w, size float64) []string {
	var lines []string
	cur := ""
	for _, word := range splitWords(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if cur != "" && m.width(try, size, false) > w {
			lines = append(lines, cur)
			cur = word
		} else {
			cur = try
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i, c := range s {
		if c == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func (t textItem) translate(dx, dy float64) textItem { t.X += dx; t.Y += dy; return t }

// box is the text's page-space bounding box.
func (t textItem) box() rect {
	h := capHeight * t.Size
	if t.Rot == 0 {
		return rect{t.X, t.Y - h, t.X + t.W, t.Y}
	}
	b := emptyRect()
	for _, p := range []pt{{0, 0}, {t.W, 0}, {t.W, -h}, {0, -h}} {
		q := rot(p, t.Rot)
		b = b.addPt(pt{t.X + q.X, t.Y + q.Y})
	}
	return b
}

type opKind uint8

const (
	opLine opKind = iota
	opPolyline
	opPoly
	opRect
	opCircle
	opArc
	opText
	opSymbol
	opImage
)

// op is one drawing operation of a display list, in page points.
type op struct {
	k      opKind
	pts    []pt
	r      rect
	c      pt
	rad    float64
	a0, a1 float64 // arc angles, degrees counter-clockwise from 3 o'clock
	t      textItem
	lw     float64
	style  string // D (stroke), F (fill), FD (both)
	gray   int    // stroke and text grey level, 0 = black
	fill   int    // fill grey level
	dash   bool
	sym    *symbol
	half   float64 // symbol half-size in points
	angle  float64 // symbol rotation, degrees counter-clockwise
	vary   uint64  // symbol drafting variant (Options.Vary), 0 for none
	mirror bool    // symbol mirrored before it is turned
	rgb    uint32  // 0, or 1<<24 | 0xRRGGBB: stroke, fill and text colour instead of gray
	img    *image  // opImage
}

// image is a raster drawn into r (opImage): PNG bytes registered under name.
type image struct {
	name string
	png  []byte
}

// dlist is a display list: sheets are built as data, then written to PDF.
type dlist struct{ ops []op }

func (d *dlist) add(o op) { d.ops = append(d.ops, o) }

func (d *dlist) line(a, b pt, lw float64) { d.add(op{k: opLine, pts: []pt{a, b}, lw: lw, style: "D"}) }
func (d *dlist) dashed(a, b pt, lw float64) {
	d.add(op{k: opLine, pts: []pt{a, b}, lw: lw, style: "D", dash: true})
}
func (d *dlist) poly(p []pt, lw float64, style string) {
	d.add(op{k: opPoly, pts: p, lw: lw, style: style})
}
func (d *dlist) rect(r rect, lw float64) { d.add(op{k: opRect, r: r, lw: lw, style: "D"}) }
func (d *dlist) fillRect(r rect, fill int) {
	d.add(op{k: opRect, r: r, style: "F", fill: fill})
}
func (d *dlist) circle(c pt, r, lw float64, style string) {
	d.add(op{k: opCircle, c: c, rad: r, lw: lw, style: style})
}
func (d *dlist) arc(c pt, r, a0, a1, lw float64) {
	d.add(op{k: opArc, c: c, rad: r, a0: a0, a1: a1, lw: lw, style: "D"})
}
func (d *dlist) text(t textItem) { d.add(op{k: opText, t: t}) }
func (d *dlist) symbol(s *symbol, c pt, half, angle, lw float64) {
	d.symbolV(s, c, half, angle, lw, 0, false)
}

// symbolV draws a symbol in drafting variant vary (0: as the legend does),
// mirrored or not.
func (d *dlist) symbolV(s *symbol, c pt, half, angle, lw float64, vary uint64, mirror bool) {
	d.add(op{k: opSymbol, sym: s, c: c, half: half, angle: angle, lw: lw, vary: vary, mirror: mirror})
}

func (d *dlist) append(o *dlist) { d.ops = append(d.ops, o.ops...) }

// translate moves every operation by (dx, dy).
func (d *dlist) translate(dx, dy float64) {
	for i := range d.ops {
		o := &d.ops[i]
		if o.pts != nil {
			p := make([]pt, len(o.pts))
			for j, q := range o.pts {
				p[j] = pt{q.X + dx, q.Y + dy}
			}
			o.pts = p
		}
		o.r = o.r.translate(dx, dy)
		o.c = pt{o.c.X + dx, o.c.Y + dy}
		o.t = o.t.translate(dx, dy)
	}
}

// bounds is the box of everything drawn, strokes included.
func (d *dlist) bounds() rect {
	b := emptyRect()
	for _, o := range d.ops {
		b = b.union(o.bounds())
	}
	return b
}

func (o op) bounds() rect {
	h := o.lw / 2
	if o.style == "F" {
		h = 0
	}
	switch o.k {
	case opLine, opPolyline, opPoly:
		b := emptyRect()
		for _, p := range o.pts {
			b = b.addPt(p)
		}
		return b.pad(h)
	case opRect:
		return o.r.pad(h)
	case opCircle:
		return rect{o.c.X - o.rad, o.c.Y - o.rad, o.c.X + o.rad, o.c.Y + o.rad}.pad(h)
	case opArc:
		return arcBounds(o.c, o.rad, o.a0, o.a1).pad(h)
	case opText:
		return o.t.box()
	case opSymbol:
		return o.sym.boxM(o.c, o.half, o.angle, o.lw, o.mirror)
	case opImage:
		return o.r
	}
	return emptyRect()
}

// arcPoint is the point at angle a (degrees counter-clockwise from 3 o'clock).
func arcPoint(c pt, r, a float64) pt {
	s, co := math.Sincos(a * math.Pi / 180)
	return pt{c.X + r*co, c.Y - r*s}
}

func arcBounds(c pt, r, a0, a1 float64) rect {
	b := emptyRect().addPt(arcPoint(c, r, a0)).addPt(arcPoint(c, r, a1))
	for a := math.Ceil(a0/90) * 90; a < a1; a += 90 {
		b = b.addPt(arcPoint(c, r, a))
	}
	return b
}

// render writes the list to the current page of f.
func (d *dlist) render(f *fpdf.Fpdf) { d.renderTo(f, false) }

// renderTo writes the list; with outlined, text is drawn as strokes of the
// stroke font (strokefont.go) instead of PDF text.
func (d *dlist) renderTo(f *fpdf.Fpdf, outlined bool) {
	var st penState
	for _, o := range d.ops {
		st.apply(f, o)
		switch o.k {
		case opLine:
			f.Line(o.pts[0].X, o.pts[0].Y, o.pts[1].X, o.pts[1].Y)
		case opPolyline:
			f.MoveTo(o.pts[0].X, o.pts[0].Y)
			for _, p := range o.pts[1:] {
				f.LineTo(p.X, p.Y)
			}
			f.DrawPath("D")
		case opPoly:
			f.Polygon(fpts(o.pts), o.style)
		case opRect:
			f.Rect(o.r.X0, o.r.Y0, o.r.W(), o.r.H(), o.style)
		case opCircle:
			f.Circle(o.c.X, o.c.Y, o.rad, o.style)
		case opArc:
			f.Arc(o.c.X, o.c.Y, o.rad, o.rad, 0, o.a0, o.a1, "D")
		case opText:
			if outlined {
				strokeText(f, o.t)
			} else {
				renderText(f, o.t)
			}
		case opSymbol:
			o.sym.renderO(f, o.c, o.half, o.angle, o.vary, o.mirror, outlined)
		case opImage:
			if f.GetImageInfo(o.img.name) == nil {
				f.RegisterImageOptionsReader(o.img.name, fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(o.img.png))
			}
			f.ImageOptions(o.img.name, o.r.X0, o.r.Y0, o.r.W(), o.r.H(), false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
		}
	}
}

func fpts(p []pt) []fpdf.PointType {
	out := make([]fpdf.PointType, len(p))
	for i, q := range p {
		out[i] = fpdf.PointType{X: q.X, Y: q.Y}
	}
	return out
}

func renderText(f *fpdf.Fpdf, t textItem) {
	style := ""
	if t.Bold {
		style = "B"
	}
	f.SetFont("Helvetica", style, t.Size)
	if t.Rot != 0 {
		f.TransformBegin()
		f.TransformRotate(t.Rot, t.X, t.Y)
	}
	f.Text(t.X, t.Y, winAnsi(t.S))
	if t.Rot != 0 {
		f.TransformEnd()
	}
}

// penState avoids re-emitting unchanged graphics state.
type penState struct {
	init       bool
	lw         float64
	gray, fill int
	rgb, frgb  uint32
	dash       bool
}

func (s *penState) apply(f *fpdf.Fpdf, o op) {
	if !s.init {
		s.init = true
		f.SetLineCapStyle("butt")
		f.SetLineJoinStyle("miter")
		s.lw = -1
		s.gray, s.fill = -1, -1
		s.dash = true
	}
	if o.lw > 0 && o.lw != s.lw {
		f.SetLineWidth(o.lw)
		s.lw = o.lw
	}
	if o.gray != s.gray || o.rgb != s.rgb {
		if o.rgb != 0 {
			r, g, b := rgbOf(o.rgb)
			f.SetDrawColor(r, g, b)
			f.SetTextColor(r, g, b)
		} else {
			f.SetDrawColor(o.gray, o.gray, o.gray)
			f.SetTextColor(o.gray, o.gray, o.gray)
		}
		s.gray, s.rgb = o.gray, o.rgb
	}
	fill, frgb := o.fill, uint32(0)
	if o.style != "F" {
		fill, frgb = o.gray, o.rgb // filled shapes of one colour
	}
	if fill != s.fill || frgb != s.frgb {
		if frgb != 0 {
			r, g, b := rgbOf(frgb)
			f.SetFillColor(r, g, b)
		} else {
			f.SetFillColor(fill, fill, fill)
		}
		s.fill, s.frgb = fill, frgb
	}
	if o.dash != s.dash {
		if o.dash {
			f.SetDashPattern([]float64{6, 3}, 0)
		} else {
			f.SetDashPattern([]float64{}, 0)
		}
		s.dash = o.dash
	}
}

// rgbOf splits a colour made by rgbColor.
func rgbOf(c uint32) (r, g, b int) { return int(c >> 16 & 0xff), int(c >> 8 & 0xff), int(c & 0xff) }

// rgbColor marks 0xRRGGBB as a colour for op.rgb.
func rgbColor(c uint32) uint32 { return 1<<24 | c }
