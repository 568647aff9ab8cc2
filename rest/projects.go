package rest

import (
	"net/http"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
)

// Project is the REST representation of a project.
type Project struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func projectOut(p *ent.Project) Project {
	return Project{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

func (a *API) createProject(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name *string `json:"name"`
	}
	if err := a.decode(w, r, &in); err != nil {
		a.fail(w, r, err)
		return
	}
	if in.Name == nil {
		a.fail(w, r, apierr.Invalid("name", "is required"))
		return
	}
	p, err := a.r.Mutation().CreateProject(r.Context(), ent.CreateProjectInput{Name: *in.Name})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/projects/"+p.ID)
	writeJSON(w, http.StatusCreated, projectOut(p))
}

func (a *API) getProject(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	p, err := a.r.Query().Project(r.Context(), id)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if p == nil {
		a.fail(w, r, notFound("project", id))
		return
	}
	writeJSON(w, http.StatusOK, projectOut(p))
}

func (a *API) updateProject(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name *string `json:"name"`
	}
	if err := a.decode(w, r, &in); err != nil {
		a.fail(w, r, err)
		return
	}
	id := r.PathValue("id")
	p, err := a.r.Mutation().UpdateProject(r.Context(), id, ent.UpdateProjectInput{Name: in.Name})
	if ent.IsNotFound(err) {
		err = notFound("project", id)
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, projectOut(p))
}

func (a *API) deleteProject(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	_, err := a.r.Mutation().DeleteProject(r.Context(), id)
	if ent.IsNotFound(err) {
		err = notFound("project", id)
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *API) listProjects(w http.ResponseWriter, r *http.Request) {
	lr, err := a.parseList(r.Context(), r.URL.Query(), "projects", filterSpec{})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	rows, meta, err := paginate(r.Context(), a, a.r.Client.Project.Query(), "projects", lr,
		func(p *ent.Project) (time.Time, string) { return p.CreatedAt, p.ID })
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out := make([]Project, len(rows))
	for i, p := range rows {
		out[i] = projectOut(p)
	}
	writeList(w, out, meta)
}
