package bench

// Visual search over a parsed real set: for each legend symbol the parse
// found on the plans, the region of its most confident instance is asked
// about (POST /projects/{id}/search with region), and the answer is right
// when its first legend entry carries the instance's label. It measures
// whether a symbol picked on a real plan leads back to its legend entry and
// its other instances, as a user clicking a symbol would expect.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/vision/geom"
)

// RealVisual searches a region (sheet pixels) of the page of one drawing
// of a real-set run.
type RealVisual func(ctx context.Context, page int, box geom.Box) (*search.Result, error)

// RealVisualScore is the visual search outcome of a set.
type RealVisualScore struct {
	Asked, Right int
	Took         time.Duration
}

// Add sums o into s.
func (s *RealVisualScore) Add(o RealVisualScore) {
	s.Asked += o.Asked
	s.Right += o.Right
	s.Took += o.Took
}

// maxVisualPerSet bounds the regions asked per set.
const maxVisualPerSet = 20

// visualReal asks about one instance per symbol label found; errf records
// what was wrong.
func visualReal(ctx context.Context, p RealParsed, visual RealVisual, errf func(string, ...any)) (RealVisualScore, error) {
	var sc RealVisualScore
	type pick struct {
		page int
		in   RealInstance
	}
	best := map[string]pick{}
	for _, sh := range p.Sheets {
		for _, in := range sh.Instances {
			if in.Label == "" || !in.Box.Valid() {
				continue
			}
			if b, ok := best[in.Label]; !ok || in.Confidence > b.in.Confidence {
				best[in.Label] = pick{sh.Page, in}
			}
		}
	}
	labels := make([]string, 0, len(best))
	for l := range best {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	if len(labels) > maxVisualPerSet {
		labels = labels[:maxVisualPerSet]
	}
	for _, l := range labels {
		b := best[l]
		box := geom.Box{XMin: max(0, b.in.Box.XMin-2), YMin: max(0, b.in.Box.YMin-2), XMax: b.in.Box.XMax + 2, YMax: b.in.Box.YMax + 2}
		start := time.Now()
		res, err := visual(ctx, b.page, box)
		sc.Took += time.Since(start)
		if err != nil {
			return sc, fmt.Errorf("region of %s on p%d: %w", l, b.page, err)
		}
		sc.Asked++
		first := ""
		for _, h := range res.Hits {
			if h.SourceType == index.TypeLegendEntry {
				first = h.Label
				break
			}
		}
		if strings.EqualFold(strings.TrimSpace(first), strings.TrimSpace(l)) {
			sc.Right++
		} else {
			errf("p%d visual search on %q's instance: first legend entry %q (%s)", b.page, l, first, strings.Join(res.Meta.Notes, "; "))
		}
	}
	return sc, nil
}
