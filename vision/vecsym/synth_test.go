package vecsym

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

func toRect(b geom.Box) vector.Rect {
	return vector.Rect{X0: float32(b.XMin), Y0: float32(b.YMin), X1: float32(b.XMax), Y1: float32(b.YMax)}
}

// synthSheet is one generated sheet read as geometry.
type synthSheet struct {
	seed  int64
	page  *vector.Page
	truth synth.SheetTruth
}

func synthSheets(t testing.TB, seed int64, sheets int, vary bool) []synthSheet {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: seed, Sheets: sheets, Vary: vary})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("synth-%d.pdf", seed))
	if err := synth.WriteFile(path, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	doc := rendertest.Open(t, path, render.TypePDF, render.DefaultDPI)
	defer doc.Close()
	var out []synthSheet
	for _, st := range set.Truth.Sheets {
		pg, ok, err := render.Vectors(context.Background(), doc, st.Page-1)
		if err != nil || !ok {
			t.Fatal(err)
		}
		out = append(out, synthSheet{seed: seed, page: pg, truth: st})
	}
	return out
}

// matchSheet searches every plan of a sheet for its legends' symbols (as
// the ground truth places the legend graphics) and scores the result.
func matchSheet(t testing.TB, sh synthSheet, trace func(Candidate, string, geom.Box, *synth.SheetTruth)) (symbols.Counts, map[string]symbols.Counts) {
	t.Helper()
	var ts []*Template
	for _, b := range sh.truth.Blocks {
		for _, e := range b.Entries {
			if e.GraphicBox == nil {
				continue
			}
			tm, err := NewTemplate(e.Label, sh.page, toRect(*e.GraphicBox))
			if err != nil {
				t.Fatalf("seed %d %s: %v", sh.seed, e.Label, err)
			}
			ts = append(ts, tm)
		}
	}
	var total symbols.Counts
	per := map[string]symbols.Counts{}
	for bi, b := range sh.truth.Blocks {
		if b.Type != "Plan" {
			continue
		}
		d := NewDrawing(sh.page, toRect(b.Box))
		o := Options{}
		if trace != nil {
			o.Trace = func(c Candidate) { trace(c, ts[c.Template].Label, b.Box, &sh.truth) }
		}
		st := time.Now()
		dets, err := Match(context.Background(), d, ts, o)
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(st)
		var truth []symbols.Truth
		for _, in := range sh.truth.Instances {
			if in.Block == bi {
				truth = append(truth, symbols.Truth{Label: in.Label, Box: in.Box.Translate(-b.Box.XMin, -b.Box.YMin)})
			}
		}
		pl := symbols.Score(dets, truth, 0.5)
		var c symbols.Counts
		for _, lc := range pl {
			c.Add(lc)
		}
		if os.Getenv("VECSYM_ERRORS") != "" {
			logErrors(t, sh.seed, b.Box, dets, truth)
		}
		segs, gl := d.Marks()
		t.Logf("seed %d page %d block %d: %d segments %d glyphs, %d templates: %d detections, TP %d FP %d FN %d in %v",
			sh.seed, sh.truth.Page, bi, segs, gl, len(ts), len(dets), c.TP, c.FP, c.FN, el)
		total.Add(c)
		for l, lc := range pl {
			x := per[l]
			x.Add(lc)
			per[l] = x
		}
	}
	return total, per
}

// TestSynthSheets scores the search on synthetic sheets, the legend's
// boxes taken from the ground truth: VECSYM_SEEDS of them from VECSYM_FIRST
// (3 from 1 by default), drafted as their legends are.
func TestSynthSheets(t *testing.T) { testSynthSheets(t, false) }

// TestSynthSheetsVaried is TestSynthSheets on sheets whose instances are
// drafted unlike their legend graphics (synth --vary).
func TestSynthSheetsVaried(t *testing.T) { testSynthSheets(t, true) }

func testSynthSheets(t *testing.T, vary bool) {
	seeds := 3
	if s := os.Getenv("VECSYM_SEEDS"); s != "" {
		seeds, _ = strconv.Atoi(s)
	}
	first := 1
	if s := os.Getenv("VECSYM_FIRST"); s != "" {
		first, _ = strconv.Atoi(s)
	}
	var total symbols.Counts
	per := map[string]symbols.Counts{}
	for seed := first; seed < first+seeds; seed++ {
		for _, sh := range synthSheets(t, int64(seed), 1, vary) {
			c, pl := matchSheet(t, sh, nil)
			total.Add(c)
			for l, lc := range pl {
				x := per[l]
				x.Add(lc)
				per[l] = x
			}
		}
	}
	for l, c := range per {
		if c.FP+c.FN > 0 {
			t.Logf("%-6s TP %d FP %d FN %d", l, c.TP, c.FP, c.FN)
		}
	}
	t.Logf("overall TP %d FP %d FN %d: P %.3f R %.3f F1 %.3f", total.TP, total.FP, total.FN, total.Precision(), total.Recall(), total.F1())
	if total.F1() < 0.98 {
		t.Errorf("F1 %.3f, want ≥ 0.98", total.F1())
	}
}

// logErrors prints the false positives and misses of one block.
func logErrors(t testing.TB, seed int64, blk geom.Box, dets []symbols.Detection, truth []symbols.Truth) {
	used := make([]bool, len(truth))
	for _, d := range dets {
		ok := false
		for j, tr := range truth {
			if !used[j] && tr.Label == d.Label && d.Box.IoU(tr.Box) >= 0.5 {
				used[j], ok = true, true
				break
			}
		}
		if !ok {
			best, bl := 0.0, ""
			for _, tr := range truth {
				if v := d.Box.IoU(tr.Box); v > best {
					best, bl = v, tr.Label
				}
			}
			t.Logf("FP seed %d %s conf %.2f k %.2f box %.0f %.0f %.0f %.0f | overlaps %s iou %.2f", seed, d.Label, d.Confidence, d.Scale,
				d.Box.XMin+blk.XMin, d.Box.YMin+blk.YMin, d.Box.XMax+blk.XMin, d.Box.YMax+blk.YMin, bl, best)
		}
	}
	for j, tr := range truth {
		if !used[j] {
			t.Logf("FN seed %d %s box %.0f %.0f %.0f %.0f", seed, tr.Label, tr.Box.XMin+blk.XMin, tr.Box.YMin+blk.YMin, tr.Box.XMax+blk.XMin, tr.Box.YMax+blk.YMin)
		}
	}
}
