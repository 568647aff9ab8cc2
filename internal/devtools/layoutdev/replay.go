//go:build devtools

package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/plangraph/plangraph/internal/tools/bench"
	"github.com/plangraph/plangraph/internal/tools/bench/labels"
	"github.com/plangraph/plangraph/vision/legend"
	"github.com/plangraph/plangraph/vision/ocr"
	"github.com/plangraph/plangraph/vision/text"
)

// replayLegends reads the legend crops dumped in dir (SET-pPAGE-Y-X.png and
// .json, written by -legends with LEGEND_DUMP) and scores their entries
// against the labels: the legend reader's loop without rendering, OCR or
// segmentation. Only the legend figures and misses are printed.
func replayLegends(dir string, sets []labels.Set, only string) {
	total := bench.RealScore{Set: "overall"}
	for _, set := range sets {
		if only != "" && !any(strings.Split(only, ","), set.File) {
			continue
		}
		base := strings.TrimSuffix(set.File, ".pdf")
		var p bench.RealParsed
		p.Parsed = true
		for _, sh := range set.Sheets {
			rs := bench.RealSheet{Page: sh.Page, DPI: 300}
			files, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("%s-p%d-*.png", base, sh.Page)))
			for _, f := range files {
				img, words, err := readDump(strings.TrimSuffix(f, ".png"))
				if err != nil {
					fmt.Println(f, err)
					continue
				}
				fmt.Printf("  %s\n", filepath.Base(f))
				rs.Legend = append(rs.Legend, printEntries(legend.ParseWith(img, words, legend.Options{ReadTag: ocr.Tag}))...)
			}
			p.Sheets = append(p.Sheets, rs)
		}
		sc := bench.ScoreReal(set, p)
		if sc.LegendEntries == 0 {
			continue
		}
		total.Add(sc)
		printLegendScore(sc)
	}
	printLegendScore(total)
}

func printLegendScore(s bench.RealScore) {
	fmt.Printf("%-34s legend %d/%d right (desc %d, extra %d)\n", s.Set, s.LegendRight, s.LegendEntries, s.LegendDescribe, s.LegendExtra)
	for _, e := range s.Errors {
		if strings.Contains(e, "legend") {
			fmt.Printf("    %s\n", e)
		}
	}
}

func readDump(name string) (*image.Gray, []text.Word, error) {
	f, err := os.Open(name + ".png")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	im, err := png.Decode(f)
	if err != nil {
		return nil, nil, err
	}
	g, ok := im.(*image.Gray)
	if !ok {
		g = image.NewGray(im.Bounds())
		draw.Draw(g, g.Rect, im, im.Bounds().Min, draw.Src)
	}
	raw, err := os.ReadFile(name + ".json")
	if err != nil {
		return nil, nil, err
	}
	var words []text.Word
	err = json.Unmarshal(raw, &words)
	return g, words, err
}
