package synth

import (
	"fmt"
	"math"
)

// obst is what a new drawing element must keep clear of.
type obst struct {
	rects []rect
	segs  [][2]pt
}

func (o *obst) hitRect(b rect) bool {
	for _, r := range o.rects {
		if r.intersects(b) {
			return true
		}
	}
	for _, s := range o.segs {
		if segHitsRect(s[0], s[1], b) {
			return true
		}
	}
	return false
}

func (o *obst) hitSeg(a, b pt) bool {
	for _, r := range o.rects {
		if segHitsRect(a, b, r) {
			return true
		}
	}
	return false
}

func (o *obst) addInst(in *inst) {
	o.rects = append(o.rects, in.Box.pad(4))
	if in.Suffix != nil {
		o.rects = append(o.rects, in.Suffix.box().pad(3))
	}
	if in.Cross == "line" {
		o.segs = append(o.segs, in.Line)
	}
}

// obstacles collects labels, door swings and instances (but skipID and
// the doors of wall skipWall).
func (p *plan) obstacles(skipID, skipWall int) *obst {
	o := &obst{}
	for _, rm := range p.Rooms {
		o.rects = append(o.rects, rm.labelBox().pad(16))
	}
	for _, d := range p.Doors {
		if d.Wall != skipWall {
			_, _, _, sw := p.doorGeom(d)
			o.rects = append(o.rects, sw.pad(3))
		}
	}
	for i := range p.Insts {
		if p.Insts[i].ID != skipID {
			o.addInst(&p.Insts[i])
		}
	}
	for _, gl := range p.grid {
		o.segs = append(o.segs, [2]pt{gl.A, gl.B})
	}
	return o
}

// instances places each legend graphic on the plan a few times.
func (g *gen) instances(r *rng, sh *sheet, p *plan) {
	ob := p.obstacles(-1, -1)
	order := make([]int, len(sh.entries))
	for i := range order {
		order[i] = i
	}
	r.shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	// bigger plans get more instances of each symbol
	most := min(8, 2+int(p.Bldg.W()*p.Bldg.H()/(450*450)))
	for _, e := range order {
		n := r.irange(1, most)
		if r.chance(0.1) {
			n = 0
		}
		for k := 0; k < n; k++ {
			g.placeAdd(r, sh, p, ob, e)
		}
	}
	// even a small plan shows a handful
	for try := 0; len(p.Insts) < 8 && try < 40 && len(order) > 0; try++ {
		g.placeAdd(r, sh, p, ob, r.intn(len(order)))
	}
	g.fill(sh, p, ob, len(order))
}

// fill places more instances on plan p, of random entries among the
// sheet's n, until it holds Options.PlanInstances or its rooms have no
// clear spot left (a run of failed placements). Its random choices come
// from a stream of their own, so the rest of the set is the same as
// without the option.
func (g *gen) fill(sh *sheet, p *plan, ob *obst, n int) {
	if g.o.PlanInstances <= len(p.Insts) || n == 0 {
		return
	}
	r := newRNG(g.o.Seed, fmt.Sprintf("fill/%d/%s", sh.Index, p.Title))
	for fails := 0; len(p.Insts) < g.o.PlanInstances && fails < 200; {
		before := len(p.Insts)
		g.placeAdd(r, sh, p, ob, r.intn(n))
		if len(p.Insts) == before {
			fails++
		} else {
			fails = 0
		}
	}
}

func (g *gen) placeAdd(r *rng, sh *sheet, p *plan, ob *obst, e int) {
	if in, ok := g.place(r, sh, p, ob, e); ok {
		sh.nextID++
		in.ID = sh.nextID
		if g.o.Vary {
			// a stream of its own: the set's other choices stay as they are
			vr := newRNG(g.o.Seed, fmt.Sprintf("vary/%d/%d", sh.Index, in.ID))
			in.Vary = vr.next() | 1
			sym := sh.entries[e].Sym
			if !sym.hasText() && vr.chance(1.0/3) {
				in.Mirror = true
				in.Box = sym.boxM(in.C, p.half*in.Scale, in.Angle, p.symLW, true)
			}
		}
		g.callout(sh, &in)
		p.Insts = append(p.Insts, in)
		ob.addInst(&p.Insts[len(p.Insts)-1])
	}
}

