//go:build devtools

package parse

// TestHeavyBlock searches one view block of a real sheet in-process, as a
// match job does (the legend read from the set's legend sheet, each graphic
// stored as the legend job stores it, the block's words for the text rules,
// the block padded onto the sheet's grid), and prints where the time went.
// A development aid for the parse-time goal (issue 24):
//
//	PLANGRAPH_HEAVY=../shared/datasets/real/crayfish-inn-alterations.pdf:7:7 \
//	  go test -tags devtools ./jobs/parse -run TestHeavyBlock -v -timeout 30m \
//	  -cpuprofile /tmp/heavy.prof
//
// The spec is PDF:VIEWPAGE:LEGENDPAGE[:BLOCK] (BLOCK: the view block's
// index among the page's view blocks by falling area, default 0, the
// largest; "all" searches every one). PLANGRAPH_HEAVY_BUDGET bounds each
// block's search (a Go duration, default 3m, the service's);
// PLANGRAPH_HEAVY_DETS prints each geometry detection's centre (sheet
// pixels), PLANGRAPH_HEAVY_WORDS the words read about it; PLANGRAPH_HEAVY_SCALES=MIN,MAX the scales searched (default the
// service's).

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/legend"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/sheetread"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
	"github.com/plangraph/plangraph/vision/vecsym"
	"github.com/plangraph/plangraph/vision/vector"
)

type heavySheet struct {
	img    *image.Gray
	words  []text.Word
	blocks []layout.Block
}

func readHeavySheet(t *testing.T, doc render.Document, path string, page int) heavySheet {
	ctx := context.Background()
	img, err := render.RenderContext(ctx, doc, page-1)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := text.PDFPage(ctx, path, page, 300.0/72)
	if err != nil {
		t.Fatal(err)
	}
	sr, err := sheetread.Read(ctx, img, 300, pg.Words)
	if err != nil {
		t.Fatal(err)
	}
	return heavySheet{img: img, words: sr.Words, blocks: sr.Layout.Blocks(sr.Info.NumberBox)}
}

// cut is block b's image and words in its own pixels, as ingestion stores
// them.
func (s heavySheet) cut(b layout.Block) (*image.Gray, []text.Word) {
	r := image.Rect(int(b.Box.XMin), int(b.Box.YMin), int(math.Ceil(b.Box.XMax)), int(math.Ceil(b.Box.YMax))).Intersect(s.img.Rect)
	var inside []text.Word
	for _, w := range s.words {
		if w.Box.XMin >= b.Box.XMin && w.Box.YMin >= b.Box.YMin && w.Box.XMax <= b.Box.XMax && w.Box.YMax <= b.Box.YMax {
			w.Box = w.Box.Translate(-b.Box.XMin, -b.Box.YMin)
			inside = append(inside, w)
		}
	}
	return render.PadWhite(s.img.SubImage(r).(*image.Gray), 0), inside
}

func dumpPNG(t *testing.T, path string, img image.Image) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

