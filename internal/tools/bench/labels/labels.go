// Package labels holds our hand labels of real drawing sets (README.md
// says how they are read) and the comparisons the real-set benchmark and the
// vision packages' real-sheet tests make against them. The sets themselves
// live outside the repository.
package labels

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
)

//go:embed *.json
var embedded embed.FS

// Set is one labelled drawing file.
type Set struct {
	File        string  `json:"file"`
	About       string  `json:"about"`
	Conventions string  `json:"conventions"`
	LabelledBy  string  `json:"labelled_by"`
	ReviewedBy  string  `json:"reviewed_by"`
	Sheets      []Sheet `json:"sheets"`
}

// Sheet is one page's labels.
type Sheet struct {
	Page        int      `json:"page"`
	SheetNumber string   `json:"sheet_number"`
	Title       string   `json:"title"`
	Discipline  string   `json:"discipline"`
	Revision    string   `json:"revision"`
	Blocks      []Block  `json:"blocks"`
	Legends     []Legend `json:"legends"`
	Counts      []Count  `json:"counts"`
}

// Block is a labelled block.
type Block struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Scale string `json:"scale,omitempty"`
	Box   Box    `json:"box"`
}

// Legend is a labelled legend block's entries.
type Legend struct {
	Title   string  `json:"title"`
	Box     Box     `json:"box"`
	Entries []Entry `json:"entries"`
}

// Entry is one legend entry. Kind is symbol, line or text.
type Entry struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Kind        string `json:"kind"`
	Graphic     *Box   `json:"graphic,omitempty"`
}

// Count is a hand count of one legend symbol in one view (a block's title).
type Count struct {
	Label string `json:"label"`
	View  string `json:"view"`
	Count int    `json:"count"`
	Note  string `json:"note,omitempty"`
}

// Box is [x_min, y_min, x_max, y_max] in PDF points of the page as displayed.
type Box [4]float64

// At is the box in pixels of a render at dpi.
func (b Box) At(dpi float64) geom.Box {
	s := dpi / 72
	return geom.Box{XMin: b[0] * s, YMin: b[1] * s, XMax: b[2] * s, YMax: b[3] * s}
}

// Embedded is the labels built into the binary.
func Embedded() ([]Set, error) { return load(embedded) }

// Load reads every *.json of dir ("" means the embedded labels).
func Load(dir string) ([]Set, error) {
	if dir == "" {
		return Embedded()
	}
	return load(os.DirFS(dir))
}

func load(fsys fs.FS) ([]Set, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Set
	for _, n := range names {
		raw, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		var s Set
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("labels %s: %w", n, err)
		}
		if s.File == "" {
			s.File = strings.TrimSuffix(filepath.Base(n), ".json") + ".pdf"
		}
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("labels %s: %w", n, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// BlockTypes are the block types a label may name.
var BlockTypes = []string{"Plan", "Elevation", "Section", "Detail", "Diagram", "Schedule", "Legend", "GeneralNotes",
	"KeyNotes", "SheetNotes", "RevisionHistory", "TitleBlock", "Image"}

func (s Set) check() error {
	seen := map[int]bool{}
	for _, sh := range s.Sheets {
		if sh.Page < 1 || seen[sh.Page] {
			return fmt.Errorf("page %d missing or repeated", sh.Page)
		}
		seen[sh.Page] = true
		for _, b := range sh.Blocks {
			if !contains(BlockTypes, b.Type) {
				return fmt.Errorf("page %d: block type %q", sh.Page, b.Type)
			}
			if !b.Box.At(72).Valid() {
				return fmt.Errorf("page %d: block %q box %v", sh.Page, b.Title, b.Box)
			}
		}
		for _, lg := range sh.Legends {
			for _, e := range lg.Entries {
				if e.Kind != "symbol" && e.Kind != "line" && e.Kind != "text" {
					return fmt.Errorf("page %d: legend entry %q kind %q", sh.Page, e.Label, e.Kind)
				}
			}
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// Norm is the form in which texts are compared: upper case, every run of
// characters that are not letters or digits one space, trimmed; none
// beside a Chinese or Japanese character, whose writing puts no space
// between words (a text layer's "共用部 空調機" is OCR's "共用部空調機"). So
// "Floor Plan," = "FLOOR  PLAN" and "A-101" ≠ "A101" is left to SameNumber.
func Norm(s string) string {
	var b strings.Builder
	space := false
	var last rune
	for _, r := range strings.ToUpper(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 && !cjk(last) && !cjk(r) {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			last = r
			continue
		}
		space = true
	}
	return b.String()
}

// cjk: Han and kana.
func cjk(r rune) bool { return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) }

// SameText reports whether two texts read the same (Norm).
func SameText(a, b string) bool { return Norm(a) == Norm(b) }

// SameNumber reports whether two sheet numbers are the same as printed:
// case and surrounding space aside, separators count ("A-101" is not
// "A101": a reader who drops the hyphen has misread the field).
func SameNumber(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), ""), strings.Join(strings.Fields(b), ""))
}
