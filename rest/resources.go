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

// createFileBody is the body of POST /v1/files.
type createFileBody struct {
	ProjectID   *string `json:"project_id"`
	Filename    *string `json:"filename"`
	ContentType *string `json:"content_type"`
	Size        *int64  `json:"size"`
}

func (a *API) createFile(w http.ResponseWriter, r *http.Request, in createFileBody) (int, any, error) {
	if err := requireAll(map[string]bool{"project_id": in.ProjectID != nil, "filename": in.Filename != nil,
		"content_type": in.ContentType != nil, "size": in.Size != nil}); err != nil {
		return 0, nil, err
	}
	up, err := a.s.Files.CreateUpload(r.Context(), files.UploadInput{
		ProjectID: *in.ProjectID, Filename: *in.Filename, ContentType: *in.ContentType, Size: int(*in.Size)})
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", "/v1/files/"+up.File.ID)
	return http.StatusCreated, map[string]any{
		"id": up.File.ID, "upload_url": up.UploadURL, "method": up.Method,
		"headers": map[string]string{"Content-Type": up.File.ContentType}, "expires_at": up.ExpiresAt,
		"file": fileOut(up.File),
	}, nil
}

func (a *API) confirmFile(_ http.ResponseWriter, r *http.Request, _ noBody) (int, any, error) {
	f, err := a.s.Files.Confirm(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	out := fileOut(f)
	u, err := a.s.Files.DownloadURL(r.Context(), f.ID)
	if err != nil {
		return 0, nil, err
	}
	out.DownloadURL = &u
	return http.StatusOK, out, nil
}

// createDrawingBody is the body of POST /v1/drawings.
type createDrawingBody struct {
	ProjectID *string `json:"project_id"`
	FileID    *string `json:"file_id"`
	Name      *string `json:"name"`
}

func (a *API) createDrawing(w http.ResponseWriter, r *http.Request, in createDrawingBody) (int, any, error) {
	if err := requireAll(map[string]bool{"project_id": in.ProjectID != nil, "file_id": in.FileID != nil}); err != nil {
		return 0, nil, err
	}
	res, err := a.s.Drawings.Create(r.Context(), drawings.CreateInput{ProjectID: *in.ProjectID, FileID: *in.FileID, Name: in.Name})
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", "/v1/jobs/"+res.Job.ID)
	return http.StatusAccepted, map[string]any{"data": struct {
		Accepted
		Drawing *Drawing `json:"drawing"`
	}{acceptedOut(res.Job), drawingOut(res.Drawing)}}, nil
}

// nameBody is the body of the PATCHes that rename (and of POST /v1/projects).
type nameBody struct {
	Name *string `json:"name"`
}

func (a *API) updateDrawing(_ http.ResponseWriter, r *http.Request, in nameBody) (int, any, error) {
	d, err := a.s.Drawings.Update(r.Context(), r.PathValue("id"), drawings.Patch{Name: in.Name})
	return answer(http.StatusOK, d, err, drawingOut)
}

// updateSheetBody is the body of PATCH /v1/sheets/{id}.
type updateSheetBody struct {
	SheetNumber *string `json:"sheet_number"`
	Title       *string `json:"title"`
	Discipline  *string `json:"discipline"`
}

func (a *API) updateSheet(_ http.ResponseWriter, r *http.Request, in updateSheetBody) (int, any, error) {
	s, err := a.s.Drawings.UpdateSheet(r.Context(), r.PathValue("id"), drawings.SheetPatch{SheetNumber: in.SheetNumber, Title: in.Title, Discipline: in.Discipline})
	return answer(http.StatusOK, s, err, sheetOut)
}

// Uploads serves the signed byte endpoints (no API key: the signature is
// the credential).
func (a *API) Uploads(mux *http.ServeMux, u *uploads.Service) {
	a.uploads = u
	a.register(mux, groupSigned)
}

// requireAll is the validation error naming the fields of given that
// were not given, or nil.
func requireAll(given map[string]bool) error {
	bad := apierr.Fields{}
	for name, ok := range given {
		if !ok {
			bad.Add(name, "is required")
		}
	}
	return bad.Err()
}

// noBody is the body of the POSTs that take none (or an empty object).
type noBody struct{}

// jsonOp makes the handler of an operation with a JSON body: the body is
// decoded into a new In (for noBody, none or an empty object is
// accepted), then op's answer is written with its status, or its error.
func jsonOp[In any](op func(*API, http.ResponseWriter, *http.Request, In) (int, any, error)) func(*API) http.HandlerFunc {
	return func(a *API) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			var in In
			var err error
			if _, none := any(in).(noBody); none {
				err = a.emptyBody(w, r)
			} else {
				err = a.decode(w, r, &in)
			}
			if err != nil {
				a.fail(w, r, err)
				return
			}
			status, out, err := op(a, w, r, in)
			if err != nil {
				a.fail(w, r, err)
				return
			}
			storeForReplay(r, out)
			writeJSON(w, status, out)
		}
	}
}

// answer is an operation's answer: status and shape(v), or err.
func answer[T, R any](status int, v T, err error, shape func(T) R) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	return status, shape(v), nil
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
