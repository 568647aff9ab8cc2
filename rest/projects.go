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
	p, err := a.s.Projects.Create(r.Context(), ent.CreateProjectInput{Name: *in.Name})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Location", "/v1/projects/"+p.ID)
	writeJSON(w, http.StatusCreated, projectOut(p))
}

func (a *API) updateProject(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name *string `json:"name"`
	}
	if err := a.decode(w, r, &in); err != nil {
		a.fail(w, r, err)
		return
	}
	p, err := a.s.Projects.Update(r.Context(), r.PathValue("id"), ent.UpdateProjectInput{Name: in.Name})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, projectOut(p))
}
