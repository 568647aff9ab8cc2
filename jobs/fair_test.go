package jobs

import (
	"context"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/tenant"
)

// One organization floods the queue; another's task, queued behind the
// whole flood, starts before more than a few of the flood's tasks have
// completed, and every flooded task still completes (put off for its
// organization's slots spends no retry).
func TestFloodingOrganizationDoesNotStarveAnother(t *testing.T) {
	e := newRunnerEnv(t)
	e.runner.OrgSlots, e.runner.OrgLimit = Slots{RDB: e.rd.Client, TTL: time.Minute}, 2
	const flood = 16
	var mu sync.Mutex
	completedA, bStartedAfter := 0, -1
	e.runner.Handle(e.w, "fair", func(ctx context.Context, j *ent.Job) (any, error) {
		org, _ := tenant.Org(ctx)
		mu.Lock()
		if org == "org_b" {
			bStartedAfter = completedA
		}
		mu.Unlock()
		time.Sleep(100 * time.Millisecond)
		if org == "org_a" {
			mu.Lock()
			completedA++
			mu.Unlock()
		}
		return nil, nil
	})
	ctxA, ctxB := tenant.WithOrg(context.Background(), "org_a"), tenant.WithOrg(context.Background(), "org_b")
	var ids []string
	for range flood {
		j, err := Start(ctxA, e.db, e.q, NewJob{Type: "fair"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, j.ID)
	}
	jb, err := Start(ctxB, e.db, e.q, NewJob{Type: "fair"})
	if err != nil {
		t.Fatal(err)
	}
	// /metrics shows each organization's queue depth
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(NewCollector(e.q, e.db))
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	depth := map[string]float64{}
	for _, f := range fams {
		if f.GetName() != "plangraph_org_jobs" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			depth[labels["org"]+"/"+labels["status"]] = m.GetGauge().GetValue()
		}
	}
	if want := map[string]float64{"org_a/Queued": flood, "org_b/Queued": 1}; !maps.Equal(depth, want) {
		t.Fatalf("plangraph_org_jobs %v, want %v", depth, want)
	}

	if err := e.w.Start(); err != nil {
		t.Fatal(err)
	}
	e.ctx = ctxB
	if got := e.wait(t, jb.ID); got.Status != job.StatusCompleted {
		t.Fatalf("org_b's job %s", got.Status)
	}
	mu.Lock()
	after := bStartedAfter
	mu.Unlock()
	// 4 workers, org_a holds 2 at a time: org_b's task is reached as soon
	// as the flood ahead of it has been put off, long before it has run
	if after < 0 || after > 2 {
		t.Fatalf("org_b's task started after %d of org_a's %d tasks completed, want at most 2", after, flood)
	}
	e.ctx = ctxA
	for _, id := range ids {
		if got := e.wait(t, id); got.Status != job.StatusCompleted {
			t.Fatalf("flooded job %s: %s", id, got.Status)
		}
	}
}

// The limit is work-conserving: an organization alone on the service runs
// on every slot, beyond its limit.
func TestOrganizationAloneUsesEverySlot(t *testing.T) {
	e := newRunnerEnv(t)
	e.runner.OrgSlots, e.runner.OrgLimit = Slots{RDB: e.rd.Client, TTL: time.Minute}, 2
	var mu sync.Mutex
	running, most := 0, 0
	e.runner.Handle(e.w, "alone", func(ctx context.Context, j *ent.Job) (any, error) {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(300 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return nil, nil
	})
	e.ctx = tenant.WithOrg(context.Background(), "org_a")
	var ids []string
	for range 8 {
		j, err := Start(e.ctx, e.db, e.q, NewJob{Type: "alone"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, j.ID)
	}
	if err := e.w.Start(); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if got := e.wait(t, id); got.Status != job.StatusCompleted {
			t.Fatalf("job %s: %s", id, got.Status)
		}
	}
	if most <= 2 {
		t.Errorf("an organization alone ran at most %d tasks at once on 4 slots, limit 2", most)
	}
}
