//go:build devtools

// layoutdev runs the sheet metadata reader and the block segmenter on the
// labelled real sets in-process (no service, no storage) and prints what
// differs from the labels, drawing each page's blocks into -debug. It is a
// development aid: go run -tags devtools ./internal/devtools/layoutdev DIR
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/plangraph/plangraph/internal/tools/bench"
	"github.com/plangraph/plangraph/internal/tools/bench/labels"
	"github.com/plangraph/plangraph/vision/layout"
	"github.com/plangraph/plangraph/vision/legend"
	"github.com/plangraph/plangraph/vision/ocr"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/sheetinfo"
	"github.com/plangraph/plangraph/vision/sheetread"
	"github.com/plangraph/plangraph/vision/text"
)

func main() {
	only := flag.String("only", "", "comma-separated parts of file names")
	debug := flag.String("debug", "", "write page pictures with blocks here")
	dpi := flag.Int("dpi", 150, "render DPI")
	dump := flag.Bool("dump", false, "print the title-block reader's labels, values and lines")
	pages := flag.String("pages", "", "comma-separated page numbers (default: all)")
	legends := flag.Bool("legends", false, "read every Legend block found, print its entries and score them against the labels (counts are not run: they show as misses)")
	replay := flag.String("replay", "", "score the legend crops dumped by -legends with LEGEND_DUMP set (this folder) against the labels, without rendering or segmenting")
	list := flag.Bool("list", false, "print every block found (boxes in PDF points)")
	langs := flag.String("ocr-languages", "eng", "Tesseract languages, joined by +")
	cache := flag.String("cache", "", "keep each page's words (after OCR) here and reuse them: a faster loop while working on blocks")
	labelScale := flag.Float64("label-scale", 1, "the labels' boxes × this (sets printed at another size: turnpdf -scale)")
	flag.StringVar(&layout.TraceTitle, "trace-title", "", "with -dump, print the view-title evidence of lines containing this")
	flag.Parse()
	if err := ocr.SetDefaultLanguages(strings.Split(*langs, "+")); err != nil {
		panic(err)
	}
	dir := flag.Arg(0)
	sets, err := labels.Embedded()
	if err != nil {
		panic(err)
	}
	if *labelScale != 1 {
		scaleLabels(sets, *labelScale)
	}
	if *replay != "" {
		replayLegends(*replay, sets, *only)
		return
	}
	total := bench.RealScore{Set: "overall"}
	for _, set := range sets {
		if *only != "" && !any(strings.Split(*only, ","), set.File) {
			continue
		}
		path := filepath.Join(dir, set.File)
		lim := render.DefaultLimits()
		lim.DPI = *dpi
		doc, err := render.Open(path, "application/pdf", lim)
		if err != nil {
			fmt.Println(set.File, err)
			continue
		}
		var p bench.RealParsed
		for _, sh := range set.Sheets {
			if *pages != "" && !any(strings.Split(*pages, ","), fmt.Sprint(sh.Page)) {
				continue
			}
			img, err := render.RenderContext(context.Background(), doc, sh.Page-1)
			if err != nil {
				panic(err)
			}
			// a sheet too large at -dpi is drawn at less (render.MinFitDPI)
			_, _, dpi, err := doc.PageSize(sh.Page - 1)
			if err != nil {
				panic(err)
			}
			sr, err := readSheet(*cache, fmt.Sprintf("%s-%d-%d.json", strings.TrimSuffix(set.File, ".pdf"), sh.Page, dpi), img, dpi, path, sh.Page)
			if err != nil {
				panic(err)
			}
			a, info := sr.Layout, sr.Info
			if *dump {
				var hints sheetinfo.Hints
				if tb, ok := a.TitleBlock(); ok {
					hints.TitleBlock = tb
				}
				hints.Cells = a.Cell
				fmt.Printf("== %s p%d (%s text) title block %v\n", set.File, sh.Page, sr.TextSource, hints.TitleBlock)
				a.Dump(os.Stdout)
				a.DumpSeparators(os.Stdout)
				layout.Tracing = true
				a.DumpFrames(os.Stdout)
				sheetinfo.Dump(os.Stdout, sr.Words, float64(img.Bounds().Dx()), float64(img.Bounds().Dy()), hints)
			}
			blocks := a.Blocks(info.NumberBox)
			rs := bench.RealSheet{Page: sh.Page, DPI: float64(dpi), Number: info.Number, Title: info.Title, Discipline: info.Discipline, Revision: info.Revision}
			for _, bl := range blocks {
				if *list {
					k := 72 / float64(dpi)
					fmt.Printf("  p%d %-12s %-40q [%.0f %.0f %.0f %.0f]\n", sh.Page, bl.Type, bl.Title, bl.Box.XMin*k, bl.Box.YMin*k, bl.Box.XMax*k, bl.Box.YMax*k)
				}
				rs.Blocks = append(rs.Blocks, bench.RealBlock{Type: bl.Type, Title: bl.Title, Scale: bl.Scale, Box: bl.Box})
			}
			if *legends {
				p.Parsed = true
				words, _, err := sheetread.Reread(context.Background(), img, dpi, sr.Words, a, blocks)
				if err != nil {
					panic(err)
				}
				rs.Legend = printLegends(img, blocks, words, strings.TrimSuffix(set.File, ".pdf"), sh.Page)
			}
			p.Sheets = append(p.Sheets, rs)
			if *debug != "" {
				os.MkdirAll(*debug, 0o755)
				f, _ := os.Create(filepath.Join(*debug, fmt.Sprintf("%s-%d.png", strings.TrimSuffix(set.File, ".pdf"), sh.Page)))
				png.Encode(f, layout.Draw(img, blocks, 1))
				f.Close()
				var lb []layout.Block
				for _, b := range sh.Blocks {
					lb = append(lb, layout.Block{Type: b.Type, Title: b.Title, Box: b.Box.At(float64(dpi))})
				}
				f, _ = os.Create(filepath.Join(*debug, fmt.Sprintf("%s-%d-labels.png", strings.TrimSuffix(set.File, ".pdf"), sh.Page)))
				png.Encode(f, layout.Draw(img, lb, 1))
				f.Close()
			}
		}
		doc.Close()
		sc := bench.ScoreReal(set, p)
		total.Add(sc)
		bench.PrintReal(os.Stdout, sc, p, true)
	}
	bench.PrintReal(os.Stdout, total, bench.RealParsed{}, false)
}

