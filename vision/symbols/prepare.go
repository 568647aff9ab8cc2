package symbols

import (
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// prepared is a template reduced to centre lines around its ink centre.
type prepared struct {
	idx    int
	pts    [][2]float64 // centre-line points relative to the ink centre, template pixels
	radius float64      // ink radius from the centre
	bw, bh float64      // ink box size
	sw     float64      // stroke width of the template image
	// fg are centre-line probes (every len(pts)/probeLine-th point); bg
	// are probes on a probeGrid² grid over the box, farthest from the
	// lines first, bgDist their distances to the nearest line (template
	// pixels, descending)
	fg     [][2]float64
	bg     [][2]float64
	bgDist []float64
	// sparse[k] keeps one centre-line point per 2^k-pixel cell, for
	// drawing at reduced sizes
	sparse [][][2]float64
	// minScale is the smallest scale at which the symbol stays distinct
	// when drawn at the drawing's stroke width
	minScale float64
	// tips are the free ends of its lines (see lineEnds)
	tips []lineEnd
	// hideable: parts of it may be hidden by a cleared fill (see
	// minHideable)
	hideable bool
	// area holds the pixels of the template's heavy strokes (see
	// heavyStrokes) relative to the ink centre, area[k] one per 2^k-pixel
	// cell as sparse does: drawn as an area, they grow with the symbol
	area [][][2]float64
}

// lineEnd is a free end of a template's line: where it is (relative to
// the ink centre) and the unit direction in which the line runs out
// (template pixels).
type lineEnd struct{ x, y, dx, dy float64 }

// lineEnds finds the free ends of the lines of template c, thinned to
// sk: centre-line pixels with one neighbour, each followed back along its
// line for up to three strokes' widths (at least 8 px) to give its
// direction. Ends of branches shorter than two strokes' widths are
// thinning's spurs at corners, not line ends, and so are the ends of a
// filled area's centre lines (within a stroke of its inside), those
// whose ink is a heavy stroke (heavyRatio × ref) two strokes back (the
// corners of a filled shape, a wedge widening from its tip: a fire
// extinguisher's triangle, whose corners point at its box, was taken for
// a symbol on lines that run on, and all 8 instances of a sheet were
// dropped), and those where cut says the image's edge cuts the line.
func lineEnds(c *fimg, sk, fill [][2]int, cut func([2]int) bool, sw, ref, cx, cy float64) []lineEnd {
	w, h := c.w, c.h
	on := make([]bool, w*h)
	for _, q := range sk {
		on[q[1]*w+q[0]] = true
	}
	inFill := func(q [2]int) bool {
		for _, f := range fill {
			if math.Hypot(float64(f[0]-q[0]), float64(f[1]-q[1])) <= sw {
				return true
			}
		}
		return false
	}
	nbrs := func(x, y int, out [][2]int) [][2]int {
		out = out[:0]
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				u, v := x+dx, y+dy
				if (dx != 0 || dy != 0) && u >= 0 && v >= 0 && u < w && v < h && on[v*w+u] {
					out = append(out, [2]int{u, v})
				}
			}
		}
		return out
	}
	reach := max(3*sw, 8)
	var ends []lineEnd
	var nb [][2]int
	for _, q := range sk {
		if nb = nbrs(q[0], q[1], nb); len(nb) != 1 {
			continue
		}
		// walk back along the line while it stays a simple path
		prev, cur := q, nb[0]
		steps := 1
		var stem [2]int // the point two strokes back
		for float64(steps) < reach {
			if float64(steps) < 2*sw {
				stem = cur
			}
			nb = nbrs(cur[0], cur[1], nb)
			var next [2]int
			n := 0
			for _, r := range nb {
				if r != prev && max(abs(r[0]-prev[0]), abs(r[1]-prev[1])) > 1 {
					next, n = r, n+1
				}
			}
			if n != 1 {
				break
			}
			prev, cur = cur, next
			steps++
		}
		if float64(steps) < 2*sw || inFill(q) || cut(q) || 2*halfWidth(c, stem) >= heavyRatio*ref {
			continue
		}
		dx, dy := float64(q[0]-cur[0]), float64(q[1]-cur[1])
		d := math.Hypot(dx, dy)
		if d == 0 {
			continue
		}
		ends = append(ends, lineEnd{float64(q[0]) - cx, float64(q[1]) - cy, dx / d, dy / d})
	}
	return ends
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// prepare prepares template t (index i) for matching; pen is the
// legend's (see legendPen; 0: unknown).
func prepare(i int, t Template, opt Options, pen float64) (*prepared, string) {
	return prepareCrop(i, cropTemplate(t, opt), pen)
}

