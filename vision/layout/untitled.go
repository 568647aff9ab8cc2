package layout

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/plangraph/plangraph/vision/text"
)

// untitledKind types a block no heading names by how its text is set out,
// "" when nothing here says: a column of "NAME : value" rows is a schedule
// of figures; rows of a drawn sample beside a short text are a legend; a
// two-column ruled table keying tags to descriptions is a legend of codes
// or, when its tags number a run (1, 2, 3 … or G1, G2, G3 …), keyed notes.
func (p *Page) untitledKind(r rect, ws []text.Word, notes bool) string {
	if len(ws) < 6 {
		return ""
	}
	em := medianHeight(ws)
	// rows of body text: superscripts and indices ("m²") set apart
	var body []text.Word
	for _, w := range ws {
		if w.Box.Height() >= 0.7*em || strings.HasSuffix(w.Text, ":") {
			body = append(body, w)
		}
	}
	rows := textRows(body)
	if colonTable(rows, em) {
		return "Schedule"
	}
	if k := p.tagTable(r, ws, em); k != "" {
		return k
	}
	if notes && p.sampleRows(r, rows, em) {
		return "Legend"
	}
	return ""
}

func medianHeight(ws []text.Word) float64 {
	hs := make([]float64, 0, len(ws))
	for _, w := range ws {
		hs = append(hs, w.Box.Height())
	}
	sort.Float64s(hs)
	return hs[len(hs)/2]
}

// textRows groups words into rows by their vertical middles (words of one
// row set far apart, "POOL AREA" … ":" … "709.48", stay one row), each row
// left to right.
func textRows(ws []text.Word) [][]text.Word {
	s := append([]text.Word(nil), ws...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Box.YMin+s[i].Box.YMax < s[j].Box.YMin+s[j].Box.YMax })
	var rows [][]text.Word
	var lo, hi float64
	for _, w := range s {
		cy := (w.Box.YMin + w.Box.YMax) / 2
		if len(rows) > 0 && cy >= lo && cy <= hi {
			rows[len(rows)-1] = append(rows[len(rows)-1], w)
			continue
		}
		rows = append(rows, []text.Word{w})
		lo, hi = w.Box.YMin, w.Box.YMax
	}
	for _, r := range rows {
		sort.SliceStable(r, func(i, j int) bool { return r[i].Box.XMin < r[j].Box.XMin })
	}
	return rows
}

// colonTable: most rows are a short name, a colon and a value, the colons
// one above the other (a data sheet's "POOL AREA : 709.48 m²").
func colonTable(rows [][]text.Word, em float64) bool {
	var xs []float64
	for _, row := range rows {
		for i, w := range row {
			t := strings.TrimSpace(w.Text)
			if i == 0 || i == len(row)-1 || i > 5 || !strings.HasSuffix(t, ":") {
				continue
			}
			xs = append(xs, w.Box.XMax)
			break
		}
	}
	if len(xs) < 4 || 10*len(xs) < 6*len(rows) {
		return false
	}
	sort.Float64s(xs)
	// the colons of most rows within an em of their median
	mid, n := xs[len(xs)/2], 0
	for _, x := range xs {
		if math.Abs(x-mid) <= em {
			n++
		}
	}
	return n >= 4 && 10*n >= 6*len(rows)
}

var tagRE = regexp.MustCompile(`^([A-Z]{0,3})[-.]?(\d{0,3})$`)

