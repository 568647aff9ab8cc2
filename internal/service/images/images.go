// Package images reads the images a request names (a parse request's
// symbols, a visual search's query): a data: URL, an image of this service
// (a block's or a file's, of the caller's organization) or a URL on the
// operator's allowlist — the same rules, limits and SSRF guards for every
// operation that takes one.
package images

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"mime"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/vision/render"
)

// Limits of the images read.
const (
	// MaxImagePixels and MaxImageBytes bound one image.
	MaxImagePixels = int64(25_000_000)
	MaxImageBytes  = int64(20 << 20)
	// MaxRequestPixels bounds the pixels of all the images of one request
	// together (as decoded, before cropping): a request over it is refused
	// (400) before the image that would pass it is decoded.
	MaxRequestPixels = int64(100_000_000)
)

// Types are the formats read.
var Types = []string{render.TypePNG, render.TypeJPEG, render.TypeTIFF}

// Reader reads images named by requests.
type Reader struct{ *base.Deps }

// imageURLExamples are the image URLs read without an allowlist.
const imageURLExamples = "a data: URL (PNG, JPEG or TIFF), this service's /v1/blocks/{id}/image or /v1/files/{id} (or the file's download URL)"

// decodeSlot is taken while a symbol image is decoded: a process decodes
// one at a time, so however many parse requests arrive at once, at most
// one full image (MaxImagePixels) is in memory besides the crops.
var decodeSlot = make(chan struct{}, 1)

// decoding waits for decodeSlot (or ctx) and returns its release.
func decoding(ctx context.Context) (func(), error) {
	select {
	case decodeSlot <- struct{}{}:
		return func() { <-decodeSlot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// charge takes w×h pixels from a request's budget, or says why the image
// may not be decoded: over MaxImagePixels, or over what remains of
// MaxRequestPixels.
func charge(budget *int64, w, h int) error {
	px := int64(w) * int64(h)
	switch {
	case px > MaxImagePixels:
		return fmt.Errorf("is too large (%d × %d pixels; at most %d)", w, h, MaxImagePixels)
	case budget != nil && px > *budget:
		return fmt.Errorf("would take the request's symbol images past %d pixels together (this one has %d × %d); send fewer or smaller images", MaxRequestPixels, w, h)
	}
	if budget != nil {
		*budget -= px
	}
	return nil
}

// Read reads an image named by a request (field names it in errors): a
// data: URL, an image of this service (a block's or a file's, of this
// organization), or an allowlisted URL. It is cropped to its drawn pixels. Its size is
// checked from its header and taken from budget (the pixels the request's
// images may still have) before it is decoded; nil means no request budget.
func (s *Reader) Read(ctx context.Context, field, raw string, budget *int64) (*image.Gray, error) {
	var (
		data []byte
		ct   string
		img  *image.Gray
		err  error
	)
	switch {
	case strings.HasPrefix(strings.ToLower(raw), "data:"):
		data, ct, err = decodeDataURL(raw)
		if err != nil {
			return nil, apierr.Invalid(field, err.Error())
		}
	default:
		u, perr := url.Parse(raw)
		if perr != nil {
			return nil, apierr.Invalid(field, "is not a URL")
		}
		own, ok := s.ownPath(u)
		switch {
		case ok:
			img, data, ct, err = s.ownImage(ctx, field, own, budget)
			if err != nil {
				return nil, err
			}
		case s.ImageFetcher.Enabled() && s.ImageFetcher.Check(u) == nil:
			data, ct, err = s.ImageFetcher.Get(ctx, u.String())
			if err != nil {
				return nil, apierr.Invalid(field, "could not be fetched: "+err.Error())
			}
		default:
			msg := "must be " + imageURLExamples
			if s.ImageFetcher.Enabled() {
				msg += ", or an https URL on the operator's allowlist"
			} else {
				msg += "; other URLs are not fetched (the operator has allowed no hosts)"
			}
			return nil, apierr.Invalid(field, msg)
		}
	}
	if img == nil {
		if img, err = decodeImage(ctx, data, ct, budget); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, apierr.Invalid(field, err.Error())
		}
	}
	out, ok := render.TightCrop(img)
	if !ok {
		return nil, apierr.Invalid(field, "the image is blank: nothing in it is darker than the paper")
	}
	return out, nil
}

// ownPath is the path of u when it addresses this service (a relative
// path, or the public URL's scheme and host).
func (s *Reader) ownPath(u *url.URL) (string, bool) {
	if u.Scheme == "" && u.Host == "" {
		return u.Path, strings.HasPrefix(u.Path, "/")
	}
	pub, err := url.Parse(s.Uploads.PublicURL)
	if err != nil || !strings.EqualFold(u.Scheme, pub.Scheme) || !strings.EqualFold(u.Host, pub.Host) {
		return "", false
	}
	return u.Path, true
}

// ownImage reads /v1/blocks/{id}/image, /v1/files/{id} (or its
// /downloads/{id} URL): resources of the request's organization only.
func (s *Reader) ownImage(ctx context.Context, field, path string, budget *int64) (*image.Gray, []byte, string, error) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	org, _ := tenant.Org(ctx)
	switch {
	case len(parts) >= 3 && parts[0] == "v1" && parts[1] == "blocks" && (len(parts) == 3 || (len(parts) == 4 && parts[3] == "image")):
		b, err := s.DB.Block.Get(ctx, parts[2])
		if ent.IsNotFound(err) {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("block %q does not exist", parts[2]))
		}
		if err != nil {
			return nil, nil, "", err
		}
		key := blobs.BlockKey(org, b.ID) + ".png"
		w, h, err := blobs.PNGSize(ctx, s.Blobs, key)
		if err != nil {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("block %s has no image", b.ID))
		}
		if err := charge(budget, w, h); err != nil {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("(block %s's image) %s", b.ID, err))
		}
		release, err := decoding(ctx)
		if err != nil {
			return nil, nil, "", err
		}
		defer release()
		img, err := blobs.GetPNG(ctx, s.Blobs, key)
		if err != nil {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("block %s has no image", b.ID))
		}
		return img, nil, "", nil
	case (len(parts) == 3 && parts[0] == "v1" && parts[1] == "files") || (len(parts) == 2 && parts[0] == "downloads"):
		id := parts[len(parts)-1]
		f, err := s.DB.File.Get(ctx, id)
		if ent.IsNotFound(err) {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("file %q does not exist", id))
		}
		if err != nil {
			return nil, nil, "", err
		}
		if f.Status != file.StatusReady {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("file %s is not confirmed yet", f.ID))
		}
		if f.Size > MaxImageBytes {
			return nil, nil, "", apierr.Invalid(field, fmt.Sprintf("file %s is larger than %d bytes", f.ID, MaxImageBytes))
		}
		data, err := s.Blobs.ReadAll(ctx, f.StorageKey)
		if err != nil {
			return nil, nil, "", err
		}
		return nil, data, f.ContentType, nil
	}
	return nil, nil, "", apierr.Invalid(field, "must be "+imageURLExamples)
}

