package blobs

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/plangraph/plangraph/vision/render"
)

// ErrNoImage is a stored image that is not there.
var ErrNoImage = errors.New("no such image")

// PutPNG stores img as a PNG blob (grey images take render's fast path).
func PutPNG(ctx context.Context, bucket *blob.Bucket, key string, img image.Image) error {
	w, err := bucket.NewWriter(ctx, key, &blob.WriterOptions{ContentType: "image/png"})
	if err != nil {
		return err
	}
	if err := render.EncodePNG(w, img); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// PNGSize is the width and height of a stored PNG, read from its header
// without decoding it (ErrNoImage when it is missing).
func PNGSize(ctx context.Context, bucket *blob.Bucket, key string) (w, h int, err error) {
	rd, err := bucket.NewRangeReader(ctx, key, 0, 4096, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return 0, 0, ErrNoImage
	}
	if err != nil {
		return 0, 0, err
	}
	defer rd.Close()
	cfg, err := png.DecodeConfig(rd)
	if err != nil {
		return 0, 0, fmt.Errorf("reading the header of %s: %w", key, err)
	}
	return cfg.Width, cfg.Height, nil
}

// GetPNG reads a PNG blob as grey (ErrNoImage when it is missing).
func GetPNG(ctx context.Context, bucket *blob.Bucket, key string) (*image.Gray, error) {
	img, err := GetImage(ctx, bucket, key)
	if err != nil {
		return nil, err
	}
	return render.AsGray(img), nil
}

// GetImage reads a PNG blob as it was stored (ErrNoImage when it is
// missing); grey ones by render's fast decoder.
func GetImage(ctx context.Context, bucket *blob.Bucket, key string) (image.Image, error) {
	rd, err := bucket.NewReader(ctx, key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, ErrNoImage
	}
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	img, err := render.DecodePNG(rd)
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", key, err)
	}
	return img, nil
}