// readSheet reads a page's sheet as the parse does; with a cache folder,
// the words read once (OCR included) are kept there and the layout and
// metadata are made again from them.
func readSheet(cache, name string, img *image.Gray, dpi int, path string, page int) (sheetread.Sheet, error) {
	if cache != "" {
		if raw, err := os.ReadFile(filepath.Join(cache, name)); err == nil {
			var c struct {
				Words  []text.Word
				Source string
			}
			if err := json.Unmarshal(raw, &c); err == nil {
				pg, info := sheetread.Analyze(img, c.Words)
				return sheetread.Sheet{Words: c.Words, TextSource: c.Source, Layout: pg, Info: info}, nil
			}
		}
	}
	pg, err := text.PDFPage(context.Background(), path, page, float64(dpi)/72)
	if err != nil {
		return sheetread.Sheet{}, err
	}
	sr, err := sheetread.Read(context.Background(), img, dpi, pg.Words)
	if err != nil || cache == "" {
		return sr, err
	}
	os.MkdirAll(cache, 0o755)
	raw, _ := json.Marshal(struct {
		Words  []text.Word
		Source string
	}{sr.Words, sr.TextSource})
	return sr, os.WriteFile(filepath.Join(cache, name), raw, 0o644)
}

// printLegends reads each Legend block as the parse does (its image and
// the words inside it, in block pixels), prints the entries and returns
// them. With LEGEND_DUMP set, each block's crop and words are written
// there (SET-pPAGE-Y-X.png and .json) for -replay.
func printLegends(img *image.Gray, blocks []layout.Block, words []text.Word, set string, page int) []bench.RealEntry {
	var out []bench.RealEntry
	for _, b := range blocks {
		if b.Type != "Legend" {
			continue
		}
		r := image.Rect(int(b.Box.XMin), int(b.Box.YMin), int(math.Ceil(b.Box.XMax)), int(math.Ceil(b.Box.YMax))).Intersect(img.Rect)
		var inside []text.Word
		for _, w := range words {
			if w.Box.XMin >= b.Box.XMin && w.Box.YMin >= b.Box.YMin && w.Box.XMax <= b.Box.XMax && w.Box.YMax <= b.Box.YMax {
				w.Box = w.Box.Translate(-b.Box.XMin, -b.Box.YMin)
				inside = append(inside, w)
			}
		}
		sub := img.SubImage(r).(*image.Gray)
		crop := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
		for y := 0; y < r.Dy(); y++ {
			copy(crop.Pix[y*crop.Stride:y*crop.Stride+r.Dx()], sub.Pix[sub.PixOffset(r.Min.X, r.Min.Y+y):])
		}
		fmt.Printf("  p%d legend %q %v: %d words\n", page, b.Title, b.Box, len(inside))
		if dir := os.Getenv("LEGEND_DUMP"); dir != "" {
			name := filepath.Join(dir, fmt.Sprintf("%s-p%d-%d-%d", set, page, r.Min.Y, r.Min.X))
			f, _ := os.Create(name + ".png")
			png.Encode(f, crop)
			f.Close()
			js, _ := json.Marshal(inside)
			os.WriteFile(name+".json", js, 0o644)
		}
		out = append(out, printEntries(legend.ParseWith(crop, inside, legend.Options{ReadTag: ocr.Tag}))...)
	}
	return out
}

func printEntries(es []legend.Entry) []bench.RealEntry {
	var out []bench.RealEntry
	for _, e := range es {
		fmt.Printf("    %q | %q graphic=%v %v\n", e.Label, e.Description, e.HasGraphic, e.Graphic)
		out = append(out, bench.RealEntry{Label: e.Label, Description: e.Description, HasGraphic: e.HasGraphic, Graphic: e.Graphic})
	}
	return out
}

func any(subs []string, s string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// scaleLabels multiplies every box of the labels by k.
func scaleLabels(sets []labels.Set, k float64) {
	scale := func(b *labels.Box) {
		for i := range b {
			b[i] *= k
		}
	}
	for i := range sets {
		for j := range sets[i].Sheets {
			sh := &sets[i].Sheets[j]
			for b := range sh.Blocks {
				scale(&sh.Blocks[b].Box)
			}
			for l := range sh.Legends {
				scale(&sh.Legends[l].Box)
				for e := range sh.Legends[l].Entries {
					if g := sh.Legends[l].Entries[e].Graphic; g != nil {
						scale(g)
					}
				}
			}
		}
	}
}
