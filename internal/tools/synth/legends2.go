package synth

import (
	"fmt"
	"math"
)

// Mixed legends: several titles, one to three columns, text right or left
// of the graphic, ruled tables with a header row, a note line, coloured
// graphics, callouts (letters in the graphic, other letters on each
// instance) and line-style entries.

// legInfo is what a mixed legend records for the truth.
type legInfo struct {
	cols     int
	textSide string
	header   []string
	note     *textItem
}

// callout and line symbols, and a German lightning-protection set; they
// are not part of the classic library.
var mixedLib = func() []*symbol {
	m := newMeasurer()
	dash := func(x0, x1, y, on, off float64) []prim {
		var out []prim
		for x := x0; x < x1; x += on + off {
			out = append(out, ln(x, y, math.Min(x+on, x1), y))
		}
		return out
	}
	var hatchP []prim
	for x := -1.0; x+.24 <= 1; x += 0.14 {
		hatchP = append(hatchP, ln(x, .12, x+.24, -.12))
	}
	var crosses []prim
	for x := -.75; x < 1; x += .5 {
		crosses = append(crosses, ln(x-.06, -.1, x+.06, .1), ln(x-.06, .1, x+.06, -.1))
	}
	lib := []*symbol{
		{Key: "section_marker", Labels: []string{"SEC", "SM"}, Desc: "BUILDING SECTION MARKER", Tags: []string{"callout"}, upright: true,
			prims: cat(circ(-.25, 0, .7, false), ln(-.95, 0, .45, 0), txt("X", -.25, -.33, .46), txt("A#", -.25, .35, .38), poly(true, .42, -.5, 1, 0, .42, .5))},
		{Key: "detail_marker", Labels: []string{"DET", "DM"}, Desc: "DETAIL REFERENCE", Tags: []string{"callout"}, upright: true,
			prims: cat(circ(0, 0, .72, false), ln(-.72, 0, .72, 0), txt("X", 0, -.33, .46), txt("A#", 0, .35, .38), ln(.51, -.51, .95, -.95))},
		{Key: "elevation_marker", Labels: []string{"ELV", "EM1"}, Desc: "EXTERIOR ELEVATION MARKER", Tags: []string{"callout"}, upright: true,
			prims: cat(circ(0, .25, .68, false), ln(-.68, .25, .68, .25), txt("X", 0, -.08, .42), txt("A#", 0, .56, .34), poly(true, -.5, -.3, 0, -1, .5, -.3))},
		{Key: "wall_new", Labels: []string{"W1"}, Desc: "NEW 2X4 STUD WALL", Tags: []string{"line", "A", "S"},
			prims: cat(ln(-1, -.12, 1, -.12), ln(-1, .12, 1, .12), hatchP)},
		{Key: "wall_rated", Labels: []string{"W2"}, Desc: "1-HOUR RATED WALL ASSEMBLY", Tags: []string{"line", "A"},
			prims: cat(box(-1, -.12, 1, .12, true))},
		{Key: "wall_existing", Labels: []string{"EX", "W3"}, Desc: "EXISTING WALL TO REMAIN", Tags: []string{"line", "A", "S"},
			prims: cat(ln(-1, -.12, 1, -.12), ln(-1, .12, 1, .12))},
		{Key: "wall_demo", Labels: []string{"DEMO", "D1"}, Desc: "WALL TO BE REMOVED", Tags: []string{"line", "A"},
			prims: cat(dash(-1, 1, -.12, .2, .1), dash(-1, 1, .12, .2, .1))},
		{Key: "conduit_concealed", Labels: []string{"CC", "C1"}, Desc: "CONDUIT CONCEALED IN WALL OR CEILING", Tags: []string{"line", "E", "T", "FA"},
			prims: cat(ln(-1, 0, 1, 0))},
		{Key: "conduit_below", Labels: []string{"UG", "C2"}, Desc: "CONDUIT BELOW SLAB", Tags: []string{"line", "E", "T"},
			prims: cat(dash(-1, 1, 0, .24, .12))},
		{Key: "pipe_hidden", Labels: []string{"HP", "P2"}, Desc: "PIPING BELOW FLOOR", Tags: []string{"line", "P", "M", "FP"},
			prims: cat(dash(-1, 1, 0, .3, .12))},
		{Key: "fangleitung", Labels: []string{"FL"}, Desc: "Fangleitung auf Dach", Tags: []string{"line", "BL"},
			prims: cat(ln(-1, 0, 1, 0), crosses)},
		{Key: "ableitung_linie", Labels: []string{"AB"}, Desc: "Ableitung, verdeckt", Tags: []string{"line", "BL"},
			prims: cat(dash(-1, 1, 0, .24, .12))},
		{Key: "ringerder", Labels: []string{"RE"}, Desc: "Ringerder im Erdreich", Tags: []string{"line", "BL"},
			prims: cat(dash(-1, -.62, 0, .38, 0), ln(-.52, 0, -.46, 0), dash(-.36, .02, 0, .38, 0), ln(.12, 0, .18, 0), dash(.28, 1, 0, .38, 0))},
		{Key: "fangstange", Labels: []string{"FS"}, Desc: "Fangstange mit Betonsockel", Tags: []string{"BL"},
			prims: cat(circ(0, 0, .55, false), circ(0, 0, .18, true), ln(0, -.55, 0, -1), ln(-.3, -.8, .3, -.8))},
		{Key: "trennstelle", Labels: []string{"TS"}, Desc: "Trennstelle", Tags: []string{"BL"},
			prims: cat(box(-.6, -.6, .6, .6, false), ln(-1, 0, -.6, 0), ln(.6, 0, 1, 0), ln(-.6, .6, .6, -.6))},
		{Key: "erdungsanschluss", Labels: []string{"E", "EA"}, Desc: "Erdungsanschluss", Tags: []string{"BL"},
			prims: cat(ln(0, -1, 0, 0), ln(-.8, 0, .8, 0), ln(-.5, .35, .5, .35), ln(-.2, .7, .2, .7))},
		{Key: "ableitung", Labels: []string{"AL"}, Desc: "Ableitung nach unten", Tags: []string{"BL"},
			prims: cat(circ(0, 0, .65, false), poly(true, -.35, -.15, .35, -.15, 0, .45))},
		{Key: "dachdurchfuehrung", Labels: []string{"DD"}, Desc: "Dachdurchführung", Tags: []string{"BL"},
			prims: cat(circ(0, 0, .7, false), ln(-.5, -.5, .5, .5), ln(-.5, .5, .5, -.5))},
		{Key: "anschlussfahne", Labels: []string{"AF"}, Desc: "Anschlussfahne", Tags: []string{"BL"},
			prims: cat(poly(true, -.7, .6, .7, .6, 0, -.7))},
		{Key: "pas", Labels: []string{"PAS"}, Desc: "Potentialausgleichsschiene", Tags: []string{"BL"},
			prims: cat(box(-1, -.35, 1, .35, false), circ(-.55, 0, .12, true), circ(0, 0, .12, true), circ(.55, 0, .12, true))},
		{Key: "fangspitze", Labels: []string{"FSP"}, Desc: "Fangspitze", Tags: []string{"BL"},
			prims: cat(poly(false, -.45, .75, 0, -.9, .45, .75), ln(-.7, .75, .7, .75))},
	}
	for _, s := range lib {
		for i := range s.prims {
			if p := &s.prims[i]; p.k == pText {
				p.w = m.width(p.s, 1, true)
			}
		}
	}
	return lib
}()

