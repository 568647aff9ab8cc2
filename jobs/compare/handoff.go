package compare

import (
	"image"
	"sync"
	"time"

	engine "github.com/plangraph/plangraph/vision/compare"
)

// The analysis of an overlay usually runs right after its generation, in
// the same process (the compare job queues it as soon as the overlays are
// made). Reading the overlay back from the blob store costs more than the
// analysis itself (two block images and two difference images decoded
// from PNG: seconds on a large sheet), so a generation hands what the
// analysis needs to the analysis that follows, as ingestion's sheet stage
// hands its page to the block stage: held for handoffTTL at most, within
// handoffBytes of images (the oldest dropped first), taken once. A retried or later analysis (POST
// /v1/overlays/{id}/analyze) reads the stored overlay as before.

const (
	handoffTTL   = time.Minute
	handoffBytes = 512 << 20
)

type handed struct {
	p     *framedPair
	ov    *engine.Overlay
	at    time.Time
	bytes int
}

// pixels counts an image's bytes (nil: none).
func pixels(m interface{ Bounds() image.Rectangle }) int {
	if m == nil {
		return 0
	}
	return m.Bounds().Dx() * m.Bounds().Dy()
}

type handoff struct {
	mu    sync.Mutex
	items map[string]handed
}

// put keeps overlay id's sides and difference images (only what
// engine.Analyze reads), dropping the oldest past handoffBytes; an overlay
// larger than that alone is not kept.
func (h *handoff) put(id string, p *framedPair, ov *engine.Overlay) {
	keep := &engine.Overlay{Transform: ov.Transform, Registered: ov.Registered, Score: ov.Score,
		Addition: ov.Addition, Deletion: ov.Deletion, Regions: ov.Regions, Warnings: ov.Warnings}
	n := pixels(p.a.Image) + pixels(p.b.Image) + pixels(ov.Addition) + pixels(ov.Deletion)
	if n > handoffBytes {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.items == nil {
		h.items = map[string]handed{}
	}
	now := time.Now()
	for k, v := range h.items {
		if now.Sub(v.at) > handoffTTL {
			delete(h.items, k)
		}
	}
	total := n
	for _, v := range h.items {
		total += v.bytes
	}
	for total > handoffBytes {
		oldest := ""
		for k, v := range h.items {
			if oldest == "" || v.at.Before(h.items[oldest].at) {
				oldest = k
			}
		}
		total -= h.items[oldest].bytes
		delete(h.items, oldest)
	}
	h.items[id] = handed{p: p, ov: keep, at: now, bytes: n}
}

// take returns and forgets overlay id's handed parts, if still held.
func (h *handoff) take(id string) (p *framedPair, ov *engine.Overlay, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	v, ok := h.items[id]
	delete(h.items, id)
	if !ok || time.Since(v.at) > handoffTTL {
		return nil, nil, false
	}
	return v.p, v.ov, true
}
