package legend

import (
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
)

// WantEntry is an expected legend entry (ground truth or a hand label).
type WantEntry struct {
	Label       string
	Description string
	HasGraphic  bool
	// Graphic is the symbol's box in block pixels (zero without a graphic).
	Graphic geom.Box
}

// MatchEntries counts the wanted entries that were found with the right
// label, description and has_graphic (text compared case- and
// space-insensitively; each found entry matches at most one wanted one).
// It is the benchmarks' "legend entries found with the right label and
// description".
func MatchEntries(found []Entry, want []WantEntry) (right, total int) {
	used := make([]bool, len(found))
	for _, w := range want {
		for i, f := range found {
			if !used[i] && f.HasGraphic == w.HasGraphic && sameText(f.Label, w.Label) && sameText(f.Description, w.Description) {
				used[i] = true
				right++
				break
			}
		}
	}
	return right, len(want)
}

// sameText compares legend text ignoring case and runs of spaces.
func sameText(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}
