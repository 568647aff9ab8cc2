package compare

import (
	"image"
	"math"
	"regexp"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
)

// Dimension strings. A phrase is a dimension when a dimension string
// covers most of its characters (leading/trailing qualifiers such as TYP,
// CLR, ± or EQ aside):
//
//   - imperial feet-inches: 12'-6", 12' - 6 1/2", 12'-6.5", 12', 6", 6 1/2",
//     3/4" (typographic primes ′ ″ and quotes ’ ” read as ' and ");
//   - metric with a unit: 3600 mm, 3600mm, 3.6 m, 360 cm, 3,60 m;
//   - plain numbers — 3600, 3 600, 3,600, 3.60 — only when the text sits on
//     a dimension line: a straight line of ink along the text, just above or
//     below it or running into both ends of it (dimensionLine).
var (
	reImperial  = regexp.MustCompile(`\d+'(?:\s*-?\s*\d+(?:\s+\d+/\d+|\.\d+)?(?:\s*\d+/\d+)?")?|\d+(?:\s+\d+/\d+)?"|\d+/\d+"`)
	reMetric    = regexp.MustCompile(`(?i)\d+(?:[.,]\d+)?\s?(?:mm|cm|m)\b`)
	rePlainNum  = regexp.MustCompile(`^(?:\d{1,3}(?:[ ,]\d{3})+|\d+(?:\.\d+)?)$`)
	reQualifier = regexp.MustCompile(`(?i)^(?:±|\+/-|TYP\.?|CLR\.?|MIN\.?|MAX\.?|EQ\.?|\(?V\.?I\.?F\.?\)?|O\.?C\.?|NOM\.?|APPROX\.?|@)$`)
	primes      = strings.NewReplacer("′", "'", "’", "'", "‘", "'", "″", `"`, "”", `"`, "“", `"`, "''", `"`)
)

// dimensionKind tells whether s is a dimension string by its own letters:
// 2 for imperial or metric (with a unit), 1 for a plain number (which is a
// dimension only on a dimension line), 0 for neither.
func dimensionKind(s string) int {
	s = primes.Replace(strings.TrimSpace(s))
	var core []string
	for _, f := range strings.Fields(s) {
		if !reQualifier.MatchString(f) {
			core = append(core, f)
		}
	}
	s = strings.Join(core, " ")
	if s == "" {
		return 0
	}
	for _, re := range []*regexp.Regexp{reImperial, reMetric} {
		n := 0
		for _, m := range re.FindAllString(s, -1) {
			n += len(strings.ReplaceAll(m, " ", ""))
		}
		if n > 0 && 2*n >= len(strings.ReplaceAll(s, " ", "")) {
			return 2
		}
	}
	if rePlainNum.MatchString(s) {
		return 1
	}
	return 0
}

// dimensionLine reports whether the text in box b of img sits on a
// dimension line: a row (a column for vertical text) of ink covering 90 %
// of the text's length plus half its height on each side, within 0.9 text
// heights above or below it; or ink running into both ends of the text at
// its middle height for at least 1.7 text heights each side (a line the
// text breaks).
func dimensionLine(img *image.Gray, b geom.Box) bool {
	if img == nil || !b.Valid() {
		return false
	}
	vertical := b.Height() > 1.5*b.Width()
	// along(u, v) reads the pixel at position u along the text and v across
	// it, in image coordinates.
	dark := func(u, v int) bool {
		x, y := u, v
		if vertical {
			x, y = v, u
		}
		if !(image.Point{x, y}).In(img.Bounds()) {
			return false
		}
		return img.GrayAt(x, y).Y < 128
	}
	u0, u1, v0, v1 := b.XMin, b.XMax, b.YMin, b.YMax
	if vertical {
		u0, u1, v0, v1 = b.YMin, b.YMax, b.XMin, b.XMax
	}
	h := v1 - v0
	covered := func(v int, from, to float64) bool {
		n, m := 0, 0
		for u := int(from); u < int(to); u++ {
			m++
			if dark(u, v) {
				n++
			}
		}
		return m > 0 && float64(n) >= 0.9*float64(m)
	}
	for v := int(v0 - 0.9*h); v <= int(v1+0.9*h); v++ {
		inside := float64(v) >= v0+0.25*h && float64(v) <= v1-0.25*h
		if float64(v) < v0 || float64(v) > v1 {
			if covered(v, u0-h/2, u1+h/2) {
				return true
			}
		} else if inside && covered(v, u0-2*h, u0-0.3*h) && covered(v, u1+0.3*h, u1+2*h) {
			return true
		}
	}
	return false
}

// Title-block fields: a label that names the revision or the date, in the
// words of the drawing; descriptions call them "revision" and "date".
var (
	reRevLabel  = regexp.MustCompile(`(?i)^(?:REV(?:ISION)?|REV\.|ISSUE)(?:\s*(?:NO\.?|NUMBER|#))?$`)
	reDateLabel = regexp.MustCompile(`(?i)\bDATED?\b`)
	reDate      = regexp.MustCompile(`(?i)^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}|\d{1,2}\s+[A-Z]{3,9}\.?\s+\d{2,4}|[A-Z]{3,9}\.?\s+\d{1,2},?\s+\d{4})$`)
)

