package search

import (
	"testing"

	textsearch "github.com/plangraph/plangraph/internal/search"
	"github.com/plangraph/plangraph/internal/search/index"
)

// TestLookupTier: where a thing is, is the sheet or view titled with it,
// before a sheet index's line naming it.
func TestLookupTier(t *testing.T) {
	want := textsearch.Default.Canonical(content(textsearch.Tokens("the window, door, skylight schedules")))
	for _, c := range []struct {
		h    Hit
		tier int
	}{
		{Hit{SourceType: index.TypeSheet, SheetNumber: "A0.6", Label: "A0.6 WINDOW, DOOR, SKYLIGHT SCHEDULES"}, 0},
		{Hit{SourceType: index.TypeBlock, SheetNumber: "A0.6", Label: "Window, door and skylight schedules"}, 0},
		{Hit{SourceType: index.TypeBlock, SheetNumber: "A0.6", Label: "WINDOW, DOOR, SKYLIGHT SCHEDULES NOTES"}, 1},
		{Hit{SourceType: index.TypeWord, SheetNumber: "A0.0", Label: "WINDOW, DOOR, SKYLIGHT SCHEDULES"}, 2},
		{Hit{SourceType: index.TypeSheet, SheetNumber: "A0.0", Label: "A0.0 COVER SHEET"}, 1},
	} {
		if got := lookupTier(c.h, want); got != c.tier {
			t.Errorf("%s %q: tier %d, want %d", c.h.SourceType, c.h.Label, got, c.tier)
		}
	}
}
