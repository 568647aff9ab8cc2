// Package web is the browser app (TypeScript + React, source in web/src),
// built by `npm run build` into web/dist and embedded in the binary, served
// at / by every serve and api process. It talks to the GraphQL API (and the
// REST image endpoints) with the API key the user enters, kept in the tab's
// session storage only.
package web

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// plainHost is a Host header safe to repeat in the policy.
var plainHost = regexp.MustCompile(`^[A-Za-z0-9.\-]+(:[0-9]+)?$|^\[[0-9A-Fa-f:.]+\](:[0-9]+)?$`)

// dist holds the build; a fresh clone has only NOT_BUILT.txt there, so the
// package compiles before the first npm build.
//
//go:embed dist
var dist embed.FS

// csp allows only this origin's scripts and connections (GraphQL over HTTP
// and its websocket), and images from blob: URLs, because the deep-zoom tiles,
// thumbnails and block images are fetched with the key and shown as blobs.
// Inline styles are allowed for the positions the viewer sets; inline and
// eval'd scripts are not.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'; connect-src 'self'"

// Handler serves the app's files. Hashed assets (assets/…) are cached for a
// year; index.html is revalidated on every load so a new build shows at once.
// Scripts, styles and pages go gzipped to browsers that accept it.
func Handler() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	return handler(sub)
}

func handler(sub fs.FS) http.Handler {
	_, statErr := fs.Stat(sub, "index.html")
	built := statErr == nil
	files := http.FileServer(http.FS(sub))
	gz := &gzipped{fsys: sub}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// the websocket's wss:// origin is named too: not every browser
		// counts it as 'self'
		policy := csp
		if plainHost.MatchString(r.Host) {
			policy += " wss://" + r.Host
		}
		w.Header().Set("Content-Security-Policy", policy)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		if !built {
			http.Error(w, "The web app was not built into this binary: run `make build` (it runs `npm ci && npm run build` in web/).", http.StatusServiceUnavailable)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/assets/") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		if gz.serve(w, r) {
			return
		}
		files.ServeHTTP(w, r)
	})
}

// gzipped serves gzip copies of the app's text files (scripts, styles,
// HTML, SVG, JSON over 1 KiB: the 600 kB script goes as 155 kB), each
// compressed once, on its first request.
type gzipped struct {
	fsys fs.FS
	mu   sync.Mutex
	m    map[string][]byte // file → its gzip copy; nil: not worth it
}

// compressible are the extensions sent gzipped.
var compressible = map[string]bool{".js": true, ".css": true, ".html": true, ".svg": true, ".json": true, ".map": true}

// serve writes the gzip copy of the file r asks for when the browser accepts
// gzip and the file has one, and says whether it did.
func (g *gzipped) serve(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	if !compressible[path.Ext(name)] || name == "index.html" && r.URL.Path != "/" {
		return false // FileServer redirects /index.html to /
	}
	w.Header().Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r.Header.Get("Accept-Encoding")) {
		return false
	}
	body := g.copyOf(name)
	if body == nil {
		return false
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodGet {
		_, _ = w.Write(body)
	}
	return true
}

// copyOf is the gzip copy of name, made on first use (nil for a missing
// file, a directory or one under 1 KiB).
func (g *gzipped) copyOf(name string) []byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	if b, ok := g.m[name]; ok {
		return b
	}
	if g.m == nil {
		g.m = map[string][]byte{}
	}
	var out []byte
	if raw, err := fs.ReadFile(g.fsys, name); err == nil && len(raw) >= 1024 {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(raw)
		_ = zw.Close()
		out = buf.Bytes()
	}
	g.m[name] = out
	return out
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) named without q=0.
func acceptsGzip(h string) bool {
	for _, part := range strings.Split(h, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if strings.HasPrefix(q, "q=") {
			if v, err := strconv.ParseFloat(q[2:], 64); err == nil && v == 0 {
				return false
			}
		}
		return true
	}
	return false
}