// decodeDataURL returns the bytes and media type of a data: URL.
func decodeDataURL(raw string) ([]byte, string, error) {
	meta, payload, ok := strings.Cut(raw[len("data:"):], ",")
	if !ok {
		return nil, "", errors.New("is not a valid data: URL (no comma)")
	}
	params := strings.Split(meta, ";")
	ct := strings.ToLower(strings.TrimSpace(params[0]))
	b64 := false
	for _, p := range params[1:] {
		if strings.EqualFold(strings.TrimSpace(p), "base64") {
			b64 = true
		}
	}
	var data []byte
	var err error
	if b64 {
		clean := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
				return -1
			}
			return r
		}, payload)
		if un, uerr := url.PathUnescape(clean); uerr == nil {
			clean = un
		}
		data, err = base64.StdEncoding.DecodeString(clean)
		if err != nil {
			data, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(clean, "="))
		}
		if err != nil {
			return nil, "", errors.New("is a data: URL whose base64 data cannot be decoded")
		}
	} else {
		s, uerr := url.PathUnescape(payload)
		if uerr != nil {
			return nil, "", errors.New("is a data: URL whose data cannot be decoded")
		}
		data = []byte(s)
	}
	if len(data) == 0 {
		return nil, "", errors.New("is a data: URL without data")
	}
	return data, ct, nil
}

// decodeImage decodes a PNG, JPEG or single-page TIFF with the same
// decoders (and bomb limits) as uploaded drawings. ct, when given, must
// agree with the bytes.
func decodeImage(ctx context.Context, data []byte, ct string, budget *int64) (*image.Gray, error) {
	sniffed := render.Sniff(data[:min(len(data), 512)])
	if !slices.Contains(Types, sniffed) {
		return nil, errors.New("is not a PNG, JPEG or TIFF image")
	}
	if ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err == nil && mt != "application/octet-stream" && mt != "binary/octet-stream" {
			ct = mt
		} else {
			ct = ""
		}
	}
	tmp, err := os.CreateTemp("", "plangraph-symbol-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	doc, err := render.Open(tmp.Name(), ct, render.Limits{DPI: render.DefaultDPI, MaxPixels: MaxImagePixels, MaxPages: 1})
	if err != nil {
		return nil, imageErr(err)
	}
	defer doc.Close()
	w, h, _, err := doc.PageSize(0)
	if err != nil {
		return nil, imageErr(err)
	}
	if err := charge(budget, w, h); err != nil {
		return nil, err
	}
	release, err := decoding(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	img, err := render.RenderContext(ctx, doc, 0)
	if err != nil {
		return nil, imageErr(err)
	}
	return img, nil
}

func imageErr(err error) error {
	var re *render.Error
	if errors.As(err, &re) {
		switch re.Code {
		case render.CodeTooManyPages:
			return errors.New("must be an image of one page")
		case render.CodePageTooLarge:
			return fmt.Errorf("is too large (at most %d pixels)", MaxImagePixels)
		}
		return errors.New("could not be read: " + strings.TrimSuffix(re.Message, "."))
	}
	return err
}
