package compare

import (
	"context"
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
)

// TestAlignKnownTransforms draws a plan, draws it again through known
// similarity transforms (fractional shifts, rescales of 0.85 and 1.2,
// small rotations, quarter turns) and checks that Align recovers each to
// half a pixel at A's corners.
func TestAlignKnownTransforms(t *testing.T) {
	const w, h = 1600, 1100
	p := newPlan(3, w, h)
	a := p.draw(Identity, w, h, 2)
	cases := []struct {
		name   string
		t      Transform
		bw, bh int
	}{
		{"shift", Transform{Scale: 1, Tx: 37.3, Ty: -21.6}, w, h},
		{"scale 0.85", Transform{Scale: 0.85, Tx: 40.25, Ty: 31.5}, w, h},
		{"scale 1.2", Transform{Scale: 1.2, Tx: -150.4, Ty: -95.7}, w, h},
		{"rotate 1.5°", Transform{Scale: 1, RotationDeg: 1.5, Tx: 20.5, Ty: -12.25}, w, h},
		{"rotate -2.5° scale 1.1", Transform{Scale: 1.1, RotationDeg: -2.5, Tx: -60, Ty: 20.8}, w, h},
		{"quarter turn", Transform{Scale: 0.95, RotationDeg: 90, Tx: 1060.5, Ty: 15.3}, h, w},
		{"half turn", Transform{Scale: 1, RotationDeg: 180, Tx: w + 10.6, Ty: h - 7.2}, w, h},
		{"three quarters, 1°", Transform{Scale: 1.05, RotationDeg: 271, Tx: 12.3, Ty: 1700}, h + 40, w + 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := p.draw(c.t, c.bw, c.bh, 2)
			got, ok, warnings, err := Align(context.Background(), side(a, 150), side(b, 150), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Fatalf("not registered: %v", warnings)
			}
			e := cornerError(got, c.t, w, h)
			t.Logf("%.3f px off at the worst corner, residual %.3f px", e, got.ResidualPx)
			if e > 0.5 {
				t.Errorf("got %+v, want %+v: %.3f px off at a corner", got, c.t, e)
			}
			if got.ResidualPx <= 0 || got.ResidualPx > 1 {
				t.Errorf("residual %.3f px, want (0, 1]", got.ResidualPx)
			}
		})
	}
}

