package rest

import (
	"context"
	"net/http"

	listing "github.com/plangraph/plangraph/internal/service/query"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/service/drawings"
	"github.com/plangraph/plangraph/internal/service/files"
	"github.com/plangraph/plangraph/internal/uploads"
)

// The collections of GET /v1/{name} and /v1/{name}/{id} (listResources
// documents and routes them).
var (
	projectsRes = resource[*ent.Project, Project]{c: listing.Projects, singular: "project", out: projectView}
	filesRes    = fileResource{resource[*ent.File, *File]{c: listing.Files, singular: "file", out: fileView}}
	drawingsRes = resource[*ent.Drawing, *Drawing]{c: listing.Drawings, singular: "drawing", out: drawingView}
	sheetsRes   = resource[*ent.Sheet, *Sheet]{c: listing.Sheets, singular: "sheet", out: sheetView}
	blocksRes   = resource[*ent.Block, *Block]{c: listing.Blocks, singular: "block", out: blockView}
	overlaysRes = resource[*ent.Overlay, *Overlay]{c: listing.Overlays, singular: "overlay", out: overlayView}
	jobsRes     = resource[*ent.Job, *Job]{c: listing.Jobs, singular: "job", out: jobView}
)

// fileResource is the files collection, whose single GET adds the
// download URL.
type fileResource struct{ resource[*ent.File, *File] }

func (fileResource) show(a *API) http.HandlerFunc { return a.getFile }

// The handlers of the resources' mutations; each decodes the request,
// calls the service operation GraphQL calls too, and shapes the response.
// routeTable registers them.

func (a *API) getFile(w http.ResponseWriter, r *http.Request) {
	f, err := filesRes.one(a, r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	u, err := a.s.Files.DownloadURL(r.Context(), f.ID)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if u != "" {
		f.DownloadURL = &u
	}
	writeJSON(w, http.StatusOK, f)
}

func (a *API) createFile(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ProjectID   *string `json:"project_id"`
		Filename    *string `json:"filename"`
		ContentType *string `json:"content_type"`
		Size        *int64  `json:"size"`
	}
	if err := a.decode(w, r, &in); err != nil {
		a.fail(w, r, err)
		return
	}
	bad := apierr.Fields{}
	required(bad, "project_id", in.ProjectID)
	required(bad, "filename", in.Filename)
	required(bad, "content_type", in.ContentType)
	required(bad, "size", in.Size)
	if err := bad.Err(); err != nil {
		a.fail(w, r, err)
		return
	}
	up, err := a.s.Files.CreateUpload(r.Context(), files.UploadInput{
		ProjectID: *in.ProjectID, Filename: *in.Filename, ContentType: *in.ContentType, Size: int(*in.Size)})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/files/"+up.File.ID)
	writeJSON(w, http.StatusCreated, map[string]any{
		"id": up.File.ID, "upload_url": up.UploadURL, "method": up.Method,
		"headers": map[string]string{"Content-Type": up.File.ContentType}, "expires_at": up.ExpiresAt,
		"file": fileOut(up.File),
	})
}

func (a *API) confirmFile(w http.ResponseWriter, r *http.Request) {
	if err := a.emptyBody(w, r); err != nil {
		a.fail(w, r, err)
		return
	}
	f, err := a.s.Files.Confirm(r.Context(), r.PathValue("id"))
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out := fileOut(f)
	u, err := a.s.Files.DownloadURL(r.Context(), f.ID)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out.DownloadURL = &u
	writeJSON(w, http.StatusOK, out)
}

func (a *API) createDrawing(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ProjectID *string `json:"project_id"`
		FileID    *string `json:"file_id"`
		Name      *string `json:"name"`
	}
	if err := a.decode(w, r, &in); err != nil {
		a.fail(w, r, err)
		return
	}
	bad := apierr.Fields{}
	required(bad, "project_id", in.ProjectID)
	required(bad, "file_id", in.FileID)
	if err := bad.Err(); err != nil {
		a.fail(w, r, err)
		return
	}
	res, err := a.s.Drawings.Create(r.Context(), drawings.CreateInput{ProjectID: *in.ProjectID, FileID: *in.FileID, Name: in.Name})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/jobs/"+res.Job.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{"data": struct {
		Accepted
		Drawing *Drawing `json:"drawing"`
	}{acceptedOut(res.Job), drawingOut(res.Drawing)}})
}

func (a *API) updateDrawing(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name *string `json:"name"`
	}
	if err := a.decode(w, r, &in); err != nil {
		a.fail(w, r, err)
		return
	}
	d, err := a.s.Drawings.Update(r.Context(), r.PathValue("id"), drawings.Patch{Name: in.Name})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, drawingOut(d))
}

func (a *API) updateSheet(w http.ResponseWriter, r *http.Request) {
	var in struct {
		SheetNumber *string `json:"sheet_number"`
		Title       *string `json:"title"`
		Discipline  *string `json:"discipline"`
	}
	if err := a.decode(w, r, &in); err != nil {
		a.fail(w, r, err)
		return
	}
	s, err := a.s.Drawings.UpdateSheet(r.Context(), r.PathValue("id"), drawings.SheetPatch{SheetNumber: in.SheetNumber, Title: in.Title, Discipline: in.Discipline})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, sheetOut(s))
}

// Uploads serves the signed byte endpoints (no API key: the signature is
// the credential).
func (a *API) Uploads(mux *http.ServeMux, u *uploads.Service) {
	a.uploads = u
	a.register(mux, groupSigned)
}

func required[T any](bad apierr.Fields, name string, v *T) {
	if v == nil {
		bad.Add(name, "is required")
	}
}

func (a *API) deleter(del func(context.Context, string) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := del(r.Context(), r.PathValue("id")); err != nil {
			a.fail(w, r, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}
