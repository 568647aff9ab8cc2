package synth

import (
	"fmt"
	"strings"
)

// Mixed title blocks: the classic bottom strip (with titles of several
// lines), a vertical strip of stacked cells along the right edge, and an
// ISO/A-series box in the bottom right corner (English or German labels).

// tbStyle holds a mixed title block's choices, fixed per sheet so that the
// revision redraws the same block with another revision mark.
type tbStyle struct {
	labelSize, titleSize, numSize float64
	revRows                       int
	revDesc                       [2]string
}

// titleBlockMaker fixes a sheet's title-block choices and returns its
// drawing function.
func (g *gen) titleBlockMaker(r *rng, sp *sheetSpec, tb rect, number string) func(rev string) *block {
	st := tbStyle{
		labelSize: round(r.rangef(5.5, 6.5), 1),
		titleSize: round(r.rangef(12, 16), 1),
		numSize:   round(r.rangef(26, 34), 0),
		revRows:   r.irange(3, 4),
		revDesc:   [2]string{pick(r, []string{"ISSUED FOR PERMIT", "ISSUED FOR BID", "DESIGN DEVELOPMENT"}), pick(r, []string{"ADDENDUM 1", "REVISED PER COMMENTS", "ISSUED FOR CONSTRUCTION"})},
	}
	return func(rev string) *block {
		switch sp.tbStyle {
		case "vertical":
			return g.verticalTB(tb, st, sp, number, rev)
		case "iso":
			return g.isoTB(tb, st, sp, number, rev)
		}
		return g.stripTB(tb, st, sp, number, rev)
	}
}

// tbCell draws a labelled field: the label small at the cell's top left,
// the value's lines under it, as large as size allows.
func (g *gen) tbCell(b *block, c rect, st tbStyle, key, label string, lines []string, size float64, bold bool, sub string) {
	d := &b.dl
	d.rect(c, 0.6)
	f := field{Key: key, Label: label, Value: strings.Join(lines, " ")}
	top := c.Y0 + 4
	if label != "" {
		f.LabelT = g.m.text(label, c.X0+4, c.Y0+4+st.labelSize*capHeight, st.labelSize, false)
		d.text(f.LabelT)
		top = f.LabelT.Y + 4
	}
	bottom := c.Y1 - 5
	if sub != "" {
		bottom -= 10
	}
	vs := size
	for _, l := range lines {
		vs = min(vs, g.m.fit(l, c.W()-10, size, bold))
	}
	n := float64(len(lines))
	lh := vs * 1.2
	for vs > 5 && (n-1)*lh+vs*capHeight > bottom-top {
		vs -= 0.5
		lh = vs * 1.2
	}
	h := (n-1)*lh + vs*capHeight
	base := top + (bottom-top-h)/2 + vs*capHeight
	f.ValueR = emptyRect()
	for i, l := range lines {
		t := g.m.text(l, c.X0+5, base+float64(i)*lh, vs, bold)
		if i == 0 {
			f.ValueT = t
		}
		f.ValueR = f.ValueR.union(t.box())
		d.text(t)
	}
	if len(lines) == 1 {
		f.ValueR = rect{}
	}
	if sub != "" {
		ss := g.m.fit(sub, c.W()-10, 6.5, false)
		d.text(g.m.text(sub, c.X0+5, c.Y1-6, ss, false))
	}
	b.fields = append(b.fields, f)
}

func (g *gen) firmCell(d *dlist, c rect) {
	d.rect(c, 0.6)
	fs := g.m.fit(g.tb.firm, c.W()-12, 11, true)
	t := g.m.textC(g.tb.firm, c.center().X, c.center().Y-4, fs, true)
	d.text(t)
	ls := g.m.fit(g.tb.firmLine, c.W()-12, 6.5, false)
	d.text(g.m.textC(g.tb.firmLine, c.center().X, t.Y+10, ls, false))
}

// stripTB is the classic bottom strip with a title of several lines.
func (g *gen) stripTB(tb rect, st tbStyle, sp *sheetSpec, number, rev string) *block {
	b := &block{Type: "TitleBlock", box: tb}
	d := &b.dl
	d.rect(tb, 1.6)
	in := g.tb
	y0, y1 := tb.Y0, tb.Y1
	x := tb.X1
	num := rect{x - 200, y0, x, y1}
	ttl := rect{num.X0 - 330, y0, num.X0, y1}
	grid := rect{ttl.X0 - 280, y0, ttl.X0, y1}
	proj := rect{grid.X0 - 300, y0, grid.X0, y1}
	g.firmCell(d, rect{tb.X0, y0, max(tb.X0+200, proj.X0-0), y1})
	g.tbCell(b, proj, st, "project", "PROJECT", []string{in.project}, 9, true, in.address)
	small := []struct{ key, label, value string }{
		{"project_number", "PROJECT NO.", in.projNo}, {"date", "DATE", in.date},
		{"drawn_by", "DRAWN BY", in.drawn}, {"checked_by", "CHECKED BY", in.checked},
		{"revision", in.revLabel, rev}, {"scale", "SCALE", "AS NOTED"},
	}
	rh := grid.H() / 3
	xm := (grid.X0 + grid.X1) / 2
	for i, s := range small {
		c := rect{grid.X0, y0 + float64(i/2)*rh, xm, y0 + float64(i/2+1)*rh}
		if i%2 == 1 {
			c.X0, c.X1 = xm, grid.X1
		}
		g.tbCell(b, c, st, s.key, s.label, []string{s.value}, 8, false, "")
	}
	g.tbCell(b, ttl, st, "sheet_title", in.titleLabel, sp.titleLines, st.titleSize, true, "")
	g.tbCell(b, num, st, "sheet_number", in.numberLabel, []string{number}, st.numSize+4, true, "")
	return b
}

