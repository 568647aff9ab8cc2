package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	parsesvc "github.com/plangraph/plangraph/internal/service/parse"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/render"
)

// symbolImageTypes are the legend-dir files read, by extension.
var symbolImageTypes = map[string]string{".png": render.TypePNG, ".jpg": render.TypeJPEG, ".jpeg": render.TypeJPEG,
	".tif": render.TypeTIFF, ".tiff": render.TypeTIFF}

// parseCmd runs the parse pipeline (ingest, legends, matching) on a local
// file in a throwaway embedded instance, as POST /v1/parse with file_id does.
func parseCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := newLocalCmd("parse", "Finds the legend symbols of a PDF, PNG, JPEG or TIFF drawing set and counts their instances.", stderr)
	legendDir := c.fs.String("legend-dir", "", "symbol images (PNG, JPEG, TIFF) to search for, each labelled by its file name; without it legends are read from the drawing")
	out := c.fs.String("out", "", "write the parse result (the completed job, as GET /v1/jobs/{id} shows it) to this file (default: standard output)")
	csvOut := c.fs.String("csv", "", "write one row per symbol searched for (label, description, legend_feature_id, instance_count) to this CSV file")
	path, err := c.parse(args)
	if err != nil {
		return err
	}
	var legend []*parsesvc.LegendSymbol
	if *legendDir != "" {
		if legend, err = readLegendDir(*legendDir); err != nil {
			return err
		}
	}
	l, done, err := c.open(ctx, stderr)
	if err != nil {
		return err
	}
	defer done()
	var opts *parsesvc.Options
	if legend != nil {
		opts = &parsesvc.Options{Symbols: &parsesvc.SymbolOptions{Legend: legend}}
	}
	final, res, err := l.parseFile(path, opts, stderr)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s: %s\n", w.Code, w.Message)
	}
	fmt.Fprintf(stderr, "%d instances of %d symbols in %s\n", res.Summary.TotalInstancesFound, res.Summary.TotalSymbolsSearched,
		final.CompletedAt.Sub(final.CreatedAt).Round(100*time.Millisecond))
	if *csvOut != "" {
		if err := writeCounts(*csvOut, res); err != nil {
			return err
		}
	}
	doc := map[string]any{"job_id": final.ID, "type": final.Type, "status": final.Status,
		"target":  map[string]string{"type": string(final.TargetType), "id": final.TargetID},
		"results": res, "created_at": final.CreatedAt, "completed_at": final.CompletedAt}
	return writeJSON(*out, stdout, doc)
}

// readLegendDir makes legend entries of the symbol images in dir: the file
// name without its extension is the label.
func readLegendDir(dir string) ([]*parsesvc.LegendSymbol, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []*parsesvc.LegendSymbol
	for _, e := range ents {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		ct, ok := symbolImageTypes[ext]
		if e.IsDir() || !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		u := "data:" + ct + ";base64," + base64.StdEncoding.EncodeToString(data)
		out = append(out, &parsesvc.LegendSymbol{Label: strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), ImageURL: &u})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no PNG, JPEG or TIFF symbol image", dir)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Label < out[b].Label })
	return out, nil
}

// writeCounts writes one row per legend entry with a graphic, found or not.
func writeCounts(path string, res parsejob.ParseResult) error {
	count := map[string]int{}
	for _, s := range res.Symbols {
		count[s.LegendFeatureID] = s.InstanceCount
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"label", "description", "legend_feature_id", "instance_count"})
	for _, l := range res.Legend {
		for _, s := range l.Symbols {
			if s.HasGraphic {
				_ = w.Write([]string{s.Label, s.Description, s.FeatureID, strconv.Itoa(count[s.FeatureID])})
			}
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
