package synth

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/go-pdf/fpdf"
)

// A small single-stroke font, drawn as PDF paths: the "text as outlines"
// convention (Options.Conventions "mixed"), where a CAD program exported
// its text as vectors and the page has no text layer. Glyphs are designed
// on a grid with the cap height 10, baseline 0, x-height 7 and y growing
// upwards. A glyph is strokes separated by "/": a stroke is either a
// polyline "x,y x,y …" or an elliptical arc "(cx,cy,rx,ry,a0,a1)" with
// angles in degrees counter-clockwise, running from a0 to a1 (a1 < a0 runs
// clockwise). Each glyph is drawn centred in the Helvetica advance of its
// character, so the text boxes of the truth stay the same as for real text.
type glyph struct {
	w       float64 // design width of the ink
	strokes [][]pt
}

var glyphSrc = map[rune]struct {
	w float64
	s string
}{
	'A':  {6, "0,0 3,10 6,0 / 1.1,3.4 4.9,3.4"},
	'B':  {5.8, "0,0 0,10 3.6,10 / 0,5 3.8,5 / 0,0 3.8,0 / (3.6,7.5,2,2.5,90,-90) / (3.8,2.5,2,2.5,90,-90)"},
	'C':  {6.2, "(3.6,5,3.6,5,40,320)"},
	'D':  {6, "0,0 0,10 2.5,10 / 0,0 2.5,0 / (2.5,5,3.5,5,90,-90)"},
	'E':  {5.4, "5.4,10 0,10 0,0 5.4,0 / 0,5 4.4,5"},
	'F':  {5.2, "5.2,10 0,10 0,0 / 0,5 4.4,5"},
	'G':  {6.6, "(3.6,5,3.6,5,40,340) / 3.8,4.2 6.9,4.2 6.9,1"},
	'H':  {6, "0,0 0,10 / 6,0 6,10 / 0,5 6,5"},
	'I':  {0, "0,0 0,10"},
	'J':  {4.6, "4.6,10 4.6,2.4 / (2.3,2.4,2.3,2.4,0,-180)"},
	'K':  {5.8, "0,0 0,10 / 5.8,10 0,3.6 / 2.1,5.7 5.8,0"},
	'L':  {5, "0,10 0,0 5,0"},
	'M':  {7.6, "0,0 0,10 3.8,0 7.6,10 7.6,0"},
	'N':  {6, "0,0 0,10 6,0 6,10"},
	'O':  {7, "(3.5,5,3.5,5,0,360)"},
	'P':  {5.8, "0,0 0,10 3.3,10 / 0,4.8 3.3,4.8 / (3.3,7.4,2.5,2.6,90,-90)"},
	'Q':  {7, "(3.5,5,3.5,5,0,360) / 4.2,2.6 7,-0.4"},
	'R':  {5.8, "0,0 0,10 3.3,10 / 0,4.8 3.3,4.8 / (3.3,7.4,2.5,2.6,90,-90) / 3,4.8 5.8,0"},
	'S':  {5.6, "(2.8,7.5,2.7,2.5,15,270) / (2.8,2.5,2.8,2.5,90,-165)"},
	'T':  {6, "0,10 6,10 / 3,10 3,0"},
	'U':  {6, "0,10 0,3 / 6,10 6,3 / (3,3,3,3,180,360)"},
	'V':  {6.2, "0,10 3.1,0 6.2,10"},
	'W':  {8.6, "0,10 2.15,0 4.3,10 6.45,0 8.6,10"},
	'X':  {6, "0,10 6,0 / 0,0 6,10"},
	'Y':  {6.2, "0,10 3.1,5 6.2,10 / 3.1,5 3.1,0"},
	'Z':  {5.6, "0,10 5.6,10 0,0 5.6,0"},
	'0':  {5, "(2.5,5,2.5,5,0,360)"},
	'1':  {3, "0.6,7.8 2.8,10 2.8,0"},
	'2':  {5, "(2.5,7.5,2.5,2.5,160,-30) / 4.67,6.25 0,0 5,0"},
	'3':  {5, "(2.5,7.6,2.3,2.4,150,-90) / (2.5,2.6,2.6,2.6,90,-150)"},
	'4':  {5.2, "3.9,0 3.9,10 0,3 5.2,3"},
	'5':  {5, "4.7,10 0.9,10 0.55,5.3 / (2.5,3.2,2.5,3.2,140,-150)"},
	'6':  {5, "(2.5,3,2.5,3,0,360) / 0,3 0,6.5 / (2.7,6.5,2.7,3.5,180,45)"},
	'7':  {5, "0,10 5,10 1.6,0"},
	'8':  {5, "(2.5,7.6,2.2,2.4,0,360) / (2.5,2.6,2.5,2.6,0,360)"},
	'9':  {5, "(2.5,7,2.5,3,0,360) / 5,7 5,3.5 / (2.3,3.5,2.7,3.5,0,-135)"},
	'a':  {4.8, "(2.4,3.5,2.4,3.5,0,360) / 4.8,7 4.8,0"},
	'b':  {5, "0,10 0,0 / (2.5,3.5,2.5,3.5,0,360)"},
	'c':  {4.8, "(2.6,3.5,2.6,3.5,45,315)"},
	'd':  {5, "(2.5,3.5,2.5,3.5,0,360) / 5,10 5,0"},
	'e':  {5, "0,3.5 5,3.5 / (2.5,3.5,2.5,3.5,0,320)"},
	'f':  {3.2, "1.2,0 1.2,8 / (2.7,8,1.5,2,180,60) / 0,7 3.2,7"},
	'g':  {5, "(2.5,3.5,2.5,3.5,0,360) / 5,7 5,-1 / (2.5,-1,2.5,2,0,-160)"},
	'h':  {5, "0,10 0,0 / (2.5,4.5,2.5,2.5,180,0) / 5,4.5 5,0"},
	'i':  {0, "0,0 0,7 / 0,9 0,10"},
	'j':  {2, "2,7 2,-1 / (0.5,-1,1.5,2,0,-150) / 2,9 2,10"},
	'k':  {4.8, "0,10 0,0 / 4.5,7 0,2.6 / 1.6,4.1 4.8,0"},
	'l':  {0, "0,10 0,0"},
	'm':  {8, "0,0 0,7 / (2,5,2,2,180,0) / 4,5 4,0 / (6,5,2,2,180,0) / 8,5 8,0"},
	'n':  {5, "0,0 0,7 / (2.5,4.5,2.5,2.5,180,0) / 5,4.5 5,0"},
	'o':  {5, "(2.5,3.5,2.5,3.5,0,360)"},
	'p':  {5, "0,7 0,-3 / (2.5,3.5,2.5,3.5,0,360)"},
	'q':  {5, "(2.5,3.5,2.5,3.5,0,360) / 5,7 5,-3"},
	'r':  {3.5, "0,0 0,7 / (3,4.5,3,2.5,180,70)"},
	's':  {4.6, "(2.3,5.3,2.1,1.7,20,270) / (2.3,1.7,2.3,1.7,90,-160)"},
	't':  {3.4, "1.3,9.5 1.3,1.2 / (2.6,1.2,1.3,1.2,180,300) / 0,7 3.2,7"},
	'u':  {5, "0,7 0,2.5 / (2.5,2.5,2.5,2.5,180,360) / 5,7 5,0"},
	'v':  {5, "0,7 2.5,0 5,7"},
	'w':  {7, "0,7 1.75,0 3.5,7 5.25,0 7,7"},
	'x':  {5, "0,7 5,0 / 0,0 5,7"},
	'y':  {5, "0,7 2.5,0 / 5,7 1.4,-3"},
	'z':  {5, "0,7 5,7 0,0 5,0"},
	'ß':  {5.2, "0,0 0,8 / (2.1,8,2.1,2,180,-90) / (2.4,3,2.8,3,90,-150)"},
	'ä':  {4.8, "(2.4,3.5,2.4,3.5,0,360) / 4.8,7 4.8,0 / 1.4,8.6 1.4,9.6 / 3.4,8.6 3.4,9.6"},
	'ö':  {5, "(2.5,3.5,2.5,3.5,0,360) / 1.5,8.6 1.5,9.6 / 3.5,8.6 3.5,9.6"},
	'ü':  {5, "0,7 0,2.5 / (2.5,2.5,2.5,2.5,180,360) / 5,7 5,0 / 1.5,8.6 1.5,9.6 / 3.5,8.6 3.5,9.6"},
	'Ü':  {6, "0,10 0,3 / 6,10 6,3 / (3,3,3,3,180,360) / 2,11.2 2,12 / 4,11.2 4,12"},
	'Ä':  {6, "0,0 3,10 6,0 / 1.1,3.4 4.9,3.4 / 2,11.2 2,12 / 4,11.2 4,12"},
	'Ö':  {7, "(3.5,5,3.5,5,0,360) / 2.5,11.2 2.5,12 / 4.5,11.2 4.5,12"},
	'±':  {5, "2.5,8 2.5,3 / 0,5.5 5,5.5 / 0,1 5,1"},
	'@':  {7, "(3.3,4.5,1.3,1.7,0,360) / 4.6,6.2 4.6,3.3 5.6,2.7 6.8,4.5 / (3.5,4.5,3.5,4.5,0,315)"},
	'.':  {0, "0,0 0,0.7"},
	',':  {0.6, "0.6,0.8 0,-1.6"},
	':':  {0, "0,0 0,0.7 / 0,5 0,5.7"},
	';':  {0.6, "0.6,5 0.6,5.7 / 0.6,0.8 0,-1.6"},
	'-':  {3, "0,4 3,4"},
	'_':  {6, "0,-1 6,-1"},
	'/':  {4, "0,-0.5 4,10.5"},
	'\\': {4, "4,-0.5 0,10.5"},
	'(':  {1.8, "(3.5,5,3.5,6,120,240)"},
	')':  {1.8, "(-1.7,5,3.5,6,60,-60)"},
	'[':  {2, "2,11 0,11 0,-1 2,-1"},
	']':  {2, "0,11 2,11 2,-1 0,-1"},
	'"':  {2, "0,10 0,7 / 2,10 2,7"},
	'\'': {0, "0,10 0,7"},
	'&':  {5.8, "(2.4,8.2,1.5,1.8,-45,225) / 1.34,6.93 5.6,0 / 3.46,6.93 0.5,3.2 / (2.3,2,2,2,150,300) / 3.3,0.27 5.8,3.6"},
	'+':  {5, "0,4 5,4 / 2.5,1.5 2.5,6.5"},
	'=':  {5, "0,2.8 5,2.8 / 0,5.4 5,5.4"},
	'#':  {6, "1.5,0 2.5,10 / 3.5,0 4.5,10 / 0,3.4 6,3.4 / 0,6.6 6,6.6"},
	'%':  {5.6, "0,0 5.6,10 / (1.1,8.4,1.1,1.6,0,360) / (4.5,1.6,1.1,1.6,0,360)"},
	'°':  {2.4, "(1.2,8.6,1.2,1.4,0,360)"},
	'×':  {4.6, "0,1 4.6,5.6 / 0,5.6 4.6,1"},
	'*':  {3.6, "1.8,10 1.8,6 / 0,9.1 3.6,6.9 / 0,6.9 3.6,9.1"},
	'!':  {0, "0,10 0,3 / 0,0 0,0.7"},
	'?':  {5, "(2.5,7.5,2.5,2.5,160,-60) / 3.75,5.33 2.5,3.6 2.5,2.5 / 2.5,0 2.5,0.7"},
	'<':  {4.6, "4.6,7 0,4 4.6,1"},
	'>':  {4.6, "0,7 4.6,4 0,1"},
}

