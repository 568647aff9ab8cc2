//go:build devtools

package compare

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDevAnalyzeReal compares each real sheet of $REAL_DIR with itself
// moved by a sub-pixel shift (0 changes expected), and the pair in
// $REAL_PAIR (old,new) as they are, printing the changes and writing B
// with the changes' boxes drawn (red) into $REPORT_OUT.
func TestDevAnalyzeReal(t *testing.T) {
	const dpi = 100
	if dir := os.Getenv("REAL_DIR"); dir != "" {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
		for _, p := range paths {
			b := renderFile(t, p, dpi)
			tr := Transform{Scale: 1, Tx: 5.3, Ty: -3.7}
			a := &Side{Image: warpGray(b.Image, tr.Inverse(), b.Image.Bounds()), DPI: dpi, BlockType: "Plan"}
			for _, w := range b.Words {
				w.Box = tr.Inverse().ApplyBox(w.Box)
				a.Words = append(a.Words, w)
			}
			ov := testOverlay(a, b, tr, 3)
			t0 := time.Now()
			cs := Analyze(a, b, ov, Options{})
			fmt.Printf("%-40s %d regions, %d changes (%.2fs)%s\n", filepath.Base(p), len(ov.Regions), len(cs), time.Since(t0).Seconds(), describe(cs[:min(len(cs), 8)]))
		}
	}
	if pair := os.Getenv("REAL_PAIR"); pair != "" {
		ps := strings.Split(pair, ",")
		a, b := renderFile(t, ps[0], dpi), renderFile(t, ps[1], dpi)
		ov := testOverlay(a, b, Identity, 3)
		t0 := time.Now()
		cs := Analyze(a, b, ov, Options{})
		fmt.Printf("pair: %d regions, %d changes (%.2fs)%s\n", len(ov.Regions), len(cs), time.Since(t0).Seconds(), describe(cs))
		if out := os.Getenv("REPORT_OUT"); out != "" {
			im := image.NewRGBA(b.Image.Bounds())
			for i, v := range b.Image.Pix {
				im.Pix[4*i], im.Pix[4*i+1], im.Pix[4*i+2], im.Pix[4*i+3] = v, v, v, 255
				if ov.Deletion.Pix[i] < 160 {
					im.Pix[4*i], im.Pix[4*i+1], im.Pix[4*i+2] = 230, 120, 120
				}
				if ov.Addition.Pix[i] < 160 {
					im.Pix[4*i], im.Pix[4*i+1], im.Pix[4*i+2] = 60, 170, 60
				}
			}
			for _, c := range cs {
				r := pixelRect(c.Bounds)
				for x := r.Min.X; x < r.Max.X; x++ {
					for _, y := range []int{r.Min.Y, r.Max.Y - 1, r.Min.Y + 1, r.Max.Y - 2} {
						im.Set(x, y, color.RGBA{255, 0, 0, 255})
					}
				}
				for y := r.Min.Y; y < r.Max.Y; y++ {
					for _, x := range []int{r.Min.X, r.Max.X - 1, r.Min.X + 1, r.Max.X - 2} {
						im.Set(x, y, color.RGBA{255, 0, 0, 255})
					}
				}
			}
			f, _ := os.Create(filepath.Join(out, "pair.png"))
			png.Encode(f, im)
			f.Close()
		}
	}
}
