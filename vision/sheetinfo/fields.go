package sheetinfo

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// Field kinds a title-block label names.
const (
	fieldNumber   = "number"
	fieldTitle    = "title"
	fieldRevision = "revision"
	fieldOther    = "other" // a field whose value is neither (date, scale, project…)
)

// labelPatterns name the labels of title-block fields in the languages
// drawings are made in, longest first within a kind. Each matches a run of
// whole words at the start of a text (case ignored); a trailing ':' or '.'
// is part of the label.
var labelPatterns = []struct {
	kind string
	re   *regexp.Regexp
}{
	// English
	{fieldNumber, regexp.MustCompile(`^(sheet|drawing|dwg|drg|plan|page)\.?\s*(no|nr|num|number|#|n°|nº)\.?(?:\s|:|$)`)},
	{fieldNumber, regexp.MustCompile(`^(sheet|drawing|dwg|drg)\s+(number|num)\b`)},
	{fieldNumber, regexp.MustCompile(`^(sheet|blatt)\s*(?::|$)`)},
	// German
	{fieldNumber, regexp.MustCompile(`^(plan|blatt|zeichnungs?|zeichn)[-\s]?(nr|nummer|no)\.?(?:\s|:|$)`)},
	{fieldNumber, regexp.MustCompile(`^(plannummer|blattnummer|zeichnungsnummer|plannr|blattnr)\.?(?:\s|:|$)`)},
	// French, Spanish, Italian, Portuguese, Dutch, Malay
	{fieldNumber, regexp.MustCompile(`^((n°|nº|no\.?|num\.?|numéro|número|numero)\s*(de\s*)?(plan|plano|dessin|tavola|desenho|lámina|lamina|hoja|folha|tekening)|(plan|plano|dessin|tavola|desenho|lámina|hoja|folha)\s*(n°|nº|no\.?|nr\.?))\.?(?:\s|:|$)`)},
	{fieldNumber, regexp.MustCompile(`^(tekeningnummer|tekeningnr|tekening\s*nr|bladnummer|blad|lámina|tavola|folha)\.?\s*(?::|$)`)},
	{fieldNumber, regexp.MustCompile(`^(no\.?\s*(lukisan|kepingan)|lukisan\s*no\.?)\.?(?:\s|:|$)`)},
	// Japanese, Chinese
	{fieldNumber, regexp.MustCompile(`^(図面番号|図番|図面No\.?|シート番号|图号|图纸编号)`)},
	{fieldTitle, regexp.MustCompile(`^(sheet|drawing|dwg|drg)\.?\s*(title|name)\s*(?::|\.|\s|$)`)},
	{fieldTitle, regexp.MustCompile(`^(title|titles|drawing|plan\s*title|plan\s*name)\s*(?::|$)`)},
	{fieldTitle, regexp.MustCompile(`^(planinhalt|plantitel|planbezeichnung|bezeichnung|planart|inhalt|darstellung)\s*(?::|$)`)},
	{fieldTitle, regexp.MustCompile(`^(titre|intitulé|désignation|título|titulo|título\s*(del|do)\s*(plano|desenho)|titolo|oggetto|titel|onderwerp|tajuk(\s*lukisan)?|perkara)\s*(?::|$)`)},
	{fieldTitle, regexp.MustCompile(`^(図面名称|図面名|図名|図面タイトル|图名|图纸名称)`)},
	{fieldRevision, regexp.MustCompile(`^(rev|revision|rev\.?\s*no|revision\s*no|issue|index|änderungsindex|planindex|indice|révision|revisión|revisione|revisie|revisão|pindaan(\s*no)?)\.?\s*(?::|$|\s)`)},
	{fieldOther, regexp.MustCompile(`^(date|issue\s*date|scale|drawn|drawn\s*by|checked|checked\s*by|approved|approved\s*by|designed|designed\s*by|reviewed\s*by|project|project\s*(no|nr|number|name|title)|job|job\s*(no|number|name)|client|owner|architect|engineer|consultant|contractor|phase|status|stage|file|file\s*name|cad\s*(file|ref)|model\s*file\s*reference|size|sheet\s*size|format|north|key\s*plan|seal|stamp|address|location|site|stand\s*no|issued\s*for|purpose\s*of\s*issue|suitability|copyright|description|remarks|by|chk|appd|dwn|des)\.?\s*(?::|\.|$|\s)`)},
	{fieldOther, regexp.MustCompile(`^(datum|maßstab|massstab|masstab|gezeichnet|geprüft|gepr|bearbeitet|projekt|projektnummer|projekt-nr|bauherr|bauvorhaben|vorhabenträger|auftraggeber|architekt|planverfasser|leistungsphase|phase|format|blattgröße|stand)\.?\s*(?::|$|\s)`)},
	{fieldOther, regexp.MustCompile(`^(échelle|dessiné|vérifié|projet|maître\s*d'ouvrage|escala|fecha|dibujado|revisado|proyecto|cliente|scala|data|disegnato|progetto|committente|schaal|getekend|opdrachtgever|projeto|desenhado|projek|pemilik|arkitek|jenis\s*bangunan|dilukis|ukuran|haribulan|tarikh|disemak|diluluskan|skala)\.?\s*(?::|$|\s)`)},
	{fieldOther, regexp.MustCompile(`^(日付|縮尺|尺度|設計|製図|承認|検図|工事名称|工事名|件名|設計者|図面枚数|比例|日期|设计|审核)`)},
}

