package compare

import (
	"context"
	"image"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
)

// generate runs Generate and fails the test on an error or an
// unregistered pair.
func generate(t *testing.T, a, b *Side, opt Options) *Overlay {
	t.Helper()
	ov, err := Generate(context.Background(), a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !ov.Registered {
		t.Fatalf("not registered: %v", ov.Warnings)
	}
	return ov
}

// meets reports whether two boxes share some area.
func meets(a, b geom.Box) bool { return a.Intersect(b).Area() > 0 }

// TestGenerateUnedited: the same plan drawn through a similarity (a
// fractional shift, a rescale, a small rotation: every line lands between
// pixels and is antialiased anew) has no change and scores 1.
func TestGenerateUnedited(t *testing.T) {
	p := newPlan(21, 1500, 1000)
	a := p.draw(Identity, 1500, 1000, 2)
	for _, tr := range []Transform{
		{Scale: 1, Tx: 12.4, Ty: -7.7},
		{Scale: 1.15, RotationDeg: 1.2, Tx: -80.3, Ty: -40.5},
		{Scale: 0.9, RotationDeg: -0.7, Tx: 60.5, Ty: 44.25},
	} {
		b := p.draw(tr, 1500, 1000, 3) // antialiased differently too
		ov := generate(t, side(a, 150), side(b, 150), Options{})
		if len(ov.Regions) != 0 {
			t.Errorf("%+v: %d regions on an unedited pair: %+v", tr, len(ov.Regions), ov.Regions)
		}
		if ov.Score < 0.999 {
			t.Errorf("%+v: score %.4f, want 1", tr, ov.Score)
		}
	}
}

// TestGenerateRerendered: a synthetic sheet rendered by the project's
// renderer at 100 DPI and again at 125 (a rescale of 1.25, every glyph and
// hairline rasterised anew) has no change.
func TestGenerateRerendered(t *testing.T) {
	set, err := synth.Generate(synth.Options{Seed: 12, Sheets: 1, PageSize: "24x18"})
	if err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(t.TempDir(), "s.pdf")
	if err := synth.WriteFile(pdf, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	a, b := pdfSide(t, pdf, 100, false), pdfSide(t, pdf, 125, false)
	ov := generate(t, a, b, Options{})
	if e := cornerError(ov.Transform, Transform{Scale: 1.25}, a.Image.Rect.Dx(), a.Image.Rect.Dy()); e > 0.5 {
		t.Errorf("transform %+v: %.3f px off", ov.Transform, e)
	}
	if len(ov.Regions) != 0 {
		t.Errorf("%d regions on a re-rendered sheet: %+v", len(ov.Regions), ov.Regions)
	}
}

// TestGenerateEdits: edits drawn into B — a symbol added, a wall moved, a
// room name erased — are each found as a region overlapping it, and no
// region is found elsewhere, with B rescaled, rotated and shifted.
func TestGenerateEdits(t *testing.T) {
	p := newPlan(22, 1500, 1000)
	q := p.clone()
	edits := map[string]geom.Box{
		"symbol added":   q.addSymbol(700, 640, 'Z'),
		"wall moved":     q.moveWall(0, 24, 0),
		"word erased":    q.eraseText(len(q.texts) - 12),
		"symbol added 2": q.addSymbol(300, 300, 'Q'),
	}
	tr := Transform{Scale: 0.92, RotationDeg: 1.5, Tx: 55.5, Ty: 20.25}
	a := p.draw(Identity, 1500, 1000, 2)
	b := q.draw(tr, 1500, 1000, 2)
	ov := generate(t, side(a, 150), side(b, 150), Options{})
	t.Logf("score %.4f, %d regions for %d edits", ov.Score, len(ov.Regions), len(edits))
	for name, box := range edits {
		want := tr.ApplyBox(box)
		found := false
		for _, r := range ov.Regions {
			found = found || meets(r.Bounds, want)
		}
		if !found {
			t.Errorf("%s at %+v: no region", name, want)
		}
	}
	for _, r := range ov.Regions {
		hit := false
		for _, box := range edits {
			hit = hit || meets(r.Bounds, tr.ApplyBox(box))
		}
		if !hit {
			t.Errorf("region %+v is not an edit", r)
		}
	}
	if ov.Score < 0.8 || ov.Score >= 1 {
		t.Errorf("score %.4f, want in [0.8, 1) for a moved wall and three small edits", ov.Score)
	}
}

// TestGenerateSynthRevision compares a synthetic sheet with its revision
// (the generator moved a wall and its dimensions, renamed a room and
// clouded it, added, removed and moved symbols, changed the revision mark,
// and shifted and rescaled the page): the transform is the generator's to
// half a pixel and every edit of the plan is found, with no region away
// from the edits. On pixels alone the revision letter replaced in place
// moves too little ink to tell from residue; with the pages' geometry its
// glyph tells, and it is found too.
func TestGenerateSynthRevision(t *testing.T) {
	a, b, rev, want := synthRevision(t, 13, 150, true)
	t.Run("pixels", func(t *testing.T) {
		pa, pb := *a, *b
		pa.Page, pb.Page = nil, nil
		checkSynthRevision(t, &pa, &pb, rev, want, false)
	})
	t.Run("geometry", func(t *testing.T) { checkSynthRevision(t, a, b, rev, want, true) })
}

func checkSynthRevision(t *testing.T, a, b *Side, rev *synth.RevisionTruth, want Transform, titleBlock bool) {
	ov := generate(t, a, b, Options{})
	t.Logf("%.3f px off at the worst corner; score %.4f, %d regions for %d changes",
		cornerError(ov.Transform, want, a.Image.Rect.Dx(), a.Image.Rect.Dy()), ov.Score, len(ov.Regions), len(rev.Changes))
	if e := cornerError(ov.Transform, want, a.Image.Rect.Dx(), a.Image.Rect.Dy()); e > 0.5 {
		t.Errorf("transform %+v, want %+v: %.3f px off", ov.Transform, want, e)
	}
	for _, c := range rev.Changes {
		if c.Kind == "title_block" && !titleBlock {
			continue
		}
		found := false
		for _, r := range ov.Regions {
			found = found || meets(r.Bounds, c.Box)
		}
		if !found {
			t.Errorf("%s (%s) at %+v: no region", c.Kind, c.Description, c.Box)
		}
	}
	for _, r := range ov.Regions {
		hit := false
		for _, c := range rev.Changes {
			hit = hit || meets(r.Bounds, c.Box)
		}
		if !hit {
			t.Errorf("region %+v is not a change", r)
		}
	}
	// none of these edits is a hatch or a screen
	if ig := generate(t, a, b, Options{IgnoreHatches: true}); len(ig.Regions) != len(ov.Regions) {
		t.Errorf("ignoring hatches: %d regions, want %d: %v", len(ig.Regions), len(ov.Regions), ig.Warnings)
	}
}

// TestScoreBands: a symbol added to a plan stays near-identical (≥ 0.95);
// a plan half redrawn (its right half another plan's) is a major change
// (< 0.6).
func TestScoreBands(t *testing.T) {
	p := newPlan(23, 1500, 1000)
	a := p.draw(Identity, 1500, 1000, 2)
	q := p.clone()
	q.addSymbol(800, 500, 'S')
	ov := generate(t, side(a, 150), side(q.draw(Identity, 1500, 1000, 2), 150), Options{})
	t.Logf("one symbol added: score %.4f", ov.Score)
	if ov.Score < 0.95 || len(ov.Regions) != 1 {
		t.Errorf("one symbol added: score %.4f, %d regions; want ≥ 0.95 and 1", ov.Score, len(ov.Regions))
	}

	// the columns right of the one that halves A's ink are redrawn as
	// something else
	split, ink, total := 0, make([]int, 1500), 0
	for i, v := range a.Pix {
		if v < inkThreshold {
			ink[i%1500]++
			total++
		}
	}
	for acc := 0; acc < total/2; split++ {
		acc += ink[split]
	}
	other := scribble(24, 1500, 1000)
	half := image.NewGray(a.Rect)
	copy(half.Pix, a.Pix)
	for y := 0; y < 1000; y++ {
		copy(half.Pix[y*1500+split:(y+1)*1500], other.Pix[y*1500+split:(y+1)*1500])
	}
	ov = generate(t, side(a, 150), side(half, 150), Options{})
	t.Logf("half redrawn: score %.4f", ov.Score)
	if ov.Score >= 0.6 {
		t.Errorf("half redrawn: score %.4f, want < 0.6", ov.Score)
	}
}

// TestGenerateImages checks the overlay images at known places: an added
// symbol is green in Combined and dark in Addition only, a removed word
// red and in Deletion only, an unchanged wall grey and in neither.
func TestGenerateImages(t *testing.T) {
	p := newPlan(25, 1200, 800)
	q := p.clone()
	sym := q.addSymbol(500, 420, 'X')
	word := q.eraseText(len(q.texts) - 10)
	a := p.draw(Identity, 1200, 800, 2)
	b := q.draw(Identity, 1200, 800, 2)
	ov := generate(t, side(a, 150), side(b, 150), Options{})
	for _, img := range []image.Image{ov.AlignedA, ov.AlignedB, ov.Combined, ov.Addition, ov.Deletion} {
		if img.Bounds() != b.Rect {
			t.Fatalf("image bounds %v, want B's %v", img.Bounds(), b.Rect)
		}
	}
	// the darkest pixel of each image in a box, and its colour in Combined
	darkest := func(img *image.Gray, box geom.Box) (uint8, image.Point) {
		v, at := uint8(255), image.Point{}
		for y := int(box.YMin); y < int(box.YMax); y++ {
			for x := int(box.XMin); x < int(box.XMax); x++ {
				if g := img.GrayAt(x, y).Y; g < v {
					v, at = g, image.Pt(x, y)
				}
			}
		}
		return v, at
	}
	// Combined's colour at a pixel of darkness v is the label's colour
	// faded towards white by v
	hue := func(at image.Point) [3]uint8 {
		c := ov.Combined.RGBAAt(at.X, at.Y)
		return [3]uint8{c.R, c.G, c.B}
	}
	near := func(got, want [3]uint8, v uint8) bool {
		for i := range got {
			w := 255 - (255-float64(v))*(255-float64(want[i]))/255
			if d := float64(got[i]) - w; d > 2 || d < -2 {
				return false
			}
		}
		return true
	}
	if v, at := darkest(ov.Addition, sym); v > 100 || !near(hue(at), ColourAdded, v) {
		t.Errorf("added symbol: Addition %d, Combined %v; want dark and %v", v, hue(at), ColourAdded)
	}
	if v, _ := darkest(ov.Deletion, sym); v != 255 {
		t.Errorf("added symbol in Deletion: %d, want none", v)
	}
	if v, at := darkest(ov.Deletion, word); v > 100 || !near(hue(at), ColourRemoved, v) {
		t.Errorf("removed word: Deletion %d, Combined %v; want dark and %v", v, hue(at), ColourRemoved)
	}
	if v, _ := darkest(ov.Addition, word); v != 255 {
		t.Errorf("removed word in Addition: %d, want none", v)
	}
	wall := p.lineBox(p.walls[0][0])
	if v, at := darkest(ov.AlignedB, wall); v > 100 || !near(hue(at), ColourUnchanged, min(v, ov.AlignedA.GrayAt(at.X, at.Y).Y)) {
		t.Errorf("unchanged wall: B %d, Combined %v; want dark and %v", v, hue(at), ColourUnchanged)
	}
	for _, img := range []*image.Gray{ov.Addition, ov.Deletion} {
		if v, _ := darkest(img, wall); v != 255 {
			t.Errorf("unchanged wall in Addition/Deletion: %d", v)
		}
	}
	if c := ov.Combined.RGBAAt(3, 3); c.R != 255 || c.G != 255 || c.B != 255 || c.A != 255 {
		t.Errorf("paper is %v, want white", c)
	}
}

// TestGenerateUncovered: B's block reaches past A's (layout cut it wider);
// B's ink there is not "added" but drawn in the uncompared colour, and a
// warning says how much was not compared.
func TestGenerateUncovered(t *testing.T) {
	p := newPlan(26, 1500, 1000)
	full := p.draw(Identity, 1500, 1000, 2)
	a := contiguous(full.SubImage(image.Rect(0, 0, 1050, 1000)).(*image.Gray))
	ov := generate(t, side(a, 150), side(full, 150), Options{})
	if len(ov.Regions) != 0 {
		t.Errorf("%d regions, want none: %+v", len(ov.Regions), ov.Regions)
	}
	if len(ov.Warnings) == 0 || !strings.Contains(strings.Join(ov.Warnings, " "), "beyond A's block") {
		t.Errorf("warnings %q, want one about B's ink beyond A's block", ov.Warnings)
	}
	// the title block's frame line, at x ≈ 0.78·1500, is B's only
	found := false
	for y := 100; y < 900 && !found; y++ {
		for x := 1150; x < 1190; x++ {
			c := ov.Combined.RGBAAt(x, y)
			if v := ov.AlignedB.GrayAt(x, y).Y; v < 20 && c.B > c.R+50 && c.B > c.G+20 {
				found = true
				break
			}
		}
	}
	if !found {
		t.Errorf("B's ink beyond A's block is not drawn in ColourUncompared %v", ColourUncompared)
	}
}

// TestGenerateBudget: a budget spent before the work is done ends it with
// a warning, not an error or a hang.
func TestGenerateBudget(t *testing.T) {
	p := newPlan(27, 1200, 800)
	a := p.draw(Identity, 1200, 800, 1)
	b := p.draw(Transform{Scale: 1, Tx: 4.5}, 1200, 800, 1)
	ov, err := Generate(context.Background(), side(a, 150), side(b, 150), Options{Budget: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(ov.Warnings, " ")
	if ov.Registered || !strings.Contains(w, "budget") || ov.Combined != nil || len(ov.Regions) != 0 {
		t.Errorf("registered %v, warnings %q, combined %v, %d regions; want a warning about the budget and nothing else",
			ov.Registered, ov.Warnings, ov.Combined != nil, len(ov.Regions))
	}
}

// TestGenerateOddBlocks: tiny, blank and very unequal blocks give a result
// (registered or not, with warnings), never an error or a panic.
func TestGenerateOddBlocks(t *testing.T) {
	p := newPlan(28, 1200, 800)
	big := p.draw(Identity, 1200, 800, 1)
	tiny := contiguous(big.SubImage(image.Rect(300, 300, 340, 330)).(*image.Gray))
	blank := image.NewGray(image.Rect(0, 0, 90, 60))
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	strip := contiguous(big.SubImage(image.Rect(0, 390, 1200, 410)).(*image.Gray))
	for _, c := range []struct {
		name string
		a, b *image.Gray
	}{
		{"tiny", tiny, tiny}, {"tiny vs big", tiny, big}, {"blank", blank, blank},
		{"blank vs plan", blank, big}, {"strip", strip, strip}, {"strip vs big", big, strip},
	} {
		ov, err := Generate(context.Background(), side(c.a, 150), side(c.b, 150), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if ov.Combined == nil || ov.Combined.Bounds() != c.b.Rect || ov.Score < 0 || ov.Score > 1 {
			t.Errorf("%s: combined %v, score %v", c.name, ov.Combined != nil, ov.Score)
		}
		if !ov.Registered && len(ov.Warnings) == 0 {
			t.Errorf("%s: not registered and no warning", c.name)
		}
		t.Logf("%s: registered %v score %.3f regions %d warnings %q", c.name, ov.Registered, ov.Score, len(ov.Regions), ov.Warnings)
	}
}

// TestGenerateOverTint: a plan with a light screened zone (a 12 % tint,
// lighter than ink on its own) on both sides: a dark line drawn over the
// tint in B and one erased from it (the tint left) are found — the tint
// is a mark near them, which the tolerance alone takes for their ink —
// and the unchanged plan lines crossing the tint are not changes.
func TestGenerateOverTint(t *testing.T) {
	const w, h = 1500, 1000
	p := newPlan(22, w, h)
	tr := Transform{Scale: 0.97, RotationDeg: 0.5, Tx: 30.5, Ty: 12.25}
	a := p.draw(Identity, w, h, 2)
	b := p.clone().draw(tr, w, h, 2)
	zone := geom.Box{XMin: 300, YMin: 250, XMax: 900, YMax: 700} // in A's pixels
	paint := func(img *image.Gray, box geom.Box, v uint8, onPaperOnly bool) {
		for y := int(box.YMin); y < int(box.YMax); y++ {
			for x := int(box.XMin); x < int(box.XMax); x++ {
				if i := img.PixOffset(x, y); !onPaperOnly || img.Pix[i] > 225 {
					img.Pix[i] = v
				}
			}
		}
	}
	// places in the zone with no ink of the plan within 12 px, for the edits
	clear := func(box geom.Box) bool {
		for y := int(box.YMin) - 12; y < int(box.YMax)+12; y++ {
			for x := int(box.XMin) - 12; x < int(box.XMax)+12; x++ {
				if a.GrayAt(x, y).Y < 246 {
					return false
				}
			}
		}
		return true
	}
	at := func(dx, dy float64) geom.Box {
		for y := zone.YMin + 20; y+dy < zone.YMax-20; y += 5 {
			for x := zone.XMin + 20; x+dx < zone.XMax-20; x += 5 {
				if box := (geom.Box{XMin: x, YMin: y, XMax: x + dx, YMax: y + dy}); clear(box) {
					return box
				}
			}
		}
		t.Fatalf("no clear %g × %g place in the zone", dx, dy)
		return geom.Box{}
	}
	// B: a new line over the tint; A: a line B erased (the tint under it)
	erased := at(4, 100)
	paint(a, erased, 0, false)
	added := tr.ApplyBox(at(120, 4)) // (clear of the erased line too)
	paint(a, zone, 225, true)
	paint(b, tr.ApplyBox(zone), 225, true)
	paint(b, added, 0, false)
	ov := generate(t, side(a, 150), side(b, 150), Options{})
	for name, want := range map[string]geom.Box{"line added over the tint": added, "line erased from the tint": tr.ApplyBox(erased)} {
		found := false
		for _, r := range ov.Regions {
			found = found || meets(r.Bounds, want)
		}
		if !found {
			t.Errorf("%s at %+v: no region (regions %+v)", name, want, ov.Regions)
		}
	}
	for _, r := range ov.Regions {
		if !meets(r.Bounds, added) && !meets(r.Bounds, tr.ApplyBox(erased)) {
			t.Errorf("region %+v is not an edit", r)
		}
	}
}
