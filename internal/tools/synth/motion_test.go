package synth

import (
	"bytes"
	stdimage "image"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangraph/plangraph/vision/render"
)

// TestRevisionMotionTruth renders an original sheet and the same sheet
// moved as its revision is (WriteMovedPDF) and checks that the truth's
// transform carries the original's ink onto the moved page's: for each
// motion, nearly every inked pixel of the original lands within a pixel of
// ink on the moved page, and a transform off by a few pixels does not.
func TestRevisionMotionTruth(t *testing.T) {
	const dpi = 72
	for _, motion := range []string{"small", "large", "turn"} {
		s := mustGen(t, Options{Seed: 4, Sheets: 1, Revision: true, RevisionMotion: motion, DPI: dpi, PageSize: "24x18"})
		var a, b bytes.Buffer
		if err := s.WritePDF(&a); err != nil {
			t.Fatal(err)
		}
		if err := s.WriteMovedPDF(&b); err != nil {
			t.Fatal(err)
		}
		ia, ib := renderFirst(t, a.Bytes(), dpi), renderFirst(t, b.Bytes(), dpi)
		rt := s.Truth.Sheets[0].Revision
		if motion == "turn" {
			if rt.WidthPx != ib.Bounds().Dx() || rt.HeightPx != ib.Bounds().Dy() || ib.Bounds().Dx() >= ib.Bounds().Dy() {
				t.Errorf("turn: truth page %d×%d, rendered %v", rt.WidthPx, rt.HeightPx, ib.Bounds())
			}
		}
		tr := rt.Transform
		if got := carried(ia, ib, tr); got < 0.97 {
			t.Errorf("%s %+v: %.3f of the original's ink lands on ink", motion, tr, got)
		}
		off := tr
		off.TX += 4
		off.TY -= 4
		if got := carried(ia, ib, off); got > 0.8 {
			t.Errorf("%s: a transform 4 px off still carries %.3f of the ink", motion, got)
		}
	}
}

// carried is the share of a's ink pixels that tr maps within a pixel of
// b's ink.
func carried(a, b *stdimage.Gray, tr Transform) float64 {
	inkAt := func(x, y int) bool {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				p := stdimage.Pt(x+dx, y+dy)
				if p.In(b.Bounds()) && b.GrayAt(p.X, p.Y).Y < 160 {
					return true
				}
			}
		}
		return false
	}
	n, on := 0, 0
	for y := 0; y < a.Bounds().Dy(); y++ {
		for x := 0; x < a.Bounds().Dx(); x++ {
			if a.GrayAt(x, y).Y >= 96 {
				continue
			}
			px, py := tr.Point(float64(x)+0.5, float64(y)+0.5)
			if px < 0 || py < 0 || px >= float64(b.Bounds().Dx()) || py >= float64(b.Bounds().Dy()) {
				continue // moved off the page
			}
			n++
			if inkAt(int(px), int(py)) {
				on++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(on) / float64(n)
}

func renderFirst(t *testing.T, pdf []byte, dpi int) *stdimage.Gray {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	lim := render.DefaultLimits()
	lim.DPI = dpi
	doc, err := render.Open(path, "application/pdf", lim)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	img, err := doc.Render(0)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
