package bench

import (
	"context"
	"encoding/xml"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/symbols"
)

// SESYDResult is the outcome of a SESYD run.
type SESYDResult struct {
	PerLabel  map[string]symbols.Counts
	Overall   symbols.Counts
	PerPlan   []time.Duration
	PeakRSSMB float64
}

// SESYD scores the symbol matcher on a SESYD-style folder: DIR/models/*.tiff
// are the legend (file name = label), DIR/plans/*.tiff the plans with
// ground truth in *.xml. A detection is right when its label matches and
// IoU ≥ 0.5. skip plans are left out, then limit > 0 takes only the first.
func SESYD(ctx context.Context, dir string, skip, limit int, out io.Writer) (SESYDResult, error) {
	res := SESYDResult{PerLabel: map[string]symbols.Counts{}}
	models, _ := filepath.Glob(filepath.Join(dir, "models", "*.tiff"))
	if len(models) == 0 {
		return res, fmt.Errorf("no models in %s/models", dir)
	}
	sort.Strings(models)
	var tmpls []symbols.Template
	for _, f := range models {
		img, err := loadRaster(f)
		if err != nil {
			return res, err
		}
		tmpls = append(tmpls, symbols.Template{Label: strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), Image: img})
	}
	plans, _ := filepath.Glob(filepath.Join(dir, "plans", "*.tiff"))
	sort.Strings(plans)
	plans = plans[min(skip, len(plans)):]
	if limit > 0 && len(plans) > limit {
		plans = plans[:limit]
	}
	for _, p := range plans {
		img, err := loadRaster(p)
		if err != nil {
			return res, err
		}
		truth, err := sesydTruth(strings.TrimSuffix(p, filepath.Ext(p)) + ".xml")
		if err != nil {
			return res, err
		}
		st := time.Now()
		m, err := symbols.Match(ctx, img, tmpls, symbols.Options{})
		if err != nil {
			return res, err
		}
		el := time.Since(st)
		res.PerPlan = append(res.PerPlan, el)
		var plan symbols.Counts
		for l, c := range symbols.Score(m.Detections, truth, 0.5) {
			plan.Add(c)
			t := res.PerLabel[l]
			t.Add(c)
			res.PerLabel[l] = t
		}
		res.Overall.Add(plan)
		fmt.Fprintf(out, "%s: %d instances, %d detections, P %.3f R %.3f F1 %.3f, %.1f s (%d candidates: %.1f s, refine %.1f s)\n",
			filepath.Base(p), len(truth), len(m.Detections), plan.Precision(), plan.Recall(), plan.F1(), el.Seconds(),
			m.Stats.Candidates, m.Stats.RingTime.Seconds(), m.Stats.RefineTime.Seconds())
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		res.PeakRSSMB = float64(ru.Maxrss) / 1024
	}
	labels := make([]string, 0, len(res.PerLabel))
	for l := range res.PerLabel {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	fmt.Fprintf(out, "\n%-10s %4s %4s %4s %6s %6s %6s\n", "label", "TP", "FP", "FN", "P", "R", "F1")
	for _, l := range labels {
		c := res.PerLabel[l]
		fmt.Fprintf(out, "%-10s %4d %4d %4d %6.3f %6.3f %6.3f\n", l, c.TP, c.FP, c.FN, c.Precision(), c.Recall(), c.F1())
	}
	c := res.Overall
	fmt.Fprintf(out, "%-10s %4d %4d %4d %6.3f %6.3f %6.3f\nmean %.1f s per plan, peak RSS %.0f MB\n", "overall",
		c.TP, c.FP, c.FN, c.Precision(), c.Recall(), c.F1(), meanSeconds(res.PerPlan), res.PeakRSSMB)
	return res, nil
}

func loadRaster(path string) (*image.Gray, error) {
	typ := "image/tiff"
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		typ = "image/png"
	case ".jpg", ".jpeg":
		typ = "image/jpeg"
	}
	d, err := render.Open(path, typ, render.DefaultLimits())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer d.Close()
	return d.Render(0)
}

// sesydTruth reads SESYD ground truth: <gom.std.OSymbol label x0 y0 x1 y1>.
func sesydTruth(path string) ([]symbols.Truth, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []symbols.Truth
	dec := xml.NewDecoder(f)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "gom.std.OSymbol" {
			continue
		}
		var t symbols.Truth
		for _, a := range se.Attr {
			v, _ := strconv.ParseFloat(a.Value, 64)
			switch a.Name.Local {
			case "label":
				t.Label = a.Value
			case "x0":
				t.Box.XMin = v
			case "y0":
				t.Box.YMin = v
			case "x1":
				t.Box.XMax = v
			case "y1":
				t.Box.YMax = v
			}
		}
		out = append(out, t)
	}
}