var glyphs = func() map[rune]*glyph {
	out := map[rune]*glyph{}
	for r, src := range glyphSrc {
		g := &glyph{w: src.w}
		for _, st := range strings.Split(src.s, "/") {
			st = strings.TrimSpace(st)
			if strings.HasPrefix(st, "(") {
				v := nums(strings.Trim(st, "()"))
				cx, cy, rx, ry, a0, a1 := v[0], v[1], v[2], v[3], v[4], v[5]
				n := max(4, int(math.Ceil(math.Abs(a1-a0)/12)))
				var line []pt
				for i := 0; i <= n; i++ {
					a := (a0 + (a1-a0)*float64(i)/float64(n)) * math.Pi / 180
					line = append(line, pt{cx + rx*math.Cos(a), cy + ry*math.Sin(a)})
				}
				g.strokes = append(g.strokes, line)
				continue
			}
			var line []pt
			for _, p := range strings.Fields(st) {
				v := nums(p)
				line = append(line, pt{v[0], v[1]})
			}
			g.strokes = append(g.strokes, line)
		}
		out[r] = g
	}
	return out
}()

func nums(s string) []float64 {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			panic("synth: bad glyph number " + f)
		}
		out = append(out, v)
	}
	return out
}

// strokePaths lays out t in the stroke font: polylines in page points.
// Each character sits centred in its Helvetica advance (scaled down when
// its ink would not leave a small side bearing).
func strokePaths(m *measurer, t textItem) [][]pt {
	k := capHeight * t.Size / 10 // design unit → points
	x := 0.0
	var out [][]pt
	for _, r := range t.S {
		adv := m.width(string(r), t.Size, t.Bold)
		g := glyphs[r]
		if g == nil {
			if r >= 'a' && r <= 'z' {
				g = glyphs[r-'a'+'A']
			}
			if g == nil {
				x += adv
				continue
			}
		}
		sx := k
		bear := 0.12 * capHeight * t.Size
		if g.w*k > adv-2*bear && g.w > 0 {
			sx = max(adv-2*bear, adv*0.5) / g.w
		}
		left := x + (adv-g.w*sx)/2
		for _, st := range g.strokes {
			line := make([]pt, len(st))
			for i, p := range st {
				q := pt{left + p.X*sx, -p.Y * k}
				if t.Rot != 0 {
					q = rot(q, t.Rot)
				}
				line[i] = pt{t.X + q.X, t.Y + q.Y}
			}
			out = append(out, line)
		}
		x += adv
	}
	return out
}

