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

func (a *API) createProject(w http.ResponseWriter, r *http.Request, in nameBody) (int, any, error) {
	if in.Name == nil {
		return 0, nil, apierr.Invalid("name", "is required")
	}
	p, err := a.s.Projects.Create(r.Context(), ent.CreateProjectInput{Name: *in.Name})
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", "/v1/projects/"+p.ID)
	return http.StatusCreated, projectOut(p), nil
}

func (a *API) updateProject(_ http.ResponseWriter, r *http.Request, in nameBody) (int, any, error) {
	p, err := a.s.Projects.Update(r.Context(), r.PathValue("id"), ent.UpdateProjectInput{Name: in.Name})
	return answer(http.StatusOK, p, err, projectOut)
}
