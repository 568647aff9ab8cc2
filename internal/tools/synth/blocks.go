package synth

import "fmt"

// block is a region of a sheet and the drawing that fills it.
type block struct {
	Type, Title, Scale string
	dl                 dlist
	box                rect
	framed             bool
	entries            []legendEntry // Legend
	fields             []field       // TitleBlock
	plan               *plan         // Plan
	view               *viewBar      // a view's title bar (mixed), also plan.view
	leg                *legInfo      // a mixed legend's layout facts
	grid               []gridBubble  // grid bubbles drawn with a view (mixed)
	sharedGrid         bool
}

type legendEntry struct {
	Label, Desc   string
	Sym           *symbol
	Row, Graphic  rect
	LabelT, DescT textItem
	Kind          string // mixed: symbol, line or text
	Color         uint32 // mixed: rgbColor of a coloured graphic, 0 for black
}

type field struct {
	Key, Label, Value string
	LabelT, ValueT    textItem
	ValueR            rect // mixed: the value's box when it spans several lines
}

// fitBox sets the block's box from its drawing.
func (b *block) fitBox() { b.box = b.dl.bounds().pad(8) }

func (b *block) translate(dx, dy float64) {
	b.dl.translate(dx, dy)
	b.box = b.box.translate(dx, dy)
	for i := range b.entries {
		e := &b.entries[i]
		e.Row = e.Row.translate(dx, dy)
		e.Graphic = e.Graphic.translate(dx, dy)
		e.LabelT = e.LabelT.translate(dx, dy)
		e.DescT = e.DescT.translate(dx, dy)
	}
	if b.leg != nil && b.leg.note != nil {
		n := b.leg.note.translate(dx, dy)
		b.leg.note = &n
	}
	if b.view != nil && b.plan == nil {
		b.view.translate(dx, dy)
	}
	for i := range b.grid {
		b.grid[i] = b.grid[i].translate(dx, dy)
	}
}

// title draws a block heading with an underline and returns the y below it.
func (g *gen) heading(d *dlist, s string, size float64) float64 {
	t := g.m.text(s, 0, size*capHeight, size, true)
	d.text(t)
	d.line(pt{0, t.Y + 3}, pt{t.W, t.Y + 3}, 0.9)
	return t.Y + 3
}

// legend builds a legend block at the origin, width wide.
func (g *gen) legend(r *rng, title string, entries []legendEntry, width, size, lw float64) *block {
	b := &block{Type: "Legend", Title: title, entries: entries}
	d := &b.dl
	y := g.heading(d, title, r.rangef(10, 13)) + 10
	labelSize := r.rangef(7, 8.5)
	descSize := labelSize - r.rangef(0, 1)
	gw := max(size*2.2, 34)
	maxLab := 0.0
	for _, e := range entries {
		maxLab = max(maxLab, g.m.width(e.Label, labelSize, false))
	}
	labW := max(maxLab+12, 28)
	var gx, lx, dx float64
	if r.chance(0.3) { // label column first
		lx, gx, dx = 4, labW, labW+gw+6
	} else {
		gx, lx, dx = 0, gw+6, gw+labW+6
	}
	ruled := r.chance(0.4)
	top := y
	if r.chance(0.5) {
		hs := 6.5
		base := y + 4 + hs*capHeight
		d.text(g.m.textC("SYMBOL", gx+gw/2, base-hs*capHeight/2, hs, true))
		d.text(g.m.text("TAG", lx, base, hs, true))
		d.text(g.m.text("DESCRIPTION", dx, base, hs, true))
		y = base + 6
		d.line(pt{0, y}, pt{width, y}, 0.5)
	}
	rh := max(size*1.5, 20)
	for i := range b.entries {
		e := &b.entries[i]
		e.Row = rect{0, y, width, y + rh}
		cy := y + rh/2
		if e.Sym != nil {
			c := pt{gx + gw/2, cy}
			d.symbol(e.Sym, c, size/2, 0, lw)
			e.Graphic = e.Sym.box(c, size/2, 0, lw)
		}
		e.LabelT = g.m.text(e.Label, lx, cy+capHeight*labelSize/2, labelSize, false)
		ds := g.m.fit(e.Desc, width-dx-4, descSize, false)
		e.DescT = g.m.text(e.Desc, dx, cy+capHeight*ds/2, ds, false)
		d.text(e.LabelT)
		d.text(e.DescT)
		y += rh
		if ruled {
			d.line(pt{0, y}, pt{width, y}, 0.35)
		}
	}
	if ruled {
		d.rect(rect{0, top, width, y}, 0.7)
		cols := []float64{gx + gw, lx + labW - 4}
		if lx < gx {
			cols = []float64{labW, gx + gw}
		}
		for _, x := range cols {
			d.line(pt{x, top}, pt{x, y}, 0.35)
		}
	}
	b.fitBox()
	return b
}

