//go:build devtools

package vecsym

import (
	"os"
	"strconv"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
)

// varied is whether the sheets of the tracing tests are drafted unlike
// their legends (VECSYM_VARY).
func varied() bool { return os.Getenv("VECSYM_VARY") != "" }

// seedSheets are the sheets of synthetic seed VECSYM_SEED (the test is
// skipped without it), drafted as varied says, and VECSYM_LABEL: the
// label to look at ("" for all).
func seedSheets(t *testing.T) ([]synthSheet, string) {
	seed, _ := strconv.Atoi(os.Getenv("VECSYM_SEED"))
	label := os.Getenv("VECSYM_LABEL")
	if seed == 0 {
		t.Skip("VECSYM_SEED not set")
	}
	return synthSheets(t, int64(seed), 1, varied()), label
}

// TestSynthDebug lists every verified pose of one label on one seed, with
// its scores and whether a truth instance of the label lies there.
func TestSynthDebug(t *testing.T) {
	sheets, label := seedSheets(t)
	for _, sh := range sheets {
		matchSheet(t, sh, func(c Candidate, l string, blk geom.Box, tr *synth.SheetTruth) {
			if label != "" && l != label {
				return
			}
			best, bl := 0.0, ""
			for _, in := range tr.Instances {
				if v := c.Box.IoU(in.Box.Translate(-blk.XMin, -blk.YMin)); v > best {
					best, bl = v, in.Label
				}
			}
			t.Logf("%-4s box %6.0f %6.0f %6.0f %6.0f k %.2f ang %5.1f m %v cov %.3f expl %.3f conf %.3f sup %.0f | truth %s iou %.2f",
				l, c.Box.XMin+blk.XMin, c.Box.YMin+blk.YMin, c.Box.XMax+blk.XMin, c.Box.YMax+blk.YMin, c.Scale, c.Angle, c.Mirrored,
				c.Covered, c.Explained, c.Confidence, c.support, bl, best)
		})
	}
}

// TestSynthCandidates lists, over seeds, the verified poses that are wrong
// with the highest scores and the right ones with the lowest, and the
// instances no pose of their label reached.
func TestSynthCandidates(t *testing.T) {
	seeds, _ := strconv.Atoi(os.Getenv("VECSYM_CAND_SEEDS"))
	if seeds == 0 {
		t.Skip("VECSYM_CAND_SEEDS not set")
	}
	type row struct {
		seed  int
		label string
		c     Candidate
		right bool
		blk   geom.Box
	}
	var rows []row
	for seed := 1; seed <= seeds; seed++ {
		for _, sh := range synthSheets(t, int64(seed), 1, varied()) {
			hit := map[int]bool{}
			matchSheet(t, sh, func(c Candidate, l string, blk geom.Box, tr *synth.SheetTruth) {
				r := row{seed: seed, label: l, c: c, blk: blk}
				for _, in := range tr.Instances {
					if in.Label == l && c.Box.IoU(in.Box.Translate(-blk.XMin, -blk.YMin)) >= 0.5 {
						r.right = true
						hit[in.ID] = true
					}
				}
				rows = append(rows, r)
			})
			for _, in := range sh.truth.Instances {
				if !hit[in.ID] {
					t.Logf("MISS seed %d %s box %.0f %.0f %.0f %.0f k %.2f ang %.1f cross %q", seed, in.Label, in.Box.XMin, in.Box.YMin, in.Box.XMax, in.Box.YMax, in.Scale, in.Angle, in.Crossed)
				}
			}
		}
	}
	pr := func(r row) {
		t.Logf("seed %2d %-4s right %-5v cov %.3f expl %.3f desc %.3f conf %.3f k %.2f box %.0f %.0f", r.seed, r.label, r.right, r.c.Covered, r.c.Explained, r.c.Described, r.c.Confidence, r.c.Scale, r.c.Box.XMin+r.blk.XMin, r.c.Box.YMin+r.blk.YMin)
	}
	var right, wrong []row
	for _, r := range rows {
		if r.right {
			right = append(right, r)
		} else {
			wrong = append(wrong, r)
		}
	}
	sortRows := func(rs []row, key func(row) float64) {
		for i := 1; i < len(rs); i++ {
			for j := i; j > 0 && key(rs[j]) < key(rs[j-1]); j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
	}
	sortRows(right, func(r row) float64 { return r.c.Covered })
	t.Logf("right poses by coverage (lowest 15 of %d):", len(right))
	for _, r := range right[:min(15, len(right))] {
		pr(r)
	}
	sortRows(right, func(r row) float64 { return r.c.Explained })
	t.Logf("right poses by explained (lowest 15):")
	for _, r := range right[:min(15, len(right))] {
		pr(r)
	}
	sortRows(wrong, func(r row) float64 { return -(r.c.Covered + r.c.Explained) })
	t.Logf("wrong poses by coverage+explained (highest 40 of %d):", len(wrong))
	for _, r := range wrong[:min(40, len(wrong))] {
		pr(r)
	}
}

func TestSynthTemplates(t *testing.T) {
	sheets, label := seedSheets(t)
	for _, sh := range sheets {
		for _, b := range sh.truth.Blocks {
			for _, e := range b.Entries {
				if e.GraphicBox == nil || (label != "" && e.Label != label) {
					continue
				}
				tm, err := NewTemplate(e.Label, sh.page, toRect(*e.GraphicBox))
				if err != nil {
					t.Logf("%s: %v", e.Label, err)
					continue
				}
				t.Logf("%s box %+v size %.1f width %.2f segs %d arcs %d glyphs %d lineAnchors %v arcAnchors %v circle %d glyph %d weight %.0f", e.Label, *e.GraphicBox,
					tm.size, tm.width, len(tm.m.segs), len(tm.m.arcs), len(tm.m.glyphs), tm.lineAnchors, tm.arcAnchors, tm.circle, tm.glyphAnchor, tm.weight)
				for _, a := range tm.m.arcs {
					t.Logf("   arc c %v r %.2f sweep %.1f full %v", a.c, a.r, a.sweep*180/3.14159, a.full)
				}
			}
		}
	}
}
