package symbols

import (
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/plangraph/plangraph/vision/par"
)

// probeScore is a fast pose score: the mean ink under the template's
// centre lines minus the mean ink at points of the template that should be
// empty (farther than a stroke from any line), on the blurred level. The
// centre lines are sampled at probeLine to twice as many points, or about
// twice per pixel of the level when the template is drawn so small that
// this is fewer.
func (m *matcher) probeScore(l int, t *prepared, p pose) float64 {
	lv := m.blurred(l)
	f := lf(l)
	pl := p.at(f)
	pts := t.fg
	if sp := t.pointsFor(p.scale * f); len(sp) < len(pts) {
		pts = sp
	}
	var fg float64
	if hid := m.hiddenAt(l, t, p); hid != nil {
		fg = visibleMean(lv, pl, pts, hid)
	} else {
		fg = sumBilinear(lv, pl, pts) / float64(len(pts))
	}
	minD := (m.sw*f/2 + 1.5) / (p.scale * f) // template pixels
	// the background probes at least minD from the lines: a prefix
	n := sort.Search(len(t.bgDist), func(i int) bool { return t.bgDist[i] < minD })
	bg := 0.0
	if n > 0 {
		bg = sumBilinear(lv, pl, t.bg[:n]) / float64(n)
	}
	return fg - bg
}

// visibleMean is the mean of lv (bilinear) at the points placed by pl that
// do not lie on hidden pixels, or at all of them when more than maxHidden
// of them do.
func visibleMean(lv *fimg, pl placement, pts [][2]float64, hidden []bool) float64 {
	w, h, px := lv.w, lv.h, lv.p
	var all, vis float64
	off := 0
	for _, q := range pts {
		x, y := pl.apply(q[0], q[1])
		x0, y0 := int(math.Floor(x)), int(math.Floor(y))
		if x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
			v := float64(lv.bilinearEdge(x, y, x0, y0))
			all += v
			ix, iy := int(math.Round(x)), int(math.Round(y))
			if ix >= 0 && iy >= 0 && ix < w && iy < h && hidden[iy*w+ix] {
				off++
				continue
			}
			vis += v
			continue
		}
		// as sumBilinear, and the nearest pixel's hidden mark
		fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
		i := y0*w + x0
		v := float64((px[i]*(1-fx)+px[i+1]*fx)*(1-fy) + (px[i+w]*(1-fx)+px[i+w+1]*fx)*fy)
		all += v
		if fx >= 0.5 {
			i++
		}
		if fy >= 0.5 {
			i += w
		}
		if hidden[i] {
			off++
			continue
		}
		vis += v
	}
	if off == 0 || tooHidden(float64(off), float64(len(pts))) {
		return all / float64(len(pts))
	}
	return vis / float64(len(pts)-off)
}

// sumBilinear sums lv.bilinear at the points placed by pl; the fast path
// is written out, as the compiler does not inline bilinear and most of
// refinement's time is spent here.
func sumBilinear(lv *fimg, pl placement, pts [][2]float64) float64 {
	w, h, px := lv.w, lv.h, lv.p
	sum := 0.0
	for _, q := range pts {
		x, y := pl.apply(q[0], q[1])
		x0, y0 := int(math.Floor(x)), int(math.Floor(y))
		if x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
			sum += float64(lv.bilinearEdge(x, y, x0, y0))
			continue
		}
		fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
		i := y0*w + x0
		sum += float64((px[i]*(1-fx)+px[i+1]*fx)*(1-fy) + (px[i+w]*(1-fx)+px[i+w+1]*fx)*fy)
	}
	return sum
}

// renders keeps a refinement's last few template drawings: a local
// search moves a pose by whole pixels as often as it turns or scales it,
// and a whole-pixel move draws the template exactly as before, shifted.
type renders struct {
	e     []rendered // most recently used first
	drawn int        // drawings made
}

type rendered struct {
	t            *prepared
	q            pose // in the drawing's own frame
	f, pen, grow float64
	size         int
	buf          *fimg
}

const maxRenders = 6

// draw returns t drawn posed by q (see splat) on a size × size image.
// The image belongs to the cache: it is valid until the next call.
func (c *renders) draw(t *prepared, q pose, f, pen, grow float64, size int) *fimg {
	for i, e := range c.e {
		if e.t == t && e.q == q && e.f == f && e.pen == pen && e.grow == grow && e.size == size {
			copy(c.e[1:i+1], c.e[:i])
			c.e[0] = e
			return e.buf
		}
	}
	var buf *fimg
	if len(c.e) == maxRenders {
		buf = c.e[maxRenders-1].buf
		buf.w, buf.h, buf.p = size, size, slices.Grow(buf.p[:0], size*size)[:size*size]
		clear(buf.p)
		c.e = c.e[:maxRenders-1]
	} else {
		buf = newF(size, size)
	}
	t.drawPosed(buf, q, f, pen, grow)
	c.drawn++
	c.e = append([]rendered{{t: t, q: q, f: f, pen: pen, grow: grow, size: size, buf: buf}}, c.e...)
	return buf
}

