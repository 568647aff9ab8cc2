//go:build devtools

package symbols

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/vision/geom"
)

// TestDiagnose searches a block dumped by jobs/parse TestHeavyBlock
// (PLANGRAPH_HEAVY_DUMP=DIR: block.png, tmplNN.png and meta.json) for the
// templates named in PLANGRAPH_DIAG_LABELS (comma-separated; all when
// unset), at PLANGRAPH_DIAG_SCALES=MIN,MAX (default the near scales;
// PLANGRAPH_DIAG_NEAR=1: a tiled block's first pass, PLANGRAPH_DIAG_BAND=1:
// the same for a crop searched whole), in
// PLANGRAPH_DIAG_CROP=X0,Y0,X1,Y1 of the block when set, and prints every
// detection with its similarities; PLANGRAPH_DIAG_MOSAIC=FILE writes the
// detections' surroundings, four times enlarged, in a grid. A
// development aid:
//
//	PLANGRAPH_DIAG=/tmp/dump PLANGRAPH_DIAG_LABELS=SWITCH go test -tags devtools ./vision/symbols -run TestDiagnose -v
func TestDiagnose(t *testing.T) {
	dir := os.Getenv("PLANGRAPH_DIAG")
	if dir == "" {
		t.Skip("PLANGRAPH_DIAG=DIR not set")
	}
	img := readGrayPNG(t, filepath.Join(dir, "block.png"))
	var meta struct {
		Templates []Template
		Words     []geom.Box
		Letters   []Word
	}
	js, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, &meta); err != nil {
		t.Fatal(err)
	}
	var want []string
	if s := os.Getenv("PLANGRAPH_DIAG_LABELS"); s != "" {
		want = strings.Split(s, ",")
	}
	var tmpls []Template
	for i, tm := range meta.Templates {
		if want != nil && !slices.Contains(want, tm.Label) {
			continue
		}
		tm.Image = readGrayPNG(t, filepath.Join(dir, fmt.Sprintf("tmpl%02d.png", i)))
		tmpls = append(tmpls, tm)
	}
	opt := Options{MinScale: 1 / nearScale, MaxScale: nearScale, Words: meta.Words, Letters: meta.Letters}
	if f := strings.Split(os.Getenv("PLANGRAPH_DIAG_SCALES"), ","); len(f) == 2 {
		opt.MinScale, _ = strconv.ParseFloat(f[0], 64)
		opt.MaxScale, _ = strconv.ParseFloat(f[1], 64)
	}
	if os.Getenv("PLANGRAPH_DIAG_NEAR") != "" {
		// as the service under its budget: the default scales, stopped
		// once the near scales are searched everywhere
		opt.MinScale, opt.MaxScale = 0, 0
		var stop context.CancelFunc
		opt.Deadline = time.Now().Add(time.Hour)
		opt.budget = func(ctx context.Context, _ time.Time) (context.Context, context.CancelFunc) {
			c, cancel := context.WithCancel(ctx)
			stop = cancel
			return c, cancel
		}
		opt.Progress = func(v float64) {
			if v > 0.5 && stop != nil {
				stop()
			}
		}
	}
	if v, err := strconv.ParseFloat(os.Getenv("PLANGRAPH_DIAG_MINCONF"), 64); err == nil {
		opt.MinConfidence = v
	}
	if os.Getenv("PLANGRAPH_DIAG_NOWORDS") != "" { // without the text rules
		opt.Words, opt.Letters = nil, nil
	}
	if os.Getenv("PLANGRAPH_DIAG_BAND") != "" {
		// a crop small enough to be searched whole, as a tiled block's
		// first pass: the ring pass at the near scales, refinement free
		// to climb across the default ones
		opt.MinScale, opt.MaxScale = 0.5, 2
		opt.band = [3]float64{1 / nearScale, nearScale, 0}
	}
	var off image.Point
	if f := strings.Split(os.Getenv("PLANGRAPH_DIAG_CROP"), ","); len(f) == 4 {
		var v [4]int
		for i := range v {
			v[i], _ = strconv.Atoi(f[i])
		}
		r := image.Rect(v[0], v[1], v[2], v[3]).Intersect(img.Bounds())
		sub := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
		for y := 0; y < r.Dy(); y++ {
			copy(sub.Pix[y*sub.Stride:y*sub.Stride+r.Dx()], img.Pix[(y+r.Min.Y)*img.Stride+r.Min.X:])
		}
		img, off = sub, r.Min
		var words []geom.Box
		for _, w := range opt.Words {
			words = append(words, w.Translate(-float64(off.X), -float64(off.Y)))
		}
		opt.Words = words
		var letters []Word
		for _, w := range opt.Letters {
			w.Box = w.Box.Translate(-float64(off.X), -float64(off.Y))
			letters = append(letters, w)
		}
		opt.Letters = letters
	}
	res, err := Match(context.Background(), img, tmpls, opt)
	if err != nil {
		t.Fatal(err)
	}
	dets := res.Detections
	sort.Slice(dets, func(i, j int) bool { return dets[i].Confidence > dets[j].Confidence })
	count := map[string]int{}
	for i, d := range dets {
		count[d.Label]++
		fmt.Printf("%3d %-32q at %5.0f,%5.0f scale %.2f angle %5.1f conf %.3f ncc %.3f chamfer %.3f explained %.3f support %.0f\n",
			i, d.Label, (d.Box.XMin+d.Box.XMax)/2+float64(off.X), (d.Box.YMin+d.Box.YMax)/2+float64(off.Y), d.Scale, d.Angle,
			d.Confidence, d.ncc, d.chamfer, d.explained, d.support)
	}
	for _, tm := range tmpls {
		fmt.Printf("    %-40q %d\n", tm.Label, count[tm.Label])
	}
	fmt.Printf("stats %+v\n", res.Stats)
	if out := os.Getenv("PLANGRAPH_DIAG_MOSAIC"); out != "" {
		writeMosaic(t, out, img, dets)
	}
}

