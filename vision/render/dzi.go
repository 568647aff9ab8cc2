package render

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math/bits"
	"runtime"
	"sync"
)

// DZI defaults for the web viewer (OpenSeadragon).
const (
	DZITileSize = 256
	DZIOverlap  = 1
	DZIFormat   = "png"
)

// DZILevels is the number of levels of a Deep Zoom pyramid for a w × h
// image: levels 0..ceil(log2(max(w,h))), level L being
// ceil(w/2^(max-L)) × ceil(h/2^(max-L)).
func DZILevels(w, h int) int {
	return bits.Len(uint(max(w, h, 1)-1)) + 1
}

// DZILevelSize is the size of level L of a w × h image's pyramid.
func DZILevelSize(w, h, level int) (int, int) {
	shift := DZILevels(w, h) - 1 - level
	div := 1 << shift
	return (w + div - 1) / div, (h + div - 1) / div
}

// WriteDZI makes the Deep Zoom tile pyramid of src. It calls put for each
// tile, named "{level}/{col}_{row}.{format}" (store them under
// "NAME_files/" next to the descriptor "NAME.dzi"), and returns the
// descriptor XML. format is "png" or "jpg".
//
// Levels are made by successive 2× area-average reductions, each from the
// one above, so besides src at most two reduced levels (1/4 and 1/16 of its
// size) are alive at once. Tiles are encoded and put by a pool of
// GOMAXPROCS goroutines; put may be called concurrently and owns the data
// it receives. The first error from put or ctx stops the work and is
// returned.
func WriteDZI(ctx context.Context, src *image.Gray, tileSize, overlap int, format string,
	put func(ctx context.Context, name string, data []byte) error) (descriptor []byte, err error) {
	return writeDZI(ctx, grayLevel{src}, tileSize, overlap, format, put)
}

// WriteDZIColor is WriteDZI for a colour image (an overlay's red and green
// picture).
func WriteDZIColor(ctx context.Context, src *image.RGBA, tileSize, overlap int, format string,
	put func(ctx context.Context, name string, data []byte) error) (descriptor []byte, err error) {
	return writeDZI(ctx, rgbaLevel{src}, tileSize, overlap, format, put)
}

// dziLevel is a level of a pyramid, grey or colour.
type dziLevel interface {
	Bounds() image.Rectangle
	sub(r image.Rectangle) dziLevel
	halve() dziLevel
	// flat reports whether every pixel is one value, and which
	flat() (uint32, bool)
	encode(buf *bytes.Buffer, format string) error
}

type grayLevel struct{ *image.Gray }

func (g grayLevel) sub(r image.Rectangle) dziLevel { return grayLevel{g.SubImage(r).(*image.Gray)} }
func (g grayLevel) halve() dziLevel                { return grayLevel{Halve(g.Gray)} }
func (g grayLevel) flat() (uint32, bool) {
	v, ok := uniform(g.Gray)
	return uint32(v), ok
}
func (g grayLevel) encode(buf *bytes.Buffer, format string) error {
	if format == "png" {
		return EncodePNG(buf, g.Gray)
	}
	return jpeg.Encode(buf, g.Gray, &jpeg.Options{Quality: 85})
}

type rgbaLevel struct{ *image.RGBA }

func (c rgbaLevel) sub(r image.Rectangle) dziLevel { return rgbaLevel{c.SubImage(r).(*image.RGBA)} }
func (c rgbaLevel) halve() dziLevel                { return rgbaLevel{halveRGBA(c.RGBA)} }
func (c rgbaLevel) flat() (uint32, bool) {
	b := c.Rect
	if b.Empty() {
		return 0, false
	}
	first := binary.LittleEndian.Uint32(c.Pix[c.PixOffset(b.Min.X, b.Min.Y):])
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := c.Pix[c.PixOffset(b.Min.X, y):][:4*b.Dx()]
		for i := 0; i < len(row); i += 4 {
			if binary.LittleEndian.Uint32(row[i:]) != first {
				return 0, false
			}
		}
	}
	return first, true
}
func (c rgbaLevel) encode(buf *bytes.Buffer, format string) error {
	if format == "png" {
		return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(buf, c.RGBA)
	}
	return jpeg.Encode(buf, c.RGBA, &jpeg.Options{Quality: 85})
}