// label is a title-block field label found in the words.
type label struct {
	kind string
	// box covers the label's words; line is its line's text frame.
	box  geom.Box
	line *tline
	// inline is the rest of the label's line after it, up to the next label
	// on the line (its words), or nil.
	inline []text.Word
}

// labelOf matches a field label at the start of words (one line, reading
// order): the kind and how many words it takes, or 0.
func labelOf(words []text.Word) (string, int) {
	bestKind, bestN := "", 0
	for n := 1; n <= min(4, len(words)); n++ {
		s := joinWords(words[:n])
		low := strings.ToLower(strings.TrimLeft(strings.TrimSpace(s), "‘’'\"`“”|_—-~*»«•"))
		for _, p := range labelPatterns {
			loc := p.re.FindStringIndex(low + " ")
			if loc == nil {
				continue
			}
			// the pattern must end at a word boundary of these n words
			if loc[1] < len(low) {
				continue
			}
			if n > bestN {
				bestKind, bestN = p.kind, n
			}
			break
		}
	}
	return bestKind, bestN
}

func joinWords(ws []text.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// findLabels finds every field label in the lines kept by in. A line may
// hold several ("DATE: 2/11/05 SCALE: NOTED"): each takes the words after it
// up to the next as its inline value.
func findLabels(lines []*tline, in func(geom.Box) bool) []label {
	var out []label
	for _, l := range lines {
		if !in(l.box) {
			continue
		}
		ws := l.words
		type hit struct {
			kind  string
			at, n int
		}
		var hits []hit
		for i := 0; i < len(ws); {
			// a label starts a line or follows a clear gap; it is set off
			// from its value by a colon or a gap, or is all of its line
			if k, n := labelOf(ws[i:]); n > 0 && (i == 0 || gapBefore(ws, i)) &&
				(i+n == len(ws) || strings.ContainsAny(ws[i+n-1].Text[len(ws[i+n-1].Text)-1:], ":.#") || strings.HasPrefix(ws[i+n].Text, ":") || gapBefore(ws, i+n)) {
				hits = append(hits, hit{k, i, n})
				i += n
				continue
			}
			i++
		}
		for hi, h := range hits {
			end := len(ws)
			if hi+1 < len(hits) {
				end = hits[hi+1].at
			}
			lb := label{kind: h.kind, box: boxOf(ws[h.at : h.at+h.n]), line: l}
			if rest := ws[h.at+h.n : end]; len(rest) > 0 && hasValue(rest) {
				lb.inline = rest
			}
			out = append(out, lb)
		}
	}
	return dropDisplayLabels(out)
}

// dropDisplayLabels drops the labels set far larger than the title block's
// other labels: field labels are small type, and a word like "PROJECT" in
// display type ("PROJECT INFORMATION", a sheet's title) is a value.
func dropDisplayLabels(ls []label) []label {
	if len(ls) < 3 {
		return ls
	}
	size := func(l label) float64 { return toFrame(l.line.orient, l.box).Height() }
	hs := make([]float64, len(ls))
	for i, l := range ls {
		hs[i] = size(l)
	}
	sort.Float64s(hs)
	med := hs[len(hs)/2]
	out := ls[:0:0]
	for _, l := range ls {
		if size(l) <= 2.2*med {
			out = append(out, l)
		}
	}
	return out
}

// gapBefore reports whether a clear gap (over a type height: several
// spaces) separates word i from the word before it on its line, in the
// line's reading direction.
func gapBefore(ws []text.Word, i int) bool {
	a, b := ws[i-1].Box, ws[i].Box
	h := math.Max(math.Min(a.Height(), a.Width()), 1)
	// the gap along the line, whichever way it runs
	g := math.Max(math.Max(b.XMin-a.XMax, a.XMin-b.XMax), math.Max(b.YMin-a.YMax, a.YMin-b.YMax))
	return g > 1.2*h
}

func boxOf(ws []text.Word) geom.Box {
	b := ws[0].Box
	for _, w := range ws[1:] {
		b = union(b, w.Box)
	}
	return b
}

func union(a, b geom.Box) geom.Box {
	return geom.Box{XMin: math.Min(a.XMin, b.XMin), YMin: math.Min(a.YMin, b.YMin), XMax: math.Max(a.XMax, b.XMax), YMax: math.Max(a.YMax, b.YMax)}
}

// valueLines are the lines a label's value may be: in its cell (when the
// page's ruling gives one), right of it on its line or below it in its
// column, up to the next label, in reading order. Boxes are compared in the
// label's own reading frame, so a label set sideways reads sideways. A
// label alone in its cell has its value beside it, in the cell on its right
// (a row of label cells and value cells: "PINDAAN | A").
func (r *reader) valueLines(lb label) []*tline {
	o := lb.line.orient
	var cell geom.Box
	if c := r.labelCell(lb); c.Valid() {
		cell = toFrame(o, c)
	}
	out := r.linesNear(lb, cell, false)
	if len(out) == 0 && cell.Valid() && o == horizontal {
		if c := r.rightCell(lb, r.labelCell(lb)); c.Valid() && !r.holdsLabel(c) {
			out = r.linesNear(lb, c, true)
		}
	}
	lf := toFrame(o, lb.box)
	lh := lf.Height()
	sort.SliceStable(out, func(i, j int) bool {
		a, b := toFrame(o, out[i].box), toFrame(o, out[j].box)
		if math.Abs(a.YMin-b.YMin) > 0.5*math.Min(a.Height(), b.Height()) {
			return a.YMin < b.YMin
		}
		return a.XMin < b.XMin
	})
	// up to the next label below in the label's column
	for _, other := range r.labels {
		if other.line == lb.line || other.line.orient != o {
			continue
		}
		ob := toFrame(o, other.box)
		if ob.YMin <= lf.YMax || ob.XMax < lf.XMin-3*lh || ob.XMin > lf.XMin+20*lh {
			continue
		}
		cut := out[:0]
		for _, l := range out {
			if toFrame(o, l.box).YMin < ob.YMin-0.3*lh {
				cut = append(cut, l)
			}
		}
		out = cut
	}
	return out
}

// linesNear are the lines right of label lb on its line or below it in its
// column (only right of it, with onlyRight), within cell (in lb's reading
// frame) when it is valid, else within reach of the label.
func (r *reader) linesNear(lb label, cell geom.Box, onlyRight bool) []*tline {
	o := lb.line.orient
	lf := toFrame(o, lb.box)
	lh := lf.Height()
	var out []*tline
	for _, l := range r.lines {
		if l == lb.line || l.orient != o || r.isLabelLine[l] {
			continue
		}
		b := toFrame(o, l.box)
		cx, cy := (b.XMin+b.XMax)/2, (b.YMin+b.YMax)/2
		if cell.Valid() && !(cx > cell.XMin && cx < cell.XMax && cy > cell.YMin && cy < cell.YMax) {
			continue
		}
		// within a cell, anything right of or under the label; else within
		// reach of it
		reach := 1.0
		if cell.Valid() {
			reach = math.Inf(1)
		}
		right := math.Abs(cy-(lf.YMin+lf.YMax)/2) < 0.6*math.Max(lh, b.Height()) && b.XMin > lf.XMax-0.2*lh && b.XMin-lf.XMax < 25*lh*reach
		below := !onlyRight && under(b, lf) && b.YMin-lf.YMax < 8*lh*reach && b.XMin < lf.XMin+20*lh*reach && b.XMax > lf.XMin-3*lh
		if right || below {
			out = append(out, l)
		}
	}
	return out
}

// under reports a line boxed b under a label boxed lf (both in the label's
// reading frame): its top below the label's middle or, lettered far larger
// than the label ("A" under "ISSUE"), its middle below the label's foot,
// as OCR may box such a line up over the label.
func under(b, lf geom.Box) bool {
	lh := lf.Height()
	return b.YMin > lf.YMin+0.5*lh || b.Height() > 3*lh && (b.YMin+b.YMax)/2 > lf.YMax
}

// labelCell is the ruled cell holding label lb, on the page; invalid when
// the page's ruling gives none or the cell is much larger than a field (the
// whole strip bounds nothing).
func (r *reader) labelCell(lb label) geom.Box {
	if r.hints.Cells == nil {
		return geom.Box{}
	}
	if c := r.hints.Cells(lb.box); c.Valid() && c.Width()*c.Height() < 0.05*r.w*r.h {
		return c
	}
	return geom.Box{}
}

// rightCell is the small ruled cell beside cell c on label lb's row, where a
// value may sit beside its label; invalid when there is none.
func (r *reader) rightCell(lb label, c geom.Box) geom.Box {
	if r.hints.Cells == nil || !c.Valid() {
		return geom.Box{}
	}
	// probed a type height past the cell's side: ruling is found on a
	// coarser grid than the page's pixels, and the side itself may be in
	// the probe
	lh := lb.box.Height()
	right := r.hints.Cells(geom.Box{XMin: c.XMax + lh, YMin: lb.box.YMin, XMax: c.XMax + lh + 1, YMax: lb.box.YMax})
	if right.Valid() && right.Width()*right.Height() < 0.02*r.w*r.h && right.XMin >= c.XMax-lh/2 {
		return right
	}
	return geom.Box{}
}

// holdsLabel reports whether a field label lies in box c.
func (r *reader) holdsLabel(c geom.Box) bool {
	for _, lb := range r.labels {
		if containsBox(c, lb.box) {
			return true
		}
	}
	return false
}

// hasValue reports whether words hold more than punctuation (a label's
// colon set apart from it).
func hasValue(ws []text.Word) bool {
	for _, w := range ws {
		if strings.Trim(w.Text, ":.-–#") != "" {
			return true
		}
	}
	return false
}

// unlabelledCell reports whether l's ruled cell (or, without ruling, l
// itself) holds no field label: a second row of a field's value.
func (r *reader) unlabelledCell(l *tline) bool {
	if r.hints.Cells == nil {
		return false
	}
	c := r.hints.Cells(l.box)
	return c.Valid() && !r.holdsLabel(c)
}

// valueRegion is where a label's value may be, on the page: its cell, or
// the reach of valueLines (its line to the right, and the lines under it).
func (r *reader) valueRegion(lb label) geom.Box {
	if c := r.labelCell(lb); c.Valid() {
		// and the cell right of it, where a value may sit beside its label
		if right := r.rightCell(lb, c); right.Valid() {
			c = union(c, right)
		}
		return c
	}
	o := lb.line.orient
	lf := toFrame(o, lb.box)
	lh := lf.Height()
	f := geom.Box{XMin: lf.XMin - lh, YMin: lf.YMin - 0.5*lh, XMax: lf.XMax + 20*lh, YMax: lf.YMax + 6*lh}
	return fromFrame(o, f)
}

// fromFrame maps a box of o's reading frame back to the page.
func fromFrame(o orient, b geom.Box) geom.Box {
	switch o {
	case up:
		return geom.Box{XMin: b.YMin, XMax: b.YMax, YMin: -b.XMax, YMax: -b.XMin}
	case down:
		return geom.Box{XMin: -b.YMax, XMax: -b.YMin, YMin: b.XMin, YMax: b.XMax}
	}
	return b
}
