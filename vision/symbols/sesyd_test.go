package symbols

import (
	"context"
	"encoding/xml"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/geom"
	"github.com/plangraph/plangraph/vision/render"
)

// TestSESYD runs the matcher on the SESYD development plans when
// PLANGRAPH_DATASETS points at the datasets folder. It is the benchmark's
// core, kept here so the matcher can be tuned without the service.
func TestSESYD(t *testing.T) {
	root := os.Getenv("PLANGRAPH_DATASETS")
	if root == "" {
		t.Skip("PLANGRAPH_DATASETS not set")
	}
	dir := filepath.Join(root, "sesyd-dev")
	models, _ := filepath.Glob(filepath.Join(dir, "models", "*.tiff"))
	var tmpls []Template
	for _, f := range models {
		tmpls = append(tmpls, Template{Label: strings.TrimSuffix(filepath.Base(f), ".tiff"), Image: loadGray(t, f)})
	}
	plans, _ := filepath.Glob(filepath.Join(dir, "plans", "*.tiff"))
	sort.Strings(plans)
	if n := os.Getenv("SESYD_N"); n != "" {
		var k int
		fmt.Sscan(n, &k)
		plans = plans[:min(k, len(plans))]
	}
	total := map[string]Counts{}
	for _, p := range plans {
		img := loadGray(t, p)
		truth := loadTruth(t, strings.TrimSuffix(p, ".tiff")+".xml")
		st := time.Now()
		res, err := Match(context.Background(), img, tmpls, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sc := Score(res.Detections, truth, 0.5)
		var all Counts
		for l, c := range sc {
			all.Add(c)
			tc := total[l]
			tc.Add(c)
			total[l] = tc
		}
		t.Logf("%s: %d truth, %d found, P %.3f R %.3f F1 %.3f in %v", filepath.Base(p), len(truth), len(res.Detections),
			all.Precision(), all.Recall(), all.F1(), time.Since(st).Round(time.Millisecond))
		if os.Getenv("SESYD_DUMP") != "" {
			for _, d := range res.Detections {
				ok := false
				for _, tr := range truth {
					if tr.Label == d.Label && d.Box.IoU(tr.Box) >= 0.5 {
						ok = true
					}
				}
				fmt.Printf("DET %s %v %.3f ncc=%.3f ch=%.3f ex=%.3f ang=%.0f s=%.2f flip=%v box=%.0f,%.0f,%.0f,%.0f\n", d.Label, ok, d.Confidence, d.ncc, d.chamfer, d.explained, d.Angle, d.Scale, d.flip, d.Box.XMin, d.Box.YMin, d.Box.XMax, d.Box.YMax)
			}
			for _, tr := range truth {
				found := false
				for _, d := range res.Detections {
					if tr.Label == d.Label && d.Box.IoU(tr.Box) >= 0.5 {
						found = true
					}
				}
				if !found {
					fmt.Printf("MISS %s %+v\n", tr.Label, tr.Box)
				}
			}
		}
	}
	var all Counts
	labels := make([]string, 0, len(total))
	for l := range total {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		c := total[l]
		all.Add(c)
		t.Logf("%-10s TP %3d FP %3d FN %3d  P %.3f R %.3f F1 %.3f", l, c.TP, c.FP, c.FN, c.Precision(), c.Recall(), c.F1())
	}
	t.Logf("overall TP %d FP %d FN %d  P %.3f R %.3f F1 %.3f", all.TP, all.FP, all.FN, all.Precision(), all.Recall(), all.F1())
}

func loadGray(t *testing.T, path string) *image.Gray {
	t.Helper()
	d, err := render.Open(path, "image/tiff", render.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	img, err := d.Render(0)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func loadTruth(t *testing.T, path string) []Truth {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []Truth
	dec := xml.NewDecoder(strings.NewReader(string(b)))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "gom.std.OSymbol" {
			continue
		}
		var tr Truth
		for _, a := range se.Attr {
			var v float64
			fmt.Sscan(a.Value, &v)
			switch a.Name.Local {
			case "label":
				tr.Label = a.Value
			case "x0":
				tr.Box.XMin = v
			case "y0":
				tr.Box.YMin = v
			case "x1":
				tr.Box.XMax = v
			case "y1":
				tr.Box.YMax = v
			}
		}
		out = append(out, tr)
	}
	return out
}

var _ = geom.Box{}
