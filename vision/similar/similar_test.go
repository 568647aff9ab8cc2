package similar

import (
	"context"
	"image"
	"math"
	"testing"
	"time"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/render/rendertest"
)

func pixRect(b geom.Box, pad int) image.Rectangle {
	return image.Rect(int(math.Floor(b.XMin))-pad, int(math.Floor(b.YMin))-pad, int(math.Ceil(b.XMax))+pad, int(math.Ceil(b.YMax))+pad)
}

// TestInstancesFindTheirLegendSymbol cuts each symbol drawn on a synthetic
// plan out of the page — rotated, rescaled, with the plan's lines cut at
// the crop's edge — and asks which of the sheet's legend symbols it is.
func TestInstancesFindTheirLegendSymbol(t *testing.T) {
	page, set, _ := rendertest.SynthSheet(t, 2)
	st := set.Truth.Sheets[0]
	// the legend's graphics, as the parse job stores them
	var refs []*image.Gray
	entry := map[[2]int]int{} // legend block, entry → refs index
	for bi, b := range st.Blocks {
		for ei, e := range b.Entries {
			if e.GraphicBox != nil {
				entry[[2]int{bi, ei}] = len(refs)
				refs = append(refs, page.SubImage(pixRect(*e.GraphicBox, 2).Intersect(page.Rect)).(*image.Gray))
			}
		}
	}
	if len(refs) < 4 {
		t.Fatalf("the sheet's legend has %d graphics", len(refs))
	}
	right, asked := 0, 0
	var took time.Duration
	for i, in := range st.Instances {
		if i%3 != 0 { // a third of them keeps the test short
			continue
		}
		want, ok := entry[[2]int{in.LegendBlock, in.LegendEntry}]
		if !ok {
			continue
		}
		asked++
		// the symbol's box, asked about with the drawing around it
		focus := pixRect(in.Box, 2).Intersect(page.Rect)
		q := page.SubImage(focus.Inset(-max(focus.Dx(), focus.Dy())).Intersect(page.Rect)).(*image.Gray)
		start := time.Now()
		res, err := Rank(context.Background(), q, focus, refs, time.Time{})
		took += time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) > 0 && res.Matches[0].Ref == want {
			right++
			continue
		}
		got := "nothing"
		if len(res.Matches) > 0 {
			got = st.Blocks[0].Title
			for k, v := range entry {
				if v == res.Matches[0].Ref {
					got = st.Blocks[k[0]].Entries[k[1]].Label
				}
			}
		}
		t.Logf("instance %d (%s at %.0f°): found %s", in.ID, in.Label, in.Angle, got)
	}
	t.Logf("%d of %d instances ranked their legend symbol first, %.2f s a query", right, asked, took.Seconds()/float64(max(asked, 1)))
	if asked < 5 {
		t.Fatalf("only %d instances asked", asked)
	}
	if float64(right) < 0.9*float64(asked) {
		t.Errorf("%d of %d instances ranked their legend symbol first, want ≥ 90 %%", right, asked)
	}
}

func TestBlankQuery(t *testing.T) {
	q := image.NewGray(image.Rect(0, 0, 20, 20))
	for i := range q.Pix {
		q.Pix[i] = 255
	}
	if _, err := Rank(context.Background(), q, image.Rectangle{}, []*image.Gray{q}, time.Time{}); err != ErrBlank {
		t.Errorf("blank query: %v, want ErrBlank", err)
	}
}
