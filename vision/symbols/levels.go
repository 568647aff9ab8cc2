package symbols

import (
	"image"
	"math"
	"sync"

	"gocv.io/x/gocv"

	"github.com/plangraph/plangraph/vision/par"
)

// hiddenMask is, for one level, which pixels lie within chamferTol of a
// cleared solid fill (half of a level pixel's block cleared), and which
// blocks of hiddenBlock × hiddenBlock pixels hold any of them.
type hiddenMask struct {
	near   []bool
	blocks []bool
	bw, bh int
}

const hiddenBlock = 16

// hiddenNear returns level l's hidden mask, or nil when no fill was
// cleared. A symbol set against a poché wall draws its side on the wall's
// face, and that ink went with the wall: a pose's points there are hidden,
// neither found nor missing (see maxHidden).
func (m *matcher) hiddenNear(l int) *hiddenMask {
	if m.hidden == nil {
		return nil
	}
	lv, w0, h0 := m.level(l), m.levels[0].w, m.levels[0].h
	tol := m.chamferTol(l)
	return perLevel(m, &m.hiddens, l, func() *hiddenMask {
		share := make([]byte, lv.w*lv.h)
		k := 1 << l
		par.Rows(lv.h, lv.w, func(r0, r1 int) {
			for y := r0; y < r1; y++ {
				ys, ye := y*k, min((y+1)*k, h0)
				for x := 0; x < lv.w; x++ {
					xs, xe := x*k, min((x+1)*k, w0)
					n, c := 0, 0
					for yy := ys; yy < ye; yy++ {
						for _, v := range m.hidden[yy*w0+xs : yy*w0+xe] {
							c += int(v)
						}
						n += xe - xs
					}
					if n > 0 && 2*c >= n {
						share[y*lv.w+x] = 255
					}
				}
			}
		})
		h := &hiddenMask{near: dilated(share, lv.w, lv.h, tol), bw: (lv.w + hiddenBlock - 1) / hiddenBlock, bh: (lv.h + hiddenBlock - 1) / hiddenBlock}
		h.blocks = make([]bool, h.bw*h.bh)
		for i, v := range h.near {
			if v {
				h.blocks[(i/lv.w)/hiddenBlock*h.bw+(i%lv.w)/hiddenBlock] = true
			}
		}
		return h
	})
}

// hiddenAt returns level l's hidden mask when t, posed by p (level
// pixels), may have parts hidden (t.hideable) and its disk's square
// touches the mask, else nil.
func (m *matcher) hiddenAt(l int, t *prepared, p pose) []bool {
	if !t.hideable {
		return nil
	}
	h := m.hiddenNear(l)
	if h == nil {
		return nil
	}
	x, y, r := p.cx, p.cy, t.radius*p.scale*lf(l)+1
	bx0, by0 := max(int(math.Floor(x-r))/hiddenBlock, 0), max(int(math.Floor(y-r))/hiddenBlock, 0)
	bx1, by1 := min(int(math.Ceil(x+r))/hiddenBlock, h.bw-1), min(int(math.Ceil(y+r))/hiddenBlock, h.bh-1)
	for by := by0; by <= by1; by++ {
		for bx := bx0; bx <= bx1; bx++ {
			if h.blocks[by*h.bw+bx] {
				return h.near
			}
		}
	}
	return nil
}

// blurred returns level l smoothed (two 3×3 box passes), which widens the
// basin of the local pose search.
func (m *matcher) blurred(l int) *fimg {
	lv := m.level(l)
	return perLevel(m, &m.blurs, l, func() *fimg { return box3(box3(lv)) })
}

// perLevel returns cache[l], made by mk the first time (under the
// matcher's lock: what mk needs of the matcher must be fetched before).
func perLevel[T any](m *matcher, cache *sync.Map, l int, mk func() T) T {
	if v, ok := cache.Load(l); ok {
		return v.(T)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := cache.Load(l); ok {
		return v.(T)
	}
	v := mk()
	cache.Store(l, v)
	return v
}

func box3(m *fimg) *fimg {
	o := newF(m.w, m.h)
	par.Rows(m.h, m.w, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			inner := y > 0 && y < m.h-1
			for x := 0; x < m.w; x++ {
				var s float32
				if inner && x > 0 && x < m.w-1 {
					// the same sums in the same order as at the edges,
					// without at's bounds tests
					i := (y-1)*m.w + x
					s += m.p[i-1]
					s += m.p[i]
					s += m.p[i+1]
					i += m.w
					s += m.p[i-1]
					s += m.p[i]
					s += m.p[i+1]
					i += m.w
					s += m.p[i-1]
					s += m.p[i]
					s += m.p[i+1]
				} else {
					for dy := -1; dy <= 1; dy++ {
						for dx := -1; dx <= 1; dx++ {
							s += m.at(x+dx, y+dy)
						}
					}
				}
				o.p[y*m.w+x] = s / 9
			}
		}
	})
	return o
}

