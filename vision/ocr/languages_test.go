package ocr

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// The languages OCR reads in by default are the service's setting: a
// language whose traineddata is not installed is refused, naming it, and
// leaves the defaults as they were; installed ones (English and Japanese,
// scripts/deps.sh) become the defaults, and a page is still read.
func TestSetDefaultLanguages(t *testing.T) {
	defer func() {
		if err := SetDefaultLanguages([]string{"eng"}); err != nil {
			t.Fatal(err)
		}
	}()
	if err := SetDefaultLanguages([]string{"eng", "xqz"}); err == nil || !strings.Contains(err.Error(), "xqz") {
		t.Errorf("a language not installed: err %v, want one naming it", err)
	}
	if got := DefaultLanguages(); !slices.Equal(got, []string{"eng"}) {
		t.Errorf("defaults after a refused setting: %v, want [eng]", got)
	}
	if err := SetDefaultLanguages(nil); err == nil {
		t.Error("no language accepted")
	}
	if err := SetDefaultLanguages([]string{"eng", "jpn"}); err != nil {
		t.Fatalf("eng+jpn: %v", err)
	}
	if got := (Options{}).withDefaults().Languages; !slices.Equal(got, []string{"eng", "jpn"}) {
		t.Errorf("an option naming no language reads in %v, want [eng jpn]", got)
	}
	img, _ := page(t, 400, 200, 300, []label{{s: "GROUND FLOOR PLAN", x: 30, y: 60, size: 14}}, false)
	ws, err := Words(context.Background(), img, 300, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, w.Text)
	}
	if s := strings.Join(got, " "); !strings.Contains(s, "GROUND FLOOR PLAN") {
		t.Errorf("read in eng+jpn: %q", s)
	}
}
