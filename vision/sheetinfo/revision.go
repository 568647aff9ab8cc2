package sheetinfo

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

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
func revisionTable(words []text.Word, inTB func(geom.Box) bool) string {
	type row struct {
		mark string
		date time.Time
	}
	best := row{}
	for _, hd := range words {
		if !revHeaderRE.MatchString(strings.TrimRight(cleanToken(hd.Text), ":")) || !inTB(hd.Box) {
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
				if !found {
					break
				}
				mark := cleanToken(next.Text)
				rest := rowText(words, next, 40*lh, cols)
				if rest == "" {
					break
				}
				if !revValueRE.MatchString(mark) {
					// a row with no mark names its issue before its date
					// ("ASI #1  04/18/2025" under an empty No. column)
					if mark = issueName(next.Text + " " + rest); mark == "" {
						break
					}
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

// issueName is the name a dated revision-table row without a mark gives
// its issue: the words before its date, when they are a short name with a
// number ("ASI #1", "ADDENDUM 2", "BULLETIN 3"); else "".
func issueName(row string) string {
	loc := dateRE.FindStringIndex(row)
	if loc == nil {
		return ""
	}
	name := strings.Join(strings.Fields(row[:loc[0]]), " ")
	if name == "" || len(name) > 16 || len(strings.Fields(name)) > 3 || !strings.ContainsAny(name, "0123456789") {
		return ""
	}
	return strings.ToUpper(name)
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

// revValueRE is a revision mark: a letter or number, or a letter and number
// (P01, C2).
var revValueRE = regexp.MustCompile(`^[A-Z]{0,2}\d{0,3}$`)

// ocrRevision is a revision mark OCR read with its zeros as the letter O
// ("NO" for N0, "PO1" for P01, "O" for revision 0): revision marks leave
// the letter O out, as too like a zero (ASME Y14.35 skips I, O, Q, S, X
// and Z; ISO 19650's P01, C02 count from zero), so an O in one is a zero.
func ocrRevision(tok string) string {
	return strings.ReplaceAll(tok, "O", "0")
}

// revision reads the REV / REVISION / INDEX field, else the latest row of
// a revision table in the title block.
func (r *reader) revision() string {
	for _, lb := range r.labels {
		if lb.kind != fieldRevision {
			continue
		}
		for _, w := range r.valueWords(lb) {
			tok := cleanToken(w.Text)
			if tok != "" && len(tok) <= 4 && revValueRE.MatchString(tok) {
				if w.Conf > 0 && w.Conf < 1 {
					tok = ocrRevision(tok)
				}
				return tok
			}
			break // only the first word of its value
		}
	}
	return revisionTable(r.words, r.inTB)
}
