package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/event"
	"github.com/plangraph/plangraph/ent/webhookdelivery"
	"github.com/plangraph/plangraph/ent/webhookendpoint"
	"github.com/plangraph/plangraph/internal/secretbox"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/jobs"
)

// Task types (all on jobs.QueueWebhooks).
const (
	// TypeFanOut turns one event into a delivery task per endpoint that
	// wants it (task id: the event id).
	TypeFanOut = "webhook:fanout"
	// TypeDeliver makes one attempt to send one event to one endpoint and
	// is retried on the delivery schedule.
	TypeDeliver = "webhook:deliver"
	// TypeSweep dispatches events left undispatched for over a minute (a
	// fan-out that could not be queued when the event was recorded).
	TypeSweep = "webhook:sweep"
)

const (
	// sweepAge is how old an undispatched event must be for the sweep to
	// take it (younger ones are being dispatched by whoever recorded them);
	// sweepHorizon how old it may be (older news is not sent).
	sweepAge     = time.Minute
	sweepHorizon = 72 * time.Hour
	// taskRetries backstops asynq's retries of a delivery task. Attempts
	// are counted in the delivery log, and a run that waits for a busy
	// endpoint's slot is no attempt, so this is not the attempt limit
	// (Schedule.Attempts is).
	taskRetries = 100_000
)

// errBusy defers an attempt to an endpoint, or for an organization, that
// has all its slots taken.
var errBusy = fmt.Errorf("the endpoint or its organization already has as many attempts in flight as it may have: %w", jobs.ErrBusy)

// DefaultMaxEndpoints is how many endpoints an organization may have
// unless the operator says otherwise (--webhook-max-endpoints).
const DefaultMaxEndpoints = 20

// Options configure delivery.
type Options struct {
	// AllowPrivate lets URLs reach private, loopback and link-local
	// addresses (--webhook-allow-private-urls).
	AllowPrivate bool
	// Timeout bounds one attempt (10 s when 0).
	Timeout time.Duration
	// RetryBase is the first retry's delay (30 s when 0).
	RetryBase time.Duration
	// Concurrency is the webhook pool's size per worker process; one
	// endpoint may hold a quarter of it (at least one slot) at a time, and
	// the endpoints of one organization three quarters of it (at least one), across
	// every worker process.
	Concurrency int
	// MaxEndpoints is how many endpoints an organization may have
	// (DefaultMaxEndpoints when 0).
	MaxEndpoints int
	// CAFile holds CA certificates receivers' certificates may chain to,
	// besides the system's.
	CAFile string
	// Box seals endpoints' secrets in the database (internal/secretbox).
	Box *secretbox.Box
}

// Service validates endpoint settings and delivers events.
type Service struct {
	DB       *ent.Client
	Queue    *jobs.Queue
	Log      *slog.Logger
	URLs     URLPolicy
	Schedule Schedule
	// Box seals the endpoints' secrets as they are stored and opens them to sign.
	Box          *secretbox.Box
	timeout      time.Duration
	slots        slots
	maxEndpoints int
	hc           *http.Client
}

// MaxEndpoints is how many endpoints an organization may have.
func (s *Service) MaxEndpoints() int { return s.maxEndpoints }

// New makes the service.
func New(db *ent.Client, q *jobs.Queue, rdb redis.UniversalClient, log *slog.Logger, o Options) (*Service, error) {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	hc, err := newHTTPClient(o.AllowPrivate, o.CAFile, o.Timeout)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	if o.MaxEndpoints <= 0 {
		o.MaxEndpoints = DefaultMaxEndpoints
	}
	return &Service{
		DB: db, Queue: q, Log: log,
		URLs:     URLPolicy{AllowPrivate: o.AllowPrivate},
		Schedule: DefaultSchedule(o.RetryBase),
		Box:      o.Box,
		timeout:  o.Timeout,
		slots: slots{rdb: rdb, perEndpoint: max(1, o.Concurrency/4), perOrg: max(1, o.Concurrency*3/4),
			ttl: o.Timeout + 30*time.Second},
		maxEndpoints: o.MaxEndpoints,
		hc:           hc,
	}, nil
}

type fanOutPayload struct {
	EventID string `json:"event_id"`
	OrgID   string `json:"org_id"`
}

type deliverPayload struct {
	EventID    string `json:"event_id"`
	EndpointID string `json:"endpoint_id"`
	OrgID      string `json:"org_id"`
	Manual     bool   `json:"manual,omitempty"`
}

