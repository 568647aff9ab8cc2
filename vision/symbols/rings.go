package symbols

import (
	"context"
	"image"
	"iter"
	"math"
	"math/bits"
	"slices"
	"sync"
	"unsafe"

	"gocv.io/x/gocv"
)

// Ring features make the first, rotation-invariant pass: around every
// pixel, the mean ink in concentric one-pixel rings. A symbol's ring
// profile does not change when it turns, so one comparison per pixel and
// scale replaces a search over angles. Each template scale is compared at
// the pyramid level where its radius is ringMin..2·ringMin pixels.
const ringMin = 8

// ringCount is the number of rings computed per level.
const ringCount = 2*ringMin + 2

// ringImages holds A_k: the mean coverage of ring k (pixels whose distance
// from the centre rounds down to k) around every pixel of one level.
type ringImages struct {
	w, h  int
	rings [][]float32
	// cols are the column ranges [x0, x1) filtered, in order; elsewhere
	// the rings are 0 (paper)
	cols [][2]int
}

func annulusKernel(k int) gocv.Mat {
	n := 2*k + 1
	vals := make([]float32, n*n)
	cnt := 0
	for y := -k; y <= k; y++ {
		for x := -k; x <= k; x++ {
			if int(math.Sqrt(float64(x*x+y*y))) == k {
				vals[(y+k)*n+x+k] = 1
				cnt++
			}
		}
	}
	for i := range vals {
		vals[i] /= float32(cnt)
	}
	m, _ := gocv.NewMatFromBytes(n, n, gocv.MatTypeCV32F, f32bytes(vals))
	return m
}

func f32bytes(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*4)
}

// ringTileCols is the width of the column tiles computeRings looks for
// ink in: a tile with none within the kernels' reach has rings of 0 and is
// not filtered (on a real plan, about half of them).
const ringTileCols = 256

// computeRings filters one pyramid level (or a band of its rows) with the
// first n ring kernels. Runs of column tiles with ink within the kernels'
// reach are filtered, each with n columns of the level on either side
// (the kernels reach n-1): their rings are those of the whole level. The
// rest is paper and its rings are 0.
func computeRings(m *fimg, n int) *ringImages {
	out := &ringImages{w: m.w, h: m.h, rings: make([][]float32, n)}
	type run struct {
		x0, x1, c0 int // rings made for columns x0..x1-1, from columns c0..
		src        gocv.Mat
	}
	var runs []run
	for tx := 0; tx < m.w; tx += ringTileCols {
		x1 := min(tx+ringTileCols, m.w)
		if !m.anyInk(max(tx-n, 0), min(x1+n, m.w)) {
			continue
		}
		if l := len(runs) - 1; l >= 0 && runs[l].x1 == tx {
			runs[l].x1 = x1
		} else {
			runs = append(runs, run{x0: tx, x1: x1})
		}
	}
	for i := range runs {
		r := &runs[i]
		r.c0 = max(r.x0-n, 0)
		cw := min(r.x1+n, m.w) - r.c0
		p := make([]float32, cw*m.h)
		for y := range m.h {
			copy(p[y*cw:(y+1)*cw], m.p[y*m.w+r.c0:])
		}
		r.src, _ = gocv.NewMatFromBytes(m.h, cw, gocv.MatTypeCV32F, f32bytes(p))
	}
	_ = parallel(context.Background(), n, func(k int) {
		ring := make([]float32, m.w*m.h)
		ker := annulusKernel(k)
		defer ker.Close()
		dst := gocv.NewMat()
		defer dst.Close()
		for _, r := range runs {
			gocv.Filter2D(r.src, &dst, -1, ker, image.Pt(-1, -1), 0, gocv.BorderConstant)
			b, _ := dst.DataPtrFloat32()
			cw := r.src.Cols()
			for y := range m.h {
				copy(ring[y*m.w+r.x0:y*m.w+r.x1], b[y*cw+r.x0-r.c0:])
			}
		}
		out.rings[k] = ring
	})
	for _, r := range runs {
		r.src.Close()
		out.cols = append(out.cols, [2]int{r.x0, r.x1})
	}
	return out
}

// anyInk tells whether columns x0..x1-1 of m hold any ink.
func (m *fimg) anyInk(x0, x1 int) bool {
	for y := range m.h {
		for _, v := range m.p[y*m.w+x0 : y*m.w+x1] {
			if v != 0 {
				return true
			}
		}
	}
	return false
}

