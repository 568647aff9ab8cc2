package synth

import (
	"fmt"
	"math"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
)

// viewBar is the title bar under a view: a bubble split by a line (view
// number above, sheet reference below) whose line runs on under the title,
// and the scale under the line.
type viewBar struct {
	C                          pt
	R                          float64
	NumT, RefT, TitleT, ScaleT textItem
	LineX1                     float64
	Scale                      string // the scale's value, as the truth gives it
}

func (v *viewBar) translate(dx, dy float64) {
	v.C = pt{v.C.X + dx, v.C.Y + dy}
	v.NumT, v.RefT = v.NumT.translate(dx, dy), v.RefT.translate(dx, dy)
	v.TitleT, v.ScaleT = v.TitleT.translate(dx, dy), v.ScaleT.translate(dx, dy)
	v.LineX1 += dx
}

func (v *viewBar) draw(d *dlist) {
	d.circle(v.C, v.R, 0.9, "D")
	d.line(pt{v.C.X - v.R, v.C.Y}, pt{v.LineX1, v.C.Y}, 1.3)
	d.text(v.NumT)
	d.text(v.RefT)
	d.text(v.TitleT)
	d.text(v.ScaleT)
}

func (v *viewBar) bubble() rect { return rect{v.C.X - v.R, v.C.Y - v.R, v.C.X + v.R, v.C.Y + v.R} }

// viewBar lays out a title bar whose bubble's top left is at (x, top),
// keeping it left of maxX.
func (g *gen) viewBar(sh *sheet, x, top, maxX float64, num, title, scale string) *viewBar {
	mx := sh.mx
	v := &viewBar{R: mx.barR, Scale: scale}
	v.C = pt{x + v.R, top + v.R}
	ns := min(v.R*0.8, g.m.fit(num, v.R*1.2, v.R*0.8, true))
	v.NumT = g.m.textC(num, v.C.X, v.C.Y-v.R*0.45, ns, true)
	ref := shortRef(sh.Number)
	rs := min(v.R*0.5, g.m.fit(ref, v.R*1.45, v.R*0.5, false))
	v.RefT = g.m.textC(ref, v.C.X, v.C.Y+v.R*0.47, rs, false)
	tx := v.C.X + v.R + 8
	ts := g.m.fit(title, maxX-tx-10, mx.barTitle, true)
	v.TitleT = g.m.text(title, tx, v.C.Y-4.5, ts, true)
	printed := scale
	switch {
	case mx.lang == "de":
		printed = "M " + scale
	case !strings.Contains(scale, ":") || mx.scaleWord:
		printed = "SCALE: " + scale
	}
	v.ScaleT = g.m.text(printed, tx, v.C.Y+5+capHeight*mx.barScale, mx.barScale, false)
	v.LineX1 = tx + max(v.TitleT.W, v.ScaleT.W) + 10
	return v
}

// gridLine is a dash-dot grid line with its bubbles.
type gridLine struct {
	A, B    pt
	bubbles []gridBubble
}

type gridBubble struct {
	C pt
	R float64
	T textItem
}

func (b gridBubble) translate(dx, dy float64) gridBubble {
	b.C = pt{b.C.X + dx, b.C.Y + dy}
	b.T = b.T.translate(dx, dy)
	return b
}

func (b gridBubble) box() rect { return rect{b.C.X - b.R, b.C.Y - b.R, b.C.X + b.R, b.C.Y + b.R} }

func (gl gridLine) draw(d *dlist) {
	dx, dy := gl.B.X-gl.A.X, gl.B.Y-gl.A.Y
	l := math.Hypot(dx, dy)
	ux, uy := dx/l, dy/l
	for s := 0.0; s < l; s += 28 {
		e := min(s+20, l)
		d.line(pt{gl.A.X + ux*s, gl.A.Y + uy*s}, pt{gl.A.X + ux*e, gl.A.Y + uy*e}, 0.35)
		if s+25 < l {
			d.line(pt{gl.A.X + ux*(s+23), gl.A.Y + uy*(s+23)}, pt{gl.A.X + ux*(s+25), gl.A.Y + uy*(s+25)}, 0.35)
		}
	}
	for _, b := range gl.bubbles {
		d.circle(b.C, b.R, 0.7, "D")
		d.text(b.T)
	}
}

