package render

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"image"
	"image/png"
	"io"

	"github.com/klauspost/compress/zlib"
)

// DecodePNG decodes a PNG as image/png does. An 8-bit greyscale,
// non-interlaced PNG (what EncodePNG writes for grey images: every stored
// block and overlay mask) takes a fast path to the same *image.Gray:
// klauspost's inflate, each row read straight into the image's pixels and
// unfiltered there (image/png inflates with the standard library's and
// copies every row out of a scratch row). Anything else goes to
// image/png.
func DecodePNG(r io.Reader) (image.Image, error) {
	return new(GrayDecoder).Decode(r)
}

// DecodePNGBytes is DecodePNG of a PNG held in memory.
func DecodePNGBytes(data []byte) (image.Image, error) {
	return new(GrayDecoder).decode(data)
}

// GrayDecoder decodes PNG after PNG as DecodePNG does, reusing its buffers
// and inflater (a sheet's region read from a few hundred 256 px tiles
// spent more on allocating them than on decoding). The grey image a Decode
// returns is the decoder's own, valid until its next Decode; a
// GrayDecoder is for one goroutine at a time. The zero value is ready.
type GrayDecoder struct {
	data []byte
	rd   bytes.Reader
	zr   io.ReadCloser
	img  *image.Gray
	own  bool // img is reused by the next Decode
}

// Decode reads and decodes one PNG (see GrayDecoder).
func (d *GrayDecoder) Decode(r io.Reader) (image.Image, error) {
	buf := bytes.NewBuffer(d.data[:0])
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	d.data = buf.Bytes()
	d.own = true
	return d.decode(d.data)
}

func (d *GrayDecoder) decode(data []byte) (image.Image, error) {
	hdr := data
	if len(hdr) >= 33 && string(hdr[:8]) == pngSignature && string(hdr[12:16]) == "IHDR" &&
		binary.BigEndian.Uint32(hdr[8:12]) == 13 && hdr[24] == 8 && hdr[25] == 0 && hdr[26] == 0 && hdr[27] == 0 && hdr[28] == 0 {
		d.rd.Reset(data)
		img, err := d.decodeGray()
		switch {
		case err == nil:
			return img, nil
		case err != errOtherPNG:
			return nil, err
		}
	}
	return png.Decode(bytes.NewReader(data))
}

// errOtherPNG: a chunk the fast path does not read (transparency) leaves
// the image to image/png.
var errOtherPNG = errors.New("png: not for the fast path")

const pngSignature = "\x89PNG\r\n\x1a\n"

// decodeGray decodes the 8-bit greyscale non-interlaced PNG in d.rd
// (checked by decode), chunk CRCs and the zlib checksum verified as
// image/png does.
func (d *GrayDecoder) decodeGray() (*image.Gray, error) {
	if _, err := d.rd.Seek(8, io.SeekCurrent); err != nil {
		return nil, err
	}
	idat := &idatReader{r: &d.rd, crc: crc32.NewIEEE()}
	// IHDR, then the chunks before the first IDAT
	typ, data, err := idat.chunk()
	if err != nil {
		return nil, err
	}
	if typ != "IHDR" || len(data) != 13 {
		return nil, pngError("no IHDR")
	}
	w, h := int(binary.BigEndian.Uint32(data[0:4])), int(binary.BigEndian.Uint32(data[4:8]))
	if w <= 0 || h <= 0 || w > 1<<24 || h > 1<<24 || int64(w)*int64(h) > 1<<31 {
		return nil, pngError("bad dimensions")
	}
	for {
		n, t, err := idat.header()
		if err != nil {
			return nil, err
		}
		if t == "IDAT" {
			idat.left = n
			break
		}
		if t == "IEND" {
			return nil, pngError("no IDAT")
		}
		if t == "tRNS" {
			return nil, errOtherPNG
		}
		if err := idat.skip(n); err != nil {
			return nil, err
		}
	}
	if d.zr == nil {
		d.zr, err = zlib.NewReader(idat)
	} else {
		err = d.zr.(zlib.Resetter).Reset(idat, nil)
	}
	if err != nil {
		d.zr = nil
		return nil, fmt.Errorf("png: %w", err)
	}
	zr := d.zr
	var img *image.Gray
	if d.own && d.img != nil && cap(d.img.Pix) >= w*h {
		// every pixel is written below
		img = &image.Gray{Pix: d.img.Pix[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h)}
	} else {
		img = image.NewGray(image.Rect(0, 0, w, h))
	}
	if d.own {
		d.img = img
	}
	var f [1]byte
	var prev []byte
	for y := 0; y < h; y++ {
		cur := img.Pix[y*w : (y+1)*w]
		if _, err := io.ReadFull(zr, f[:]); err != nil {
			return nil, pngData(err)
		}
		if _, err := io.ReadFull(zr, cur); err != nil {
			return nil, pngData(err)
		}
		if err := unfilter(f[0], cur, prev); err != nil {
			return nil, err
		}
		prev = cur
	}
	// the end of the zlib stream (its checksum checked), then the IDATs'
	// last CRC, as image/png reads them
	var extra [1]byte
	if n, err := io.ReadFull(zr, extra[:]); n != 0 || (err != io.EOF && err != io.ErrUnexpectedEOF) {
		if err == nil {
			return nil, pngError("too much pixel data")
		}
		return nil, pngData(err)
	}
	if err := idat.finish(); err != nil {
		return nil, err
	}
	return img, nil
}