// verticalTB stacks ruled cells along the right edge: the firm and the
// project set on end, a revision table, the small fields, the title and
// the sheet number under a small SHEET label.
func (g *gen) verticalTB(tb rect, st tbStyle, sp *sheetSpec, number, rev string) *block {
	b := &block{Type: "TitleBlock", box: tb}
	d := &b.dl
	d.rect(tb, 1.6)
	in := g.tb
	x0, x1 := tb.X0, tb.X1
	W := tb.W()
	numC := rect{x0, tb.Y1 - 96, x1, tb.Y1}
	ttlC := rect{x0, numC.Y0 - 86, x1, numC.Y0}
	fieldsC := rect{x0, ttlC.Y0 - 2*34, x1, ttlC.Y0}
	revC := rect{x0, fieldsC.Y0 - float64(st.revRows+1)*15 - 6, x1, fieldsC.Y0}
	rest := revC.Y0 - tb.Y0
	firmC := rect{x0, tb.Y0, x1, tb.Y0 + rest*0.45}
	projC := rect{x0, firmC.Y1, x1, revC.Y0}
	// firm, set on end, reading bottom to top
	d.rect(firmC, 0.6)
	vert := func(s string, cx, cy, size float64, bold bool) textItem {
		w := g.m.width(s, size, bold)
		return textItem{S: s, X: cx + capHeight*size/2, Y: cy + w/2, Size: size, Bold: bold, Rot: 90, W: w}
	}
	fs := g.m.fit(in.firm, firmC.H()-24, 16, true)
	cx := firmC.X0 + W*0.3
	d.text(vert(in.firm, cx, firmC.center().Y, fs, true))
	ls := g.m.fit(in.firmLine, firmC.H()-24, 8, false)
	d.text(vert(in.firmLine, cx+fs*0.9+4, firmC.center().Y, ls, false))
	addr := "1200 MAIN STREET  SUITE 300  (555) 201-4400"
	as := g.m.fit(addr, firmC.H()-24, 8, false)
	d.text(vert(addr, cx+fs*0.9+ls*1.3+8, firmC.center().Y, as, false))
	// project name in large type, set on end; no label
	d.rect(projC, 0.6)
	ps := g.m.fit(in.project, projC.H()-24, 20, true)
	pt0 := vert(in.project, projC.X0+W*0.38, projC.center().Y, ps, true)
	d.text(pt0)
	pa := g.m.fit(in.address, projC.H()-24, 8, false)
	d.text(vert(in.address, projC.X0+W*0.38+ps*0.9+6, projC.center().Y, pa, false))
	b.fields = append(b.fields, field{Key: "project", Value: in.project, ValueT: pt0})
	// revision table
	d.rect(revC, 0.6)
	hs := st.labelSize
	rowH := 15.0
	cols := []float64{x0, x0 + 34, x0 + 96, x1}
	heads := []string{"REV", "DATE", "DESCRIPTION"}
	hy := revC.Y0 + 4 + hs*capHeight + 2
	var headT []textItem
	for i, h := range heads {
		t := g.m.text(h, cols[i]+4, hy, hs, true)
		headT = append(headT, t)
		d.text(t)
	}
	ty := revC.Y0 + rowH + 2
	d.line(pt{x0, ty}, pt{x1, ty}, 0.5)
	for k := 1; k <= st.revRows; k++ {
		d.line(pt{x0, ty + float64(k)*rowH}, pt{x1, ty + float64(k)*rowH}, 0.3)
	}
	for _, c := range cols[1:3] {
		d.line(pt{c, revC.Y0}, pt{c, revC.Y1}, 0.3)
	}
	revs := []string{g.tb.rev0}
	dates := []string{in.date}
	if rev != g.tb.rev0 {
		revs = append(revs, rev)
		dates = append(dates, in.revDate)
	}
	var last textItem
	for k, rv := range revs {
		base := ty + float64(k)*rowH + rowH/2 + 6.5*capHeight/2
		last = g.m.text(rv, cols[0]+4, base, 6.5, false)
		d.text(last)
		d.text(g.m.text(dates[k], cols[1]+4, base, g.m.fit(dates[k], cols[2]-cols[1]-6, 6.5, false), false))
		desc := st.revDesc[k]
		d.text(g.m.text(desc, cols[2]+4, base, g.m.fit(desc, cols[3]-cols[2]-6, 6.5, false), false))
	}
	b.fields = append(b.fields, field{Key: "revision", Label: "REV", Value: rev, LabelT: headT[0], ValueT: last})
	// DATE / DRAWN / JOB / SCALE
	xm := (x0 + x1) / 2
	small := []struct{ key, label, value string }{
		{"date", "DATE", in.date}, {"drawn_by", "DRAWN", in.drawn},
		{"project_number", "JOB", in.projNo}, {"scale", "SCALE", "AS NOTED"},
	}
	for i, s := range small {
		c := rect{x0, fieldsC.Y0 + float64(i/2)*34, xm, fieldsC.Y0 + float64(i/2+1)*34}
		if i%2 == 1 {
			c.X0, c.X1 = xm, x1
		}
		g.tbCell(b, c, st, s.key, s.label, []string{s.value}, 8, false, "")
	}
	// unlabelled title, centred
	d.rect(ttlC, 0.6)
	f := field{Key: "sheet_title", Value: strings.Join(sp.titleLines, " "), ValueR: emptyRect()}
	ts := st.titleSize
	for _, l := range sp.titleLines {
		ts = min(ts, g.m.fit(l, ttlC.W()-14, st.titleSize, true))
	}
	lh := ts * 1.2
	n := float64(len(sp.titleLines))
	base := ttlC.center().Y - ((n-1)*lh+ts*capHeight)/2 + ts*capHeight
	for i, l := range sp.titleLines {
		t := g.m.textC(l, ttlC.center().X, 0, ts, true)
		t.Y = base + float64(i)*lh
		if i == 0 {
			f.ValueT = t
		}
		f.ValueR = f.ValueR.union(t.box())
		d.text(t)
	}
	if len(sp.titleLines) == 1 {
		f.ValueR = rect{}
	}
	b.fields = append(b.fields, f)
	// SHEET over the number
	d.rect(numC, 0.6)
	lab := g.m.textC("SHEET", numC.center().X, numC.Y0+12, 7, false)
	d.text(lab)
	ns := g.m.fit(number, numC.W()-16, st.numSize, true)
	nt := g.m.textC(number, numC.center().X, (lab.Y+numC.Y1)/2+2, ns, true)
	d.text(nt)
	b.fields = append(b.fields, field{Key: "sheet_number", Label: "SHEET", Value: number, LabelT: lab, ValueT: nt})
	return b
}

