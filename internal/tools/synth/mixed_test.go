package synth

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/geom"
)

// mixedSets are seeds 1–20 with Conventions "mixed", over the page sizes,
// with revisions.
var mixedSets = func() []*Set {
	var out []*Set
	pages := []string{"36x24", "42x30", "24x18"}
	for seed := int64(1); seed <= 20; seed++ {
		s, err := Generate(Options{Seed: seed, Sheets: 3, Revision: true, PageSize: pages[seed%3], Conventions: "mixed"})
		if err != nil {
			panic(err)
		}
		out = append(out, s)
	}
	return out
}()

func TestMixedDeterministic(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		o := Options{Seed: seed, Revision: true, Conventions: "mixed"}
		a, b := mustGen(t, o), mustGen(t, o)
		for _, rev := range []bool{false, true} {
			if !bytes.Equal(pdfBytes(t, a, rev), pdfBytes(t, b, rev)) {
				t.Errorf("seed %d rev %v: same seed, different PDF", seed, rev)
			}
		}
		if !bytes.Equal(truthBytes(t, a), truthBytes(t, b)) {
			t.Errorf("seed %d: same seed, different truth", seed)
		}
		c := mustGen(t, Options{Seed: seed, Revision: true})
		if bytes.Equal(pdfBytes(t, a, false), pdfBytes(t, c, false)) {
			t.Errorf("seed %d: mixed draws the classic sheets", seed)
		}
		// the base sheets do not depend on whether a revision is made
		d := mustGen(t, Options{Seed: seed, Conventions: "mixed"})
		if !bytes.Equal(pdfBytes(t, a, false), pdfBytes(t, d, false)) {
			t.Errorf("seed %d: mixed base PDF changes with Options.Revision", seed)
		}
	}
}

// boxes collects every box of a block's truth, named.
func blockBoxes(b BlockTruth) map[string]geom.Box {
	out := map[string]geom.Box{"box": b.Box}
	add := func(name string, p *geom.Box) {
		if p != nil {
			out[name] = *p
		}
	}
	add("bubble", b.BubbleBox)
	add("title", b.TitleBox)
	add("scale", b.ScaleBox)
	for i, e := range b.Entries {
		out[fmt.Sprintf("entry %d", i)] = e.Box
		out[fmt.Sprintf("entry %d label", i)] = e.LabelBox
		out[fmt.Sprintf("entry %d description", i)] = e.DescriptionBox
		add(fmt.Sprintf("entry %d graphic", i), e.GraphicBox)
	}
	for _, f := range b.Fields {
		out["field "+f.Key] = f.ValueBox
		if f.Label != "" {
			out["field label "+f.Key] = f.LabelBox
		}
	}
	for i, gb := range b.Grid {
		out[fmt.Sprintf("grid %d", i)] = gb.Box
	}
	if b.Note != nil {
		out["note"] = b.Note.Box
	}
	return out
}

var viewTypes = map[string]bool{"Plan": true, "Elevation": true, "Section": true, "Detail": true}

