package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/testenv"
)

// A parse's symbol images named by this service's block URLs are held to
// the same pixel cap as other sources, and one request's images to
// MaxRequestPixels together, checked from the PNG header before decoding.
func TestParseSymbolImagePixels(t *testing.T) {
	_, pdf := synthPDF(t, 11)
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			f := newParseFixture(t, p, pdf)
			blk := f.views[0]
			key := blobs.BlockKey(f.org, blk) + ".png"
			put := func(w, h int) {
				t.Helper()
				if err := blobs.PutPNG(f.ctx(), f.s.App.Blobs, key, framed(w, h)); err != nil {
					t.Fatal(err)
				}
			}
			parse := func(n int) *testenv.Response {
				legend := make([]map[string]any, n)
				for i := range legend {
					legend[i] = map[string]any{"label": fmt.Sprintf("S%d", i), "image_url": "/v1/blocks/" + blk + "/image"}
				}
				return postJSON(t, f.s, f.key, "/v1/parse", map[string]any{"features": []string{"symbols"}, "sheet_id": f.sheet,
					"options": map[string]any{"symbols": map[string]any{"legend": legend}}})
			}

			// one block image of 30 MP: over the 25 MP cap of any symbol image
			put(6000, 5000)
			start := time.Now()
			pr := parse(1).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			msg := strings.Join(pr.Errors["options.symbols.legend[0].image_url"], " ")
			if !strings.Contains(msg, "too large") {
				t.Errorf("a 30 MP block image: %+v", pr)
			}
			// the same block 500 times: refused at the first, from its header
			pr = parse(500).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			if len(pr.Errors) != 500 {
				t.Errorf("500 × a 30 MP block image: %d fields refused, want 500", len(pr.Errors))
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("refusing 501 oversized block images took %v", d)
			}

			// 20.5 MP each: four fit in 100 MP, the fifth does not
			put(5000, 4100)
			pr = parse(5).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			for i := range 5 {
				msg := strings.Join(pr.Errors[fmt.Sprintf("options.symbols.legend[%d].image_url", i)], " ")
				if refused := strings.Contains(msg, "together"); refused != (i == 4) {
					t.Errorf("legend[%d] of 5 × 20 MP: %q", i, msg)
				}
			}
		})
	}
}