// profile computes a template rendering's ring means around (cx, cy).
func profile(m *fimg, cx, cy, n int) []float64 {
	sum := make([]float64, n)
	cnt := make([]float64, n)
	for y := max(cy-n, 0); y <= min(cy+n, m.h-1); y++ {
		for x := max(cx-n, 0); x <= min(cx+n, m.w-1); x++ {
			dx, dy := x-cx, y-cy
			k := int(math.Sqrt(float64(dx*dx + dy*dy)))
			if k < n {
				sum[k] += float64(m.p[y*m.w+x])
				cnt[k]++
			}
		}
	}
	for k := range sum {
		if cnt[k] > 0 {
			sum[k] /= cnt[k]
		}
	}
	return sum
}

// ringPeak is a candidate from the ring pass, in level pixels.
type ringPeak struct {
	x, y  int
	score float64
}

// ringQuery is a template profile p (rings 0..len(p)-1) to compare with
// every pixel of a level. The score is the normalised correlation of the
// ring profiles, less a penalty when the ink coverage inside the disk is
// far from the template's: under the coverage of p (drawn at the
// drawing's stroke width), or over that of hi (drawn with strokes as wide
// as the template's own, scaled: a symbol's text and fills grow with it,
// and a large instance carries more ink than its centre lines redrawn
// thin).
type ringQuery struct {
	n        int
	pz       []float32 // the profile less its mean
	norm     float64
	lo, hc   float64 // disk coverage of p and of hi
	area     float64 // pixels in the disk
	minScore float64
	// a pixel whose disk coverage is outside cMin..cMax cannot score
	// minScore: its coverage penalty alone takes more than 1 - minScore
	// off a correlation of at most 1 (see scanRings)
	cMin, cMax float64
}

// Disk coverage: a pixel whose disk holds more than coverRatio times the
// ink of the symbol's (redrawn with its own stroke width when that is
// heavier, hc) or less than 1/coverRatio of it (lo) loses coverPenalty of
// its score for each unit of the ratio beyond.
const (
	coverRatio   = 1.6
	coverPenalty = 0.5
)

// newRingQuery prepares a profile for scanRings; nil when it is flat.
func newRingQuery(p, hi, ringPx []float64, minScore float64) *ringQuery {
	n := len(p)
	mean := 0.0
	for _, v := range p {
		mean += v
	}
	mean /= float64(n)
	q := &ringQuery{n: n, pz: make([]float32, n), minScore: minScore}
	for k, v := range p {
		q.pz[k] = float32(v - mean)
		q.norm += (v - mean) * (v - mean)
	}
	if q.norm < 1e-9 {
		return nil
	}
	q.norm = math.Sqrt(q.norm)
	for k := range p {
		q.area += ringPx[k]
	}
	diskCov := func(p []float64) float64 {
		tot := 0.0
		for k, v := range p {
			tot += v * ringPx[k]
		}
		return tot / q.area
	}
	q.lo, q.hc = diskCov(p), diskCov(hi)
	// the ratio past which the penalty alone, on a correlation of 1 (and
	// a little more, for float32 sums), falls under minScore
	rMax := coverRatio + (1-minScore)/coverPenalty + 1e-4
	q.cMin, q.cMax = q.lo/rMax, max(q.hc, q.lo)*rMax
	return q
}

// ringBandRows is how many rows of a level scanRings scores at a time.
const ringBandRows = 16

var bandBufs, bandBufs32 sync.Pool // []float64, []float32

// bandBuf returns a slice of length n from pool (put it back after); it
// holds what it held before.
func bandBuf[T float32 | float64](pool *sync.Pool, n int) []T {
	if v, ok := pool.Get().([]T); ok && cap(v) >= n {
		return v[:n]
	}
	return make([]T, n)
}

// ringChunkRows is how many rows of a level scanRings filters with the
// ring kernels at a time (a whole number of bands).
const ringChunkRows = 8 * ringBandRows

