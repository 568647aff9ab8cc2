package rest

import (
	"errors"
	"io"
	"net/http"
	"path"
	"regexp"
	"strconv"

	"github.com/plangraph/plangraph/internal/blobs"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/tilepack"
)

var tileName = regexp.MustCompile(`^\d{1,2}/\d{1,5}_\d{1,5}\.png$`)

// SheetImages serves a sheet's rendered page, thumbnail and deep-zoom
// tiles (GET /v1/sheets/{id}/image[?variant=thumbnail], /tiles.dzi,
// /tiles_files/{level}/{col}_{row}.png) and block images
// (GET /v1/blocks/{id}/image) from the blob store.
func (a *API) SheetImages(bucket *blob.Bucket) {
	a.bucket = bucket
	a.register(a.mux, groupImages)
}

// sheetKey is the image key of the sheet in the path, or "" when the
// answer (an error) was written.
func (a *API) sheetKey(w http.ResponseWriter, r *http.Request) string {
	s, err := a.s.Query.Sheet(r.Context(), r.PathValue("id"))
	if err != nil {
		a.fail(w, r, err)
		return ""
	}
	org, _ := tenant.Org(r.Context())
	return blobs.SheetKey(org, s.DrawingID, s.PageNumber)
}

// serveSheetBlob serves the sheet's image with key suffix.
func (a *API) serveSheetBlob(w http.ResponseWriter, r *http.Request, suffix, ct string) {
	if key := a.sheetKey(w, r); key != "" {
		a.serveBlob(w, r, a.bucket, key+suffix, ct, "sheet "+r.PathValue("id")+" has no such image")
	}
}

func (a *API) sheetImage(w http.ResponseWriter, r *http.Request) {
	switch v := r.URL.Query().Get("variant"); v {
	case "", "full":
		a.serveSheetBlob(w, r, ".png", "image/png")
	case "thumbnail":
		a.serveSheetBlob(w, r, "-thumb.png", "image/png")
	default:
		a.fail(w, r, apierr.Invalid("variant", "must be full or thumbnail"))
	}
}

func (a *API) blockImage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	b, err := a.s.Query.Block(r.Context(), id)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	org, _ := tenant.Org(r.Context())
	a.serveBlob(w, r, a.bucket, blobs.BlockKey(org, b.ID)+".png", "image/png", "block "+id+" has no image")
}

func (a *API) sheetTiles(w http.ResponseWriter, r *http.Request) {
	a.serveSheetBlob(w, r, ".dzi", "application/xml")
}

func (a *API) sheetTile(w http.ResponseWriter, r *http.Request) {
	t, ok := a.tileName(w, r)
	if !ok {
		return
	}
	key := a.sheetKey(w, r)
	if key == "" {
		return
	}
	a.serveTile(w, r, key, t, func() {
		// sheets ingested before tile packs keep one object per tile
		a.serveBlob(w, r, a.bucket, key+"_files/"+t, "image/png", "sheet "+r.PathValue("id")+" has no tile "+t)
	})
}

// tileName is the path's tile, {level}/{col}_{row}.png, or false when the
// answer (not found) was written.
func (a *API) tileName(w http.ResponseWriter, r *http.Request) (string, bool) {
	t := path.Clean(r.PathValue("tile"))
	if !tileName.MatchString(t) {
		a.fail(w, r, apierr.NotFoundf("no tile %q", t))
		return "", false
	}
	return t, true
}

// serveTile serves tile t of the pyramid at key from its pack; missing
// answers when the pack has no such tile.
func (a *API) serveTile(w http.ResponseWriter, r *http.Request, key, t string, missing func()) {
	rd, n, err := a.tiles(a.bucket).Tile(r.Context(), blobs.TilePack(key), t)
	if errors.Is(err, tilepack.ErrNotFound) {
		missing()
		return
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	defer rd.Close()
	writeImage(w, rd, n, "image/png")
}

func (a *API) tiles(bucket *blob.Bucket) *tilepack.Reader {
	a.tileOnce.Do(func() { a.tileReader = &tilepack.Reader{Bucket: bucket} })
	return a.tileReader
}

// serveBlob streams one stored image.
func (a *API) serveBlob(w http.ResponseWriter, r *http.Request, bucket *blob.Bucket, key, ct, missing string) {
	rd, err := bucket.NewReader(r.Context(), key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		a.fail(w, r, apierr.NotFoundf("%s", missing))
		return
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	defer rd.Close()
	writeImage(w, rd, rd.Size(), ct)
}

// writeImage answers with n bytes of content type ct from rd.
func writeImage(w http.ResponseWriter, rd io.Reader, n int64, ct string) {
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
	w.Header().Set("Cache-Control", "private, max-age=3600")
	_, _ = io.Copy(w, rd)
}
