package compare

import (
	"cmp"
	"image"
	"math"
	"slices"

	"github.com/plangraph/plangraph/vision/geom"
)

// inkComp is a group of residue ink (differing ink no change explains yet)
// of one side in one work area: 8-connected pixels, or several such
// components gathered by proximity.
type inkComp struct {
	ar    *workArea
	added bool
	r     image.Rectangle // B's pixels
	px    []int32         // indexes into the area's mask
	// parts are a gathered group's 8-connected components.
	parts []inkComp
}

// box is the group's box in B's frame.
func (c *inkComp) box() geom.Box { return rectBox(c.r) }

// residue returns the groups of unexplained differing ink of one side:
// 8-connected components gathered when they come within gap pixels of each
// other (box to box), each group's pixels in scan order.
func (an *analysis) residue(added bool, gap float64) []inkComp {
	var out []inkComp
	for _, ar := range an.areas {
		comps := labelComps(ar, added)
		boxes := make([]geom.Box, len(comps))
		for i := range comps {
			boxes[i] = comps[i].box()
		}
		for _, cl := range ClusterBoxes(boxes, gap) {
			g := comps[cl[0]]
			g.px = slices.Clone(g.px)
			g.parts = []inkComp{comps[cl[0]]}
			for _, i := range cl[1:] {
				g.r = g.r.Union(comps[i].r)
				g.px = append(g.px, comps[i].px...)
				g.parts = append(g.parts, comps[i])
			}
			slices.Sort(g.px)
			out = append(out, g)
		}
	}
	return out
}

// labelComps finds the 8-connected components of unexplained ink in one
// mask of an area.
func labelComps(ar *workArea, added bool) []inkComp {
	m, w, h := ar.mask(added), ar.r.Dx(), ar.r.Dy()
	seen := make([]bool, len(m))
	var out []inkComp
	var stack []int32
	for i := range m {
		if m[i] != inkBit || seen[i] {
			continue
		}
		c := inkComp{ar: ar, added: added}
		minX, minY, maxX, maxY := w, h, -1, -1
		stack = append(stack[:0], int32(i))
		seen[i] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			c.px = append(c.px, p)
			x, y := int(p)%w, int(p)/w
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					if q := ny*w + nx; m[q] == inkBit && !seen[q] {
						seen[q] = true
						stack = append(stack, int32(q))
					}
				}
			}
		}
		c.r = image.Rect(minX, minY, maxX+1, maxY+1).Add(ar.r.Min)
		out = append(out, c)
	}
	return out
}

// explainComp marks a group's pixels explained.
func (c *inkComp) explain() {
	m := c.ar.mask(c.added)
	for _, p := range c.px {
		m[p] |= explainedBit
	}
}

// bitmap is a binary image of a group, padded by pad pixels all round:
// origin is the B pixel of its (0,0).
type bitmap struct {
	w, h   int
	origin image.Point
	on     []bool
}

// toBitmap draws a group's pixels into a bitmap padded by pad.
func (c *inkComp) toBitmap(pad int) *bitmap {
	r := c.r.Inset(-pad)
	bm := &bitmap{w: r.Dx(), h: r.Dy(), origin: r.Min, on: make([]bool, r.Dx()*r.Dy())}
	aw := c.ar.r.Dx()
	for _, p := range c.px {
		x, y := int(p)%aw+c.ar.r.Min.X-r.Min.X, int(p)/aw+c.ar.r.Min.Y-r.Min.Y
		bm.on[y*bm.w+x] = true
	}
	return bm
}

// dilate grows the set by r pixels (a square of side 2r+1, in two passes).
func (bm *bitmap) dilate(r int) *bitmap { return bm.morph(r, true) }

// erode shrinks the set by r pixels.
func (bm *bitmap) erode(r int) *bitmap { return bm.morph(r, false) }

