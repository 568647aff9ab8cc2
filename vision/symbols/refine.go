package symbols

import (
	"context"
	"math"
	"runtime"
	"sort"
	"sync"

	"github.com/plangraph/plangraph/vision/geom"
)

// Early exits of refinement, set from traces of every candidate
// (TestTraceSESYDPlan, TestTraceSynth; SESYD plans and synthetic sheets):
// no detection with a confidence of 0.5 or more had a probe score under
// 0.2, a correlation under 0.62 before its correlation climb, or under
// 0.72 after it. The exits sit well below those, and spare the
// correlation climb for the candidates that start it below 0.5: it runs
// for 5–17 % of the candidates instead of about half.
const (
	minProbe    = 0.15
	minStartNCC = 0.5
	minNCC      = 0.55
)

// A climb on the probe score is given up when, after earlyIter
// iterations, its pose correlates under minEarlyNCC. The probe score
// separates right candidates from the rest less well than correlation
// (traced: a third of the wrong ones climb to a probe score of 0.3 or
// more, which every right one passes), and climbs were most of the time;
// after four iterations no right detection of synthetic seeds 1–2 or
// SESYD plans 0, 3 and 5 correlated under 0.29, while 43 % and 32 % of
// their candidates did under 0.25.
const (
	earlyIter   = 4
	minEarlyNCC = 0.25
)

// Candidates are refined in the ring pass's order (best score first). A
// detection that leaves no doubt — confidence, chamfer and explained ink
// all claimMin or more, and not on text — claims its symbol's box as
// posed: a later candidate centred inside it is not refined when its
// symbol could not cover as much of the drawing's ink, even a little
// larger than the candidate's scale, as the detection does.
// Suppression (step 5) keeps the detection that covers the most ink (by
// its support, weighed by its confidence), so such a candidate's detection
// could only be suppressed by the claim: most of them are the other
// symbols' candidates on each instance. A symbol that draws more ink stays
// in the running (a motor's circled M where a junction box's circled J
// was found first, a troffer where a sconce matched its outline). Traced
// (synthetic seeds 1–3, 9, 10, SESYD plans 0, 3, 4): 23–57 % of the probe
// work went to candidates inside such claims; claims against every symbol
// (without the ink test) cost three right detections on seeds 3, 9, 10.
// A candidate heeds only the claims of the candidates claimLag or more
// places before it, all refined by the time it is taken: which ones are
// skipped does not depend on how the workers share the work.
var claimMin = 0.9 // a variable for tests

const (
	// a candidate's symbol is drawn claimScale times its scale for its
	// bound (supportBound), which must stay under the claim's support
	claimScale = 1.3
	claimInk   = 1.25
)

var claimLag = 128 // a variable for tests

// isText tells whether d, a detection of a textless symbol, lies on words
// (see words.go): it is text, and dropped.
func (m *matcher) isText(d Detection) bool {
	return m.opt.noText[d.Template] && m.text.cover(d.Box) >= WordCover
}

// claim is a detection's posed ink box, full-resolution pixels, and the
// ink it covers.
type claim struct {
	p       pose
	hw, hh  float64 // half the template's ink box, template pixels
	support float64
	from    int // the candidate it was refined from
}

// holds tells whether (x, y) lies inside the claimed box.
func (c claim) holds(x, y float64) bool {
	dx, dy := x-c.p.cx, y-c.p.cy
	s, co := math.Sincos(-c.p.angle)
	// placement.apply inverted; a mirror image changes the sign of u only
	u := (co*dx + s*dy) / c.p.scale
	v := (-s*dx + co*dy) / c.p.scale
	return math.Abs(u) <= c.hw && math.Abs(v) <= c.hh
}

// supportBound is about the most drawing ink (full-resolution pixels) a
// detection refined from c could cover, generously: its symbol's own ink
// drawn at the drawing's stroke width, at claimScale times c's scale,
// times claimInk (a drawing's strokes may run heavier than its pen).
// Made once per symbol, scale and level.
func (m *matcher) supportBound(c candidate) float64 {
	l := max(c.level-2, 0)
	type key struct {
		t     *prepared
		scale float64
		l     int
	}
	k := key{c.t, c.scale, l}
	if v, ok := m.bounds.Load(k); ok {
		return v.(float64)
	}
	f := lf(l)
	sc := c.scale * claimScale
	size := int(2*(c.t.radius*sc*f+m.sw*f)) + 7
	buf := newF(size, size)
	mid := float64(size / 2)
	c.t.drawPosed(buf, pose{cx: mid, cy: mid, scale: sc}, f, m.sw*f/2, 0)
	ink := 0.0
	for _, v := range buf.p {
		ink += float64(v)
	}
	v, _ := m.bounds.LoadOrStore(k, claimInk*ink/(f*f))
	return v.(float64)
}

