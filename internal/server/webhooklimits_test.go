package server_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/plangraph/plangraph/internal/testenv"
)

// An organization may have --webhook-max-endpoints endpoints: creates past
// the limit, concurrent ones included, are 409 WEBHOOK_ENDPOINT_LIMIT;
// another organization is not affected, and deleting one frees its place.
func TestWebhookEndpointLimit(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			cfg := p.Config
			cfg.RateManagement, cfg.BurstManagement = 100000, 100000
			cfg.WebhookMaxEndpoints = 3
			s := testenv.StartServer(t, cfg)
			key := s.CreateKey(t, "Many hooks org")
			other := s.CreateKey(t, "Other hooks org")

			first := createWebhook(t, s, key, map[string]any{"url": publicHook})
			// five at once for the two places left: exactly two are created
			res := make([]*testenv.Response, 5)
			var wg sync.WaitGroup
			for i := range res {
				wg.Go(func() {
					res[i] = s.Send(t, http.MethodPost, key, "/v1/webhook_endpoints", map[string]any{"url": publicHook})
				})
			}
			wg.Wait()
			created := 0
			for _, r := range res {
				if r.Status == http.StatusCreated {
					created++
				} else {
					r.ExpectProblem(t, http.StatusConflict, "WEBHOOK_ENDPOINT_LIMIT")
				}
			}
			if created != 2 {
				t.Fatalf("%d of 5 concurrent creates succeeded with 2 places left", created)
			}
			var list struct{ Data []webhookRec }
			s.Get(t, key, "/v1/webhook_endpoints").ExpectStatus(t, http.StatusOK).JSON(t, &list)
			if len(list.Data) != 3 {
				t.Fatalf("the organization has %d endpoints, limit 3", len(list.Data))
			}
			postJSON(t, s, key, "/v1/webhook_endpoints", map[string]any{"url": publicHook}).
				ExpectProblem(t, http.StatusConflict, "WEBHOOK_ENDPOINT_LIMIT")

			// another organization has its own places
			createWebhook(t, s, other, map[string]any{"url": publicHook})

			// GraphQL refuses alike
			g := s.GraphQL(t, key, `mutation { createWebhookEndpoint(input: {url: "`+publicHook+`"}) { secret } }`, nil)
			if len(g.Errors) == 0 || g.Errors[0].Extensions["code"] != "WEBHOOK_ENDPOINT_LIMIT" {
				t.Errorf("GraphQL create past the limit: %+v", g.Errors)
			}

			s.Send(t, http.MethodDelete, key, "/v1/webhook_endpoints/"+first.ID, nil).ExpectStatus(t, http.StatusNoContent)
			createWebhook(t, s, key, map[string]any{"url": publicHook})
		})
	}
}
