package images

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/image/tiff"

	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/uploads"
)

// symbolImage is a 40×30 RGBA picture: a dark frame on white, inset by 5 px.
func symbolImage() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			c := color.RGBA{255, 255, 255, 255}
			inside := x >= 5 && x < 35 && y >= 5 && y < 25
			edge := x == 5 || x == 34 || y == 5 || y == 24
			if inside && edge {
				c = color.RGBA{20, 20, 20, 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

func TestSymbolImagesFromDataURLs(t *testing.T) {
	var pngB, jpgB, tifB bytes.Buffer
	if err := png.Encode(&pngB, symbolImage()); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgB, symbolImage(), &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	if err := tiff.Encode(&tifB, symbolImage(), nil); err != nil {
		t.Fatal(err)
	}
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	s := &Reader{Deps: &base.Deps{Uploads: &uploads.Service{PublicURL: "https://api.test"}}}
	ctx := context.Background()
	for name, raw := range map[string]string{
		"png":                 "data:image/png;base64," + b64(pngB.Bytes()),
		"jpeg":                "data:image/jpeg;base64," + b64(jpgB.Bytes()),
		"tiff":                "data:image/tiff;base64," + b64(tifB.Bytes()),
		"no media type":       "data:;base64," + b64(pngB.Bytes()),
		"unpadded":            "data:image/png;base64," + strings.TrimRight(b64(pngB.Bytes()), "="),
		"line breaks":         "data:image/png;base64," + b64(pngB.Bytes())[:40] + "\n" + b64(pngB.Bytes())[40:],
		"percent-encoded b64": "data:image/png;base64," + url.PathEscape(b64(pngB.Bytes())),
	} {
		img, err := s.Read(ctx, "f", raw, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// cropped to the frame and 2 px of the paper around it
		if w, h := img.Rect.Dx(), img.Rect.Dy(); w != 34 || h != 24 {
			t.Errorf("%s: %d×%d, want the 30×20 frame with a 2 px margin", name, w, h)
		}
	}
	for name, raw := range map[string]string{
		"not base64":       "data:image/png;base64,***",
		"no comma":         "data:image/png;base64",
		"empty":            "data:image/png;base64,",
		"not an image":     "data:image/png;base64," + b64([]byte("hello, world")),
		"a PDF":            "data:application/pdf;base64," + b64([]byte("%PDF-1.4\n%%EOF\n")),
		"claims JPEG":      "data:image/jpeg;base64," + b64(pngB.Bytes()),
		"truncated":        "data:image/png;base64," + b64(pngB.Bytes()[:60]),
		"elsewhere":        "https://example.com/a.png",
		"plain http":       "http://api.test/v1/blocks/blk_x/image",
		"metadata service": "http://169.254.169.254/latest/meta-data/",
		"own, other path":  "https://api.test/v1/projects/prj_x",
		"file scheme":      "file:///etc/passwd",
	} {
		if _, err := s.Read(ctx, "f", raw, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestOwnPath(t *testing.T) {
	s := &Reader{Deps: &base.Deps{Uploads: &uploads.Service{PublicURL: "https://api.test:8443"}}}
	for raw, want := range map[string]string{
		"/v1/blocks/blk_1/image":                       "/v1/blocks/blk_1/image",
		"https://api.test:8443/v1/files/fil_1":         "/v1/files/fil_1",
		"https://API.test:8443/downloads/fil_1?sig=x":  "/downloads/fil_1",
		"https://api.test/v1/blocks/blk_1/image":       "",
		"http://api.test:8443/v1/blocks/blk_1/image":   "",
		"https://evil.test:8443/v1/blocks/blk_1/image": "",
		"v1/blocks/blk_1/image":                        "",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := s.ownPath(u)
		if (want != "") != ok || got != want && ok {
			t.Errorf("ownPath(%s) = %q, %v; want %q", raw, got, ok, want)
		}
	}
}
