package compare

import (
	"bytes"
	"image"
	"slices"
	"testing"
)

// TestDiffSpansSameAsWholeBands: diffing only the spans of marked columns
// gives the difference of whole bands — the same raw images, cells,
// regions and score — on the synthetic revision, with and without
// hatches ignored.
func TestDiffSpansSameAsWholeBands(t *testing.T) {
	a, b, _, _ := synthRevision(t, 13, 150, true)
	for _, opt := range []Options{{}, {IgnoreHatches: true}, {Tolerance: 6}} {
		spans := generate(t, a, b, opt)
		wholeBands = true
		whole := generate(t, a, b, opt)
		wholeBands = false
		if !bytes.Equal(spans.Addition.Pix, whole.Addition.Pix) || !bytes.Equal(spans.Deletion.Pix, whole.Deletion.Pix) {
			t.Fatalf("%+v: the raw difference images differ", opt)
		}
		if spans.Score != whole.Score || !slices.EqualFunc(spans.Regions, whole.Regions, func(x, y Region) bool {
			return x.Bounds == y.Bounds && x.Added == y.Added && x.Removed == y.Removed
		}) || !slices.Equal(spans.Warnings, whole.Warnings) {
			t.Fatalf("%+v: regions or score differ: %v %v / %v %v", opt, spans.Score, spans.Regions, whole.Score, whole.Regions)
		}
		t.Logf("%+v: %d regions, score %.4f, same", opt, len(spans.Regions), spans.Score)
	}
}

// TestMarkSpans: a column is marked by a pixel under markThreshold (245,
// not 246), on either side, at any column (the eight-at-a-time test and
// the last ragged columns), and widened by 2r + 2 to whole cells.
func TestMarkSpans(t *testing.T) {
	const w, h, r, cell = 203, 10, 3, 4
	for _, tc := range []struct {
		x, level int
		onB      bool
		want     [][2]int
	}{
		{100, 246, false, nil},
		{100, 245, false, [][2]int{{88, 112}}},
		{100, 245, true, [][2]int{{88, 112}}},
		{3, 0, false, [][2]int{{0, 16}}},
		{201, 10, true, [][2]int{{192, 203}}},
	} {
		a, b := blank(w, h), blank(w, h)
		img := a
		if tc.onB {
			img = b
		}
		img.Pix[5*w+tc.x] = uint8(tc.level)
		got := markSpans(a, b, 0, h, w, r, cell, &scratch{})
		if !slices.Equal(got, tc.want) {
			t.Errorf("mark %d at x %d: spans %v, want %v", tc.level, tc.x, got, tc.want)
		}
	}
}

func blank(w, h int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	return g
}
