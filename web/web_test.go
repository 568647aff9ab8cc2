package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func TestGzipAssets(t *testing.T) {
	script := []byte(strings.Repeat("console.log('plangraph');\n", 200))
	fsys := fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html>" + strings.Repeat("<p>plan</p>", 200))},
		"assets/index-1.js":  {Data: script},
		"assets/small.css":   {Data: []byte("body{}")},
		"assets/picture.png": {Data: bytes.Repeat([]byte{0x89}, 4096)},
	}
	h := handler(fsys)
	get := func(path, accept string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			r.Header.Set("Accept-Encoding", accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	gunzip := func(b []byte) []byte {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	w := get("/assets/index-1.js", "gzip, deflate, br")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(w.Header().Get("Vary"), "Accept-Encoding") {
		t.Fatalf("script: %d %v", w.Code, w.Header())
	}
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") || w.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("script headers: %v", w.Header())
	}
	if got := gunzip(w.Body.Bytes()); !bytes.Equal(got, script) || w.Body.Len() >= len(script)/4 {
		t.Fatalf("script: %d gzip bytes unzip to %d, want %d", w.Body.Len(), len(got), len(script))
	}
	// the page itself, gzipped and revalidated
	if w := get("/", "gzip"); w.Header().Get("Content-Encoding") != "gzip" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") ||
		!bytes.Equal(gunzip(w.Body.Bytes()), fsys["index.html"].Data) || w.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("index: %v", w.Header())
	}
	// plain for a browser that does not take gzip, or refuses it
	for _, accept := range []string{"", "identity", "gzip;q=0", "br"} {
		if w := get("/assets/index-1.js", accept); w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), script) {
			t.Fatalf("Accept-Encoding %q: %v, %d bytes", accept, w.Header(), w.Body.Len())
		}
	}
	// small files and pictures as they are; a missing file is a 404
	for _, p := range []string{"/assets/small.css", "/assets/picture.png"} {
		if w := get(p, "gzip"); w.Code != 200 || w.Header().Get("Content-Encoding") != "" {
			t.Fatalf("%s: %d %v", p, w.Code, w.Header())
		}
	}
	if w := get("/assets/missing.js", "gzip"); w.Code != 404 {
		t.Fatalf("missing: %d", w.Code)
	}
	// HEAD: the headers without the body
	r := httptest.NewRequest(http.MethodHead, "/assets/index-1.js", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	hw := httptest.NewRecorder()
	h.ServeHTTP(hw, r)
	if hw.Header().Get("Content-Encoding") != "gzip" || hw.Body.Len() != 0 || hw.Header().Get("Content-Length") == "" {
		t.Fatalf("HEAD: %v, %d bytes", hw.Header(), hw.Body.Len())
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "deflate, gzip;q=1.0": true, "gzip;q=0": false, "gzip; q=0.5": true,
		"*": true, "br, *;q=0": false, "identity": false, "x-gzip2": false,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}
