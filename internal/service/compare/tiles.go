package compare

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"

	"golang.org/x/sync/singleflight"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/tilepack"
	"github.com/plangraph/plangraph/vision/render"
)

// tiling makes each pyramid once however many viewers ask for it at once;
// tileSlot lets a process build one at a time (a large block's colour
// image decodes to a few hundred megabytes).
var (
	tiling   singleflight.Group
	tileSlot = make(chan struct{}, 1)
)

// OverlayTilesKey is the blob key of the Deep Zoom pyramid of an overlay's
// image: KEY.dzi with its tiles in the pack blobs.TilePack(KEY).
func OverlayTilesKey(orgID, overlayID string, img blobs.OverlayImage) string {
	return blobs.OverlayKey(orgID, overlayID) + "-dz-" + img.Name
}

// OverlayTiles returns the key of the Deep Zoom pyramid of one of an
// overlay's images (see OverlayTilesKey), making it from the stored PNG
// the first time a viewer asks for it: a viewer then reads tiles, never a
// whole block-sized picture.
func (s *Service) OverlayTiles(ctx context.Context, overlayID string, img blobs.OverlayImage) (string, error) {
	o, err := base.Get(ctx, "overlay", overlayID, s.DB.Overlay.Get)
	if err != nil {
		return "", err
	}
	org, _ := tenant.Org(ctx)
	key := OverlayTilesKey(org, o.ID, img)
	if ok, err := s.Blobs.Exists(ctx, key+".dzi"); err != nil || ok {
		return key, err
	}
	_, err, _ = tiling.Do(key, func() (any, error) {
		// made while this call waited for another's
		if ok, err := s.Blobs.Exists(ctx, key+".dzi"); err != nil || ok {
			return nil, err
		}
		select {
		case tileSlot <- struct{}{}:
			defer func() { <-tileSlot }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		src := blobs.OverlayKey(org, o.ID) + img.Suffix
		pic, err := blobs.GetImage(ctx, s.Blobs, src)
		if errors.Is(err, blobs.ErrNoImage) {
			return nil, apierr.NotFoundf("overlay %s has no %s image", o.ID, img.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("overlay %s's %s image: %w", o.ID, img.Name, err)
		}
		return nil, writePyramid(context.WithoutCancel(ctx), s.Blobs, key, pic)
	})
	return key, err
}

// writePyramid stores pic's Deep Zoom pyramid at key (tiles packed, the
// descriptor last: a pyramid is there once its descriptor is).
func writePyramid(ctx context.Context, bucket *blob.Bucket, key string, pic image.Image) error {
	pack, err := tilepack.Create(ctx, bucket, blobs.TilePack(key))
	if err != nil {
		return err
	}
	put := func(_ context.Context, name string, data []byte) error { return pack.Put(name, data) }
	var desc []byte
	switch p := pic.(type) {
	case *image.Gray:
		desc, err = render.WriteDZI(ctx, p, render.DZITileSize, render.DZIOverlap, render.DZIFormat, put)
	case *image.Paletted:
		desc, err = render.WriteDZIColor(ctx, render.RGBAOfPaletted(p), render.DZITileSize, render.DZIOverlap, render.DZIFormat, put)
	default:
		rgba, ok := pic.(*image.RGBA)
		if !ok {
			rgba = image.NewRGBA(pic.Bounds())
			draw.Draw(rgba, rgba.Rect, pic, pic.Bounds().Min, draw.Src)
		}
		desc, err = render.WriteDZIColor(ctx, rgba, render.DZITileSize, render.DZIOverlap, render.DZIFormat, put)
	}
	if err != nil {
		pack.Abort()
		return err
	}
	if err := pack.Close(ctx); err != nil {
		return err
	}
	return bucket.WriteAll(ctx, key+".dzi", desc, &blob.WriterOptions{ContentType: "application/xml"})
}

// OverlayTileImage is the overlay image of that route name.
func OverlayTileImage(name string) (blobs.OverlayImage, bool) {
	for _, img := range blobs.OverlayImages {
		if img.Name == name {
			return img, true
		}
	}
	return blobs.OverlayImage{}, false
}