// gridHits reports whether a grid line crosses r.
func (p *plan) gridHits(r rect) bool {
	for _, gl := range p.grid {
		if segHitsRect(gl.A, gl.B, r) {
			return true
		}
	}
	return false
}

// emitViewExtras draws a mixed plan's grid and title bar.
func (g *gen) emitViewExtras(d *dlist, p *plan) {
	for _, gl := range p.grid {
		gl.draw(d)
	}
	p.view.draw(d)
}

var metricScales = []scaleDef{{"1:50", 72 * 304.8 / 25.4 / 50}, {"1:100", 72 * 304.8 / 25.4 / 100}, {"1:200", 72 * 304.8 / 25.4 / 200}}

// metres formats a length in feet as metres with a decimal comma: 7,32.
func metres(feet float64) string {
	return strings.Replace(fmt.Sprintf("%.2f", feet*0.3048), ".", ",", 1)
}

// planView draws a floor plan with a title bar and, sometimes, a grid. A
// plan with force set copies force's scale and outline, moved by shift.
func (g *gen) planView(r *rng, sh *sheet, sp *sheetSpec, cell rect, vs viewSpec, num string, shared bool, j int, force *plan, shift float64) *block {
	scl := scales
	if sp.metric {
		scl = metricScales
	}
	area := cell
	grid := shared || r.chance(0.35)
	if grid {
		area.X0 += 36
		area.Y0 += 36
	}
	if shared {
		area.X1 -= 40
	}
	p := g.planGeom(r, sh, area, vs.title, scl)
	if force != nil {
		p.PPF, p.Scale, p.Bldg = force.PPF, force.Scale, force.Bldg.translate(shift, 0)
	}
	p.Metric = sp.metric
	if grid {
		start := 1
		if force != nil {
			start = 1 + countVertical(force.grid)
		}
		p.grid = gridLines(g, p, shared, j, start)
	}
	b := g.planBody(r, sh, p, vs.floor)
	p.view = g.viewBar(sh, p.Bldg.X0-p.Te/2, p.Bldg.Y1+p.Te/2+26, cell.X1, num, vs.title, p.Scale)
	b.view = p.view
	b.dl = g.emit(p, sh)
	b.fitBox()
	return b
}

func countVertical(gl []gridLine) int {
	n := 0
	for _, l := range gl {
		if l.A.X == l.B.X {
			n++
		}
	}
	return n
}

// gridLines makes a plan's column grid: numbered lines across, lettered
// lines along, at the exterior walls and bays between. In a shared grid
// the lettered lines of the left plan (j 0) run on to the right plan
// (j 1), which has their right bubbles.
func gridLines(g *gen, p *plan, shared bool, j, start int) []gridLine {
	B, e := p.Bldg, p.Te/2
	const R = 10.5
	bays := func(l float64) []float64 {
		n := int(math.Round(l / (24 * p.PPF)))
		n = max(1, min(n, 5))
		var out []float64
		for k := 0; k <= n; k++ {
			out = append(out, p.snap(l*float64(k)/float64(n), 0))
		}
		out[n] = l
		return out
	}
	size := 9.0
	var out []gridLine
	for k, x := range bays(B.W()) {
		x += B.X0
		c := pt{x, B.Y0 - e - 68 - R}
		t := g.m.textC(fmt.Sprint(start+k), c.X, c.Y, size, true)
		out = append(out, gridLine{A: pt{x, c.Y + R}, B: pt{x, B.Y1 + e + 14}, bubbles: []gridBubble{{c, R, t}}})
	}
	for k, y := range bays(B.H()) {
		y += B.Y0
		label := string(rune('A' + k))
		gl := gridLine{A: pt{B.X0 - e - 14, y}, B: pt{B.X1 + e + 14, y}}
		if !shared || j == 0 {
			c := pt{B.X0 - e - 68 - R, y}
			gl.A = pt{c.X + R, y}
			gl.bubbles = append(gl.bubbles, gridBubble{c, R, g.m.textC(label, c.X, c.Y, size, true)})
		}
		if shared && j == 1 {
			c := pt{B.X1 + e + 14 + R, y}
			gl.B = pt{c.X - R, y}
			gl.bubbles = append(gl.bubbles, gridBubble{c, R, g.m.textC(label, c.X, c.Y, size, true)})
		}
		out = append(out, gl)
	}
	return out
}