func mixedSyms(tag string) []*symbol {
	var out []*symbol
	for _, s := range mixedLib {
		if hasAny(s.Tags, []string{tag}) && (tag == "line" || !hasAny(s.Tags, []string{"line"})) {
			out = append(out, s)
		}
	}
	return out
}

var palette = []uint32{0xd000d0, 0xe00000, 0x0040e0, 0x009000}

var germanText = [][2]string{{"OK FFB", "Oberkante Fertigfußboden"}, {"BL", "Blitzschutz"}, {"NA", "nach Angabe Hersteller"}, {"V4A", "Edelstahl, Werkstoff 1.4571"}}

// mixedLegends makes a drawing sheet's legends and the references its
// instances use (Block is the legend's index among the legends).
func (g *gen) mixedLegends(r *rng, sh *sheet, sp *sheetSpec, colW, maxW float64) ([]*block, []entryRef) {
	de := sp.lang == "de"
	var pool, lines []*symbol
	if de {
		pool = mixedSyms("BL")
		for _, s := range mixedSyms("line") {
			if hasAny(s.Tags, []string{"BL"}) {
				lines = append(lines, s)
			}
		}
	} else {
		for _, s := range g.lib {
			if hasAny(s.Tags, sp.v.Tags) {
				pool = append(pool, s)
			}
		}
		for _, s := range mixedSyms("line") {
			if hasAny(s.Tags, sp.v.Tags) || hasAny(s.Tags, []string{sp.code}) {
				lines = append(lines, s)
			}
		}
	}
	r.shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	r.shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	if !de && (sp.code == "A" || sp.code == "S" || r.chance(0.25)) {
		co := mixedSyms("callout")
		r.shuffle(len(co), func(i, j int) { co[i], co[j] = co[j], co[i] })
		pool = append(co[:r.irange(1, 3)], pool...)
	}
	texts := append([][2]string(nil), textOnlyEntries...)
	if de {
		texts = append([][2]string(nil), germanText...)
	}
	r.shuffle(len(texts), func(i, j int) { texts[i], texts[j] = texts[j], texts[i] })
	nLeg := 1
	if !de && len(pool) >= 12 && r.chance(0.25) {
		nLeg = 2
	}
	colored := de || r.chance(0.15)
	labels := map[string]bool{}
	titles := []string{"LEGEND", "SYMBOLS", "ELECTRICAL SYMBOLS", "KEY", "SYMBOL LIST", "SYMBOL LEGEND"}
	if sp.code != "E" {
		titles = []string{"LEGEND", "SYMBOLS", "KEY", "SYMBOL LIST", "SYMBOL LEGEND"}
	}
	r.shuffle(len(titles), func(i, j int) { titles[i], titles[j] = titles[j], titles[i] })
	var blocks []*block
	var refs []entryRef
	for l := 0; l < nLeg; l++ {
		nSym := min(len(pool), r.irange(5, 12))
		if nLeg == 2 && l == 0 {
			nSym = min(nSym, len(pool)-5)
		}
		var es []legendEntry
		for k, s := range pool[:nSym] {
			e := legendEntry{Label: freeLabel(labels, s.Labels), Desc: s.Desc, Sym: s, Kind: "symbol"}
			if colored {
				e.Color = rgbColor(palette[(k+l)%len(palette)])
			}
			es = append(es, e)
		}
		pool = pool[nSym:]
		if l == 0 && len(lines) > 0 && r.chance(0.55) {
			n := min(len(lines), r.irange(1, 3))
			for k, s := range lines[:n] {
				e := legendEntry{Label: freeLabel(labels, s.Labels), Desc: s.Desc, Sym: s, Kind: "line"}
				if colored {
					e.Color = rgbColor(palette[(k+2)%len(palette)])
				}
				at := r.intn(len(es) + 1)
				es = append(es[:at], append([]legendEntry{e}, es[at:]...)...)
			}
		}
		for k, n := 0, r.irange(0, 2); k < n && len(texts) > 0; k++ {
			t := texts[0]
			texts = texts[1:]
			if labels[t[0]] {
				continue
			}
			labels[t[0]] = true
			at := r.intn(len(es) + 1)
			es = append(es[:at], append([]legendEntry{{Label: t[0], Desc: t[1], Kind: "text"}}, es[at:]...)...)
		}
		title := titles[l]
		if de {
			title = "Legende"
		}
		b := g.legendM(r, title, es, sp, colW, maxW, sh.size, sh.legLW)
		for k, e := range b.entries {
			if e.Kind == "symbol" {
				refs = append(refs, entryRef{Block: l, Entry: k, Sym: e.Sym, Label: e.Label, Color: e.Color})
			}
		}
		blocks = append(blocks, b)
	}
	return blocks, refs
}

