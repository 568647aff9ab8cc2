package synth

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"

	goimage "image"
)

// Cover and schedule-only sheets (mixed conventions).

var germanNotes = []string{
	"Alle Maße sind vor Ausführung am Bau zu prüfen.",
	"Ausführung nach DIN EN 62305 und VDE 0185-305.",
	"Anschlüsse an Metallteile sind korrosionsgeschützt auszuführen.",
	"Abstände der Leitungshalter max. 1,0 m.",
	"Trennstellen sind dauerhaft zu kennzeichnen.",
	"Änderungen nur nach Rücksprache mit dem Planer.",
}

// coverSheet draws the project name, a rendering, project data and the
// sheet index.
func (g *gen) coverSheet(r *rng, sh *sheet, sp *sheetSpec, all []*sheetSpec, draw, col rect) {
	area := draw
	if !col.empty() {
		area.X1 = col.X0 - 30
	}
	// the index and the project data in a column at the right
	var rows [][]string
	for _, o := range all {
		rows = append(rows, []string{o.number, o.title})
	}
	colW := round(min(max(area.W()*0.3, 380), 520), 0)
	if !col.empty() {
		colW = col.W()
	}
	idx := g.schedule(r, "SHEET INDEX", []string{"SHEET", "TITLE"}, rows, colW)
	data := []string{
		"OCCUPANCY: " + pick(r, []string{"B (BUSINESS)", "E (EDUCATIONAL)", "A-3 (ASSEMBLY)", "R-2 (RESIDENTIAL)"}),
		"CONSTRUCTION TYPE: " + pick(r, []string{"V-B", "II-B", "III-A"}),
		"SPRINKLERED: " + pick(r, []string{"YES, NFPA 13", "NO"}),
		fmt.Sprintf("GROSS FLOOR AREA: %d,%03d SF", r.irange(4, 48), r.irange(0, 999)),
		fmt.Sprintf("NUMBER OF STORIES: %d", r.irange(1, 3)),
		"ZONING: " + pick(r, []string{"C-2", "B-1", "MU-3", "R-4"}),
		"CODE: " + pick(r, []string{"2021 IBC", "2018 IBC", "2022 CBC"}),
	}
	pd := g.notes(r, "SheetNotes", "PROJECT DATA", data, colW)
	column := []*block{idx, pd}
	var rest rect
	if !col.empty() {
		rest = stackColumn(column, col, true)
		rest = rect{area.X0, area.Y0, area.X1, area.Y1}
	} else {
		rest = stackColumn(column, area, true)
	}
	// project name, address, firm at the top left
	var head dlist
	ps := g.m.fit(g.tb.project, rest.W()-40, 30, true)
	t := g.m.text(g.tb.project, rest.X0+10, rest.Y0+ps*capHeight+10, ps, true)
	head.text(t)
	as := g.m.fit(g.tb.address, rest.W()-40, 14, false)
	a := g.m.text(g.tb.address, rest.X0+10, t.Y+16+as*capHeight, as, false)
	head.text(a)
	// rendering in a frame
	fr := rect{rest.X0 + 10, a.Y + 40, rest.X1 - 10, rest.Y1 - 10}
	if fr.W() > fr.H()*1.6 {
		w := fr.H() * 1.6
		fr.X1 = fr.X0 + w
	}
	img := &block{Type: "Diagram", Title: "RENDERING"}
	img.dl.add(op{k: opImage, r: fr.inset(6), img: &image{name: fmt.Sprintf("render-%d-%d", g.o.Seed, sh.Index), png: rendering(r, int(fr.W()/2), int(fr.H()/2))}})
	img.dl.rect(fr, 1.2)
	img.fitBox()
	// the heading has no block of its own: it reads as the sheet's title
	name := &block{Type: "SheetNotes", Title: g.tb.project, dl: head}
	name.fitBox()
	sh.blocks = append(sh.blocks, name, img)
	sh.blocks = append(sh.blocks, column...)
}

// rendering paints a small perspective-like picture: sky, ground and a
// building massing in flat colours, with a little noise.
func rendering(r *rng, w, h int) []byte {
	w, h = max(w, 40), max(h, 30)
	im := goimage.NewRGBA(goimage.Rect(0, 0, w, h))
	horizon := int(float64(h) * r.rangef(0.55, 0.7))
	bx0, bx1 := int(float64(w)*r.rangef(0.1, 0.3)), int(float64(w)*r.rangef(0.6, 0.9))
	top := int(float64(horizon) * r.rangef(0.25, 0.5))
	vx := float64(w) * r.rangef(0.3, 0.7)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var c color.RGBA
			switch {
			case y < horizon:
				k := float64(y) / float64(horizon)
				c = color.RGBA{uint8(120 + 80*k), uint8(160 + 60*k), uint8(220 + 20*k), 255}
			default:
				c = color.RGBA{90, uint8(130 + (y*7)%20), 70, 255}
			}
			// the building: a box whose roof line falls towards the vanishing point
			if x >= bx0 && x <= bx1 {
				f := (float64(x) - vx) / float64(w)
				roof := float64(top) + math.Abs(f)*float64(horizon-top)*0.3
				if float64(y) >= roof && y <= horizon+int(float64(h-horizon)*0.15) {
					shade := uint8(200)
					if float64(x) > vx {
						shade = 160
					}
					c = color.RGBA{shade, shade - 10, shade - 30, 255}
					if (x/7)%3 == 0 && (y/9)%2 == 0 && y < horizon {
						c = color.RGBA{60, 80, 110, 255}
					}
				}
			}
			im.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, im); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// scheduleSheet fills a sheet with schedules and general notes.
func (g *gen) scheduleSheet(r *rng, sh *sheet, sp *sheetSpec, draw, col rect) {
	area := draw
	if !col.empty() {
		area.X1 = col.X0 - 30
	}
	colW := round(min(max(area.W()*0.28, 360), 480), 0)
	var blocks []*block
	kinds := []string{sp.v.Schedule, "A", "E", "M", "P", "FP", "S"}
	seen := map[string]bool{}
	for _, k := range kinds {
		if seen[k] || len(blocks) >= r.irange(3, 5) {
			continue
		}
		seen[k] = true
		t, h, rows := schedule(r, k)
		blocks = append(blocks, g.schedule(r, t, h, rows, colW))
	}
	gn := append([]string(nil), generalNotes...)
	r.shuffle(len(gn), func(i, j int) { gn[i], gn[j] = gn[j], gn[i] })
	blocks = append(blocks, g.notes(r, "GeneralNotes", "GENERAL NOTES", gn[:r.irange(3, 6)], colW))
	stackColumn(blocks, area, false)
	sh.blocks = append(sh.blocks, blocks...)
}