func (bm *bitmap) morph(r int, grow bool) *bitmap {
	tmp := make([]bool, len(bm.on))
	out := &bitmap{w: bm.w, h: bm.h, origin: bm.origin, on: make([]bool, len(bm.on))}
	// pass: along rows into tmp, then along columns into out. A pixel is on
	// when any (grow) or every (shrink) pixel of its window is; outside the
	// bitmap counts as off.
	for y := 0; y < bm.h; y++ {
		for x := 0; x < bm.w; x++ {
			tmp[y*bm.w+x] = morphWindow(r, grow, func(k int) bool {
				xx := x + k
				return xx >= 0 && xx < bm.w && bm.on[y*bm.w+xx]
			})
		}
	}
	for y := 0; y < bm.h; y++ {
		for x := 0; x < bm.w; x++ {
			out.on[y*bm.w+x] = morphWindow(r, grow, func(k int) bool {
				yy := y + k
				return yy >= 0 && yy < bm.h && tmp[yy*bm.w+x]
			})
		}
	}
	return out
}

func morphWindow(r int, any bool, at func(int) bool) bool {
	for k := -r; k <= r; k++ {
		if at(k) == any {
			return any
		}
	}
	return !any
}

// filled is the set with its holes filled: everything the outside cannot
// reach through off pixels (4-connected).
func (bm *bitmap) filled() *bitmap {
	out := &bitmap{w: bm.w, h: bm.h, origin: bm.origin, on: make([]bool, len(bm.on))}
	for i := range out.on {
		out.on[i] = true
	}
	w, n := bm.w, len(bm.on)
	stack := make([]int32, 0, 2*(bm.w+bm.h))
	visit := func(j int) {
		if !bm.on[j] && out.on[j] {
			out.on[j] = false
			stack = append(stack, int32(j))
		}
	}
	for x := 0; x < w; x++ {
		visit(x)
		visit(n - w + x)
	}
	for y := 0; y < bm.h; y++ {
		visit(y * w)
		visit(y*w + w - 1)
	}
	for len(stack) > 0 {
		i := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if x := i % w; x > 0 {
			visit(i - 1)
		}
		if x := i % w; x < w-1 {
			visit(i + 1)
		}
		if i >= w {
			visit(i - w)
		}
		if i+w < n {
			visit(i + w)
		}
	}
	return out
}

// outside is the complement of the set.
func (bm *bitmap) outside() *bitmap {
	out := &bitmap{w: bm.w, h: bm.h, origin: bm.origin, on: make([]bool, len(bm.on))}
	for i, v := range bm.on {
		out.on[i] = !v
	}
	return out
}

// within is the share of a group's pixels that bm (in B's pixels through
// its origin) holds.
func (c *inkComp) within(bm *bitmap) float64 {
	aw, n := c.ar.r.Dx(), 0
	for _, p := range c.px {
		x, y := int(p)%aw+c.ar.r.Min.X-bm.origin.X, int(p)/aw+c.ar.r.Min.Y-bm.origin.Y
		if bm.at(x, y) {
			n++
		}
	}
	return float64(n) / float64(max(1, len(c.px)))
}

// count is the number of set pixels.
func (bm *bitmap) count() int {
	n := 0
	for _, v := range bm.on {
		if v {
			n++
		}
	}
	return n
}

// at reports whether (x, y) is set (false outside).
func (bm *bitmap) at(x, y int) bool {
	return x >= 0 && y >= 0 && x < bm.w && y < bm.h && bm.on[y*bm.w+x]
}