// halveRGBA is Halve for a colour image: each pixel the mean of a 2 × 2
// block (of what there is at an odd edge).
func halveRGBA(src *image.RGBA) *image.RGBA {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	w, h := (sw+1)/2, (sh+1)/2
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sum [4]uint32
			n := uint32(0)
			for dy := 0; dy < 2 && 2*y+dy < sh; dy++ {
				for dx := 0; dx < 2 && 2*x+dx < sw; dx++ {
					o := src.PixOffset(b.Min.X+2*x+dx, b.Min.Y+2*y+dy)
					for k := range 4 {
						sum[k] += uint32(src.Pix[o+k])
					}
					n++
				}
			}
			o := out.PixOffset(x, y)
			for k := range 4 {
				out.Pix[o+k] = uint8((sum[k] + n/2) / n)
			}
		}
	}
	return out
}

func writeDZI(ctx context.Context, src dziLevel, tileSize, overlap int, format string,
	put func(ctx context.Context, name string, data []byte) error) (descriptor []byte, err error) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	switch {
	case w == 0 || h == 0:
		return nil, errors.New("render: DZI of an empty image")
	case tileSize < 1:
		return nil, fmt.Errorf("render: DZI tile size %d", tileSize)
	case overlap < 0 || overlap >= tileSize:
		return nil, fmt.Errorf("render: DZI overlap %d with tile size %d", overlap, tileSize)
	case put == nil:
		return nil, errors.New("render: WriteDZI needs a put function")
	case format != "png" && format != "jpg" && format != "jpeg":
		return nil, fmt.Errorf("render: DZI format %q (want png or jpg)", format)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	type tile struct {
		name string
		img  dziLevel
	}
	tiles := make(chan tile, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var bufs sync.Pool
	// a sheet is mostly paper: a tile of one grey is encoded once per size
	var flats sync.Map // [w, h, value] → encoded tile
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range tiles {
				if ctx.Err() != nil {
					continue // drain
				}
				var data []byte
				v, flat := t.img.flat()
				key := [3]int{t.img.Bounds().Dx(), t.img.Bounds().Dy(), int(v)}
				if c, ok := flats.Load(key); flat && ok {
					data = bytes.Clone(c.([]byte))
				} else {
					buf, _ := bufs.Get().(*bytes.Buffer)
					if buf == nil {
						buf = new(bytes.Buffer)
					}
					buf.Reset()
					if err := t.img.encode(buf, format); err != nil {
						cancel(fmt.Errorf("render: encoding tile %s: %w", t.name, err))
						continue
					}
					data = bytes.Clone(buf.Bytes())
					bufs.Put(buf)
					if flat {
						flats.Store(key, bytes.Clone(data))
					}
				}
				if ctx.Err() != nil {
					continue // failed or cancelled while this tile was encoded
				}
				if err := put(ctx, t.name, data); err != nil {
					cancel(fmt.Errorf("render: storing tile %s: %w", t.name, err))
				}
			}
		}()
	}

	maxLevel := DZILevels(w, h) - 1
	level := src
produce:
	for l := maxLevel; l >= 0; l-- {
		lb := level.Bounds()
		lw, lh := lb.Dx(), lb.Dy()
		cols, rows := (lw+tileSize-1)/tileSize, (lh+tileSize-1)/tileSize
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				x0, y0 := c*tileSize, r*tileSize
				if c > 0 {
					x0 -= overlap
				}
				if r > 0 {
					y0 -= overlap
				}
				x1, y1 := min(lw, (c+1)*tileSize+overlap), min(lh, (r+1)*tileSize+overlap)
				rect := image.Rect(x0, y0, x1, y1).Add(lb.Min)
				t := tile{name: fmt.Sprintf("%d/%d_%d.%s", l, c, r, format), img: level.sub(rect)}
				select {
				case tiles <- t:
				case <-ctx.Done():
					break produce
				}
			}
		}
		if l > 0 {
			level = level.halve() // the encoders still read the level above; it is freed when they finish
		}
	}
	close(tiles)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<Image TileSize="%d" Overlap="%d" Format="%s" xmlns="http://schemas.microsoft.com/deepzoom/2008"><Size Width="%d" Height="%d"/></Image>`+"\n",
		tileSize, overlap, format, w, h), nil
}

// uniform reports whether every pixel of m has one value, and which.
func uniform(m *image.Gray) (byte, bool) {
	b := m.Rect
	if b.Empty() {
		return 0, false
	}
	v := m.Pix[m.PixOffset(b.Min.X, b.Min.Y)]
	word := uint64(v) * 0x0101010101010101
	le := binary.LittleEndian
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := m.Pix[m.PixOffset(b.Min.X, y):][:b.Dx()]
		i := 0
		for ; i+8 <= len(row); i += 8 {
			if le.Uint64(row[i:]) != word {
				return 0, false
			}
		}
		for ; i < len(row); i++ {
			if row[i] != v {
				return 0, false
			}
		}
	}
	return v, true
}