func prepareCrop(i int, cr crop, pen float64) (*prepared, string) {
	c, edge, sw := cr.c, cr.edge, cr.sw
	if c == nil {
		return nil, cr.reason
	}
	bw, bh := float64(c.w-2), float64(c.h-2)
	sk := thin(c)
	cx, cy := float64(c.w-1)/2, float64(c.h-1)/2
	// filled parts (dots, solid triangles) are kept as areas: their inside
	// joins the centre lines, so a filled and an open shape differ
	fill := fillInside(c, sw)
	// a line the image's edge cuts (a symbol cropped from a sheet with the
	// lines behind it: ink reaching the edge) has no free end there
	cut := func(q [2]int) bool {
		x, y := float64(q[0]-1), float64(q[1]-1) // from the ink box's corner
		return (edge[0] && x < sw) || (edge[1] && y < sw) || (edge[2] && x > bw-1-sw) || (edge[3] && y > bh-1-sw)
	}
	// strokes are heavy against the symbol's pen, or against the legend's
	// (pen, when known) for a symbol drawn all in heavy strokes (see
	// penSpread): its own commonest stroke is heavy, and drawn at the
	// drawing's pen it is a skeleton that any crossing lines match
	ref := sw
	if pen > 0 && sw > penSpread*pen {
		ref = pen
	}
	p := &prepared{idx: i, bw: bw, bh: bh, sw: sw, tips: lineEnds(c, sk, fill, cut, sw, ref, cx, cy)}
	var area [][2]float64
	inArea := make([]bool, c.w*c.h)
	for _, q := range heavyStrokes(c, sk, ref) {
		inArea[q[1]*c.w+q[0]] = true
		area = append(area, [2]float64{float64(q[0]) - cx, float64(q[1]) - cy})
	}
	// lettering is an area too, whatever its weight: glyphs are filled
	// outlines that grow with the symbol (a circled M at twice the size
	// has letters twice as bold), while its lines keep the pen's width —
	// a switch's S3 drawn at 1.7× its legend's size correlated at 0.71,
	// its letters redrawn at the pen's width
	for _, r := range cr.text {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if i := y*c.w + x; c.p[i] >= 0.5 && !inArea[i] {
					inArea[i] = true
					area = append(area, [2]float64{float64(x) - cx, float64(y) - cy})
				}
			}
		}
	}
	p.hideable = float64(len(sk)) >= minHideable*math.Hypot(bw, bh)
	sk = append(sk, fill...)
	for _, q := range sk {
		dx, dy := float64(q[0])-cx, float64(q[1])-cy
		p.pts = append(p.pts, [2]float64{dx, dy})
		p.radius = max(p.radius, math.Hypot(dx, dy))
	}
	p.radius += 1
	p.sparse = sparseLevels(p.pts)
	if len(area) > 0 {
		p.area = sparseLevels(area)
	}
	if len(p.pts) < 8 {
		return nil, "the symbol has too little ink to match"
	}
	stride := max(1, len(p.pts)/probeLine)
	for i := 0; i < len(p.pts); i += stride {
		p.fg = append(p.fg, p.pts[i])
	}
	near := p.sparse[1]
	var bg [][3]float64
	for gy := 0; gy < probeGrid; gy++ {
		for gx := 0; gx < probeGrid; gx++ {
			x := (float64(gx)+0.5)/probeGrid*bw - bw/2
			y := (float64(gy)+0.5)/probeGrid*bh - bh/2
			d := math.Inf(1)
			for _, q := range near {
				d = min(d, math.Hypot(q[0]-x, q[1]-y))
			}
			// a heavy stroke's ink reaches half a pixel past its pixels,
			// which the pen's half-width stands for below
			for _, a := range area {
				d = min(d, math.Hypot(a[0]-x, a[1]-y)-0.5+sw/2)
			}
			bg = append(bg, [3]float64{x, y, d})
		}
	}
	sort.SliceStable(bg, func(a, b int) bool { return bg[a][2] > bg[b][2] })
	for _, q := range bg {
		p.bg = append(p.bg, [2]float64{q[0], q[1]})
		p.bgDist = append(p.bgDist, q[2])
	}
	return p, ""
}

