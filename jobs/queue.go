package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/tenant"
)

// Queues and their weights: a worker takes tasks from each queue in
// proportion to its weight, so interactive work is not starved by batches.
const (
	QueueCritical = "critical" // events, webhooks
	QueueDefault  = "default"  // ingestion, parsing
	QueueLow      = "low"      // maintenance
	// QueueWebhooks holds webhook deliveries. It is served by a pool of
	// its own (WorkerConfig.WebhookConcurrency), so receivers that are slow
	// or down never take the slots of ingestion and vision jobs.
	QueueWebhooks = "webhooks"
)

// QueueWeights is the priority of each queue.
var QueueWeights = map[string]int{QueueCritical: 6, QueueDefault: 3, QueueLow: 1}

// Queue enqueues tasks.
type Queue struct {
	client    *asynq.Client
	inspector *asynq.Inspector
}

// NewQueue makes a producer on r.
func NewQueue(r *Redis) *Queue {
	return &Queue{client: asynq.NewClient(r.Opt), inspector: asynq.NewInspector(r.Opt)}
}

// Enqueue adds t. A task whose TaskID is already queued is not added again
// and is not an error: enqueueing is idempotent by id.
func (q *Queue) Enqueue(ctx context.Context, t *asynq.Task, opts ...asynq.Option) error {
	_, err := q.client.EnqueueContext(ctx, t, opts...)
	if errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
		return nil
	}
	return err
}

// Inspector reads queue state.
func (q *Queue) Inspector() *asynq.Inspector { return q.inspector }

// Close closes the producer.
func (q *Queue) Close() error {
	_ = q.inspector.Close()
	return q.client.Close()
}

// Collector exports queue sizes to Prometheus at scrape time.
type Collector struct {
	q     *Queue
	db    *ent.Client
	size  *prometheus.Desc
	byOrg *prometheus.Desc
}

// NewCollector reports the sizes of q's queues and, from db, the jobs
// each organization has queued and started.
func NewCollector(q *Queue, db *ent.Client) *Collector {
	return &Collector{q: q, db: db,
		size: prometheus.NewDesc("plangraph_queue_tasks",
			"Tasks in each asynq queue by state.", []string{"queue", "state"}, nil),
		byOrg: prometheus.NewDesc("plangraph_org_jobs",
			"Unfinished jobs of each organization that has any: Queued (waiting for a worker) or Started.", []string{"org", "status"}, nil)}
}

func (c *Collector) Describe(ch chan<- *prometheus.Desc) { ch <- c.size; ch <- c.byOrg }

func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.collectQueues(ch)
	if c.db == nil {
		return
	}
	ctx, cancel := context.WithTimeout(tenant.System(context.Background()), 5*time.Second)
	defer cancel()
	var rows []struct {
		OrgID  string `json:"org_id"`
		Status string `json:"status"`
		Count  int    `json:"count"`
	}
	err := c.db.Job.Query().Where(job.StatusIn(job.StatusQueued, job.StatusStarted)).
		GroupBy(job.FieldOrgID, job.FieldStatus).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.byOrg, err)
		return
	}
	for _, r := range rows {
		ch <- prometheus.MustNewConstMetric(c.byOrg, prometheus.GaugeValue, float64(r.Count), r.OrgID, r.Status)
	}
}

func (c *Collector) collectQueues(ch chan<- prometheus.Metric) {
	for _, name := range append(slices.Collect(maps.Keys(QueueWeights)), QueueWebhooks) {
		info, err := c.q.inspector.GetQueueInfo(name)
		if err != nil {
			// a queue that never had a task does not exist yet: report zeros
			info = &asynq.QueueInfo{Queue: name}
		}
		for state, n := range map[string]int{
			"pending": info.Pending, "active": info.Active, "scheduled": info.Scheduled,
			"retry": info.Retry, "archived": info.Archived, "completed": info.Completed,
		} {
			ch <- prometheus.MustNewConstMetric(c.size, prometheus.GaugeValue, float64(n), name, state)
		}
	}
}

// Worker runs task handlers.
type Worker struct {
	srv   *asynq.Server
	hooks *asynq.Server // the webhooks queue's own pool; nil without one
	mux   *asynq.ServeMux
	sched *asynq.Scheduler
	log   *slog.Logger
}

// WorkerConfig sizes a worker.
type WorkerConfig struct {
	Concurrency     int
	ShutdownTimeout time.Duration
	// WebhookConcurrency is the number of webhook deliveries in flight at
	// once (QueueWebhooks); 0 leaves webhooks to other processes.
	WebhookConcurrency int
}