// TestAlignBigBlock registers a block big enough for the three levels
// (coarse, intermediate, full).
func TestAlignBigBlock(t *testing.T) {
	const w, h = 5200, 3400
	if got := levelFactors(w); len(got) != 3 {
		t.Fatalf("levels %v, want three", got)
	}
	p := newPlan(8, w, h)
	want := Transform{Scale: 0.97, RotationDeg: -0.6, Tx: 61.3, Ty: 88.8}
	a, b := p.draw(Identity, w, h, 1), p.draw(want, w, h, 1)
	got, ok, warnings, err := Align(context.Background(), side(a, 300), side(b, 300), Options{})
	if err != nil || !ok {
		t.Fatalf("ok %v err %v warnings %v", ok, err, warnings)
	}
	e := cornerError(got, want, w, h)
	t.Logf("%.3f px off at the worst corner, residual %.3f px", e, got.ResidualPx)
	if e > 0.5 {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestAlignDifferentDPI registers a block drawn at 150 DPI onto the same
// block drawn at 200: the DPIs' ratio is the expected scale.
func TestAlignDifferentDPI(t *testing.T) {
	p := newPlan(4, 1400, 1000)
	a := p.draw(Identity, 1400, 1000, 2)
	want := Transform{Scale: 200.0 / 150, Tx: 5.5, Ty: -3.25}
	b := p.draw(want, 1870, 1335, 2)
	got, ok, warnings, err := Align(context.Background(), side(a, 150), side(b, 200), Options{})
	if err != nil || !ok {
		t.Fatalf("ok %v err %v warnings %v", ok, err, warnings)
	}
	if e := cornerError(got, want, 1400, 1000); e > 0.5 {
		t.Errorf("got %+v, want %+v: %.3f px off", got, want, e)
	}
}

// TestAlignUnrelated: a plan and a drawing of something else do not
// register; Align says so and returns the ink boxes' transform.
func TestAlignUnrelated(t *testing.T) {
	a := newPlan(5, 1400, 1000).draw(Identity, 1400, 1000, 2)
	b := scribble(6, 1300, 1100)
	got, ok, warnings, err := Align(context.Background(), side(a, 150), side(b, 150), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Fatalf("an unrelated pair registered: %+v", got)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[0], "do not register") {
		t.Errorf("warnings %q, want one saying the blocks do not register", warnings)
	}
	if !(got.Scale >= 0.8 && got.Scale <= 1.25) || math.IsNaN(got.Tx) || math.IsNaN(got.Ty) {
		t.Errorf("fallback transform %+v", got)
	}

	// and a blank page
	blank := image.NewGray(image.Rect(0, 0, 500, 400))
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	_, ok, warnings, err = Align(context.Background(), side(a, 150), side(blank, 150), Options{})
	if err != nil || ok || len(warnings) == 0 {
		t.Errorf("blank side: ok %v err %v warnings %v", ok, err, warnings)
	}
	if _, _, _, err := Align(context.Background(), side(a, 150), &Side{}, Options{}); err == nil {
		t.Error("a side without an image: no error")
	}
}

// TestAlignCancelled: a cancelled context ends Align with its error.
func TestAlignCancelled(t *testing.T) {
	p := newPlan(7, 1200, 900)
	a := p.draw(Identity, 1200, 900, 1)
	b := p.draw(Transform{Scale: 1, Tx: 3}, 1200, 900, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := Align(ctx, side(a, 150), side(b, 150), Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	// a deadline that passes during the work
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	time.Sleep(2 * time.Millisecond)
	if _, err := Generate(ctx, side(a, 150), side(b, 150), Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Generate: err %v, want context.DeadlineExceeded", err)
	}
}

// TestAlignVectors registers a synthetic sheet and its revision (shifted
// and rescaled by the generator, with edits) from their page geometry,
// and checks the transform against the generator's to a tenth of a pixel.
func TestAlignVectors(t *testing.T) {
	a, b, _, want := synthRevision(t, 11, 100, true)

	r, err := align(context.Background(), a, b, time.Now().Add(time.Minute), nil, false)
	if err != nil || !r.ok {
		t.Fatalf("ok %v err %v warnings %v", r.ok, err, r.warnings)
	}
	if r.source != sourceVectors {
		t.Errorf("registered on %s, want %s", r.source, sourceVectors)
	}
	w, h := a.Image.Rect.Dx(), a.Image.Rect.Dy()
	t.Logf("vectors: %d of %d pairs agree, %.4f px off at the worst corner", r.inliers, r.pairs, cornerError(r.t, want, w, h))
	if e := cornerError(r.t, want, w, h); e > 0.1 {
		t.Errorf("vectors: got %+v, want %+v: %.3f px off", r.t, want, e)
	}
	// the same pair on pixels alone
	a.Page, b.Page = nil, nil
	r, err = align(context.Background(), a, b, time.Now().Add(time.Minute), nil, false)
	if err != nil || !r.ok || r.source != sourcePixels {
		t.Fatalf("pixels: ok %v err %v source %s", r.ok, err, r.source)
	}
	t.Logf("pixels: %d of %d patches agree, %.4f px off at the worst corner", r.inliers, r.pairs, cornerError(r.t, want, w, h))
	if e := cornerError(r.t, want, w, h); e > 0.5 {
		t.Errorf("pixels: got %+v, want %+v: %.3f px off", r.t, want, e)
	}
}

// synthRevision draws synthetic sheet 1 of seed and its revision
// (internal/tools/synth, 24 × 18 in) and renders both at dpi, with their
// geometry when asked; also the revision's truth and its page transform.
func synthRevision(t *testing.T, seed int64, dpi int, vectors bool) (a, b *Side, rev *synth.RevisionTruth, want Transform) {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: seed, Sheets: 1, Revision: true, PageSize: "24x18", DPI: float64(dpi)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.pdf"), filepath.Join(dir, "b.pdf")
	if err := synth.WriteFile(pa, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	if err := synth.WriteFile(pb, set.WriteRevisionPDF); err != nil {
		t.Fatal(err)
	}
	rev = set.Truth.Sheets[0].Revision
	want = Transform{Scale: rev.Transform.Scale, Tx: rev.Transform.TX, Ty: rev.Transform.TY}
	return pdfSide(t, pa, dpi, vectors), pdfSide(t, pb, dpi, vectors), rev, want
}

// pdfSide renders page 1 of a PDF at dpi, with its geometry when asked.
func pdfSide(t *testing.T, path string, dpi int, vectors bool) *Side {
	t.Helper()
	doc := rendertest.Open(t, path, render.TypePDF, dpi)
	s := &Side{Image: rendertest.Render(t, doc, 1), DPI: dpi}
	if vectors {
		pg, ok, err := render.Vectors(context.Background(), doc, 0)
		if err != nil || !ok {
			t.Fatalf("vectors: ok %v err %v", ok, err)
		}
		s.Page = pg
	}
	return s
}

// TestFitSimilarity recovers a similarity from correspondences of which a
// third are wrong.
func TestFitSimilarity(t *testing.T) {
	want := Transform{Scale: 1.13, RotationDeg: -2.2, Tx: 14.5, Ty: -230.25}
	r := rand.New(rand.NewPCG(1, 2))
	var ps []pair
	for i := 0; i < 90; i++ {
		x, y := r.Float64()*3000, r.Float64()*2000
		bx, by := want.Apply(x, y)
		if i%3 == 0 {
			bx += 20 + r.Float64()*200
			by -= 20 + r.Float64()*200
		} else {
			bx += (r.Float64() - 0.5) * 0.2
			by += (r.Float64() - 0.5) * 0.2
		}
		ps = append(ps, pair{x, y, bx, by})
	}
	fit, ok := ransacSimilarity(ps, 1, 0.5, 2)
	if !ok {
		t.Fatal("no fit")
	}
	if len(fit.inliers) != 60 {
		t.Errorf("%d inliers, want 60", len(fit.inliers))
	}
	if e := cornerError(fit.t, want, 3000, 2000); e > 0.1 {
		t.Errorf("got %+v, want %+v: %.3f px off", fit.t, want, e)
	}
	if fit.residual > 0.1 {
		t.Errorf("residual %.3f", fit.residual)
	}
}

// TestAlignTitleBlockStrip registers a sheet's title block cut as the
// layout cuts it: a tall, narrow strip along the right edge of a 36 × 24 in
// sheet (synthetic seed 2, 300 DPI), whose levels have room for only a few
// patches each. It once failed with "6 of 6 patches agree at 1/2
// resolution" and its unchanged fields were reported as changes.
func TestAlignTitleBlockStrip(t *testing.T) {
	const dpi = 300
	ba, _, crop, want := synthBlockPair(t, 2, dpi, "TitleBlock")
	if ba.Dy() < 3*ba.Dx() {
		t.Fatalf("title block %v is not a tall strip", ba)
	}
	got, ok, warnings, err := Align(context.Background(), side(crop(0), dpi), side(crop(1), dpi), Options{})
	if err != nil || !ok {
		t.Fatalf("not registered (%v): %v", err, warnings)
	}
	if e := cornerError(got, want, ba.Dx(), ba.Dy()); e > 0.5 {
		t.Errorf("got %+v, want %+v: %.3f px off at a corner", got, want, e)
	}
}

// synthBlockPair renders synthetic sheet 1 of seed (36 × 24 in) and its
// revision at dpi and finds the block of type typ on both: its places (4
// pixels padded), a function cutting side i (0 the original, 1 the
// revision) there, and the page transform seen from the two cuts' origins.
func synthBlockPair(t *testing.T, seed int64, dpi int, typ string) (ba, bb image.Rectangle, crop func(i int) *image.Gray, want Transform) {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: seed, Sheets: 1, Revision: true, DPI: float64(dpi)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.pdf"), filepath.Join(dir, "b.pdf")
	if err := synth.WriteFile(pa, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	if err := synth.WriteFile(pb, set.WriteRevisionPDF); err != nil {
		t.Fatal(err)
	}
	rev := set.Truth.Sheets[0].Revision
	page := Transform{Scale: rev.Transform.Scale, Tx: rev.Transform.TX, Ty: rev.Transform.TY}
	for i, blk := range set.Truth.Sheets[0].Blocks {
		if blk.Type == typ {
			r := func(x geom.Box) image.Rectangle {
				return image.Rect(int(x.XMin)-4, int(x.YMin)-4, int(x.XMax)+4, int(x.YMax)+4)
			}
			ba, bb = r(blk.Box), r(rev.Blocks[i].Box)
		}
	}
	if ba.Empty() {
		t.Fatalf("no %s on the sheet", typ)
	}
	crop = func(i int) *image.Gray {
		path, r := pa, ba
		if i == 1 {
			path, r = pb, bb
		}
		img := pdfSide(t, path, dpi, false).Image
		out := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
		for y := 0; y < r.Dy(); y++ {
			copy(out.Pix[y*out.Stride:(y+1)*out.Stride], img.Pix[img.PixOffset(r.Min.X, r.Min.Y+y):])
		}
		return out
	}
	tx, ty := page.Apply(float64(ba.Min.X), float64(ba.Min.Y))
	return ba, bb, crop, Transform{Scale: page.Scale, Tx: tx - float64(bb.Min.X), Ty: ty - float64(bb.Min.Y)}
}

// TestAlignInkBoxFirst: with InkBoxFirst an upright pair (shifted,
// rescaled, turned by a degree) registers from the ink boxes' pose alone,
// without the coarse search, and a page turned by a quarter or a half from
// that pose turned as much (the upright pose does not register it); an
// unrelated pair does not register.
func TestAlignInkBoxFirst(t *testing.T) {
	const w, h = 1000, 700
	p := newPlan(3, w, h)
	a := p.draw(Identity, w, h, 2)
	cases := []struct {
		name   string
		t      Transform
		bw, bh int
		turns  int // quarter turns of the pose that registers it
	}{
		{"shift", Transform{Scale: 1, Tx: 23.3, Ty: -11.6}, w, h, 0},
		{"scale 0.9", Transform{Scale: 0.9, Tx: 40.25, Ty: 31.5}, w, h, 0},
		{"rotate 1°", Transform{Scale: 1, RotationDeg: 1, Tx: 10.5, Ty: -6.25}, w, h, 0},
		{"quarter turn", Transform{Scale: 0.95, RotationDeg: 90, Tx: 680.5, Ty: 15.3}, h, w, 1},
		{"half turn", Transform{Scale: 1, RotationDeg: 180, Tx: w + 10.6, Ty: h - 7.2}, w, h, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := p.draw(c.t, c.bw, c.bh, 2)
			for q := range 4 {
				quick, err := alignLevels(context.Background(), side(a, 150), side(b, 150), time.Now().Add(time.Minute), nil, false, q)
				if err != nil {
					t.Fatal(err)
				}
				if q == c.turns && !quick.ok || q == 0 && c.turns != 0 && quick.ok {
					t.Errorf("from the ink boxes' pose turned %d times alone: registered %v (%v)", q, quick.ok, quick.warnings)
				}
			}
			got, ok, warnings, err := Align(context.Background(), side(a, 150), side(b, 150), Options{InkBoxFirst: true})
			if err != nil || !ok {
				t.Fatalf("not registered: %v %v", err, warnings)
			}
			if e := cornerError(got, c.t, w, h); e > 1 {
				t.Errorf("got %+v, want %+v: %.3f px off at a corner", got, c.t, e)
			}
		})
	}
	if _, ok, _, _ := Align(context.Background(), side(a, 150), side(scribble(6, 900, 800), 150), Options{InkBoxFirst: true}); ok {
		t.Error("an unrelated pair registered")
	}
}

// TestInkPoseTurns: the ink-box poses tried follow the images' shapes.
func TestInkPoseTurns(t *testing.T) {
	wide, tall, square := image.Rect(0, 0, 1000, 700), image.Rect(0, 0, 700, 1000), image.Rect(0, 0, 1000, 980)
	for _, c := range []struct {
		a, b image.Rectangle
		want []int
	}{{wide, wide, []int{0}}, {tall, tall, []int{0}}, {wide, tall, []int{1, 3}}, {tall, wide, []int{1, 3}}, {square, wide, []int{0, 1, 3, 2}}} {
		if got := inkPoseTurns(c.a, c.b); !slices.Equal(got, c.want) {
			t.Errorf("%v → %v: %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
