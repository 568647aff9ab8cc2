package symbols

import (
	"context"
	"math"
	"sort"
	"sync"
)

// candidate is a ring-pass hit in full-resolution pixels.
type candidate struct {
	t      *prepared
	x, y   float64
	scale  float64
	level  int
	score  float64
	radius float64 // full resolution
}

const (
	scaleStep         = 1.1
	ringThreshold     = 0.7
	harmonicThreshold = 0.4
	maxCandidates     = 3000 // per template
	// dupScale: a candidate stands for those of its symbol about its
	// place at scales less than this factor from its own (they are
	// dropped as its duplicates), and refinement looks for the symbol
	// within that range of its scale, no further (see refine)
	dupScale = 1.25
	// harmBandRows is the height of the bands of level rows whose peaks
	// share their harmonics (see ringPass)
	harmBandRows = 32
)

func (m *matcher) scales() []float64 {
	var out []float64
	for s := m.opt.MinScale; s <= m.opt.MaxScale*1.0001; s *= scaleStep {
		out = append(out, s)
	}
	return out
}

func (m *matcher) ringPass(ctx context.Context, prep []*prepared) ([]candidate, error) {
	type job struct {
		t     *prepared
		scale float64
	}
	byLevel := map[int][]job{}
	for _, t := range prep {
		for _, s := range m.scales() {
			if !m.opt.inBand(s) {
				continue
			}
			r := t.radius * s
			l := 0
			if r > 2*ringMin {
				l = int(math.Floor(math.Log2(r / ringMin)))
			}
			byLevel[l] = append(byLevel[l], job{t, s})
		}
	}
	// at small scales the drawing's strokes may fill a symbol in: it could
	// not be told from a filled area or a thick line, so it is not searched
	for _, t := range prep {
		solid := func(s float64) float64 {
			sz := int(t.radius*s*2) + 8
			buf := newF(sz, sz)
			t.drawPosed(buf, pose{cx: float64(sz / 2), cy: float64(sz / 2), scale: s}, 1, m.sw/2, 0)
			return solidity(buf)
		}
		// a symbol drawn solid (a filled half-disc) is as solid at its
		// largest size: only ink that closes up as it shrinks counts
		native := solid(m.opt.MaxScale)
		t.minScale = m.opt.MaxScale * 2
		for _, s := range m.scales() {
			if v := solid(s); v <= 0.6 || v <= native+0.15 {
				t.minScale = s
				break
			}
		}
	}
	for l, js := range byLevel {
		kept := js[:0]
		for _, j := range js {
			if j.scale >= j.t.minScale {
				kept = append(kept, j)
			}
		}
		byLevel[l] = kept
	}
	levels := make([]int, 0, len(byLevel))
	for l := range byLevel {
		levels = append(levels, l)
	}
	sort.Ints(levels)
	ringPx := ringPixels(ringCount)
	var all []candidate
	var mu sync.Mutex
	total, done := 0, 0
	for _, l := range levels {
		total += len(byLevel[l])
	}
	for _, l := range levels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lv := withoutLongLines(m.level(l), m.longLines(l))
		f := lf(l)
		jobs := byLevel[l]
		// each job's template drawn at its scale, its ring profile and the
		// harmonics of its rings
		type drawn struct {
			n  int
			q  *ringQuery
			th harmDesc
		}
		dr := make([]drawn, len(jobs))
		err := parallel(ctx, len(jobs), func(i int) {
			j := jobs[i]
			r := j.t.radius * j.scale * f
			n := min(int(math.Ceil(r))+1, ringCount)
			size := 2*n + 3
			buf := newF(size, size)
			c := float64(size / 2)
			j.t.drawPosed(buf, pose{cx: c, cy: c, scale: j.scale}, f, m.sw*f/2, 0)
			prof := profile(buf, size/2, size/2, n)
			hi := prof
			if w := j.t.sw * j.scale; w > m.sw {
				thick := newF(size, size)
				j.t.drawPosed(thick, pose{cx: c, cy: c, scale: j.scale}, f, w*f/2, 0)
				hi = profile(thick, size/2, size/2, n)
			}
			dr[i] = drawn{n: n, q: newRingQuery(prof, hi, ringPx[:n], ringThreshold), th: harmonics(buf, size/2, size/2, n)}
		})
		if err != nil {
			return nil, err
		}
		var qs []*ringQuery
		var qjob []int
		for i, d := range dr {
			if d.q != nil {
				qs = append(qs, d.q)
				qjob = append(qjob, i)
			}
		}
		if len(qs) == 0 {
			done += len(jobs)
			continue
		}
		// the rings the queries read, and no more: a level's symbols are
		// 8–16 pixels in radius, so the last ring is rarely read
		rn := 0
		for _, q := range qs {
			rn = max(rn, q.n)
		}
		before := done
		peaks, err := scanRings(ctx, lv, rn, qs, ringPx, func(v float64) {
			m.progress(0.4 * (float64(before) + v*float64(len(jobs))) / float64(total))
		})
		if err != nil {
			return nil, err
		}
		// second rotation-invariant test, at the peaks only: the rings'
		// angular harmonics (candidates on text are dropped first)
		raw := m.level(l)
		var words []bool
		if m.text != nil {
			words = perLevel(m, &m.textMasks, l, func() []bool { return m.text.mask(raw.w, raw.h, f) })
		}
		ink := newInkBits(lv)
		// a pixel's harmonics depend on the pixel and the ring count only,
		// and the queries of a level peak at many of the same pixels (the
		// symbols of one legend look alike to the ring pass): the peaks
		// are taken band of rows by band, each pixel's harmonics computed
		// once per band and ring count
		type peakRef struct{ q, p int32 }
		bands := make([][]peakRef, (lv.h+harmBandRows-1)/harmBandRows)
		for qi := range qs {
			for pi, p := range peaks[qi] {
				b := p.y / harmBandRows
				bands[b] = append(bands[b], peakRef{int32(qi), int32(pi)})
			}
		}
		err = parallel(ctx, len(bands), func(bi int) {
			if len(bands[bi]) == 0 {
				return
			}
			cache := map[int64]*harmDesc{}
			harm := func(x, y, n int) *harmDesc {
				k := int64(y*(lv.w+2)+x+1)*ringCount + int64(n)
				if h, ok := cache[k]; ok {
					return h
				}
				h := ink.harmonics(x, y, n)
				cache[k] = &h
				return &h
			}
			var keep []candidate
			for _, r := range bands[bi] {
				j, d := jobs[qjob[r.q]], dr[qjob[r.q]]
				p := peaks[r.q][r.p]
				if m.text != nil && (m.opt.noText[j.t.idx] && m.text.onText(float64(p.x)/f, float64(p.y)/f, j.t.radius*j.scale) ||
					m.opt.onWords[j.t.idx] > 0 && inkOnWords(raw, words, p.x, p.y, int(math.Round(j.t.radius*j.scale*f))) >= m.opt.onWords[j.t.idx]) {
					m.onText.Add(1)
					continue
				}
				best, bx, by := -1.0, 0, 0
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						if v := harmonicScore(*harm(p.x+dx, p.y+dy, d.n), d.th); v > best {
							best, bx, by = v, p.x+dx, p.y+dy
						}
					}
				}
				if best < harmonicThreshold {
					continue
				}
				keep = append(keep, candidate{t: j.t, x: float64(bx) / f, y: float64(by) / f, scale: j.scale,
					level: l, score: (p.score + best) / 2, radius: j.t.radius * j.scale})
			}
			mu.Lock()
			all = append(all, keep...)
			mu.Unlock()
		})
		if err != nil {
			return nil, err
		}
		done += len(jobs)
	}
	// keep the best candidate per template and neighbourhood
	// (workers appended them in any order: ties are broken by what the
	// candidates are, so that every run keeps the same ones)
	sort.Slice(all, func(a, b int) bool {
		p, q := all[a], all[b]
		switch {
		case p.score != q.score:
			return p.score > q.score
		case p.t.idx != q.t.idx:
			return p.t.idx < q.t.idx
		case p.scale != q.scale:
			return p.scale < q.scale
		case p.y != q.y:
			return p.y < q.y
		}
		return p.x < q.x
	})
	// a candidate is a duplicate of a kept one of its template within
	// 0.35 of the smaller radius and dupScale of its scale: kept
	// candidates are looked up in a grid of cells that size at the
	// largest scale
	type cell struct {
		t    *prepared
		x, y int
	}
	grid := map[cell][]int{}
	cellOf := func(c candidate) (int, int) {
		g := 0.35 * c.t.radius * m.opt.MaxScale
		return int(math.Floor(c.x / g)), int(math.Floor(c.y / g))
	}
	var kept []candidate
	per := map[*prepared]int{}
	for _, c := range all {
		if per[c.t] >= maxCandidates {
			continue
		}
		gx, gy := cellOf(c)
		dup := false
		for dy := -1; dy <= 1 && !dup; dy++ {
			for dx := -1; dx <= 1 && !dup; dx++ {
				for _, i := range grid[cell{c.t, gx + dx, gy + dy}] {
					k := kept[i]
					if max(k.scale/c.scale, c.scale/k.scale) < dupScale && math.Hypot(k.x-c.x, k.y-c.y) < 0.35*min(k.radius, c.radius) {
						dup = true
						break
					}
				}
			}
		}
		if !dup {
			grid[cell{c.t, gx, gy}] = append(grid[cell{c.t, gx, gy}], len(kept))
			kept = append(kept, c)
			per[c.t]++
		}
	}
	return nearBest(kept), nil
}