// NewWorker makes a worker on r. Register handlers with Handle before Start.
func NewWorker(r *Redis, cfg WorkerConfig, log *slog.Logger) *Worker {
	config := func(concurrency int, queues map[string]int) asynq.Config {
		return asynq.Config{
			Concurrency:     concurrency,
			Queues:          queues,
			ShutdownTimeout: cfg.ShutdownTimeout,
			// idle workers look for new tasks this often; every stage of a job
			// tree waits for it once, so keep it short (a 113 MP sheet's whole
			// ingest is ~1 s, of which two hops at 200 ms were 0.5 s; a parse on a
			// PDF's geometry takes ~0.1 s after ingestion, in three more hops)
			TaskCheckInterval: 15 * time.Millisecond,
			Logger:            slogAdapter{log},
			LogLevel:          asynq.WarnLevel,
			ErrorHandler: asynq.ErrorHandlerFunc(func(ctx context.Context, t *asynq.Task, err error) {
				if _, expected := errors.AsType[*RetryAfterError](err); expected {
					log.Debug("task will be retried", "type", t.Type(), "err", err)
					return
				}
				log.Warn("task failed", "type", t.Type(), "err", err)
			}),
			RetryDelayFunc: RetryDelay,
			// a task put off for want of a slot has not failed
			IsFailure: func(err error) bool { return !errors.Is(err, ErrBusy) },
		}
	}
	w := &Worker{mux: asynq.NewServeMux(), log: log}
	c := config(cfg.Concurrency, QueueWeights)
	// a task put off for its organization's slots (ErrBusy) comes back
	// through the retry set: move it to the queue promptly
	c.DelayedTaskCheckInterval = 500 * time.Millisecond
	w.srv = asynq.NewServer(r.Opt, c)
	if cfg.WebhookConcurrency > 0 {
		c := config(cfg.WebhookConcurrency, map[string]int{QueueWebhooks: 1})
		// retries of deliveries come due on their own schedule (seconds
		// apart at first): move them to the queue promptly
		c.DelayedTaskCheckInterval = 500 * time.Millisecond
		c.TaskCheckInterval = 200 * time.Millisecond // deliveries can wait a moment; idle polling costs Redis
		w.hooks = asynq.NewServer(r.Opt, c)
	}
	w.sched = asynq.NewScheduler(r.Opt, &asynq.SchedulerOpts{Logger: slogAdapter{log}, LogLevel: asynq.WarnLevel})
	return w
}

// Handle registers h for tasks of type typ.
func (w *Worker) Handle(typ string, h asynq.HandlerFunc) { w.mux.HandleFunc(typ, h) }

// Every runs a task on a cron spec ("@every 1h").
func (w *Worker) Every(spec string, t *asynq.Task, opts ...asynq.Option) error {
	_, err := w.sched.Register(spec, t, opts...)
	return err
}

// Start begins processing in the background.
func (w *Worker) Start() error {
	if err := w.srv.Start(w.mux); err != nil {
		return err
	}
	if w.hooks != nil {
		if err := w.hooks.Start(w.mux); err != nil {
			w.srv.Shutdown()
			return err
		}
	}
	return w.sched.Start()
}

// Shutdown stops taking tasks and waits for in-flight ones (up to the
// configured timeout; unfinished tasks go back to the queue).
func (w *Worker) Shutdown() {
	w.sched.Shutdown()
	if w.hooks != nil {
		w.hooks.Shutdown()
	}
	w.srv.Shutdown()
}

// RetryAfterError asks for a task to be tried again after Delay: a handler
// with a schedule of its own (webhook deliveries, which also record when
// their next attempt is due) returns it. It is an expected outcome, so the
// worker does not log it as a failure.
type RetryAfterError struct {
	Delay time.Duration
	Err   error
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("%v (retrying in %s)", e.Err, e.Delay.Round(time.Millisecond))
}

func (e *RetryAfterError) Unwrap() error { return e.Err }

// RetryAfter is err, to be retried after d.
func RetryAfter(d time.Duration, err error) error { return &RetryAfterError{Delay: d, Err: err} }

// RetryDelay is a RetryAfterError's delay; otherwise it backs off
// exponentially from 2 s, doubling per attempt up to 10 minutes, with up
// to 50% jitter so failed tasks do not retry in step.
func RetryDelay(n int, err error, _ *asynq.Task) time.Duration {
	if ra, ok := errors.AsType[*RetryAfterError](err); ok {
		return ra.Delay
	}
	d := 2 * time.Second << min(n, 9)
	if d > 10*time.Minute {
		d = 10 * time.Minute
	}
	return d + time.Duration(rand.Int64N(int64(d/2)+1))
}

type slogAdapter struct{ l *slog.Logger }

func (a slogAdapter) Debug(args ...any) { a.l.Debug("asynq", "msg", args) }
func (a slogAdapter) Info(args ...any)  { a.l.Info("asynq", "msg", args) }
func (a slogAdapter) Warn(args ...any)  { a.l.Warn("asynq", "msg", args) }
func (a slogAdapter) Error(args ...any) { a.l.Error("asynq", "msg", args) }
func (a slogAdapter) Fatal(args ...any) { a.l.Error("asynq fatal", "msg", args) }
