package bench

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"

	"github.com/plangraph/plangraph/internal/tools/synth"
)

// TestReprintPDF: the reprint's page is the original's scaled, its media
// box moved by the shift (so the drawing moves right and down on it).
func TestReprintPDF(t *testing.T) {
	in, dir := synthSheetPDF(t, 3)
	out := filepath.Join(dir, "out.pdf")
	if _, err := reprintPDF(in, out, 0.9, 12, false); err != nil {
		t.Fatal(err)
	}
	a, err := api.ReadContextFile(in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := api.ReadContextFile(out)
	if err != nil {
		t.Fatal(err)
	}
	_, _, ai, err := a.PageDict(1, false)
	if err != nil {
		t.Fatal(err)
	}
	_, _, bi, err := b.PageDict(1, false)
	if err != nil {
		t.Fatal(err)
	}
	am, bm := ai.MediaBox, bi.MediaBox
	if math.Abs(bm.Width()-0.9*am.Width()) > 0.5 || math.Abs(bm.Height()-0.9*am.Height()) > 0.5 {
		t.Errorf("reprint %.1f×%.1f pt, want 0.9 × %.1f×%.1f", bm.Width(), bm.Height(), am.Width(), am.Height())
	}
	if math.Abs(bm.LL.X-(0.9*am.LL.X-12)) > 0.5 || math.Abs(bm.LL.Y-(0.9*am.LL.Y+12)) > 0.5 {
		t.Errorf("reprint media box at %v, want the scaled box moved 12 pt left and up (from %v)", bm.LL, am.LL)
	}
}

// synthSheetPDF writes a one-sheet synthetic drawing (24×18 in) of seed
// into a test directory, returned too.
func synthSheetPDF(t *testing.T, seed int64) (path, dir string) {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: seed, Sheets: 1, PageSize: "24x18"})
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, "in.pdf")
	if err := synth.WriteFile(path, set.WritePDF); err != nil {
		t.Fatal(err)
	}
	return path, dir
}
