package synth

import (
	"fmt"
	"strings"

	"github.com/plangraph/plangraph/internal/sheetmeta"
)

// Options.Conventions "mixed": every sheet picks its own drafting
// conventions from the seed (title block style, sheet numbering, several
// views with title bars, legend layouts, text as outlines, cover and
// schedule sheets). Everything here draws from random streams of its own,
// so the classic sheets ("" or "classic") are untouched by it.

// mixedInfo is what a mixed sheet records beyond a classic one.
type mixedInfo struct {
	kind, tbStyle, tbPos, numStyle, lang, discipline string
	titleLines                                       []string
	outlined                                         bool
	// view title bars: bubble radius, title and scale sizes, whether the
	// scale reads "SCALE: 1:100"
	barR, barTitle, barScale float64
	scaleWord                bool
	// mkTB draws the title block showing revision rev (the base sheet's
	// and its revision's differ only there).
	mkTB func(rev string) *block
}

// sheetSpec is a mixed sheet decided before any is drawn (a cover sheet
// lists the others).
type sheetSpec struct {
	kind       string // drawing, cover, schedule
	code       string // discipline code of variants
	v          variant
	level      int
	number     string
	numStyle   string
	title      string
	titleLines []string
	tbStyle    string // strip, vertical, iso
	lang       string // "" or "de"
	outlined   bool
	views      []viewSpec
	metric     bool
}

// viewSpec is one view of a drawing sheet.
type viewSpec struct {
	kind  string // Plan, Elevation, Section, Detail
	title string
	floor int
}

func (g *gen) mixedSheets(order []string) []*sheet {
	specs := make([]*sheetSpec, g.o.Sheets)
	used := map[string]bool{}
	for i := range specs {
		r := newRNG(g.o.Seed, fmt.Sprintf("mixed/spec/%d", i))
		specs[i] = g.specSheet(r, i, order[i%len(order)], used)
	}
	var out []*sheet
	for i, sp := range specs {
		r := newRNG(g.o.Seed, fmt.Sprintf("mixed/sheet/%d", i))
		out = append(out, g.mixedSheet(r, i, sp, specs))
	}
	return out
}

var floorPairs = [][2]string{{"LOWER FLOOR", "UPPER FLOOR"}, {"FIRST FLOOR", "SECOND FLOOR"}, {"GROUND FLOOR", "MAIN FLOOR"}, {"SECOND FLOOR", "THIRD FLOOR"}}

var germanFloors = [][2]string{{"EG", "OG"}, {"UG", "EG"}, {"1.OG", "2.OG"}}

// specSheet decides sheet i: its kind, conventions, views, number and title.
func (g *gen) specSheet(r *rng, i int, code string, used map[string]bool) *sheetSpec {
	sp := &sheetSpec{code: code}
	sp.tbStyle = pick(r, []string{"strip", "vertical", "iso"})
	sp.outlined = r.chance(0.2)
	switch {
	case (i == 0 && r.chance(0.4)) || r.chance(0.05):
		sp.kind = "cover"
	case r.chance(0.09):
		sp.kind = "schedule"
	default:
		sp.kind = "drawing"
	}
	if sp.tbStyle == "iso" && sp.kind == "drawing" && r.chance(0.4) {
		sp.lang = "de"
		sp.code = "E"
	}
	sp.v = pick(r, variants[sp.code])
	sp.level = r.irange(1, 3)
	sp.metric = sp.tbStyle == "iso" && (sp.lang == "de" || r.chance(0.5))
	// numbering: the discipline rule for numbers without an NCS prefix
	// knows electrical, structural and (otherwise) architectural
	sp.numStyle = "ncs"
	if sp.lang == "" && sp.kind == "drawing" && (code == "A" || code == "E" || code == "S") && r.chance(0.5) {
		sp.numStyle = pick(r, []string{"plain", "iso19650"})
	}
	switch sp.kind {
	case "cover":
		sp.title = pick(r, []string{"COVER SHEET", "TITLE SHEET", "COVER SHEET AND SHEET INDEX"})
		sp.numStyle = "ncs"
	case "schedule":
		sp.title = scheduleSheetTitle(r, sp.v.Schedule)
	default:
		g.specViews(r, sp)
	}
	for seq := 1 + i/7; ; seq++ {
		sp.number = sheetNumber(r, sp, seq)
		if !used[sheetmeta.Normalize(sp.number)] {
			break
		}
	}
	used[sheetmeta.Normalize(sp.number)] = true
	sp.titleLines = splitTitle(r, sp.title)
	return sp
}

