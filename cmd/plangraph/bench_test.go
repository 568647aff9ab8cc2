package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/tools/bench"
)

// TestBenchSynth runs the synthetic benchmark end to end on one small
// sheet at 150 DPI and checks that its numbers are sane (not how good they
// are: that is the benchmark's own business).
func TestBenchSynth(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a whole sheet")
	}
	cleanEnv(t)
	if r := runCmd(t, "bench", "synth", "extra"); r.err == nil {
		t.Error("bench synth with an argument succeeded")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	l, err := openLocal(ctx, "", 150, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	dir := t.TempDir()
	var out bytes.Buffer
	res, err := bench.Synth(ctx, bench.SynthOptions{Seeds: 1, Sheets: 1, DPI: 150, PageSize: "24x18", Dir: dir, Parse: l.synthParser(io.Discard)}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("\n%s", out.String())
	for _, f := range []string{"synth-1.pdf", "synth-1.json", "synth-1-result.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	c := res.Overall
	if c.TP+c.FN == 0 || c.TP < 0 || c.FP < 0 || c.FN < 0 {
		t.Errorf("overall %+v: no truth instances", c)
	}
	var sum int
	for l, pc := range res.PerLabel {
		if l == "" {
			t.Error("a label is empty")
		}
		sum += pc.TP + pc.FN
	}
	if sum != c.TP+c.FN {
		t.Errorf("per-label truth %d, overall %d", sum, c.TP+c.FN)
	}
	for _, v := range []float64{c.Precision(), c.Recall(), c.F1()} {
		if v < 0 || v > 1 {
			t.Errorf("score %v outside 0..1", v)
		}
	}
	if res.LegendTotal == 0 || res.LegendRight > res.LegendTotal {
		t.Errorf("legend %d/%d", res.LegendRight, res.LegendTotal)
	}
	if len(res.LegendMisses) != res.LegendTotal-res.LegendRight {
		t.Errorf("%d legend misses listed, %d counted", len(res.LegendMisses), res.LegendTotal-res.LegendRight)
	}
	if len(res.PerSheet) != 1 || res.PerSheet[0] <= 0 || res.PeakRSSMB <= 0 {
		t.Errorf("per sheet %v, peak RSS %.0f MB", res.PerSheet, res.PeakRSSMB)
	}
	fp, fn := 0, 0
	for _, e := range res.Errors {
		if e.Miss {
			fn++
		} else {
			fp++
		}
	}
	if fp != c.FP || fn != c.FN {
		t.Errorf("errors listed: %d FP, %d misses; counted %d, %d", fp, fn, c.FP, c.FN)
	}
	for _, s := range []string{"overall", "legend entries right", "s per sheet, peak RSS"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q", s)
		}
	}
}
