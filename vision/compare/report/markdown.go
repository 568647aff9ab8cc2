// Package report renders a compare job's result (compare.Report) for
// people: as Markdown, as a PDF with each changed overlay's image and its
// change list, and as the newer drawing itself marked up with revision
// clouds — real PDF annotations (cloudy polygons with the changes'
// descriptions as their notes), which Bluebeam and Acrobat users open,
// review and reply to like their own markups.
//
// Coordinates: a change's bounds are in its block's pixels; a block's
// Bounds on its sheet are in sheet pixels at the resolution the sheet was
// rendered at (300 DPI in the service), and a block image is a crop of its
// sheet at that resolution, so a change's sheet position is its bounds
// moved by its block's top-left corner (Clouds). Markup maps sheet pixels
// to the PDF page's user space.
package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/vision/compare"
)

// Score bands of an overlay (compare.Overlay.Score), by the fraction of
// ink that still differs after alignment.
const (
	BandNearIdentical = "near-identical" // score ≥ 0.95
	BandModerate      = "moderate"       // 0.80 ≤ score < 0.95
	BandSignificant   = "significant"    // 0.60 ≤ score < 0.80
	BandMajor         = "major"          // score < 0.60
)

// Band names the band of an overlay's score.
func Band(score float64) string {
	switch {
	case score >= 0.95:
		return BandNearIdentical
	case score >= 0.80:
		return BandModerate
	case score >= 0.60:
		return BandSignificant
	}
	return BandMajor
}

// Orders in which the summary lists categories, severities and kinds; a
// key outside them follows, alphabetically.
var (
	categoryOrder = []string{compare.CategorySymbol, compare.CategoryText, compare.CategoryDimension,
		compare.CategoryLinework, compare.CategoryRevisionMark, compare.CategoryTitleBlock}
	severityOrder = []string{compare.SeverityMajor, compare.SeverityModerate, compare.SeverityMinor}
	kindOrder     = []string{compare.KindAdded, compare.KindRemoved, compare.KindModified, compare.KindMoved}
)

