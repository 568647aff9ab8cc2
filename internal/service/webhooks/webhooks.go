// Package webhooks is the webhook endpoint operations: create (with a new
// signing secret), change, fetch, list, delete and rotate the secret of an
// endpoint, read its delivery log and redeliver one of its events. Checking
// endpoint settings and queueing deliveries is the delivery engine's
// (internal/events/webhooks, imported here as engine).
package webhooks

import (
	"context"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/webhookdelivery"
	"github.com/plangraph/plangraph/ent/webhookendpoint"
	"github.com/plangraph/plangraph/internal/apierr"
	engine "github.com/plangraph/plangraph/internal/events/webhooks"
	"github.com/plangraph/plangraph/internal/service/base"
)

// Service runs the webhook endpoint operations.
type Service struct{ *base.Deps }

// CreateInput is a new endpoint. Events nil or empty sends every type;
// Enabled nil enables it.
type CreateInput struct {
	URL         string
	Description *string
	Events      []string
	Enabled     *bool
}

// UpdateInput are the fields to change; nil keeps a field's value
// (Events: an empty, non-nil list sends every type).
type UpdateInput struct {
	URL         *string
	Description *string
	Events      []string
	Enabled     *bool
}

// EndpointWithSecret is an endpoint and its signing secret, which only
// Create and Rotate return.
type EndpointWithSecret struct {
	Endpoint *ent.WebhookEndpoint
	Secret   string
}

// Redelivery is a queued manual redelivery.
type Redelivery struct {
	EndpointID string
	EventID    string
	EventType  string
	QueuedAt   time.Time
}

// EndpointFilter selects endpoints; nil fields select all.
type EndpointFilter struct {
	Enabled *bool
}

// DeliveryFilter selects attempts of an endpoint's delivery log; nil
// fields select all.
type DeliveryFilter struct {
	EventID *string
	Status  *webhookdelivery.Status
}

const kind = "webhook endpoint"

// EventTypes are the types and patterns an events filter may hold.
func EventTypes() []string {
	return append(engine.EventTypes(), engine.EventPatterns()...)
}

// deliveryEngine is the delivery engine, or an error when webhooks are not set up
// in this process.
func (s *Service) deliveryEngine() (*engine.Service, error) {
	if s.Webhooks == nil {
		return nil, apierr.New(apierr.Unavailable, "webhooks are not available on this server")
	}
	return s.Webhooks, nil
}

// checkFields validates the fields of a create or update that are set
// (nil: unchanged) and returns the events filter to store (nil when events
// is nil).
func (s *Service) checkFields(ctx context.Context, url, description *string, events []string) ([]string, error) {
	w, err := s.deliveryEngine()
	if err != nil {
		return nil, err
	}
	bad := apierr.Fields{}
	if url != nil {
		w.URLs.Check(ctx, *url, bad)
	}
	if description != nil {
		engine.CheckDescription(*description, bad)
	}
	var filter []string
	if events != nil {
		filter = engine.CheckEvents(events, bad)
	}
	return filter, bad.Err()
}