func pngError(msg string) error { return errors.New("png: invalid format: " + msg) }

func pngData(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("png: %w", err)
}

// unfilter undoes PNG filter f (one byte a pixel) on row cur, prev being
// the row above (nil for the first).
func unfilter(f byte, cur, prev []byte) error {
	switch f {
	case 0:
	case 1: // Sub
		for i := 1; i < len(cur); i++ {
			cur[i] += cur[i-1]
		}
	case 2: // Up
		if prev != nil {
			upAdd(cur, prev)
		}
	case 3: // Average
		if prev == nil {
			for i := 1; i < len(cur); i++ {
				cur[i] += cur[i-1] / 2
			}
			break
		}
		cur[0] += prev[0] / 2
		for i := 1; i < len(cur); i++ {
			cur[i] += uint8((int(cur[i-1]) + int(prev[i])) / 2)
		}
	case 4: // Paeth
		if prev == nil {
			// a, c = left, 0; b = 0: Paeth is the left pixel
			for i := 1; i < len(cur); i++ {
				cur[i] += cur[i-1]
			}
			break
		}
		cur[0] += prev[0]
		for i := 1; i < len(cur); i++ {
			cur[i] += paeth(cur[i-1], prev[i], prev[i-1])
		}
	default:
		return pngError("bad filter type")
	}
	return nil
}

// paeth is PNG's Paeth predictor of left a, above b and upper left c.
func paeth(a, b, c uint8) uint8 {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	if pa <= pb && pa <= pc {
		return a
	} else if pb <= pc {
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// upAdd adds prev to cur byte by byte (mod 256), eight bytes at a time
// (upFilter's inverse): the low seven bits of each byte added apart from
// the top bits, so no carry crosses into the next byte.
func upAdd(cur, prev []byte) {
	const hi = 0x8080808080808080
	le := binary.LittleEndian
	i := 0
	for ; i+8 <= len(cur); i += 8 {
		a, b := le.Uint64(cur[i:]), le.Uint64(prev[i:])
		if b == 0 {
			continue
		}
		le.PutUint64(cur[i:], ((a&^hi)+(b&^hi))^((a^b)&hi))
	}
	for ; i < len(cur); i++ {
		cur[i] += prev[i]
	}
}

// idatReader reads the data of consecutive IDAT chunks as one stream,
// checking each chunk's CRC.
type idatReader struct {
	r    *bytes.Reader
	crc  hash.Hash32
	left uint32 // bytes of the current IDAT not read yet
	done bool   // a chunk other than IDAT followed: next, its length and type
	next struct {
		n uint32
		t string
	}
}

// finish reads what follows the pixel data up to IEND, checking the
// chunks' CRCs (image/png's errors for a truncated file).
func (d *idatReader) finish() error {
	if !d.done {
		if err := d.skip(d.left); err != nil {
			return err
		}
		n, t, err := d.header()
		if err != nil {
			return err
		}
		d.next.n, d.next.t = n, t
	}
	for n, t := d.next.n, d.next.t; ; {
		if err := d.skip(n); err != nil {
			return err
		}
		if t == "IEND" {
			return nil
		}
		var err error
		if n, t, err = d.header(); err != nil {
			return err
		}
	}
}

// header reads a chunk's length and type (its CRC begun).
func (d *idatReader) header() (uint32, string, error) {
	var b [8]byte
	if _, err := io.ReadFull(d.r, b[:]); err != nil {
		return 0, "", pngData(err)
	}
	n := binary.BigEndian.Uint32(b[:4])
	if n > 0x7fffffff {
		return 0, "", pngError("chunk too long")
	}
	d.crc.Reset()
	d.crc.Write(b[4:8])
	return n, string(b[4:8]), nil
}

// chunk reads a whole small chunk.
func (d *idatReader) chunk() (string, []byte, error) {
	n, t, err := d.header()
	if err != nil {
		return "", nil, err
	}
	if n > 1<<20 {
		return "", nil, pngError("chunk too long")
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(d.r, data); err != nil {
		return "", nil, pngData(err)
	}
	d.crc.Write(data)
	return t, data, d.checkCRC()
}

// skip reads the rest of a chunk (n bytes) and its CRC.
func (d *idatReader) skip(n uint32) error {
	var buf [4096]byte
	for n > 0 {
		k := min(int(n), len(buf))
		if _, err := io.ReadFull(d.r, buf[:k]); err != nil {
			return pngData(err)
		}
		d.crc.Write(buf[:k])
		n -= uint32(k)
	}
	d.left = 0
	return d.checkCRC()
}

func (d *idatReader) checkCRC() error {
	var b [4]byte
	if _, err := io.ReadFull(d.r, b[:]); err != nil {
		return pngData(err)
	}
	if binary.BigEndian.Uint32(b[:]) != d.crc.Sum32() {
		return pngError("invalid checksum")
	}
	return nil
}

func (d *idatReader) Read(p []byte) (int, error) {
	for d.left == 0 {
		if d.done {
			return 0, io.EOF
		}
		if err := d.checkCRC(); err != nil {
			return 0, err
		}
		n, t, err := d.header()
		if err != nil {
			return 0, err
		}
		if t != "IDAT" {
			// the pixel data ended before the stream did
			d.done = true
			d.next.n, d.next.t = n, t
			return 0, io.EOF
		}
		d.left = n
	}
	n, err := d.r.Read(p[:min(len(p), int(d.left))])
	d.crc.Write(p[:n])
	d.left -= uint32(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}