// contour traces the outer boundary of the set's first blob in scan order
// (Moore-neighbour tracing with Jacob's stopping criterion), clockwise on
// screen; nil when empty.
func (bm *bitmap) contour() []image.Point {
	start := -1
	for i, v := range bm.on {
		if v {
			start = i
			break
		}
	}
	if start < 0 {
		return nil
	}
	// clockwise on screen (y down): E, SE, S, SW, W, NW, N, NE
	dirs := [8]image.Point{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	dirOf := func(d image.Point) int {
		for k, v := range dirs {
			if v == d {
				return k
			}
		}
		return 0
	}
	s := image.Point{start % bm.w, start / bm.w}
	b0 := s.Add(dirs[4]) // the scan came from the west: background
	c, b := s, b0
	out := []image.Point{s}
	for steps := 0; steps < 4*len(bm.on)+8; steps++ {
		db := dirOf(b.Sub(c))
		found := false
		for k := 1; k <= 8; k++ {
			d := (db + k) % 8
			if q := c.Add(dirs[d]); bm.at(q.X, q.Y) {
				b = c.Add(dirs[(d+7)%8])
				c, found = q, true
				break
			}
		}
		if !found { // a single pixel
			break
		}
		if c == s && b == b0 {
			break
		}
		if c != s {
			out = append(out, c)
		}
	}
	return out
}

// hullIdx is the convex hull of pts (Andrew's monotone chain), as indexes
// into pts, in increasing index order.
func hullIdx(pts []image.Point) []int {
	idx := make([]int, len(pts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(pts[a].X, pts[b].X), cmp.Compare(pts[a].Y, pts[b].Y))
	})
	crossAt := func(o, a, b int) int {
		return (pts[a].X-pts[o].X)*(pts[b].Y-pts[o].Y) - (pts[a].Y-pts[o].Y)*(pts[b].X-pts[o].X)
	}
	var h []int
	for pass := 0; pass < 2; pass++ {
		base := len(h)
		for _, i := range idx {
			for len(h) >= base+2 && crossAt(h[len(h)-2], h[len(h)-1], i) <= 0 {
				h = h[:len(h)-1]
			}
			h = append(h, i)
		}
		h = h[:len(h)-1]
		slices.Reverse(idx)
	}
	slices.Sort(h)
	return slices.Compact(h)
}

// defect is a concavity of a contour: its deepest point's distance from
// the hull edge that spans it, and that point's index on the contour.
type defect struct {
	depth float64
	at    int
}

// defects lists the contour's concavities: along each hull edge, every
// stretch of the contour that leaves the edge by 2 px or more is one
// concavity (several along one edge when bumps on a straight side touch
// it in turn), in contour order.
func defects(pts []image.Point, hull []int) []defect {
	var out []defect
	n := len(pts)
	for k := range hull {
		i, j := hull[k], hull[(k+1)%len(hull)]
		if j <= i {
			j += n
		}
		a, b := pts[i], pts[j%n]
		ex, ey := float64(b.X-a.X), float64(b.Y-a.Y)
		l := math.Hypot(ex, ey)
		if l == 0 {
			continue
		}
		cur := defect{}
		for m := i + 1; m <= j; m++ {
			p := pts[m%n]
			d := math.Abs(ex*float64(p.Y-a.Y)-ey*float64(p.X-a.X)) / l
			if d >= 2 && d > cur.depth {
				cur = defect{d, m % n}
			}
			if d < 2 && cur.depth > 0 || m == j && cur.depth > 0 {
				out = append(out, cur)
				cur = defect{}
			}
		}
	}
	slices.SortFunc(out, func(x, y defect) int { return cmp.Compare(x.at, y.at) })
	return out
}

// hullCorners counts the corners of a convex polygon (hull points of pts):
// vertices where the outline turns by 25° or more, after dropping vertices
// closer than 5 % of the perimeter to their predecessor.
func hullCorners(pts []image.Point, hull []int) int {
	var poly []image.Point
	for _, i := range hull {
		poly = append(poly, pts[i])
	}
	per := 0.0
	for k := range poly {
		per += ptDist(poly[k], poly[(k+1)%len(poly)])
	}
	var keep []image.Point
	for _, p := range poly {
		if len(keep) == 0 || ptDist(keep[len(keep)-1], p) >= 0.05*per {
			keep = append(keep, p)
		}
	}
	if len(keep) > 1 && ptDist(keep[0], keep[len(keep)-1]) < 0.05*per {
		keep = keep[:len(keep)-1]
	}
	n := 0
	for k := range keep {
		a, b, c := keep[(k+len(keep)-1)%len(keep)], keep[k], keep[(k+1)%len(keep)]
		t1 := math.Atan2(float64(b.Y-a.Y), float64(b.X-a.X))
		t2 := math.Atan2(float64(c.Y-b.Y), float64(c.X-b.X))
		turn := math.Abs(math.Remainder(t2-t1, 2*math.Pi))
		if turn >= 25*math.Pi/180 {
			n++
		}
	}
	return n
}

func ptDist(a, b image.Point) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

// polyArea is the area enclosed by a closed contour (shoelace).
func polyArea(pts []image.Point) float64 {
	s := 0
	for k := range pts {
		a, b := pts[k], pts[(k+1)%len(pts)]
		s += a.X*b.Y - b.X*a.Y
	}
	return math.Abs(float64(s)) / 2
}
