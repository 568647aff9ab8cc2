package synth

import (
	"fmt"
	"math"
)

// change is an edit in revision-sheet points (before the page transform).
type change struct {
	kind, desc    string
	block         int
	box           rect
	before, after *rect
	id            int
}

// revise makes the revised version of a sheet: edits on one plan, a
// revision cloud, a new revision mark, and a page transform.
func (g *gen) revise(base *sheet) (*sheet, xform, []ChangeTruth) {
	r := newRNG(g.o.Seed, fmt.Sprintf("revision/%d", base.Index))
	rev := *base
	rev.blocks = append([]*block(nil), base.blocks...)
	rev.rev = g.tb.rev1
	rev.extra = dlist{}
	const mm = 72 / 25.4
	sign := func() float64 {
		if r.chance(0.5) {
			return -1
		}
		return 1
	}
	xf := xform{s: round(r.rangef(0.98, 1.02), 4), c: pt{base.W / 2, base.H / 2}}
	xf.dx = round(sign()*r.rangef(1, 3)*mm, 2)
	xf.dy = round(sign()*r.rangef(1, 3)*mm, 2)
	switch g.o.RevisionMotion {
	case "large": // drawn from a stream of its own: the edits stay those of "small"
		m := newRNG(g.o.Seed, fmt.Sprintf("revision-motion/%d", base.Index))
		xf.s = round(m.rangef(0.85, 1.15), 4)
		xf.rot = round(m.rangef(-3, 3), 3)
	case "turn":
		m := newRNG(g.o.Seed, fmt.Sprintf("revision-motion/%d", base.Index))
		xf.s, xf.rot = 1, 90
		if m.chance(0.5) {
			xf.rot = -90
		}
	}

	var plans []int
	for i, b := range base.blocks {
		if b.plan != nil {
			plans = append(plans, i)
		}
	}
	var changes []change
	if len(plans) > 0 {
		changes = g.revisePlan(r, base, &rev, plans)
	}
	return g.reviseTitleBlock(base, &rev, xf, changes)
}

