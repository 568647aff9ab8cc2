package synth

import (
	"fmt"
	"strings"

	"github.com/plangraph/plangraph/internal/sheetmeta"
)

// mixedSheet draws a sheet decided by specSheet.
func (g *gen) mixedSheet(r *rng, idx int, sp *sheetSpec, all []*sheetSpec) *sheet {
	in := PageSizes[g.o.PageSize]
	sh := &sheet{Index: idx, Number: sp.number, Title: strings.Join(sp.titleLines, " "), v: sp.v,
		W: in[0] * 72, H: in[1] * 72, rev: g.tb.rev0}
	mx := &mixedInfo{kind: sp.kind, tbStyle: sp.tbStyle, numStyle: sp.numStyle, lang: sp.lang,
		titleLines: sp.titleLines, outlined: sp.outlined}
	if sp.numStyle == "ncs" {
		mx.discipline = sheetmeta.Discipline(sp.number)
	} else {
		mx.discipline = titleDiscipline(sh.Title)
	}
	sh.mx = mx
	margin := pick(r, []float64{36, 45, 54})
	sh.frame = rect{margin, margin, sh.W - margin, sh.H - margin}
	small := sh.W < 2000
	var tbr, draw, col rect // title block, drawing area, the column's area (iso)
	f := sh.frame
	switch sp.tbStyle {
	case "strip":
		h := 150.0
		if small {
			h = 130
		}
		tbr = rect{f.X0, f.Y1 - h, f.X1, f.Y1}
		draw = rect{f.X0, f.Y0, f.X1, tbr.Y0}.inset(20)
		mx.tbPos = "bottom"
	case "vertical":
		w := 230.0
		if small {
			w = 200
		}
		tbr = rect{f.X1 - w, f.Y0, f.X1, f.Y1}
		draw = rect{f.X0, f.Y0, tbr.X0, f.Y1}.inset(20)
		mx.tbPos = "right"
	default:
		w, h := 520.0, 200.0
		if small {
			w, h = 470, 180
		}
		tbr = rect{f.X1 - w, f.Y1 - h, f.X1, f.Y1}
		draw = f.inset(20)
		col = rect{tbr.X0 + 10, draw.Y0, draw.X1, tbr.Y0 - 24}
		mx.tbPos = "bottom_right"
	}
	mx.mkTB = g.titleBlockMaker(r, sp, tbr, sh.Number)
	mx.barR = round(r.rangef(15, 21), 1)
	mx.barTitle = round(r.rangef(12, 16), 1)
	mx.barScale = round(r.rangef(7.5, 9), 1)
	mx.scaleWord = r.chance(0.4)
	sh.size = round(r.rangef(14, 20), 2)
	sh.legLW = round(r.rangef(0.5, 0.9), 2)
	sh.symLW = round(r.rangef(0.4, 1.3), 2)
	switch sp.kind {
	case "cover":
		g.coverSheet(r, sh, sp, all, draw, col)
	case "schedule":
		g.scheduleSheet(r, sh, sp, draw, col)
	default:
		g.drawingSheet(r, sh, sp, draw, col)
	}
	sh.blocks = append(sh.blocks, mx.mkTB(sh.rev))
	return sh
}

// drawingSheet lays out a sheet of views: legends and notes in a column
// at one side, the views in the rest.
func (g *gen) drawingSheet(r *rng, sh *sheet, sp *sheetSpec, draw, col rect) {
	iso := !col.empty()
	colW := round(min(max(draw.W()*0.2, 270), 330), 0)
	if iso {
		colW = col.W()
	}
	maxW := min(draw.W()*0.4, colW*2.2)
	if iso {
		maxW = colW
	}
	legends, refs := g.mixedLegends(r, sh, sp, colW, maxW)
	column := append([]*block(nil), legends...)
	gn := append([]string(nil), generalNotes...)
	r.shuffle(len(gn), func(i, j int) { gn[i], gn[j] = gn[j], gn[i] })
	title := "GENERAL NOTES"
	if sp.lang == "de" {
		title = "ALLGEMEINE HINWEISE"
		gn = germanNotes
	}
	column = append(column, g.notes(r, "GeneralNotes", title, gn[:r.irange(3, min(6, len(gn)))], colW))
	optional := 0
	if r.chance(0.4) && sp.lang == "" {
		kn := append([]string(nil), keyedNotes...)
		r.shuffle(len(kn), func(i, j int) { kn[i], kn[j] = kn[j], kn[i] })
		column = append(column, g.notes(r, "KeyNotes", pick(r, []string{"KEYED NOTES", "KEY NOTES"}), kn[:r.irange(3, 5)], colW))
		optional++
	}
	if r.chance(0.35) && sp.lang == "" {
		t, h, rows := schedule(r, sp.v.Schedule)
		column = append(column, g.schedule(r, t, h, rows, colW))
		optional++
	}
	framed := r.chance(0.25)
	right := iso || r.chance(0.7)
	var area rect
	need := viewNeed(sp.views, g.o.PageSize)
	for {
		if iso {
			area = stackColumn(column, col, true)
			area = rect{draw.X0, draw.Y0, min(area.X1, col.X0-50), draw.Y1}
		} else {
			area = stackColumn(column, draw, right)
		}
		if (area.W() >= need[0] && area.H() >= need[1]) || optional == 0 {
			break
		}
		column = column[:len(column)-1]
		optional--
	}
	for _, b := range column {
		b.framed = framed
	}
	// the views come first among the blocks, then the column
	for _, e := range refs {
		e.Block += len(sp.views)
		sh.entries = append(sh.entries, e)
	}
	views := g.layoutViews(r, sh, sp, area)
	sh.blocks = append(sh.blocks, views...)
	sh.blocks = append(sh.blocks, column...)
}

