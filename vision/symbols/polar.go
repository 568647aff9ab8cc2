package symbols

import (
	"math"
	"sync"
)

const (
	polarRadial  = 12
	polarAngular = 72
)

// polar bins a level image's coverage around (cx, cy) within radius r into
// polarRadial × polarAngular cells (angle counter-clockwise on screen).
func polar(lv *fimg, cx, cy, r float64) []float64 {
	lut := polarLUT(int(math.Round(r)))
	sum := make([]float64, polarRadial*polarAngular)
	ix, iy := int(math.Round(cx)), int(math.Round(cy))
	for _, c := range lut.cells {
		sum[c.bin] += float64(lv.at(ix+int(c.dx), iy+int(c.dy)))
	}
	for i := range sum {
		if lut.count[i] > 0 {
			sum[i] /= lut.count[i]
		}
	}
	zeroMean(sum)
	return sum
}

type polarCell struct {
	dx, dy int16
	bin    int32
}

type polarTable struct {
	cells []polarCell
	count []float64
}

var polarLUTs sync.Map // radius → *polarTable

func polarLUT(r int) *polarTable {
	r = max(r, 2)
	if t, ok := polarLUTs.Load(r); ok {
		return t.(*polarTable)
	}
	t := &polarTable{count: make([]float64, polarRadial*polarAngular)}
	rf := float64(r)
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			d := math.Hypot(float64(x), float64(y))
			if d >= rf || d < 0.15*rf {
				continue
			}
			j := int((d - 0.15*rf) / (0.85 * rf) * polarRadial)
			a := math.Atan2(-float64(y), float64(x))
			if a < 0 {
				a += 2 * math.Pi
			}
			k := int(a/(2*math.Pi)*polarAngular) % polarAngular
			bin := j*polarAngular + k
			t.cells = append(t.cells, polarCell{int16(x), int16(y), int32(bin)})
			t.count[bin]++
		}
	}
	v, _ := polarLUTs.LoadOrStore(r, t)
	return v.(*polarTable)
}

func zeroMean(v []float64) {
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	n := 0.0
	for i := range v {
		v[i] -= mean
		n += v[i] * v[i]
	}
	if n = math.Sqrt(n); n > 0 {
		for i := range v {
			v[i] /= n
		}
	}
}

// bestShift correlates two polar histograms over all rotations and
// returns the best angle (radians) and its correlation. The angular
// profiles summed over radius pick a few shifts; the full histograms
// decide among them.
func bestShift(plan, tm []float64) (float64, float64) {
	const n = polarAngular
	// the plan's profile twice over, so that a shifted index needs no
	// remainder
	var pa [2 * n]float64
	var ta [n]float64
	for j := 0; j < polarRadial; j++ {
		for a := 0; a < n; a++ {
			pa[a] += plan[j*n+a]
			ta[a] += tm[j*n+a]
		}
	}
	copy(pa[n:], pa[:n])
	coarse := make([]float64, n)
	for s := 0; s < n; s++ {
		v := 0.0
		for a, t := range ta {
			v += pa[a+s] * t
		}
		coarse[s] = v
	}
	best, bv := 0, math.Inf(-1)
	var tried [n]bool
	for _, s0 := range topK(coarse, 4) {
		for d := -1; d <= 1; d++ {
			s := (s0 + d + n) % n
			if tried[s] {
				continue
			}
			tried[s] = true
			v := 0.0
			for j := 0; j < polarRadial; j++ {
				pr, tr := plan[j*n:(j+1)*n], tm[j*n:(j+1)*n]
				for a := 0; a < n-s; a++ {
					v += pr[a+s] * tr[a]
				}
				for a := n - s; a < n; a++ {
					v += pr[a+s-n] * tr[a]
				}
			}
			if v > bv {
				best, bv = s, v
			}
		}
	}
	return float64(best) * 2 * math.Pi / n, bv
}

// polarTemplate is the polar histogram of t drawn at the given scale
// and mirror image on level l (r: its radius there), made once per
// matcher: every candidate of a template and scale starts from it.
func (m *matcher) polarTemplate(t *prepared, scale float64, l int, flip bool, r float64) []float64 {
	type key struct {
		t     *prepared
		scale float64
		l     int
		flip  bool
	}
	k := key{t, scale, l, flip}
	if v, ok := m.polars.Load(k); ok {
		return v.([]float64)
	}
	f := lf(l)
	size := int(2*r) + 5
	buf := newF(size, size)
	mid := float64(size / 2)
	t.drawPosed(buf, pose{cx: mid, cy: mid, scale: scale, flip: flip}, f, m.sw*f/2, 0)
	v, _ := m.polars.LoadOrStore(k, polar(buf, mid, mid, r))
	return v.([]float64)
}