// revisePlan edits one of a sheet's plans for its revision rev.
func (g *gen) revisePlan(r *rng, base, revp *sheet, plans []int) []change {
	rev := revp
	bi := pick(r, plans)
	p := base.blocks[bi].plan.clone()
	var changes []change
	var touched []rect // edits keep clear of each other
	obs := func(skipID, skipWall int) *obst {
		o := p.obstacles(skipID, skipWall)
		for _, t := range touched {
			o.rects = append(o.rects, t.pad(4))
		}
		return o
	}
	add := func(c change) {
		c.block = bi
		c.box = c.box.pad(2)
		changes = append(changes, c)
		touched = append(touched, c.box)
	}
	name := func(in *inst) string {
		e := rev.entries[in.Entry]
		return fmt.Sprintf("%s (%s)", e.Label, e.Sym.Desc)
	}
	roomOf := func(in *inst) string {
		if in.Room < 0 {
			return "on a wall"
		}
		rm := p.Rooms[in.Room]
		return fmt.Sprintf("in %s %s", rm.Name, rm.Number)
	}

	// A room is renamed, and clouded.
	rooms := r.perm(len(p.Rooms))
	names := r.perm(len(roomNames))
renamed:
	for _, ri := range rooms {
		rm := &p.Rooms[ri]
		if rm.Corridor {
			continue
		}
		old := rm.labelBox()
		for _, ni := range names {
			nn := roomNames[ni]
			if nn == rm.Name {
				continue
			}
			nr := *rm
			nr.Name = nn
			nr.NameT = g.m.textC(nn, rm.NameT.X+rm.NameT.W/2, rm.NameT.Y-rm.NameT.Size*capHeight/2, rm.NameT.Size, true)
			nr.NameT.X = round(nr.NameT.X, 2)
			nb := nr.labelBox()
			in := rm.R.inset(p.Te/2 + 3)
			cr := old.union(nb).pad(7)
			tag := pt{cr.X1, cr.Y0}
			outer := cr.pad(6).union(rect{tag.X - 9, tag.Y - 10, tag.X + 9, tag.Y + 7})
			if !in.contains(outer) {
				continue
			}
			o := obs(-1, -1)
			o.rects = nil // other labels are far; instances and swings matter
			for _, d := range p.Doors {
				_, _, _, sw := p.doorGeom(d)
				o.rects = append(o.rects, sw.pad(2))
			}
			for i := range p.Insts {
				o.addInst(&p.Insts[i])
			}
			if o.hitRect(outer) {
				continue
			}
			add(change{kind: "room_renamed", desc: fmt.Sprintf("room %s renamed from %s to %s", rm.Number, rm.Name, nn), box: old.union(nb)})
			*rm = nr
			cloud(&rev.extra, cr, 5, 1)
			delta(g, &rev.extra, tag, rev.rev)
			add(change{kind: "revision_cloud", desc: fmt.Sprintf("revision %s cloud around room %s", rev.rev, rm.Number), box: outer})
			break renamed
		}
	}

	// Symbols are removed.
	var plain []int
	for i, in := range p.Insts {
		if in.Cross == "" {
			plain = append(plain, i)
		}
	}
	r.shuffle(len(plain), func(i, j int) { plain[i], plain[j] = plain[j], plain[i] })
	gone := map[int]bool{}
	for _, i := range plain[:min(len(plain), r.irange(1, 2))] {
		in := &p.Insts[i]
		ext := in.extent(0)
		if obs(in.ID, -1).hitRect(ext) {
			continue // too near an earlier edit
		}
		gone[in.ID] = true
		add(change{kind: "symbol_removed", desc: fmt.Sprintf("removed %s %s", name(in), roomOf(in)), box: ext, id: in.ID})
	}
	kept := p.Insts[:0]
	for _, in := range p.Insts {
		if !gone[in.ID] {
			kept = append(kept, in)
		}
	}
	p.Insts = kept

	// A symbol moves within its room.
	plain = plain[:0]
	for i, in := range p.Insts {
		if in.Cross == "" && in.Room >= 0 {
			plain = append(plain, i)
		}
	}
	r.shuffle(len(plain), func(i, j int) { plain[i], plain[j] = plain[j], plain[i] })
moved:
	for _, i := range plain {
		in := &p.Insts[i]
		o := obs(in.ID, -1)
		old := in.extent(0)
		if o.hitRect(old) {
			continue
		}
		region := p.Rooms[in.Room].R.inset(p.Te/2 + 3)
		for try := 0; try < 30; try++ {
			ang := r.rangef(0, 2*math.Pi)
			dist := r.rangef(1.2, 3) * max(in.Box.W(), in.Box.H())
			dx, dy := round(math.Cos(ang)*dist, 2), round(math.Sin(ang)*dist, 2)
			nb := in.Box.translate(dx, dy)
			ext := old.translate(dx, dy)
			if !region.contains(ext) || o.hitRect(nb.pad(4)) || ext.intersects(old.pad(4)) {
				continue
			}
			if in.Suffix != nil {
				s := in.Suffix.translate(dx, dy)
				if o.hitRect(s.box().pad(3)) {
					continue
				}
				in.Suffix = &s
			}
			in.C = pt{in.C.X + dx, in.C.Y + dy}
			in.Box = nb
			before, after := old, ext
			add(change{kind: "symbol_moved", desc: fmt.Sprintf("moved %s %s", name(in), roomOf(in)), box: old.union(ext), before: &before, after: &after, id: in.ID})
			break moved
		}
	}

	// Symbols are added.
	for k, n := 0, r.irange(1, 3); k < n; k++ {
		o := obs(-1, -1)
		in, ok := g.place(r, rev, p, o, r.intn(len(rev.entries)))
		if !ok {
			continue
		}
		rev.nextID++
		in.ID = rev.nextID
		g.callout(rev, &in)
		p.Insts = append(p.Insts, in)
		add(change{kind: "symbol_added", desc: fmt.Sprintf("added %s %s", name(&in), roomOf(&in)), box: in.extent(0.5), id: in.ID})
	}

	// A wall moves; the dimension strings follow it.
	g.moveWall(r, p, obs, add)

	ob := base.blocks[bi]
	nb := &block{Type: "Plan", Title: p.Title, Scale: p.Scale, plan: p, framed: ob.framed,
		view: ob.view, grid: ob.grid, sharedGrid: ob.sharedGrid}
	nb.dl = g.emit(p, rev)
	nb.fitBox()
	if ob.sharedGrid { // boxes that abut a neighbour's keep their edges
		nb.box = rect{max(nb.box.X0, ob.box.X0), nb.box.Y0, min(nb.box.X1, ob.box.X1), nb.box.Y1}
	}
	rev.blocks[bi] = nb
	return changes
}

