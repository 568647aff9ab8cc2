package synth

import (
	"fmt"

	"github.com/go-pdf/fpdf"

	"github.com/plangraph/plangraph/internal/sheetmeta"
)

// gen carries what every part of a set's generation shares.
type gen struct {
	o   Options
	m   *measurer
	lib []*symbol
	tb  tbInfo
}

func newGen(o Options) *gen {
	m := newMeasurer()
	return &gen{o: o, m: m, lib: library(m)}
}

// entryRef is a legend entry with a graphic: what instances refer to.
type entryRef struct {
	Block, Entry int // block index in the sheet, entry index in the legend
	Sym          *symbol
	Label        string
	Color        uint32 // rgbColor of a coloured legend graphic (mixed)
}

// sheet is one page, as data.
type sheet struct {
	Index         int
	Number, Title string
	v             variant
	W, H          float64
	frame         rect
	blocks        []*block // plans first, then the column blocks, then the title block
	entries       []entryRef
	size          float64 // legend symbol size, points
	legLW, symLW  float64
	rev           string
	nextID        int   // last instance ID used
	extra         dlist // revision cloud
	mx            *mixedInfo
}

func (sh *sheet) tbIndex() int { return len(sh.blocks) - 1 }

func (sh *sheet) render(f *fpdf.Fpdf) {
	out := sh.mx != nil && sh.mx.outlined
	var d dlist
	d.rect(sh.frame, 2.2)
	d.render(f)
	for _, b := range sh.blocks {
		if b.framed {
			var fr dlist
			fr.rect(b.box, 0.8)
			fr.render(f)
		}
		b.dl.renderTo(f, out)
	}
	sh.extra.renderTo(f, out)
}

// sheets makes the set: set-wide choices first, then each sheet from its
// own random stream.
func (g *gen) sheets() []*sheet {
	r := newRNG(g.o.Seed, "set")
	proj := pick(r, projects)
	firm := pick(r, firms)
	month, day := r.irange(1, 12), r.irange(1, 28)
	g.tb = tbInfo{
		pos:         pick(r, []string{"right", "bottom"}),
		titleLabel:  pick(r, []string{"DRAWING TITLE", "SHEET TITLE"}),
		numberLabel: pick(r, []string{"SHEET NUMBER", "DRAWING NO.", "SHEET NO."}),
		revLabel:    pick(r, []string{"REVISION", "REV.", "REV"}),
		project:     proj.Name, address: proj.Address, firm: firm.Name, firmLine: firm.Line,
		projNo:  fmt.Sprintf("%d-%03d", r.irange(2019, 2025), r.irange(1, 400)),
		date:    fmt.Sprintf("%02d/%02d/%d", month, day, 2025),
		revDate: fmt.Sprintf("%02d/%02d/%d", month%12+1, day, 2025),
		drawn:   pick(r, initials), checked: pick(r, initials),
	}
	revs := pick(r, [][2]string{{"0", "1"}, {"-", "1"}, {"A", "B"}})
	g.tb.rev0, g.tb.rev1 = revs[0], revs[1]
	order := append([]string(nil), disciplineOrder...)
	r.shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	if g.o.Conventions == "mixed" {
		return g.mixedSheets(order)
	}

	var out []*sheet
	used := map[string]bool{}
	for i := 0; i < g.o.Sheets; i++ {
		code := order[i%len(order)]
		sr := newRNG(g.o.Seed, fmt.Sprintf("sheet/%d", i))
		v := pick(sr, variants[code])
		level := sr.irange(1, 3)
		style := sr.intn(len(numberStyles))
		seq := 1 + i/len(order)
		num := numberStyles[style](v.Prefix, level, seq, sr)
		for used[sheetmeta.Normalize(num)] {
			seq++
			num = numberStyles[style](v.Prefix, level, seq, sr)
		}
		used[sheetmeta.Normalize(num)] = true
		out = append(out, g.sheet(sr, i, v, num, level))
	}
	return out
}