// The probe score (matcher.probeScore) reads the drawing at probeLine to
// twice as many centre-line points (or fewer, when the symbol is drawn so
// small that fewer make two per pixel) and on a probeGrid × probeGrid grid
// of the box, where it lies off the lines. probeLine was 400: refinement
// of SESYD plan 6 10.3 → 8.8 s, synthetic seed 2 2–3 % (its symbols have
// fewer points), the same detections on synthetic seeds 1–12 and SESYD.
// A 14 × 14 grid took another 10 % off seed 2 but misplaced a near-symmetric
// sink on SESYD plan 6 (its empty middle tells its pose); 120 points and
// 10 × 10 lost two right detections of synthetic seeds 6–7.
const (
	probeLine = 200
	probeGrid = 20
)

// crop is a template's ink cut out of its image with one pixel of paper
// around it (so that thinning sees a background border): edge tells which
// sides of the image (left, top, right, bottom) the ink reaches, sw is
// its stroke width (templateStrokeWidth). A nil c comes with the reason.
type crop struct {
	c      *fimg
	edge   [4]bool
	sw     float64
	reason string
	// text are the template's TextBoxes in c's pixels, grown by a pixel
	text []image.Rectangle
}

func cropTemplate(t Template, opt Options) crop {
	if t.Image == nil {
		return crop{reason: "no image"}
	}
	cov := opt.coverage(t.Image)
	x0, y0, x1, y1 := inkBox(cov, 0)
	if x1 < 0 {
		return crop{reason: "the symbol image is blank"}
	}
	bw, bh := float64(x1-x0+1), float64(y1-y0+1)
	if bw < MinSymbolPx || bh < MinSymbolPx {
		return crop{reason: fmt.Sprintf("the symbol is %gx%g px, under the %d px minimum", bw, bh, MinSymbolPx)}
	}
	c := newF(x1-x0+3, y1-y0+3)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c.p[(y-y0+1)*c.w+x-x0+1] = cov.p[y*cov.w+x]
		}
	}
	var text []image.Rectangle
	ox, oy := float64(t.Image.Bounds().Min.X+x0-1), float64(t.Image.Bounds().Min.Y+y0-1)
	for _, b := range t.TextBoxes {
		r := image.Rect(int(math.Floor(b.XMin-ox))-1, int(math.Floor(b.YMin-oy))-1, int(math.Ceil(b.XMax-ox))+1, int(math.Ceil(b.YMax-oy))+1)
		if r = r.Intersect(image.Rect(0, 0, c.w, c.h)); !r.Empty() {
			text = append(text, r)
		}
	}
	return crop{c: c, edge: [4]bool{x0 == 0, y0 == 0, x1 == cov.w-1, y1 == cov.h-1}, sw: templateStrokeWidth(c), text: enclosed(c, text)}
}

// enclosed keeps the word boxes that the symbol's other ink surrounds: ink
// outside every word box to the left and to the right of the box's rows
// and above and below its columns (the S3 in a switch's box, the J in a
// junction box's circle). That is lettering, which grows with the symbol;
// words set beside a symbol's lines (CPT and VCT at the ends of a floor
// finish transition's shafts, GFI beside a receptacle) are labels, whose
// weight does not tell the symbol's size.
func enclosed(c *fimg, text []image.Rectangle) []image.Rectangle {
	if len(text) == 0 {
		return nil
	}
	other := func(x, y int) bool {
		if c.p[y*c.w+x] < 0.5 {
			return false
		}
		for _, r := range text {
			if (image.Point{x, y}).In(r) {
				return false
			}
		}
		return true
	}
	var out []image.Rectangle
	for _, r := range text {
		var left, right, above, below bool
		for y := r.Min.Y; y < r.Max.Y && !(left && right); y++ {
			for x := 0; x < c.w && !(left && right); x++ {
				if (x < r.Min.X || x >= r.Max.X) && other(x, y) {
					left, right = left || x < r.Min.X, right || x >= r.Max.X
				}
			}
		}
		for x := r.Min.X; x < r.Max.X && !(above && below); x++ {
			for y := 0; y < c.h && !(above && below); y++ {
				if (y < r.Min.Y || y >= r.Max.Y) && other(x, y) {
					above, below = above || y < r.Min.Y, below || y >= r.Max.Y
				}
			}
		}
		if left && right && above && below {
			out = append(out, r)
		}
	}
	return out
}