func (m *matcher) level(l int) *fimg {
	if v, ok := m.built.Load(l); ok {
		return v.(*fimg)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(m.levels) <= l {
		m.levels = append(m.levels, m.levels[len(m.levels)-1].halve())
	}
	m.built.Store(l, m.levels[l])
	return m.levels[l]
}

// chamferTol is the chamfer test's tolerance at level l (level pixels):
// half a stroke and a little.
func (m *matcher) chamferTol(l int) float64 { return max(1.0, m.sw*lf(l)/2+0.75) }

// near returns, for level l, which pixels lie within chamferTol of ink.
func (m *matcher) near(l int) []bool {
	lv, tol := m.level(l), m.chamferTol(l)
	return perLevel(m, &m.nears, l, func() []bool { return nearInk(lv, tol) })
}

// nearInk marks the pixels of lv within Euclidean distance tol of ink (a
// coverage of 0.3 or more): the ink dilated by a disk of that radius.
func nearInk(lv *fimg, tol float64) []bool {
	bin := make([]byte, lv.w*lv.h)
	for i, v := range lv.p {
		if v >= 0.3 {
			bin[i] = 255
		}
	}
	return dilated(bin, lv.w, lv.h, tol)
}

// dilated marks the pixels within Euclidean distance tol of a non-zero
// pixel of the w×h image bin.
func dilated(bin []byte, w, h int, tol float64) []bool {
	src, _ := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, bin)
	defer src.Close()
	r := int(math.Floor(tol))
	n := 2*r + 1
	disk := make([]byte, n*n)
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			if float64(x*x+y*y) <= tol*tol {
				disk[(y+r)*n+x+r] = 1
			}
		}
	}
	ker, _ := gocv.NewMatFromBytes(n, n, gocv.MatTypeCV8U, disk)
	defer ker.Close()
	dst := gocv.NewMat()
	defer dst.Close()
	gocv.Dilate(src, &dst, ker)
	b, _ := dst.DataPtrUint8()
	out := make([]bool, len(b))
	for i, v := range b {
		out[i] = v != 0
	}
	return out
}

// longLines returns, for level l, which pixels are ink on horizontal or
// vertical straight runs longer than any symbol (walls, grid lines,
// dimension lines): a line that passes through a symbol and on is not
// part of it.
func (m *matcher) longLines(l int) []bool {
	lv := m.level(l)
	n := max(int(math.Ceil(m.longRun*lf(l))), 3)
	reach := max(1.5, m.sw*lf(l)/2+0.5)
	return perLevel(m, &m.runs, l, func() []bool { return longRuns(lv, n, reach) })
}

// slantMin is how far from horizontal or vertical a line must be for
// slantedRuns: those are longRuns' (exactly, by their runs).
const slantMin = 3 * math.Pi / 180

// longRuns marks the ink of lv (over 0.25) on horizontal or vertical runs
// of at least n pixels, and within reach of straight lines as long at a
// slant (see slantedRuns).
func longRuns(lv *fimg, n int, reach float64) []bool {
	bin := make([]byte, lv.w*lv.h)
	for i, v := range lv.p {
		if v > 0.25 {
			bin[i] = 255
		}
	}
	src, _ := gocv.NewMatFromBytes(lv.h, lv.w, gocv.MatTypeCV8U, bin)
	defer src.Close()
	out := make([]bool, lv.w*lv.h)
	slantedRuns(src, bin, lv.w, lv.h, n, reach, out)
	for _, k := range []image.Point{{n, 1}, {1, n}} {
		ker := gocv.GetStructuringElement(gocv.MorphRect, k)
		dst := gocv.NewMat()
		gocv.MorphologyEx(src, &dst, gocv.MorphOpen, ker)
		b, _ := dst.DataPtrUint8()
		for i, v := range b {
			out[i] = out[i] || v != 0
		}
		dst.Close()
		ker.Close()
	}
	return out
}