// fieldName turns a title-block label as read into the name a description
// uses: "revision" for REV, REV NO., REVISION…, "date" for DATE, ISSUE
// DATE…, else the label itself in lower case without its colon.
func fieldName(label string) string {
	l := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(label), ":."))
	switch {
	case l == "":
		return ""
	case reRevLabel.MatchString(l):
		return "revision"
	case reDateLabel.MatchString(l):
		return "date"
	}
	return strings.ToLower(l)
}

// isLabel reports whether a phrase reads as a field label: letters, at most
// four words, no digit.
func isLabel(s string) bool {
	if strings.ContainsAny(s, "0123456789") || len(strings.Fields(s)) > 4 {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }) >= 0
}

// isTitleBlock tells which block types hold revision metadata, whose
// changes are all title_block changes: the title block and the revision
// history table beside it.
func isTitleBlock(blockType string) bool {
	return blockType == "TitleBlock" || blockType == "RevisionHistory"
}

// symbolSeverity: a group of three or more symbols added or removed is
// major, fewer moderate; a symbol moved by an inch or more on paper is
// moderate, less minor.
func symbolSeverity(kind string, n int, dist, dpi float64) string {
	switch {
	case kind == KindMoved && dist >= dpi:
		return SeverityModerate
	case kind == KindMoved:
		return SeverityMinor
	case n >= 3:
		return SeverityMajor
	}
	return SeverityModerate
}

// lineworkSeverity: linework by its extent on paper — an inch or more
// major, a quarter inch or more moderate, less minor; hatches and fills
// minor whatever their size.
func lineworkSeverity(b geom.Box, dpi float64, hatch bool) string {
	ext := max(b.Width(), b.Height()) / dpi
	switch {
	case hatch:
		return SeverityMinor
	case ext >= 1:
		return SeverityMajor
	case ext >= 0.25:
		return SeverityModerate
	}
	return SeverityMinor
}

// titleBlock turns every change of a title block (or revision history) into
// a title_block change of minor severity. A text change is described by its
// field: the label words the old and new strings begin with ("REV 1" →
// "REV 2"), else the nearest unchanged label to the left on its line or
// above it; REV…/DATE… read as "revision"/"date" (fieldName), a date-like
// value without label as "date": "revision 1 → 2", "date 2024-01-05 →
// 2024-03-02". Other changes keep their description after "title block".
func (an *analysis) titleBlock() {
	if !isTitleBlock(an.b.BlockType) && !isTitleBlock(an.a.BlockType) {
		return
	}
	for i := range an.out {
		c := &an.out[i]
		m := an.meta[i]
		if m.text {
			c.Description = an.fieldChange(c, m.old, m.new)
		} else {
			c.Description = "title block " + c.Description
		}
		c.Category, c.Severity = CategoryTitleBlock, SeverityMinor
	}
}

// fieldChange describes a text change of a title block by its field.
func (an *analysis) fieldChange(c *Change, old, nw string) string {
	ow, nf := strings.Fields(old), strings.Fields(nw)
	k := 0
	switch {
	case len(ow) > 0 && len(nf) > 0:
		for k < len(ow)-1 && k < len(nf)-1 && strings.EqualFold(ow[k], nf[k]) && isLabel(ow[k]) {
			k++
		}
	case len(ow) > 0:
		for k < len(ow)-1 && isLabel(ow[k]) {
			k++
		}
	default:
		for k < len(nf)-1 && isLabel(nf[k]) {
			k++
		}
	}
	var label string
	if k > 0 {
		if len(ow) > 0 {
			label = strings.Join(ow[:k], " ")
			ow = ow[k:]
		}
		if len(nf) > 0 {
			label = strings.Join(nf[:k], " ")
			nf = nf[k:]
		}
	} else {
		label = an.labelNear(c.Bounds)
	}
	o, n := strings.Join(ow, " "), strings.Join(nf, " ")
	name := fieldName(label)
	if name == "" && (reDate.MatchString(o) || reDate.MatchString(n)) {
		name = "date"
	}
	var s string
	switch c.Kind {
	case KindAdded:
		s = n + " added"
	case KindRemoved:
		s = o + " removed"
	case KindMoved:
		return "title block " + c.Description
	default:
		s = o + " → " + n
	}
	if name == "" {
		return "title block " + s
	}
	return name + " " + s
}

// labelNear is the nearest unchanged label phrase left of box b on its
// line (within 8 text heights) or above it (within 2.5 text heights,
// overlapping it across), "" when none.
func (an *analysis) labelNear(b geom.Box) string {
	best, bd := "", math.Inf(1)
	h := b.Height()
	for _, p := range an.steady {
		if !isLabel(p.text) {
			continue
		}
		var d float64
		switch {
		case min(p.box.YMax, b.YMax)-max(p.box.YMin, b.YMin) >= 0.5*min(p.h, h) && p.box.XMax <= b.XMin+0.25*h:
			d = b.XMin - p.box.XMax
			if d > 8*h {
				continue
			}
		case min(p.box.XMax, b.XMax) > max(p.box.XMin, b.XMin) && p.box.YMax <= b.YMin+0.25*h:
			d = b.YMin - p.box.YMax
			if d > 2.5*h {
				continue
			}
		default:
			continue
		}
		if d < bd {
			best, bd = p.text, d
		}
	}
	return best
}
