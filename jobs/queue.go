package jobs

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
)

// Queues and their weights: a worker takes tasks from each queue in
// proportion to its weight, so interactive work is not starved by batches.
const (
	QueueCritical = "critical" // events, webhooks
	QueueDefault  = "default"  // ingestion, parsing
	QueueLow      = "low"      // maintenance
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
	q    *Queue
	size *prometheus.Desc
}

// NewCollector reports the sizes of q's queues.
func NewCollector(q *Queue) *Collector {
	return &Collector{q: q, size: prometheus.NewDesc("plangraph_queue_tasks",
		"Tasks in each asynq queue by state.", []string{"queue", "state"}, nil)}
}

func (c *Collector) Describe(ch chan<- *prometheus.Desc) { ch <- c.size }

func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	for name := range QueueWeights {
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
	mux   *asynq.ServeMux
	sched *asynq.Scheduler
	log   *slog.Logger
}

// WorkerConfig sizes a worker.
type WorkerConfig struct {
	Concurrency     int
	ShutdownTimeout time.Duration
}

// NewWorker makes a worker on r. Register handlers with Handle before Start.
func NewWorker(r *Redis, cfg WorkerConfig, log *slog.Logger) *Worker {
	srv := asynq.NewServer(r.Opt, asynq.Config{
		Concurrency:     cfg.Concurrency,
		Queues:          QueueWeights,
		ShutdownTimeout: cfg.ShutdownTimeout,
		// idle workers look for new tasks this often; stages of a job tree
		// wait for it once each, so keep it short
		TaskCheckInterval: 200 * time.Millisecond,
		Logger:            slogAdapter{log},
		LogLevel:          asynq.WarnLevel,
		ErrorHandler: asynq.ErrorHandlerFunc(func(ctx context.Context, t *asynq.Task, err error) {
			log.Warn("task failed", "type", t.Type(), "err", err)
		}),
		RetryDelayFunc: RetryDelay,
	})
	sched := asynq.NewScheduler(r.Opt, &asynq.SchedulerOpts{Logger: slogAdapter{log}, LogLevel: asynq.WarnLevel})
	return &Worker{srv: srv, mux: asynq.NewServeMux(), sched: sched, log: log}
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
	return w.sched.Start()
}

// Shutdown stops taking tasks and waits for in-flight ones (up to the
// configured timeout; unfinished tasks go back to the queue).
func (w *Worker) Shutdown() {
	w.sched.Shutdown()
	w.srv.Shutdown()
}

// RetryDelay backs off exponentially from 2 s, doubling per attempt up to
// 10 minutes, with up to 50% jitter so failed tasks do not retry in step.
func RetryDelay(n int, _ error, _ *asynq.Task) time.Duration {
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
