// Package web is the browser app (TypeScript + React, source in web/src),
// built by `npm run build` into web/dist and embedded in the binary, served
// at / by every serve and api process. It talks to the GraphQL API (and the
// REST image endpoints) with the API key the user enters, kept in the tab's
// session storage only.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
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
func Handler() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	_, statErr := fs.Stat(sub, "index.html")
	built := statErr == nil
	files := http.FileServer(http.FS(sub))
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
		files.ServeHTTP(w, r)
	})
}