// reviseTitleBlock shows the new revision in the title block and turns
// the changes into truth.
func (g *gen) reviseTitleBlock(base, rev *sheet, xf xform, changes []change) (*sheet, xform, []ChangeTruth) {
	ti := base.tbIndex()
	otb := base.blocks[ti]
	if base.mx != nil {
		ntb := base.mx.mkTB(rev.rev)
		rev.blocks[ti] = ntb
		for i, f := range ntb.fields {
			if f.Key == "revision" {
				b := diffBounds(otb.dl, ntb.dl).pad(2)
				changes = append(changes, change{kind: "title_block", block: ti, box: b,
					desc: fmt.Sprintf("%s changed from %s to %s", f.Label, otb.fields[i].Value, f.Value)})
			}
		}
	} else {
		ntb := g.titleBlock(otb.box, g.tb, rev.Title, rev.Number, rev.rev)
		rev.blocks[ti] = ntb
		for i, f := range ntb.fields {
			if f.Key == "revision" {
				b := otb.fields[i].ValueT.box().union(f.ValueT.box()).pad(2)
				changes = append(changes, change{kind: "title_block", block: ti, box: b,
					desc: fmt.Sprintf("%s changed from %s to %s", f.Label, otb.fields[i].Value, f.Value)})
			}
		}
	}

	box, _ := g.px(xf)
	out := []ChangeTruth{}
	for _, c := range changes {
		ct := ChangeTruth{Kind: c.kind, Description: c.desc, Block: c.block, Box: box(c.box), InstanceID: c.id}
		if c.before != nil {
			b, a := box(c.before.pad(2)), box(c.after.pad(2))
			ct.Before, ct.After = &b, &a
		}
		out = append(out, ct)
	}
	return rev, xf, out
}

