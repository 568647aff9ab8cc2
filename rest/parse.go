package rest

import (
	"net/http"

	"github.com/plangraph/plangraph/internal/service/parse"
)

// parse is POST /v1/parse: the body is the parse service's request
// (parse.Input, the json names of the interface specification); the
// service checks it, and the answer is 202 with the queued job.
func (a *API) parse(w http.ResponseWriter, r *http.Request, in parse.Input) (int, any, error) {
	j, err := a.s.Parse.Start(r.Context(), in)
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", "/v1/jobs/"+j.ID)
	return http.StatusAccepted, map[string]any{"data": acceptedOut(j)}, nil
}