// viewNeed is the smallest area (w, h) the views need.
func viewNeed(vs []viewSpec, page string) [2]float64 {
	w, h := 560.0, 480.0
	if len(vs) >= 2 {
		w, h = 1000, 480
	}
	if len(vs) >= 3 {
		w, h = 1000, 800
	}
	if page == "24x18" {
		w, h = w*0.85, h*0.85
	}
	return [2]float64{w, h}
}

// stackColumn stacks blocks top-down in columns from one side of area,
// left-aligned within each column, and returns what is left beside them.
func stackColumn(blocks []*block, area rect, right bool) rect {
	const gap = 28
	var cols [][]*block
	y := area.Y0
	for _, b := range blocks {
		if len(cols) == 0 || (y > area.Y0 && y+b.box.H() > area.Y1) {
			cols = append(cols, nil)
			y = area.Y0
		}
		cols[len(cols)-1] = append(cols[len(cols)-1], b)
		y += b.box.H() + gap
	}
	x := area.X0
	if right {
		x = area.X1
	}
	for _, c := range cols {
		w := 0.0
		for _, b := range c {
			w = max(w, b.box.W())
		}
		x0 := x
		if right {
			x0 = x - w
		}
		y := area.Y0
		for _, b := range c {
			b.translate(x0-b.box.X0, y-b.box.Y0)
			y += b.box.H() + gap
		}
		if right {
			x = x0 - gap
		} else {
			x = x0 + w + gap
		}
	}
	if right {
		return rect{area.X0, area.Y0, x - gap, area.Y1}
	}
	return rect{x + gap, area.Y0, area.X1, area.Y1}
}

// layoutViews splits area into cells, draws a view in each and, for close
// layouts, moves the views together.
func (g *gen) layoutViews(r *rng, sh *sheet, sp *sheetSpec, area rect) []*block {
	vs := sp.views
	n := len(vs)
	var rows [][]int
	switch {
	case n == 1:
		rows = [][]int{{0}}
	case n == 2 && area.W() >= area.H()*1.2:
		rows = [][]int{{0, 1}}
	case n == 2:
		rows = [][]int{{0}, {1}}
	case n == 3 && area.W() >= area.H()*2.2:
		rows = [][]int{{0, 1, 2}}
	case n == 3:
		rows = [][]int{{0, 1}, {2}}
	default:
		rows = [][]int{{0, 1}, {2, 3}}
	}
	weight := func(i int) float64 {
		switch vs[i].kind {
		case "Plan":
			return 1
		case "Detail":
			return 0.8
		}
		return 0.7
	}
	total := 0.0
	rw := make([]float64, len(rows))
	for k, row := range rows {
		for _, i := range row {
			rw[k] = max(rw[k], weight(i))
		}
		total += rw[k]
	}
	const cellGap = 30
	shared := len(rows) == 1 && n == 2 && vs[0].kind == "Plan" && vs[1].kind == "Plan" && r.chance(0.5)
	close := !shared && r.chance(0.5)
	gap := round(r.rangef(0.3, 0.6)*72, 1)
	out := make([]*block, n)
	y := area.Y0
	avH := area.H() - cellGap*float64(len(rows)-1)
	var firstPlan *plan
	for k, row := range rows {
		h := avH * rw[k] / total
		cw := (area.W() - cellGap*float64(len(row)-1)) / float64(len(row))
		for j, i := range row {
			cell := rect{area.X0 + float64(j)*(cw+cellGap), y, area.X0 + float64(j)*(cw+cellGap) + cw, y + h}
			num := fmt.Sprint(i + 1)
			switch vs[i].kind {
			case "Plan":
				var force *plan
				if shared && j == 1 {
					force = firstPlan
				}
				b := g.planView(r, sh, sp, cell, vs[i], num, shared, j, force, cw+cellGap)
				if firstPlan == nil {
					firstPlan = b.plan
				}
				out[i] = b
			case "Elevation":
				out[i] = g.elevationView(r, sh, sp, cell, vs[i], num, false)
			case "Section":
				out[i] = g.elevationView(r, sh, sp, cell, vs[i], num, true)
			default:
				out[i] = g.detailView(r, sh, sp, cell, vs[i], num)
			}
		}
		y += h + cellGap
	}
	if shared {
		g.joinGrids(sh, out[0], out[1])
	}
	if close {
		prevBottom := area.Y0 - gap
		for _, row := range rows {
			top := 1e9
			for _, i := range row {
				top = min(top, out[i].box.Y0)
			}
			if dy := prevBottom + gap - top; dy < 0 {
				for _, i := range row {
					moveView(g, sh, out[i], 0, dy)
				}
			}
			left := area.X0 - gap
			for _, i := range row {
				if dx := left + gap - out[i].box.X0; dx < 0 {
					moveView(g, sh, out[i], dx, 0)
				}
				left = out[i].box.X1
			}
			prevBottom = -1e9
			for _, i := range row {
				prevBottom = max(prevBottom, out[i].box.Y1)
			}
		}
	}
	return out
}