// nccClear is refine's correlation (ncc on the blurred level) with the
// ink of long straight lines (when crossed) and the wires' cleared around
// the pose (see verify): on a copy of the template's neighbourhood,
// blurred as the level is.
func (m *matcher) nccClear(l int, t *prepared, p pose, crossed bool, wires *windowMask) float64 {
	lv, long := m.level(l), m.longLines(l)
	f := lf(l)
	r := int(math.Ceil(t.radius*p.scale*f)) + 6
	x0, y0 := int(math.Floor(p.cx))-r, int(math.Floor(p.cy))-r
	patch := newF(2*r+1, 2*r+1)
	for y := 0; y < patch.h; y++ {
		for x := 0; x < patch.w; x++ {
			px, py := x+x0, y+y0
			if px < 0 || py < 0 || px >= lv.w || py >= lv.h || crossed && long[py*lv.w+px] || wires.at(px, py) {
				continue
			}
			patch.p[y*patch.w+x] = lv.p[py*lv.w+px]
		}
	}
	b := box3(box3(patch))
	q := p
	q.cx -= float64(x0)
	q.cy -= float64(y0)
	return m.ncc(b, prefixSums(b), f, t, q, nil, nil)
}

// ncc correlates the template posed by p (level pixels, level factor f)
// with the blurred level lv, whose row prefix sums are rs, inside the
// template's disk less the pixels skip marks (none when nil). The template
// is drawn through rc when it is given.
func (m *matcher) ncc(lv *fimg, rs *rowSums, f float64, t *prepared, p pose, rc *renders, skip []bool) float64 {
	r := t.radius*p.scale*f + 1
	x0, y0 := int(math.Floor(p.cx-r)), int(math.Floor(p.cy-r))
	size := int(2*r) + 3
	q := p
	q.cx -= float64(x0)
	q.cy -= float64(y0)
	var buf *fimg
	if rc != nil {
		buf = rc.draw(t, q, f, m.sw*f/2, 1, size)
	} else {
		buf = getScratch(size, size)
		defer putScratch(buf)
		t.drawPosed(buf, q, f, m.sw*f/2, 1)
	}
	var sa, sb, saa, sbb, sab, n float64
	var all, vis corrSums // with skip: over the disk, and without the skipped
	var tb, hb float64    // the template's ink, and how much of it is skipped
	w1 := lv.w + 1
	for y := 0; y < size; y++ {
		dy := float64(y) - q.cy
		if dy*dy > r*r {
			continue
		}
		half := math.Sqrt(r*r - dy*dy)
		xs, xe := max(int(math.Ceil(q.cx-half)), 0), min(int(math.Floor(q.cx+half))+1, size)
		if xe <= xs {
			continue
		}
		py := y + y0
		inRow := py >= 0 && py < lv.h
		row := buf.p[y*size : (y+1)*size]
		if skip != nil {
			// pixel by pixel: with and without the skipped ones
			for x := xs; x < xe; x++ {
				px := x + x0
				in := inRow && px >= 0 && px < lv.w
				a, b := 0.0, float64(row[x])
				if in {
					a = float64(lv.p[py*lv.w+px])
				}
				all.add(a, b)
				tb += b
				if in && skip[py*lv.w+px] {
					hb += b
					continue
				}
				vis.add(a, b)
			}
			continue
		}
		n += float64(xe - xs)
		if inRow {
			// the plan's sums over the span, from its row prefix sums
			ps, pe := min(max(xs+x0, 0), lv.w), min(max(xe+x0, 0), lv.w)
			sa += float64(rs.s1[py*w1+pe] - rs.s1[py*w1+ps])
			saa += float64(rs.s2[py*w1+pe] - rs.s2[py*w1+ps])
		}
		for x := xs; x < xe; x++ {
			b := row[x]
			if b == 0 {
				continue
			}
			sb += float64(b)
			sbb += float64(b * b)
			if px := x + x0; inRow && px >= 0 && px < lv.w {
				sab += float64(b * lv.p[py*lv.w+px])
			}
		}
	}
	if skip != nil {
		// too much of the symbol hidden, and too little is seen of it
		if tooHidden(hb, tb) {
			return all.value()
		}
		return vis.value()
	}
	return corrSums{sa, sb, saa, sbb, sab, n}.value()
}

// corrSums are the sums a normalised correlation of a and b is made of.
type corrSums struct{ sa, sb, saa, sbb, sab, n float64 }

func (c *corrSums) add(a, b float64) {
	c.sa += a
	c.sb += b
	c.saa += a * a
	c.sbb += b * b
	c.sab += a * b
	c.n++
}

func (c corrSums) value() float64 {
	if c.n == 0 {
		return 0
	}
	va := c.saa - c.sa*c.sa/c.n
	vb := c.sbb - c.sb*c.sb/c.n
	if va <= 1e-9 || vb <= 1e-9 {
		return 0
	}
	return (c.sab - c.sa*c.sb/c.n) / math.Sqrt(va*vb)
}

// rowSums are per-row prefix sums of a blurred level and of its square.
type rowSums struct{ s1, s2 []float32 }

func (m *matcher) rowSums(l int) *rowSums {
	lv := m.blurred(l)
	return perLevel(m, &m.sums, l, func() *rowSums { return prefixSums(lv) })
}

func prefixSums(lv *fimg) *rowSums {
	w1 := lv.w + 1
	r := &rowSums{s1: make([]float32, w1*lv.h), s2: make([]float32, w1*lv.h)}
	par.Rows(lv.h, lv.w, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			var a, b float32
			for x := 0; x < lv.w; x++ {
				v := lv.p[y*lv.w+x]
				a += v
				b += v * v
				r.s1[y*w1+x+1] = a
				r.s2[y*w1+x+1] = b
			}
		}
	})
	return r
}

var scratch sync.Pool

// getScratch returns a zeroed w×h image from a pool.
func getScratch(w, h int) *fimg {
	if v, ok := scratch.Get().(*fimg); ok && cap(v.p) >= w*h {
		v.w, v.h, v.p = w, h, v.p[:w*h]
		clear(v.p)
		return v
	}
	return newF(w, h)
}

func putScratch(m *fimg) { scratch.Put(m) }