// specViews chooses a drawing sheet's views and its title from them.
func (g *gen) specViews(r *rng, sp *sheetSpec) {
	small := g.o.PageSize == "24x18"
	n := pick(r, []int{1, 1, 2, 2, 2, 3, 3, 4})
	if small {
		n = min(n, 3)
	}
	others := []string{"Detail"}
	switch sp.code {
	case "A":
		others = []string{"Elevation", "Elevation", "Elevation", "Section", "Detail"}
	case "S":
		others = []string{"Section", "Detail", "Detail"}
	}
	nPlans := 1
	if n >= 2 && r.chance(0.55) && (sp.code != "A" || r.chance(0.3)) {
		nPlans = 2
	}
	word := sp.v.PlanWord
	if sp.code == "E" && sp.numStyle != "ncs" {
		word = pick(r, []string{"ELECTRICAL PLAN", "ELECTRICAL POWER PLAN", "ELECTRICAL LIGHTING PLAN"})
	}
	if sp.code == "A" {
		word = pick(r, []string{"FLOOR PLAN", "FLOOR PLAN", word})
	}
	pair := pick(r, floorPairs)
	var plans []string
	switch {
	case sp.lang == "de":
		fl := pick(r, germanFloors)
		plans = []string{"GRUNDRISS " + fl[0], "GRUNDRISS " + fl[1]}
		if r.chance(0.3) {
			plans[1] = "DACHAUFSICHT"
		}
	case sp.code == "S":
		plans = []string{"FOUNDATION PLAN", pair[0] + " FRAMING PLAN"}
		if r.chance(0.4) {
			plans = []string{pair[0] + " FRAMING PLAN", pick(r, []string{pair[1] + " FRAMING PLAN", "ROOF FRAMING PLAN"})}
		}
	default:
		w := strings.TrimPrefix(word, "FLOOR ")
		plans = []string{pair[0] + " " + w, pair[1] + " " + w}
	}
	for k := 0; k < nPlans; k++ {
		sp.views = append(sp.views, viewSpec{kind: "Plan", title: plans[k], floor: sp.level + k})
	}
	dirs := []string{"NORTH", "SOUTH", "EAST", "WEST"}
	r.shuffle(len(dirs), func(i, j int) { dirs[i], dirs[j] = dirs[j], dirs[i] })
	de := map[string]string{"NORTH": "NORD", "SOUTH": "SÜD", "EAST": "OST", "WEST": "WEST"}
	nd, ns, nDet := 0, 0, r.irange(1, 9)
	usedTitle := map[string]bool{}
	for k := nPlans; k < n; k++ {
		kind := pick(r, others)
		var t string
		switch kind {
		case "Elevation":
			t = dirs[nd%4] + " ELEVATION"
			if sp.lang == "de" {
				t = "ANSICHT " + de[dirs[nd%4]]
			}
			nd++
		case "Section":
			l := string(rune('A' + ns))
			t = pick(r, []string{"SECTION " + l + "-" + l, fmt.Sprintf("BUILDING SECTION %d", ns+1)})
			if sp.lang == "de" {
				t = "SCHNITT " + l + "-" + l
			}
			ns++
		default:
			t = pick(r, []string{fmt.Sprintf("DETAIL %d", nDet), "TYPICAL WALL DETAIL", "FOOTING DETAIL", "MOUNTING DETAIL"})
			if (sp.code != "S" && t == "FOOTING DETAIL") || sp.lang == "de" || usedTitle[t] {
				t = fmt.Sprintf("DETAIL %d", nDet)
			}
			nDet++
		}
		usedTitle[t] = true
		sp.views = append(sp.views, viewSpec{kind: kind, title: t})
	}
	sp.title = sheetTitle(sp)
}

// sheetTitle names a drawing sheet after its views: "FOUNDATION AND LOWER
// FLOOR FRAMING PLAN", "UPPER FLOOR PLAN AND SECTIONS".
func sheetTitle(sp *sheetSpec) string {
	if sp.lang == "de" {
		t := "BLITZSCHUTZ " + sp.views[0].title
		if len(sp.views) > 1 {
			t += " UND DETAILS"
		}
		return t
	}
	var plans []string
	kinds := map[string]bool{}
	for _, v := range sp.views {
		if v.kind == "Plan" {
			plans = append(plans, v.title)
		} else {
			kinds[v.kind] = true
		}
	}
	part := plans[0]
	if len(plans) == 2 {
		a, b := strings.Fields(plans[0]), strings.Fields(plans[1])
		k := 0
		for k < len(a)-1 && k < len(b)-1 && a[len(a)-1-k] == b[len(b)-1-k] {
			k++
		}
		suffix := strings.Join(a[len(a)-k:], " ")
		part = strings.Join(a[:len(a)-k], " ") + " AND " + strings.Join(b[:len(b)-k], " ") + " " + suffix
		if strings.HasSuffix(suffix, "FLOOR PLAN") {
			part += "S"
		}
	}
	var rest []string
	for _, k := range []string{"Elevation", "Section", "Detail"} {
		if kinds[k] {
			rest = append(rest, strings.ToUpper(k)+"S")
		}
	}
	switch len(rest) {
	case 0:
		return part
	case 1:
		return part + " AND " + rest[0]
	}
	return part + ", " + strings.Join(rest[:len(rest)-1], ", ") + " AND " + rest[len(rest)-1]
}

