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

func (a *API) resources() {
	projects := resource[*ent.Project, Project]{c: listing.Projects, singular: "project", out: projectView}
	a.mux.HandleFunc("GET /v1/projects", projects.list(a))
	a.mux.HandleFunc("GET /v1/projects/{id}", projects.show(a))

	files := resource[*ent.File, *File]{c: listing.Files, singular: "file", out: fileView}
	a.mux.HandleFunc("GET /v1/files", files.list(a))
	a.mux.HandleFunc("GET /v1/files/{id}", func(w http.ResponseWriter, r *http.Request) {
		f, err := files.one(a, r)
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
	})

	drawings := resource[*ent.Drawing, *Drawing]{c: listing.Drawings, singular: "drawing", out: drawingView}
	a.mux.HandleFunc("GET /v1/drawings", drawings.list(a))
	a.mux.HandleFunc("GET /v1/drawings/{id}", drawings.show(a))

	sheets := resource[*ent.Sheet, *Sheet]{c: listing.Sheets, singular: "sheet", out: sheetView}
	a.mux.HandleFunc("GET /v1/sheets", sheets.list(a))
	a.mux.HandleFunc("GET /v1/sheets/{id}", sheets.show(a))

	blocks := resource[*ent.Block, *Block]{c: listing.Blocks, singular: "block", out: blockView}
	a.mux.HandleFunc("GET /v1/blocks", blocks.list(a))
	a.mux.HandleFunc("GET /v1/blocks/{id}", blocks.show(a))

	overlays := resource[*ent.Overlay, *Overlay]{c: listing.Overlays, singular: "overlay", out: overlayView}
	a.mux.HandleFunc("GET /v1/overlays", overlays.list(a))
	a.mux.HandleFunc("GET /v1/overlays/{id}", overlays.show(a))

	jobsRes := resource[*ent.Job, *Job]{c: listing.Jobs, singular: "job", out: jobView}
	a.mux.HandleFunc("GET /v1/jobs", jobsRes.list(a))
	a.mux.HandleFunc("GET /v1/jobs/{id}", jobsRes.show(a))

	a.mutations()
}

// mutations are the POST, PATCH and DELETE endpoints; each decodes the
// request, calls the service operation GraphQL calls too, and shapes the
// response.
func (a *API) mutations() {
	a.mux.HandleFunc("POST /v1/projects", a.createProject)
	a.mux.HandleFunc("PATCH /v1/projects/{id}", a.updateProject)
	a.mux.HandleFunc("DELETE /v1/projects/{id}", a.deleter(a.s.Projects.Delete))

	a.mux.HandleFunc("POST /v1/files", func(w http.ResponseWriter, r *http.Request) {
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
	})
	a.mux.HandleFunc("POST /v1/files/{id}/confirm", func(w http.ResponseWriter, r *http.Request) {
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
	})
	a.mux.HandleFunc("DELETE /v1/files/{id}", a.deleter(a.s.Files.Delete))

	a.mux.HandleFunc("POST /v1/drawings", func(w http.ResponseWriter, r *http.Request) {
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
	})
	a.mux.HandleFunc("PATCH /v1/drawings/{id}", func(w http.ResponseWriter, r *http.Request) {
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
	})
	a.mux.HandleFunc("DELETE /v1/drawings/{id}", a.deleter(a.s.Drawings.Delete))

	a.mux.HandleFunc("PATCH /v1/sheets/{id}", func(w http.ResponseWriter, r *http.Request) {
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
	})
}

// Uploads serves the signed byte endpoints (no API key: the signature is
// the credential).
func (a *API) Uploads(mux *http.ServeMux, u *uploads.Service) {
	mux.HandleFunc("PUT /uploads/{id}", u.Put)
	mux.HandleFunc("GET /downloads/{id}", u.Get)
}

func required[T any](bad apierr.Fields, name string, v *T) {
	if v == nil {
		bad.Add(name, "is required")
	}
}

// emptyBody accepts no body or an empty JSON object.
func (a *API) emptyBody(w http.ResponseWriter, r *http.Request) error {
	if r.ContentLength == 0 {
		return nil
	}
	body, err := readBody(w, r, a.maxBody)
	if err != nil {
		return err
	}
	var v struct{}
	if len(body) == 0 {
		return nil
	}
	return decodeBody(body, &v)
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