func TestMixedTruth(t *testing.T) {
	seen := map[string]int{}
	see := func(k string) { seen[k]++ }
	for _, s := range mixedSets {
		page := geom.Box{XMax: float64(s.Truth.WidthPx), YMax: float64(s.Truth.HeightPx)}
		for _, sh := range s.Truth.Sheets {
			where := fmt.Sprintf("seed %d page %d %s", s.Options.Seed, sh.Page, sh.SheetNumber)
			see("kind " + sh.Kind)
			see("tb " + sh.TitleBlockStyle)
			see("number " + sh.NumberStyle)
			see("lang " + sh.Language)
			see(fmt.Sprintf("title lines %d", len(sh.TitleLines)))
			if sh.OutlinedText {
				see("outlined")
			}
			if len(sh.TitleLines) < 1 || len(sh.TitleLines) > 3 || strings.Join(sh.TitleLines, " ") != sh.Title {
				t.Errorf("%s: title %q in lines %q", where, sh.Title, sh.TitleLines)
			}
			want := titleDiscipline(sh.Title)
			if sh.NumberStyle == "ncs" {
				want = sheetmeta.Discipline(sh.SheetNumber)
			}
			if sh.Discipline != want || want == "" {
				t.Errorf("%s: discipline %q, want %q", where, sh.Discipline, want)
			}
			checkMixedBlocks(t, where, sh.Blocks, page, see)
			checkInstances(t, where, sh.Blocks, sh.Instances, page)
			checkMixedBlocks(t, where+" rev", sh.Revision.Blocks, page, func(string) {})
			checkInstances(t, where+" rev", sh.Revision.Blocks, sh.Revision.Instances, page)
			views := 0
			for _, b := range sh.Blocks {
				if viewTypes[b.Type] {
					views++
				}
			}
			see(fmt.Sprintf("views %d", views))
			for _, in := range sh.Instances {
				if len(in.Texts) > 0 {
					see("callout instance")
					if in.Angle != 0 || len(in.Texts) != 2 {
						t.Errorf("%s: callout %d at %g° with texts %+v", where, in.ID, in.Angle, in.Texts)
					}
					for _, tx := range in.Texts {
						if !inside(tx.Box, in.Box) {
							t.Errorf("%s: callout %d text %q outside its box", where, in.ID, tx.Text)
						}
					}
				}
			}
			for _, c := range sh.Revision.Changes {
				if !c.Box.Valid() || !inside(c.Box, page) {
					t.Errorf("%s: change %+v", where, c)
				}
			}
		}
	}
	t.Logf("conventions seen: %v", seen)
	for _, k := range []string{"kind drawing", "kind cover", "kind schedule", "tb strip", "tb vertical", "tb iso", "lang de",
		"number ncs", "number plain", "number iso19650", "title lines 1", "title lines 2", "title lines 3", "outlined",
		"views 1", "views 2", "views 3", "views 4", "Plan", "Elevation", "Section", "Detail", "grid", "shared grid",
		"legend columns 1", "legend columns 2", "text left", "text right", "legend table", "legend note", "color",
		"entry symbol", "entry line", "entry text", "callout instance", "unlabelled field", "Diagram"} {
		if seen[k] == 0 {
			t.Errorf("no %q in seeds 1-20", k)
		}
	}
}

func checkMixedBlocks(t *testing.T, where string, blocks []BlockTruth, page geom.Box, see func(string)) {
	t.Helper()
	tbs := 0
	for i, b := range blocks {
		see(b.Type)
		for name, bx := range blockBoxes(b) {
			if !bx.Valid() || !inside(bx, page) {
				t.Errorf("%s: %s %q %s %+v outside the page", where, b.Type, b.Title, name, bx)
			}
			if name != "box" && !inside(bx, b.Box) {
				t.Errorf("%s: %s %q %s %+v outside the block %+v", where, b.Type, b.Title, name, bx, b.Box)
			}
		}
		for _, o := range blocks[i+1:] {
			if overlap(b.Box, o.Box) {
				t.Errorf("%s: %s %q %+v and %s %q %+v overlap", where, b.Type, b.Title, b.Box, o.Type, o.Title, o.Box)
			}
		}
		if viewTypes[b.Type] {
			if b.Title == "" || b.TitleBox == nil || b.BubbleBox == nil || b.ViewNumber == "" || b.ViewSheet == "" || b.Scale == "" {
				t.Errorf("%s: view %s %q without a full title bar", where, b.Type, b.Title)
			}
			if len(b.Grid) > 0 {
				see("grid")
			}
			if b.SharedGrid {
				see("shared grid")
			}
		}
		switch b.Type {
		case "Legend":
			see(fmt.Sprintf("legend columns %d", b.Columns))
			see("text " + b.TextSide)
			if b.Header != nil {
				see("legend table")
			}
			if b.Note != nil {
				see("legend note")
			}
			for j, e := range b.Entries {
				see("entry " + e.Kind)
				if e.Color != "" {
					see("color")
				}
				if e.Label == "" || e.Description == "" || (e.Kind == "text") == e.HasGraphic || (e.GraphicBox != nil) != e.HasGraphic {
					t.Errorf("%s: legend entry %+v", where, e)
				}
				if e.GraphicBox != nil && !inside(*e.GraphicBox, e.Box) {
					t.Errorf("%s: entry %s graphic outside its row", where, e.Label)
				}
				for _, o := range b.Entries[j+1:] {
					if overlap(e.Box, o.Box) {
						t.Errorf("%s: legend entries %s and %s overlap", where, e.Label, o.Label)
					}
				}
				if b.Note != nil && overlap(b.Note.Box, e.Box) {
					t.Errorf("%s: legend note overlaps entry %s", where, e.Label)
				}
			}
		case "TitleBlock":
			tbs++
			keys := map[string]bool{}
			for _, f := range b.Fields {
				keys[f.Key] = true
				if f.Label == "" {
					see("unlabelled field")
				}
			}
			for _, k := range []string{"project", "sheet_title", "sheet_number", "date", "drawn_by", "revision", "scale"} {
				if !keys[k] {
					t.Errorf("%s: title block lacks %s", where, k)
				}
			}
		}
	}
	if tbs != 1 {
		t.Errorf("%s: %d title blocks", where, tbs)
	}
}