func scheduleSheetTitle(r *rng, kind string) string {
	switch kind {
	case "E":
		return pick(r, []string{"ELECTRICAL SCHEDULES", "LIGHTING FIXTURE AND PANEL SCHEDULES"})
	case "M":
		return "MECHANICAL SCHEDULES"
	case "P":
		return "PLUMBING SCHEDULES"
	case "FP":
		return "FIRE PROTECTION SCHEDULES"
	case "S":
		return "STRUCTURAL SCHEDULES"
	}
	return pick(r, []string{"SCHEDULES", "DOOR AND FINISH SCHEDULES"})
}

// splitTitle breaks a sheet title into one to three balanced lines.
func splitTitle(r *rng, t string) []string {
	words := strings.Fields(t)
	n := 1
	switch {
	case len(t) > 40:
		n = r.irange(2, 3)
	case len(t) > 20:
		n = r.irange(1, 2)
	}
	n = min(n, len(words))
	var lines []string
	rest := words
	for k := n; k > 0; k-- {
		if k == 1 {
			lines = append(lines, strings.Join(rest, " "))
			break
		}
		total := len(strings.Join(rest, " "))
		target := total / k
		j, cur := 1, len(rest[0])
		for j < len(rest)-(k-1) && cur+1+len(rest[j])/2 <= target {
			cur += 1 + len(rest[j])
			j++
		}
		lines = append(lines, strings.Join(rest[:j], " "))
		rest = rest[j:]
	}
	return lines
}

// titleDiscipline is the discipline of a sheet numbered without an NCS
// prefix, read from its title.
func titleDiscipline(title string) string {
	for _, w := range strings.Fields(title) {
		switch w {
		case "ELECTRICAL":
			return "electrical"
		case "STRUCTURAL", "FOUNDATION", "FRAMING":
			return "structural"
		}
	}
	return "architectural"
}

// sheetNumber numbers a sheet in its style.
func sheetNumber(r *rng, sp *sheetSpec, seq int) string {
	lvl := sp.level
	switch sp.numStyle {
	case "plain":
		grp := map[string]int{"A": 2, "S": 3, "E": 5}[sp.code]
		if r.chance(0.5) {
			return fmt.Sprintf("%d%02d-%02d", grp, lvl-1+seq-1, r.intn(3)*10)
		}
		return fmt.Sprintf("%d.%d.%02d", grp, lvl, seq-1)
	case "iso19650":
		role := map[string]string{"A": "A", "S": "S", "E": "E"}[sp.code]
		if r.chance(0.5) {
			return fmt.Sprintf("%s-%s-ZZ-%02d-DR-%s-%d%04d", pick(r, []string{"RMB", "NGE", "HPC", "CHL"}), pick(r, []string{"HPE", "NLA", "BDG", "SBE"}),
				lvl, role, r.irange(1, 3), seq)
		}
		return fmt.Sprintf("L%02d-%s%02dD%02d-%s-%02d-00-DWG-%s-%d%04d", r.irange(1, 9), role, r.irange(1, 9), r.irange(1, 9),
			pick(r, []string{"CHP", "RVS", "OVH"}), 10+lvl, pick(r, []string{"SP", "GA", "DE"}), r.irange(1, 3), seq)
	}
	p := sp.v.Prefix
	switch sp.kind {
	case "cover":
		return pick(r, []string{"G-001", "G0.00", "G001", "A0.0"})
	case "schedule":
		lvl = 6
	}
	switch r.intn(5) {
	case 0:
		return fmt.Sprintf("%s%d.%d", p, lvl, seq) // A1.1
	case 1:
		return fmt.Sprintf("%s-%d%02d", p, lvl, seq)
	case 2:
		return fmt.Sprintf("%s%d%02d%s", p, lvl, seq, pick(r, []string{"A", "B"})) // E201A
	case 3:
		return fmt.Sprintf("%s%d%02d", p, lvl, seq) // A201
	}
	return fmt.Sprintf("%s-%d.%02d", p, lvl, seq) // FP-2.01
}

// shortRef is what a view bubble shows of a sheet number: long ISO numbers
// by their last field.
func shortRef(number string) string {
	if len(number) <= 8 {
		return number
	}
	parts := strings.Split(number, "-")
	return parts[len(parts)-1]
}
