package compare

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"
	"unsafe"

	"gocv.io/x/gocv"

	"github.com/plangraph/plangraph/vision/geom"
)

// This file holds the glue between Go images and OpenCV: Mats that share a
// Go image's pixels (no copy), shrunk copies for the coarse levels, the
// affine maps between the frames, and the float "ink" images that
// registration correlates.
//
// Coordinates. Transform, boxes and vector geometry use the continuous
// pixel frame of the rest of the project: pixel (i, j) covers
// [i, i+1) × [j, j+1), so its centre is (i+0.5, j+0.5). OpenCV's warps use
// pixel centres at integers. A level shrunk by an integer factor f covers
// f × f full pixels per pixel, so x_full = f·x_level in the continuous
// frame. affine.cv does the conversions in one place.

// contiguous returns img, or a copy of it, with its rows back to back and
// its origin at (0, 0), as a Mat view needs.
func contiguous(img *image.Gray) *image.Gray {
	b := img.Bounds()
	if b.Min == (image.Point{}) && img.Stride == b.Dx() && len(img.Pix) >= b.Dx()*b.Dy() {
		return img
	}
	out := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		copy(out.Pix[y*b.Dx():(y+1)*b.Dx()], img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):])
	}
	return out
}

// rowsView is a CV_8U Mat sharing rows [y0, y1) of a contiguous image's
// pixels: OpenCV reads them and, as a destination of the right size and
// type, writes them in place. The caller closes it.
func rowsView(img *image.Gray, y0, y1 int) gocv.Mat {
	w := img.Rect.Dx()
	m, err := gocv.NewMatFromBytes(y1-y0, w, gocv.MatTypeCV8U, img.Pix[y0*w:y1*w])
	if err != nil { // only for an empty slice, which callers never pass
		panic(fmt.Sprintf("compare: view of rows %d..%d: %v", y0, y1, err))
	}
	return m
}

// view is a Mat sharing all of a contiguous image's pixels.
func view(img *image.Gray) gocv.Mat { return rowsView(img, 0, img.Rect.Dy()) }

// rgbaRowsView is a CV_8UC4 Mat sharing rows [y0, y1) of an RGBA image.
func rgbaRowsView(img *image.RGBA, y0, y1 int) gocv.Mat {
	w := img.Rect.Dx()
	m, err := gocv.NewMatFromBytes(y1-y0, w, gocv.MatTypeCV8UC4, img.Pix[y0*w*4:y1*w*4])
	if err != nil {
		panic(fmt.Sprintf("compare: view of rows %d..%d: %v", y0, y1, err))
	}
	return m
}

// matGray copies a CV_8U Mat into a new Go image.
func matGray(m gocv.Mat) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, m.Cols(), m.Rows()))
	dst := view(out)
	defer dst.Close()
	m.CopyTo(&dst)
	return out
}

// shrink returns src reduced by the integer factor f by area averaging:
// level pixel (i, j) is the mean of full pixels [f·i, f·i+f) × [f·j, f·j+f),
// so the level's continuous frame is the full one divided by f exactly.
// The last partial row and column of blocks are left out. f = 1 copies.
func shrink(src gocv.Mat, f int) gocv.Mat {
	w, h := src.Cols()/f, src.Rows()/f
	out := gocv.NewMat()
	if f == 1 {
		src.CopyTo(&out)
		return out
	}
	roi := src.Region(image.Rect(0, 0, w*f, h*f))
	defer roi.Close()
	gocv.Resize(roi, &out, image.Pt(max(w, 1), max(h, 1)), 0, 0, gocv.InterpolationArea)
	return out
}

// inkFloat returns a grey CV_8U Mat as CV_32F ink: 1 for black, 0 for
// paper, so that paper and the zero padding of correlations agree.
func inkFloat(src gocv.Mat) gocv.Mat {
	out := gocv.NewMat()
	src.ConvertToWithParams(&out, gocv.MatTypeCV32F, -1.0/255, 1)
	return out
}

// hann is a w × h Hann window (CV_32F), cached by size: correlations weigh
// a patch's centre and fade its edges so that the cut does not correlate.
func hann(w, h int) gocv.Mat {
	key := [2]int{w, h}
	if m, ok := hannCache.Load(key); ok {
		return m.(gocv.Mat)
	}
	buf := make([]float32, w*h)
	wx, wy := hann1(w), hann1(h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			buf[y*w+x] = float32(wx[x] * wy[y])
		}
	}
	m, _ := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV32F, f32bytes(buf))
	c := m.Clone() // owned by OpenCV, kept for the process's life
	m.Close()
	if prev, loaded := hannCache.LoadOrStore(key, c); loaded {
		c.Close()
		return prev.(gocv.Mat)
	}
	return c
}

var hannCache sync.Map // [2]int → gocv.Mat

func hann1(n int) []float64 {
	out := make([]float64, n)
	if n == 1 {
		out[0] = 1
		return out
	}
	for i := range out {
		out[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n-1))
	}
	return out
}

// f32bytes reinterprets a float32 slice as bytes (for Mat views).
func f32bytes(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*4)
}

// white is the border colour of warps: paper.
var white = color.RGBA{255, 255, 255, 255}

// affine is a 2-D affine map x' = A·x + B·y + C, y' = D·x + E·y + F.
type affine [6]float64

// affineOf is t as an affine map (continuous frame).
func affineOf(t Transform) affine {
	s, c := math.Sincos(t.RotationDeg * math.Pi / 180)
	return affine{t.Scale * c, -t.Scale * s, t.Tx, t.Scale * s, t.Scale * c, t.Ty}
}

// then is the map "m, then n".
func (m affine) then(n affine) affine {
	return affine{
		n[0]*m[0] + n[1]*m[3], n[0]*m[1] + n[1]*m[4], n[0]*m[2] + n[1]*m[5] + n[2],
		n[3]*m[0] + n[4]*m[3], n[3]*m[1] + n[4]*m[4], n[3]*m[2] + n[4]*m[5] + n[5],
	}
}

func (m affine) apply(x, y float64) (float64, float64) {
	return m[0]*x + m[1]*y + m[2], m[3]*x + m[4]*y + m[5]
}

// levelMap is the affine map, in OpenCV's pixel-centre convention, from
// the pixels of A shrunk by fa (less the origin oa of a region cut out of
// it) to the pixels of B shrunk by fb (less the origin ob): what warpAffine
// needs to draw A's level (or a part of it) in B's level frame (or a part).
func levelMap(t Transform, fa float64, oa image.Point, fb float64, ob image.Point) affine {
	in := affine{fa, 0, fa * (0.5 + float64(oa.X)), 0, fa, fa * (0.5 + float64(oa.Y))}
	out := affine{1 / fb, 0, -0.5 - float64(ob.X), 0, 1 / fb, -0.5 - float64(ob.Y)}
	return in.then(affineOf(t)).then(out)
}

// mat is m as the 2 × 3 CV_64F Mat warpAffine takes. The caller closes it.
func (m affine) mat() gocv.Mat {
	out := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	for i, v := range m {
		out.SetDoubleAt(i/3, i%3, v)
	}
	return out
}

// warp draws src through m into a w × h destination, paper outside src.
func warp(src gocv.Mat, dst *gocv.Mat, m affine, w, h int) {
	mm := m.mat()
	defer mm.Close()
	gocv.WarpAffineWithParams(src, dst, mm, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderConstant, white)
}

// boxOf is the box of a w × h image (continuous frame).
func boxOf(w, h int) geom.Box { return geom.Box{XMax: float64(w), YMax: float64(h)} }