// joinGrids runs the lettered grid lines of two plans side by side on to
// the middle of the gap between them, where their boxes meet.
func (g *gen) joinGrids(sh *sheet, a, b *block) {
	pa, pb := a.plan, b.plan
	mid := round((pa.Bldg.X1+pa.Te/2+pb.Bldg.X0-pb.Te/2-70)/2, 2)
	for i := range pa.grid {
		if gl := &pa.grid[i]; gl.A.Y == gl.B.Y {
			gl.B.X = mid
		}
	}
	for i := range pb.grid {
		if gl := &pb.grid[i]; gl.A.Y == gl.B.Y {
			gl.A.X = mid
		}
	}
	for _, x := range []*block{a, b} {
		x.dl = g.emit(x.plan, sh)
		x.fitBox()
		x.sharedGrid = true
	}
	a.box.X1, b.box.X0 = mid, mid
}

// levelMark draws a level marker at the right of a view: a dashed line,
// a target and the level's name and height.
func (g *gen) levelMark(d *dlist, x, y float64, name, height string) {
	for s := x + 6.0; s < x+42; s += 7 {
		d.line(pt{s, y}, pt{min(s+4, x+42), y}, 0.35)
	}
	c := pt{x + 48, y}
	d.circle(c, 4.5, 0.6, "D")
	d.add(op{k: opPoly, pts: sectorPts(c, 4.5, 0, 90), style: "F"})
	d.add(op{k: opPoly, pts: sectorPts(c, 4.5, 180, 270), style: "F"})
	size := g.m.fit(name, 52, 7, true)
	d.text(g.m.text(name, x+56, y-2.5, size, true))
	d.text(g.m.text(height, x+56, y+2.5+capHeight*6.5, 6.5, false))
}

func sectorPts(c pt, r, a0, a1 float64) []pt {
	out := []pt{c}
	for a := a0; a <= a1; a += 15 {
		out = append(out, arcPoint(c, r, a))
	}
	return out
}

// hatch draws 45° lines spaced s apart inside r.
func hatch(d *dlist, r rect, s, lw float64) {
	for k := r.X0 - r.H(); k < r.X1; k += s {
		// the line x - (r.Y1 - y) = k, clipped to r
		x0, y0 := k, r.Y1
		x1, y1 := k+r.H(), r.Y0
		if x0 < r.X0 {
			y0 -= r.X0 - x0
			x0 = r.X0
		}
		if x1 > r.X1 {
			y1 += x1 - r.X1
			x1 = r.X1
		}
		if x1-x0 > 0.5 {
			d.line(pt{x0, y0}, pt{x1, y1}, lw)
		}
	}
}

// levelHeight prints a level's height: 110'-0" or +3,50.
func levelHeight(metric bool, ft float64) string {
	if metric {
		if ft == 0 {
			return "±0,00"
		}
		return "+" + metres(ft)
	}
	return ftIn(100 + ft)
}

