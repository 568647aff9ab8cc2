// Package sheetinfo reads a sheet's number, title and discipline from the
// words of its title block.
//
// The sheet number is the sheet-number-shaped word printed largest in the
// title-block zones (right strip, bottom strip); a "SHEET NO." / "DRAWING
// NUMBER" label next to a candidate makes it win. The title is what follows
// a "DRAWING TITLE" / "SHEET TITLE" label; without such a label, it is the
// largest-type text near the number that is not a label, date or stamp.
package sheetinfo

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/geom"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/text"
)

// Info is what was read.
type Info struct {
	Number     string `json:"sheet_number"`
	Title      string `json:"title"`
	Discipline string `json:"discipline"`
	// Revision is the sheet's current revision mark ("0", "3", "B") when a
	// REV / REVISION field of the title block shows one.
	Revision  string   `json:"revision"`
	NumberBox geom.Box `json:"number_box"`
	TitleBox  geom.Box `json:"title_box"`
}

var (
	numberRE      = regexp.MustCompile(`^[A-Z]{1,3}[-.]?\d{1,4}(?:\.\d{1,3})?[A-Z]?$`)
	numberLabelRE = regexp.MustCompile(`(?i)^(sheet|drawing|dwg)\.?\s*(no\.?|number|num\.?|#)\s*:?$`)
	titleLabelRE  = regexp.MustCompile(`(?i)^((sheet|drawing|dwg)\.?\s+)?title\s*:?$`)
	revLabelRE    = regexp.MustCompile(`(?i)^(rev\.?|revision)\s*(no\.?|#)?\s*:?\s*([A-Z0-9]{1,3})?$`)
	revValueRE    = regexp.MustCompile(`^[A-Z0-9]{1,3}$`)
	dateRE        = regexp.MustCompile(`(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b|\b\d{1,2}[/-]\d{1,2}[/-]\d{2,4}\b`)
	// words that label title-block fields rather than fill them
	labelWords = []string{"date", "drawn", "checked", "approved", "project", "scale", "issue", "phase", "location",
		"building", "number", "revision", "rev", "sheet", "drawing", "title", "job", "client", "owner", "architect",
		"engineer", "consultant", "seal", "stamp", "copyright", "construction documents", "not for construction",
		"key plan", "north", "description", "by", "no."}
)

// Read finds the sheet's metadata in words on a page of width × height
// pixels.
func Read(words []text.Word, width, height float64) Info {
	lines := text.Lines(words)
	num, numBox := findNumber(words, lines, width, height)
	info := Info{Number: num, NumberBox: numBox, Discipline: sheetmeta.Discipline(num)}
	if num == "" {
		return info
	}
	info.Title, info.TitleBox = findTitle(lines, numBox, width, height)
	info.Revision = findRevision(lines, numBox, width, height)
	if info.Revision == "" {
		info.Revision = revisionTable(words, width, height)
	}
	return info
}

var (
	revHeaderRE = regexp.MustCompile(`^(REV|REVISION|REVS?|MARK|NO|NUM|#)\.?(#|NO\.?)?$`)
	revColumnRE = regexp.MustCompile(`^(DESCRIPTION|DESC|DATE|ISSUE|REMARKS|DESCRIPTION/REMARKS)\.?$`)
	dateLayouts = []string{"1/2/2006", "01/02/2006", "1/2/06", "01/02/06", "1-2-2006", "1-2-06", "2006-01-02", "Jan 2, 2006",
		"January 2, 2006", "Jan 2 2006", "January 2 2006", "2 Jan 2006", "2 January 2006", "Jan. 2, 2006"}
)

