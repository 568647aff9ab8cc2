package rendertest

import (
	"image"
	"path/filepath"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/render"
)

// SynthSheet generates sheet 1 of the synthetic set of the given seed
// (internal/tools/synth, one sheet) and renders it at 300 DPI; also the set
// and the path of its PDF (in a temporary directory).
func SynthSheet(t testing.TB, seed int64) (*image.Gray, *synth.Set, string) {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: seed, Sheets: 1})
	if err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(t.TempDir(), "s.pdf")
	if err := synth.WriteFile(pdf, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	return Image(t, pdf, render.TypePDF, 1, render.DefaultDPI), set, pdf
}
