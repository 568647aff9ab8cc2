// Package events records what happens to jobs and spreads it: every event
// is a row (for webhook delivery and stream resumption), and every change
// of a job — events and progress alike — is announced on one Redis pub/sub
// channel, which each API process fans out to its own subscribers. A
// subscriber learns *that* something changed from the channel and reads
// *what* from the database, so a notice lost or duplicated on the way can
// only delay an update, never corrupt one.
package events

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/event"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/ids"
)

// Channel is the Redis pub/sub channel every process publishes notices on.
const Channel = "plangraph:events"

// Envelope is an event as delivered to webhooks, streams and subscriptions:
// {id, type, created_at, data}. It is built from the stored row only, so
// every delivery of one event id carries the same bytes.
type Envelope struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// EnvelopeOf is e's delivery form.
func EnvelopeOf(e *ent.Event) Envelope {
	return Envelope{ID: e.ID, Type: e.Type, CreatedAt: e.CreatedAt, Data: e.Data}
}

// Notice announces a change: a job's status or progress moved (Kind
// "job"), or an event was recorded (Kind "event", EventID set). Path is the
// chain of job ids from the top-most ancestor down to JobID.
type Notice struct {
	Org       string   `json:"org"`
	Kind      string   `json:"kind"`
	JobID     string   `json:"job_id"`
	ProjectID string   `json:"project_id,omitempty"`
	Path      []string `json:"path"`
	EventID   string   `json:"event_id,omitempty"`
	EventType string   `json:"event_type,omitempty"`
}

// Notice kinds.
const (
	KindJob   = "job"
	KindEvent = "event"
)

// Under reports whether the notice concerns job id or one of its descendants.
func (n Notice) Under(id string) bool {
	for _, p := range n.Path {
		if p == id {
			return true
		}
	}
	return n.JobID == id
}

// Bus records events and carries notices between processes.
type Bus struct {
	DB    *ent.Client
	Redis redis.UniversalClient
	Log   *slog.Logger
	// Dispatch, when set, is called with every newly recorded event and
	// with recorded events that were not dispatched yet (webhook fan-out).
	// An error is returned to the caller, whose task is retried.
	Dispatch func(ctx context.Context, e *ent.Event) error

	mu     sync.Mutex
	subs   map[*sub]struct{}
	listen sync.Once
}

type sub struct {
	ch     chan Notice
	filter func(Notice) bool
}

// New makes a bus.
func New(db *ent.Client, rdb redis.UniversalClient, log *slog.Logger) *Bus {
	if log == nil {
		log = slog.Default()
	}
	return &Bus{DB: db, Redis: rdb, Log: log, subs: map[*sub]struct{}{}}
}

// Path is the chain of job ids from j's top-most ancestor down to j (read
// in j's organization, from ctx).
func (b *Bus) Path(ctx context.Context, j *ent.Job) ([]string, error) {
	path := []string{j.ID}
	parent := j.ParentID
	for depth := 0; parent != "" && depth < 16; depth++ {
		p, err := b.DB.Job.Query().Where(job.ID(parent)).Select(job.FieldID, job.FieldParentID).Only(ctx)
		if err != nil {
			return nil, fmt.Errorf("events: ancestor %s of %s: %w", parent, j.ID, err)
		}
		path = append([]string{p.ID}, path...)
		parent = p.ParentID
	}
	return path, nil
}

// EventID is the id of the event of type typ about job jobID: the same
// job and type always give the same id.
func EventID(jobID, typ string) string { return ids.Derived(ids.Event, jobID, typ) }

// Record stores the event typ about j with data (once: recording it again
// returns the stored row), announces it and dispatches it when it has not
// been dispatched yet. org is j's organization (ctx carries it too).
func (b *Bus) Record(ctx context.Context, j *ent.Job, typ string, data any) (*ent.Event, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	path, err := b.Path(ctx, j)
	if err != nil {
		return nil, err
	}
	id := EventID(j.ID, typ)
	c := b.DB.Event.Create().SetID(id).SetType(typ).SetJobID(j.ID).SetRootJobID(path[0]).
		SetJobPath(strings.Join(path, "/")).SetData(raw)
	if j.ProjectID != "" {
		c.SetProjectID(j.ProjectID)
	}
	err = c.OnConflictColumns(event.FieldID).DoNothing().Exec(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) && !strings.Contains(err.Error(), "no rows") {
		return nil, fmt.Errorf("events: record %s: %w", typ, err)
	}
	e, err := b.DB.Event.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("events: read %s: %w", id, err)
	}
	b.Publish(ctx, Notice{Org: e.OrgID, Kind: KindEvent, JobID: j.ID, ProjectID: j.ProjectID, Path: path,
		EventID: e.ID, EventType: e.Type})
	if !e.Dispatched && b.Dispatch != nil {
		if err := b.Dispatch(ctx, e); err != nil {
			return e, fmt.Errorf("events: dispatch %s: %w", e.ID, err)
		}
	}
	return e, nil
}

