package vector

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The stored form of a page: a header and the page's arrays, little
// endian, compressed with zstd.
var magic = [4]byte{'P', 'G', 'V', '1'}

// ErrFormat is returned for bytes that are not an encoded page.
var ErrFormat = errors.New("vector: not an encoded page")

// maxItems bounds every count read back (a corrupt or hostile blob must not
// make the reader allocate without limit).
const maxItems = 1 << 27

var (
	encOnce sync.Once
	enc     *zstd.Encoder
	decOnce sync.Once
	dec     *zstd.Decoder
)

// Encode writes p in the stored form.
func (p *Page) Encode(w io.Writer) error {
	var b bytes.Buffer
	le := binary.LittleEndian
	put32 := func(v uint32) { b.Write(le.AppendUint32(nil, v)) }
	putF := func(f float32) { put32(math.Float32bits(f)) }
	putRect := func(r Rect) { putF(r.X0); putF(r.Y0); putF(r.X1); putF(r.Y1) }
	b.Write(magic[:])
	put32(uint32(p.W))
	put32(uint32(p.H))
	put32(uint32(p.DPI))
	tr := uint32(0)
	if p.Truncated {
		tr = 1
	}
	put32(tr)
	for _, n := range []int{len(p.Paths), len(p.Cmds), len(p.Pts), len(p.Glyphs), len(p.Images), len(p.Shades)} {
		put32(uint32(n))
	}
	for _, pa := range p.Paths {
		b.WriteByte(pa.Flags)
		putF(pa.Grey)
		putF(pa.Alpha)
		putF(pa.Width)
		putRect(pa.Clip)
		put32(uint32(pa.Cmd0))
		put32(uint32(pa.Cmd1))
		put32(uint32(pa.Pt0))
	}
	for _, c := range p.Cmds {
		b.WriteByte(byte(c))
	}
	for _, q := range p.Pts {
		putF(q.X)
		putF(q.Y)
	}
	for _, g := range p.Glyphs {
		put32(uint32(g.Rune))
		for _, f := range []float32{g.A, g.B, g.C, g.D, g.E, g.F, g.Adv} {
			putF(f)
		}
		putRect(g.Box)
		putF(g.Grey)
	}
	for _, q := range p.Images {
		for _, c := range q {
			putF(c.X)
			putF(c.Y)
		}
	}
	for _, r := range p.Shades {
		putRect(r)
	}
	encOnce.Do(func() {
		enc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	})
	_, err := w.Write(enc.EncodeAll(b.Bytes(), nil))
	return err
}

// Decode reads a page in the stored form.
func Decode(data []byte) (*Page, error) {
	decOnce.Do(func() { dec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(4<<30)) })
	raw, err := dec.DecodeAll(data, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	r := &reader{b: raw}
	var m [4]byte
	copy(m[:], r.take(4))
	if r.err != nil || m != magic {
		return nil, ErrFormat
	}
	p := &Page{W: int(r.u32()), H: int(r.u32()), DPI: int(r.u32()), Truncated: r.u32() != 0}
	var n [6]int
	for i := range n {
		n[i] = int(r.u32())
		if n[i] > maxItems {
			return nil, ErrFormat
		}
	}
	// every count must fit in what is left before anything is allocated
	need := n[0]*41 + n[1] + n[2]*8 + n[3]*52 + n[4]*32 + n[5]*16
	if r.err != nil || need > len(r.b)-r.i {
		return nil, ErrFormat
	}
	p.Paths = make([]Path, n[0])
	for i := range p.Paths {
		pa := &p.Paths[i]
		pa.Flags = r.take(1)[0]
		pa.Grey, pa.Alpha, pa.Width = r.f32(), r.f32(), r.f32()
		pa.Clip = r.rect()
		pa.Cmd0, pa.Cmd1, pa.Pt0 = int32(r.u32()), int32(r.u32()), int32(r.u32())
	}
	p.Cmds = make([]Cmd, n[1])
	for i, c := range r.take(n[1]) {
		p.Cmds[i] = Cmd(c)
	}
	p.Pts = make([]Point, n[2])
	for i := range p.Pts {
		p.Pts[i] = Point{r.f32(), r.f32()}
	}
	p.Glyphs = make([]Glyph, n[3])
	for i := range p.Glyphs {
		g := &p.Glyphs[i]
		g.Rune = rune(r.u32())
		g.A, g.B, g.C, g.D, g.E, g.F, g.Adv = r.f32(), r.f32(), r.f32(), r.f32(), r.f32(), r.f32(), r.f32()
		g.Box = r.rect()
		g.Grey = r.f32()
	}
	p.Images = make([][4]Point, n[4])
	for i := range p.Images {
		for j := range p.Images[i] {
			p.Images[i][j] = Point{r.f32(), r.f32()}
		}
	}
	p.Shades = make([]Rect, n[5])
	for i := range p.Shades {
		p.Shades[i] = r.rect()
	}
	if r.err != nil {
		return nil, ErrFormat
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// check refuses a page whose paths point outside its arrays.
func (p *Page) check() error {
	for i, pa := range p.Paths {
		if pa.Cmd0 < 0 || pa.Cmd1 < pa.Cmd0 || int(pa.Cmd1) > len(p.Cmds) || pa.Pt0 < 0 {
			return fmt.Errorf("%w: path %d", ErrFormat, i)
		}
		n := 0
		for _, c := range p.Cmds[pa.Cmd0:pa.Cmd1] {
			switch c {
			case MoveTo, LineTo:
				n++
			case CurveTo:
				n += 3
			case Close:
			default:
				return fmt.Errorf("%w: path %d", ErrFormat, i)
			}
		}
		if int(pa.Pt0)+n > len(p.Pts) {
			return fmt.Errorf("%w: path %d", ErrFormat, i)
		}
	}
	return nil
}

type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || r.i+n > len(r.b) {
		r.err = ErrFormat
		return make([]byte, max(n, 0))
	}
	s := r.b[r.i : r.i+n]
	r.i += n
	return s
}

func (r *reader) u32() uint32  { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *reader) f32() float32 { return math.Float32frombits(r.u32()) }
func (r *reader) rect() Rect   { return Rect{r.f32(), r.f32(), r.f32(), r.f32()} }
