package synth

import (
	"fmt"
	"math"
	"sort"
)

// wall is a straight wall: its centre line runs along x (Horiz) or y at
// the fixed coordinate C from A to B, between the centre lines of the walls
// it meets. Gaps are door openings along it.
type wall struct {
	Horiz   bool
	C, A, B float64
	T       float64
	Ext     bool
	Gaps    [][2]float64
}

// span is the rectangle of the wall between a and b along it.
func (w *wall) span(a, b float64) rect {
	if w.Horiz {
		return rect{a, w.C - w.T/2, b, w.C + w.T/2}
	}
	return rect{w.C - w.T/2, a, w.C + w.T/2, b}
}

// full is the whole wall; ends run half a thickness past the centre lines
// they meet so that joints close.
func (w *wall) full() rect { return w.span(w.A-w.T/2, w.B+w.T/2) }

// pieces are the solid parts of the wall between its openings.
func (w *wall) pieces() []rect {
	var out []rect
	cur := w.A - w.T/2
	for _, g := range w.Gaps {
		if g[0] > cur {
			out = append(out, w.span(cur, g[0]))
		}
		cur = max(cur, g[1])
	}
	if end := w.B + w.T/2; end > cur {
		out = append(out, w.span(cur, end))
	}
	return out
}

// door opens a gap in a wall; its leaf swings to Side (+1: towards larger
// coordinates) from the hinge jamb.
type door struct {
	Wall      int
	G0, G1    float64
	HingeHigh bool
	Side      float64
}

type room struct {
	R            rect // between wall centre lines
	Name, Number string
	Corridor     bool
	NameT, NumT  textItem
	NumBox       bool
}

func (rm *room) labelBox() rect {
	b := rm.NameT.box().union(rm.NumT.box())
	if rm.NumBox {
		b = b.union(rm.NumT.box().pad(2.5))
	}
	return b
}

// inst is a placed symbol instance.
type inst struct {
	ID           int
	Entry        int // index into sheet.entries
	C            pt
	Scale, Angle float64
	Box          rect
	Suffix       *textItem
	Cross        string // "", "line", "wall"
	Line         [2]pt
	Dash         bool
	Room         int // -1 when straddling a wall
	// Vary, when not 0, seeds how the instance is drafted (Options.Vary)
	Vary   uint64
	Mirror bool // drawn mirrored (left for right) before it is turned
	// Sym, when set, is drawn instead of the entry's symbol: a callout
	// showing its own Texts (mixed).
	Sym   *symbol
	Texts []textItem
}

// extent is the instance with its suffix and crossing line.
func (in *inst) extent(lw float64) rect {
	b := in.Box
	if in.Suffix != nil {
		b = b.union(in.Suffix.box())
	}
	if in.Cross == "line" {
		b = b.union(emptyRect().addPt(in.Line[0]).addPt(in.Line[1]).pad(lw))
	}
	return b
}

// plan is a floor plan view, as data; emit draws it.
type plan struct {
	Title, Scale   string
	PPF            float64 // points per foot
	Bldg           rect    // exterior wall centre lines
	Te, Ti         float64 // wall thicknesses
	Walls          []wall
	Doors          []door
	Rooms          []room
	Insts          []inst
	WallLW         float64
	WallFill       int
	DimSize        float64
	TitleT, ScaleT textItem
	half, symLW    float64 // legend symbol half-size, instance stroke
	// mixed conventions: the view title bar drawn instead of TitleT and
	// ScaleT, grid lines (kept clear by labels and instances), metric
	// dimensions
	view   *viewBar
	grid   []gridLine
	Metric bool
}

func (p *plan) clone() *plan {
	q := *p
	q.Walls = append([]wall(nil), p.Walls...)
	for i := range q.Walls {
		q.Walls[i].Gaps = append([][2]float64(nil), p.Walls[i].Gaps...)
	}
	q.Doors = append([]door(nil), p.Doors...)
	q.Rooms = append([]room(nil), p.Rooms...)
	q.Insts = append([]inst(nil), p.Insts...)
	return &q
}

func (p *plan) snap(v, origin float64) float64 {
	g := p.PPF / 2
	return origin + math.Round((v-origin)/g)*g
}

