package symbols

import (
	"image"
	"math"
	"slices"
	"sync"

	"github.com/plangraph/plangraph/vision/par"
)

// fimg is a float32 image; values are ink coverage in 0..1.
type fimg struct {
	w, h int
	p    []float32
}

func newF(w, h int) *fimg { return &fimg{w: w, h: h, p: make([]float32, w*h)} }

func (m *fimg) at(x, y int) float32 {
	if x < 0 || y < 0 || x >= m.w || y >= m.h {
		return 0
	}
	return m.p[y*m.w+x]
}

// bilinearEdge samples m bilinearly at a real position (0 outside),
// x0, y0 its floor, where some of the four pixels lie outside
// (sumBilinear samples the others).
func (m *fimg) bilinearEdge(x, y float64, x0, y0 int) float32 {
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	a, b := m.at(x0, y0), m.at(x0+1, y0)
	c, d := m.at(x0, y0+1), m.at(x0+1, y0+1)
	return (a*(1-fx)+b*fx)*(1-fy) + (c*(1-fx)+d*fx)*fy
}

// inkLevel is the grey value below which a pixel is ink.
const inkLevel = 160

// coverage turns a grey image (dark ink) into ink coverage 0/1.
func coverage(img *image.Gray) *fimg {
	b := img.Bounds()
	m := newF(b.Dx(), b.Dy())
	for y := 0; y < m.h; y++ {
		row := img.Pix[(y)*img.Stride : y*img.Stride+m.w]
		if b.Min != (image.Point{}) {
			off := img.PixOffset(b.Min.X, b.Min.Y+y)
			row = img.Pix[off : off+m.w]
		}
		out := m.p[y*m.w : (y+1)*m.w]
		for x, v := range row {
			if v < inkLevel {
				out[x] = 1
			}
		}
	}
	return m
}

// faintSum is the darkness (0 white, 1 black) that a 3×3 neighbourhood
// of an ink pixel sums to at least when the pixel belongs to a line
// drawn in ink: a black line 2/3 of a pixel wide or more. Screened
// linework sums to less: the grey tile grids, ceiling grids, hatching
// and backgrounds that CAD sheets plot in a grey pen one pixel wide (a
// #858585 line: 1.43).
const faintSum = 2.0

// clearFaint removes from m (the coverage of img) the ink of faint
// lines (see faintSum) and returns how many pixels it cleared and how
// many were ink. Pixels outside img count as paper.
func clearFaint(m *fimg, img *image.Gray) (cleared, ink int) {
	b := img.Bounds()
	dark := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= m.w || y >= m.h {
			return 0
		}
		return float64(255-img.Pix[img.PixOffset(b.Min.X+x, b.Min.Y+y)]) / 255
	}
	var faint []int
	for y := 0; y < m.h; y++ {
		for x := 0; x < m.w; x++ {
			if m.p[y*m.w+x] == 0 {
				continue
			}
			ink++
			s := 0.0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					s += dark(x+dx, y+dy)
				}
			}
			if s < faintSum {
				faint = append(faint, y*m.w+x)
			}
		}
	}
	for _, i := range faint {
		m.p[i] = 0
	}
	return len(faint), ink
}

// halve averages 2×2 cells.
func (m *fimg) halve() *fimg {
	w, h := (m.w+1)/2, (m.h+1)/2
	o := newF(w, h)
	par.Rows(h, w, func(r0, r1 int) {
		for y := r0; y < r1; y++ {
			y0, y1 := 2*y, min(2*y+1, m.h-1)
			for x := 0; x < w; x++ {
				x0, x1 := 2*x, min(2*x+1, m.w-1)
				o.p[y*w+x] = (m.p[y0*m.w+x0] + m.p[y0*m.w+x1] + m.p[y1*m.w+x0] + m.p[y1*m.w+x1]) / 4
			}
		}
	})
	return o
}

// strokeWidth estimates the typical stroke width of the ink in m (binary
// coverage) from the most common length of short horizontal and vertical
// ink runs: a line of width w crossed at right angles gives runs of w.
func strokeWidth(m *fimg) float64 { return widthOf(runHist(m)) }

const maxRun = 64