// isoTB is an A-series title box in the bottom right corner: small labels
// at each cell's top left, values under them.
func (g *gen) isoTB(tb rect, st tbStyle, sp *sheetSpec, number, rev string) *block {
	b := &block{Type: "TitleBlock", box: tb}
	d := &b.dl
	d.rect(tb, 1.6)
	in := g.tb
	L := map[string]string{"project": "Project", "sheet_title": "Drawing Title", "sheet_number": "Drawing Number", "revision": "Revision",
		"scale": "Scale", "date": "Date", "drawn_by": "Drawn By", "checked_by": "Checked By"}
	date := in.date
	if sp.lang == "de" {
		L = map[string]string{"project": "Projekt", "sheet_title": "Planinhalt", "sheet_number": "Plan-Nr.", "revision": "Index",
			"scale": "Maßstab", "date": "Datum", "drawn_by": "Gezeichnet", "checked_by": "Geprüft"}
		p := strings.Split(in.date, "/")
		date = fmt.Sprintf("%s.%s.%s", p[1], p[0], p[2])
	}
	scale := "AS SHOWN"
	if sp.metric {
		scale = "1:100"
		if sp.lang == "de" {
			scale = "1:100 / 1:10"
		}
	}
	W, H := tb.W(), tb.H()
	r1 := tb.Y0 + H*0.3
	r2 := r1 + H*0.3
	r3 := r2 + H*0.22
	xh := tb.X0 + W*0.42
	g.firmCell(d, rect{tb.X0, tb.Y0, xh, r1})
	g.tbCell(b, rect{xh, tb.Y0, tb.X1, r1}, st, "project", L["project"], []string{in.project}, 10, true, in.address)
	g.tbCell(b, rect{tb.X0, r1, tb.X1, r2}, st, "sheet_title", L["sheet_title"], sp.titleLines, st.titleSize, true, "")
	xr := tb.X1 - W*0.16
	g.tbCell(b, rect{tb.X0, r2, xr, r3}, st, "sheet_number", L["sheet_number"], []string{number}, st.numSize, true, "")
	g.tbCell(b, rect{xr, r2, tb.X1, r3}, st, "revision", L["revision"], []string{rev}, 14, true, "")
	small := []struct{ key, value string }{{"scale", scale}, {"date", date}, {"drawn_by", in.drawn}, {"checked_by", in.checked}}
	cw := W / 4
	for i, s := range small {
		c := rect{tb.X0 + float64(i)*cw, r3, tb.X0 + float64(i+1)*cw, tb.Y1}
		g.tbCell(b, c, st, s.key, L[s.key], []string{s.value}, 8.5, false, "")
	}
	return b
}
