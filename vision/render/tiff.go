package render

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"os"

	"golang.org/x/image/tiff"
)

// golang.org/x/image/tiff decodes only the first image (IFD) of a file.
// For page i we walk the IFD chain ourselves, then give the decoder a view
// of the file whose 8-byte header points at IFD i: the header is a patched
// copy, every other byte is read from the file as it is.

// tiffFile is a classic (32-bit offset) TIFF's layout.
type tiffFile struct {
	r     io.ReaderAt
	size  int64
	order binary.ByteOrder
	head  [8]byte
	first int64
}

// tiffIFD is what we need of one image file directory.
type tiffIFD struct {
	off     int64
	w, h    int
	dpi     int  // 0: not recorded
	reduced bool // NewSubfileType bit 0: a thumbnail or overview, not a page
}

var errBigTIFF = errorf(CodeUnsupportedType, "BigTIFF files are not supported; save the file as classic TIFF, PDF or PNG")

func readTIFFHeader(r io.ReaderAt, size int64) (*tiffFile, error) {
	t := &tiffFile{r: r, size: size}
	if _, err := r.ReadAt(t.head[:], 0); err != nil {
		return nil, errorf(CodeCorruptFile, "the TIFF header is truncated")
	}
	switch string(t.head[:2]) {
	case "II":
		t.order = binary.LittleEndian
	case "MM":
		t.order = binary.BigEndian
	default:
		return nil, errorf(CodeCorruptFile, "the file is not a TIFF")
	}
	switch t.order.Uint16(t.head[2:4]) {
	case 42:
	case 43:
		return nil, errBigTIFF
	default:
		return nil, errorf(CodeCorruptFile, "the file is not a TIFF")
	}
	t.first = int64(t.order.Uint32(t.head[4:8]))
	return t, nil
}

// readIFD reads the directory at off and returns it with the offset of the
// next one (0 at the end of the chain).
func (t *tiffFile) readIFD(off int64) (tiffIFD, int64, error) {
	ifd := tiffIFD{off: off}
	if off < 8 || off > t.size-2 {
		return ifd, 0, errorf(CodeCorruptFile, "a TIFF directory offset points outside the file")
	}
	var nb [2]byte
	if _, err := t.r.ReadAt(nb[:], off); err != nil {
		return ifd, 0, errorf(CodeCorruptFile, "a TIFF directory is truncated")
	}
	n := int64(t.order.Uint16(nb[:]))
	if n == 0 {
		return ifd, 0, errorf(CodeCorruptFile, "a TIFF directory is empty")
	}
	buf := make([]byte, 12*n+4)
	if _, err := t.r.ReadAt(buf, off+2); err != nil {
		return ifd, 0, errorf(CodeCorruptFile, "a TIFF directory is truncated")
	}
	unit := uint32(2) // ResolutionUnit default: inch
	var xres float64
	for e := range n {
		ent := buf[12*e : 12*e+12]
		tag, typ, cnt := t.order.Uint16(ent[0:2]), t.order.Uint16(ent[2:4]), t.order.Uint32(ent[4:8])
		if cnt == 0 {
			continue
		}
		val := func() uint32 { // first SHORT or LONG value, stored inline
			switch typ {
			case 3:
				return uint32(t.order.Uint16(ent[8:10]))
			case 4:
				return t.order.Uint32(ent[8:12])
			}
			return 0
		}
		switch tag {
		case 254: // NewSubfileType
			ifd.reduced = val()&1 != 0
		case 256:
			ifd.w = int(val())
		case 257:
			ifd.h = int(val())
		case 282: // XResolution, RATIONAL stored at an offset
			if typ == 5 {
				var rb [8]byte
				if _, err := t.r.ReadAt(rb[:], int64(t.order.Uint32(ent[8:12]))); err == nil {
					num, den := t.order.Uint32(rb[:4]), t.order.Uint32(rb[4:])
					if den != 0 {
						xres = float64(num) / float64(den)
					}
				}
			}
		case 296:
			unit = val()
		}
	}
	switch unit {
	case 2:
		ifd.dpi = plausibleDPI(xres)
	case 3:
		ifd.dpi = plausibleDPI(xres * 2.54)
	}
	next := int64(t.order.Uint32(buf[12*n:]))
	return ifd, next, nil
}

type tiffDoc struct {
	lockedFile
	t     *tiffFile
	lim   Limits
	pages []tiffIFD
}

func openTIFF(f *os.File, size int64, lim Limits) (Document, error) {
	t, err := readTIFFHeader(f, size)
	if err != nil {
		return nil, err
	}
	pages, err := t.pages(lim.MaxPages)
	if err != nil {
		return nil, err
	}
	return &tiffDoc{lockedFile: lockedFile{f: f}, t: t, lim: lim, pages: pages}, nil
}