// runHist counts the lengths of ink runs along sampled rows and columns.
func runHist(m *fimg) [maxRun + 1]int {
	var hist [maxRun + 1]int
	step := max(1, m.h/1500)
	for y := 0; y < m.h; y += step {
		run := 0
		for x := 0; x <= m.w; x++ {
			if x < m.w && m.p[y*m.w+x] > 0.5 {
				run++
				continue
			}
			if run > 0 && run <= maxRun {
				hist[run]++
			}
			run = 0
		}
	}
	step = max(1, m.w/1500)
	for x := 0; x < m.w; x += step {
		run := 0
		for y := 0; y <= m.h; y++ {
			if y < m.h && m.p[y*m.w+x] > 0.5 {
				run++
				continue
			}
			if run > 0 && run <= maxRun {
				hist[run]++
			}
			run = 0
		}
	}
	return hist
}

// widthOf is the stroke width a run histogram shows: its mode, refined by
// the weighted mean around it.
func widthOf(hist [maxRun + 1]int) float64 {
	best, bv := 1, -1
	for i := 1; i <= maxRun; i++ {
		// smooth over neighbours: rendered strokes alternate between w and w+1
		v := hist[i]*2 + hist[max(i-1, 1)] + hist[min(i+1, maxRun)]
		if v > bv {
			best, bv = i, v
		}
	}
	// refine with the weighted mean around the mode
	num, den := 0.0, 0.0
	for i := max(best-1, 1); i <= min(best+1, maxRun); i++ {
		num += float64(i * hist[i])
		den += float64(hist[i])
	}
	if den == 0 {
		return 1
	}
	return num / den
}

// thin reduces binary ink (v > 0.5) to one-pixel-wide centre lines
// (Zhang–Suen), returned as the list of remaining pixels. Zhang–Suen
// erases a 2×2 block whole, and a small dot can thin down to one: a piece
// of ink left without a pixel keeps the one nearest its centroid (a
// legend's filled dot lost so had no centre line and no heavy area, and
// the symbol was matched without it).
func thin(m *fimg) [][2]int {
	w, h := m.w, m.h
	g := make([]uint8, w*h)
	for i, v := range m.p {
		if v > 0.5 {
			g[i] = 1
		}
	}
	at := func(x, y int) uint8 {
		if x < 0 || y < 0 || x >= w || y >= h {
			return 0
		}
		return g[y*w+x]
	}
	var del []int
	for changed := true; changed; {
		changed = false
		for pass := 0; pass < 2; pass++ {
			del = del[:0]
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					if g[y*w+x] == 0 {
						continue
					}
					p2, p3, p4, p5 := at(x, y-1), at(x+1, y-1), at(x+1, y), at(x+1, y+1)
					p6, p7, p8, p9 := at(x, y+1), at(x-1, y+1), at(x-1, y), at(x-1, y-1)
					b := int(p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9)
					if b < 2 || b > 6 {
						continue
					}
					seq := [9]uint8{p2, p3, p4, p5, p6, p7, p8, p9, p2}
					a := 0
					for i := 0; i < 8; i++ {
						if seq[i] == 0 && seq[i+1] == 1 {
							a++
						}
					}
					if a != 1 {
						continue
					}
					if pass == 0 && (p2*p4*p6 != 0 || p4*p6*p8 != 0) {
						continue
					}
					if pass == 1 && (p2*p4*p8 != 0 || p2*p6*p8 != 0) {
						continue
					}
					del = append(del, y*w+x)
				}
			}
			for _, i := range del {
				g[i] = 0
			}
			if len(del) > 0 {
				changed = true
			}
		}
	}
	var pts [][2]int
	lab := labelInk(m)
	type piece struct {
		kept, seen bool // a pixel thinned kept; a stand-in found
		n, sx, sy  int
		best       [2]int // the stand-in, nearest the centroid
		d          float64
	}
	ps := make([]piece, slices.Max(lab)+1)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			k := lab[y*w+x]
			if k == 0 {
				continue
			}
			q := &ps[k]
			q.n, q.sx, q.sy = q.n+1, q.sx+x, q.sy+y
			if g[y*w+x] == 1 {
				q.kept = true
				pts = append(pts, [2]int{x, y})
			}
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			k := lab[y*w+x]
			q := &ps[k]
			if k == 0 || q.kept {
				continue
			}
			d := math.Hypot(float64(x)-float64(q.sx)/float64(q.n), float64(y)-float64(q.sy)/float64(q.n))
			if !q.seen || d <= q.d {
				q.best, q.d, q.seen = [2]int{x, y}, d, true
			}
		}
	}
	for _, q := range ps[1:] {
		if !q.kept {
			pts = append(pts, q.best)
		}
	}
	return pts
}

// pose places a template: centre (in the target image's pixels), angle
// (radians, counter-clockwise on screen), scale relative to the template's
// full-resolution size, mirror.
type pose struct {
	cx, cy float64
	angle  float64
	scale  float64
	flip   bool
}