// scanRings scores every query at every pixel of level lv, with rn rings
// (at least every query's), and returns, per query, the local maxima
// scoring at least its minScore (row-major order). The level is scored in
// bands of rows: a pixel's ring sums, their squares and its disk coverage
// are the same for every query of as many rings, so they are computed once
// per pixel and ring count; each query then adds only its profile's
// correlation. The ring images are made for a chunk of bands at a time
// (with rn rows more on either side, which the kernels reach), so memory
// follows the chunk, not the level: 18 float images of a whole 4,700 px
// tile took 1.6 GB. done(f) reports the share of the level scored.
func scanRings(ctx context.Context, lv *fimg, rn int, qs []*ringQuery, ringPx []float64, done func(float64)) ([][]ringPeak, error) {
	w, h := lv.w, lv.h
	// the ring counts in use, and each query's index among them
	var ns []int
	for _, q := range qs {
		if !slices.Contains(ns, q.n) {
			ns = append(ns, q.n)
		}
	}
	slices.Sort(ns) // the sums grow ring by ring
	slot := make([]int, len(qs))
	for i, q := range qs {
		slot[i] = slices.Index(ns, q.n)
	}
	type hit struct {
		i     int32
		score float32
	}
	bands := (h + ringBandRows - 1) / ringBandRows
	found := make([][][]hit, bands) // band → query → hits
	var mu sync.Mutex
	scored := 0
	// scoreBand scores band b from the rings of a chunk whose first row is
	// level row m0
	scoreBand := func(b int, ri *ringImages, m0 int) {
		y0, y1 := b*ringBandRows, min((b+1)*ringBandRows, h)
		np := (y1 - y0) * w
		// only the columns filtered are read: elsewhere every ring is 0, a
		// flat profile that no query scores
		// per ring count in use and pixel: the profile's spread (0: flat
		// or empty) and the disk coverage (set where the spread is not 0)
		sd, cv := bandBuf[float64](&bandBufs, len(ns)*np), bandBuf[float64](&bandBufs, len(ns)*np)
		defer bandBufs.Put(sd)
		defer bandBufs.Put(cv)
		// the band's rings, a pixel's side by side
		ab := bandBuf[float32](&bandBufs32, np*rn)
		defer bandBufs32.Put(ab)
		for k, ring := range ri.rings {
			for y := y0; y < y1; y++ {
				for _, c := range ri.cols {
					o := (y-y0)*w + c[0]
					for _, v := range ring[(y-m0)*w+c[0] : (y-m0)*w+c[1]] {
						ab[o*rn+k] = v
						o++
					}
				}
			}
		}
		for o := range filtered(ri.cols, w, 0, y1-y0, 0) {
			a := ab[o*rn : o*rn+rn]
			var s1, s2, cov float32
			k := 0
			for j, n := range ns {
				for ; k < n; k++ {
					s1 += a[k]
					s2 += a[k] * a[k]
					cov += a[k] * float32(ringPx[k])
				}
				if s1 == 0 {
					sd[j*np+o] = 0
					continue
				}
				v := float64(s2) - float64(s1)*float64(s1)/float64(n)
				if v <= 1e-9 {
					sd[j*np+o] = 0
					continue
				}
				sd[j*np+o] = math.Sqrt(v)
				cv[j*np+o] = float64(cov)
			}
		}
		out := make([][]hit, len(qs))
		for qi, q := range qs {
			n, pz := q.n, q.pz
			if y1 <= n || y0 >= h-n {
				continue
			}
			sds, cvs := sd[slot[qi]*np:], cv[slot[qi]*np:]
			for o := range filtered(ri.cols, w, max(y0, n)-y0, min(y1, h-n)-y0, n) {
				i := o + y0*w
				c := cvs[o] / q.area
				if sds[o] == 0 || c < q.cMin || c > q.cMax {
					continue
				}
				a := ab[o*rn : o*rn+n]
				var sp float32
				for k, v := range a {
					sp += v * pz[k]
				}
				if sp <= 0 {
					continue
				}
				sc := float64(sp) / (sds[o] * q.norm)
				r := q.lo / c
				if c > q.lo {
					r = c / max(q.hc, q.lo)
				}
				if r > coverRatio {
					sc -= (r - coverRatio) * coverPenalty
				}
				if s := float32(sc); float64(s) >= q.minScore {
					out[qi] = append(out[qi], hit{int32(i), s})
				}
			}
		}
		found[b] = out
		if done != nil {
			mu.Lock()
			scored++
			done(float64(scored) / float64(bands))
			mu.Unlock()
		}
	}
	for c0 := 0; c0 < h; c0 += ringChunkRows {
		c1 := min(c0+ringChunkRows, h)
		m0, m1 := max(c0-rn, 0), min(c1+rn, h)
		ri := computeRings(&fimg{w: w, h: m1 - m0, p: lv.p[m0*w : m1*w]}, rn)
		b0 := c0 / ringBandRows
		err := parallel(ctx, (c1-c0+ringBandRows-1)/ringBandRows, func(bi int) {
			scoreBand(b0+bi, ri, m0)
		})
		if err != nil {
			return nil, err
		}
	}
	// local maxima: a neighbour under the threshold scores lower than any
	// hit, so only neighbouring hits need comparing
	peaks := make([][]ringPeak, len(qs))
	for qi := range qs {
		var all []hit
		for b := range found {
			all = append(all, found[b][qi]...)
		}
		score := make(map[int32]float32, len(all))
		for _, e := range all {
			score[e.i] = e.score
		}
		for _, e := range all {
			x, y := int(e.i)%w, int(e.i)/w
			peak := true
			for dy := -1; dy <= 1 && peak; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if v, ok := score[int32((y+dy)*w+x+dx)]; ok && (dx != 0 || dy != 0) && v > e.score {
						peak = false
						break
					}
				}
			}
			if peak {
				peaks[qi] = append(peaks[qi], ringPeak{x, y, float64(e.score)})
			}
		}
	}
	return peaks, nil
}

