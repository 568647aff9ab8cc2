package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/tools/synth"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
)

// TestParseCommand runs plangraph parse on a synthetic sheet with a legend
// directory of one symbol, and checks what it writes (how many instances
// the matcher finds is its own benchmark's business).
func TestParseCommand(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	set, err := synth.Generate(synth.Options{Seed: 3, Sheets: 1, PageSize: "24x18"})
	if err != nil {
		t.Fatal(err)
	}
	drawingPath := filepath.Join(dir, "set.pdf")
	if err := synth.WriteFile(drawingPath, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	legendDir := filepath.Join(dir, "legend")
	if err := os.MkdirAll(legendDir, 0o755); err != nil {
		t.Fatal(err)
	}
	sym := image.NewGray(image.Rect(0, 0, 30, 30))
	for i := range sym.Pix {
		sym.Pix[i] = 255
	}
	for i := 0; i < 30; i++ {
		sym.Pix[i], sym.Pix[29*30+i], sym.Pix[i*30], sym.Pix[i*30+29] = 0, 0, 0, 0
	}
	var symPNG bytes.Buffer
	if err := png.Encode(&symPNG, sym); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"SQUARE.png": symPNG.Bytes(), "README.txt": []byte("not a symbol")} {
		if err := os.WriteFile(filepath.Join(legendDir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("bad arguments", func(t *testing.T) {
		for _, args := range [][]string{
			{"parse"},
			{"parse", "--legend-dir", dir + "/none", drawingPath},
			{"parse", "--legend-dir", t.TempDir(), drawingPath},
			{"parse", filepath.Join(legendDir, "README.txt")},
		} {
			if r := runCmd(t, args...); r.err == nil {
				t.Errorf("%v succeeded", args)
			}
		}
	})

	out, counts := filepath.Join(dir, "result.json"), filepath.Join(dir, "counts.csv")
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := run(ctx, []string{"parse", "--dpi", "150", "--legend-dir", legendDir, "--out", out, "--csv", counts, drawingPath}, &stdout, &stderr); err != nil {
		t.Fatalf("parse: %v\n%s", err, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q with --out", stdout.String())
	}
	if !strings.Contains(stderr.String(), "100%") || !strings.Contains(stderr.String(), "instances of") {
		t.Errorf("no progress bar or summary on stderr: %q", stderr.String())
	}
	var doc struct {
		JobID       string               `json:"job_id"`
		Type        string               `json:"type"`
		Status      string               `json:"status"`
		Target      map[string]any       `json:"target"`
		Results     parsejob.ParseResult `json:"results"`
		CreatedAt   time.Time            `json:"created_at"`
		CompletedAt *time.Time           `json:"completed_at"`
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Type != "parse" || doc.Status != "Completed" || doc.Target["type"] != "drawing" || doc.CompletedAt == nil {
		t.Errorf("result %s", b)
	}
	leg := doc.Results.Legend
	if len(leg) != 1 || leg[0].Source != parsejob.SourceRequest || len(leg[0].Symbols) != 1 || leg[0].Symbols[0].Label != "SQUARE" {
		t.Fatalf("legend %+v, want the one symbol of --legend-dir", leg)
	}
	f, err := os.Open(counts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || strings.Join(rows[0], ",") != "label,description,legend_feature_id,instance_count" ||
		rows[1][0] != "SQUARE" || rows[1][2] != leg[0].Symbols[0].FeatureID {
		t.Fatalf("counts %v", rows)
	}
	n, err := strconv.Atoi(rows[1][3])
	if err != nil || n != doc.Results.Summary.TotalInstancesFound {
		t.Errorf("count %q, result %d", rows[1][3], doc.Results.Summary.TotalInstancesFound)
	}
}
