package blobs

import (
	"context"
	"errors"
	"fmt"
	"image"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/internal/tilepack"
	"github.com/plangraph/plangraph/vision/render"
)

// GetPNGRegion reads part r of the sheet image stored under key (key.png,
// its Deep Zoom tiles in the pack TilePack(key), written with render's
// DZITileSize and DZIOverlap): only the full-resolution tiles over
// r are decoded — a block of a 36 × 24 in sheet at 300 DPI costs a few
// dozen 256 px tiles instead of the whole 78-megapixel page. Without a tile
// pack (or with a tile missing) it decodes the whole PNG. The result's
// bounds are r ∩ the image, moved to the origin; ErrNoImage when nothing is
// stored.
func GetPNGRegion(ctx context.Context, bucket *blob.Bucket, key string, r image.Rectangle) (*image.Gray, error) {
	w, h, err := PNGSize(ctx, bucket, key+".png") // the pyramid's size
	if err != nil {
		return nil, err
	}
	r = r.Intersect(image.Rect(0, 0, w, h))
	out := image.NewGray(r) // in page coordinates until it is returned
	atOrigin := func() *image.Gray {
		out.Rect = out.Rect.Sub(r.Min)
		return out
	}
	if r.Empty() {
		return atOrigin(), nil
	}
	err = regionFromTiles(ctx, bucket, key, w, h, r, out)
	if err == nil {
		return atOrigin(), nil
	}
	if !errors.Is(err, tilepack.ErrNotFound) {
		return nil, err
	}
	page, err := GetPNG(ctx, bucket, key+".png")
	if err != nil {
		return nil, err
	}
	copyGray(out, page, r.Intersect(page.Rect))
	return atOrigin(), nil
}

// regionFromTiles fills out (bounds r, page coordinates) from the
// pyramid's top level.
func regionFromTiles(ctx context.Context, bucket *blob.Bucket, key string, w, h int, r image.Rectangle, out *image.Gray) error {
	ts, ov := render.DZITileSize, render.DZIOverlap
	level := render.DZILevels(w, h) - 1
	tiles := &tilepack.Reader{Bucket: bucket, Indexes: 1}
	var dec render.GrayDecoder // its buffers serve every tile
	for row := r.Min.Y / ts; row <= (r.Max.Y-1)/ts; row++ {
		for col := r.Min.X / ts; col <= (r.Max.X-1)/ts; col++ {
			name := fmt.Sprintf("%d/%d_%d.png", level, col, row)
			rd, _, err := tiles.Tile(ctx, TilePack(key), name)
			if err != nil {
				return err
			}
			img, err := dec.Decode(rd)
			rd.Close()
			if err != nil {
				return fmt.Errorf("tile %s of %s: %w", name, key, err)
			}
			x0, y0 := col*ts, row*ts
			if col > 0 {
				x0 -= ov
			}
			if row > 0 {
				y0 -= ov
			}
			g := render.AsGray(img) // (the decoder's until the next tile)
			// the tile's pixels in page coordinates
			g.Rect = g.Rect.Sub(g.Rect.Min).Add(image.Pt(x0, y0))
			copyGray(out, g, r.Intersect(g.Rect))
		}
	}
	return nil
}

// copyGray copies part p of src into dst (both in page coordinates).
func copyGray(dst, src *image.Gray, p image.Rectangle) {
	for y := p.Min.Y; y < p.Max.Y; y++ {
		copy(dst.Pix[dst.PixOffset(p.Min.X, y):dst.PixOffset(p.Max.X, y)], src.Pix[src.PixOffset(p.Min.X, y):])
	}
}