// elevationView draws an elevation (or, with section, a building
// section) with level markers and a title bar.
func (g *gen) elevationView(r *rng, sh *sheet, sp *sheetSpec, cell rect, vs viewSpec, num string, section bool) *block {
	kind := "Elevation"
	if section {
		kind = "Section"
	}
	avail := rect{cell.X0 + 20, cell.Y0 + 20, cell.X1 - 112, cell.Y1 - 96}
	// the building is the same in every elevation and section of a sheet
	br := newRNG(g.o.Seed, fmt.Sprintf("mixed/building/%d", sh.Index))
	levels := br.irange(1, 3)
	ff := float64(br.irange(10, 14))
	widthFt := float64(br.irange(40, 110))
	gable := br.chance(0.4)
	pitch := br.rangef(0.3, 0.5)
	below := 0.0
	if section {
		below = 4
	}
	heightFt := func() float64 {
		if gable {
			return float64(levels)*ff + widthFt/2*pitch + below
		}
		return float64(levels)*ff + 3 + below
	}
	scl := scales
	if sp.metric {
		scl = metricScales
	}
	var sc scaleDef
	found := false
	for _, s := range scl {
		if widthFt*s.PPF <= avail.W()-50 && heightFt()*s.PPF <= avail.H()-10 {
			sc, found = s, true
			break
		}
	}
	if !found {
		sc = scl[len(scl)-1]
		for levels > 1 && heightFt()*sc.PPF > avail.H()-10 {
			levels--
		}
		gable = gable && heightFt()*sc.PPF <= avail.H()-10
		widthFt = math.Floor(min(widthFt, (avail.W()-50)/sc.PPF))
	}
	k := sc.PPF
	W := widthFt * k
	x0 := round(avail.X0+25+r.rangef(0, max(0, avail.W()-50-W)), 1)
	ground := round(avail.Y1-below*k, 1)
	top := ground - float64(levels)*ff*k
	b := &block{Type: kind, Title: vs.title, Scale: sc.Text}
	d := &b.dl
	B := rect{x0, top, x0 + W, ground}
	var marks [][2]string
	var markY []float64
	for l := 0; l <= levels; l++ {
		name := fmt.Sprintf("LEVEL %d", l+1)
		if sp.lang == "de" {
			name = []string{"OK FFB EG", "OK FFB OG", "OK FFB 2.OG", "OK ROH"}[l]
		}
		if l == levels {
			name = "ROOF"
			if sp.lang == "de" {
				name = "OK DACH"
			}
		}
		marks = append(marks, [2]string{name, levelHeight(sp.metric, float64(l)*ff)})
		markY = append(markY, ground-float64(l)*ff*k)
	}
	if !gable {
		markY = append(markY, top-3*k)
		name := "T.O. PARAPET"
		if sp.lang == "de" {
			name = "OK ATTIKA"
		}
		marks = append(marks, [2]string{name, levelHeight(sp.metric, float64(levels)*ff+3)})
	}
	if section {
		g.sectionBody(r, d, B, k, levels, ff, gable, pitch, sp)
	} else {
		g.elevationBody(r, d, B, k, levels, ff)
	}
	// roof and ground
	if gable {
		oh := 1.5 * k
		ridge := top - W/2*pitch
		d.add(op{k: opPolyline, pts: []pt{{B.X0 - oh, top + oh*pitch}, {B.X0 + W/2, ridge}, {B.X1 + oh, top + oh*pitch}}, lw: 1.1, style: "D"})
		d.line(pt{B.X0 - oh, top + oh*pitch}, pt{B.X1 + oh, top + oh*pitch}, 0.5)
	} else {
		pr := rect{B.X0, top - 3*k, B.X1, top}
		if section {
			d.rect(rect{B.X0, pr.Y0, B.X0 + 0.7*k, top}, 0.9)
			d.rect(rect{B.X1 - 0.7*k, pr.Y0, B.X1, top}, 0.9)
		} else {
			d.rect(pr, 1.1)
			d.line(pt{pr.X0, pr.Y0 + 0.5*k}, pt{pr.X1, pr.Y0 + 0.5*k}, 0.4)
		}
	}
	d.line(pt{B.X0 - 24, ground}, pt{B.X1 + 24, ground}, 2)
	for i, m := range marks {
		g.levelMark(d, B.X1+4, markY[i], m[0], m[1])
	}
	bottom := ground + below*k
	b.view = g.viewBar(sh, B.X0, bottom+22, cell.X1, num, vs.title, sc.Text)
	b.view.draw(d)
	b.fitBox()
	return b
}