// bestWindow: a symbol's candidates scoring more than this under its best
// one are dropped (see nearBest).
const bestWindow = 0.2

// nearBest keeps the candidates of each symbol that score within
// bestWindow of its best (cands in falling score order). The instances
// of a symbol on one drawing are drawn alike, so they score alike; what
// scores far under the best is a mark that resembles the symbol somewhat
// (the scores run from 0.55, the two tests' thresholds, to 1). A symbol
// whose best is weak keeps all of its candidates.
func nearBest(cands []candidate) []candidate {
	best := map[*prepared]float64{}
	out := cands[:0]
	for _, c := range cands {
		b, ok := best[c.t]
		if !ok {
			best[c.t], b = c.score, c.score
		}
		if c.score >= b-bestWindow {
			out = append(out, c)
		}
	}
	return out
}

// solidity is the share of a rendered template's ink box that is inked:
// near 1 when its lines run together (drawn at the drawing's stroke width
// it cannot be told from a filled area or a thick line), or when it is
// drawn solid.
func solidity(buf *fimg) float64 {
	x0, y0, x1, y1 := inkBox(buf, 0.5)
	if x1 < 0 {
		return 1
	}
	ink, area := 0.0, 0.0
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			ink += float64(buf.p[y*buf.w+x])
			area++
		}
	}
	return ink / area
}