func TestHeavyBlock(t *testing.T) {
	spec := strings.Split(os.Getenv("PLANGRAPH_HEAVY"), ":")
	if len(spec) < 3 {
		t.Skip("PLANGRAPH_HEAVY=PDF:VIEWPAGE:LEGENDPAGE[:BLOCK] not set")
	}
	path := spec[0]
	viewPage, _ := strconv.Atoi(spec[1])
	legendPage, _ := strconv.Atoi(spec[2])
	budget := 3 * time.Minute
	if s := os.Getenv("PLANGRAPH_HEAVY_BUDGET"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		budget = d
	}
	lim := render.DefaultLimits()
	lim.DPI = 300
	doc, err := render.Open(path, render.TypePDF, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	t0 := time.Now()
	ls := readHeavySheet(t, doc, path, legendPage)
	vs := ls
	if viewPage != legendPage {
		vs = readHeavySheet(t, doc, path, viewPage)
	}
	t.Logf("sheets read in %v", time.Since(t0))
	// the legend's graphics, as the legend job stores them
	type graphic struct {
		tmpl symbols.Template
		box  geom.Box // on the legend's sheet
		text []vector.Rect
		tag  string
	}
	var graphics []graphic
	for _, b := range ls.blocks {
		if b.Type != "Legend" {
			continue
		}
		t.Logf("legend block %q at %.0f,%.0f,%.0f,%.0f", b.Title, b.Box.XMin, b.Box.YMin, b.Box.XMax, b.Box.YMax)
		limg, lwords := ls.cut(b)
		crop := limg
		veto := vetoBoxes(lwords, 0, 0)
		for _, e := range legend.Parse(crop, lwords) {
			if !e.HasGraphic || e.Exemplar == nil {
				continue
			}
			ex, ok := render.TightCrop(e.Exemplar)
			if !ok {
				continue
			}
			tm := symbols.Template{Label: e.Label, Image: render.PadWhite(ex, render.CropMargin)}
			markText(&tm, e.Graphic, lwords, veto, func() *image.Gray { return crop })
			o := blockRect(b.Box)
			graphics = append(graphics, graphic{tm, e.Graphic.Translate(float64(o.X0), float64(o.Y0)),
				graphicText(e.Graphic, lwords, float64(o.X0), float64(o.Y0)), entryTag(e.Label, e.Description)})
			if os.Getenv("PLANGRAPH_HEAVY_LEGEND") != "" {
				g := graphics[len(graphics)-1].box
				t.Logf("legend graphic %q at %.0f,%.0f,%.0f,%.0f tag %q, %d words in it", e.Label, g.XMin, g.YMin, g.XMax, g.YMax,
					graphics[len(graphics)-1].tag, len(graphics[len(graphics)-1].text))
			}
		}
	}
	var views []layout.Block
	for _, b := range vs.blocks {
		for _, vt := range ViewBlockTypes {
			if string(vt) == b.Type {
				views = append(views, b)
			}
		}
	}
	sort.SliceStable(views, func(i, j int) bool { return views[i].Box.Area() > views[j].Box.Area() })
	pick := views
	if len(spec) > 3 && spec[3] != "all" {
		i, _ := strconv.Atoi(spec[3])
		if i >= len(views) {
			t.Fatalf("page %d has %d view blocks", viewPage, len(views))
		}
		pick = views[i : i+1]
	} else if len(spec) <= 3 && len(views) > 0 {
		pick = views[:1]
	}
	pg, _, err := render.Vectors(context.Background(), doc, viewPage-1)
	if err != nil {
		t.Fatal(err)
	}
	lpg := pg
	if legendPage != viewPage {
		if lpg, _, err = render.Vectors(context.Background(), doc, legendPage-1); err != nil {
			t.Fatal(err)
		}
	}
	var total time.Duration
	for _, b := range pick {
		img, words := vs.cut(b)
		t.Logf("block %s %q at %.0f,%.0f,%.0f,%.0f", b.Type, b.Title, b.Box.XMin, b.Box.YMin, b.Box.XMax, b.Box.YMax)
		if pg != nil {
			r := blockRect(b.Box)
			fmt.Printf("geometry: truncated %v, images cover %.1f%% of the block, searched as geometry: %v\n", pg.Truncated,
				100*pg.ImageArea(r)/(float64(r.X1-r.X0)*float64(r.Y1-r.Y0)), !pg.Truncated && drawnAsGeometry(pg, r))
		}
		bw, bh := img.Bounds().Dx(), img.Bounds().Dy()
		// as the match job: a block and graphic drawn as geometry are
		// matched as geometry, the rest as pixels
		var drawing *vecsym.Drawing
		if pg != nil && !pg.Truncated && drawnAsGeometry(pg, blockRect(b.Box)) {
			drawing = vecsym.NewDrawing(pg, blockRect(b.Box))
		}
		var tmpls []symbols.Template
		var vtmpls []*vecsym.Template
		var vtags []string
		for _, g := range graphics {
			if why := unsearchable(g.tmpl.Image, MinSymbolPixels300, bw, bh); why != "" {
				t.Logf("skip %q: %s", g.tmpl.Label, why)
				continue
			}
			if drawing != nil && lpg != nil && !lpg.Truncated && drawnAsGeometry(lpg, boxRect(g.box).Grow(2)) {
				vt, err := vecsym.NewTemplateBeside(g.tmpl.Label, lpg, boxRect(g.box), g.text)
				if err == nil {
					vtmpls = append(vtmpls, vt)
					vtags = append(vtags, g.tag)
					continue
				}
				t.Logf("%q: %v", g.tmpl.Label, err)
			}
			tm := g.tmpl
			tm.TextBoxes = slices.Clone(tm.TextBoxes)
			tmpls = append(tmpls, tm)
		}
		padded, dx, dy := render.OnSheetGrid(img, b.Box.XMin, b.Box.YMin)
		var veto []geom.Box
		var letters []symbols.Word
		if len(words) > 0 {
			veto, letters = drawingText(words, float64(dx), float64(dy))
		}
		t1 := time.Now()
		if len(vtmpls) > 0 {
			vo := vecsym.Options{Deadline: t1.Add(budget), Tags: vtags, Words: drawingWords(words)}
			if f := strings.Split(os.Getenv("PLANGRAPH_HEAVY_VSCALES"), ","); len(f) == 2 {
				vo.MinScale, _ = strconv.ParseFloat(f[0], 64)
				vo.MaxScale, _ = strconv.ParseFloat(f[1], 64)
			}
			vd, err := vecsym.Match(context.Background(), drawing, vtmpls, vo)
			fmt.Printf("p%d %s %q geometry: %d symbols, %.1f s, err %v\n", viewPage, b.Type, b.Title, len(vtmpls), time.Since(t1).Seconds(), err)
			vcount := map[int]int{}
			var view []float64 // PLANGRAPH_HEAVY_VIEW: count only inside this box (sheet pixels)
			for _, f := range strings.Split(os.Getenv("PLANGRAPH_HEAVY_VIEW"), ",") {
				if v, err := strconv.ParseFloat(f, 64); err == nil {
					view = append(view, v)
				}
			}
			for _, d := range vd {
				x, y := (d.Box.XMin+d.Box.XMax)/2+float64(blockRect(b.Box).X0), (d.Box.YMin+d.Box.YMax)/2+float64(blockRect(b.Box).Y0)
				if len(view) == 4 && (x < view[0] || y < view[1] || x >= view[2] || y >= view[3]) {
					continue
				}
				vcount[d.Template]++
				if os.Getenv("PLANGRAPH_HEAVY_DETS") != "" {
					fmt.Printf("    det %q at %.0f,%.0f conf %.2f\n", vtmpls[d.Template].Label, x, y, d.Confidence)
					if os.Getenv("PLANGRAPH_HEAVY_WORDS") != "" { // the words read about it
						for _, w := range words {
							if math.Abs((w.Box.XMin+w.Box.XMax)/2-(d.Box.XMin+d.Box.XMax)/2) < 2*d.Box.Width() &&
								math.Abs((w.Box.YMin+w.Box.YMax)/2-(d.Box.YMin+d.Box.YMax)/2) < 2*d.Box.Height() {
								fmt.Printf("        word %q conf %.2f at %.0f,%.0f\n", w.Text, w.Conf, w.Box.XMin, w.Box.YMin)
							}
						}
					}
				}
			}
			for i, vt := range vtmpls {
				fmt.Printf("    %-40q %d\n", vt.Label, vcount[i])
			}
			t1 = time.Now()
		}
		if len(tmpls) == 0 {
			continue
		}
		last := t1
		progress := func(v float64) { // the search's progress every 15 s
			if time.Since(last) >= 15*time.Second {
				last = time.Now()
				fmt.Printf("    %5.0f s: %.3f done\n", time.Since(t1).Seconds(), v)
			}
		}
		mo := symbols.Options{Words: veto, Letters: letters, Deadline: t1.Add(budget), Progress: progress}
		if f := strings.Split(os.Getenv("PLANGRAPH_HEAVY_SCALES"), ","); len(f) == 2 {
			mo.MinScale, _ = strconv.ParseFloat(f[0], 64)
			mo.MaxScale, _ = strconv.ParseFloat(f[1], 64)
		}
		if dir := os.Getenv("PLANGRAPH_HEAVY_DUMP"); dir != "" {
			dumpPNG(t, fmt.Sprintf("%s/block.png", dir), padded)
			for i, tm := range tmpls {
				dumpPNG(t, fmt.Sprintf("%s/tmpl%02d.png", dir, i), tm.Image)
			}
			// what the matcher is told besides the pictures: each
			// template's text fields (its Image left out) and the words
			meta := struct {
				Templates []symbols.Template
				Words     []geom.Box
				Letters   []symbols.Word
			}{Words: veto, Letters: letters}
			for _, tm := range tmpls {
				tm.Image = nil
				meta.Templates = append(meta.Templates, tm)
			}
			js, err := json.Marshal(meta)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dir+"/meta.json", js, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := symbols.Match(context.Background(), padded, tmpls, mo)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(t1)
		total += d
		count := map[string]int{}
		for _, det := range res.Detections {
			count[det.Label]++
		}
		st := res.Stats
		fmt.Printf("p%d %s %q %dx%d px, %d words, %d symbols: %.1f s (ring %.1f s, refine %.1f s), candidates %d (unrefined %d, claimed %d, on text %d), unsearched %.0f%%\n",
			viewPage, b.Type, b.Title, bw, bh, len(words), len(tmpls), d.Seconds(), st.RingTime.Seconds(), st.RefineTime.Seconds(),
			st.Candidates, st.Unrefined, st.Claimed, st.OnText, 100*unsearchedShare(res.Unsearched, padded.Bounds()))
		if res.NearScales[1] > 0 {
			fmt.Printf("    searched everywhere only at scales %.2f–%.2f\n", res.NearScales[0], res.NearScales[1])
		}
		for _, tm := range tmpls {
			fmt.Printf("    %-40q %d\n", tm.Label, count[tm.Label])
		}
		for _, s := range res.Skipped {
			fmt.Printf("    skipped %q: %s\n", tmpls[s.Template].Label, s.Reason)
		}
	}
	fmt.Printf("total search %.1f s\n", total.Seconds())
}
