package render

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
	"sync"

	"github.com/klauspost/compress/zlib"
)

var zlibWriters sync.Pool // *zlib.Writer at BestSpeed

// encodeGrayPNG writes an 8-bit greyscale PNG. image/png tries five
// filters on every row and uses the standard library's deflate; drawings are
// mostly white, where the "Up" filter alone already turns rows into zeros,
// and klauspost's deflate at its fastest level is several times quicker.
func encodeGrayPNG(w io.Writer, img *image.Gray) error {
	b := img.Bounds()
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.WriteString("\x89PNG\r\n\x1a\n"); err != nil {
		return err
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(b.Dx()))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(b.Dy()))
	ihdr[8], ihdr[9] = 8, 0 // bit depth 8, greyscale; compression, filter and interlace methods 0
	if err := writeChunk(bw, "IHDR", ihdr[:]); err != nil {
		return err
	}
	cw := &chunkWriter{w: bw, typ: "IDAT", buf: make([]byte, 0, 1<<18)}
	// a compressor's tables are large: thousands of tiles share a few
	zw, _ := zlibWriters.Get().(*zlib.Writer)
	if zw == nil {
		var err error
		if zw, err = zlib.NewWriterLevel(cw, zlib.BestSpeed); err != nil {
			return err
		}
	} else {
		zw.Reset(cw)
	}
	defer zlibWriters.Put(zw)
	width := b.Dx()
	row := make([]byte, 1+width)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		cur := img.Pix[img.PixOffset(b.Min.X, y):][:width]
		if y == b.Min.Y {
			row[0] = 0 // None
			copy(row[1:], cur)
		} else {
			prev := img.Pix[img.PixOffset(b.Min.X, y-1):][:width]
			row[0] = 2 // Up
			upFilter(row[1:], cur, prev)
		}
		if _, err := zw.Write(row); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
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
