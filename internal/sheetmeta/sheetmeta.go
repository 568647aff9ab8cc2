// Package sheetmeta knows the conventions of sheet numbers: disciplines by
// US National CAD Standard designator, and the normalised form used to
// match a sheet across revisions (A-100 = A100 = A.100).
package sheetmeta

import (
	"strings"
	"unicode"
)

// Disciplines by NCS designator. Two-letter designators come first so that
// FP-101 is fire protection, not F + P.
var designators = []struct{ prefix, discipline string }{
	{"FP", "fire_protection"},
	{"G", "general"}, {"H", "hazardous_materials"}, {"V", "survey_mapping"}, {"B", "geotechnical"},
	{"W", "civil_works"}, {"C", "civil"}, {"L", "landscape"}, {"S", "structural"}, {"A", "architectural"},
	{"I", "interiors"}, {"Q", "equipment"}, {"F", "fire_protection"}, {"P", "plumbing"}, {"D", "process"},
	{"M", "mechanical"}, {"E", "electrical"}, {"T", "telecommunications"}, {"R", "resource"},
	{"X", "other_disciplines"}, {"Z", "contractor_shop_drawings"}, {"O", "operations"},
}

// Disciplines lists every discipline value, in NCS order.
func Disciplines() []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range designators {
		if !seen[d.discipline] {
			seen[d.discipline] = true
			out = append(out, d.discipline)
		}
	}
	return out
}

// ValidDiscipline reports whether d is a known discipline (or empty).
func ValidDiscipline(d string) bool {
	if d == "" {
		return true
	}
	for _, x := range designators {
		if x.discipline == d {
			return true
		}
	}
	return false
}

// Normalize upper-cases a sheet number and removes separators.
func Normalize(number string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(strings.TrimSpace(number)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Discipline infers the discipline from a sheet number's letters
// ("E201A" → electrical, "FP-2.01" → fire_protection); "" when unknown.
func Discipline(number string) string {
	n := Normalize(number)
	i := strings.IndexFunc(n, unicode.IsDigit)
	if i <= 0 {
		return ""
	}
	letters := n[:i]
	for _, d := range designators {
		// a designator may carry a modifier letter (AF101: architectural finishes; EP: electrical power)
		if strings.HasPrefix(letters, d.prefix) && len(letters) <= len(d.prefix)+1 {
			return d.discipline
		}
	}
	return ""
}

// titleDisciplines name disciplines by words of a sheet's title, for sheet
// numbers without a designator ("500-00", "5.1.00", "WD-1/01").
var titleDisciplines = []struct {
	words      []string
	discipline string
}{
	{[]string{"ELECTRICAL", "ELECT.", "ELEC.", "LIGHTING", "POWER", "ELEKTRO", "BELEUCHTUNG", "電気", "照明"}, "electrical"},
	{[]string{"PLUMBING", "PIPING", "DRAINAGE", "SANITARY", "COLD WATER", "HOT WATER", "WATER SUPPLY", "SANITÄR", "給排水", "衛生"}, "plumbing"},
	{[]string{"MECHANICAL", "HVAC", "VENTILATION", "AIR CONDITIONING", "LÜFTUNG", "HEIZUNG", "換気", "空調", "機器表"}, "mechanical"},
	{[]string{"FIRE PROTECTION", "SPRINKLER", "BRANDSCHUTZ"}, "fire_protection"},
	{[]string{"STRUCTURAL", "FOUNDATION", "FOOTING", "FRAMING", "SLAB", "SHORING", "TRAGWERK", "STATIK", "構造"}, "structural"},
	{[]string{"LANDSCAPE", "PLANTING", "IRRIGATION"}, "landscape"},
	{[]string{"CIVIL", "GRADING", "SITE UTILITIES", "EARTHWORK"}, "civil"},
	{[]string{"FLOOR PLAN", "CEILING", "ELEVATION", "SECTION", "ROOF PLAN", "SITE PLAN", "DOOR", "WINDOW", "FINISH", "GRUNDRISS",
		"ANSICHT", "SCHNITT", "平面図", "立面図", "断面図"}, "architectural"},
}

// DisciplineOfTitle infers a discipline from a sheet title's words, "" when
// none names one: the discipline named first ("FLOOR PLAN / ELECT. PLAN" is
// an architect's sheet), structural framing and foundations before the
// architectural words they come with ("ROOF FRAMING PLAN").
func DisciplineOfTitle(title string) string {
	t := " " + strings.ToUpper(title) + " "
	best, at := "", len(t)+1
	for _, d := range titleDisciplines {
		for _, w := range d.words {
			i := strings.Index(t, " "+w+" ")
			if w[0] > 0x7f || strings.HasSuffix(w, ".") {
				i = strings.Index(t, w)
			}
			if i < 0 {
				continue
			}
			if d.discipline == "structural" {
				i -= len(t) // ahead of any other
			}
			if i < at {
				best, at = d.discipline, i
			}
		}
	}
	return best
}
