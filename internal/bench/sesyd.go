package bench

import (
	"context"
	"fmt"
	"image"
	"io"
	"path/filepath"
	"sort"
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

// SESYDDetect finds the legend's symbols on the plan stored at path (img is
// its image): labelled boxes in plan pixels, and a note for the report.
type SESYDDetect func(ctx context.Context, path string, img *image.Gray, legend []symbols.Template) ([]symbols.Detection, string, error)

// MatchDirect runs the matcher on the plan image in this process, without
// the service around it.
func MatchDirect(ctx context.Context, _ string, img *image.Gray, legend []symbols.Template) ([]symbols.Detection, string, error) {
	m, err := symbols.Match(ctx, img, legend, symbols.Options{})
	if err != nil {
		return nil, "", err
	}
	return m.Detections, fmt.Sprintf("%d candidates: %.1f s, refine %.1f s", m.Stats.Candidates, m.Stats.RingTime.Seconds(),
		m.Stats.RefineTime.Seconds()), nil
}

// SESYD scores symbol detection on a SESYD-style folder: DIR/models/*.tiff
// are the legend (file name = label), DIR/plans/*.tiff the plans with
// ground truth in *.xml. A detection is right when its label matches and
// IoU ≥ 0.5. skip plans are left out, then limit > 0 takes only the first.
// detect finds the symbols (MatchDirect when nil).
func SESYD(ctx context.Context, dir string, skip, limit int, detect SESYDDetect, out io.Writer) (SESYDResult, error) {
	if detect == nil {
		detect = MatchDirect
	}
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
		truth, err := symbols.ReadSESYDTruth(strings.TrimSuffix(p, filepath.Ext(p)) + ".xml")
		if err != nil {
			return res, err
		}
		st := time.Now()
		dets, note, err := detect(ctx, p, img, tmpls)
		if err != nil {
			return res, err
		}
		el := time.Since(st)
		res.PerPlan = append(res.PerPlan, el)
		var plan symbols.Counts
		for l, c := range symbols.Score(dets, truth, 0.5) {
			plan.Add(c)
			t := res.PerLabel[l]
			t.Add(c)
			res.PerLabel[l] = t
		}
		res.Overall.Add(plan)
		fmt.Fprintf(out, "%s: %d instances, %d detections, P %.3f R %.3f F1 %.3f, %.1f s (%s)\n",
			filepath.Base(p), len(truth), len(dets), plan.Precision(), plan.Recall(), plan.F1(), el.Seconds(), note)
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