// Dispatch queues the fan-out of e (events.Bus.Dispatch). Its task id is
// the event id, so dispatching an event again while it is queued adds
// nothing.
func (s *Service) Dispatch(ctx context.Context, e *ent.Event) error {
	b, _ := json.Marshal(fanOutPayload{EventID: e.ID, OrgID: e.OrgID})
	return s.Queue.Enqueue(ctx, asynq.NewTask(TypeFanOut, b), asynq.TaskID(e.ID), asynq.Queue(jobs.QueueWebhooks),
		asynq.MaxRetry(25), asynq.Timeout(time.Minute))
}

// Register adds the handlers and the sweep's schedule to w.
func (s *Service) Register(w *jobs.Worker) error {
	w.Handle(TypeFanOut, s.fanOut)
	w.Handle(TypeDeliver, s.deliver)
	w.Handle(TypeSweep, s.sweep)
	// every worker process schedules it; Unique keeps it to one a minute
	return w.Every("@every 1m", asynq.NewTask(TypeSweep, nil), asynq.Queue(jobs.QueueWebhooks),
		asynq.MaxRetry(1), asynq.Timeout(2*time.Minute), asynq.Unique(50*time.Second))
}

// enqueueDelivery queues an attempt to send event eventID to endpoint
// endpointID. An automatic delivery's task id is derived from both, so a
// repeated fan-out queues it once; a manual one is always queued.
func (s *Service) enqueueDelivery(ctx context.Context, orgID, eventID, endpointID string, manual bool) error {
	b, _ := json.Marshal(deliverPayload{EventID: eventID, EndpointID: endpointID, OrgID: orgID, Manual: manual})
	opts := []asynq.Option{asynq.Queue(jobs.QueueWebhooks), asynq.MaxRetry(taskRetries), asynq.Timeout(s.timeout + 30*time.Second)}
	if !manual {
		opts = append(opts, asynq.TaskID("whd:"+eventID+":"+endpointID))
	}
	if err := s.Queue.Enqueue(ctx, asynq.NewTask(TypeDeliver, b), opts...); err != nil {
		return fmt.Errorf("queueing the delivery of %s to %s: %w", eventID, endpointID, err)
	}
	return nil
}

// Redeliver queues one more attempt to send e to ep, logged as manual.
func (s *Service) Redeliver(ctx context.Context, ep *ent.WebhookEndpoint, e *ent.Event) error {
	return s.enqueueDelivery(ctx, ep.OrgID, e.ID, ep.ID, true)
}

// fanOut queues a delivery of the event to each enabled endpoint of its
// organization that wants it, then marks the event dispatched. Endpoints
// created later do not get it; a repeated fan-out queues nothing twice.
func (s *Service) fanOut(ctx context.Context, t *asynq.Task) error {
	var p fanOutPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.EventID == "" || p.OrgID == "" {
		return fmt.Errorf("bad fan-out payload %q: %w", t.Payload(), asynq.SkipRetry)
	}
	ctx = tenant.WithOrg(ctx, p.OrgID)
	e, err := s.DB.Event.Query().Where(event.ID(p.EventID)).Select(event.FieldID, event.FieldType, event.FieldDispatched).Only(ctx)
	if ent.IsNotFound(err) {
		return nil // deleted with its job
	}
	if err != nil {
		return err
	}
	eps, err := s.DB.WebhookEndpoint.Query().Where(webhookendpoint.Enabled(true)).
		Select(webhookendpoint.FieldID, webhookendpoint.FieldEvents).All(ctx)
	if err != nil {
		return err
	}
	for _, ep := range eps {
		if Matches(ep.Events, e.Type) {
			if err := s.enqueueDelivery(ctx, p.OrgID, e.ID, ep.ID, false); err != nil {
				return err
			}
		}
	}
	if !e.Dispatched {
		return s.DB.Event.UpdateOneID(e.ID).SetDispatched(true).Exec(ctx)
	}
	return nil
}

