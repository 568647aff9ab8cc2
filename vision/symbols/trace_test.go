//go:build devtools

package symbols

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/render/rendertest"
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
	plans := os.Getenv("PLANGRAPH_TRACE_PLAN") // comma-separated
	if plans == "" {
		plans = "file_0"
	}
	load := func(p string) *image.Gray {
		return rendertest.Image(t, p, render.TypeTIFF, 1, render.DefaultDPI)
	}
	models, _ := filepath.Glob(filepath.Join(dir, "sesyd-dev", "models", "*.tiff"))
	sort.Strings(models)
	var tmpls []Template
	for _, m := range models {
		tmpls = append(tmpls, Template{Label: strings.TrimSuffix(filepath.Base(m), ".tiff"), Image: load(m)})
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, plan := range strings.Split(plans, ",") {
		var mu sync.Mutex
		var traces []refineTrace
		traceRefine = func(tr refineTrace) { mu.Lock(); traces = append(traces, tr); mu.Unlock() }
		res, err := Match(context.Background(), load(filepath.Join(dir, "sesyd-dev", "plans", plan+".tiff")), tmpls, Options{})
		traceRefine = nil
		if err != nil {
			t.Fatal(err)
		}
		truth, err := ReadSESYDTruth(filepath.Join(dir, "sesyd-dev", "plans", plan+".xml"))
		if err != nil {
			t.Fatal(err)
		}
		writeTraces(enc, plan, traces, res, tmpls, truth)
		t.Logf("%s: %d candidates traced, %d detections", plan, len(traces), len(res.Detections))
	}
}

// TestTraceSynth does for synthetic sheets what TestTraceSESYDPlan does
// for a SESYD plan: page 1 of each seed in PLANGRAPH_TRACE_SEEDS (default
// "3") is drawn by internal/tools/synth, rendered at 300 DPI, its legend graphics
// cut out as templates and its plan views searched (each placed on the
// sheet's 256 px grid, as parse does); every candidate's refinement goes to
// PLANGRAPH_TRACE with whether its detection was kept and right.
func TestTraceSynth(t *testing.T) {
	out := os.Getenv("PLANGRAPH_TRACE")
	if out == "" {
		t.Skip("set PLANGRAPH_TRACE to trace synthetic sheets")
	}
	seeds := os.Getenv("PLANGRAPH_TRACE_SEEDS")
	if seeds == "" {
		seeds = "3"
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, sd := range strings.Split(seeds, ",") {
		seed, err := strconv.ParseInt(strings.TrimSpace(sd), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		page, st, pdf := synthSheet(t, seed)
		tmpls := legendTemplates(page, st)
		// the words rules as the parse applies them (jobs/parse/words.go):
		// the text layer's words of two letters or digits or more, which
		// legend graphics hold none, and what the others' words read and
		// where they are
		tp := rendertest.Words(t, pdf, 1, 300)
		var words []geom.Box
		for _, w := range tp.Words {
			n := 0
			for _, r := range w.Text {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					n++
				}
			}
			if n >= 2 {
				words = append(words, w.Box)
			}
		}
		for i := range tmpls {
			g := tmpls[i].Image.Bounds()
			gb := geom.Box{XMin: float64(g.Min.X), YMin: float64(g.Min.Y), XMax: float64(g.Max.X), YMax: float64(g.Max.Y)}
			tmpls[i].NoText, tmpls[i].WordsKnown = true, true
			var read []string
			for _, w := range tp.Words {
				if a := w.Box.Area(); a > 0 && gb.Intersect(w.Box).Area() >= 0.5*a {
					tmpls[i].NoText = false
					read = append(read, w.Text)
					tmpls[i].TextBoxes = append(tmpls[i].TextBoxes, w.Box) // the template's pixels are the page's
				}
			}
			tmpls[i].Text = strings.Join(read, " ")
			if !tmpls[i].NoText {
				tmpls[i].WordInk = WordInk(tmpls[i].Image, words)
			}
		}
		for bi, b := range st.Blocks {
			if b.Type != "Plan" {
				continue
			}
			// the block alone on white paper, its origin on the 256 px grid
			r := pixRect(b.Box, 0).Intersect(page.Rect)
			o := image.Pt(r.Min.X/256*256, r.Min.Y/256*256)
			view := image.NewGray(image.Rect(0, 0, r.Max.X-o.X, r.Max.Y-o.Y))
			for i := range view.Pix {
				view.Pix[i] = 255
			}
			for y := r.Min.Y; y < r.Max.Y; y++ {
				copy(view.Pix[(y-o.Y)*view.Stride+r.Min.X-o.X:], page.Pix[page.PixOffset(r.Min.X, y):page.PixOffset(r.Max.X, y)])
			}
			var mu sync.Mutex
			var traces []refineTrace
			traceRefine = func(tr refineTrace) { mu.Lock(); traces = append(traces, tr); mu.Unlock() }
			var opt Options
			for _, w := range words {
				opt.Words = append(opt.Words, w.Translate(-float64(o.X), -float64(o.Y)))
			}
			for _, w := range tp.Words {
				opt.Letters = append(opt.Letters, Word{Box: w.Box.Translate(-float64(o.X), -float64(o.Y)), Text: w.Text})
			}
			res, err := Match(context.Background(), view, tmpls, opt)
			traceRefine = nil
			if err != nil {
				t.Fatal(err)
			}
			var truth []Truth
			for _, in := range st.Instances {
				if in.Block == bi {
					truth = append(truth, Truth{Label: in.Label, Box: in.Box.Translate(-float64(o.X), -float64(o.Y))})
				}
			}
			writeTraces(enc, fmt.Sprintf("seed%d/block%d", seed, bi), traces, res, tmpls, truth)
			t.Logf("seed %d block %d: %d candidates traced, %d detections, %+v", seed, bi, len(traces), len(res.Detections), res.Stats)
		}
	}
}

// writeTraces writes one JSON line per traced candidate: its trace, its
// template's label and ink size, whether its detection was kept (survived
// suppression) and whether it was right (a truth instance of its label
// with IoU ≥ 0.5), whether kept or not; first a line with the truth
// instances and their number.
func writeTraces(enc *json.Encoder, src string, traces []refineTrace, res Result, tmpls []Template, truth []Truth) {
	_ = enc.Encode(map[string]any{"src": src, "truth": len(truth), "instances": truth})
	for _, tr := range traces {
		kept, right := false, false
		for _, d := range res.Detections {
			kept = kept || (d.Template == tr.Template && d.Box == tr.Box && tr.Box.Valid())
		}
		if tr.Box.Valid() {
			for _, g := range truth {
				right = right || (g.Label == tmpls[tr.Template].Label && g.Box.IoU(tr.Box) >= 0.5)
			}
		}
		b := tmpls[tr.Template].Image.Bounds()
		_ = enc.Encode(map[string]any{"src": src, "t": tr, "label": tmpls[tr.Template].Label, "kept": kept, "right": right,
			"tw": b.Dx(), "th": b.Dy()})
	}
}