// strokeMeasurer measures advances while pages are written; writers of
// different sets may run at once.
var (
	strokeMu       sync.Mutex
	strokeMeasurer = newMeasurer()
)

// strokeText draws t as stroke-font paths in the current draw colour. The
// line width and caps are set inside a saved graphics state.
func strokeText(f *fpdf.Fpdf, t textItem) {
	strokeMu.Lock()
	paths := strokePaths(strokeMeasurer, t)
	strokeMu.Unlock()
	if len(paths) == 0 {
		return
	}
	lw := 0.085 * capHeight * t.Size
	if t.Bold {
		lw = 0.14 * capHeight * t.Size
	}
	f.TransformBegin()
	f.SetLineWidth(lw)
	f.SetLineCapStyle("round")
	f.SetLineJoinStyle("round")
	for _, line := range paths {
		if len(line) == 2 && line[0] == line[1] {
			line[1].X += 0.01
		}
		f.MoveTo(line[0].X, line[0].Y)
		for _, p := range line[1:] {
			f.LineTo(p.X, p.Y)
		}
		f.DrawPath("D")
	}
	f.TransformEnd()
	// fpdf remembers the style it last set; put back what every display
	// list assumes (the graphics state itself is restored by Q)
	f.SetLineCapStyle("butt")
	f.SetLineJoinStyle("miter")
}
