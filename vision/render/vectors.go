package render

/*
#include "mupdf.h"
#include "vectors.h"
*/
import "C"

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"github.com/plangraph/plangraph/vision/vector"
)

// VectorSource is a Document whose pages can be read as geometry (PDF).
type VectorSource interface {
	// Vectors returns page i's marks in the pixels of its render.
	Vectors(ctx context.Context, i int) (*vector.Page, error)
}

// MaxVectorFloats caps the record of one page (4 bytes each): a page of
// more marks is kept up to the cap and marked truncated.
var MaxVectorFloats = 48 << 20

// Vectors records page i's paths, glyphs and images at the document's DPI,
// in the same pixels as Render's image.
func (p *pdfDoc) Vectors(ctx context.Context, i int) (*vector.Page, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, err := p.size(i)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	C.pg_set_abort(p.d, 0)
	p.d.budget.refused = 0
	aborted := make(chan struct{})
	d := p.d
	stop := context.AfterFunc(ctx, func() { C.pg_set_abort(d, 1); close(aborted) })
	var buf *C.float
	var n C.size_t
	var trunc C.int
	rc := C.pg_vectors(p.d, C.int(i), C.float(float64(s.dpi)/72), C.size_t(MaxVectorFloats), &buf, &n, &trunc)
	if !stop() {
		<-aborted
	}
	defer C.free(unsafe.Pointer(buf))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if rc != 1 {
		return nil, errorf(CodeCorruptFile, "page %d cannot be read: %s", i+1, cleanMsg(C.GoString(&p.d.msg[0])))
	}
	var fs []float32
	if n > 0 {
		fs = unsafe.Slice((*float32)(unsafe.Pointer(buf)), int(n))
	}
	pg, err := decodeVectorRecord(fs)
	if err != nil {
		return nil, fmt.Errorf("render: page %d: %w", i+1, err)
	}
	pg.W, pg.H, pg.DPI = s.w, s.h, s.dpi
	pg.Truncated = pg.Truncated || trunc != 0
	return pg, nil
}

// decodeVectorRecord reads the device's float stream (vectors.h). A record
// cut short by the size cap ends the page, marked truncated.
func decodeVectorRecord(fs []float32) (*vector.Page, error) {
	pg := &vector.Page{}
	i := 0
	need := func(k int) bool { return i+k <= len(fs) }
	for i < len(fs) {
		tag := fs[i]
		i++
		switch tag {
		case C.PG_VEC_PATH:
			if !need(8) {
				pg.Truncated = true
				return pg, nil
			}
			pa := vector.Path{
				Flags: uint8(fs[i]), Grey: fs[i+1], Alpha: fs[i+2], Width: fs[i+3],
				Clip: vector.Rect{X0: fs[i+4], Y0: fs[i+5], X1: fs[i+6], Y1: fs[i+7]},
				Cmd0: int32(len(pg.Cmds)), Pt0: int32(len(pg.Pts)),
			}
			i += 8
			done := false
			for !done {
				if !need(1) {
					pg.Truncated = true
					return pg, nil
				}
				cmd := fs[i]
				i++
				k := 0
				switch cmd {
				case C.PG_CMD_MOVE:
					k = 1
				case C.PG_CMD_LINE:
					k = 1
				case C.PG_CMD_CURVE:
					k = 3
				case C.PG_CMD_CLOSE:
				case C.PG_CMD_END:
					done = true
					continue
				default:
					return nil, fmt.Errorf("vector record: bad path command %v", cmd)
				}
				if !need(2 * k) {
					pg.Truncated = true
					return pg, nil
				}
				pg.Cmds = append(pg.Cmds, vector.Cmd(cmd))
				for j := 0; j < k; j++ {
					pg.Pts = append(pg.Pts, vector.Point{X: fs[i], Y: fs[i+1]})
					i += 2
				}
			}
			pa.Cmd1 = int32(len(pg.Cmds))
			if pa.Cmd1 > pa.Cmd0 {
				pg.Paths = append(pg.Paths, pa)
			}
		case C.PG_VEC_GLYPH:
			if !need(13) {
				pg.Truncated = true
				return pg, nil
			}
			g := vector.Glyph{
				Rune: rune(fs[i]), A: fs[i+1], B: fs[i+2], C: fs[i+3], D: fs[i+4], E: fs[i+5], F: fs[i+6],
				Adv: fs[i+7], Box: vector.Rect{X0: fs[i+8], Y0: fs[i+9], X1: fs[i+10], Y1: fs[i+11]}, Grey: fs[i+12],
			}
			i += 13
			if g.Rune < 0 || g.Rune > math.MaxInt32 {
				g.Rune = 0xFFFD
			}
			pg.Glyphs = append(pg.Glyphs, g)
		case C.PG_VEC_IMAGE:
			if !need(8) {
				pg.Truncated = true
				return pg, nil
			}
			var q [4]vector.Point
			for j := range q {
				q[j] = vector.Point{X: fs[i+2*j], Y: fs[i+2*j+1]}
			}
			i += 8
			pg.Images = append(pg.Images, q)
		case C.PG_VEC_SHADE:
			if !need(4) {
				pg.Truncated = true
				return pg, nil
			}
			pg.Shades = append(pg.Shades, vector.Rect{X0: fs[i], Y0: fs[i+1], X1: fs[i+2], Y1: fs[i+3]})
			i += 4
		default:
			return nil, fmt.Errorf("vector record: bad tag %v at %d", tag, i-1)
		}
	}
	return pg, nil
}

// Vectors reads page i of d as geometry when d is a PDF; ok is false for
// raster documents.
func Vectors(ctx context.Context, d Document, i int) (pg *vector.Page, ok bool, err error) {
	vs, ok := d.(VectorSource)
	if !ok {
		return nil, false, nil
	}
	pg, err = vs.Vectors(ctx, i)
	return pg, true, err
}
