package graph

import (
	"context"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/webhookdelivery"
	"github.com/plangraph/plangraph/ent/webhookendpoint"
	"github.com/plangraph/plangraph/graph/generated"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/webhooks"
)

// webhookService is r.Webhooks, or an error when webhooks are not set up
// in this process.
func (r *Resolver) webhookService() (*webhooks.Service, error) {
	if r.Webhooks == nil {
		return nil, apierr.New(apierr.Unavailable, "webhooks are not available on this server")
	}
	return r.Webhooks, nil
}

// checkWebhookFields validates the fields of a create or update that are
// set (nil: unchanged) and returns the events filter to store (nil when
// events is nil).
func (r *Resolver) checkWebhookFields(ctx context.Context, url, description *string, events []string) ([]string, error) {
	w, err := r.webhookService()
	if err != nil {
		return nil, err
	}
	bad := apierr.Fields{}
	if url != nil {
		w.URLs.Check(ctx, *url, bad)
	}
	if description != nil {
		webhooks.CheckDescription(*description, bad)
	}
	var filter []string
	if events != nil {
		filter = webhooks.CheckEvents(events, bad)
	}
	return filter, bad.Err()
}

// createWebhook checks and stores a new endpoint with a new secret.
func (r *Resolver) createWebhook(ctx context.Context, in generated.CreateWebhookEndpointInput) (*generated.WebhookEndpointWithSecret, error) {
	events := in.Events
	if events == nil {
		events = []string{}
	}
	filter, err := r.checkWebhookFields(ctx, &in.URL, in.Description, events)
	if err != nil {
		return nil, err
	}
	secret := webhooks.NewSecret()
	c := r.Client.WebhookEndpoint.Create().SetURL(in.URL).SetEvents(filter).SetSecret(secret).
		SetNillableDescription(in.Description).SetNillableEnabled(in.Enabled)
	ep, err := c.Save(ctx)
	if err != nil {
		return nil, err
	}
	return &generated.WebhookEndpointWithSecret{Endpoint: ep, Secret: secret}, nil
}

// updateWebhook changes the fields that are set.
func (r *Resolver) updateWebhook(ctx context.Context, id string, in generated.UpdateWebhookEndpointInput) (*ent.WebhookEndpoint, error) {
	if _, err := r.Client.WebhookEndpoint.Get(ctx, id); err != nil {
		return nil, err // a missing endpoint is 404 before its fields are judged
	}
	filter, err := r.checkWebhookFields(ctx, in.URL, in.Description, in.Events)
	if err != nil {
		return nil, err
	}
	u := r.Client.WebhookEndpoint.UpdateOneID(id).SetNillableURL(in.URL).SetNillableDescription(in.Description).
		SetNillableEnabled(in.Enabled)
	if filter != nil {
		u.SetEvents(filter)
	}
	return u.Save(ctx)
}

// rotateWebhookSecret gives the endpoint a new secret; the one it
// had signs alongside for webhooks.RotationOverlap (replacing any earlier
// previous secret).
func (r *Resolver) rotateWebhookSecret(ctx context.Context, id string) (*generated.WebhookEndpointWithSecret, error) {
	ep, err := r.Client.WebhookEndpoint.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	secret := webhooks.NewSecret()
	until := time.Now().UTC().Add(webhooks.RotationOverlap).Truncate(time.Microsecond)
	// conditional on the secret read, so of two concurrent rotations one
	// wins and the other is told, instead of both losing a secret
	n, err := r.Client.WebhookEndpoint.Update().Where(webhookendpoint.ID(id), webhookendpoint.Secret(ep.Secret)).
		SetSecret(secret).SetPreviousSecret(ep.Secret).SetPreviousSecretExpiresAt(until).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, apierr.New(apierr.Conflict, "the secret of webhook endpoint %q was rotated at the same time; rotate again if you need another", id)
	}
	if ep, err = r.Client.WebhookEndpoint.Get(ctx, id); err != nil {
		return nil, err
	}
	return &generated.WebhookEndpointWithSecret{Endpoint: ep, Secret: secret}, nil
}

// redeliverWebhook queues the event of delivery deliveryID to its
// endpoint once more.
func (r *Resolver) redeliverWebhook(ctx context.Context, endpointID, deliveryID string) (*generated.WebhookRedelivery, error) {
	w, err := r.webhookService()
	if err != nil {
		return nil, err
	}
	ep, err := r.Client.WebhookEndpoint.Get(ctx, endpointID)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("webhook endpoint %q does not exist", endpointID)
	}
	if err != nil {
		return nil, err
	}
	d, err := r.Client.WebhookDelivery.Query().
		Where(webhookdelivery.ID(deliveryID), webhookdelivery.EndpointID(endpointID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("webhook endpoint %q has no delivery %q", endpointID, deliveryID)
	}
	if err != nil {
		return nil, err
	}
	if !ep.Enabled {
		return nil, apierr.New(apierr.Conflict, "webhook endpoint %q is disabled; enable it to redeliver", endpointID).WithCode("ENDPOINT_DISABLED")
	}
	e, err := r.Client.Event.Get(ctx, d.EventID)
	if ent.IsNotFound(err) {
		return nil, apierr.New(apierr.Conflict, "event %q no longer exists (it went with its job)", d.EventID).WithCode("EVENT_DELETED")
	}
	if err != nil {
		return nil, err
	}
	if err := w.Redeliver(ctx, ep, e); err != nil {
		return nil, &apierr.Error{Kind: apierr.Unavailable, Detail: "the delivery queue is unavailable; try again shortly", Err: err}
	}
	return &generated.WebhookRedelivery{EndpointID: ep.ID, EventID: e.ID, EventType: e.Type,
		QueuedAt: time.Now().UTC().Truncate(time.Microsecond)}, nil
}

// WebhookEventTypes are the types and patterns an events filter may hold.
func WebhookEventTypes() []string {
	return append(webhooks.EventTypes(), webhooks.EventPatterns()...)
}