// refineAll refines cands in their order, on all CPUs, heeding the claims
// of earlier candidates and prior (the claims of candidates refined before
// cands, in an earlier call). It returns the detections, how many
// candidates were not refined (stopped by ctx), the claims with those of
// cands added, and ctx's error when it stopped. Progress is reported as
// base more candidates refined before cands, of total.
func (m *matcher) refineAll(ctx context.Context, cands []candidate, prior []claim, base, total int) ([]Detection, int, []claim, error) {
	n := len(cands)
	out := make([]*Detection, n)
	workers := min(runtime.GOMAXPROCS(0), n)
	// candidate i heeds the claims of the candidates before i-lag, all
	// refined by then: each worker holds one candidate, so no worker waits
	// long and none waits for itself
	lag := max(claimLag, 2*workers)
	var (
		mu       sync.Mutex
		cond     = sync.NewCond(&mu)
		finished = make([]bool, n)
		upTo     int     // every candidate before it is finished
		claims   []claim // prior's, then the candidates' before upTo, in their order
		next     int
		done     int
		err      error
	)
	for _, cl := range prior {
		cl.from = math.MinInt32 // before every candidate of cands
		claims = append(claims, cl)
	}
	claimedAt := func(i int) bool {
		for _, cl := range claims {
			if cl.from >= i-lag {
				break
			}
			if cl.holds(cands[i].x, cands[i].y) && m.supportBound(cands[i]) < cl.support {
				return true
			}
		}
		return false
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if err == nil {
					err = ctx.Err()
				}
				if next >= n || err != nil {
					mu.Unlock()
					return
				}
				i := next
				next++
				for upTo < i-lag {
					cond.Wait()
				}
				claimed := claimedAt(i)
				mu.Unlock()
				var d *Detection
				other := false
				if !claimed {
					d = m.refine(cands[i])
					// another symbol's letters: dropped before it claims
					// the place from that symbol's candidates
					if d != nil && m.letters.otherSymbol(*d) {
						d, other = nil, true
					}
				}
				mu.Lock()
				if claimed {
					m.claimed++
				}
				if other {
					m.otherText++
				}
				out[i], finished[i] = d, true
				for upTo < n && finished[upTo] {
					if d := out[upTo]; d != nil && d.Confidence >= claimMin && d.chamfer >= claimMin &&
						d.explained >= claimMin && !m.isText(*d) {
						t := cands[upTo].t
						claims = append(claims, claim{p: d.at, hw: t.bw / 2, hh: t.bh / 2, support: d.support, from: upTo})
					}
					upTo++
				}
				cond.Broadcast()
				done++
				if done%32 == 0 {
					m.progress(0.4 + 0.6*float64(base+done)/float64(max(total, 1)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	// stopped: the detections of the candidates refined, and how many
	// were not
	var dets []Detection
	for _, d := range out {
		if d != nil {
			dets = append(dets, *d)
		}
	}
	return dets, n - done, claims, err
}

// refineTrace records how a candidate fared in refine (for tuning; set by
// tests only).
type refineTrace struct {
	Template           int
	X, Y, Scale        float64 // candidate, full resolution
	Ring               float64 // the candidate's ring-pass score
	Polar              float64 // best polar correlation over the centres tried
	Probe0             float64 // best probe score of the starting poses
	Probe, NCC0, NCC   float64 // best probe score, first and final correlation (-1: not reached)
	Chamfer, Explained float64
	Support            float64 // as Detection.support
	Conf               float64
	Box                geom.Box // of the detection, when there is one
	ProbeEvals         int      // probe scores computed
	RunsOn             bool     // dropped by linesRunOn
	Early              float64  // best correlation of the climbs at their checkpoint (-1: none reached it)
}

var traceRefine func(refineTrace)

// refine turns a candidate into a detection, or nil.
func (m *matcher) refine(c candidate) (det *Detection) {
	tr := refineTrace{Template: c.t.idx, X: c.x, Y: c.y, Scale: c.scale, Ring: c.score, Probe: -1, NCC0: -1, NCC: -1, Early: -1}
	if traceRefine != nil {
		defer func() {
			ox, oy := float64(m.origin.X), float64(m.origin.Y)
			tr.X, tr.Y = tr.X+ox, tr.Y+oy
			if tr.Box.Valid() {
				tr.Box = tr.Box.Translate(ox, oy)
			}
			traceRefine(tr)
		}()
	}
	l := max(c.level-2, 0)
	f := lf(l)
	lv := m.level(l)
	cx, cy := c.x*f, c.y*f
	r := c.radius * f
	// the ring pass places centres to about a pixel of its level: try
	// centres around it, and for each the best angle by polar correlation
	type hyp struct {
		p pose
		v float64
	}
	var tps [2][]float64
	for i, flip := range []bool{false, true} {
		tps[i] = m.polarTemplate(c.t, c.scale, l, flip, r)
	}
	step := math.Ldexp(1, c.level-l)
	var hyps []hyp
	for dy := -1.0; dy <= 1; dy++ {
		for dx := -1.0; dx <= 1; dx++ {
			px, py := cx+dx*step, cy+dy*step
			pp := polar(lv, px, py, r)
			for i, flip := range []bool{false, true} {
				a, v := bestShift(pp, tps[i])
				hyps = append(hyps, hyp{pose{cx: px, cy: py, angle: a, scale: c.scale, flip: flip}, v})
			}
		}
	}
	sort.Slice(hyps, func(a, b int) bool { return hyps[a].v > hyps[b].v })
	tr.Polar = hyps[0].v
	// the best hypotheses are climbed on the fast probe score, then the
	// best by correlation is polished on correlation
	var best pose
	ncc := -1.0
	// the masked normalised correlation between the posed template (drawn
	// at the drawing's stroke width) and level l inside the template's
	// disk; p is in level pixels
	var rc renders
	nccAt := func(l int, t *prepared, p pose) float64 {
		return m.ncc(m.blurred(l), m.rowSums(l), lf(l), t, p, &rc, m.hiddenAt(l, t, p))
	}
	// near-symmetric symbols correlate almost as well half a turn away:
	// each of the best hypotheses is also tried turned by 180°
	var starts []pose
	for _, h := range hyps[:3] {
		starts = append(starts, h.p)
		h.p.angle += math.Pi
		starts = append(starts, h.p)
	}
	// drawings are mostly drawn square to the sheet: the four right angles,
	// both mirror images, are always tried too (an elongated symbol's ring
	// candidate can sit far enough from its centre to mislead the polar step)
	for k := 0; k < 4; k++ {
		for _, flip := range []bool{false, true} {
			starts = append(starts, pose{cx: cx, cy: cy, angle: float64(k) * math.Pi / 2, scale: c.scale, flip: flip})
		}
	}
	probe := m.probeScore
	if traceRefine != nil {
		probe = func(l int, t *prepared, p pose) float64 { tr.ProbeEvals++; return m.probeScore(l, t, p) }
	}
	sv := make([]float64, len(starts))
	for i, st := range starts {
		sv[i] = probe(l, c.t, st)
		tr.Probe0 = max(tr.Probe0, sv[i])
	}
	// the two best starts are climbed — often two neighbouring centres at
	// one angle: the local search is not always drawn to the same pose
	// from both — and the best start that differs from both in mirror
	// image or by 20° or more
	order := topK(sv, len(sv))
	pick := []int{order[0], order[1]}
	for _, i := range order[2:] {
		if distinctStart(starts[i], starts[order[0]]) && distinctStart(starts[i], starts[order[1]]) {
			pick = append(pick, i)
			break
		}
	}
	for _, i := range pick {
		if sv[i] < 0 {
			continue
		}
		// a climb that has not made the pose correlate a little after a
		// few steps is given up
		checkpoint := func(k int, p pose) bool {
			if k != earlyIter {
				return true
			}
			w := nccAt(l, c.t, p)
			tr.Early = max(tr.Early, w)
			return w >= minEarlyNCC
		}
		p, v, ok := m.climb(l, c, starts[i], sv[i], probe, 48, 4, 4, checkpoint)
		tr.Probe = max(tr.Probe, v)
		if !ok || v < minProbe {
			continue
		}
		if w := nccAt(l, c.t, p); w > ncc {
			best, ncc = p, w
		}
	}
	tr.NCC0 = ncc
	if ncc < minStartNCC {
		return nil
	}
	best, ncc, _ = m.climb(l, c, best, ncc, nccAt, 12, 1, 1, nil)
	tr.NCC = ncc
	if ncc < minNCC {
		return nil
	}
	chamfer, explained, net, crossed, wires := m.verify(l, c.t, best)
	if crossed || wires != nil {
		// correlated again without the lines crossing it, which lowered
		// the correlation as they did the explained ink
		ncc = max(ncc, m.nccClear(l, c.t, best, crossed, wires))
		tr.NCC = ncc
	}
	conf := confidence(ncc, chamfer, explained)
	if conf >= m.opt.MinConfidence && !crossed && m.linesRunOn(l, c.t, best) {
		// every free end of the symbol's lines runs on in the drawing:
		// it is a part of a larger drawing (the corner of a rectangle
		// taken for an L), not a symbol. Not asked of a symbol that long
		// lines cross: its ends run on into them whatever it is (a
		// grille whose one free end, a tick inside it, points along the
		// duct lines through it)
		tr.RunsOn = true
		conf = 0
	}
	tr.Chamfer, tr.Explained, tr.Conf = chamfer, explained, conf
	support := net
	tr.Support = support
	if conf < m.opt.MinConfidence && traceRefine == nil {
		return nil
	}
	// the box at full resolution
	full := best
	full.cx, full.cy = best.cx/f, best.cy/f
	bx0, by0, bx1, by1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	fp := full.at(1)
	for _, q := range c.t.pts {
		x, y := fp.apply(q[0], q[1])
		bx0, by0, bx1, by1 = min(bx0, x), min(by0, y), max(bx1, x), max(by1, y)
	}
	h := m.sw / 2
	W, H := float64(m.levels[0].w), float64(m.levels[0].h)
	box := geom.Box{XMin: max(bx0-h, 0), YMin: max(by0-h, 0), XMax: min(bx1+h, W), YMax: min(by1+h, H)}
	tr.Box = box
	if conf < m.opt.MinConfidence {
		return nil
	}
	deg := math.Mod(best.angle*180/math.Pi+360, 360)
	return &Detection{Template: c.t.idx, Box: box, Angle: deg, Scale: best.scale, Confidence: conf, Mirrored: best.flip,
		ncc: ncc, chamfer: chamfer, explained: explained, flip: best.flip,
		support: support, at: full}
}

// distinctStart tells whether two starting poses differ in mirror image
// or by 20° or more.
func distinctStart(a, b pose) bool {
	return a.flip != b.flip || math.Abs(math.Remainder(a.angle-b.angle, 2*math.Pi)) >= 20*math.Pi/180
}

// climb improves a pose of candidate c's symbol by local search over
// position, angle and scale, on the given score, starting with steps of
// stepPx pixels and stepDeg degrees, halved whenever no move helps. The
// scale stays within dupScale of the candidate's: the ring pass found it
// at that size, and a pose that shrinks further (a switch's small circle
// and stroke shrunk to a blob on a stub, which the end of any dash
// matches) is another size's candidate, found there or not at all.
// When check is given it is asked before each iteration whether to go
// on from the pose reached; a climb it stops returns false.
func (m *matcher) climb(l int, c candidate, p pose, v float64, score func(int, *prepared, pose) float64, iters int, stepDeg, stepPx float64, check func(iter int, p pose) bool) (pose, float64, bool) {
	t := c.t
	lo := max(max(m.opt.MinScale, t.minScale)*0.95, c.scale/dupScale)
	hi := min(m.opt.MaxScale*1.05, c.scale*dupScale)
	da := stepDeg * math.Pi / 180
	d := stepPx
	ds := 1 + 0.015*stepPx // scale step
	// a move back to where the last one came from is scored already: the
	// poses scored, looked through in order (a climb scores tens of them,
	// which a map took longer to hash than this takes to scan)
	type scored struct {
		p pose
		v float64
	}
	seen := []scored{{p, v}}
	lookup := func(q pose) (float64, bool) {
		for i := len(seen) - 1; i >= 0; i-- {
			if seen[i].p == q {
				return seen[i].v, true
			}
		}
		return 0, false
	}
	for iter := 0; iter < iters; iter++ {
		if check != nil && !check(iter, p) {
			return p, v, false
		}
		moves := [8]pose{}
		for i := range moves {
			moves[i] = p
		}
		moves[0].cx += d
		moves[1].cx -= d
		moves[2].cy += d
		moves[3].cy -= d
		moves[4].angle += da
		moves[5].angle -= da
		moves[6].scale *= ds
		moves[7].scale /= ds
		improved := false
		for _, q := range moves {
			if q.scale < lo || q.scale > hi {
				continue
			}
			w, ok := lookup(q)
			if !ok {
				w = score(l, t, q)
				seen = append(seen, scored{q, w})
			}
			if w > v+1e-4 {
				p, v, improved = q, w, true
			}
		}
		if !improved {
			switch {
			case d > 1:
				d /= 2
				ds = 1 + 0.015*d
			case da >= 0.6*math.Pi/180:
				da /= 2
			default:
				return p, v, true
			}
		}
	}
	return p, v, true
}