// deliver makes one attempt and logs it. A failed automatic attempt is
// retried after the schedule's delay (recorded as the row's
// next_attempt_at) until the schedule's attempts are spent; a manual one
// is made once. Attempts for deleted or disabled endpoints, for events
// deleted with their job, and for events an endpoint no longer wants end
// without sending.
func (s *Service) deliver(ctx context.Context, t *asynq.Task) error {
	var p deliverPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.EventID == "" || p.EndpointID == "" || p.OrgID == "" {
		return fmt.Errorf("bad delivery payload %q: %w", t.Payload(), asynq.SkipRetry)
	}
	ctx = tenant.WithOrg(ctx, p.OrgID)
	release, ok := s.slots.acquire(ctx, p.OrgID, p.EndpointID)
	if !ok {
		return jobs.RetryAfter(s.timeout/2+rand.N(s.timeout+1), errBusy)
	}
	defer release()
	ep, err := s.DB.WebhookEndpoint.Get(ctx, p.EndpointID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	e, err := s.DB.Event.Get(ctx, p.EventID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !ep.Enabled || (!p.Manual && !Matches(ep.Events, e.Type)) {
		return nil
	}
	past, err := s.DB.WebhookDelivery.Query().
		Where(webhookdelivery.EventID(e.ID), webhookdelivery.EndpointID(ep.ID)).
		Select(webhookdelivery.FieldManual, webhookdelivery.FieldStatus).All(ctx)
	if err != nil {
		return err
	}
	auto, delivered := 0, false
	for _, d := range past {
		if !d.Manual {
			auto++
			delivered = delivered || d.Status == webhookdelivery.StatusSucceeded
		}
	}
	attempts := s.Schedule.Attempts()
	if !p.Manual && (delivered || auto >= attempts) {
		return nil // a repeated fan-out (or recovery) of a finished delivery
	}
	body, err := Body(e)
	if err != nil {
		return err
	}
	o := outcome{}
	if open, err := s.opened(ep); err != nil {
		o.err = err.Error()
	} else {
		o = send(ctx, s.hc, s.timeout, open, e.ID, body)
	}

	last := !p.Manual && auto+1 >= attempts
	c := s.DB.WebhookDelivery.Create().SetEndpointID(ep.ID).SetEventID(e.ID).SetEventType(e.Type).
		SetAttempt(len(past) + 1).SetManual(p.Manual).SetLatencyMs(int(o.latency.Milliseconds()))
	if o.status != 0 {
		c.SetResponseStatus(o.status)
	}
	var delay time.Duration
	if o.ok() {
		c.SetStatus(webhookdelivery.StatusSucceeded)
	} else {
		c.SetStatus(webhookdelivery.StatusFailed).SetError(o.err)
		if !p.Manual && !last {
			// the queue schedules retries to the second (it keeps Unix
			// seconds): the next attempt is due at a whole second, so that
			// it never comes before the time logged
			now := time.Now()
			next := now.Add(s.Schedule.Delay(auto + 1)).Truncate(time.Second).Add(time.Second)
			delay = next.Sub(now)
			c.SetNextAttemptAt(next.UTC())
		}
	}
	if err := c.Exec(ctx); err != nil {
		if exists, qerr := s.DB.WebhookEndpoint.Query().Where(webhookendpoint.ID(ep.ID)).Exist(ctx); qerr == nil && !exists {
			return nil // deleted while the attempt was under way (its log went with it)
		}
		// retried like any task: the receiver may see the event again,
		// which at-least-once delivery allows (the webhook-id is the same)
		return fmt.Errorf("logging the delivery of %s to %s: %w", e.ID, ep.ID, err)
	}
	switch {
	case o.ok() || p.Manual:
		return nil
	case last:
		return fmt.Errorf("delivering %s to %s: %s; giving up after %d attempts: %w", e.ID, ep.ID, o.err, attempts, asynq.SkipRetry)
	default:
		return jobs.RetryAfter(delay, fmt.Errorf("delivering %s to %s: %s", e.ID, ep.ID, o.err))
	}
}

// sweep dispatches recent events left undispatched for over a minute.
func (s *Service) sweep(ctx context.Context, _ *asynq.Task) error {
	ctx = tenant.System(ctx)
	now := time.Now().UTC()
	evs, err := s.DB.Event.Query().
		Where(event.Dispatched(false), event.CreatedAtLT(now.Add(-sweepAge)), event.CreatedAtGT(now.Add(-sweepHorizon))).
		Order(ent.Asc(event.FieldCreatedAt)).Limit(1000).Select(event.FieldID, event.FieldOrgID).All(ctx)
	if err != nil {
		return err
	}
	for _, e := range evs {
		if err := s.Dispatch(ctx, e); err != nil {
			return err
		}
	}
	if len(evs) > 0 {
		s.Log.Info("webhooks: dispatched events left undispatched", "events", len(evs))
	}
	return nil
}

// Recover queues again the deliveries that a restart of the in-process
// Redis lost: the events of the last two schedule spans are fanned out
// again. Attempts already made count towards the schedule, and an
// endpoint that has an event already is not sent it again.
func (s *Service) Recover(ctx context.Context) (int, error) {
	ctx = tenant.System(ctx)
	evs, err := s.DB.Event.Query().Where(event.Dispatched(true), event.CreatedAtGT(time.Now().UTC().Add(-2*s.Schedule.Span))).
		Select(event.FieldID, event.FieldOrgID).All(ctx)
	if err != nil {
		return 0, err
	}
	for _, e := range evs {
		if err := s.Dispatch(ctx, e); err != nil {
			return 0, err
		}
	}
	return len(evs), nil
}