// tagTable reads a ruled table of two columns whose narrow first column
// holds short tags (codes or numbered marks) against text: keyed notes when
// the tags number a run, else a legend of codes; "" for anything else.
func (p *Page) tagTable(r rect, ws []text.Word, em float64) string {
	rows, _ := p.tableRules(r)
	if rows < 3 {
		return ""
	}
	xs := p.columnRules(r)
	if len(xs) != 1 {
		return ""
	}
	x := xs[0]
	if x-r.x0 > r.w()/4 {
		return ""
	}
	var tags []string
	right, across := 0, 0
	for _, w := range ws {
		if w.Box.XMin >= float64(x) {
			right++
			continue
		}
		if w.Box.XMax > float64(x)+0.3*em {
			across++ // a row set across both columns (a group's heading)
			continue
		}
		t := strings.ToUpper(strings.Trim(w.Text, " |}{[]()"))
		if len(t) >= 1 && len(t) <= 4 && tagRE.MatchString(t) {
			tags = append(tags, t)
		}
	}
	if len(tags) < 3 || right < 2*len(tags) || 2*across > len(tags) {
		return ""
	}
	if numberedRun(tags) {
		return "KeyNotes"
	}
	return "Legend"
}

// numberedRun: most tags are one prefix and a number, the numbers running
// from 1 without a gap (1 2 3 …, G1 G2 G3 …).
func numberedRun(tags []string) bool {
	seen := map[string]map[int]bool{}
	for _, t := range tags {
		m := tagRE.FindStringSubmatch(t)
		if m == nil || m[2] == "" {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		if seen[m[1]] == nil {
			seen[m[1]] = map[int]bool{}
		}
		seen[m[1]][n] = true
	}
	for _, ns := range seen {
		run := 0
		for ns[run+1] {
			run++
		}
		if run >= 3 && 10*run >= 8*len(tags) {
			return true
		}
	}
	return false
}

// columnRules are the vertical rules that run down at least half of r
// inside it, pieces of cell edges joined.
func (p *Page) columnRules(r rect) []int {
	var xs []int
	for _, x := range clusters(p.rules.v, 1) {
		if x > r.x0+2 && x < r.x1-2 && cover(p.rules.v, x, 1, r.y0, r.y1) >= r.h()*5/10 {
			xs = append(xs, x)
		}
	}
	return xs
}

// sampleRows: every row of text (two or more) has a drawn sample left of
// it — ink without words, at least two ems wide, no taller than two rows —
// the samples starting one above the other and the texts likewise (a key
// of wall types, line types or hatches without a heading). Only asked of a
// block read as text (notes), not of a drawing's labels.
func (p *Page) sampleRows(r rect, rows [][]text.Word, em float64) bool {
	if len(rows) < 2 || len(rows) > 12 {
		return false
	}
	var sx, tx []float64
	for _, row := range rows {
		row = samplesRead(row, em)
		t := row[0].Box
		for _, w := range row {
			t = t.Union(w.Box)
		}
		h := t.Height()
		// clear of the frame's side, a quarter row above and below
		strip := rect{r.x0 + int(0.5*em) + 2, int(t.YMin - 0.25*h), int(t.XMin - 0.5*em), int(t.YMax + 0.25*h)}
		strip = rect{max(strip.x0, 0), max(strip.y0, 0), min(strip.x1, p.m.w), min(strip.y1, p.m.h)}
		if float64(strip.w()) < 2*em {
			return false
		}
		b := p.m.bbox(strip)
		// a sample standing alone: ink that stops short of the strip's top
		// or bottom (a wall or leader running past the text does not)
		if b.empty() || float64(b.w()) < 2*em || (b.y0 <= strip.y0 && b.y1 >= strip.y1) || float64(b.h()) < 0.3*h {
			return false
		}
		sx = append(sx, float64(b.x0))
		tx = append(tx, t.XMin)
	}
	return spread(sx) <= em && spread(tx) <= em
}

// samplesRead drops from the start of a row the words OCR doubted
// (confidence under 0.6) that stand apart from the next, half an em or
// more: a drawn sample read as letters (a filled wall swatch read "GC"),
// which is the row's sample, not its text. A row of such words is kept.
func samplesRead(row []text.Word, em float64) []text.Word {
	i := 0
	for i+1 < len(row) && row[i].Conf > 0 && row[i].Conf < 0.6 && row[i+1].Box.XMin-row[i].Box.XMax >= 0.5*em {
		i++
	}
	return row[i:]
}

func spread(v []float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return hi - lo
}
