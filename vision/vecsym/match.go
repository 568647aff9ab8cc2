package vecsym

import (
	"context"
	"fmt"
	"math"
	"math/cmplx"
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
	d.reach = lineReach(m.segs)
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
	workers := min(runtime.GOMAXPROCS(0), max(len(ts), 1))
	per := make([][]Candidate, len(ts))
	finished := make([]bool, len(ts))
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
				if i >= len(ts) || sctx.Err() != nil {
					return
				}
				per[i] = sc.search(sctx, i, ts[i])
				finished[i] = sctx.Err() == nil
				if o.Trace != nil {
					traceMu.Lock()
					for _, c := range per[i] {
						o.Trace(c)
					}
					traceMu.Unlock()
				}
				if o.Progress != nil {
					o.Progress(float64(done.Add(1)) / float64(len(ts)))
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var over *Incomplete
	for i, ok := range finished {
		if !ok {
			if over == nil {
				over = &Incomplete{}
			}
			over.Templates = append(over.Templates, i)
		}
	}
	var all []Candidate
	for i, cs := range per {
		if !finished[i] {
			continue
		}
		for _, c := range cs {
			if c.Confidence >= o.MinConfidence {
				all = append(all, c)
			}
		}
	}
	kept := suppress(all)
	resolveTwins(kept, ts, o) // after suppression: one tag word, one symbol
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
			in := c.Box.Intersect(k.Box).Area()
			if in == 0 {
				continue
			}
			small := min(c.Box.Area(), k.Box.Area())
			iou := c.Box.IoU(k.Box)
			if iou >= 0.3 || in >= 0.7*small || c.Template == k.Template && (iou >= 0.15 || in >= 0.5*small) {
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

// scorer searches one template at a time; each worker has its own.
type scorer struct {
	d     *Drawing
	o     Options
	seen  []uint32
	stamp uint32
}

var (
	// the least |cos| of the angle between a line and a mark that may be
	// taken for it: 12°, and for pieces of curves (flattened differently
	// in the legend and on the plan) 35°
	lineCos  = math.Cos(12 * math.Pi / 180)
	curveCos = math.Cos(35 * math.Pi / 180)
)

const (
	// a pose is verified when its quick test misses at most this many probes
	probeMisses = 2
	// poses covering less of the template than this are not kept
	minCovered = 0.7
	// the margin around a posed symbol whose marks reaching into it count
	// against it, as a share of the symbol's diagonal
	marginShare = 0.2
	// the band around a posed symbol's marks whose drawing marks it must
	// account for, as a share of its diagonal (and at least two tolerances)
	bandShare = 0.12
	// the drawing's marks are sampled this many times more sparsely than
	// the template's for the explained share
	explainStep = 3
)

// anyMark asks for a mark of any kind and direction.
var anyMark = want{anyDash: true}

// search finds every pose of t on the drawing.
func (sc *scorer) search(ctx context.Context, ti int, t *Template) []Candidate {
	found := newCandSet(t.size)
	tries, stopped := 0, false
	try := func(P pose) {
		if tries++; stopped || tries%1024 == 0 && ctx.Err() != nil {
			stopped = true // cancelled: the rest of the anchors cost nothing
			return
		}
		k := P.scale()
		if k < sc.o.MinScale*0.97 || k > sc.o.MaxScale*1.03 {
			return
		}
		if !sc.quick(t, P) {
			return
		}
		at := P.apply(t.centre)
		if found.settled(at, P) {
			return // another anchor found this pose already
		}
		if c, ok := sc.verify(ti, t, P); ok {
			found.add(c, at, P.turn())
		}
	}
	for _, a := range sc.anchors(t) {
		a.run(try)
	}
	return found.list()
}

// anchor is one of a template's anchors with the drawing's marks it is
// tried on: run calls try with every pose they give, cost estimates the
// probe lookups that takes.
type anchor struct {
	cost float64
	run  func(try func(pose))
}

// anchorBudget: anchors are tried from the cheapest on while their total
// cost stays within 3 times the cheapest's, or within this many probe
// lookups — on a sparse drawing every anchor is tried, on a dense one
// (hatching drawn as lines, every short stroke a line anchor's candidate)
// the rarest kinds of mark carry the search.
const anchorBudget = 300_000

// anchors returns the anchors to try, cheapest first.
func (sc *scorer) anchors(t *Template) []anchor {
	d := sc.d
	lo, hi := sc.o.MinScale*0.97, sc.o.MaxScale*1.03
	var as []anchor
	for _, ai := range t.lineAnchors {
		A := t.lines[ai]
		i0 := sort.Search(len(d.lines), func(i int) bool { return d.lines[i].length >= A.length*lo })
		i1 := sort.Search(len(d.lines), func(i int) bool { return d.lines[i].length > A.length*hi })
		cands := d.lines[i0:max(i0, i1)]
		as = append(as, anchor{cost: 4 * 2.5 * float64(len(cands)), run: func(try func(pose)) {
			for i := range cands {
				D := &cands[i]
				if A.fill && !D.fill || !A.fill && A.stroke && !D.stroke {
					continue // not the same kind of mark (see sampleWant)
				}
				for _, mirror := range [2]bool{false, true} {
					if P, ok := poseFrom(A.a, A.b, D.a, D.b, mirror); ok {
						try(P)
					}
					if P, ok := poseFrom(A.a, A.b, D.b, D.a, mirror); ok {
						try(P)
					}
				}
			}
		}})
	}
	for _, ai := range t.arcAnchors {
		A := t.m.arcs[ai]
		var cands []*arc
		for _, di := range d.arcs {
			D := &d.m.arcs[di]
			if k := D.r / A.r; k >= lo && k <= hi && math.Abs(math.Abs(D.sweep)-math.Abs(A.sweep)) <= 0.1*math.Abs(A.sweep)+0.05 {
				cands = append(cands, D)
			}
		}
		as = append(as, anchor{cost: 4 * 2.5 * float64(len(cands)), run: func(try func(pose)) {
			for _, D := range cands {
				for _, mirror := range [2]bool{false, true} {
					if P, ok := poseFrom(A.p0, A.p1, D.p0, D.p1, mirror); ok {
						try(P)
					}
					if P, ok := poseFrom(A.p0, A.p1, D.p1, D.p0, mirror); ok {
						try(P)
					}
				}
			}
		}})
	}
	if t.glyphAnchor >= 0 {
		G := t.m.glyphs[t.glyphAnchor]
		var cands []*glyph
		for i := range d.m.glyphs {
			if D := &d.m.glyphs[i]; D.r == G.r {
				cands = append(cands, D)
			}
		}
		as = append(as, anchor{cost: 2.5 * float64(len(cands)), run: func(try func(pose)) {
			for _, D := range cands {
				try(poseAt(G.c, D.c, D.size/G.size, D.ang-G.ang, false))
			}
		}})
	}
	if t.circle >= 0 {
		C := t.m.arcs[t.circle]
		var cands []*arc
		for _, di := range d.circles {
			if D := &d.m.arcs[di]; D.r/C.r >= lo && D.r/C.r <= hi {
				cands = append(cands, D)
			}
		}
		if len(t.lineAnchors) > 0 {
			as = append(as, sc.circleLine(t, cands))
		}
		as = append(as, anchor{cost: 2 * sweepSteps * float64(len(t.probes)) * float64(len(cands)), run: func(try func(pose)) {
			for _, D := range cands {
				sc.sweep(t, C.c, D.c, D.r/C.r, try)
			}
		}})
	}
	sort.SliceStable(as, func(i, j int) bool { return as[i].cost < as[j].cost })
	total := 0.0
	for i, a := range as {
		if total += a.cost; i > 0 && total > max(3*as[0].cost, anchorBudget) {
			return as[:i]
		}
	}
	return as
}

// sweepSteps are the turns a circle anchor tries (every 3°).
const sweepSteps = 120

// sweep tries every turn about a circle's centre (a symbol whose only
// anchor is a circle: its turn is read from its other marks).
func (sc *scorer) sweep(t *Template, c, q pt, k float64, try func(pose)) {
	const steps = sweepSteps
	for _, mirror := range [2]bool{false, true} {
		best, bestHits := -1, -1
		for i := 0; i < steps; i++ {
			P := poseAt(c, q, k, 2*math.Pi*float64(i)/steps, mirror)
			if h, _ := sc.probe(t, P, false); h > bestHits {
				best, bestHits = i, h
			}
		}
		if bestHits < len(t.probes)-probeMisses {
			continue
		}
		// refine the best turn
		phi := 2 * math.Pi * float64(best) / steps
		for _, d := range []float64{-1, -0.5, 0, 0.5, 1} {
			try(poseAt(c, q, k, phi+d*2*math.Pi/steps, mirror))
		}
	}
}

func (sc *scorer) tol(t *Template, k float64) float64 { return 1 + 0.015*k*t.size }

// sampleTol is how far from template sample s posed by P the drawing's
// mark may lie: tol, and for a piece of a curve P's slack more.
func sampleTol(P pose, tol float64, s *sample) float64 {
	if s.curve {
		return tol + P.slack
	}
	return tol
}

// sampleWant is what the drawing must have at a template sample posed:
// a mark along the sample's direction turned by the pose (turn, mirror)
// and of its kind — a filled edge for an edge of a filled area, outlined
// or not (plot styles differ on whether a fill's outline is drawn), a
// stroked line for a stroked line.
func sampleWant(turn complex128, mirror bool, s *sample) want {
	u := s.u
	if mirror {
		u = cmplx.Conj(u)
	}
	c := lineCos
	if s.curve {
		c = curveCos
	}
	return want{u: turn * u, cosTol: c, fill: s.fill, stroke: s.stroke && !s.fill, dashed: s.dashed, dark: !s.faint}
}

// probe looks for the template's probes at pose P: hits counts those
// found, and ok says whether the pose passes the quick test — two of the
// first four missed, or three in all, fail it (most wrong poses are given
// up after two looks). With early, it stops as soon as the pose fails.
func (sc *scorer) probe(t *Template, P pose, early bool) (hits int, ok bool) {
	tol := sc.tol(t, P.scale())
	turn := P.turn()
	miss := 0
	ok = true
	for n, i := range t.probes {
		s := &t.pts[i]
		if sc.d.ix.near(P.apply(s.p), sampleTol(P, tol, s), sampleWant(turn, P.mirror, s)) {
			hits++
			continue
		}
		if miss++; miss > probeMisses || miss == 2 && n < 4 {
			ok = false
			if early {
				return hits, false
			}
		}
	}
	return hits, ok
}

// quick tests P on the probes.
func (sc *scorer) quick(t *Template, P pose) bool {
	_, ok := sc.probe(t, P, true)
	return ok
}

// verify scores pose P: the share of the template's marks found
// (Covered), the share of the drawing's marks in the posed box that the
// template accounts for (Explained), and from them a confidence.
func (sc *scorer) verify(ti int, t *Template, P pose) (Candidate, bool) {
	k := P.scale()
	tol := sc.tol(t, k)
	turn := P.turn()
	d := sc.d
	// covered
	total := t.weight
	hit := 0.0
	budget := (1 - minCovered) * total
	missed := 0.0
	for i := range t.pts {
		s := &t.pts[i]
		if d.ix.near(P.apply(s.p), sampleTol(P, tol, s), sampleWant(turn, P.mirror, s)) {
			hit += s.w
		} else if missed += s.w; missed > budget {
			return Candidate{}, false
		}
	}
	for _, g := range t.m.glyphs {
		w := glyphWeight * g.size
		hit += d.gix.agreement(P.apply(g.c), k*g.size, g.r) * w
	}
	covered := min(hit/total, 1)
	if covered < minCovered {
		return Candidate{}, false
	}
	if sc.runsOn(t, P, tol) {
		return Candidate{}, false
	}
	// explained: the drawing's marks near the symbol's (within a band
	// around them, or inside one of its closed outlines: a letter drawn in
	// strokes in a circle) that reach into its posed box — a line running on from
	// the symbol shows it is a part of something larger, while a neighbour
	// or a tag beside it does not reach in, and a wall drawn around a corner
	// guard's L lies off its marks. A line passing through the box that
	// the symbol does not account for (a wall, a pipe crossing it) is left
	// out, also when drawn dash by dash; one the symbol lies along counts
	// inside the box.
	box := t.posedBox(P)
	diag := k * t.size
	sc.stamp++
	if sc.stamp == 0 {
		clear(sc.seen)
		sc.stamp = 1
	}
	step := t.step * k * explainStep
	var tot, expl float64
	tight := vector.Rect{X0: float32(box.XMin - tol), Y0: float32(box.YMin - tol), X1: float32(box.XMax + tol), Y1: float32(box.YMax + tol)}
	wide := tight.Grow(float32(max(tol, marginShare*diag)))
	ttol := tol / k
	band := max(2*tol, bandShare*diag) / k // in the template's pixels
	acc := newDescAcc(P.apply(t.centre), descRadius*diag)
	centre := P.apply(t.centre)
	d.ix.visit(float64(wide.X0), float64(wide.Y0), float64(wide.X1), float64(wide.Y1), sc.seen, sc.stamp, func(id int32) {
		s := &d.m.segs[id]
		if s.faint && !t.faint {
			return
		}
		if _, _, in := clipSeg(s.a, s.b, tight); !in {
			return
		}
		a, b, ok := clipSeg(s.a, s.b, wide)
		if !ok {
			return
		}
		// through: the line it is a piece of (a grid line drawn dash by
		// dash) starts and ends outside the box
		reach := d.reach[id]
		through := !tight.Contains(toPoint(reach[0])) && !tight.Contains(toPoint(reach[1])) ||
			attached(reach, tight, centre, t, P, ttol, diag)
		l := dist(a, b)
		n := max(int(math.Ceil(l/step)), 1)
		// the segment's direction in the template's frame
		c := lineCos
		if s.curve {
			c = curveCos
		}
		w := want{u: P.inverseDir(s.u), cosTol: c, fill: s.fill, stroke: s.stroke && !s.fill, dashed: s.dashed}
		stol := ttol
		if s.curve {
			stol = (tol + P.slack) / k // as sampleTol
		}
		// samples near the symbol's marks, and those of them inside the box
		var st, se, it, ie float64
		var pts []pt
		for j := 0; j < n; j++ {
			q := a + (b-a)*complex((float64(j)+0.5)/float64(n), 0)
			p := P.inverse(q)
			ok := t.ix.near(p, stol, w) // explained, so within the band
			if !ok && !t.ix.near(p, band, anyMark) && !t.enclosed(p) {
				continue
			}
			inside := tight.Contains(toPoint(q))
			if through && !inside {
				continue // of a line through the box, only what lies in it
			}
			st += l / float64(n)
			if ok {
				se += l / float64(n)
			}
			if inside {
				it += l / float64(n)
				if ok {
					ie += l / float64(n)
				}
			}
			pts = append(pts, q)
		}
		if through && ie < 0.5*it {
			return // crossing the symbol
		}
		tot += st
		expl += se
		for _, q := range pts { // the same marks, for the descriptor
			acc.add(q, l/float64(n))
		}
	})
	d.gix.each(complex((box.XMin+box.XMax)/2, (box.YMin+box.YMax)/2), diag/2, func(j int32) {
		D := &d.m.glyphs[j]
		// a symbol's letters lie well inside it; a tag beside it may reach in
		ix, iy := 0.1*box.Width(), 0.1*box.Height()
		if px(D.c) < box.XMin+ix || px(D.c) > box.XMax-ix || py(D.c) < box.YMin+iy || py(D.c) > box.YMax-iy {
			return
		}
		if numberTag(t, D) {
			return
		}
		w := glyphWeight * D.size
		tot += w
		acc.addGlyph(D, 1, D.c, D.ang)
		expl += t.gix.agreement(P.inverse(D.c), D.size/k, D.r) * w
	})
	explained := 1.0
	if tot > 0 {
		explained = expl / tot
	}
	c := Candidate{Template: ti, Box: box, Scale: k, Angle: P.angleDeg(), Mirrored: P.mirror,
		Covered: covered, Explained: explained, Described: cosine(t.desc, acc.vec())}
	c.simple = t.simple
	c.Confidence = confidence(covered, explained, c.Described, t.simple)
	c.support = expl - (1-covered)*t.weight*k
	return c, true
}

// attached reports whether line reach is a leader or a wire drawn to a
// closed symbol (one without free line ends, a light's circle): a straight
// line that starts on the symbol's outline or inside it and runs out of its
// box, away from its centre. It says where the symbol is connected, not
// that the symbol is a piece of something larger.
func attached(reach [2]pt, tight vector.Rect, centre pt, t *Template, P pose, ttol, diag float64) bool {
	if len(t.ends) > 0 {
		return false
	}
	a, b := reach[0], reach[1]
	inA, inB := tight.Contains(toPoint(a)), tight.Contains(toPoint(b))
	if inA == inB {
		return false
	}
	if inB {
		a, b = b, a
	}
	// a is the end inside the box: on the outline or within it
	p := P.inverse(a)
	if !t.ix.near(p, ttol, anyMark) && !t.enclosed(p) {
		return false
	}
	out, r := b-a, a-centre
	if cmplx.Abs(r) < attachedCentre*diag {
		return true // from the symbol's middle, any way out
	}
	cos := (real(out)*real(r) + imag(out)*imag(r)) / (cmplx.Abs(out) * cmplx.Abs(r))
	if cos > attachedCos {
		return true
	}
	// leaving the outline outwards but askew (a wire drawn to a fixture's
	// side): attached unless it carries on one of the symbol's lines (a
	// grid running on from a square's side)
	return cos > 0 && !t.ix.near(p, ttol, want{u: P.inverseDir(out / complex(cmplx.Abs(out), 0)), cosTol: lineCos, anyDash: true})
}

// attachedCentre: a line from within this share of the symbol's size of
// its centre is attached whichever way it leaves.
const attachedCentre = 0.2

// attachedCos: an attached line leaves the outline within about 35° of the
// direction away from the symbol's centre.
const attachedCos = 0.8

// runsOn reports whether every free line end of the template (if it has
// any) runs on in the drawing at pose P: the drawing's line continues past
// it, straight on, for a sixth of the symbol — the pose has found a piece
// of a larger drawing, as an L-shaped symbol is found at every corner of a
// rectangle.
func (sc *scorer) runsOn(t *Template, P pose, tol float64) bool {
	if len(t.ends) == 0 {
		return false
	}
	const n = 6
	reach := max(3*tol, P.scale()*t.size/6)
	for _, e := range t.ends {
		q := P.apply(e.p)
		d := P.dir(e.out)
		w := want{u: d, cosTol: lineCos, anyDash: true, dark: !t.faint}
		on := 0
		for i := 0; i < n; i++ {
			s := 1.5*tol + reach*float64(i)/float64(n-1)
			if sc.d.ix.near(q+d*complex(s, 0), tol, w) {
				on++
			}
		}
		if on < n-1 {
			return false
		}
	}
	return true
}

func toPoint(p pt) vector.Point { return vector.Point{X: float32(px(p)), Y: float32(py(p))} }

// confidence maps the three similarities to 0..1. Its direction and its
// 0.5 boundary are a logistic regression fitted (TestFitConfidence, ridge
// 1) to every pose verified on synthetic sheets of seeds 3–5, drawn as
// their legends draw them and varied (synth --vary), labelled right when an
// instance of the symbol overlaps it with IoU ≥ 0.5: among poses, a symbol
// found on a part of a larger one (a circle in a circle with a cross) looks
// as right as can be, and suppression removes it. Among the detections
// that survive suppression (on seeds 1–24, with no floor), that boundary
// keeps every right one and no wrong one; being separable there, they
// cannot fix the slope, which is set so that a pose with every mark found
// and explained, described alike, scores 0.98. A simple symbol (an L, a
// tick, a triangle) is found in every drawing's corners and junctions, and
// the synthetic sheets hold too few of them to learn that from: its pose
// must explain a fifth more of the marks around it.
func confidence(covered, explained, described float64, simple bool) float64 {
	z := confW[0] + confW[1]*covered + confW[2]*explained + confW[3]*described
	if simple {
		z -= confW[2] * simpleExplain
	}
	return 1 / (1 + math.Exp(-confSlope*z))
}

// simpleExplain is how much more of the marks about it a simple symbol's
// pose must explain.
const simpleExplain = 0.2

// confW are confidence's coefficients: intercept, covered, explained,
// described; confSlope scales them (see confidence).
var (
	confW     = [4]float64{-14.17, 6.76, 5.07, 3.71}
	confSlope = math.Log(0.98/0.02) / (confW[0] + confW[1] + confW[2] + confW[3])
)

// posedBox is the box of the template's marks at pose P, its strokes'
// width included.
func (t *Template) posedBox(P pose) geom.Box {
	b := geom.Box{XMin: math.Inf(1), YMin: math.Inf(1), XMax: math.Inf(-1), YMax: math.Inf(-1)}
	add := func(p pt) {
		q := P.apply(p)
		b.XMin, b.YMin = min(b.XMin, px(q)), min(b.YMin, py(q))
		b.XMax, b.YMax = max(b.XMax, px(q)), max(b.YMax, py(q))
	}
	for _, s := range t.m.segs {
		add(s.a)
		add(s.b)
	}
	for _, g := range t.m.glyphs {
		add(g.c)
	}
	h := t.width / 2
	return geom.Box{XMin: b.XMin - h, YMin: b.YMin - h, XMax: b.XMax + h, YMax: b.YMax + h}
}

// candSet keeps the best candidate per place: of two within a quarter of
// the symbol's size of each other at about the same scale, the better.
type candSet struct {
	size  float64 // the template's
	cell  float64
	cells map[[2]int32][]int
	cs    []Candidate
	at    []pt
	turns []complex128 // the kept candidates' turns (pose.turn)
}

func newCandSet(size float64) *candSet {
	return &candSet{size: size, cell: max(size/4, 1), cells: map[[2]int32][]int{}}
}

func better(a, b Candidate) bool {
	return a.Covered+a.Explained+a.Described > b.Covered+b.Explained+b.Described
}

// same returns the index of the candidate kept at the place of a pose at
// scale k centred at at, or -1.
func (s *candSet) same(at pt, k float64) int {
	r := 0.25 * k * s.size // a quarter of the symbol at scale k
	kx, ky := int32(math.Floor(px(at)/s.cell)), int32(math.Floor(py(at)/s.cell))
	span := int32(math.Ceil(r / s.cell))
	for y := ky - span; y <= ky+span; y++ {
		for x := kx - span; x <= kx+span; x++ {
			for _, i := range s.cells[[2]int32{x, y}] {
				if dist(s.at[i], at) <= r && math.Abs(math.Log(s.cs[i].Scale/k)) < 0.15 {
					return i
				}
			}
		}
	}
	return -1
}

// settled reports whether verifying pose P (centred at at) can change what
// is kept at its place: not when the candidate kept there is P itself,
// found from another anchor, with all of the symbol's marks, nor when it
// has all of them and accounts for everything about it. (Another turn of a
// symmetric symbol, where the kept one leaves marks unexplained, is
// verified: a turn that explains more may be the right one.)
func (s *candSet) settled(at pt, P pose) bool {
	i := s.same(at, P.scale())
	if i < 0 || s.cs[i].Covered < 0.999 {
		return false
	}
	if c := s.cs[i]; c.Explained >= 0.999 && c.Described >= 0.999 {
		return true // nothing there can do better (a symmetric symbol's other turns tie)
	}
	// the same turn and scale: P itself (a pose of another scale is
	// another fit, as a circle's scale against its bars')
	return s.cs[i].Mirrored == P.mirror && cmplx.Abs(s.turns[i]-P.turn()) < 0.03 && // about 2°
		math.Abs(math.Log(s.cs[i].Scale/P.scale())) < 0.02
}

func (s *candSet) add(c Candidate, at pt, turn complex128) {
	if i := s.same(at, c.Scale); i >= 0 {
		if better(c, s.cs[i]) {
			s.cs[i], s.turns[i] = c, turn
		}
		return
	}
	kx, ky := int32(math.Floor(px(at)/s.cell)), int32(math.Floor(py(at)/s.cell))
	s.cs = append(s.cs, c)
	s.at = append(s.at, at)
	s.turns = append(s.turns, turn)
	key := [2]int32{kx, ky}
	s.cells[key] = append(s.cells[key], len(s.cs)-1)
}

func (s *candSet) list() []Candidate { return s.cs }

// numberTag reports whether glyph D, inside a posed symbol, is a digit of
// a number written in it while the symbol's legend graphic has no letters:
// drawings write an instance's number in its symbol (a fixture's type, a
// circuit), which the legend leaves out; letters in a symbol stay part of
// what it is (a smoke detector's SD).
func numberTag(t *Template, D *glyph) bool {
	return len(t.m.glyphs) == 0 && D.r >= '0' && D.r <= '9'
}