func (g *gen) sheet(r *rng, idx int, v variant, number string, level int) *sheet {
	in := PageSizes[g.o.PageSize]
	sh := &sheet{Index: idx, Number: number, v: v, W: in[0] * 72, H: in[1] * 72, rev: g.tb.rev0}
	const margin = 45
	sh.frame = rect{margin, margin, sh.W - margin, sh.H - margin}
	small := sh.W < 2000
	var tbr, draw rect
	if g.tb.pos == "right" {
		w := 252.0
		if small {
			w = 216
		}
		tbr = rect{sh.frame.X1 - w, sh.frame.Y0, sh.frame.X1, sh.frame.Y1}
		draw = rect{sh.frame.X0, sh.frame.Y0, tbr.X0, sh.frame.Y1}
	} else {
		h := 150.0
		if small {
			h = 130
		}
		tbr = rect{sh.frame.X0, sh.frame.Y1 - h, sh.frame.X1, sh.frame.Y1}
		draw = rect{sh.frame.X0, sh.frame.Y0, sh.frame.X1, tbr.Y0}
	}
	draw = draw.inset(20)
	sh.size = round(r.rangef(14, 20), 2)
	sh.legLW = round(r.rangef(0.5, 0.9), 2)
	sh.symLW = round(r.rangef(0.4, 1.3), 2)

	// Legends: graphic entries from the sheet's discipline, plus text-only.
	var pool []*symbol
	for _, s := range g.lib {
		if hasAny(s.Tags, v.Tags) {
			pool = append(pool, s)
		}
	}
	r.shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	texts := append([][2]string(nil), textOnlyEntries...)
	r.shuffle(len(texts), func(i, j int) { texts[i], texts[j] = texts[j], texts[i] })
	nLeg := 1
	if r.chance(0.35) && len(pool) >= 10 {
		nLeg = 2
	}
	labels := map[string]bool{}
	var legends [][]legendEntry
	for l := 0; l < nLeg; l++ {
		n := r.irange(6, 20)
		if nLeg == 2 {
			n = r.irange(6, 12)
		}
		nText := r.irange(1, 3)
		nGraph := min(n-nText, len(pool))
		if nLeg == 2 && l == 0 {
			nGraph = min(nGraph, len(pool)-5)
		}
		if nGraph+nText < 6 {
			nText = min(3, 6-nGraph)
		}
		var es []legendEntry
		for _, s := range pool[:nGraph] {
			es = append(es, legendEntry{Label: freeLabel(labels, s.Labels), Desc: s.Desc, Sym: s})
		}
		pool = pool[nGraph:]
		for k := 0; k < nText; k++ {
			t := texts[0]
			texts = texts[1:]
			if labels[t[0]] {
				k--
				continue
			}
			labels[t[0]] = true
			// text-only rows go anywhere in the list
			at := r.intn(len(es) + 1)
			es = append(es[:at], append([]legendEntry{{Label: t[0], Desc: t[1]}}, es[at:]...)...)
		}
		legends = append(legends, es)
	}
	legendTitles := []string{"LEGEND", "SYMBOL LEGEND"}
	if r.chance(0.5) {
		legendTitles[0], legendTitles[1] = legendTitles[1], legendTitles[0]
	}
	colW := round(min(max(draw.W()*0.2, 270), 330), 0)
	framed := r.chance(0.3)
	var column []*block
	for l, es := range legends {
		column = append(column, g.legend(r, legendTitles[l], es, colW, sh.size, sh.legLW))
	}
	gn := append([]string(nil), generalNotes...)
	r.shuffle(len(gn), func(i, j int) { gn[i], gn[j] = gn[j], gn[i] })
	column = append(column, g.notes(r, "GeneralNotes", "GENERAL NOTES", gn[:r.irange(4, 8)], colW))
	optional := 0
	if r.chance(0.5) {
		kn := append([]string(nil), keyedNotes...)
		r.shuffle(len(kn), func(i, j int) { kn[i], kn[j] = kn[j], kn[i] })
		column = append(column, g.notes(r, "KeyNotes", pick(r, []string{"KEYED NOTES", "KEY NOTES"}), kn[:r.irange(3, 6)], colW))
		optional++
	}
	if r.chance(0.5) {
		t, h, rows := schedule(r, v.Schedule)
		column = append(column, g.schedule(r, t, h, rows, colW))
		optional++
	}
	right := g.tb.pos == "right" || r.chance(0.6)
	if g.tb.pos == "right" && r.chance(0.25) {
		right = false
	}
	var planArea rect
	for {
		planArea = layoutColumns(column, draw, colW, right)
		if (planArea.W() >= 520 && planArea.H() >= 420) || optional == 0 {
			break
		}
		column = column[:len(column)-1] // drop a schedule or key notes
		optional--
	}
	for _, b := range column {
		b.framed = framed
	}

	// Plans.
	nPlans := 1
	side := planArea.W() > planArea.H()*1.3
	if r.chance(0.35) && ((side && planArea.W() >= 2*600) || (!side && planArea.H() >= 2*460)) && level < 4 {
		nPlans = 2
	}
	word := v.PlanWord
	for l, es := range legends {
		for k, e := range es {
			if e.Sym != nil {
				sh.entries = append(sh.entries, entryRef{Block: nPlans + l, Entry: k, Sym: e.Sym, Label: e.Label})
			}
		}
	}
	if nPlans == 1 {
		sh.Title = fmt.Sprintf("%s FLOOR %s", floorNames[level], word)
		p := g.plan(r, sh, planArea, level, sh.Title)
		sh.blocks = append(sh.blocks, p)
	} else {
		sh.Title = fmt.Sprintf("%s AND %s FLOOR %sS", floorNames[level], floorNames[level+1], word)
		a, b := planArea, planArea
		if side {
			mid := (planArea.X0 + planArea.X1) / 2
			a.X1, b.X0 = mid-12, mid+12
		} else {
			mid := (planArea.Y0 + planArea.Y1) / 2
			a.Y1, b.Y0 = mid-12, mid+12
		}
		sh.blocks = append(sh.blocks,
			g.plan(r, sh, a, level, fmt.Sprintf("%s FLOOR %s", floorNames[level], word)),
			g.plan(r, sh, b, level+1, fmt.Sprintf("%s FLOOR %s", floorNames[level+1], word)))
	}
	sh.blocks = append(sh.blocks, column...)
	sh.blocks = append(sh.blocks, g.titleBlock(tbr, g.tb, sh.Title, sh.Number, sh.rev))
	return sh
}