// writeMosaic draws each detection's box grown by its size on every side,
// four times enlarged, in rows of eight, in the order given; the box's
// edges are drawn grey.
func writeMosaic(t *testing.T, path string, img *image.Gray, dets []Detection) {
	const cell, zoom, cols = 240, 4, 8
	rows := (len(dets) + cols - 1) / cols
	m := image.NewGray(image.Rect(0, 0, cols*cell, max(rows, 1)*cell))
	for i := range m.Pix {
		m.Pix[i] = 90
	}
	for i, d := range dets {
		ox, oy := (i%cols)*cell, (i/cols)*cell
		cx, cy := (d.Box.XMin+d.Box.XMax)/2, (d.Box.YMin+d.Box.YMax)/2
		for y := 2; y < cell-2; y++ {
			for x := 2; x < cell-2; x++ {
				fx, fy := cx+float64(x-cell/2)/zoom, cy+float64(y-cell/2)/zoom
				ix, iy := int(fx), int(fy)
				v := uint8(255)
				if (image.Point{ix, iy}).In(img.Bounds()) {
					v = img.GrayAt(ix, iy).Y
				}
				onEdge := (math.Abs(fx-d.Box.XMin) < 0.25 || math.Abs(fx-d.Box.XMax) < 0.25) && fy >= d.Box.YMin && fy <= d.Box.YMax ||
					(math.Abs(fy-d.Box.YMin) < 0.25 || math.Abs(fy-d.Box.YMax) < 0.25) && fx >= d.Box.XMin && fx <= d.Box.XMax
				if onEdge && v > 128 {
					v = 170
				}
				m.Pix[(oy+y)*m.Stride+ox+x] = v
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, m); err != nil {
		t.Fatal(err)
	}
}