// legendM draws a mixed legend at the origin.
func (g *gen) legendM(r *rng, title string, es []legendEntry, sp *sheetSpec, colW, maxW, size, lw float64) *block {
	de := sp.lang == "de"
	b := &block{Type: "Legend", Title: title, entries: es, leg: &legInfo{textSide: "right"}}
	d := &b.dl
	y := g.heading(d, title, r.rangef(10, 13)) + 10
	labelSize := round(r.rangef(7, 8.5), 1)
	descSize := labelSize - round(r.rangef(0, 1), 1)
	gw := max(size*2.2, 34)
	labW := 28.0
	descW := 0.0
	for _, e := range es {
		labW = max(labW, g.m.width(e.Label, labelSize, false)+12)
		descW = max(descW, g.m.width(e.Desc, descSize, false)+8)
	}
	left := r.chance(0.35)
	if left {
		b.leg.textSide = "left"
	}
	table := r.chance(0.35)
	cols := 1
	if len(es) >= 8 && r.chance(0.5) {
		cols = 2
		if len(es) >= 12 && r.chance(0.4) {
			cols = 3
		}
	}
	const colGap = 18
	per := func(c int) float64 { return (maxW - float64(c-1)*colGap) / float64(c) }
	natural := gw + 6 + labW + descW
	for cols > 1 && per(cols) < max(gw+labW+110, natural*0.8) {
		cols--
	}
	perW := min(natural, per(cols))
	if cols == 1 && table {
		perW = max(min(natural, maxW), min(colW, natural*1.3))
	}
	b.leg.cols = cols
	dw := perW - gw - 6 - labW // room for descriptions
	rh := max(size*1.5, 20)
	rows := (len(es) + cols - 1) / cols
	top := y
	if table {
		hs := 6.5
		if de {
			b.leg.header = []string{"Symbol", "Zeichen", "Beschreibung"}
		} else {
			b.leg.header = []string{"SYMBOL", pick(r, []string{"TAG", "MARK"}), "DESCRIPTION"}
		}
		for c := 0; c < min(cols, len(es)); c++ {
			x := float64(c) * (perW + colGap)
			gx, lx, dx := x, x+gw+6, x+gw+6+labW
			if left {
				lx, dx, gx = x+4, x+labW, x+perW-gw
			}
			base := y + 4 + hs*capHeight
			d.text(g.m.textC(b.leg.header[0], gx+gw/2, base-hs*capHeight/2, hs, true))
			d.text(g.m.text(b.leg.header[1], lx, base, hs, true))
			d.text(g.m.text(b.leg.header[2], dx, base, hs, true))
		}
		y += 4 + hs*capHeight + 6
	}
	body := y
	for i := range b.entries {
		e := &b.entries[i]
		c, row := i/rows, i%rows
		x := float64(c) * (perW + colGap)
		ry := body + float64(row)*rh
		e.Row = rect{x, ry, x + perW, ry + rh}
		cy := ry + rh/2
		gx, lx, dx := x, x+gw+6, x+gw+6+labW
		if left {
			lx, dx, gx = x+4, x+labW, x+perW-gw
		}
		if e.Sym != nil {
			c := pt{gx + gw/2, cy}
			half := size / 2
			if e.Kind == "line" {
				half = gw * 0.42
			}
			d.symbol(e.Sym, c, half, 0, lw)
			if e.Color != 0 {
				d.ops[len(d.ops)-1].rgb = e.Color
			}
			e.Graphic = e.Sym.box(c, half, 0, lw)
		}
		e.LabelT = g.m.text(e.Label, lx, cy+capHeight*labelSize/2, labelSize, false)
		room := dw - 4
		if left {
			room = perW - gw - labW - 8
		}
		ds := g.m.fit(e.Desc, room, descSize, false)
		e.DescT = g.m.text(e.Desc, dx, cy+capHeight*ds/2, ds, false)
		d.text(e.LabelT)
		d.text(e.DescT)
	}
	if table {
		for c := 0; c < min(cols, len(es)); c++ {
			x := float64(c) * (perW + colGap)
			n := min(rows, len(es)-c*rows)
			bot := body + float64(n)*rh
			d.rect(rect{x, top, x + perW, bot}, 0.7)
			d.line(pt{x, body}, pt{x + perW, body}, 0.7)
			for k := 1; k < n; k++ {
				d.line(pt{x, body + float64(k)*rh}, pt{x + perW, body + float64(k)*rh}, 0.35)
			}
			cuts := []float64{x + gw, x + gw + 6 + labW - 4}
			if left {
				cuts = []float64{x + labW - 4, x + perW - gw}
			}
			for _, cx := range cuts {
				d.line(pt{cx, top}, pt{cx, bot}, 0.35)
			}
		}
	}
	if r.chance(0.4) {
		n := pick(r, []string{"NOTE: NOT ALL SYMBOLS USED", "NOTE: NOT ALL SYMBOLS MAY BE USED ON THIS SHEET", "NOTE: SYMBOLS SHOWN ARE TYPICAL"})
		if de {
			n = "Hinweis: Nicht alle Symbole werden verwendet"
		}
		t := g.m.text(n, 0, body+float64(rows)*rh+8+capHeight*7, 7, false)
		d.text(t)
		b.leg.note = &t
	}
	b.fitBox()
	for _, e := range b.entries {
		b.box = b.box.union(e.Row)
	}
	return b
}