// place finds a spot for one instance of entry e clear of ob.
func (g *gen) place(r *rng, sh *sheet, p *plan, ob *obst, e int) (inst, bool) {
	sym := sh.entries[e].Sym
	mode := ""
	if r.chance(0.15) {
		mode = "line"
		if r.chance(0.5) {
			mode = "wall"
		}
	}
	wantSuffix := r.chance(0.2)
	var inner []int
	for i, w := range p.Walls {
		if !w.Ext {
			inner = append(inner, i)
		}
	}
	areas := 0.0
	for _, rm := range p.Rooms {
		areas += rm.R.W() * rm.R.H()
	}
	for attempt := 0; attempt < 80; attempt++ {
		if attempt == 40 && mode == "wall" {
			mode = "line"
		}
		if attempt == 60 {
			mode = ""
		}
		k := round(r.rangef(0.5, 2), 3)
		ang := round(r.rangef(0, 360), 2)
		if ang >= 360 || sym.upright {
			ang = 0
		}
		b0 := sym.box(pt{}, p.half*k, ang, p.symLW)
		var c pt
		var region rect
		roomIdx := -1
		if mode == "wall" {
			if len(inner) == 0 {
				mode = "line"
				continue
			}
			wi := pick(r, inner)
			w := p.Walls[wi]
			lo, hi := b0.X0, b0.X1
			if !w.Horiz {
				lo, hi = b0.Y0, b0.Y1
			}
			a, b := w.A+p.Te+4-lo, w.B-p.Te-4-hi
			if a >= b {
				continue
			}
			t := round(r.rangef(a, b), 2)
			c = pt{t, w.C}
			if !w.Horiz {
				c = pt{w.C, t}
			}
			box := b0.translate(c.X, c.Y)
			bad := false
			for _, gp := range w.Gaps {
				if w.span(gp[0], gp[1]).intersects(box.pad(6)) {
					bad = true
				}
			}
			for j := range p.Walls {
				if j != wi && p.Walls[j].full().intersects(box.pad(3)) {
					bad = true
				}
			}
			if bad {
				continue
			}
			region = p.Bldg.inset(p.Te/2 + 3)
		} else {
			x := r.rangef(0, areas)
			for i, rm := range p.Rooms {
				x -= rm.R.W() * rm.R.H()
				if x < 0 || i == len(p.Rooms)-1 {
					roomIdx = i
					break
				}
			}
			region = p.Rooms[roomIdx].R.inset(p.Te/2 + 3)
			x0, x1 := region.X0-b0.X0, region.X1-b0.X1
			y0, y1 := region.Y0-b0.Y0, region.Y1-b0.Y1
			if x0 >= x1 || y0 >= y1 {
				continue
			}
			c = pt{round(r.rangef(x0, x1), 2), round(r.rangef(y0, y1), 2)}
		}
		box := b0.translate(c.X, c.Y)
		if !region.contains(box) || ob.hitRect(box.pad(4)) {
			continue
		}
		in := inst{Entry: e, C: c, Scale: k, Angle: ang, Box: box, Cross: mode, Room: roomIdx}
		if wantSuffix {
			s := suffix(r, sh.v.Tags)
			size := p.DimSize
			var t textItem
			switch r.intn(4) {
			case 0:
				t = g.m.text(s, box.X1+3, c.Y+capHeight*size/2, size, false)
			case 1:
				t = g.m.text(s, 0, c.Y+capHeight*size/2, size, false)
				t.X = box.X0 - 3 - t.W
			case 2:
				t = g.m.text(s, 0, box.Y0-3, size, false)
				t.X = c.X - t.W/2
			default:
				t = g.m.text(s, 0, box.Y1+3+capHeight*size, size, false)
				t.X = c.X - t.W/2
			}
			t.X, t.Y = round(t.X, 2), round(t.Y, 2)
			sb := t.box()
			if !region.contains(sb) || ob.hitRect(sb.pad(3)) {
				continue
			}
			if mode == "wall" {
				bad := false
				for j := range p.Walls {
					if p.Walls[j].full().intersects(sb.pad(2)) {
						bad = true
					}
				}
				if bad {
					continue
				}
			}
			in.Suffix = &t
		}
		if mode == "line" {
			phi := r.rangef(0, 180)
			reach := math.Hypot(box.W(), box.H())/2 + r.rangef(8, 36)
			s, co := math.Sincos(phi * math.Pi / 180)
			a := pt{round(c.X-co*reach, 2), round(c.Y-s*reach, 2)}
			b := pt{round(c.X+co*reach, 2), round(c.Y+s*reach, 2)}
			if !region.containsPt(a) || !region.containsPt(b) || ob.hitSeg(a, b) {
				continue
			}
			if in.Suffix != nil && segHitsRect(a, b, in.Suffix.box().pad(2)) {
				continue
			}
			in.Line = [2]pt{a, b}
			in.Dash = r.chance(0.4)
		}
		return in, true
	}
	return inst{}, false
}
