package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/schema"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/service/drawings"
	"github.com/plangraph/plangraph/internal/service/files"
	"github.com/plangraph/plangraph/internal/uploads"
)

func anyValue(string) error { return nil }

func oneOf(values ...string) func(string) error {
	return func(v string) error {
		for _, x := range values {
			if x == v {
				return nil
			}
		}
		return apierr.New(apierr.Validation, "must be one of %v", values)
	}
}

func ptr[T any](v T) *T { return &v }

// filtered applies a GraphQL where-input (the same filter code GraphQL
// runs) to q.
func filtered[Q any](q Q, apply func(Q) (Q, error)) Q {
	out, err := apply(q)
	if err != nil {
		// where-inputs built here are always valid; a failure is a bug
		panic(err)
	}
	return out
}

func (a *API) resources() {
	projects := resource[*ent.Project, Project]{
		name: "projects", singular: "project",
		query: func(c *ent.Client, f map[string]string) pageQuery[*ent.Project] { return c.Project.Query() },
		key:   func(p *ent.Project) (time.Time, string) { return p.CreatedAt, p.ID },
		out:   projectOut,
		get:   a.s.Projects.Get,
	}
	a.mux.HandleFunc("GET /v1/projects", projects.list(a))
	a.mux.HandleFunc("GET /v1/projects/{id}", projects.show(a))

	files := resource[*ent.File, *File]{
		name: "files", singular: "file",
		filters: filterSpec{"project_id": anyValue, "content_type": anyValue}, required: []string{"project_id"},
		query: func(c *ent.Client, f map[string]string) pageQuery[*ent.File] {
			w := &ent.FileWhereInput{ProjectID: ptr(f["project_id"])}
			if v, ok := f["content_type"]; ok {
				w.ContentType = &v
			}
			return filtered(c.File.Query(), w.Filter)
		},
		key: func(f *ent.File) (time.Time, string) { return f.CreatedAt, f.ID },
		out: fileOut,
		get: a.s.Files.Get,
	}
	a.mux.HandleFunc("GET /v1/files", files.list(a))
	a.mux.HandleFunc("GET /v1/files/{id}", func(w http.ResponseWriter, r *http.Request) {
		f, err := files.one(a, r)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		u, err := a.s.Files.DownloadURL(r.Context(), f.ID)
		if u != "" {
			f.DownloadURL = &u
		}
		if err != nil {
			a.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, f)
	})

	drawings := resource[*ent.Drawing, *Drawing]{
		name: "drawings", singular: "drawing",
		filters: filterSpec{"project_id": anyValue, "name": anyValue}, required: []string{"project_id"},
		query: func(c *ent.Client, f map[string]string) pageQuery[*ent.Drawing] {
			w := &ent.DrawingWhereInput{ProjectID: ptr(f["project_id"])}
			if v, ok := f["name"]; ok {
				w.NameContainsFold = &v
			}
			return filtered(c.Drawing.Query(), w.Filter)
		},
		key:    func(d *ent.Drawing) (time.Time, string) { return d.CreatedAt, d.ID },
		out:    drawingOut,
		get:    a.s.Drawings.Get,
		expand: expandDrawings,
	}
	a.mux.HandleFunc("GET /v1/drawings", drawings.list(a))
	a.mux.HandleFunc("GET /v1/drawings/{id}", drawings.show(a))

	sheets := resource[*ent.Sheet, *Sheet]{
		name: "sheets", singular: "sheet",
		filters: filterSpec{"drawing_id": anyValue, "project_id": anyValue, "discipline": anyValue, "sheet_number": anyValue},
		query: func(c *ent.Client, f map[string]string) pageQuery[*ent.Sheet] {
			w := &ent.SheetWhereInput{}
			if v, ok := f["drawing_id"]; ok {
				w.DrawingID = &v
			}
			if v, ok := f["project_id"]; ok {
				w.ProjectID = &v
			}
			if v, ok := f["discipline"]; ok {
				w.Discipline = &v
			}
			if v, ok := f["sheet_number"]; ok {
				w.SheetNumber = &v
			}
			return filtered(c.Sheet.Query(), w.Filter)
		},
		key:    func(s *ent.Sheet) (time.Time, string) { return s.CreatedAt, s.ID },
		out:    sheetOut,
		get:    a.s.Query.Sheet,
		expand: expandSheets,
	}
	a.mux.HandleFunc("GET /v1/sheets", sheets.list(a))
	a.mux.HandleFunc("GET /v1/sheets/{id}", sheets.show(a))

	blocks := resource[*ent.Block, *Block]{
		name: "blocks", singular: "block",
		filters: filterSpec{"sheet_id": anyValue, "type": oneOf(schema.BlockTypes...)},
		query: func(c *ent.Client, f map[string]string) pageQuery[*ent.Block] {
			w := &ent.BlockWhereInput{}
			if v, ok := f["sheet_id"]; ok {
				w.SheetID = &v
			}
			if v, ok := f["type"]; ok {
				w.Type = ptr(block.Type(v))
			}
			return filtered(c.Block.Query(), w.Filter)
		},
		key:    func(b *ent.Block) (time.Time, string) { return b.CreatedAt, b.ID },
		out:    blockOut,
		get:    a.s.Query.Block,
		expand: expandBlocks,
	}
	a.mux.HandleFunc("GET /v1/blocks", blocks.list(a))
	a.mux.HandleFunc("GET /v1/blocks/{id}", blocks.show(a))

	overlays := resource[*ent.Overlay, *Overlay]{
		name: "overlays", singular: "overlay",
		filters: filterSpec{"project_id": anyValue, "job_id": anyValue, "drawing_id": anyValue, "has_changes": checkBool},
		query: func(c *ent.Client, f map[string]string) pageQuery[*ent.Overlay] {
			w := &ent.OverlayWhereInput{}
			if v, ok := f["project_id"]; ok {
				w.ProjectID = &v
			}
			if v, ok := f["job_id"]; ok {
				w.JobID = &v
			}
			if v, ok := f["has_changes"]; ok {
				w.HasChanges = ptr(v == "true")
			}
			if v, ok := f["drawing_id"]; ok {
				// overlays involving a block of any sheet of the drawing
				inDrawing := []*ent.BlockWhereInput{{HasSheetWith: []*ent.SheetWhereInput{{DrawingID: &v}}}}
				w.Or = []*ent.OverlayWhereInput{{HasBlockAWith: inDrawing}, {HasBlockBWith: inDrawing}}
			}
			return filtered(c.Overlay.Query(), w.Filter)
		},
		key:    func(o *ent.Overlay) (time.Time, string) { return o.CreatedAt, o.ID },
		out:    overlayOut,
		get:    a.s.Query.Overlay,
		expand: expandOverlays,
	}
	a.mux.HandleFunc("GET /v1/overlays", overlays.list(a))
	a.mux.HandleFunc("GET /v1/overlays/{id}", overlays.show(a))

	targetTypes := []string{"drawing", "sheet", "block", "overlay", "file", "project"}
	jobsRes := resource[*ent.Job, *Job]{
		name: "jobs", singular: "job",
		filters: filterSpec{"project_id": anyValue, "status": oneOf(jobstatus.All...), "type": anyValue,
			"target_type": oneOf(targetTypes...), "target_id": anyValue, "parent_id": anyValue},
		query: func(c *ent.Client, f map[string]string) pageQuery[*ent.Job] {
			w := &ent.JobWhereInput{}
			if v, ok := f["project_id"]; ok {
				w.ProjectID = &v
			}
			if v, ok := f["status"]; ok {
				w.Status = ptr(job.Status(v))
			}
			if v, ok := f["type"]; ok {
				w.Type = &v
			}
			if v, ok := f["target_type"]; ok {
				w.TargetType = ptr(job.TargetType(v))
			}
			if v, ok := f["target_id"]; ok {
				w.TargetID = &v
			}
			if v, ok := f["parent_id"]; ok {
				w.ParentID = &v
			}
			return filtered(c.Job.Query(), w.Filter)
		},
		key:    func(j *ent.Job) (time.Time, string) { return j.CreatedAt, j.ID },
		out:    jobOut,
		get:    a.s.Query.Job,
		expand: expandJobs,
	}
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