// filtered yields, row by row, the offsets y·w+x of rows y0..y1-1 and
// the columns x of cols (ranges [x0, x1) in order) at least m from either
// side of a w wide image.
func filtered(cols [][2]int, w, y0, y1, m int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for y := y0; y < y1; y++ {
			for _, c := range cols {
				for x := max(c[0], m); x < min(c[1], w-m); x++ {
					if !yield(y*w + x) {
						return
					}
				}
			}
		}
	}
}

// ringPixels counts pixels per ring for rings 0..n-1.
func ringPixels(n int) []float64 {
	out := make([]float64, n)
	for y := -n; y <= n; y++ {
		for x := -n; x <= n; x++ {
			if k := int(math.Sqrt(float64(x*x + y*y))); k < n {
				out[k]++
			}
		}
	}
	return out
}

// harmonics describes the neighbourhood of (cx, cy) in a way that does not
// change when it turns or is mirrored: per ring, the mean ink and the
// magnitudes of its first two angular Fourier components (how lopsided
// and how elongated the ring's ink is).
func harmonics(m *fimg, cx, cy, n int) harmDesc {
	var h harmSums
	const r = ringCount
	for y := max(cy-n, 0); y <= min(cy+n, m.h-1); y++ {
		base := (y-cy+r)*(2*r+1) + r - cx
		px := m.p[y*m.w:]
		for x := max(cx-n, 0); x <= min(cx+n, m.w-1); x++ {
			e := &harmLUT[base+x]
			k := int(e.k)
			if k >= n {
				continue
			}
			h.cnt[k]++
			if v := float64(px[x]); v != 0 && k != 0 {
				h.add(k, v, e)
			}
		}
	}
	return h.desc(n)
}

// inkBits marks a level's pixels that hold ink (non-zero), 64 to a word,
// row by row with a spare word at each row's end, so that harmonics can
// step from ink pixel to ink pixel: around the ring pass's peaks most of
// a window is paper.
type inkBits struct {
	m      *fimg
	stride int // words per row
	bits   []uint64
}

func newInkBits(m *fimg) *inkBits {
	b := &inkBits{m: m, stride: m.w/64 + 2}
	b.bits = make([]uint64, b.stride*m.h)
	for y := range m.h {
		row := b.bits[y*b.stride:]
		for x, v := range m.p[y*m.w : (y+1)*m.w] {
			if v != 0 {
				row[x>>6] |= 1 << (x & 63)
			}
		}
	}
	return b
}

// ringArea[k] is the number of pixels of ring k (harmonics' cnt of a
// window inside the image).
var ringArea = ringPixels(ringCount)