// placement is a pose at one level factor with its rotation worked out,
// for mapping many template points (relative to the template centre, full
// resolution) into the target image.
type placement struct {
	cx, cy, s, c, k float64
	flip            bool
}

func (p pose) at(f float64) placement {
	s, c := math.Sincos(-p.angle) // screen y points down
	return placement{cx: p.cx, cy: p.cy, s: s, c: c, k: p.scale * f, flip: p.flip}
}

// apply maps a template point into the target image.
func (t placement) apply(x, y float64) (float64, float64) {
	if t.flip {
		x = -x
	}
	return t.cx + t.k*(t.c*x-t.s*y), t.cy + t.k*(t.s*x+t.c*y)
}

// splat draws the template's centre lines posed by p into dst as strokes
// of the given radius (pixels of dst), with antialiased edges. It returns
// the bounding box of what was drawn.
func splat(dst *fimg, pts [][2]float64, p pose, f, radius float64) (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	// strokes thinner than a pixel are drawn one pixel wide, fainter: the
	// coverage an area-averaged image of them would have
	r, gain := max(radius, 0.5), min(radius/0.5, 1)
	ri := int(math.Ceil(r + 0.5))
	outer, inner := (r+0.5)*(r+0.5), (r-0.5)*(r-0.5)
	g := float32(gain)
	pl := p.at(f)
	// a pixel takes the value of its nearest point (the value falls with
	// the distance): the squared distances are gathered first, in the
	// box of the pixels the points reach, and turned into values once
	sc := splatScratch.Get().(*splatBuf)
	defer splatScratch.Put(sc)
	sc.t = slices.Grow(sc.t[:0], len(pts))[:len(pts)]
	bx0, by0, bx1, by1 := dst.w, dst.h, -1, -1
	for i, q := range pts {
		tx, ty := pl.apply(q[0], q[1])
		sc.t[i] = [2]float64{tx, ty}
		x0, y0, x1, y1 = min(x0, tx-r), min(y0, ty-r), max(x1, tx+r), max(y1, ty+r)
		ix, iy := int(math.Round(tx)), int(math.Round(ty))
		bx0, by0 = min(bx0, max(ix-ri, 0)), min(by0, max(iy-ri, 0))
		bx1, by1 = max(bx1, min(ix+ri, dst.w-1)), max(by1, min(iy+ri, dst.h-1))
	}
	if bx1 < bx0 || by1 < by0 {
		return
	}
	bw := bx1 - bx0 + 1
	n := bw * (by1 - by0 + 1)
	sc.d2 = slices.Grow(sc.d2[:0], n)[:n]
	for i := range sc.d2 {
		sc.d2[i] = outer
	}
	for _, t := range sc.t {
		tx, ty := t[0], t[1]
		ix, iy := int(math.Round(tx)), int(math.Round(ty))
		xs, xe := max(ix-ri, 0), min(ix+ri, dst.w-1)
		if xs > xe {
			continue
		}
		for yy := max(iy-ri, 0); yy <= min(iy+ri, dst.h-1); yy++ {
			dy := float64(yy) - ty
			dy2 := dy * dy
			row := sc.d2[(yy-by0)*bw+xs-bx0 : (yy-by0)*bw+xe-bx0+1]
			for i := range row {
				dx := float64(xs+i) - tx
				if d2 := dx*dx + dy2; d2 < row[i] {
					row[i] = d2
				}
			}
		}
	}
	for yy := by0; yy <= by1; yy++ {
		src := sc.d2[(yy-by0)*bw : (yy-by0+1)*bw]
		row := dst.p[yy*dst.w+bx0 : yy*dst.w+bx1+1]
		for i, d2 := range src {
			if d2 >= outer {
				continue
			}
			v := g
			if d2 > inner {
				v = float32(min(max(r+0.5-math.Sqrt(d2), 0), 1) * gain)
			}
			if v > row[i] {
				row[i] = v
			}
		}
	}
	return
}

// splatBuf is splat's scratch: the posed points and squared distances.
type splatBuf struct {
	t  [][2]float64
	d2 []float64
}

var splatScratch = sync.Pool{New: func() any { return new(splatBuf) }}

// topK keeps the k largest values' indexes, largest first (the first of
// equal values first).
func topK(vals []float64, k int) []int {
	k = min(k, len(vals))
	out := make([]int, 0, k)
	taken := make([]bool, len(vals))
	for len(out) < k {
		best := -1
		for i, v := range vals {
			if !taken[i] && (best < 0 || v > vals[best]) {
				best = i
			}
		}
		taken[best] = true
		out = append(out, best)
	}
	return out
}