// JobChanged announces that j's status or progress moved.
func (b *Bus) JobChanged(ctx context.Context, j *ent.Job) {
	path, err := b.Path(ctx, j)
	if err != nil {
		b.Log.Warn("events: job change not announced", "job", j.ID, "err", err)
		return
	}
	b.Publish(ctx, Notice{Org: j.OrgID, Kind: KindJob, JobID: j.ID, ProjectID: j.ProjectID, Path: path})
}

// Publish sends n to every process. Failures are logged: subscribers read
// state from the database and re-check it periodically, so a lost notice
// delays an update and loses nothing.
func (b *Bus) Publish(ctx context.Context, n Notice) {
	if b.Redis == nil {
		b.deliver(n)
		return
	}
	msg, _ := json.Marshal(n)
	if err := b.Redis.Publish(ctx, Channel, msg).Err(); err != nil {
		b.Log.Warn("events: publish failed", "job", n.JobID, "err", err)
		b.deliver(n) // this process's own subscribers still hear it
	}
}

// Subscribe returns notices for which filter returns true (all when nil)
// until cancel is called. The first call starts the process's one Redis
// subscription. A subscriber that does not keep up loses notices rather
// than slowing the others (the channel holds 256); it re-reads state
// periodically anyway.
func (b *Bus) Subscribe(ctx context.Context, filter func(Notice) bool) (<-chan Notice, func()) {
	b.listen.Do(func() {
		if b.Redis != nil {
			go b.run(context.WithoutCancel(ctx))
		}
	})
	s := &sub{ch: make(chan Notice, 256), filter: filter}
	b.mu.Lock()
	if b.subs == nil {
		b.subs = map[*sub]struct{}{}
	}
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return s.ch, func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, s)
			b.mu.Unlock()
		})
	}
}

// run holds the process's Redis subscription, reconnecting after errors.
func (b *Bus) run(ctx context.Context) {
	for ctx.Err() == nil {
		ps := b.Redis.Subscribe(ctx, Channel)
		if _, err := ps.Receive(ctx); err != nil {
			b.Log.Warn("events: subscribe failed; retrying", "err", err)
			_ = ps.Close()
			time.Sleep(time.Second)
			continue
		}
		ch := ps.Channel(redis.WithChannelSize(1024))
		for m := range ch {
			var n Notice
			if err := json.Unmarshal([]byte(m.Payload), &n); err != nil {
				b.Log.Warn("events: bad notice", "err", err)
				continue
			}
			b.deliver(n)
		}
		_ = ps.Close()
		time.Sleep(200 * time.Millisecond)
	}
}

func (b *Bus) deliver(n Notice) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		if s.filter != nil && !s.filter(n) {
			continue
		}
		select {
		case s.ch <- n:
		default:
		}
	}
}

// Since lists the recorded events of job jobID and of every job below it,
// oldest first, after the event afterID (all when afterID is empty or not
// one of them). Read in ctx's organization.
func (b *Bus) Since(ctx context.Context, jobID, afterID string) ([]*ent.Event, error) {
	j, err := b.DB.Job.Get(ctx, jobID)
	if err != nil {
		return nil, err
	}
	path, err := b.Path(ctx, j)
	if err != nil {
		return nil, err
	}
	prefix := strings.Join(path, "/")
	all, err := b.DB.Event.Query().Where(event.RootJobID(path[0])).
		Order(ent.Asc(event.FieldCreatedAt), ent.Asc(event.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	var out []*ent.Event
	for _, e := range all {
		if e.JobPath == prefix || strings.HasPrefix(e.JobPath, prefix+"/") {
			out = append(out, e)
		}
	}
	if afterID != "" {
		for i, e := range out {
			if e.ID == afterID {
				return out[i+1:], nil
			}
		}
	}
	return out, nil
}
