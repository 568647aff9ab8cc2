package render

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
)

var flateWriters sync.Pool // *flate.Writer at BestSpeed: a compressor's tables are large

// adler is an Adler-32 checksum being computed; it starts as adler{a: 1}.
type adler struct{ a, b uint32 }

const adlerMod = 65521

func (s *adler) update(p []byte) {
	a, b := s.a, s.b
	// 5552 bytes is the most that cannot overflow the sums before the
	// remainder (zlib's NMAX)
	for len(p) > 0 {
		q := p[:min(len(p), 5552)]
		p = p[len(q):]
		for len(q) >= 8 {
			a += uint32(q[0])
			b += a
			a += uint32(q[1])
			b += a
			a += uint32(q[2])
			b += a
			a += uint32(q[3])
			b += a
			a += uint32(q[4])
			b += a
			a += uint32(q[5])
			b += a
			a += uint32(q[6])
			b += a
			a += uint32(q[7])
			b += a
			q = q[8:]
		}
		for _, c := range q {
			a += uint32(c)
			b += a
		}
		a %= adlerMod
		b %= adlerMod
	}
	s.a, s.b = a, b
}

// zeros adds n zero bytes: the first sum stays, the second grows by n
// times it.
func (s *adler) zeros(n int) {
	s.b = uint32((uint64(s.b) + uint64(n)%adlerMod*uint64(s.a)) % adlerMod)
}

func (s *adler) sum32() uint32 { return s.b<<16 | s.a }

// encodeGrayPNG writes an 8-bit greyscale PNG. image/png tries five
// filters on every row and uses the standard library's deflate; drawings are
// mostly white, where the "Up" filter alone already turns rows into zeros,
// and klauspost's deflate at its fastest level is several times quicker.
func encodeGrayPNG(w io.Writer, img *image.Gray) error {
	b := img.Bounds()
	width := b.Dx()
	return encodeRowsPNG(w, width, b.Dy(), pngGrey, func(y int, _ []byte) []byte {
		return img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):][:width]
	})
}

// encodeOpaqueRGBAPNG writes an opaque RGBA image as an 8-bit RGB PNG
// (no alpha channel), as encodeGrayPNG writes grey ones; runs of white
// pixels are copied eight at a time (a compare overlay's combined image is
// mostly paper).
func encodeOpaqueRGBAPNG(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width := b.Dx()
	const white = ^uint64(0)
	le := binary.LittleEndian
	return encodeRowsPNG(w, width, b.Dy(), pngRGB, func(y int, dst []byte) []byte {
		src := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):][:4*width]
		for x := 0; x < width; x++ {
			// eight white pixels (most of a drawing) at once
			if x+8 <= width {
				s := src[4*x : 4*x+32]
				if le.Uint64(s)&le.Uint64(s[8:])&le.Uint64(s[16:])&le.Uint64(s[24:]) == white {
					d := dst[3*x : 3*x+24]
					le.PutUint64(d, white)
					le.PutUint64(d[8:], white)
					le.PutUint64(d[16:], white)
					x += 7
					continue
				}
			}
			dst[3*x], dst[3*x+1], dst[3*x+2] = src[4*x], src[4*x+1], src[4*x+2]
		}
		return dst
	})
}

// PNG colour types and their bytes per pixel (8 bits per sample), and a
// paletted type's palette (PLTE: R, G, B a colour).
type pngColour struct {
	typ, bpp byte
	plte     []byte
}

var (
	pngGrey = pngColour{typ: 0, bpp: 1}
	pngRGB  = pngColour{typ: 2, bpp: 3}
)