// callout gives a callout instance its own letters ("3" over "A5"): a
// copy of the legend graphic with the texts replaced, drawn upright.
func (g *gen) callout(sh *sheet, in *inst) {
	if in.Entry >= len(sh.entries) || !sh.entries[in.Entry].Sym.upright {
		return
	}
	rr := newRNG(g.o.Seed, fmt.Sprintf("callout/%d/%d", sh.Index, in.ID))
	texts := []string{fmt.Sprint(rr.irange(1, 9)), pick(rr, []string{"A", "A", "S", "A-"}) + fmt.Sprint(rr.irange(2, 9))}
	if rr.chance(0.3) {
		texts[1] = fmt.Sprintf("A%d.%d", rr.irange(2, 5), rr.irange(1, 4))
	}
	src := sh.entries[in.Entry].Sym
	s := *src
	s.prims = append([]prim(nil), src.prims...)
	half := sh.size / 2 * in.Scale
	in.Texts = nil
	k := 0
	for i := range s.prims {
		p := &s.prims[i]
		if p.k != pText || k >= len(texts) {
			continue
		}
		room := p.w * p.size // the legend's letters fit; keep within their width, or a little more
		p.s = texts[k]
		p.w = g.m.width(p.s, 1, true)
		p.size = min(p.size, math.Max(room, 0.9)/p.w)
		k++
		c := toPage(p.c, in.C, half, 0)
		size := p.size * half
		w := p.w * size
		in.Texts = append(in.Texts, textItem{S: p.s, X: c.X - w/2, Y: c.Y + capHeight*size/2, Size: size, Bold: true, W: w})
	}
	in.Sym = &s
}