// pages walks the IFD chain without decoding any image. It stops with
// TOO_MANY_PAGES as soon as there are more than maxPages pages, so a
// million-page file costs as much as maxPages+1 directories.
func (t *tiffFile) pages(maxPages int) ([]tiffIFD, error) {
	var pages, reduced []tiffIFD
	seen := map[int64]bool{}
	for off := t.first; off != 0; {
		if seen[off] {
			return nil, errorf(CodeCorruptFile, "the TIFF's directories form a loop")
		}
		seen[off] = true
		if len(seen) > 4*maxPages+16 {
			return nil, errorf(CodeTooManyPages, "the TIFF has more than %d images; the limit is %d pages", 4*maxPages+16, maxPages)
		}
		ifd, next, err := t.readIFD(off)
		if err != nil {
			if len(pages) > 0 {
				// A damaged link after good pages: keep what is readable?
				// No: a drawing set that silently lost sheets is worse.
				return nil, errorf(CodeCorruptFile, "the TIFF is damaged after page %d: %s", len(pages), errorMessage(err))
			}
			return nil, err
		}
		if ifd.w <= 0 || ifd.h <= 0 {
			return nil, errorf(CodeCorruptFile, "TIFF image %d has no width or height", len(seen))
		}
		if ifd.reduced {
			reduced = append(reduced, ifd)
		} else {
			pages = append(pages, ifd)
			if len(pages) > maxPages {
				return nil, errorf(CodeTooManyPages, "the TIFF has more than %d pages; the limit is %d", maxPages, maxPages)
			}
		}
		off = next
	}
	if len(pages) == 0 {
		pages = reduced // only overviews: better than nothing
	}
	if len(pages) == 0 {
		return nil, errorf(CodeNoPages, "the TIFF has no images")
	}
	if len(pages) > maxPages {
		return nil, errorf(CodeTooManyPages, "the TIFF has more than %d pages; the limit is %d", maxPages, maxPages)
	}
	return pages, nil
}

func (d *tiffDoc) Pages() int { return len(d.pages) }

func (d *tiffDoc) PageSize(i int) (int, int, int, error) {
	if err := checkIndex(i, len(d.pages)); err != nil {
		return 0, 0, 0, err
	}
	p := d.pages[i]
	dpi := p.dpi
	if dpi == 0 {
		dpi = DefaultDPI
	}
	return p.w, p.h, dpi, nil
}

// pageView is the file as the decoder should see it for one page.
type pageView struct {
	r    io.ReaderAt
	head [8]byte
}

func (v *pageView) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("render: negative offset")
	}
	n := 0
	if off < int64(len(v.head)) {
		n = copy(p, v.head[off:])
		if n == len(p) {
			return n, nil
		}
		off += int64(n)
	}
	m, err := v.r.ReadAt(p[n:], off)
	return n + m, err
}

func (d *tiffDoc) view(i int) io.Reader {
	v := &pageView{r: d.f, head: d.t.head}
	d.t.order.PutUint32(v.head[4:8], uint32(d.pages[i].off))
	return io.NewSectionReader(v, 0, d.t.size)
}

func (d *tiffDoc) Render(i int) (*image.Gray, error) {
	return d.RenderContext(context.Background(), i)
}

func (d *tiffDoc) RenderContext(ctx context.Context, i int) (*image.Gray, error) {
	w, h, dpi, err := d.PageSize(i)
	if err != nil {
		return nil, err
	}
	if int64(w)*int64(h) > d.lim.MaxPixels {
		return nil, pageTooLarge(i, w, h, dpi, d.lim)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.f == nil {
		return nil, fmt.Errorf("render: document is closed")
	}
	what := fmt.Sprintf("page %d of the TIFF", i+1)
	var cfg image.Config
	err = safely(what, func() (err error) {
		cfg, err = tiff.DecodeConfig(d.view(i))
		return err
	})
	if err = decodeErr(what, err); err != nil {
		return nil, err
	}
	if cfg.Width != w || cfg.Height != h {
		return nil, errorf(CodeCorruptFile, "%s has inconsistent dimensions", what)
	}
	if err := checkPixels(i, w, h, dpi, int64(w)*int64(h)*int64(bytesPerPixel(cfg.ColorModel)), d.lim); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var img image.Image
	err = safely(what, func() (err error) {
		img, err = tiff.Decode(d.view(i))
		return err
	})
	if err = decodeErr(what, err); err != nil {
		return nil, err
	}
	return toGray(img), nil
}