// encodeRowsPNG writes a width × height PNG of colour c whose row y the
// function row returns (its bytes, in a scratch row of the right length it
// may fill, or a slice of its own it must not change until the next call
// but one). Each row is filtered "Up" (a row equal to the one above is
// all zeros), compressed by klauspost's deflate at its fastest level.
func encodeRowsPNG(w io.Writer, width, height int, c pngColour, row func(y int, scratch []byte) []byte) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.WriteString("\x89PNG\r\n\x1a\n"); err != nil {
		return err
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, c.typ // bit depth 8; compression, filter and interlace methods 0
	if err := writeChunk(bw, "IHDR", ihdr[:]); err != nil {
		return err
	}
	if c.plte != nil {
		if err := writeChunk(bw, "PLTE", c.plte); err != nil {
			return err
		}
	}
	cw := &chunkWriter{w: bw, typ: "IDAT", buf: make([]byte, 0, 1<<18)}
	// zlib: a two-byte header, deflate, the Adler-32 of the data. The
	// checksum is kept here rather than by a zlib writer: most rows of a
	// drawing repeat the row above (paper), so their filtered bytes are all
	// zero, and a run of zeros moves the checksum in one step.
	if _, err := cw.Write([]byte{0x78, 0x01}); err != nil {
		return err
	}
	zw, _ := flateWriters.Get().(*flate.Writer)
	if zw == nil {
		var err error
		if zw, err = flate.NewWriter(cw, flate.BestSpeed); err != nil {
			return err
		}
	} else {
		zw.Reset(cw)
	}
	defer flateWriters.Put(zw)
	sum := adler{a: 1}
	n := width * int(c.bpp)
	out := make([]byte, 1+n)
	zero := make([]byte, 1+n)
	zero[0] = 2 // Up
	scratch := [2][]byte{make([]byte, n), make([]byte, n)}
	var prev []byte
	for y := 0; y < height; y++ {
		cur := row(y, scratch[y&1])
		filtered := out
		switch {
		case y == 0:
			out[0] = 0 // None
			copy(out[1:], cur)
			sum.update(out)
		case bytes.Equal(cur, prev):
			filtered = zero
			sum.update(zero[:1])
			sum.zeros(n)
		default:
			out[0] = 2 // Up
			upFilter(out[1:], cur, prev)
			sum.update(out)
		}
		if _, err := zw.Write(filtered); err != nil {
			return err
		}
		prev = cur
	}
	if err := zw.Close(); err != nil {
		return err
	}
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], sum.sum32())
	if _, err := cw.Write(tail[:]); err != nil {
		return err
	}
	if err := cw.flush(); err != nil {
		return err
	}
	if err := writeChunk(bw, "IEND", nil); err != nil {
		return err
	}
	return bw.Flush()
}

// upFilter sets out to cur - prev byte by byte (mod 256), eight bytes at a
// time: each byte's difference is taken with its top bit set aside, so no
// borrow crosses into the next byte, and the top bit is put back after.
func upFilter(out, cur, prev []byte) {
	const hi = 0x8080808080808080
	le := binary.LittleEndian
	i := 0
	for ; i+8 <= len(cur); i += 8 {
		a, b := le.Uint64(cur[i:]), le.Uint64(prev[i:])
		le.PutUint64(out[i:], ((a|hi)-(b&^hi))^((a^^b)&hi))
	}
	for ; i < len(cur); i++ {
		out[i] = cur[i] - prev[i]
	}
}

func writeChunk(w io.Writer, typ string, data []byte) error {
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[:4], uint32(len(data)))
	copy(hdr[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(hdr[4:])
	crc.Write(data)
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc.Sum32())
	for _, p := range [][]byte{hdr[:], data, sum[:]} {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// chunkWriter cuts a stream into chunks of typ of at most cap(buf) bytes.
type chunkWriter struct {
	w   io.Writer
	typ string
	buf []byte
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), cap(c.buf)-len(c.buf))
		c.buf = append(c.buf, p[:k]...)
		p = p[k:]
		if len(c.buf) == cap(c.buf) {
			if err := c.flush(); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

func (c *chunkWriter) flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	err := writeChunk(c.w, c.typ, c.buf)
	c.buf = c.buf[:0]
	return err
}