// Create checks and stores a new endpoint with a new secret.
func (s *Service) Create(ctx context.Context, in CreateInput) (*EndpointWithSecret, error) {
	events := in.Events
	if events == nil {
		events = []string{}
	}
	filter, err := s.checkFields(ctx, &in.URL, in.Description, events)
	if err != nil {
		return nil, err
	}
	secret := engine.NewSecret()
	var ep *ent.WebhookEndpoint
	err = base.WithTx(ctx, s.DB, func(tx *ent.Tx) error {
		// counted and created with the organization locked, so that
		// concurrent creates cannot pass the limit together
		if err := base.LockOrg(ctx, tx); err != nil {
			return err
		}
		n, err := tx.WebhookEndpoint.Query().Count(ctx)
		if err != nil {
			return err
		}
		if limit := s.Webhooks.MaxEndpoints(); n >= limit {
			return apierr.New(apierr.Conflict, "the organization has %d webhook endpoints, the most it may have; delete one to add another", limit).
				WithCode("WEBHOOK_ENDPOINT_LIMIT")
		}
		ep, err = tx.WebhookEndpoint.Create().SetURL(in.URL).SetEvents(filter).SetSecret(s.Webhooks.Box.Seal(secret)).
			SetNillableDescription(in.Description).SetNillableEnabled(in.Enabled).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &EndpointWithSecret{Endpoint: ep, Secret: secret}, nil
}

// Update changes the fields that are set.
func (s *Service) Update(ctx context.Context, id string, in UpdateInput) (*ent.WebhookEndpoint, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err // a missing endpoint is 404 before its fields are judged
	}
	filter, err := s.checkFields(ctx, in.URL, in.Description, in.Events)
	if err != nil {
		return nil, err
	}
	u := s.DB.WebhookEndpoint.UpdateOneID(id).SetNillableURL(in.URL).SetNillableDescription(in.Description).
		SetNillableEnabled(in.Enabled)
	if filter != nil {
		u.SetEvents(filter)
	}
	ep, err := u.Save(ctx)
	return ep, base.NotFoundAs(err, kind, id)
}

// Get fetches an endpoint.
func (s *Service) Get(ctx context.Context, id string) (*ent.WebhookEndpoint, error) {
	return base.Get(ctx, kind, id, s.DB.WebhookEndpoint.Get)
}

// Endpoints is the query of the endpoints f selects.
func (s *Service) Endpoints(f EndpointFilter) *ent.WebhookEndpointQuery {
	q := s.DB.WebhookEndpoint.Query()
	if f.Enabled != nil {
		q.Where(webhookendpoint.Enabled(*f.Enabled))
	}
	return q
}

// Delete deletes an endpoint and its delivery log; its queued attempts end
// without sending.
func (s *Service) Delete(ctx context.Context, id string) error {
	return base.NotFoundAs(s.DB.WebhookEndpoint.DeleteOneID(id).Exec(ctx), kind, id)
}

// Rotate gives the endpoint a new secret; the one it had signs alongside
// for engine.RotationOverlap (replacing any earlier previous secret).
func (s *Service) Rotate(ctx context.Context, id string) (*EndpointWithSecret, error) {
	ep, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	secret := engine.NewSecret()
	until := time.Now().UTC().Add(engine.RotationOverlap).Truncate(time.Microsecond)
	// conditional on the secret read, so of two concurrent rotations one
	// wins and the other is told, instead of both losing a secret
	n, err := s.DB.WebhookEndpoint.Update().Where(webhookendpoint.ID(id), webhookendpoint.Secret(ep.Secret)).
		SetSecret(s.Webhooks.Box.Seal(secret)).SetPreviousSecret(ep.Secret).SetPreviousSecretExpiresAt(until).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, apierr.New(apierr.Conflict, "the secret of webhook endpoint %q was rotated at the same time; rotate again if you need another", id)
	}
	if ep, err = s.Get(ctx, id); err != nil {
		return nil, err
	}
	return &EndpointWithSecret{Endpoint: ep, Secret: secret}, nil
}

// Deliveries is the query of the delivery log of endpoint endpointID, the
// attempts f selects. It does not check that the endpoint exists (Get
// does): an unknown one has no attempts.
func (s *Service) Deliveries(endpointID string, f DeliveryFilter) *ent.WebhookDeliveryQuery {
	q := s.DB.WebhookDelivery.Query().Where(webhookdelivery.EndpointID(endpointID))
	if f.EventID != nil {
		q.Where(webhookdelivery.EventID(*f.EventID))
	}
	if f.Status != nil {
		q.Where(webhookdelivery.StatusEQ(*f.Status))
	}
	return q
}

// Redeliver queues the event of delivery deliveryID to its endpoint once
// more.
func (s *Service) Redeliver(ctx context.Context, endpointID, deliveryID string) (*Redelivery, error) {
	w, err := s.deliveryEngine()
	if err != nil {
		return nil, err
	}
	ep, err := s.Get(ctx, endpointID)
	if err != nil {
		return nil, err
	}
	d, err := s.DB.WebhookDelivery.Query().
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
	e, err := s.DB.Event.Get(ctx, d.EventID)
	if ent.IsNotFound(err) {
		return nil, apierr.New(apierr.Conflict, "event %q no longer exists (it went with its job)", d.EventID).WithCode("EVENT_DELETED")
	}
	if err != nil {
		return nil, err
	}
	if err := w.Redeliver(ctx, ep, e); err != nil {
		return nil, &apierr.Error{Kind: apierr.Unavailable, Detail: "the delivery queue is unavailable; try again shortly", Err: err}
	}
	return &Redelivery{EndpointID: ep.ID, EventID: e.ID, EventType: e.Type,
		QueuedAt: time.Now().UTC().Truncate(time.Microsecond)}, nil
}
