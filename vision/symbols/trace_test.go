package symbols

import (
	"context"
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/plangraph/plangraph/vision/render"
)

// TestTraceSESYDPlan writes how every candidate of one SESYD plan fared in
// refinement, with whether its detection was kept and right, to
// PLANGRAPH_TRACE (JSON lines) — data for tuning the refinement's early
// exits. It runs only when both PLANGRAPH_DATASETS and PLANGRAPH_TRACE are set.
func TestTraceSESYDPlan(t *testing.T) {
	dir, out := os.Getenv("PLANGRAPH_DATASETS"), os.Getenv("PLANGRAPH_TRACE")
	if dir == "" || out == "" {
		t.Skip("set PLANGRAPH_DATASETS and PLANGRAPH_TRACE to trace a SESYD plan")
	}
	plan := os.Getenv("PLANGRAPH_TRACE_PLAN")
	if plan == "" {
		plan = "file_0"
	}
	load := func(p string) *image.Gray {
		d, err := render.Open(p, "image/tiff", render.DefaultLimits())
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
	models, _ := filepath.Glob(filepath.Join(dir, "sesyd-dev", "models", "*.tiff"))
	sort.Strings(models)
	var tmpls []Template
	for _, m := range models {
		tmpls = append(tmpls, Template{Label: strings.TrimSuffix(filepath.Base(m), ".tiff"), Image: load(m)})
	}
	var mu sync.Mutex
	var traces []refineTrace
	traceRefine = func(tr refineTrace) { mu.Lock(); traces = append(traces, tr); mu.Unlock() }
	defer func() { traceRefine = nil }()
	res, err := Match(context.Background(), load(filepath.Join(dir, "sesyd-dev", "plans", plan+".tiff")), tmpls, Options{})
	if err != nil {
		t.Fatal(err)
	}
	truth, err := ReadSESYDTruth(filepath.Join(dir, "sesyd-dev", "plans", plan+".xml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, tr := range traces {
		kept, right := false, false
		for _, d := range res.Detections {
			if d.Template == tr.Template && d.Box == tr.Box && tr.Box.Valid() {
				kept = true
				for _, g := range truth {
					right = right || (g.Label == tmpls[d.Template].Label && g.Box.IoU(d.Box) >= 0.5)
				}
			}
		}
		_ = enc.Encode(map[string]any{"t": tr, "label": tmpls[tr.Template].Label, "kept": kept, "right": right})
	}
	t.Logf("%d candidates traced, %d detections", len(traces), len(res.Detections))
}
