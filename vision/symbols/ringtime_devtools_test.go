//go:build devtools

package symbols

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"time"
)

// TestRingPassTime times the ring pass on the first tile of a block dumped
// by jobs/parse TestHeavyBlock (PLANGRAPH_HEAVY_DUMP=DIR: block.png and
// tmplNN.png), at the near scales unless PLANGRAPH_RINGS_ALL is set, and
// prints the candidates per template. A development aid:
//
//	PLANGRAPH_RINGS=/tmp/dump go test -tags devtools ./vision/symbols -run TestRingPassTime -v
func TestRingPassTime(t *testing.T) {
	dir := os.Getenv("PLANGRAPH_RINGS")
	if dir == "" {
		t.Skip("PLANGRAPH_RINGS=DIR not set")
	}
	img := readGrayPNG(t, filepath.Join(dir, "block.png"))
	files, _ := filepath.Glob(filepath.Join(dir, "tmpl*.png"))
	sort.Strings(files)
	var tmpls []Template
	for _, f := range files {
		tmpls = append(tmpls, Template{Label: filepath.Base(f), Image: readGrayPNG(t, f)})
	}
	opt := Options{MinScale: 0.5, MaxScale: 2, MinConfidence: 0.5}
	if os.Getenv("PLANGRAPH_RINGS_ALL") == "" {
		opt.band = [3]float64{1 / nearScale, nearScale, 0}
	}
	prep, _ := prepareAll(tmpls, &opt, img.Bounds().Dx(), img.Bounds().Dy())
	margin := 0.0
	for _, p := range prep {
		margin = max(margin, math.Hypot(p.bw, p.bh)/2*opt.MaxScale)
	}
	pad := 2*int(math.Ceil(margin)) + 32
	b := img.Bounds()
	r := image.Rect(0, 0, tileCore, tileCore).Inset(-pad).Intersect(b)
	tile := img.SubImage(r).(*image.Gray)
	cov := opt.coverage(tile)
	sw := strokeWidth(cov)
	keep := 0.0
	for _, p := range prep {
		keep = max(keep, max(p.bw, p.bh)*opt.MaxScale)
	}
	hidden := removeFills(cov, sw, keep)
	m := &matcher{opt: opt, levels: []*fimg{cov}, sw: sw, longRun: keep * 1.25, hidden: hidden}
	t0 := time.Now()
	cands, err := m.ringPass(context.Background(), prep)
	if err != nil {
		t.Fatal(err)
	}
	per := map[int]int{}
	for _, c := range cands {
		per[c.t.idx]++
	}
	fmt.Printf("tile %v, stroke %.1f, %d templates: ring pass %.1f s, %d candidates\n", r, sw, len(prep), time.Since(t0).Seconds(), len(cands))
	for _, p := range prep {
		fmt.Printf("    %-12s r %.0f  %d\n", tmpls[p.idx].Label, p.radius, per[p.idx])
	}
}

func readGrayPNG(t *testing.T, path string) *image.Gray {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := src.(*image.Gray); ok {
		return g
	}
	g := image.NewGray(src.Bounds())
	draw.Draw(g, g.Bounds(), src, src.Bounds().Min, draw.Src)
	return g
}
