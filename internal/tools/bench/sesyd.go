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
	"github.com/plangraph/plangraph/vision/vecsym"
	"github.com/plangraph/plangraph/vision/vector"
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
		tmpls = append(tmpls, symbols.Template{Label: modelLabel(f), Image: img})
	}
	for _, p := range sesydPlans(dir, "tiff", skip, limit) {
		img, err := loadRaster(p)
		if err != nil {
			return res, err
		}
		st := time.Now()
		dets, note, err := detect(ctx, p, img, tmpls)
		if err != nil {
			return res, err
		}
		if err := res.add(p, dets, time.Since(st), note, out); err != nil {
			return res, err
		}
	}
	res.report(out)
	return res, nil
}

// SESYDGeometry scores the search on geometry (vision/vecsym) on the same
// folder's drawings as SVG: DIR/models/*.svg the legend, DIR/plans/*.svg
// the plans (each file read by MuPDF's SVG reader; a plan's walls, a
// picture in SESYD, are left out as images are). Boxes are mapped to the
// ground truth's pixels by the SVG's width.
func SESYDGeometry(ctx context.Context, dir string, skip, limit int, out io.Writer) (SESYDResult, error) {
	res := SESYDResult{PerLabel: map[string]symbols.Counts{}}
	models, _ := filepath.Glob(filepath.Join(dir, "models", "*.svg"))
	if len(models) == 0 {
		return res, fmt.Errorf("no SVG models in %s/models", dir)
	}
	sort.Strings(models)
	lim := render.DefaultLimits()
	lim.DPI = 72
	var tmpls []*vecsym.Template
	for _, f := range models {
		pg, _, err := svgPage(f, lim)
		if err != nil {
			return res, err
		}
		t, err := vecsym.NewTemplate(modelLabel(f), pg, vector.Rect{X1: float32(pg.W), Y1: float32(pg.H)})
		if err != nil {
			return res, fmt.Errorf("%s: %w", f, err)
		}
		tmpls = append(tmpls, t)
	}
	for _, p := range sesydPlans(dir, "svg", skip, limit) {
		st := time.Now()
		pg, scale, err := svgPage(p, lim)
		if err != nil {
			return res, err
		}
		d := vecsym.NewDrawing(pg, vector.Rect{X1: float32(pg.W), Y1: float32(pg.H)})
		dets, err := vecsym.Match(ctx, d, tmpls, vecsym.Options{})
		if err != nil {
			return res, err
		}
		for i := range dets {
			b := &dets[i].Box
			b.XMin, b.YMin, b.XMax, b.YMax = b.XMin*scale, b.YMin*scale, b.XMax*scale, b.YMax*scale
		}
		segs, _ := d.Marks()
		if err := res.add(p, dets, time.Since(st), fmt.Sprintf("%d segments", segs), out); err != nil {
			return res, err
		}
	}
	res.report(out)
	return res, nil
}

// svgPage reads an SVG drawing's marks, and the factor from its pixels to
// the SVG's own units (the width it declares).
func svgPage(path string, lim render.Limits) (*vector.Page, float64, error) {
	d, err := render.OpenSVG(path, lim)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	defer d.Close()
	pg, _, err := render.Vectors(context.Background(), d, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var root struct {
		Width string `xml:"width,attr"`
	}
	if err := xml.NewDecoder(f).Decode(&root); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	w, err := strconv.ParseFloat(strings.TrimSuffix(root.Width, "px"), 64)
	if err != nil || w <= 0 || pg.W <= 0 {
		return nil, 0, fmt.Errorf("%s: no width in user units (%q)", path, root.Width)
	}
	return pg, w / float64(pg.W), nil
}

func modelLabel(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// sesydPlans lists DIR/plans/*.ext, skip left out, at most limit (> 0).
func sesydPlans(dir, ext string, skip, limit int) []string {
	plans, _ := filepath.Glob(filepath.Join(dir, "plans", "*."+ext))
	sort.Strings(plans)
	plans = plans[min(skip, len(plans)):]
	if limit > 0 && len(plans) > limit {
		plans = plans[:limit]
	}
	return plans
}

// add scores one plan's detections against its ground truth (*.xml beside
// it) and prints a line.
func (res *SESYDResult) add(plan string, dets []symbols.Detection, el time.Duration, note string, out io.Writer) error {
	truth, err := symbols.ReadSESYDTruth(strings.TrimSuffix(plan, filepath.Ext(plan)) + ".xml")
	if err != nil {
		return err
	}
	res.PerPlan = append(res.PerPlan, el)
	var c symbols.Counts
	for l, lc := range symbols.Score(dets, truth, 0.5) {
		c.Add(lc)
		t := res.PerLabel[l]
		t.Add(lc)
		res.PerLabel[l] = t
	}
	res.Overall.Add(c)
	fmt.Fprintf(out, "%s: %d instances, %d detections, P %.3f R %.3f F1 %.3f, %.2f s (%s)\n",
		filepath.Base(plan), len(truth), len(dets), c.Precision(), c.Recall(), c.F1(), el.Seconds(), note)
	return nil
}

// report prints the table per label and overall, and the run's peak RSS.
func (res *SESYDResult) report(out io.Writer) {
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
	fmt.Fprintf(out, "%-10s %4d %4d %4d %6.3f %6.3f %6.3f\nmean %.2f s per plan, peak RSS %.0f MB\n", "overall",
		c.TP, c.FP, c.FN, c.Precision(), c.Recall(), c.F1(), meanSeconds(res.PerPlan), res.PeakRSSMB)
}

// loadRaster reads a TIFF, PNG or JPEG, or renders a PDF's first page (at
// render.DefaultDPI).
func loadRaster(path string) (*image.Gray, error) {
	typ := "image/tiff"
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		typ = "image/png"
	case ".jpg", ".jpeg":
		typ = "image/jpeg"
	case ".pdf":
		typ = render.TypePDF
	}
	d, err := render.Open(path, typ, render.DefaultLimits())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer d.Close()
	return d.Render(0)
}