// elevationBody draws an outline with windows and doors.
func (g *gen) elevationBody(r *rng, d *dlist, B rect, k float64, levels int, ff float64) {
	d.rect(B, 1.1)
	bay := float64(r.irange(10, 14)) * k
	nb := max(1, int(B.W()/bay))
	bay = B.W() / float64(nb)
	ww := min(float64(r.irange(3, 5))*k, bay*0.6)
	wh := float64(r.irange(4, 5)) * k
	door := r.intn(nb)
	for l := 0; l < levels; l++ {
		floor := B.Y1 - float64(l)*ff*k
		for i := 0; i < nb; i++ {
			cx := B.X0 + bay*(float64(i)+0.5)
			if l == 0 && i == door {
				dw := 3 * k
				if r.chance(0.5) {
					dw = 6 * k
				}
				dr := rect{cx - dw/2, floor - 7*k, cx + dw/2, floor}
				d.rect(dr, 0.7)
				if dw > 4*k {
					d.line(pt{cx, dr.Y0}, pt{cx, dr.Y1}, 0.5)
				}
				d.line(pt{dr.X0 - 0.5*k, dr.Y0 - 0.6*k}, pt{dr.X1 + 0.5*k, dr.Y0 - 0.6*k}, 0.8)
				continue
			}
			w := rect{cx - ww/2, floor - 3*k - wh, cx + ww/2, floor - 3*k}
			d.rect(w, 0.6)
			d.line(pt{cx, w.Y0}, pt{cx, w.Y1}, 0.4)
			d.line(pt{w.X0 - 0.3*k, w.Y1 + 0.3*k}, pt{w.X1 + 0.3*k, w.Y1 + 0.3*k}, 0.5)
		}
	}
}

// sectionBody draws a cut: poché walls and slabs, footings below grade,
// earth hatch, a partition and door beyond and the rooms' names.
func (g *gen) sectionBody(r *rng, d *dlist, B rect, k float64, levels int, ff float64, gable bool, pitch float64, sp *sheetSpec) {
	t := 0.7 * k
	poche := r.chance(0.5)
	cut := func(c rect) {
		if poche {
			d.fillRect(c, 110)
			d.rect(c, 0.8)
		} else {
			d.rect(c, 0.9)
			hatch(d, c, 3.5, 0.3)
		}
	}
	ground := B.Y1
	// footings and stem walls
	for _, x := range []float64{B.X0, B.X1 - t} {
		cut(rect{x, ground, x + t, ground + 3*k})
		cut(rect{x + t/2 - 1.1*k, ground + 3*k, x + t/2 + 1.1*k, ground + 4*k})
	}
	// earth hatch outside the building
	for _, seg := range [][2]float64{{B.X0 - 24, B.X0 - 2}, {B.X1 + 2, B.X1 + 24}} {
		for x := seg[0]; x+5 <= seg[1]; x += 6 {
			d.line(pt{x, ground + 5}, pt{x + 5, ground}, 0.3)
		}
	}
	for l := 0; l <= levels; l++ {
		y := ground - float64(l)*ff*k
		if l < levels {
			cut(rect{B.X0, y - ff*k + 0.8*k, B.X0 + t, y})
			cut(rect{B.X1 - t, y - ff*k + 0.8*k, B.X1, y})
		}
		cut(rect{B.X0, y, B.X1, y + 0.8*k})
	}
	if gable {
		ridge := B.Y0 - B.W()/2*pitch
		d.line(pt{B.X0, B.Y0}, pt{B.X0 + B.W()/2, ridge + 0.8*k}, 0.6)
		d.line(pt{B.X1, B.Y0}, pt{B.X0 + B.W()/2, ridge + 0.8*k}, 0.6)
	}
	// a partition beyond, with a door, on each level; room names
	names := roomNames
	px := B.X0 + B.W()*r.rangef(0.35, 0.65)
	size := 7.5
	for l := 0; l < levels; l++ {
		floor := ground - float64(l)*ff*k
		ceil := floor - ff*k + 0.8*k
		d.line(pt{px, ceil}, pt{px, floor}, 0.4)
		dr := rect{px + 1.5*k, floor - 7*k, px + 4.5*k, floor}
		if dr.X1 < B.X1-t-2*k {
			d.rect(dr, 0.4)
		}
		for h, x := range []float64{(B.X0 + t + px) / 2, (px + B.X1 - t) / 2} {
			name := names[(l*2+h+r.intn(len(names)))%len(names)]
			if sp.lang == "de" {
				name = pick(r, []string{"BÜRO", "FLUR", "LAGER", "TECHNIK"})
			}
			cy := floor - min(3.5*k, (ff*k-0.8*k)/2)
			nt := g.m.textC(name, x, cy, size, false)
			nb := nt.box().pad(3)
			if nb.X0 > B.X0+t && nb.X1 < B.X1-t && !nb.intersects(dr) && (nb.X1 < px || nb.X0 > px) {
				d.text(nt)
			}
		}
	}
}