// notes builds GENERAL NOTES (numbered) or KEYED NOTES (hexagon tags).
func (g *gen) notes(r *rng, typ, title string, notes []string, width float64) *block {
	b := &block{Type: typ, Title: title}
	d := &b.dl
	y := g.heading(d, title, r.rangef(10, 12)) + 8
	size := r.rangef(6.5, 8)
	lh := size * 1.35
	indent := 16.0
	if typ == "KeyNotes" {
		indent = 24
	}
	for i, n := range notes {
		lines := g.m.wrap(n, width-indent, size)
		base := y + size*capHeight + 4
		num := fmt.Sprint(i + 1)
		if typ == "KeyNotes" {
			c := pt{9, base - size*capHeight/2}
			var hex []pt
			for k := 0; k < 6; k++ {
				hex = append(hex, arcPoint(c, 8, float64(k*60)))
			}
			d.poly(hex, 0.6, "D")
			d.text(g.m.textC(num, c.X, c.Y, size*0.9, true))
		} else {
			d.text(g.m.text(num+".", 0, base, size, false))
		}
		for j, l := range lines {
			d.text(g.m.text(l, indent, base+float64(j)*lh, size, false))
		}
		y = base + float64(len(lines)-1)*lh + lh*0.6
	}
	b.fitBox()
	return b
}

// schedule builds a ruled table.
func (g *gen) schedule(r *rng, title string, head []string, rows [][]string, width float64) *block {
	b := &block{Type: "Schedule", Title: title}
	d := &b.dl
	y := g.heading(d, title, r.rangef(10, 12)) + 8
	size := 7.0
	widths := make([]float64, len(head))
	measure := func() float64 {
		t := 0.0
		for c := range head {
			widths[c] = g.m.width(head[c], size, true) + 10
			for _, row := range rows {
				widths[c] = max(widths[c], g.m.width(row[c], size, false)+10)
			}
			t += widths[c]
		}
		return t
	}
	total := measure()
	if total > width {
		size *= width / total
		total = measure()
	}
	widths[1] += width - total // the description column takes the slack
	rh := size * 2.1
	top := y
	all := append([][]string{head}, rows...)
	for i, row := range all {
		x := 0.0
		for c, cell := range row {
			d.text(g.m.text(cell, x+5, y+rh/2+size*capHeight/2, size, i == 0))
			x += widths[c]
		}
		y += rh
		lw := 0.35
		if i == 0 {
			lw = 0.8
		}
		d.line(pt{0, y}, pt{width, y}, lw)
	}
	d.rect(rect{0, top, width, y}, 0.9)
	x := 0.0
	for _, w := range widths[:len(widths)-1] {
		x += w
		d.line(pt{x, top}, pt{x, y}, 0.35)
	}
	b.fitBox()
	return b
}

// tbInfo holds the title block's text, chosen once per set.
type tbInfo struct {
	pos                                   string // right | bottom
	titleLabel, numberLabel, revLabel     string
	project, address, firm, firmLine      string
	projNo, date, revDate, drawn, checked string
	rev0, rev1                            string
}

