package rest

import (
	"net/http"
	"time"

	listing "github.com/plangraph/plangraph/internal/service/query"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/service/webhooks"
)

// WebhookEndpoint is the REST representation of a webhook endpoint. Secret
// is present only in the answers of create and rotate_secret.
type WebhookEndpoint struct {
	ID                      string     `json:"id"`
	URL                     string     `json:"url"`
	Description             string     `json:"description"`
	Events                  []string   `json:"events"`
	Enabled                 bool       `json:"enabled"`
	Secret                  string     `json:"secret,omitempty"`
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at"`
	CreatedAt               time.Time  `json:"created_at"`
	UpdatedAt               time.Time  `json:"updated_at"`
}

func webhookEndpointOut(e *ent.WebhookEndpoint) WebhookEndpoint {
	out := WebhookEndpoint{ID: e.ID, URL: e.URL, Description: e.Description, Events: e.Events, Enabled: e.Enabled,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
	if out.Events == nil {
		out.Events = []string{}
	}
	if e.PreviousSecretExpiresAt != nil && e.PreviousSecretExpiresAt.After(time.Now()) {
		out.PreviousSecretExpiresAt = e.PreviousSecretExpiresAt
	}
	return out
}

// webhookWithSecret is the answer of create and rotate_secret: the endpoint
// with its secret, which an Idempotency-Key replay does not show again.
type webhookWithSecret struct{ WebhookEndpoint }

func (w webhookWithSecret) replayCopy() any {
	w.Secret = ""
	return w.WebhookEndpoint
}

func webhookSecretOut(s *webhooks.EndpointWithSecret) webhookWithSecret {
	out := webhookEndpointOut(s.Endpoint)
	out.Secret = s.Secret
	return webhookWithSecret{out}
}

// WebhookDelivery is one logged attempt to send an event to an endpoint.
type WebhookDelivery struct {
	ID             string     `json:"id"`
	EndpointID     string     `json:"endpoint_id"`
	EventID        string     `json:"event_id"`
	EventType      string     `json:"event_type"`
	Attempt        int        `json:"attempt"`
	Manual         bool       `json:"manual"`
	Status         string     `json:"status"`
	ResponseStatus *int       `json:"response_status"`
	LatencyMS      int        `json:"latency_ms"`
	Error          *string    `json:"error"`
	NextAttemptAt  *time.Time `json:"next_attempt_at"`
	CreatedAt      time.Time  `json:"created_at"`
}

func webhookDeliveryOut(d *ent.WebhookDelivery) WebhookDelivery {
	out := WebhookDelivery{ID: d.ID, EndpointID: d.EndpointID, EventID: d.EventID, EventType: d.EventType,
		Attempt: d.Attempt, Manual: d.Manual, Status: string(d.Status), LatencyMS: d.LatencyMs,
		NextAttemptAt: d.NextAttemptAt, CreatedAt: d.CreatedAt}
	if d.ResponseStatus != 0 {
		out.ResponseStatus = ptr(d.ResponseStatus)
	}
	if d.Error != "" {
		out.Error = ptr(d.Error)
	}
	return out
}

// WebhookRedelivery is a queued manual redelivery.
type WebhookRedelivery struct {
	EndpointID string    `json:"endpoint_id"`
	EventID    string    `json:"event_id"`
	EventType  string    `json:"event_type"`
	QueuedAt   time.Time `json:"queued_at"`
}

// webhookEndpointBody is the body of POST and PATCH.
type webhookEndpointBody struct {
	URL         *string   `json:"url"`
	Description *string   `json:"description"`
	Events      *[]string `json:"events"`
	Enabled     *bool     `json:"enabled"`
}

// events is the filter to set: nil when absent, never nil when given.
func (b webhookEndpointBody) events() []string {
	if b.Events == nil {
		return nil
	}
	if *b.Events == nil {
		return []string{}
	}
	return *b.Events
}

// webhookEndpointsRes is GET /v1/webhook_endpoints and /v1/webhook_endpoints/{id}.
var webhookEndpointsRes = resource[*ent.WebhookEndpoint, WebhookEndpoint]{c: listing.WebhookEndpoints, singular: "webhook endpoint",
	out: func(e *ent.WebhookEndpoint, _ listing.Expansion) WebhookEndpoint { return webhookEndpointOut(e) }}

// The webhook endpoints' handlers: every operation is the webhook
// service's (internal/service/webhooks), which GraphQL calls too.

func (a *API) createWebhookEndpoint(w http.ResponseWriter, r *http.Request, in webhookEndpointBody) (int, any, error) {
	if in.URL == nil {
		return 0, nil, apierr.Invalid("url", "is required")
	}
	res, err := a.s.Webhooks.Create(r.Context(), webhooks.CreateInput{
		URL: *in.URL, Description: in.Description, Events: in.events(), Enabled: in.Enabled})
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", "/v1/webhook_endpoints/"+res.Endpoint.ID)
	return http.StatusCreated, webhookSecretOut(res), nil
}

func (a *API) updateWebhookEndpoint(_ http.ResponseWriter, r *http.Request, in webhookEndpointBody) (int, any, error) {
	ep, err := a.s.Webhooks.Update(r.Context(), r.PathValue("id"), webhooks.UpdateInput{
		URL: in.URL, Description: in.Description, Events: in.events(), Enabled: in.Enabled})
	return answer(http.StatusOK, ep, err, webhookEndpointOut)
}

func (a *API) rotateWebhookSecret(_ http.ResponseWriter, r *http.Request, _ noBody) (int, any, error) {
	res, err := a.s.Webhooks.Rotate(r.Context(), r.PathValue("id"))
	return answer(http.StatusOK, res, err, webhookSecretOut)
}

func (a *API) redeliverWebhook(w http.ResponseWriter, r *http.Request, _ noBody) (int, any, error) {
	res, err := a.s.Webhooks.Redeliver(r.Context(), r.PathValue("id"), r.PathValue("delivery_id"))
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", "/v1/webhook_endpoints/"+res.EndpointID+"/deliveries")
	return http.StatusAccepted, map[string]any{"data": WebhookRedelivery{
		EndpointID: res.EndpointID, EventID: res.EventID, EventType: res.EventType, QueuedAt: res.QueuedAt}}, nil
}

// webhookDeliveries is GET /v1/webhook_endpoints/{id}/deliveries: the
// endpoint's attempts, newest first, paged like every list. The endpoint
// is one of the list's filters, so a cursor carries it and continues only
// the log it came from.
func (a *API) webhookDeliveries(w http.ResponseWriter, r *http.Request) {
	ctx, id := r.Context(), r.PathValue("id")
	if _, err := a.s.Webhooks.Get(ctx, id); err != nil {
		a.fail(w, r, err)
		return
	}
	deliveries := resource[*ent.WebhookDelivery, WebhookDelivery]{c: listing.WebhookDeliveries, singular: "webhook delivery",
		out: func(d *ent.WebhookDelivery, _ listing.Expansion) WebhookDelivery { return webhookDeliveryOut(d) }}
	serveList(a, w, r, deliveries, map[string]string{"endpoint_id": id})
}