// detailView draws an enlarged fragment: a wall on a footing beside a slab
// on grade, with leader notes and a dimension.
func (g *gen) detailView(r *rng, sh *sheet, sp *sheetSpec, cell rect, vs viewSpec, num string) *block {
	b := &block{Type: "Detail", Title: vs.title}
	d := &b.dl
	notes := append([]string(nil), detailNotes...)
	if sp.lang == "de" {
		notes = append([]string(nil), germanDetailNotes...)
	}
	r.shuffle(len(notes), func(i, j int) { notes[i], notes[j] = notes[j], notes[i] })
	notes = notes[:r.irange(4, 6)]
	size := round(r.rangef(7, 8), 1)
	nw := 0.0
	for _, n := range notes {
		nw = max(nw, g.m.width(n, size, false))
	}
	avail := rect{cell.X0 + 20, cell.Y0 + 20, cell.X1 - nw - 50, cell.Y1 - 110}
	const fw, fh = 4.2, 6.4 // fragment in feet
	scl := []scaleDef{{"3\" = 1'-0\"", 216}, {"1 1/2\" = 1'-0\"", 108}, {"1\" = 1'-0\"", 72}, {"3/4\" = 1'-0\"", 54}, {"1/2\" = 1'-0\"", 36}}
	if sp.metric {
		scl = []scaleDef{{"1:5", 72 * 304.8 / 25.4 / 5}, {"1:10", 72 * 304.8 / 25.4 / 10}, {"1:20", 72 * 304.8 / 25.4 / 20}}
	}
	sc := scl[len(scl)-1]
	for _, s := range scl {
		if fw*s.PPF <= avail.W() && fh*s.PPF <= avail.H() {
			sc = s
			break
		}
	}
	b.Scale = sc.Text
	k := sc.PPF
	x0 := round(avail.X0+r.rangef(0, max(0, avail.W()-fw*k)), 1)
	y0 := round(avail.Y0+r.rangef(0, max(0, avail.H()-fh*k)), 1)
	// wall: 0.5 ft wide, from the top to the slab at 3 ft
	wall := rect{x0 + 1.2*k, y0, x0 + 1.7*k, y0 + 3*k}
	slab := rect{wall.X1, wall.Y1, x0 + fw*k, wall.Y1 + 0.35*k}
	stem := rect{wall.X0 - 0.08*k, wall.Y1, wall.X1 + 0.1*k, wall.Y1 + 2.5*k}
	foot := rect{stem.X0 - 0.55*k, stem.Y1, stem.X1 + 0.55*k, stem.Y1 + 0.85*k}
	d.line(pt{wall.X0, wall.Y0}, pt{wall.X0, wall.Y1}, 0.8)
	d.line(pt{wall.X1, wall.Y0}, pt{wall.X1, wall.Y1}, 0.8)
	d.line(pt{wall.X0 + 0.06*k, wall.Y0}, pt{wall.X0 + 0.06*k, wall.Y1}, 0.4)
	d.line(pt{wall.X1 - 0.05*k, wall.Y0}, pt{wall.X1 - 0.05*k, wall.Y1}, 0.4)
	// batt insulation: a loop line between the faces
	var batt []pt
	in0, in1 := wall.X0+0.1*k, wall.X1-0.09*k
	for y, i := wall.Y0+2, 0; y < wall.Y1-2; y, i = y+(in1-in0)/4, i+1 {
		x := in0
		if i%2 == 1 {
			x = in1
		}
		batt = append(batt, pt{x, y})
	}
	if len(batt) > 1 {
		d.add(op{k: opPolyline, pts: batt, lw: 0.35, style: "D"})
	}
	concrete := func(c rect) {
		d.rect(c, 0.8)
		rr := newRNG(int64(c.X0*7+c.Y0*13), "stipple")
		n := int(c.W() * c.H() / 90)
		for i := 0; i < n; i++ {
			p := pt{c.X0 + 2 + rr.rangef(0, c.W()-4), c.Y0 + 2 + rr.rangef(0, c.H()-4)}
			if i%4 == 0 {
				d.poly([]pt{{p.X, p.Y - 1.6}, {p.X + 1.5, p.Y + 1}, {p.X - 1.5, p.Y + 1}}, 0.3, "D")
			} else {
				d.circle(p, 0.45, 0, "F")
			}
		}
	}
	concrete(slab)
	concrete(stem)
	concrete(foot)
	for x := slab.X0; x+4 < slab.X1; x += 9 {
		d.line(pt{x + 1, slab.Y1 + 2}, pt{x + 5, slab.Y1 + 2}, 0.4)
	}
	// earth hatch beside and under the footing
	for x := x0; x+6 < stem.X0-2; x += 7 {
		d.line(pt{x, stem.Y0 + 12}, pt{x + 6, stem.Y0 + 6}, 0.3)
	}
	for x := foot.X0; x+6 < foot.X1; x += 7 {
		d.line(pt{x, foot.Y1 + 8}, pt{x + 6, foot.Y1 + 2}, 0.3)
	}
	// break lines at the top of the wall and the end of the slab
	zig := func(a, b pt, vert bool) {
		m := pt{(a.X + b.X) / 2, (a.Y + b.Y) / 2}
		var pts []pt
		if vert {
			pts = []pt{a, {m.X, m.Y - 4}, {m.X + 4, m.Y - 1}, {m.X - 4, m.Y + 1}, {m.X, m.Y + 4}, b}
		} else {
			pts = []pt{a, {m.X - 4, m.Y}, {m.X - 1, m.Y - 4}, {m.X + 1, m.Y + 4}, {m.X + 4, m.Y}, b}
		}
		d.add(op{k: opPolyline, pts: pts, lw: 0.4, style: "D"})
	}
	zig(pt{wall.X0 - 8, wall.Y0}, pt{wall.X1 + 8, wall.Y0}, false)
	zig(pt{slab.X1, slab.Y0 - 8}, pt{slab.X1, slab.Y1 + 8}, true)
	// footing width
	dy := foot.Y1 + 20
	d.line(pt{foot.X0, foot.Y1 + 4}, pt{foot.X0, dy + 4}, 0.35)
	d.line(pt{foot.X1, foot.Y1 + 4}, pt{foot.X1, dy + 4}, 0.35)
	d.line(pt{foot.X0 - 5, dy}, pt{foot.X1 + 5, dy}, 0.35)
	for _, x := range []float64{foot.X0, foot.X1} {
		d.line(pt{x - 3, dy + 3}, pt{x + 3, dy - 3}, 0.8)
	}
	dimT := ftIn(foot.W() / k)
	if sp.metric {
		dimT = fmt.Sprintf("%.0f", foot.W()/k*304.8)
	}
	d.text(g.m.textC(dimT, (foot.X0+foot.X1)/2, dy-3-capHeight*size/2, size, false))
	// leader notes, top to bottom, to targets top to bottom
	targets := []pt{{wall.X0 + 0.03*k, wall.Y0 + 0.6*k}, {(in0 + in1) / 2, wall.Y0 + 1.4*k}, {wall.X1 - 0.02*k, wall.Y0 + 2.2*k},
		{slab.X0 + slab.W()*0.6, slab.Y0 + slab.H()/2}, {slab.X0 + slab.W()*0.45, slab.Y1 + 2}, {stem.X1 - 0.2*k, stem.Y0 + 1.2*k}, {foot.X1 - 0.3*k, foot.Y0 + foot.H()/2}}
	nx := x0 + fw*k + 30
	step := min(max(size*2.4, (foot.Y1-y0)/float64(len(notes))), size*5)
	pick := r.perm(len(targets))[:len(notes)]
	sortInts(pick)
	for i, n := range notes {
		base := y0 + 10 + float64(i)*step
		t := g.m.text(n, nx, base, size, false)
		d.text(t)
		tg := targets[pick[i]]
		from := pt{nx - 4, base - capHeight*size/2}
		d.line(from, pt{nx - 14, from.Y}, 0.4)
		d.line(pt{nx - 14, from.Y}, tg, 0.4)
		d.circle(tg, 1.4, 0, "F")
	}
	b.view = g.viewBar(sh, x0, max(foot.Y1+38, y0+10+float64(len(notes))*step), cell.X1, num, vs.title, sc.Text)
	b.view.draw(d)
	b.fitBox()
	return b
}