// moveWall shifts one interior wall by 1–3 ft where nothing is in the way.
func (g *gen) moveWall(r *rng, p *plan, obs func(int, int) *obst, add func(change)) {
	var inner []int
	for i, w := range p.Walls {
		if !w.Ext {
			inner = append(inner, i)
		}
	}
	r.shuffle(len(inner), func(i, j int) { inner[i], inner[j] = inner[j], inner[i] })
	for _, wi := range inner {
		for try := 0; try < 4; try++ {
			w := p.Walls[wi]
			d := float64(r.irange(2, 6)) * p.PPF / 2
			if r.chance(0.5) {
				d = -d
			}
			nc := w.C + d
			q := p.clone()
			q.Walls[wi].C = nc
			ok := true
			for ri := range q.Rooms {
				R := &q.Rooms[ri].R
				if w.Horiz {
					if min(R.X1, w.B)-max(R.X0, w.A) > 1 {
						if math.Abs(R.Y0-w.C) < eps {
							R.Y0 = nc
						}
						if math.Abs(R.Y1-w.C) < eps {
							R.Y1 = nc
						}
					}
				} else if min(R.Y1, w.B)-max(R.Y0, w.A) > 1 {
					if math.Abs(R.X0-w.C) < eps {
						R.X0 = nc
					}
					if math.Abs(R.X1-w.C) < eps {
						R.X1 = nc
					}
				}
				if R.W() < 80 || R.H() < 80 || !R.inset(p.Te/2+3).contains(q.Rooms[ri].labelBox().pad(4)) {
					ok = false
				}
			}
			for j := range q.Walls {
				o := &q.Walls[j]
				if o.Horiz == w.Horiz || o.C < w.A-eps || o.C > w.B+eps {
					continue
				}
				if math.Abs(o.A-w.C) < eps {
					o.A = nc
				}
				if math.Abs(o.B-w.C) < eps {
					o.B = nc
				}
				if o.B-o.A < 60 {
					ok = false
				}
				for _, gp := range o.Gaps {
					if gp[0] < o.A+p.Te/2+5 || gp[1] > o.B-p.Te/2-5 {
						ok = false
					}
				}
			}
			if !ok {
				continue
			}
			swept := p.Walls[wi].full().union(q.Walls[wi].full()).pad(4)
			o := obs(-1, wi)
			if o.hitRect(swept) {
				continue
			}
			region := swept
			for _, dr := range p.Doors {
				if dr.Wall != wi {
					continue
				}
				_, _, _, s0 := p.doorGeom(dr)
				_, _, _, s1 := q.doorGeom(dr)
				if o.hitRect(s1.pad(3)) {
					ok = false
				}
				region = region.union(s0).union(s1)
			}
			if !ok {
				continue
			}
			dims := diffBounds(g.dims(p), g.dims(q))
			if !dims.empty() && o.hitRect(dims) {
				continue
			}
			dir := map[bool]string{true: "down", false: "up"}[d > 0]
			if !w.Horiz {
				dir = map[bool]string{true: "right", false: "left"}[d > 0]
			}
			*p = *q
			add(change{kind: "wall_moved", desc: fmt.Sprintf("interior wall moved %s %s", ftIn(math.Abs(d)/p.PPF), dir), box: region})
			if !dims.empty() {
				add(change{kind: "dimension_changed", desc: "dimension strings updated for the moved wall", box: dims})
			}
			return
		}
	}
}

// diffBounds bounds the operations present in only one of two lists.
func diffBounds(a, b dlist) rect {
	key := func(o op) string {
		return fmt.Sprintf("%d|%v|%s|%.2f|%.2f|%.2f", o.k, o.pts, o.t.S, o.t.X, o.t.Y, o.lw)
	}
	count := map[string]int{}
	for _, o := range a.ops {
		count[key(o)]++
	}
	for _, o := range b.ops {
		count[key(o)]--
	}
	out := emptyRect()
	for _, l := range []dlist{a, b} {
		for _, o := range l.ops {
			if count[key(o)] != 0 {
				out = out.union(o.bounds())
			}
		}
	}
	return out
}

// cloud draws a scalloped revision cloud just outside c.
func cloud(d *dlist, c rect, r, lw float64) {
	edge := func(a, b pt, start float64) {
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		n := max(1, int(math.Round(l/(2*r))))
		rr := l / float64(2*n)
		for i := 0; i < n; i++ {
			t := (2*float64(i) + 1) / float64(2*n)
			d.arc(pt{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t}, rr, start, start+180, lw)
		}
	}
	edge(pt{c.X0, c.Y0}, pt{c.X1, c.Y0}, 0)
	edge(pt{c.X1, c.Y0}, pt{c.X1, c.Y1}, -90)
	edge(pt{c.X0, c.Y1}, pt{c.X1, c.Y1}, 180)
	edge(pt{c.X0, c.Y0}, pt{c.X0, c.Y1}, 90)
}

// delta draws the revision tag: a triangle with the revision mark.
func delta(g *gen, d *dlist, c pt, mark string) {
	d.poly([]pt{{c.X, c.Y - 9}, {c.X + 8, c.Y + 6}, {c.X - 8, c.Y + 6}}, 0.8, "D")
	d.text(g.m.textC(mark, c.X, c.Y+1.5, 6.5, true))
}

func (r *rng) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r.shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}