// plan draws a floor plan inside area.
func (g *gen) plan(r *rng, sh *sheet, area rect, floor int, title string) *block {
	return g.planBody(r, sh, g.planGeom(r, sh, area, title, scales), floor)
}

// planGeom chooses a plan's scale and building outline inside area.
func (g *gen) planGeom(r *rng, sh *sheet, area rect, title string, scales []scaleDef) *plan {
	p := &plan{Title: title, half: sh.size / 2, symLW: sh.symLW}
	avail := rect{area.X0 + 84, area.Y0 + 84, area.X1 - 16, area.Y1 - 96}
	w := avail.W() * r.rangef(0.85, 1)
	h := avail.H() * r.rangef(0.85, 1)
	var cands []int
	for i, s := range scales {
		if ft := w / s.PPF; ft >= 40 && ft <= 170 {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		cands = []int{len(scales) - 1}
	}
	sc := scales[pick(r, cands)]
	p.PPF, p.Scale = sc.PPF, sc.Text
	w = math.Floor(w/(p.PPF/2)) * p.PPF / 2
	h = math.Floor(h/(p.PPF/2)) * p.PPF / 2
	x0 := round(avail.X0+r.rangef(0, avail.W()-w), 1)
	y0 := round(avail.Y0+r.rangef(0, avail.H()-h), 1)
	p.Bldg = rect{x0, y0, x0 + w, y0 + h}
	return p
}

// planBody fills a plan whose scale and outline are chosen: walls, rooms,
// doors, labels, instances.
func (g *gen) planBody(r *rng, sh *sheet, p *plan, floor int) *block {
	title := p.Title
	p.Te = round(min(max(0.6*p.PPF, 7), 11), 2)
	p.Ti = round(min(max(0.4*p.PPF, 4.5), 7), 2)
	p.WallLW = round(r.rangef(0.6, 1.1), 2)
	p.WallFill = pick(r, []int{255, 255, 200})
	p.DimSize = round(r.rangef(6.5, 8), 1)
	B := p.Bldg
	p.Walls = []wall{
		{Horiz: true, C: B.Y0, A: B.X0, B: B.X1, T: p.Te, Ext: true},
		{Horiz: true, C: B.Y1, A: B.X0, B: B.X1, T: p.Te, Ext: true},
		{Horiz: false, C: B.X0, A: B.Y0, B: B.Y1, T: p.Te, Ext: true},
		{Horiz: false, C: B.X1, A: B.Y0, B: B.Y1, T: p.Te, Ext: true},
	}
	minR := max(130, 11*p.PPF)
	maxR := max(minR*2.2, 26*p.PPF)
	cw := p.snap(max(56, 7*p.PPF), 0)
	along := B.W() >= B.H() // corridor runs along the longer side
	across := B.H()
	if !along {
		across = B.W()
	}
	if across >= 2*minR+cw && r.chance(0.6) {
		lo := B.Y0
		if !along {
			lo = B.X0
		}
		mid := p.snap(lo+across/2+r.rangef(-0.12, 0.12)*across, lo)
		c0, c1 := mid-cw/2, mid+cw/2
		if c0-lo < minR || lo+across-c1 < minR {
			mid = p.snap(lo+across/2, lo)
			c0, c1 = mid-cw/2, mid+cw/2
		}
		if along {
			p.Walls = append(p.Walls, wall{Horiz: true, C: c0, A: B.X0, B: B.X1, T: p.Ti}, wall{Horiz: true, C: c1, A: B.X0, B: B.X1, T: p.Ti})
			p.Rooms = append(p.Rooms, room{R: rect{B.X0, c0, B.X1, c1}, Corridor: true})
			p.split(r, rect{B.X0, B.Y0, B.X1, c0}, minR, maxR, 1)
			p.split(r, rect{B.X0, c1, B.X1, B.Y1}, minR, maxR, 1)
		} else {
			p.Walls = append(p.Walls, wall{C: c0, A: B.Y0, B: B.Y1, T: p.Ti}, wall{C: c1, A: B.Y0, B: B.Y1, T: p.Ti})
			p.Rooms = append(p.Rooms, room{R: rect{c0, B.Y0, c1, B.Y1}, Corridor: true})
			p.split(r, rect{B.X0, B.Y0, c0, B.Y1}, minR, maxR, 1)
			p.split(r, rect{c1, B.Y0, B.X1, B.Y1}, minR, maxR, 1)
		}
	} else {
		p.split(r, B, minR, maxR, 0)
	}
	sort.SliceStable(p.Rooms, func(i, j int) bool {
		a, b := p.Rooms[i].R, p.Rooms[j].R
		if a.Y0 != b.Y0 {
			return a.Y0 < b.Y0
		}
		return a.X0 < b.X0
	})
	for i := range p.Rooms {
		rm := &p.Rooms[i]
		rm.Number = fmt.Sprint(floor*100 + i + 1)
		if rm.Corridor {
			rm.Name = "CORRIDOR"
		} else {
			rm.Name = pick(r, roomNames)
		}
	}
	g.doors(r, p)
	g.labels(r, p)
	g.instances(r, sh, p)
	size := round(r.rangef(11, 14), 1)
	base := p.Bldg.Y1 + p.Te/2 + 44
	p.TitleT = g.m.text(p.Title, p.Bldg.X0, base, size, true)
	p.ScaleT = g.m.text("SCALE: "+p.Scale, p.Bldg.X0, base+16, 7.5, false)
	b := &block{Type: "Plan", Title: title, Scale: p.Scale, plan: p}
	b.dl = g.emit(p, sh)
	b.fitBox()
	return b
}

// split divides a region into rooms by walls (a BSP).
func (p *plan) split(r *rng, reg rect, minR, maxR float64, depth int) {
	w, h := reg.W(), reg.H()
	canV, canH := w >= 2*minR, h >= 2*minR
	if (!canV && !canH) || (depth > 0 && w <= maxR && h <= maxR && r.chance(0.4)) {
		p.Rooms = append(p.Rooms, room{R: reg})
		return
	}
	vert := canV && (!canH || (w >= h) != r.chance(0.15))
	if vert {
		x := p.snap(reg.X0+r.rangef(minR, w-minR), reg.X0)
		p.Walls = append(p.Walls, wall{C: x, A: reg.Y0, B: reg.Y1, T: p.Ti})
		p.split(r, rect{reg.X0, reg.Y0, x, reg.Y1}, minR, maxR, depth+1)
		p.split(r, rect{x, reg.Y0, reg.X1, reg.Y1}, minR, maxR, depth+1)
		return
	}
	y := p.snap(reg.Y0+r.rangef(minR, h-minR), reg.Y0)
	p.Walls = append(p.Walls, wall{Horiz: true, C: y, A: reg.X0, B: reg.X1, T: p.Ti})
	p.split(r, rect{reg.X0, reg.Y0, reg.X1, y}, minR, maxR, depth+1)
	p.split(r, rect{reg.X0, y, reg.X1, reg.Y1}, minR, maxR, depth+1)
}

const eps = 0.01

// wallAt finds the wall on the line (horiz, c) that contains [a, b].
func (p *plan) wallAt(horiz bool, c, a, b float64) int {
	for i, w := range p.Walls {
		if w.Horiz == horiz && math.Abs(w.C-c) < eps && w.A < a-1 && w.B > b+1 {
			return i
		}
	}
	return -1
}

// junctionIn reports whether another wall meets wall wi between a and b.
func (p *plan) junctionIn(wi int, a, b float64) bool {
	w := p.Walls[wi]
	for j, o := range p.Walls {
		if j == wi || o.Horiz == w.Horiz {
			continue
		}
		if (math.Abs(o.A-w.C) < eps || math.Abs(o.B-w.C) < eps) && o.C > a && o.C < b {
			return true
		}
	}
	return false
}

// doorGeom gives a door's hinge, leaf end, far jamb and swing box.
func (p *plan) doorGeom(d door) (hinge, leaf, jamb pt, swing rect) {
	w := p.Walls[d.Wall]
	face := w.C + d.Side*w.T/2
	h, o := d.G0, d.G1
	if d.HingeHigh {
		h, o = d.G1, d.G0
	}
	width := d.G1 - d.G0
	if w.Horiz {
		hinge, leaf, jamb = pt{h, face}, pt{h, face + d.Side*width}, pt{o, face}
	} else {
		hinge, leaf, jamb = pt{face, h}, pt{face + d.Side*width, h}, pt{face, o}
	}
	swing = emptyRect().addPt(hinge).addPt(leaf).addPt(jamb).addPt(pt{leaf.X + jamb.X - hinge.X, leaf.Y + jamb.Y - hinge.Y})
	return
}

func (g *gen) doors(r *rng, p *plan) {
	dw := round(min(max(3*p.PPF, 22), 40), 2)
	corridorEdge := func(horiz bool, c float64) bool {
		for _, rm := range p.Rooms {
			if rm.Corridor {
				if horiz && (math.Abs(rm.R.Y0-c) < eps || math.Abs(rm.R.Y1-c) < eps) {
					return true
				}
				if !horiz && (math.Abs(rm.R.X0-c) < eps || math.Abs(rm.R.X1-c) < eps) {
					return true
				}
			}
		}
		return false
	}
	for ri := range p.Rooms {
		if p.Rooms[ri].Corridor {
			continue
		}
		edges := []int{0, 1, 2, 3}
		r.shuffle(4, func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
		sort.SliceStable(edges, func(i, j int) bool {
			hi, ci, _, _, _ := p.edge(ri, edges[i])
			hj, cj, _, _, _ := p.edge(ri, edges[j])
			return corridorEdge(hi, ci) && !corridorEdge(hj, cj)
		})
		for _, e := range edges {
			if p.exteriorEdge(ri, e) {
				continue
			}
			if p.tryDoor(r, ri, e, dw) {
				break
			}
		}
	}
	for k, n := 0, r.irange(1, 2); k < n; k++ {
		for try := 0; try < 20; try++ {
			ri, e := r.intn(len(p.Rooms)), r.intn(4)
			if p.exteriorEdge(ri, e) && p.tryDoor(r, ri, e, dw*r.rangef(1, 1.2)) {
				break
			}
		}
	}
	sort.SliceStable(p.Doors, func(i, j int) bool { return p.Doors[i].Wall < p.Doors[j].Wall })
}

// edge describes side e (0 top, 1 right, 2 bottom, 3 left) of room ri: its
// wall line, its extent along the line and the side the room lies on.
func (p *plan) edge(ri, e int) (horiz bool, c, lo, hi, side float64) {
	R := p.Rooms[ri].R
	switch e {
	case 0:
		return true, R.Y0, R.X0, R.X1, 1
	case 1:
		return false, R.X1, R.Y0, R.Y1, -1
	case 2:
		return true, R.Y1, R.X0, R.X1, -1
	}
	return false, R.X0, R.Y0, R.Y1, 1
}

func (p *plan) exteriorEdge(ri, e int) bool {
	horiz, c, _, _, _ := p.edge(ri, e)
	B := p.Bldg
	if horiz {
		return math.Abs(c-B.Y0) < eps || math.Abs(c-B.Y1) < eps
	}
	return math.Abs(c-B.X0) < eps || math.Abs(c-B.X1) < eps
}

func (p *plan) tryDoor(r *rng, ri, e int, dw float64) bool {
	horiz, c, lo, hi, side := p.edge(ri, e)
	m := p.Te/2 + 5
	if hi-lo-2*m < dw {
		return false
	}
	for try := 0; try < 8; try++ {
		g0 := round(lo+m+r.rangef(0, hi-lo-2*m-dw), 2)
		g1 := g0 + dw
		wi := p.wallAt(horiz, c, g0, g1)
		if wi < 0 || p.junctionIn(wi, g0-p.Te/2-4, g1+p.Te/2+4) {
			continue
		}
		clash := false
		for _, gp := range p.Walls[wi].Gaps {
			if g0 < gp[1]+8 && gp[0] < g1+8 {
				clash = true
			}
		}
		d := door{Wall: wi, G0: g0, G1: g1, HingeHigh: r.chance(0.5), Side: side}
		_, _, _, sw := p.doorGeom(d)
		for _, o := range p.Doors {
			if _, _, _, s2 := p.doorGeom(o); s2.pad(4).intersects(sw) {
				clash = true
			}
		}
		if clash {
			continue
		}
		w := &p.Walls[wi]
		w.Gaps = append(w.Gaps, [2]float64{g0, g1})
		sort.Slice(w.Gaps, func(i, j int) bool { return w.Gaps[i][0] < w.Gaps[j][0] })
		p.Doors = append(p.Doors, d)
		return true
	}
	return false
}

// labels puts each room's name and number inside it, clear of door swings.
func (g *gen) labels(r *rng, p *plan) {
	size := round(r.rangef(6.5, 9), 1)
	numBox := r.chance(0.5)
	for i := range p.Rooms {
		rm := &p.Rooms[i]
		rm.NumBox = numBox
		in := rm.R.inset(p.Te/2 + 3)
		placed := false
		for try := 0; try < 40 && !placed; try++ {
			if try == 20 && !rm.Corridor {
				rm.Name = pick(r, roomNames[:4])
			}
			c := in.center()
			if try > 0 {
				c.X += r.rangef(-0.3, 0.3) * in.W()
				c.Y += r.rangef(-0.3, 0.3) * in.H()
			}
			p.setLabel(g, rm, c, size)
			lb := rm.labelBox()
			if !in.contains(lb.pad(18)) || p.gridHits(lb.pad(8)) {
				continue
			}
			hit := false
			for _, d := range p.Doors {
				if _, _, _, sw := p.doorGeom(d); sw.intersects(lb.pad(18)) {
					hit = true
				}
			}
			placed = !hit
		}
		if !placed {
			p.setLabel(g, rm, in.center(), size)
		}
	}
}

// setLabel lays out a room label centred at c.
func (p *plan) setLabel(g *gen, rm *room, c pt, size float64) {
	ns := size * 0.85
	rm.NameT = g.m.textC(rm.Name, c.X, c.Y-size*capHeight/2-2, size, true)
	rm.NumT = g.m.textC(rm.Number, c.X, c.Y+ns*capHeight/2+4, ns, false)
	rm.NameT.X, rm.NameT.Y = round(rm.NameT.X, 2), round(rm.NameT.Y, 2)
	rm.NumT.X, rm.NumT.Y = round(rm.NumT.X, 2), round(rm.NumT.Y, 2)
}

// emit draws the plan.
func (g *gen) emit(p *plan, sh *sheet) dlist {
	var d dlist
	for i := range p.Walls {
		for _, pc := range p.Walls[i].pieces() {
			d.rect(pc, p.WallLW)
		}
	}
	// Filling every piece just inside its outline erases the outlines where
	// walls overlap, leaving clean joints.
	for i := range p.Walls {
		for _, pc := range p.Walls[i].pieces() {
			d.fillRect(pc.inset(p.WallLW/2), p.WallFill)
		}
	}
	for _, dr := range p.Doors {
		h, l, j, _ := p.doorGeom(dr)
		d.line(h, l, 0.7)
		al := math.Atan2(-(l.Y-h.Y), l.X-h.X) * 180 / math.Pi
		aj := math.Atan2(-(j.Y-h.Y), j.X-h.X) * 180 / math.Pi
		a0 := al
		if math.Mod(aj-al+720, 360) > 180 {
			a0 = aj
		}
		d.arc(h, dr.G1-dr.G0, a0, a0+90, 0.35)
	}
	for _, rm := range p.Rooms {
		d.text(rm.NameT)
		d.text(rm.NumT)
		if rm.NumBox {
			d.rect(rm.NumT.box().pad(2.5), 0.4)
		}
	}
	d.append(ptr(g.dims(p)))
	for _, in := range p.Insts {
		if in.Cross == "line" {
			if in.Dash {
				d.dashed(in.Line[0], in.Line[1], 0.5)
			} else {
				d.line(in.Line[0], in.Line[1], 0.5)
			}
		}
	}
	for _, in := range p.Insts {
		sym := sh.entries[in.Entry].Sym
		if in.Sym != nil {
			sym = in.Sym
		}
		d.symbolV(sym, in.C, p.half*in.Scale, in.Angle, p.symLW, in.Vary, in.Mirror)
		if c := sh.entries[in.Entry].Color; c != 0 {
			d.ops[len(d.ops)-1].rgb = c
		}
		if in.Suffix != nil {
			d.text(*in.Suffix)
		}
	}
	if p.view != nil {
		g.emitViewExtras(&d, p)
		return d
	}
	t := p.TitleT
	d.text(t)
	d.line(pt{t.X, t.Y + 5}, pt{t.X + t.W, t.Y + 5}, 1.4)
	d.line(pt{t.X, t.Y + 7.5}, pt{t.X + t.W, t.Y + 7.5}, 0.4)
	d.text(p.ScaleT)
	// north arrow
	n := pt{t.X + t.W + 36, t.Y - 4}
	d.circle(n, 11, 0.7, "D")
	d.poly([]pt{{n.X, n.Y - 15}, {n.X + 5, n.Y + 6}, {n.X, n.Y + 2}}, 0.5, "FD")
	d.poly([]pt{{n.X, n.Y - 15}, {n.X - 5, n.Y + 6}, {n.X, n.Y + 2}}, 0.5, "D")
	d.text(g.m.textC("N", n.X, n.Y-21, 7, true))
	return d
}

func ptr[T any](v T) *T { return &v }

// ftIn formats a length in feet and inches: 24'-6".
func ftIn(feet float64) string {
	in := int(math.Round(feet * 12))
	return fmt.Sprintf("%d'-%d\"", in/12, in%12)
}

// dims draws dimension strings along the top and left of the building: a
// chain through the walls that meet the exterior wall and an overall one.
func (g *gen) dims(p *plan) dlist {
	var d dlist
	B, e, s, lw := p.Bldg, p.Te/2, p.DimSize, 0.35
	tick := func(c pt) { d.line(pt{c.X - 3, c.Y + 3}, pt{c.X + 3, c.Y - 3}, 0.8) }
	xs, ys := []float64{B.X0, B.X1}, []float64{B.Y0, B.Y1}
	for _, w := range p.Walls {
		if w.Ext {
			continue
		}
		if !w.Horiz && math.Abs(w.A-B.Y0) < eps {
			xs = append(xs, w.C)
		}
		if w.Horiz && math.Abs(w.A-B.X0) < eps {
			ys = append(ys, w.C)
		}
	}
	xs, ys = uniq(xs), uniq(ys)
	y1 := B.Y0 - e - 30
	y2 := y1 - 24
	for i, x := range xs {
		end := y1 - 4
		if i == 0 || i == len(xs)-1 {
			end = y2 - 4
		}
		d.line(pt{x, B.Y0 - e - 6}, pt{x, end}, lw)
		tick(pt{x, y1})
	}
	d.line(pt{xs[0] - 6, y1}, pt{xs[len(xs)-1] + 6, y1}, lw)
	d.line(pt{xs[0] - 6, y2}, pt{xs[len(xs)-1] + 6, y2}, lw)
	tick(pt{xs[0], y2})
	tick(pt{xs[len(xs)-1], y2})
	fmtLen := ftIn
	if p.Metric {
		fmtLen = metres
	}
	htext := func(a, b, y float64) {
		t := g.m.textC(fmtLen((b-a)/p.PPF), (a+b)/2, 0, s, false)
		t.Y = y - 3
		if t.W+6 < b-a {
			d.text(t)
		}
	}
	for i := 1; i < len(xs); i++ {
		htext(xs[i-1], xs[i], y1)
	}
	htext(xs[0], xs[len(xs)-1], y2)

	x1 := B.X0 - e - 30
	x2 := x1 - 24
	for i, y := range ys {
		end := x1 - 4
		if i == 0 || i == len(ys)-1 {
			end = x2 - 4
		}
		d.line(pt{B.X0 - e - 6, y}, pt{end, y}, lw)
		tick(pt{x1, y})
	}
	d.line(pt{x1, ys[0] - 6}, pt{x1, ys[len(ys)-1] + 6}, lw)
	d.line(pt{x2, ys[0] - 6}, pt{x2, ys[len(ys)-1] + 6}, lw)
	tick(pt{x2, ys[0]})
	tick(pt{x2, ys[len(ys)-1]})
	vtext := func(a, b, x float64) {
		str := fmtLen((b - a) / p.PPF)
		w := g.m.width(str, s, false)
		if w+6 < b-a {
			d.text(textItem{S: str, X: x - 3, Y: (a+b)/2 + w/2, Size: s, Rot: 90, W: w})
		}
	}
	for i := 1; i < len(ys); i++ {
		vtext(ys[i-1], ys[i], x1)
	}
	vtext(ys[0], ys[len(ys)-1], x2)
	return d
}

func uniq(v []float64) []float64 {
	sort.Float64s(v)
	out := v[:1]
	for _, x := range v[1:] {
		if x-out[len(out)-1] > eps {
			out = append(out, x)
		}
	}
	return out
}
