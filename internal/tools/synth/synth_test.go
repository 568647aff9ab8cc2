package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/vision/geom"
)

func mustGen(t *testing.T, o Options) *Set {
	t.Helper()
	s, err := Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func pdfBytes(t *testing.T, s *Set, rev bool) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	if rev {
		err = s.WriteRevisionPDF(&b)
	} else {
		err = s.WritePDF(&b)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func truthBytes(t *testing.T, s *Set) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteTruth(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDeterministic(t *testing.T) {
	a := mustGen(t, Options{Seed: 7, Revision: true})
	b := mustGen(t, Options{Seed: 7, Revision: true})
	if !bytes.Equal(pdfBytes(t, a, false), pdfBytes(t, b, false)) {
		t.Error("same seed, different PDF")
	}
	if !bytes.Equal(pdfBytes(t, a, true), pdfBytes(t, b, true)) {
		t.Error("same seed, different revision PDF")
	}
	if !bytes.Equal(truthBytes(t, a), truthBytes(t, b)) {
		t.Error("same seed, different truth")
	}
	// the base sheets do not depend on whether a revision is made
	c := mustGen(t, Options{Seed: 7})
	if !bytes.Equal(pdfBytes(t, a, false), pdfBytes(t, c, false)) {
		t.Error("base PDF changes with Options.Revision")
	}
	if c.WriteRevisionPDF(&bytes.Buffer{}) == nil {
		t.Error("WriteRevisionPDF without a revision should fail")
	}
	d := mustGen(t, Options{Seed: 8, Revision: true})
	if bytes.Equal(pdfBytes(t, a, false), pdfBytes(t, d, false)) {
		t.Error("different seeds, same PDF")
	}
	if bytes.Equal(truthBytes(t, a), truthBytes(t, d)) {
		t.Error("different seeds, same truth")
	}
}

func TestOptions(t *testing.T) {
	for _, c := range []struct {
		page string
		w, h int
	}{{"", 10800, 7200}, {"42x30", 12600, 9000}, {"24x18", 7200, 5400}, {"ARCH-D", 10800, 7200}} {
		s := mustGen(t, Options{Seed: 1, Sheets: 1, PageSize: c.page})
		if s.Truth.WidthPx != c.w || s.Truth.HeightPx != c.h || s.Truth.DPI != 300 {
			t.Errorf("%q: %dx%d at %g", c.page, s.Truth.WidthPx, s.Truth.HeightPx, s.Truth.DPI)
		}
		if len(s.Truth.Sheets) != 1 {
			t.Errorf("%q: %d sheets", c.page, len(s.Truth.Sheets))
		}
	}
	if s := mustGen(t, Options{Seed: 1}); len(s.Truth.Sheets) != 3 {
		t.Errorf("default sheets: %d", len(s.Truth.Sheets))
	}
	if s := mustGen(t, Options{Seed: 1, Sheets: 1, DPI: 150}); s.Truth.WidthPx != 5400 {
		t.Errorf("dpi 150: width %d", s.Truth.WidthPx)
	}
	for _, o := range []Options{{PageSize: "A4"}, {Sheets: -1}, {DPI: 1}} {
		if _, err := Generate(o); err == nil {
			t.Errorf("%+v: want an error", o)
		}
	}
}

// sets are generated once for the checks below: several seeds, every page
// size, with revisions.
var sets = func() []*Set {
	var out []*Set
	pages := []string{"36x24", "42x30", "24x18"}
	for seed := int64(1); seed <= 9; seed++ {
		s, err := Generate(Options{Seed: seed, Sheets: 4, Revision: true, PageSize: pages[seed%3]})
		if err != nil {
			panic(err)
		}
		out = append(out, s)
	}
	return out
}()

func inside(in, out geom.Box) bool {
	return in.XMin >= out.XMin && in.YMin >= out.YMin && in.XMax <= out.XMax && in.YMax <= out.YMax
}

func overlap(a, b geom.Box) bool {
	return a.XMin < b.XMax && b.XMin < a.XMax && a.YMin < b.YMax && b.YMin < a.YMax
}

func checkInstances(t *testing.T, where string, blocks []BlockTruth, insts []InstanceTruth, page geom.Box) {
	for i, in := range insts {
		if in.Block < 0 || in.Block >= len(blocks) || blocks[in.Block].Type != "Plan" {
			t.Fatalf("%s: instance %d in block %d", where, in.ID, in.Block)
		}
		if !in.Box.Valid() || !inside(in.Box, blocks[in.Block].Box) || !inside(in.Box, page) {
			t.Errorf("%s: instance %d box %+v outside its plan %+v", where, in.ID, in.Box, blocks[in.Block].Box)
		}
		if in.Scale < 0.5 || in.Scale > 2 || in.Angle < 0 || in.Angle >= 360 {
			t.Errorf("%s: instance %d scale %g angle %g", where, in.ID, in.Scale, in.Angle)
		}
		lb := blocks[in.LegendBlock]
		if lb.Type != "Legend" {
			t.Fatalf("%s: instance %d refers to a %s", where, in.ID, lb.Type)
		}
		e := lb.Entries[in.LegendEntry]
		if !e.HasGraphic || e.Label != in.Label || e.Symbol != in.Symbol {
			t.Errorf("%s: instance %d (%s %s) vs legend entry %+v", where, in.ID, in.Label, in.Symbol, e)
		}
		c := in.Center
		if c.X < in.Box.XMin || c.X > in.Box.XMax || c.Y < in.Box.YMin || c.Y > in.Box.YMax {
			t.Errorf("%s: instance %d centre outside its box", where, in.ID)
		}
		for _, o := range insts[i+1:] {
			if overlap(in.Box, o.Box) {
				t.Errorf("%s: instances %d and %d overlap", where, in.ID, o.ID)
			}
			if in.Suffix != nil && overlap(in.Suffix.Box, o.Box) || o.Suffix != nil && overlap(o.Suffix.Box, in.Box) {
				t.Errorf("%s: suffix of %d or %d overlaps the other", where, in.ID, o.ID)
			}
		}
	}
}

func TestInstances(t *testing.T) {
	var n, odd, suffixed, lines, walls int
	scales := map[int]bool{}
	for _, s := range sets {
		page := geom.Box{XMax: float64(s.Truth.WidthPx), YMax: float64(s.Truth.HeightPx)}
		for _, sh := range s.Truth.Sheets {
			where := fmt.Sprintf("seed %d %s", s.Options.Seed, sh.SheetNumber)
			if len(sh.Instances) < 5 {
				t.Errorf("%s: only %d instances", where, len(sh.Instances))
			}
			checkInstances(t, where, sh.Blocks, sh.Instances, page)
			checkInstances(t, where+" rev", sh.Revision.Blocks, sh.Revision.Instances, page)
			for _, in := range sh.Instances {
				n++
				if math.Mod(in.Angle, 90) != 0 {
					odd++
				}
				if in.Suffix != nil {
					suffixed++
				}
				switch in.Crossed {
				case "line":
					lines++
				case "wall":
					walls++
				}
				scales[int(in.Scale*4)] = true
			}
		}
	}
	t.Logf("%d instances: %d at odd angles, %d with suffix, %d crossed by lines, %d on walls", n, odd, suffixed, lines, walls)
	if odd < n*9/10 {
		t.Errorf("only %d of %d angles are not multiples of 90°", odd, n)
	}
	if f := float64(suffixed) / float64(n); f < 0.1 || f > 0.3 {
		t.Errorf("suffix share %.2f, want about 0.2", f)
	}
	if f := float64(lines+walls) / float64(n); f < 0.07 || f > 0.25 || lines == 0 || walls == 0 {
		t.Errorf("crossed share %.2f (%d lines, %d walls), want about 0.15", f, lines, walls)
	}
	if len(scales) < 6 {
		t.Errorf("scales cover only %v quarter steps", scales)
	}
}

func TestBlocks(t *testing.T) {
	discs := map[string]bool{}
	tbPos := map[string]bool{}
	number := regexp.MustCompile(`^[A-Z]{1,2}-?\d(\d\d[A-Z]?|\.\d{1,2})$`)
	for _, s := range sets {
		page := geom.Box{XMax: float64(s.Truth.WidthPx), YMax: float64(s.Truth.HeightPx)}
		for _, sh := range s.Truth.Sheets {
			where := fmt.Sprintf("seed %d %s", s.Options.Seed, sh.SheetNumber)
			if !number.MatchString(sh.SheetNumber) {
				t.Errorf("%s: odd sheet number", where)
			}
			if sh.Discipline == "" || sh.Discipline != sheetmeta.Discipline(sh.SheetNumber) {
				t.Errorf("%s: discipline %q", where, sh.Discipline)
			}
			discs[sh.Discipline] = true
			tbPos[sh.TitleBlockPosition] = true
			count := map[string]int{}
			for i, b := range sh.Blocks {
				count[b.Type]++
				if !b.Box.Valid() || !inside(b.Box, page) {
					t.Errorf("%s: %s box %+v", where, b.Type, b.Box)
				}
				for _, o := range sh.Blocks[i+1:] {
					if overlap(b.Box, o.Box) {
						t.Errorf("%s: %s %+v and %s %+v overlap", where, b.Type, b.Box, o.Type, o.Box)
					}
				}
				switch b.Type {
				case "Legend":
					if b.Title != "LEGEND" && b.Title != "SYMBOL LEGEND" {
						t.Errorf("%s: legend title %q", where, b.Title)
					}
					text := 0
					for _, e := range b.Entries {
						if e.Label == "" || e.Description == "" || !inside(e.LabelBox, b.Box) || !inside(e.DescriptionBox, b.Box) {
							t.Errorf("%s: legend entry %+v", where, e)
						}
						if !e.HasGraphic {
							text++
							if e.GraphicBox != nil {
								t.Errorf("%s: text-only entry with a graphic", where)
							}
						} else if e.GraphicBox == nil || !inside(*e.GraphicBox, b.Box) || e.Symbol == "" {
							t.Errorf("%s: entry %s graphic %v", where, e.Label, e.GraphicBox)
						}
					}
					if len(b.Entries) < 6 || len(b.Entries) > 20 || text < 1 || text > 3 {
						t.Errorf("%s: legend with %d entries, %d text-only", where, len(b.Entries), text)
					}
				case "Plan":
					if !strings.HasSuffix(b.Title, "PLAN") || !strings.Contains(b.Scale, "= 1'-0\"") || len(b.Rooms) < 2 {
						t.Errorf("%s: plan %q %q with %d rooms", where, b.Title, b.Scale, len(b.Rooms))
					}
				case "TitleBlock":
					keys := map[string]FieldTruth{}
					for _, f := range b.Fields {
						keys[f.Key] = f
						if !inside(f.LabelBox, b.Box) || !inside(f.ValueBox, b.Box) {
							t.Errorf("%s: field %s outside the title block", where, f.Key)
						}
					}
					for _, k := range []string{"project", "sheet_title", "sheet_number", "date", "drawn_by", "checked_by", "revision", "scale"} {
						if keys[k].Value == "" {
							t.Errorf("%s: title block lacks %s", where, k)
						}
					}
					if keys["sheet_number"].Value != sh.SheetNumber || keys["sheet_title"].Value != sh.Title {
						t.Errorf("%s: title block shows %q %q", where, keys["sheet_number"].Value, keys["sheet_title"].Value)
					}
					if l := keys["sheet_number"].Label; l != "SHEET NUMBER" && l != "DRAWING NO." && l != "SHEET NO." {
						t.Errorf("%s: number label %q", where, l)
					}
					if l := keys["sheet_title"].Label; l != "DRAWING TITLE" && l != "SHEET TITLE" {
						t.Errorf("%s: title label %q", where, l)
					}
				}
			}
			if count["Plan"] < 1 || count["Plan"] > 2 || count["Legend"] < 1 || count["Legend"] > 2 ||
				count["GeneralNotes"] != 1 || count["TitleBlock"] != 1 {
				t.Errorf("%s: blocks %v", where, count)
			}
			labels := map[string]bool{}
			for _, b := range sh.Blocks {
				for _, e := range b.Entries {
					if labels[e.Label] {
						t.Errorf("%s: legend label %s twice", where, e.Label)
					}
					labels[e.Label] = true
				}
			}
		}
	}
	if len(discs) < 6 || len(tbPos) != 2 {
		t.Errorf("disciplines %v, title block positions %v", discs, tbPos)
	}
}

// TestDisciplineContent checks that legends draw from the sheet's
// discipline.
func TestDisciplineContent(t *testing.T) {
	for _, s := range sets {
		for _, sh := range s.sheets {
			for _, e := range sh.entries {
				if !hasAny(e.Sym.Tags, sh.v.Tags) {
					t.Errorf("%s: %s (%v) on a %v sheet", sh.Number, e.Sym.Key, e.Sym.Tags, sh.v.Tags)
				}
			}
		}
	}
	if n := len(library(newMeasurer())); n < 16 {
		t.Errorf("library has %d symbols", n)
	}
}

func TestRevision(t *testing.T) {
	kinds := map[string]int{}
	for _, s := range sets {
		for _, sh := range s.Truth.Sheets {
			rv := sh.Revision
			where := fmt.Sprintf("seed %d %s", s.Options.Seed, sh.SheetNumber)
			x := rv.Transform
			if x.Scale < 0.98 || x.Scale > 1.02 || math.Abs(x.DXMM) < 1 || math.Abs(x.DXMM) > 3 || math.Abs(x.DYMM) < 1 || math.Abs(x.DYMM) > 3 {
				t.Errorf("%s: transform %+v", where, x)
			}
			ids := map[int]InstanceTruth{}
			for _, in := range sh.Instances {
				ids[in.ID] = in
			}
			revIDs := map[int]InstanceTruth{}
			for _, in := range rv.Instances {
				revIDs[in.ID] = in
			}
			for _, c := range rv.Changes {
				kinds[c.Kind]++
				if !c.Box.Valid() || c.Description == "" {
					t.Errorf("%s: change %+v", where, c)
				}
				switch c.Kind {
				case "symbol_added":
					if _, ok := ids[c.InstanceID]; ok {
						t.Errorf("%s: added instance %d was there before", where, c.InstanceID)
					}
					if in, ok := revIDs[c.InstanceID]; !ok || !inside(in.Box, c.Box) {
						t.Errorf("%s: added instance %d not in the revision or outside %+v", where, c.InstanceID, c.Box)
					}
				case "symbol_removed":
					in, ok := ids[c.InstanceID]
					if _, still := revIDs[c.InstanceID]; !ok || still || !inside(x.Apply(in.Box), c.Box) {
						t.Errorf("%s: removed instance %d", where, c.InstanceID)
					}
				case "symbol_moved":
					in, ok := ids[c.InstanceID]
					out, ok2 := revIDs[c.InstanceID]
					if !ok || !ok2 || !inside(x.Apply(in.Box), *c.Before) || !inside(out.Box, *c.After) || in.Box == out.Box {
						t.Errorf("%s: moved instance %d", where, c.InstanceID)
					}
				}
			}
			// unchanged instances map through the transform
			for id, in := range ids {
				if out, ok := revIDs[id]; ok && out.Center != in.Center {
					want := x.Apply(geom.Box{XMin: in.Center.X, YMin: in.Center.Y, XMax: in.Center.X, YMax: in.Center.Y})
					moved := false
					for _, c := range rv.Changes {
						moved = moved || c.InstanceID == id
					}
					if !moved && (math.Abs(want.XMin-out.Center.X) > 0.05 || math.Abs(want.YMin-out.Center.Y) > 0.05) {
						t.Errorf("%s: instance %d at %+v, want %+v", where, id, out.Center, want)
					}
				}
			}
		}
	}
	t.Logf("changes: %v", kinds)
	for _, k := range []string{"symbol_added", "symbol_removed", "symbol_moved", "wall_moved", "room_renamed", "revision_cloud", "title_block"} {
		if kinds[k] == 0 {
			t.Errorf("no %s change in any set", k)
		}
	}
}

func TestTruthJSON(t *testing.T) {
	var v map[string]any
	if err := json.Unmarshal(truthBytes(t, sets[0]), &v); err != nil {
		t.Fatal(err)
	}
	sh := v["sheets"].([]any)[0].(map[string]any)
	for _, k := range []string{"page", "sheet_number", "title", "discipline", "blocks", "instances", "revision"} {
		if _, ok := sh[k]; !ok {
			t.Errorf("sheet lacks %q", k)
		}
	}
	in := sh["instances"].([]any)[0].(map[string]any)
	for _, k := range []string{"label", "box", "angle", "scale", "block"} {
		if _, ok := in[k]; !ok {
			t.Errorf("instance lacks %q", k)
		}
	}
	b := in["box"].(map[string]any)
	if _, ok := b["x_min"]; !ok {
		t.Errorf("box %v", b)
	}
}

// pdftext runs pdftotext with args on data and returns its output.
func pdftext(t *testing.T, data []byte, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext (poppler-utils) is not installed: run scripts/deps.sh")
	}
	f := filepath.Join(t.TempDir(), "in.pdf")
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", append(args, f, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

var (
	pageRE = regexp.MustCompile(`(?s)<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>`)
	wordRE = regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>`)
)

func TestPDFText(t *testing.T) {
	s := sets[1]
	for _, rev := range []bool{false, true} {
		data := pdfBytes(t, s, rev)
		pages := strings.Split(strings.TrimRight(pdftext(t, data), "\f"), "\f")
		if len(pages) != len(s.Truth.Sheets) {
			t.Fatalf("rev %v: %d pages, want %d", rev, len(pages), len(s.Truth.Sheets))
		}
		for i, sh := range s.Truth.Sheets {
			text := strings.Join(strings.Fields(pages[i]), " ")
			for _, want := range []string{sh.SheetNumber, sh.Title, "GENERAL NOTES", "PROJECT"} {
				if !strings.Contains(text, want) {
					t.Errorf("rev %v page %d lacks %q", rev, i+1, want)
				}
			}
		}
		layout := pdftext(t, data, "-bbox-layout")
		ps := pageRE.FindAllStringSubmatch(layout, -1)
		if len(ps) != len(s.Truth.Sheets) {
			t.Fatalf("rev %v: %d bbox pages", rev, len(ps))
		}
		k := s.Truth.DPI / 72
		for i, sh := range s.Truth.Sheets {
			if w, _ := strconv.ParseFloat(ps[i][1], 64); math.Abs(w*k-float64(s.Truth.WidthPx)) > 1 {
				t.Errorf("page %d width %g pt", i+1, w)
			}
			blocks := sh.Blocks
			if rev {
				blocks = sh.Revision.Blocks
			}
			var want geom.Box
			for _, b := range blocks {
				for _, f := range b.Fields {
					if f.Key == "sheet_number" {
						want = f.ValueBox
					}
				}
			}
			best := math.Inf(1)
			for _, m := range wordRE.FindAllStringSubmatch(ps[i][3], -1) {
				if m[5] != sh.SheetNumber {
					continue
				}
				var v [4]float64
				for j := range v {
					v[j], _ = strconv.ParseFloat(m[j+1], 64)
					v[j] *= k
				}
				// the text box spans the advance width and baseline to cap
				// height; pdftotext's word box runs down to the descender
				d := max(math.Abs(v[0]-want.XMin), math.Abs(v[1]-want.YMin), math.Abs(v[2]-want.XMax))
				if v[3] < want.YMax-2 || v[3] > want.YMax+0.25*(want.YMax-want.YMin)+4 {
					d = math.Inf(1)
				}
				best = min(best, d)
			}
			if best > 3 {
				t.Errorf("rev %v page %d: sheet number %s box off by %.1f px from %+v", rev, i+1, sh.SheetNumber, best, want)
			}
		}
	}
}

// TestRenderedInk rasterises a sheet and checks the instance boxes against
// the ink: each box holds its symbol's ink and nothing of it leaks outside.
func TestRenderedInk(t *testing.T) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Fatal("pdftoppm (poppler-utils) is not installed: run scripts/deps.sh")
	}
	const dpi = 150
	for _, c := range []struct {
		set  *Set
		page int
		rev  bool
	}{{sets[2], 0, false}, {sets[4], 1, true}} {
		s, sh := c.set, c.set.Truth.Sheets[c.page]
		blocks, insts := sh.Blocks, sh.Instances
		if c.rev {
			blocks, insts = sh.Revision.Blocks, sh.Revision.Instances
		}
		dir := t.TempDir()
		pdf := filepath.Join(dir, "in.pdf")
		if err := os.WriteFile(pdf, pdfBytes(t, s, c.rev), 0o600); err != nil {
			t.Fatal(err)
		}
		k := dpi / s.Truth.DPI
		pb := blocks[insts[0].Block].Box
		x0, y0 := int(pb.XMin*k), int(pb.YMin*k)
		w, h := int(pb.XMax*k)-x0, int(pb.YMax*k)-y0
		n := fmt.Sprint(c.page + 1)
		cmd := exec.Command("pdftoppm", "-gray", "-r", fmt.Sprint(dpi), "-f", n, "-l", n, "-singlefile",
			"-x", fmt.Sprint(x0), "-y", fmt.Sprint(y0), "-W", fmt.Sprint(w), "-H", fmt.Sprint(h), pdf, filepath.Join(dir, "out"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v %s", err, out)
		}
		img := readPGM(t, filepath.Join(dir, "out.pgm"))
		ink := func(x, y int) bool {
			x -= x0
			y -= y0
			return x >= 0 && y >= 0 && x < img.w && y < img.h && img.pix[y*img.w+x] < 200
		}
		checked := 0
		for _, in := range insts {
			if in.Block != insts[0].Block || in.Crossed != "" || in.Suffix != nil {
				continue
			}
			checked++
			b := geom.Box{XMin: in.Box.XMin * k, YMin: in.Box.YMin * k, XMax: in.Box.XMax * k, YMax: in.Box.YMax * k}
			// ink bounding box within two pixels around the truth box
			ix0, iy0, ix1, iy1 := math.MaxInt, math.MaxInt, -1, -1
			for y := int(b.YMin) - 2; y <= int(b.YMax)+2; y++ {
				for x := int(b.XMin) - 2; x <= int(b.XMax)+2; x++ {
					if ink(x, y) {
						ix0, iy0, ix1, iy1 = min(ix0, x), min(iy0, y), max(ix1, x), max(iy1, y)
					}
				}
			}
			if ix1 < 0 {
				t.Errorf("page %d rev %v: instance %d (%s) has no ink in %+v", c.page+1, c.rev, in.ID, in.Symbol, b)
				continue
			}
			// the ink reaches each side of the box (the box is tight) and no
			// ink lies in a ring just outside it (the box is complete)
			const tol = 2
			if float64(ix0) > b.XMin+tol || float64(iy0) > b.YMin+tol || float64(ix1+1) < b.XMax-tol || float64(iy1+1) < b.YMax-tol {
				t.Errorf("page %d rev %v: instance %d (%s, %g°) ink [%d %d %d %d] does not fill %+v", c.page+1, c.rev, in.ID, in.Symbol, in.Angle, ix0, iy0, ix1+1, iy1+1, b)
			}
			leak := 0
			for y := int(b.YMin) - 4; y <= int(b.YMax)+4; y++ {
				for x := int(b.XMin) - 4; x <= int(b.XMax)+4; x++ {
					fx, fy := float64(x)+0.5, float64(y)+0.5
					if fx > b.XMin-2 && fx < b.XMax+2 && fy > b.YMin-2 && fy < b.YMax+2 {
						continue
					}
					if ink(x, y) {
						leak++
					}
				}
			}
			if leak > 0 {
				t.Errorf("page %d rev %v: instance %d (%s, %g°) leaks %d ink pixels outside %+v", c.page+1, c.rev, in.ID, in.Symbol, in.Angle, leak, b)
			}
		}
		if checked < 5 {
			t.Errorf("only %d instances checked", checked)
		}
	}
}

type pgm struct {
	w, h int
	pix  []byte
}

func readPGM(t *testing.T, path string) pgm {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var w, h, maxv, off int
	fields := 0
	for i := 2; fields < 3; i++ { // after "P5"
		c := data[i]
		if c >= '0' && c <= '9' {
			v := 0
			for ; data[i] >= '0' && data[i] <= '9'; i++ {
				v = v*10 + int(data[i]-'0')
			}
			switch fields {
			case 0:
				w = v
			case 1:
				h = v
			case 2:
				maxv = v
				off = i + 1
			}
			fields++
		}
	}
	if string(data[:2]) != "P5" || maxv != 255 || len(data) < off+w*h {
		t.Fatalf("bad PGM %s", path)
	}
	return pgm{w, h, data[off : off+w*h]}
}

// TestPlanInstances: the load fixture fills the plans up to the number asked
// (instances still inside their blocks, as checkInstances checks) and leaves
// the rest of the set as it was.
func TestPlanInstances(t *testing.T) {
	o := Options{Seed: 3, Sheets: 1, PageSize: "42x30"}
	plain, err := Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	o.PlanInstances = 1000
	dense, err := Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	a, b := plain.Truth.Sheets[0], dense.Truth.Sheets[0]
	plans := 0
	for _, bl := range b.Blocks {
		if bl.Type == "Plan" {
			plans++
		}
	}
	if len(b.Instances) < plans*1000*9/10 || len(b.Instances) > plans*1000 {
		t.Errorf("%d instances on %d plans, want about %d", len(b.Instances), plans, plans*1000)
	}
	if len(a.Instances) >= len(b.Instances)/10 {
		t.Errorf("without the option %d instances, with it %d", len(a.Instances), len(b.Instances))
	}
	checkInstances(t, "dense", b.Blocks, b.Instances, geom.Box{XMax: float64(dense.Truth.WidthPx), YMax: float64(dense.Truth.HeightPx)})
	if a.SheetNumber != b.SheetNumber || a.Title != b.Title || len(a.Blocks) != len(b.Blocks) {
		t.Errorf("the fill changed the sheet: %s %q %d blocks → %s %q %d", a.SheetNumber, a.Title, len(a.Blocks), b.SheetNumber, b.Title, len(b.Blocks))
	}
}