// moveView moves a view block and, for a plan, its data.
func moveView(g *gen, sh *sheet, b *block, dx, dy float64) {
	if b.plan == nil {
		b.translate(dx, dy)
		return
	}
	b.plan.translate(dx, dy)
	b.view = b.plan.view
	b.dl = g.emit(b.plan, sh)
	b.box = b.box.translate(dx, dy)
}

// translate moves a plan and everything placed on it.
func (p *plan) translate(dx, dy float64) {
	p.Bldg = p.Bldg.translate(dx, dy)
	walls := append([]wall(nil), p.Walls...)
	for i := range walls {
		w := &walls[i]
		along, across := dx, dy
		if !w.Horiz {
			along, across = dy, dx
		}
		w.C += across
		w.A += along
		w.B += along
		gaps := make([][2]float64, len(w.Gaps))
		for j, gp := range w.Gaps {
			gaps[j] = [2]float64{gp[0] + along, gp[1] + along}
		}
		w.Gaps = gaps
	}
	p.Walls = walls
	var doors []door
	for _, d := range p.Doors {
		along := dx
		if !p.Walls[d.Wall].Horiz {
			along = dy
		}
		d.G0 += along
		d.G1 += along
		doors = append(doors, d)
	}
	p.Doors = doors
	rooms := append([]room(nil), p.Rooms...)
	for i := range rooms {
		rm := &rooms[i]
		rm.R = rm.R.translate(dx, dy)
		rm.NameT = rm.NameT.translate(dx, dy)
		rm.NumT = rm.NumT.translate(dx, dy)
	}
	p.Rooms = rooms
	insts := append([]inst(nil), p.Insts...)
	for i := range insts {
		in := &insts[i]
		in.C = pt{in.C.X + dx, in.C.Y + dy}
		in.Box = in.Box.translate(dx, dy)
		if in.Suffix != nil {
			s := in.Suffix.translate(dx, dy)
			in.Suffix = &s
		}
		in.Line = [2]pt{{in.Line[0].X + dx, in.Line[0].Y + dy}, {in.Line[1].X + dx, in.Line[1].Y + dy}}
		texts := make([]textItem, len(in.Texts))
		for j, t := range in.Texts {
			texts[j] = t.translate(dx, dy)
		}
		in.Texts = texts
	}
	p.Insts = insts
	p.TitleT = p.TitleT.translate(dx, dy)
	p.ScaleT = p.ScaleT.translate(dx, dy)
	if p.view != nil {
		v := *p.view
		v.translate(dx, dy)
		p.view = &v
	}
	grid := make([]gridLine, len(p.grid))
	for i, gl := range p.grid {
		grid[i] = gridLine{A: pt{gl.A.X + dx, gl.A.Y + dy}, B: pt{gl.B.X + dx, gl.B.Y + dy}}
		for _, bb := range gl.bubbles {
			grid[i].bubbles = append(grid[i].bubbles, bb.translate(dx, dy))
		}
	}
	p.grid = grid
}
