package rest

import (
	"net/http"

	"github.com/plangraph/plangraph/internal/service/search"
)

// searchProject is POST /v1/projects/{id}/search: the service's result is
// already the envelope {data: [results], _meta}.
func (a *API) searchProject(_ http.ResponseWriter, r *http.Request, in search.Input) (int, any, error) {
	res, err := a.s.Search.Search(r.Context(), r.PathValue("id"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, res, nil
}

// askProject is POST /v1/projects/{id}/ask: {data: answer}.
func (a *API) askProject(_ http.ResponseWriter, r *http.Request, in search.AskInput) (int, any, error) {
	res, err := a.s.Search.Ask(r.Context(), r.PathValue("id"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"data": res}, nil
}