// inkBox is the box of m's pixels above thr, corners included (x1 < 0:
// none).
func inkBox(m *fimg, thr float32) (x0, y0, x1, y1 int) {
	x0, y0, x1, y1 = m.w, m.h, -1, -1
	for y := 0; y < m.h; y++ {
		for x := 0; x < m.w; x++ {
			if m.p[y*m.w+x] > thr {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	return
}

// legendPen is the pen the symbols were drawn with: the median of their
// stroke widths (the lower middle one of an even number), 0 when there
// are none. A symbol drawn all in heavy strokes has its own far above it.
func legendPen(crops []crop) float64 {
	var sws []float64
	for _, cr := range crops {
		if cr.c != nil {
			sws = append(sws, cr.sw)
		}
	}
	if len(sws) == 0 {
		return 0
	}
	sort.Float64s(sws)
	return sws[(len(sws)-1)/2]
}

// templateStrokeWidth is the width of a template's strokes: the commonest
// ink run no longer than a quarter of the symbol's smaller side (at least
// 3 px). Longer runs cross filled parts: a symbol that is mostly a solid
// half-disc has more runs across the fill than across its lines, and its
// fill would be taken for its stroke.
func templateStrokeWidth(c *fimg) float64 {
	h := runHist(c)
	limit := max(3, min(c.w, c.h)/4)
	for i := limit + 1; i < len(h); i++ {
		h[i] = 0
	}
	return widthOf(h)
}

// fillInside lists the pixels of a template's filled areas: ink a disk
// wider than the template's strokes (sw) fits in, shrunk by half a stroke
// (the redrawn points are widened by half a stroke again).
func fillInside(c *fimg, sw float64) [][2]int {
	bin := inkBytes(c)
	opened := openDisk(bin, c.w, c.h, int(math.Ceil(sw*1.25))+1)
	defer opened.Close()
	r := max(1, int(math.Round(sw/2)))
	k := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(2*r+1, 2*r+1))
	defer k.Close()
	gocv.Erode(opened, &opened, k)
	b, _ := opened.DataPtrUint8()
	var out [][2]int
	for i, v := range b {
		if v != 0 {
			out = append(out, [2]int{i % c.w, i / c.w})
		}
	}
	return out
}

// sparseLevels returns pts and, for k = 1..5, one point of pts per
// 2^k-pixel cell, for drawing at reduced sizes.
func sparseLevels(pts [][2]float64) [][][2]float64 {
	out := [][][2]float64{pts}
	for k := 1; k <= 5; k++ {
		cell := float64(int(1) << k)
		seen := map[[2]int]bool{}
		var lv [][2]float64
		for _, q := range pts {
			key := [2]int{int(math.Floor(q[0] / cell)), int(math.Floor(q[1] / cell))}
			if !seen[key] {
				seen[key] = true
				lv = append(lv, q)
			}
		}
		out = append(out, lv)
	}
	return out
}

// A centre-line point is heavy when its stroke is at least heavyRatio
// template pens wide and as wide along a run of the line (at least two
// pens' worth of such points within two pens), or at least dotRatio pens
// wide (a dot: its centre line is a point or two). Two perpendicular
// lines crossing are about 1.4 pens wide at the crossing, over a pen's
// length; a bold letter's stems are 1.5–2 pens wide all along.
//
// penSpread is how much heavier than the legend's pen (the median of its
// symbols' stroke widths) a symbol's lines may be drawn: 0.9–1.2 times on
// the synthetic sheets, 0.9–1.25 in SESYD's models. A symbol whose
// commonest stroke is heavier is drawn all in heavy strokes (a filled
// steel section: 2.5–2.9 times).
const (
	penSpread  = 1.5
	heavyRatio = 1.45
	dotRatio   = 2.2
	heavyReach = 2.5
	heavyAll   = 0.85
)

// halfWidth is the half-width of c's ink at pixel q: its distance to the
// nearest paper pixel (found ring by ring), less half a pixel.
func halfWidth(c *fimg, q [2]int) float64 {
	paper := func(x, y int) bool { return x < 0 || y < 0 || x >= c.w || y >= c.h || c.p[y*c.w+x] <= 0.5 }
	best := math.Inf(1)
	for k := 1; float64(k) < best && k <= max(c.w, c.h); k++ {
		for d := -k; d <= k; d++ {
			for _, o := range [4][2]int{{d, -k}, {d, k}, {-k, d}, {k, d}} {
				if paper(q[0]+o[0], q[1]+o[1]) {
					best = min(best, math.Hypot(float64(o[0]), float64(o[1])))
				}
			}
		}
	}
	return best - 0.5
}

// heavyStrokes returns the pixels of c's heavy strokes: ink around the
// heavy points of its centre lines sk (see heavyRatio; a point's
// half-width is its distance to the nearest paper, less half a pixel).
// Bold letters, arrowheads and dots grow with the symbol while its lines
// keep the pen's width: redrawn at the drawing's pen, a bold "M" in a
// circle correlated at 0.5–0.65 with itself at twice the size. Drawn as
// an area, such strokes grow with the symbol.
func heavyStrokes(c *fimg, sk [][2]int, sw float64) [][2]int {
	hws := make([]float64, len(sk))
	for i, q := range sk {
		hws[i] = halfWidth(c, q)
	}
	wide := func(i int) bool { return 2*hws[i] >= heavyRatio*sw }
	heavy := make([]bool, len(sk))
	for i, q := range sk {
		if !wide(i) {
			continue
		}
		if 2*hws[i] < dotRatio*sw {
			n := 0
			for j, o := range sk {
				if j != i && wide(j) && math.Hypot(float64(o[0]-q[0]), float64(o[1]-q[1])) <= 2*sw {
					n++
				}
			}
			if float64(n) < 2*sw {
				continue
			}
		}
		heavy[i] = true
	}
	// the rest of a filled shape goes with its heavy strokes: centre-line
	// points of the same piece of ink near one (the thinner diagonals of a
	// bold "M" between its stems)
	lab := labelInk(c)
	marked := func() []int {
		var out []int
		for i, h := range heavy {
			if h {
				out = append(out, i)
			}
		}
		return out
	}
	core := marked()
	for i, q := range sk {
		if heavy[i] {
			continue
		}
		for _, j := range core {
			o := sk[j]
			if lab[o[1]*c.w+o[0]] == lab[q[1]*c.w+q[0]] && math.Hypot(float64(o[0]-q[0]), float64(o[1]-q[1])) <= heavyReach*sw {
				heavy[i] = true
				break
			}
		}
	}
	// the strokes' ink: pixels of the same piece within a pen of a heavy
	// point's disk (its ends, which thinning shortens, included)
	core = marked()
	if len(core) == 0 {
		return nil
	}
	var out [][2]int
	ink := 0
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			k := lab[y*c.w+x]
			if k == 0 {
				continue
			}
			ink++
			for _, i := range core {
				if q := sk[i]; lab[q[1]*c.w+q[0]] == k && math.Hypot(float64(x-q[0]), float64(y-q[1])) <= hws[i]+sw {
					out = append(out, [2]int{x, y})
					break
				}
			}
		}
	}
	// a row of heavy pieces and nothing else (a thick dashed or dotted
	// line) is a line type shown in a legend: a pen's pattern, whose
	// dashes keep the pen's width as lines do. Drawn as an area it is a
	// thick bar, which pairs of thin parallel lines match (a real finish
	// plan: 70 "wall protection" detections on wall and window faces, all
	// wrong); it is drawn as before. A solid shape in one piece (a filled
	// triangle) stays an area.
	pieces := map[int32]bool{}
	for _, q := range out {
		pieces[lab[q[1]*c.w+q[0]]] = true
	}
	if len(pieces) >= 3 && float64(len(out)) >= heavyAll*float64(ink) {
		return nil
	}
	return out
}

// drawPosed draws t posed by p (level factor f) into dst: its centre lines
// as strokes of radius pen+grow (pen: half the drawing's stroke width, at
// the level), and the pixels of its heavy strokes as an area that grows
// with the symbol (each a disk covering its scaled pixel), plus grow.
func (t *prepared) drawPosed(dst *fimg, p pose, f, pen, grow float64) {
	k := p.scale * f
	splat(dst, t.pointsFor(k), p, f, pen+grow)
	if len(t.area) > 0 {
		i := sparseIndex(k, len(t.area))
		splat(dst, t.area[i], p, f, max(0.71*math.Ldexp(k, i), 0.5)+grow)
	}
}

// pointsFor returns centre-line points dense enough to draw the template
// at k = scale·level factor (about two points per target pixel).
func (t *prepared) pointsFor(k float64) [][2]float64 {
	return t.sparse[sparseIndex(k, len(t.sparse))]
}

// sparseIndex picks the sparse level (of n) with about two points per
// target pixel when drawn at k.
func sparseIndex(k float64, n int) int {
	i := 0
	if k > 0 {
		i = int(math.Floor(math.Log2(0.5 / k)))
	}
	return min(max(i, 0), n-1)
}
