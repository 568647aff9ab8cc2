package vecsym

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

// Drawing is a view block's geometry, indexed for the search.
type Drawing struct {
	m       *marks
	ix      *segIndex
	gix     *glyphIndex
	lines   []seg   // straight lines to anchor poses on (mergedLines), shortest first
	arcs    []int32 // arcs that are not whole circles
	circles []int32 // whole circles
	reach   [][2]pt // by segment: the ends of the line it is a piece of (lineReach)
	split   [][2]pt // by segment: the ends of the line its touching pieces make (lineReach; nil when none)
}

// NewDrawing reads the marks of pg inside r (a block's bounds on its
// sheet); results are in r's pixels (r's corner is the origin).
func NewDrawing(pg *vector.Page, r vector.Rect) *Drawing {
	return newDrawing(readMarks(pg, r, clipToRegion))
}

func newDrawing(m *marks) *Drawing {
	d := &Drawing{m: m}
	d.ix = newSegIndex(m.segs, 8)
	d.gix = newGlyphIndex(m.glyphs, 32)
	d.lines = mergedLines(m.segs, true)
	d.reach, d.split = lineReach(m.segs)
	sort.Slice(d.lines, func(i, j int) bool { return d.lines[i].length < d.lines[j].length })
	for i, a := range m.arcs {
		if a.full {
			d.circles = append(d.circles, int32(i))
		} else {
			d.arcs = append(d.arcs, int32(i))
		}
	}
	return d
}

// Marks says how much the drawing holds: its segments and glyphs.
func (d *Drawing) Marks() (segments, glyphs int) { return len(d.m.segs), len(d.m.glyphs) }

// Options tune a search; zero values take the defaults.
type Options struct {
	MinScale, MaxScale float64 // default 0.5 and 2
	MinConfidence      float64 // default 0.5
	Progress           func(done float64)
	// Trace, when set, is called with every pose verified (before
	// suppression), for calibration
	Trace func(Candidate)
	// Deadline, when set, bounds the search: templates whose search has
	// not finished by then are dropped and named in an *Incomplete error
	// returned with the other templates' detections
	Deadline time.Time
	// Tags are the templates' tags (by index; "" for none) and Words the
	// drawing's words, in its pixels: they tell twins apart (twins.go)
	Tags  []string
	Words []symbols.Word
}

// Incomplete is returned, with the detections of the templates searched,
// when Options.Deadline passed before every template was searched.
type Incomplete struct {
	Templates []int // not searched, or not to the end
}

func (e *Incomplete) Error() string {
	return fmt.Sprintf("vecsym: %d templates not searched before the deadline", len(e.Templates))
}

// Candidate is a verified pose of a template.
type Candidate struct {
	Template int
	Box      geom.Box
	Scale    float64
	Angle    float64
	Mirrored bool
	// Covered is the share of the template's marks found in the drawing;
	// Explained the share of the drawing's marks about the symbol's (see
	// verify) that the template's account for; Described the similarity of
	// the two sets of marks' descriptors (descriptor.go)
	Covered, Explained, Described float64
	Confidence                    float64
	support                       float64
	simple                        bool // the template's (confidence)
}

// Match finds the templates' instances on d. Detections are in d's pixels.
func Match(ctx context.Context, d *Drawing, ts []*Template, o Options) ([]symbols.Detection, error) {
	if o.MinScale <= 0 {
		o.MinScale = 0.5
	}
	if o.MaxScale <= 0 {
		o.MaxScale = 2
	}
	if o.MinConfidence <= 0 {
		o.MinConfidence = 0.5
	}
	sctx := ctx
	if !o.Deadline.IsZero() {
		var cancel context.CancelFunc
		sctx, cancel = context.WithDeadline(ctx, o.Deadline)
		defer cancel()
	}
	// the templates, then the lettered ones' outlines (lettered.go)
	owners := outlineJobs(ts, o)
	jobs := len(ts) + len(owners)
	job := func(i int) *Template {
		if i < len(ts) {
			return ts[i]
		}
		return ts[owners[i-len(ts)]].outline
	}
	workers := min(runtime.GOMAXPROCS(0), max(jobs, 1))
	per := make([][]Candidate, jobs)
	finished := make([]bool, jobs)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var traceMu sync.Mutex
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &scorer{d: d, seen: make([]uint32, len(d.m.segs)), o: o}
			for {
				i := int(next.Add(1) - 1)
				if i >= jobs || sctx.Err() != nil {
					return
				}
				per[i] = sc.search(sctx, i, job(i))
				finished[i] = sctx.Err() == nil
				if o.Trace != nil && i < len(ts) {
					traceMu.Lock()
					for _, c := range per[i] {
						o.Trace(c)
					}
					traceMu.Unlock()
				}
				if o.Progress != nil {
					o.Progress(float64(done.Add(1)) / float64(jobs))
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var over *Incomplete
	for i, ok := range finished[:len(ts)] {
		if !ok {
			if over == nil {
				over = &Incomplete{}
			}
			over.Templates = append(over.Templates, i)
		}
	}
	var all, weak []Candidate
	for i, cs := range per[:len(ts)] {
		if !finished[i] {
			continue
		}
		for _, c := range cs {
			if c.Confidence >= o.MinConfidence {
				all = append(all, c)
			} else if isWeak(c, ts[i]) {
				weak = append(weak, c)
			}
		}
	}
	for k := range owners {
		if !finished[len(ts)+k] {
			per[len(ts)+k] = nil
		}
	}
	all = append(all, letteredBeside(per[len(ts):], owners, ts, o)...)
	kept := suppress(all)
	kept = resolveTwins(kept, ts, o) // after suppression: one tag word, one symbol
	kept = resolveKin(kept, weak, ts, o)
	out := make([]symbols.Detection, len(kept))
	for i, c := range kept {
		out[i] = symbols.Detection{Template: c.Template, Label: ts[c.Template].Label, Box: c.Box, Angle: c.Angle,
			Scale: c.Scale, Confidence: c.Confidence, Mirrored: c.Mirrored}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Box.YMin != out[j].Box.YMin {
			return out[i].Box.YMin < out[j].Box.YMin
		}
		return out[i].Box.XMin < out[j].Box.XMin
	})
	if over != nil {
		return out, over
	}
	return out, nil
}

// suppress resolves overlapping detections: of two whose boxes overlap
// (IoU ≥ 0.3, or 70 % of the smaller inside the larger; for two of one
// symbol 0.15 and half), the one that
// accounts for more of the drawing — the drawing's marks it explains less
// its own marks the drawing lacks, weighed by √confidence — is kept.
func suppress(cs []Candidate) []Candidate {
	rank := func(c Candidate) float64 { return c.support * math.Sqrt(c.Confidence) }
	sort.SliceStable(cs, func(i, j int) bool { return rank(cs[i]) > rank(cs[j]) })
	var kept []Candidate
	for _, c := range cs {
		ok := true
		for _, k := range kept {
			if overlaps(c, k) {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, c)
		}
	}
	return kept
}

// overlaps reports whether c and k are poses on one place: suppress's test.
func overlaps(c, k Candidate) bool {
	in := c.Box.Intersect(k.Box).Area()
	if in == 0 {
		return false
	}
	small := min(c.Box.Area(), k.Box.Area())
	iou := c.Box.IoU(k.Box)
	return iou >= 0.3 || in >= 0.7*small || c.Template == k.Template && (iou >= 0.15 || in >= 0.5*small)
}