// revisionTable reads the latest row of a revision table in the title-block
// zones: a header row with a mark column (REV, REVISION#, NO., MARK) and a
// DESCRIPTION or DATE column, and rows above or below it with a short mark
// under the mark column and more text beside it. The latest row is the one
// with the latest date; without dates, the highest mark.
func revisionTable(words []text.Word, w, h float64) string {
	type row struct {
		mark string
		date time.Time
	}
	best := row{}
	for _, hd := range words {
		if !revHeaderRE.MatchString(strings.TrimRight(cleanToken(hd.Text), ":")) || zoneWeight(hd.Box, w, h) < 1.5 {
			continue
		}
		lh := hd.Box.Height()
		cols := revColumns(words, hd, lh)
		if lh <= 0 || len(cols) == 0 {
			continue
		}
		// rows: marks under the header's column, contiguous from the header
		// outwards in both directions
		var rows []row
		for _, dir := range []float64{-1, 1} {
			edge := hd.Box
			for {
				next, found := text.Word{}, false
				for _, m := range words {
					cy := (m.Box.YMin + m.Box.YMax) / 2
					ecy := (edge.YMin + edge.YMax) / 2
					dy := (cy - ecy) * dir
					if dy < 0.6*lh || dy > 3.5*lh || m.Box.XMax < hd.Box.XMin-lh || m.Box.XMin > hd.Box.XMax+lh {
						continue
					}
					if !found || dy < ((next.Box.YMin+next.Box.YMax)/2-ecy)*dir {
						next, found = m, true
					}
				}
				mark := cleanToken(next.Text)
				if !found || !revValueRE.MatchString(mark) {
					break
				}
				rest := rowText(words, next, 40*lh, cols)
				if rest == "" {
					break
				}
				rows = append(rows, row{mark: mark, date: findDate(rest)})
				edge = next.Box
			}
		}
		for _, r := range rows {
			if later(r.mark, r.date, best.mark, best.date) {
				best = r
			}
		}
	}
	return best.mark
}

// revColumns is where the DESCRIPTION or DATE column headers on hd's row,
// to its right, start (none: hd heads no revision table).
func revColumns(words []text.Word, hd text.Word, lh float64) []float64 {
	var xs []float64
	for _, o := range words {
		if o.Box.XMin > hd.Box.XMax && o.Box.XMin < hd.Box.XMax+40*lh &&
			math.Abs((o.Box.YMin+o.Box.YMax)/2-(hd.Box.YMin+hd.Box.YMax)/2) < 0.5*lh &&
			revColumnRE.MatchString(strings.TrimRight(cleanToken(o.Text), ":")) {
			xs = append(xs, o.Box.XMin)
		}
	}
	return xs
}

// rowText joins the words on m's row to its right, within span, when one
// of them starts under a column header (at cols); else "".
func rowText(words []text.Word, m text.Word, span float64, cols []float64) string {
	lh := m.Box.Height()
	var parts []text.Word
	aligned := false
	for _, o := range words {
		if o.Box.XMin > m.Box.XMax && o.Box.XMin < m.Box.XMax+span &&
			math.Abs((o.Box.YMin+o.Box.YMax)/2-(m.Box.YMin+m.Box.YMax)/2) < 0.5*lh {
			parts = append(parts, o)
			for _, x := range cols {
				aligned = aligned || math.Abs(o.Box.XMin-x) < 2*lh
			}
		}
	}
	if !aligned {
		return ""
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Box.XMin < parts[j].Box.XMin })
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// findDate is the first date written in s (zero when none).
func findDate(s string) time.Time {
	d := dateRE.FindString(s)
	if d == "" {
		return time.Time{}
	}
	d = strings.Join(strings.Fields(d), " ")
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, d); err == nil { // month names match in any case
			return t
		}
	}
	return time.Time{}
}