// harmonics is harmonics(b.m, cx, cy, n), the same bit for bit: a window
// inside the level reads only its ink pixels, in the same order (so the
// sums add up alike), its ring sizes from ringArea.
func (b *inkBits) harmonics(cx, cy, n int) harmDesc {
	m := b.m
	if cx < n || cy < n || cx+n >= m.w || cy+n >= m.h {
		return harmonics(m, cx, cy, n)
	}
	var h harmSums
	copy(h.cnt[:n], ringArea[:n])
	const r = ringCount
	x0, nb := cx-n, uint(2*n+1)
	wi, sh := x0>>6, uint(x0&63)
	for y := cy - n; y <= cy+n; y++ {
		row := b.bits[y*b.stride+wi:]
		word := (row[0]>>sh | row[1]<<(64-sh)) & (1<<nb - 1)
		base := (y-cy+r)*(2*r+1) + r - cx
		px := m.p[y*m.w:]
		for word != 0 {
			x := x0 + bits.TrailingZeros64(word)
			word &= word - 1
			e := &harmLUT[base+x]
			k := int(e.k)
			if k >= n || k == 0 {
				continue
			}
			h.add(k, float64(px[x]), e)
		}
	}
	return h.desc(n)
}

// harmSums are harmonics' per-ring sums: ink, its first two angular
// Fourier components (real, imaginary) and pixels.
type harmSums struct{ sum, re1, im1, re2, im2, cnt [ringCount]float64 }

// add counts ink v at offset e of ring k (the one accumulation both
// harmonics functions share, so their sums agree bit for bit).
func (h *harmSums) add(k int, v float64, e *harmOffset) {
	h.sum[k] += v
	h.re1[k] += v * e.c
	h.im1[k] += v * e.s
	h.re2[k] += v * e.c2
	h.im2[k] += v * e.s2
}

// desc turns the first n rings' sums into the descriptor.
func (h harmSums) desc(n int) harmDesc {
	out := harmDesc{n: n}
	var tot [3]float64
	for k := 0; k < n; k++ {
		if h.cnt[k] == 0 {
			continue
		}
		out.v[0][k] = h.sum[k] / h.cnt[k]
		out.v[1][k] = math.Hypot(h.re1[k], h.im1[k]) / h.cnt[k]
		out.v[2][k] = math.Hypot(h.re2[k], h.im2[k]) / h.cnt[k]
		for i := range tot {
			tot[i] += out.v[i][k]
		}
	}
	for i := range out.v {
		if tot[0] > 0 {
			out.strength[i] = tot[i] / tot[0]
		}
		zeroMean(out.v[i][:n])
	}
	return out
}

// harmOffset is what harmonics needs of a pixel at an offset from the
// centre: its ring and the cosine and sine of its angle and of twice it.
type harmOffset struct {
	k            int32
	c, s, c2, s2 float64
}

// harmLUT holds harmOffset for every offset within ringCount of the
// centre, row by row (2·ringCount+1 wide), computed once.
var harmLUT = func() []harmOffset {
	const r = ringCount
	t := make([]harmOffset, (2*r+1)*(2*r+1))
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			fx, fy := float64(dx), float64(dy)
			d := math.Sqrt(fx*fx + fy*fy)
			e := harmOffset{k: int32(d)}
			if d > 0 {
				c, s := fx/d, -fy/d
				e.c, e.s, e.c2, e.s2 = c, s, c*c-s*s, 2*s*c
			}
			t[(dy+r)*(2*r+1)+dx+r] = e
		}
	}
	return t
}()

// harmDesc is a neighbourhood's harmonics descriptor: per ring, the mean
// ink and the magnitudes of the first two angular components, each less
// its mean and normalised; strength is each component's total over the
// mean ink's before that (0 for a component the neighbourhood lacks).
type harmDesc struct {
	n        int // rings
	v        [3][ringCount]float64
	strength [3]float64
}

// harmonicFlat is the strength under which a template's angular component
// is mostly noise: a square's or a circle's first two (their ink is as
// heavy on every side and along every axis). Normalised, its noise
// correlated at random with the plan's (a ceiling diffuser's true centres
// scored 0.27–0.53 against the 0.4 threshold), so such a component counts
// in proportion to its strength.
const harmonicFlat = 0.15

// harmonicScore compares a plan neighbourhood's descriptor with a
// template's: the correlations of the three components, averaged with
// weights from the template's strengths (the mean ink counts fully, an
// angular component as far as the template has it).
func harmonicScore(plan, tm harmDesc) float64 {
	s, wt := 0.0, 0.0
	for i := range tm.v {
		w := 1.0
		if i > 0 {
			w = min(1, tm.strength[i]/harmonicFlat)
		}
		c := 0.0
		for k := range tm.n {
			c += plan.v[i][k] * tm.v[i][k]
		}
		s += w * c
		wt += w
	}
	return s / wt
}