// slantedRuns marks in out the ink (bin, w × h, also as the Mat src)
// within reach of straight lines at a slant at least n pixels long
// (OpenCV's probabilistic Hough transform, gaps of 2 px bridged): a pipe,
// a duct or an angled wall drawn across the plan is no more a symbol, nor
// part of one, than a horizontal wall is (three heat detectors of synthetic seed
// 11 crossed by pipes at a slant were missed: their ink counted as
// unexplained). No symbol reaches that length (see matcher.longRun); a
// shorter slanted edge (a north arrow's needle) is a figure's own and
// stays (taken for a crossing line, a small symbol matched on it).
func slantedRuns(src gocv.Mat, bin []byte, w, h, n int, reach float64, out []bool) {
	straightRuns(src, bin, w, h, n, reach, out, func(ax, ay, bx, by float64) bool {
		a := math.Atan2(math.Abs(by-ay), math.Abs(bx-ax))
		return a >= slantMin && a <= math.Pi/2-slantMin
	})
}

// straightRuns marks in out the ink (bin, w × h, also as the Mat src)
// within reach of the straight lines at least n pixels long (OpenCV's
// probabilistic Hough transform, gaps of 2 px bridged) that keep accepts
// (given their ends).
func straightRuns(src gocv.Mat, bin []byte, w, h, n int, reach float64, out []bool, keep func(ax, ay, bx, by float64) bool) {
	lines := gocv.NewMat()
	defer lines.Close()
	gocv.HoughLinesPWithParams(src, &lines, 1, math.Pi/180, int(0.7*float64(n)), float32(n), 2)
	r := int(math.Ceil(reach))
	for i := 0; i < lines.Rows(); i++ {
		v := lines.GetVeciAt(i, 0)
		ax, ay, bx, by := float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])
		if !keep(ax, ay, bx, by) {
			continue
		}
		dx, dy := bx-ax, by-ay
		d := math.Hypot(dx, dy)
		ux, uy := dx/d, dy/d
		for t := 0.0; t <= d; t += 0.5 {
			cx, cy := ax+ux*t, ay+uy*t
			for y := int(cy) - r; y <= int(cy)+r+1; y++ {
				if y < 0 || y >= h {
					continue
				}
				for x := int(cx) - r; x <= int(cx)+r+1; x++ {
					if x < 0 || x >= w || bin[y*w+x] == 0 {
						continue
					}
					// distance across the line
					if math.Abs((float64(x)-ax)*uy-(float64(y)-ay)*ux) <= reach {
						out[y*w+x] = true
					}
				}
			}
		}
	}
}

// withoutLongLines is a copy of lv with the ink of long straight lines
// cleared. The ring pass searches it: walls and grid lines are not
// symbols, yet their parallel pairs and crossings match the ring profiles
// of many (thousands of candidates along every wall), and a wall drawn
// through a symbol hides its profile.
func withoutLongLines(lv *fimg, long []bool) *fimg {
	out := &fimg{w: lv.w, h: lv.h, p: make([]float32, len(lv.p))}
	for i, v := range lv.p {
		if !long[i] {
			out.p[i] = v
		}
	}
	return out
}

func lf(l int) float64 { return math.Ldexp(1, -l) }

// maxHidden is the largest share of a detection's centre-line points that
// may lie hidden on cleared solid fills (see matcher.hiddenNear): a symbol
// set against a poché wall draws one side or end on the wall's face.
const maxHidden = 1.0 / 3

// tooHidden tells whether hidden of a pose's total (points, or ink) is
// more than maxHidden: too little of the symbol is seen, and its hidden
// part counts as missing.
func tooHidden(hidden, total float64) bool { return hidden > maxHidden*total }

// minHideable is the least length of centre lines, in diagonals of its
// box, of a symbol whose parts may be hidden. A symbol drawn in a few
// strokes — an L, a line with hooks or arrowheads, a dashed line: 0.8–1.4
// diagonals (real/va-finish-plan.pdf's legend) — is little but a stroke
// or two once a part of it is hidden, and the linework along every wall
// matched that (corner guards 22 → 42, floor finish transitions 0 → 11,
// mostly at wall ends and door leaves); its hidden points count as
// missing, as before. SESYD's fixtures and doors are drawn in 2.1–6.5.
const minHideable = 2.0
