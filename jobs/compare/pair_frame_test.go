package compare

import (
	"context"
	"image"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

// TestPairBlocksTurnedSheet: the newer revision is the older sheet reprinted
// a quarter turn clockwise. Four views of one type, without titles or words,
// sit in a 2×2 grid; as shares of the sheet each lands on another's place,
// so pairing by place pairs them wrongly. Registering the sheets' thumbnails
// first and pairing in the newer sheet's frame pairs each view with itself.
func TestPairBlocksTurnedSheet(t *testing.T) {
	const sw, sh = 2000.0, 1200.0 // the older sheet, sheet pixels
	const k = 0.5                 // thumbnail pixels per sheet pixel
	names := []string{"nw", "ne", "sw", "se"}
	boxes := []geom.Box{
		{XMin: 100, YMin: 100, XMax: 950, YMax: 550}, {XMin: 1050, YMin: 100, XMax: 1900, YMax: 550},
		{XMin: 100, YMin: 650, XMax: 950, YMax: 1100}, {XMin: 1050, YMin: 650, XMax: 1900, YMax: 1100},
	}
	// the older thumbnail: a frame and, in each view, its own random linework
	thumbA := image.NewGray(image.Rect(0, 0, int(sw*k), int(sh*k)))
	for i := range thumbA.Pix {
		thumbA.Pix[i] = 255
	}
	drawLine(thumbA, 2, 2, sw*k-3, 2)
	drawLine(thumbA, sw*k-3, 2, sw*k-3, sh*k-3)
	drawLine(thumbA, sw*k-3, sh*k-3, 2, sh*k-3)
	drawLine(thumbA, 2, sh*k-3, 2, 2)
	rng := rand.New(rand.NewSource(7))
	for _, b := range boxes {
		x0, y0, w, h := b.XMin*k, b.YMin*k, b.Width()*k, b.Height()*k
		for n := 0; n < 40; n++ {
			x, y := x0+rng.Float64()*w, y0+rng.Float64()*h
			if rng.Intn(2) == 0 {
				drawLine(thumbA, x, y, min(x0+w, x+20+rng.Float64()*80), y)
			} else {
				drawLine(thumbA, x, y, x, min(y0+h, y+20+rng.Float64()*80))
			}
		}
	}
	// the newer: the same turned a quarter clockwise, (x, y) → (H−1−y, x)
	tw, th := thumbA.Rect.Dx(), thumbA.Rect.Dy()
	thumbB := image.NewGray(image.Rect(0, 0, th, tw))
	for y := 0; y < th; y++ {
		for x := 0; x < tw; x++ {
			thumbB.Pix[x*th+(th-1-y)] = thumbA.Pix[y*tw+x]
		}
	}
	var old, new []BlockInfo
	for i, b := range boxes {
		old = append(old, BlockInfo{ID: names[i], Type: "Detail", Box: b, SheetW: sw, SheetH: sh})
		turned := geom.Box{XMin: sh - b.YMax, YMin: b.XMin, XMax: sh - b.YMin, YMax: b.XMax}
		new = append(new, BlockInfo{ID: names[i] + "'", Type: "Detail", Box: turned, SheetW: sh, SheetH: sw})
	}
	ids := func(ps []BlockPair) [][2]string {
		var out [][2]string
		for _, p := range ps {
			out = append(out, [2]string{p.Old.ID, p.New.ID})
		}
		return out
	}
	want := [][2]string{{"nw", "nw'"}, {"ne", "ne'"}, {"sw", "sw'"}, {"se", "se'"}}
	// by place as shares of the sheet the views are mistaken for each other
	if got, _, _ := PairBlocks(old, new); slices.Equal(ids(got), want) {
		t.Fatalf("pairing by place paired the turned views right (%v): the case tests nothing", ids(got))
	}
	tr, ok := SheetTransform(context.Background(), thumbA, thumbB, [2]float64{sw, sh}, [2]float64{sh, sw})
	if !ok {
		t.Fatal("the turned sheet did not register")
	}
	if d := math.Abs(math.Remainder(tr.RotationDeg-90, 360)); d > 1 || math.Abs(tr.Scale-1) > 0.02 {
		t.Errorf("sheet transform %+v, want a quarter turn clockwise at scale 1", tr)
	}
	// a corner of the older sheet lands on the newer's turned corner
	if x, y := tr.Apply(0, 0); math.Hypot(x-sh, y) > 10 {
		t.Errorf("the older sheet's origin maps to (%.1f, %.1f), want (%.0f, 0)", x, y, sh)
	}
	// a title block strip at the older sheet's right, and on the turned
	// sheet a strip typed a title block, with the same words, at the right
	// again: not where the older one went, so not the same block
	words := []string{"ACME", "ARCHITECTS", "A2.1", "REV"}
	old = append(old, BlockInfo{ID: "tb", Type: "TitleBlock", Box: geom.Box{XMin: 1920, YMin: 100, XMax: 1990, YMax: 1100},
		SheetW: sw, SheetH: sh, Words: words})
	new = append(new, BlockInfo{ID: "strip'", Type: "TitleBlock", Box: geom.Box{XMin: 1130, YMin: 100, XMax: 1190, YMax: 1900},
		SheetW: sh, SheetH: sw, Words: words})
	pairs, added, removed := PairBlocksIn(old, new, tr)
	if got := ids(pairs); !slices.Equal(got, want) || len(added) != 1 || added[0].ID != "strip'" || len(removed) != 1 || removed[0].ID != "tb" {
		t.Errorf("pairs %v added %v removed %v, want %v, the strip added and the title block removed", got, added, removed, want)
	}
	for _, p := range pairs {
		if p.Old.Box != boxes[slices.Index(names, p.Old.ID)] {
			t.Errorf("pair %s returned the mapped box %v, not the block's own", p.Old.ID, p.Old.Box)
		}
	}
	// images that do not register keep pairing by place
	if _, ok := SheetTransform(context.Background(), nil, thumbB, [2]float64{sw, sh}, [2]float64{sh, sw}); ok {
		t.Error("a sheet without a thumbnail registered")
	}
}

// drawLine draws a 3 px wide line of ink from (x0, y0) to (x1, y1).
func drawLine(img *image.Gray, x0, y0, x1, y1 float64) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for i := 0; i <= n; i++ {
		x := x0 + (x1-x0)*float64(i)/float64(n)
		y := y0 + (y1-y0)*float64(i)/float64(n)
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if p := (image.Point{X: int(x) + dx, Y: int(y) + dy}); p.In(img.Rect) {
					img.Pix[img.PixOffset(p.X, p.Y)] = 0
				}
			}
		}
	}
}