func sortInts(v []int) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

var detailNotes = []string{
	"1/2\" GYP. BD.", "2X6 STUDS @ 16\" O.C.", "R-21 BATT INSULATION", "7/16\" OSB SHEATHING", "4\" CONC. SLAB ON GRADE",
	"6 MIL VAPOR BARRIER", "#4 BARS @ 16\" O.C.", "1/2\" DIA. ANCHOR BOLT @ 48\" O.C.", "CONC. FOOTING, SEE SCHEDULE",
	"COMPACTED GRANULAR FILL", "SILL SEALER", "PT 2X6 SILL PLATE",
}

var germanDetailNotes = []string{
	"Fangleitung Rd 8 mm", "Leitungshalter", "Stahlbeton C25/30", "Wärmedämmung 140 mm", "Fundamenterder V4A",
	"Anschlussfahne", "Bodenplatte 25 cm", "Abdichtung", "Sauberkeitsschicht",
}

// mixedBlockTruth adds a mixed block's view, grid and legend facts.
func (g *gen) mixedBlockTruth(bt *BlockTruth, b *block, box func(rect) geom.Box) {
	v := b.view
	if v == nil && b.plan != nil {
		v = b.plan.view
	}
	if v != nil {
		bt.ViewNumber, bt.ViewSheet = v.NumT.S, v.RefT.S
		bb, tb, sb := box(v.bubble()), box(v.TitleT.box()), box(v.ScaleT.box())
		bt.BubbleBox, bt.TitleBox, bt.ScaleBox = &bb, &tb, &sb
	}
	if b.plan != nil {
		for _, gl := range b.plan.grid {
			for _, bb := range gl.bubbles {
				bt.Grid = append(bt.Grid, TextTruth{Text: bb.T.S, Box: box(bb.box())})
			}
		}
	}
	bt.SharedGrid = b.sharedGrid
	if l := b.leg; l != nil {
		bt.Columns, bt.TextSide, bt.Header = l.cols, l.textSide, l.header
		if l.note != nil {
			bt.Note = &TextTruth{Text: l.note.S, Box: box(l.note.box())}
		}
	}
}