// ordered lists a count map's keys in the given order, others after.
func ordered(m map[string]int, order []string) []string {
	var out []string
	for _, k := range order {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	rest := slices.Sorted(maps.Keys(m))
	for _, k := range rest {
		if !slices.Contains(order, k) {
			out = append(out, k)
		}
	}
	return out
}

// Markdown writes the report (compare.Report in vision/compare/report.go)
// as Markdown: a summary (what was compared, has_changes, counts by
// category/severity), sheets added/removed/renumbered, per sheet pair its
// overlays with score, band (≥0.95 near-identical, 0.80–0.95 moderate,
// 0.60–0.80 significant, <0.60 major) and change list.
func Markdown(w io.Writer, r *compare.Report) error {
	if r == nil {
		return fmt.Errorf("report: no report")
	}
	m := &mdWriter{w: w}
	m.printf("# Revision comparison: %s → %s\n\n", md(sideName(r.Old)), md(sideName(r.New)))
	for _, l := range summaryLines(r) {
		m.printf("%s\n", md(l))
	}
	m.printf("\n")
	for _, t := range countTables(r) {
		if len(t.rows) == 0 {
			continue
		}
		m.printf("| %s | changes |\n| --- | ---: |\n", t.title)
		for _, row := range t.rows {
			m.printf("| %s | %d |\n", md(row.key), row.n)
		}
		m.printf("\n")
	}
	if len(r.Warnings) > 0 {
		m.printf("## Warnings\n\n")
		for _, s := range r.Warnings {
			m.printf("- %s\n", md(s))
		}
		m.printf("\n")
	}
	for _, sec := range []struct {
		title  string
		sheets []compare.ReportSheet
	}{{"Sheets added", r.SheetsAdded}, {"Sheets removed", r.SheetsRemoved}} {
		if len(sec.sheets) == 0 {
			continue
		}
		m.printf("## %s\n\n", sec.title)
		for _, s := range sec.sheets {
			m.printf("- %s\n", md(sheetName(s)))
		}
		m.printf("\n")
	}
	if len(r.SheetsRenumbered) > 0 {
		m.printf("## Sheets renumbered\n\n")
		for _, s := range r.SheetsRenumbered {
			m.printf("- %s → %s\n", md(sheetName(s.Old)), md(sheetName(s.New)))
		}
		m.printf("\n")
	}
	for _, p := range r.Pairs {
		m.printf("## %s\n\n", md(pairTitle(p)))
		for _, b := range p.BlocksAdded {
			m.printf("- Block added: %s\n", md(blockName(b)))
		}
		for _, b := range p.BlocksRemoved {
			m.printf("- Block removed: %s\n", md(blockName(b)))
		}
		if len(p.BlocksAdded)+len(p.BlocksRemoved) > 0 {
			m.printf("\n")
		}
		for _, o := range p.Overlays {
			m.printf("### %s\n\n", md(overlayTitle(o)))
			m.printf("- Score %.3f (%s)\n", o.Score, Band(o.Score))
			m.printf("- %s\n", md(transformLine(o.Transform)))
			if o.URI != "" {
				m.printf("- Overlay image: %s\n", o.URI)
			}
			for _, s := range o.Warnings {
				m.printf("- Warning: %s\n", md(s))
			}
			m.printf("\n")
			switch {
			case !r.Analyzed:
				m.printf("Change analysis was not run.\n\n")
			case len(o.Changes) == 0:
				m.printf("No changes.\n\n")
			default:
				m.printf("| # | severity | category | kind | change | confidence |\n| ---: | --- | --- | --- | --- | ---: |\n")
				for i, c := range o.Changes {
					m.printf("| %d | %s | %s | %s | %s | %.2f |\n", i+1, c.Severity, c.Category, c.Kind, md(c.Description), c.Confidence)
				}
				m.printf("\n")
			}
		}
	}
	return m.err
}

// mdWriter writes until the first error and keeps it.
type mdWriter struct {
	w   io.Writer
	err error
}

func (m *mdWriter) printf(format string, args ...any) {
	if m.err == nil {
		_, m.err = fmt.Fprintf(m.w, format, args...)
	}
}

// md escapes text for a Markdown line or table cell: no line breaks, and
// the characters that would start markup or split a cell escaped.
func md(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\|*_[]<>#`+"`", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// summaryLines are the report's opening sentences.
func summaryLines(r *compare.Report) []string {
	typ := strings.ToLower(cmp.Or(r.Type, "drawing"))
	out := []string{fmt.Sprintf("Compared %s %s (older) with %s (newer).", typ, sideName(r.Old), sideName(r.New))}
	switch {
	case !r.Analyzed && r.HasChanges:
		out = append(out, "Change analysis was not run; sheets or blocks were added or removed.")
	case !r.Analyzed:
		out = append(out, "Change analysis was not run (overlays only).")
	case r.HasChanges:
		out = append(out, fmt.Sprintf("Changes found: %d.", total(r.BySeverity)))
	default:
		out = append(out, "No changes found.")
	}
	nOv := 0
	for _, p := range r.Pairs {
		nOv += len(p.Overlays)
	}
	out = append(out, fmt.Sprintf("Sheet pairs: %d, overlays: %d; sheets added: %d, removed: %d, renumbered: %d.",
		len(r.Pairs), nOv, len(r.SheetsAdded), len(r.SheetsRemoved), len(r.SheetsRenumbered)))
	return out
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// countTable is one of the summary's count tables.
type countTable struct {
	title string
	rows  []countRow
}

type countRow struct {
	key string
	n   int
}

func countTables(r *compare.Report) []countTable {
	mk := func(title string, m map[string]int, order []string) countTable {
		t := countTable{title: title}
		for _, k := range ordered(m, order) {
			t.rows = append(t.rows, countRow{k, m[k]})
		}
		return t
	}
	return []countTable{
		mk("Severity", r.BySeverity, severityOrder),
		mk("Category", r.ByCategory, categoryOrder),
		mk("Kind", r.ByKind, kindOrder),
	}
}

func sideName(s compare.ReportSide) string {
	switch {
	case s.Name != "" && s.ID != "":
		return fmt.Sprintf("%s (%s)", s.Name, s.ID)
	case s.Name != "":
		return s.Name
	}
	return cmp.Or(s.ID, "?")
}

// sheetName: "A-101 FIRST FLOOR PLAN (page 3)".
func sheetName(s compare.ReportSheet) string {
	parts := []string{}
	if s.Number != "" {
		parts = append(parts, s.Number)
	}
	if s.Title != "" {
		parts = append(parts, s.Title)
	}
	if len(parts) == 0 {
		parts = append(parts, cmp.Or(s.SheetID, "sheet"))
	}
	if s.Page > 0 {
		parts = append(parts, fmt.Sprintf("(page %d)", s.Page))
	}
	return strings.Join(parts, " ")
}

func pairTitle(p compare.ReportSheetPair) string {
	o, n := sheetName(p.Old), sheetName(p.New)
	if o == n {
		return "Sheet " + n
	}
	return "Sheet " + o + " → " + n
}

// blockName: "Plan FIRST FLOOR PLAN".
func blockName(b compare.ReportBlock) string {
	s := strings.TrimSpace(b.Type + " " + b.Title)
	return cmp.Or(s, b.BlockID, "block")
}

func overlayTitle(o compare.ReportOverlay) string {
	a, b := blockName(o.Old), blockName(o.New)
	if a == b {
		return b
	}
	return a + " → " + b
}

// transformLine describes how A was aligned onto B.
func transformLine(t compare.Transform) string {
	return fmt.Sprintf("Alignment: scale %.4f, rotation %.2f°, shift (%.1f, %.1f) px, residual %.2f px",
		t.Scale, t.RotationDeg, t.Tx, t.Ty, t.ResidualPx)
}
