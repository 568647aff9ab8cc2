package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	engine "github.com/plangraph/plangraph/vision/compare"
)

// TestCompareCommand runs plangraph compare on a synthetic sheet and its
// revision and checks what it writes (what the comparison finds is the
// engine's business).
func TestCompareCommand(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	set, err := synth.Generate(synth.Options{Seed: 4, Sheets: 1, PageSize: "24x18", Revision: true})
	if err != nil {
		t.Fatal(err)
	}
	oldPath, newPath := filepath.Join(dir, "a.pdf"), filepath.Join(dir, "b.pdf")
	if err := synth.WriteFile(oldPath, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	if err := synth.WriteFile(newPath, set.WriteRevisionPDF); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"compare", oldPath}, {"compare", oldPath, filepath.Join(dir, "none.pdf")}, {"compare", "--tolerance-px", "x", oldPath, newPath}} {
		if r := runCmd(t, args...); r.err == nil {
			t.Errorf("%v succeeded", args)
		}
	}

	out := func(name string) string { return filepath.Join(dir, name) }
	r := runCmd(t, "compare", "--dpi", "150", "--out", out("report.md"), "--pdf", out("report.pdf"), "--json", out("result.json"),
		"--images", out("images"), "--markup", out("markup.pdf"), oldPath, newPath)
	if r.err != nil {
		t.Fatalf("compare: %v\n%s", r.err, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout %q with --out", r.stdout)
	}
	if !strings.Contains(r.stderr, "100%") || !strings.Contains(r.stderr, "block pairs compared") {
		t.Errorf("no progress bar or summary on stderr: %q", r.stderr)
	}
	var doc struct {
		Type, Status string
		Results      engine.Report
	}
	b, err := os.ReadFile(out("result.json"))
	if err != nil || json.Unmarshal(b, &doc) != nil {
		t.Fatalf("result.json: %v\n%s", err, b)
	}
	if doc.Type != "compare" || doc.Status != "Completed" || doc.Results.Type != "Drawing" || len(doc.Results.Pairs) != 1 || len(doc.Results.Pairs[0].Overlays) == 0 {
		t.Fatalf("result.json: %+v", doc)
	}
	md, err := os.ReadFile(out("report.md"))
	if err != nil || !strings.Contains(string(md), doc.Results.Pairs[0].Overlays[0].OverlayID) {
		t.Errorf("report.md does not name the overlays (%v):\n%s", err, md)
	}
	for _, name := range []string{"report.pdf", "markup.pdf"} {
		if b, err := os.ReadFile(out(name)); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Errorf("%s: %v %.20q", name, err, b)
		}
	}
	// five images per overlay, named by sheet and block
	imgs, err := filepath.Glob(filepath.Join(out("images"), "*.png"))
	if err != nil || len(imgs) != 5*len(doc.Results.Pairs[0].Overlays) {
		t.Fatalf("%d images for %d overlays (%v)", len(imgs), len(doc.Results.Pairs[0].Overlays), err)
	}
	sheet := doc.Results.Pairs[0].New.Number
	for _, p := range imgs {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = png.DecodeConfig(f)
		f.Close()
		if err != nil || !strings.HasPrefix(filepath.Base(p), sheet+"_") {
			t.Errorf("%s: %v (want a PNG named after sheet %s)", p, err, sheet)
		}
	}
}