// later reports whether revision mark a dated da comes after b dated db:
// by date when both have one (a dated row beats an undated one), else by
// mark (numbers numerically).
func later(a string, da time.Time, b string, db time.Time) bool {
	if b == "" {
		return true
	}
	if da.IsZero() != db.IsZero() {
		return db.IsZero()
	}
	if !da.Equal(db) {
		return da.After(db)
	}
	na, ea := strconv.Atoi(a)
	nb, eb := strconv.Atoi(b)
	if ea == nil && eb == nil {
		return na > nb
	}
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

// findRevision reads the REV / REVISION field nearest the sheet number: a
// value on the label's line ("REV 3") or the short token just below it.
func findRevision(lines []text.Line, num geom.Box, w, h float64) string {
	best, bestD := "", math.Inf(1)
	for _, l := range lines {
		m := revLabelRE.FindStringSubmatch(strings.TrimSpace(l.Text))
		if m == nil {
			continue
		}
		d := math.Hypot(l.Box.XMin-num.XMin, l.Box.YMin-num.YMin)
		if d > 0.5*math.Max(w, h) || d >= bestD {
			continue
		}
		val := strings.ToUpper(m[3])
		if val == "" {
			lh := l.Box.Height()
			below := math.Inf(1)
			for _, v := range lines {
				t := strings.ToUpper(strings.TrimSpace(v.Text))
				dy := v.Box.YMin - l.Box.YMax
				if revValueRE.MatchString(t) && dy > -0.2*lh && dy < 4*lh && math.Abs(v.Box.XMin-l.Box.XMin) < 2*lh && dy < below {
					val, below = t, dy
				}
			}
		}
		if val != "" {
			best, bestD = val, d
		}
	}
	return best
}

func cleanToken(s string) string {
	return strings.Trim(strings.ToUpper(s), " :;,()[]")
}

// zoneWeight favours the title-block zones of a sheet.
func zoneWeight(b geom.Box, w, h float64) float64 {
	cx, cy := (b.XMin+b.XMax)/2/w, (b.YMin+b.YMax)/2/h
	switch {
	case cx > 0.75 && cy > 0.75:
		return 3
	case cx > 0.8 || cy > 0.85:
		return 1.5
	}
	return 0.2
}

func findNumber(words []text.Word, lines []text.Line, w, h float64) (string, geom.Box) {
	var labels []geom.Box
	for _, l := range lines {
		if numberLabelRE.MatchString(strings.TrimSpace(l.Text)) {
			labels = append(labels, l.Box)
		}
	}
	best, bestScore := -1, 0.0
	for i, wd := range words {
		tok := cleanToken(wd.Text)
		if !numberRE.MatchString(tok) {
			continue
		}
		score := wd.Box.Height() * zoneWeight(wd.Box, w, h)
		if sheetmeta.Discipline(tok) == "" {
			score *= 0.3 // not an NCS designator: possible, but less likely
		}
		for _, lb := range labels {
			if near(lb, wd.Box, 6*lb.Height()) {
				score *= 3
				break
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return "", geom.Box{}
	}
	return cleanToken(words[best].Text), words[best].Box
}

// near reports whether b starts within d below or right of label.
func near(label, b geom.Box, d float64) bool {
	dx := b.XMin - label.XMin
	dy := b.YMin - label.YMin
	return dx > -d && dx < 4*d && dy > -label.Height() && dy < d
}

func isLabel(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	if strings.HasSuffix(t, ":") || numberLabelRE.MatchString(t) || titleLabelRE.MatchString(t) {
		return true
	}
	for _, lw := range labelWords {
		if t == lw || (strings.HasPrefix(t, lw+" ") && len(strings.Fields(t)) <= 3) {
			return true
		}
	}
	return strings.HasPrefix(t, "copyright") || strings.HasPrefix(t, "©")
}

func hasLetters(s string) bool {
	for _, r := range s {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' {
			return true
		}
	}
	return false
}

func findTitle(lines []text.Line, num geom.Box, w, h float64) (string, geom.Box) {
	// labelled: the lines under the "Drawing Title" label nearest the number
	var label *text.Line
	bestD := math.Inf(1)
	for i := range lines {
		l := &lines[i]
		if !titleLabelRE.MatchString(strings.TrimSpace(l.Text)) {
			continue
		}
		d := math.Hypot(l.Box.XMin-num.XMin, l.Box.YMin-num.YMin)
		if d < bestD && d < 0.25*math.Max(w, h) {
			label, bestD = l, d
		}
	}
	if label != nil {
		var picked []text.Line
		bottom := label.Box.YMax
		lh := label.Box.Height()
		for _, l := range sortedByY(lines) {
			if l.Box.YMin < label.Box.YMax-0.3*lh || math.Abs(l.Box.XMin-label.Box.XMin) > 3*lh {
				continue
			}
			if l.Box.YMin-bottom > 2.5*lh || isLabel(l.Text) || numberRE.MatchString(cleanToken(l.Text)) {
				if len(picked) > 0 || l.Box.YMin-bottom > 2.5*lh {
					break
				}
				continue
			}
			picked = append(picked, l)
			bottom = l.Box.YMax
		}
		if len(picked) > 0 {
			return joinLines(picked)
		}
	}
	// unlabelled: the largest type in a window around the number
	win := geom.Box{XMin: num.XMin - 0.25*w, YMin: num.YMin - 0.15*h, XMax: w, YMax: h}
	var cands []text.Line
	for _, l := range lines {
		if !inside(l.Box, win) || l.Box == num || !hasLetters(l.Text) || isLabel(l.Text) || dateRE.MatchString(l.Text) ||
			numberRE.MatchString(cleanToken(l.Text)) {
			continue
		}
		cands = append(cands, l)
	}
	if len(cands) == 0 {
		return "", geom.Box{}
	}
	maxH := 0.0
	for _, l := range cands {
		maxH = math.Max(maxH, l.Box.Height())
	}
	var big []text.Line
	for _, l := range cands {
		if l.Box.Height() >= 0.9*maxH {
			big = append(big, l)
		}
	}
	big = sortedByY(big)
	// keep the vertically contiguous run closest to the number
	runs := [][]text.Line{{big[0]}}
	for _, l := range big[1:] {
		last := runs[len(runs)-1][len(runs[len(runs)-1])-1]
		if l.Box.YMin-last.Box.YMax < 1.2*maxH && overlapX(l.Box, last.Box) {
			runs[len(runs)-1] = append(runs[len(runs)-1], l)
		} else {
			runs = append(runs, []text.Line{l})
		}
	}
	sort.SliceStable(runs, func(i, j int) bool { return dist(runs[i], num) < dist(runs[j], num) })
	return joinLines(runs[0])
}

func dist(run []text.Line, b geom.Box) float64 {
	best := math.Inf(1)
	for _, l := range run {
		best = math.Min(best, math.Hypot((l.Box.XMin+l.Box.XMax-b.XMin-b.XMax)/2, (l.Box.YMin+l.Box.YMax-b.YMin-b.YMax)/2))
	}
	return best
}

func overlapX(a, b geom.Box) bool { return a.XMin < b.XMax && b.XMin < a.XMax }

func inside(b, win geom.Box) bool {
	return b.XMin >= win.XMin && b.YMin >= win.YMin && b.XMax <= win.XMax && b.YMax <= win.YMax
}

func sortedByY(ls []text.Line) []text.Line {
	out := append([]text.Line(nil), ls...)
	sort.SliceStable(out, func(i, j int) bool {
		if math.Abs(out[i].Box.YMin-out[j].Box.YMin) > 0.5*out[i].Box.Height() {
			return out[i].Box.YMin < out[j].Box.YMin
		}
		return out[i].Box.XMin < out[j].Box.XMin
	})
	return out
}

func joinLines(ls []text.Line) (string, geom.Box) {
	parts := make([]string, len(ls))
	box := ls[0].Box
	for i, l := range ls {
		parts[i] = strings.TrimSpace(l.Text)
		box = geom.Box{XMin: math.Min(box.XMin, l.Box.XMin), YMin: math.Min(box.YMin, l.Box.YMin), XMax: math.Max(box.XMax, l.Box.XMax), YMax: math.Max(box.YMax, l.Box.YMax)}
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " "), box
}
