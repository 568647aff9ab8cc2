package symbols

import (
	"image"
	"math"
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

// computeRings filters one pyramid level with every ring kernel.
func computeRings(m *fimg, n int) *ringImages {
	src, _ := gocv.NewMatFromBytes(m.h, m.w, gocv.MatTypeCV32F, f32bytes(m.p))
	defer src.Close()
	out := &ringImages{w: m.w, h: m.h}
	for k := 0; k < n; k++ {
		ker := annulusKernel(k)
		dst := gocv.NewMat()
		gocv.Filter2D(src, &dst, -1, ker, image.Pt(-1, -1), 0, gocv.BorderConstant)
		ker.Close()
		vals := make([]float32, m.w*m.h)
		b, _ := dst.DataPtrFloat32()
		copy(vals, b)
		dst.Close()
		out.rings = append(out.rings, vals)
	}
	return out
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

// ringScores compares a template profile p (rings 0..len(p)-1) with every
// pixel of a level and returns local maxima scoring at least minScore. The
// score is the normalised correlation of the ring profiles, less a
// penalty when the ink coverage inside the disk is far from the
// template's: under the coverage of p (drawn at the drawing's stroke
// width), or over that of hi (drawn with strokes as wide as the
// template's own, scaled: a symbol's text and fills grow with it, and a
// large instance carries more ink than its centre lines redrawn thin).
func ringScores(ri *ringImages, p, hi []float64, ringPx []float64, minScore float64, step int) []ringPeak {
	n := len(p)
	mean := 0.0
	for _, v := range p {
		mean += v
	}
	mean /= float64(n)
	pz := make([]float32, n)
	norm := 0.0
	for k, v := range p {
		pz[k] = float32(v - mean)
		norm += (v - mean) * (v - mean)
	}
	if norm < 1e-9 {
		return nil
	}
	norm = math.Sqrt(norm)
	// expected mean coverage in the disk
	area := 0.0
	for k := range p {
		area += ringPx[k]
	}
	diskCov := func(p []float64) float64 {
		tot := 0.0
		for k, v := range p {
			tot += v * ringPx[k]
		}
		return tot / area
	}
	lo, hc := diskCov(p), diskCov(hi)
	w, h := ri.w, ri.h
	score := make([]float32, w*h)
	for y := n; y < h-n; y += step {
		for x := n; x < w-n; x += step {
			i := y*w + x
			var s1, s2, sp, cov float32
			for k := 0; k < n; k++ {
				a := ri.rings[k][i]
				s1 += a
				s2 += a * a
				sp += a * pz[k]
				cov += a * float32(ringPx[k])
			}
			if s1 == 0 {
				continue
			}
			v := float64(s2) - float64(s1)*float64(s1)/float64(n)
			if v <= 1e-9 {
				continue
			}
			sc := float64(sp) / (math.Sqrt(v) * norm)
			c := float64(cov) / area
			r := lo / c
			if c > lo {
				r = c / max(hc, lo)
			}
			if r > 1.6 {
				sc -= (r - 1.6) * 0.5
			}
			score[i] = float32(sc)
		}
	}
	var out []ringPeak
	for y := n; y < h-n; y += step {
		for x := n; x < w-n; x += step {
			v := score[y*w+x]
			if float64(v) < minScore {
				continue
			}
			peak := true
			for dy := -step; dy <= step && peak; dy += step {
				for dx := -step; dx <= step; dx += step {
					if (dx != 0 || dy != 0) && score[(y+dy)*w+x+dx] > v {
						peak = false
						break
					}
				}
			}
			if peak {
				out = append(out, ringPeak{x, y, float64(v)})
			}
		}
	}
	return out
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
func harmonics(m *fimg, cx, cy, n int) [3][]float64 {
	var re1, im1, re2, im2, sum, cnt [ringCount]float64
	for y := max(cy-n, 0); y <= min(cy+n, m.h-1); y++ {
		dy := float64(y - cy)
		for x := max(cx-n, 0); x <= min(cx+n, m.w-1); x++ {
			dx := float64(x - cx)
			k := int(math.Sqrt(dx*dx + dy*dy))
			if k >= n {
				continue
			}
			cnt[k]++
			v := float64(m.p[y*m.w+x])
			if v == 0 || k == 0 {
				continue
			}
			d := math.Sqrt(dx*dx + dy*dy)
			c, s := dx/d, -dy/d
			c2, s2 := c*c-s*s, 2*s*c
			sum[k] += v
			re1[k] += v * c
			im1[k] += v * s
			re2[k] += v * c2
			im2[k] += v * s2
		}
	}
	var out [3][]float64
	for i := range out {
		out[i] = make([]float64, n)
	}
	for k := 0; k < n; k++ {
		if cnt[k] == 0 {
			continue
		}
		out[0][k] = sum[k] / cnt[k]
		out[1][k] = math.Hypot(re1[k], im1[k]) / cnt[k]
		out[2][k] = math.Hypot(re2[k], im2[k]) / cnt[k]
	}
	for i := range out {
		zeroMean(out[i])
	}
	return out
}

// harmonicScore is the mean correlation of two harmonics descriptors.
func harmonicScore(a, b [3][]float64) float64 {
	s := 0.0
	for i := range a {
		for k := range a[i] {
			s += a[i][k] * b[i][k]
		}
	}
	return s / 3
}
