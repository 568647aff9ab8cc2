package jobs

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/hibiken/asynq"

	"github.com/plangraph/plangraph/internal/search/embed"
	"github.com/plangraph/plangraph/internal/search/index"
)

// Semantic vectors of the search index (optional, --embeddings-url): a
// worker with an embeddings endpoint embeds the index rows that have no
// vector yet every EmbedEvery (a project is searchable by meaning seconds
// after its indexing; search says in _meta how many rows are not embedded
// yet), and deletes vectors nothing uses any more every hour.
const (
	TypeEmbedIndex   = "search:embed_index"
	TypePruneVectors = "search:prune_vectors"
	EmbedEvery       = 10 * time.Second
	// embedRun bounds one run: what is left waits for the next.
	embedRun = 5 * time.Minute
)

// RegisterEmbed makes w embed the index x's rows with c on a schedule.
// While the endpoint fails, runs back off (doubling from EmbedEvery to
// 5 minutes) so that a dead endpoint is neither hammered nor logged every
// ten seconds.
func RegisterEmbed(w *Worker, x *index.Index, c *embed.Client, log *slog.Logger) error {
	b := &backoff{}
	w.Handle(TypeEmbedIndex, func(ctx context.Context, _ *asynq.Task) error {
		if !b.due() {
			return nil
		}
		n, err := x.EmbedPending(ctx, c)
		if n > 0 {
			log.Info("embedded search index rows", "texts", n, "model", c.Name())
		}
		if err != nil && ctx.Err() == nil {
			if b.failed() {
				log.Warn("embedding the search index failed; retrying later", "model", c.Name(), "err", err, "next_in", b.wait)
			}
			return nil
		}
		b.ok()
		return nil
	})
	w.Handle(TypePruneVectors, func(ctx context.Context, _ *asynq.Task) error {
		_, err := x.PruneVectors(ctx, c.Name())
		return err
	})
	if err := w.Every("@every 10s", asynq.NewTask(TypeEmbedIndex, nil, asynq.Queue(QueueLow), asynq.MaxRetry(0),
		asynq.Timeout(embedRun))); err != nil {
		return err
	}
	return w.Every("@every 1h", asynq.NewTask(TypePruneVectors, nil, asynq.Queue(QueueLow), asynq.MaxRetry(1),
		asynq.Timeout(5*time.Minute)))
}

// backoff spaces runs out while they fail.
type backoff struct {
	mu   sync.Mutex
	next time.Time
	wait time.Duration
}

func (b *backoff) due() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !time.Now().Before(b.next)
}

// failed records a failure; it says whether this one starts or doubles the
// wait (worth a log line: the first failure, then each doubling).
func (b *backoff) failed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.wait == 0 {
		b.wait = EmbedEvery
	} else if b.wait < 5*time.Minute {
		b.wait = min(2*b.wait, 5*time.Minute)
	} else {
		b.next = time.Now().Add(b.wait)
		return false
	}
	b.next = time.Now().Add(b.wait)
	return true
}

func (b *backoff) ok() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.wait, b.next = 0, time.Time{}
}