// TestMixedTitleFields checks that the title block prints the sheet's
// number and title.
func TestMixedTitleFields(t *testing.T) {
	for _, s := range mixedSets {
		for _, sh := range s.Truth.Sheets {
			for _, b := range sh.Blocks {
				for _, f := range b.Fields {
					if f.Key == "sheet_number" && f.Value != sh.SheetNumber || f.Key == "sheet_title" && f.Value != sh.Title {
						t.Errorf("seed %d page %d: %s %q", s.Options.Seed, sh.Page, f.Key, f.Value)
					}
				}
			}
		}
	}
}

// TestOutlinedText renders the pages: an outlined page has no text layer,
// another page has its sheet number as text.
func TestOutlinedText(t *testing.T) {
	var out, plain int
	for _, s := range mixedSets[:8] {
		data := pdfBytes(t, s, false)
		pages := strings.Split(pdftext(t, data), "\f")
		for i, sh := range s.Truth.Sheets {
			text := strings.TrimSpace(pages[i])
			if sh.OutlinedText {
				out++
				if text != "" {
					t.Errorf("seed %d page %d: outlined page has text %.80q", s.Options.Seed, i+1, text)
				}
			} else {
				plain++
				if !strings.Contains(strings.Join(strings.Fields(text), " "), sh.SheetNumber) {
					t.Errorf("seed %d page %d: sheet number %s not in the text layer", s.Options.Seed, i+1, sh.SheetNumber)
				}
			}
		}
	}
	if out == 0 || plain == 0 {
		t.Errorf("%d outlined and %d text pages checked", out, plain)
	}
}

// TestStrokeFont checks that the stroke font has every character the
// mixed sheets print.
func TestStrokeFont(t *testing.T) {
	missing := map[rune]bool{}
	check := func(s string) {
		for _, r := range s {
			if r != ' ' && glyphs[r] == nil && (r < 'a' || r > 'z' || glyphs[r-'a'+'A'] == nil) {
				missing[r] = true
			}
		}
	}
	for _, s := range mixedSets {
		for _, sh := range s.sheets {
			for _, b := range sh.blocks {
				for _, o := range b.dl.ops {
					if o.k == opText {
						check(o.t.S)
					}
					if o.k == opSymbol {
						for _, p := range o.sym.prims {
							check(p.s)
						}
					}
				}
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("stroke font lacks %q", string(keys(missing)))
	}
}

func keys(m map[rune]bool) []rune {
	var out []rune
	for r := range m {
		out = append(out, r)
	}
	return out
}