// titleBlock builds the title block filling tb, with absolute coordinates.
func (g *gen) titleBlock(tb rect, in tbInfo, title, number, rev string) *block {
	b := &block{Type: "TitleBlock", box: tb}
	d := &b.dl
	d.rect(tb, 1.6)
	labelSize := 5.5
	// cell draws a labelled field in c: label at the top left, value near
	// the bottom as large as size allows, and an optional smaller line
	// under the value.
	cell := func(c rect, key, label, value string, size float64, bold bool, sub string) {
		d.rect(c, 0.6)
		f := field{Key: key, Label: label, Value: value}
		f.LabelT = g.m.text(label, c.X0+4, c.Y0+4+labelSize*capHeight, labelSize, false)
		vs := g.m.fit(value, c.W()-10, size, bold)
		base := c.Y1 - max(6, (c.H()-labelSize-8-vs*capHeight)/2)
		if sub != "" {
			base -= 9
			ss := g.m.fit(sub, c.W()-10, 6.5, false)
			d.text(g.m.text(sub, c.X0+5, base+10, ss, false))
		}
		f.ValueT = g.m.text(value, c.X0+5, base, vs, bold)
		d.text(f.LabelT)
		d.text(f.ValueT)
		b.fields = append(b.fields, f)
	}
	firm := func(c rect) {
		d.rect(c, 0.6)
		fs := g.m.fit(in.firm, c.W()-12, 11, true)
		t := g.m.textC(in.firm, c.center().X, c.center().Y-4, fs, true)
		d.text(t)
		ls := g.m.fit(in.firmLine, c.W()-12, 6, false)
		d.text(g.m.textC(in.firmLine, c.center().X, t.Y+10, ls, false))
	}
	small := []struct{ key, label, value string }{
		{"project_number", "PROJECT NO.", in.projNo}, {"date", "DATE", in.date},
		{"drawn_by", "DRAWN BY", in.drawn}, {"checked_by", "CHECKED BY", in.checked},
		{"revision", in.revLabel, rev}, {"scale", "SCALE", "AS NOTED"},
	}
	if in.pos == "right" {
		x0, x1, xm := tb.X0, tb.X1, (tb.X0+tb.X1)/2
		y := tb.Y1
		num := rect{x0, y - 92, x1, y}
		ttl := rect{x0, num.Y0 - 64, x1, num.Y0}
		y = ttl.Y0
		var rows []rect
		for i := 0; i < 3; i++ {
			rows = append([]rect{{x0, y - 34, x1, y}}, rows...)
			y -= 34
		}
		proj := rect{x0, y - 64, x1, y}
		firm(rect{x0, tb.Y0, x1, tb.Y0 + 90})
		cell(proj, "project", "PROJECT", in.project, 9, true, in.address)
		for i, s := range small {
			row := rows[i/2]
			c := rect{x0, row.Y0, xm, row.Y1}
			if i%2 == 1 {
				c = rect{xm, row.Y0, x1, row.Y1}
			}
			cell(c, s.key, s.label, s.value, 8, false, "")
		}
		cell(ttl, "sheet_title", in.titleLabel, title, 13, true, "")
		cell(num, "sheet_number", in.numberLabel, number, 34, true, "")
	} else {
		y0, y1 := tb.Y0, tb.Y1
		x := tb.X1
		num := rect{x - 190, y0, x, y1}
		ttl := rect{num.X0 - 330, y0, num.X0, y1}
		grid := rect{ttl.X0 - 280, y0, ttl.X0, y1}
		proj := rect{grid.X0 - 330, y0, grid.X0, y1}
		firm(rect{tb.X0, y0, tb.X0 + 240, y1})
		cell(proj, "project", "PROJECT", in.project, 9, true, in.address)
		rh := grid.H() / 3
		xm := (grid.X0 + grid.X1) / 2
		for i, s := range small {
			c := rect{grid.X0, y0 + float64(i/2)*rh, xm, y0 + float64(i/2+1)*rh}
			if i%2 == 1 {
				c.X0, c.X1 = xm, grid.X1
			}
			cell(c, s.key, s.label, s.value, 8, false, "")
		}
		cell(ttl, "sheet_title", in.titleLabel, title, 14, true, "")
		cell(num, "sheet_number", in.numberLabel, number, 36, true, "")
	}
	return b
}