// layoutColumns stacks blocks top-down in columns of width w from one side
// of area, moving them into place, and returns what is left for plans.
func layoutColumns(blocks []*block, area rect, w float64, right bool) rect {
	const gap = 28
	x := area.X0
	if right {
		x = area.X1 - w
	}
	y := area.Y0
	used := 1
	for _, b := range blocks {
		h := b.box.H()
		if y > area.Y0 && y+h > area.Y1 {
			used++
			y = area.Y0
			if right {
				x -= w + gap + 16
			} else {
				x += w + gap + 16
			}
		}
		// the content starts at (0, 0); its box has an 8 pt margin
		b.translate(x-b.box.X0, y-b.box.Y0)
		y += h + gap
	}
	span := float64(used)*(w+16) + float64(used-1)*gap + gap
	if right {
		return rect{area.X0, area.Y0, area.X1 - span, area.Y1}
	}
	return rect{area.X0 + span, area.Y0, area.X1, area.Y1}
}

func hasAny(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

func freeLabel(used map[string]bool, cands []string) string {
	for _, c := range cands {
		if !used[c] {
			used[c] = true
			return c
		}
	}
	for i := 2; ; i++ {
		c := fmt.Sprintf("%s%d", cands[0], i)
		if !used[c] {
			used[c] = true
			return c
		}
	}
}
