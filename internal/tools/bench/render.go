package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/plangraph/plangraph/vision/render"
)

// RenderResult compares our page rendering with poppler's on one page.
type RenderResult struct {
	File           string
	Page           int
	Width, Height  int
	Ours, Pdftoppm time.Duration
}

// Render renders page (1-based) of file at dpi with our renderer and with
// `pdftoppm -r DPI -gray`, runs times each, and keeps each one's best time.
func Render(ctx context.Context, file string, page, dpi, runs int, out io.Writer) (RenderResult, error) {
	res := RenderResult{File: file, Page: page}
	lim := render.DefaultLimits()
	lim.DPI = dpi
	best := func(cur, d time.Duration) time.Duration {
		if cur == 0 || d < cur {
			return d
		}
		return cur
	}
	tmp, err := os.MkdirTemp("", "plangraph-bench-render-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)
	for i := 0; i < runs; i++ {
		t0 := time.Now()
		doc, err := render.Open(file, "application/pdf", lim)
		if err != nil {
			return res, err
		}
		img, err := render.RenderContext(ctx, doc, page-1)
		doc.Close()
		if err != nil {
			return res, err
		}
		res.Ours = best(res.Ours, time.Since(t0))
		res.Width, res.Height = img.Bounds().Dx(), img.Bounds().Dy()
		img = nil

		t0 = time.Now()
		cmd := exec.CommandContext(ctx, "pdftoppm", "-r", fmt.Sprint(dpi), "-gray", "-f", fmt.Sprint(page), "-l", fmt.Sprint(page), file, filepath.Join(tmp, "p"))
		if b, err := cmd.CombinedOutput(); err != nil {
			return res, fmt.Errorf("pdftoppm: %v: %s", err, b)
		}
		res.Pdftoppm = best(res.Pdftoppm, time.Since(t0))
	}
	fmt.Fprintf(out, "%s page %d at %d DPI (%d×%d px, %.0f MP): plangraph %.2f s, pdftoppm -gray %.2f s, ratio %.2f×\n",
		filepath.Base(file), page, dpi, res.Width, res.Height, float64(res.Width*res.Height)/1e6,
		res.Ours.Seconds(), res.Pdftoppm.Seconds(), res.Ours.Seconds()/res.Pdftoppm.Seconds())
	return res, nil
}
