package server_test

// Fault drill: the service's Redis crashes mid-ingestion and comes back
// empty, its PostgreSQL stops and starts again, and its blob directory
// turns read-only for a moment — all while one plangraph process runs on,
// never restarted. Both run privately for the test: a redis-server on a
// free port without persistence, and a PostgreSQL cluster made with initdb
// in a temporary directory.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/event"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/jobs"
)

// ownRedis is a redis-server of the test's, without persistence: a
// restart loses every task, as a crashed cache-only Redis does.
type ownRedis struct {
	addr, dir string
	cmd       *exec.Cmd
}

func startOwnRedis(t *testing.T) *ownRedis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatalf("the outage drill needs redis-server (make test-deps installs it): %v", err)
	}
	r := &ownRedis{addr: freeAddr(t), dir: t.TempDir()}
	r.start(t)
	t.Cleanup(r.crash)
	return r
}

func (r *ownRedis) start(t *testing.T) {
	t.Helper()
	_, port, _ := strings.Cut(r.addr, ":")
	r.cmd = exec.Command("redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", r.dir)
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "redis-server answers", func() bool {
		out, err := exec.Command("redis-cli", "-h", "127.0.0.1", "-p", port, "ping").Output()
		return err == nil && strings.TrimSpace(string(out)) == "PONG"
	})
}

// crash kills the server (SIGKILL): nothing is saved.
func (r *ownRedis) crash() {
	if r.cmd != nil && r.cmd.Process != nil {
		_ = r.cmd.Process.Kill()
		_ = r.cmd.Wait()
		r.cmd = nil
	}
}

// ownPostgres is a PostgreSQL cluster of the test's (initdb into a
// temporary directory, a free port), which the test can stop and start.
type ownPostgres struct {
	bin, dir, port string
	asPostgres     bool // run the server as the postgres user (initdb refuses root)
}

func startOwnPostgres(t *testing.T) (*ownPostgres, string) {
	t.Helper()
	ctls, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(ctls) == 0 {
		t.Fatalf("the outage drill needs PostgreSQL's server binaries under /usr/lib/postgresql/*/bin (make test-deps installs them)")
	}
	// under the system's temporary directory itself: the test's own are
	// root's alone, and the server runs as postgres when the test is root
	top, err := os.MkdirTemp("", "plangraph-drill-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	p := &ownPostgres{bin: filepath.Dir(ctls[len(ctls)-1]), dir: filepath.Join(top, "pg"), asPostgres: os.Geteuid() == 0}
	_, p.port, _ = strings.Cut(freeAddr(t), ":")
	if err := os.Mkdir(p.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if p.asPostgres {
		if out, err := exec.Command("chown", "-R", "postgres:postgres", filepath.Dir(p.dir)).CombinedOutput(); err != nil {
			t.Fatalf("chown: %v %s", err, out)
		}
	}
	p.run(t, "initdb", "-D", p.dir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
	p.start(t)
	t.Cleanup(func() { _ = p.cmd("pg_ctl", "-D", p.dir, "-m", "immediate", "-w", "stop").Run() })
	return p, fmt.Sprintf("postgres://postgres@127.0.0.1:%s/postgres?sslmode=disable", p.port)
}

func (p *ownPostgres) cmd(name string, args ...string) *exec.Cmd {
	bin := filepath.Join(p.bin, name)
	if p.asPostgres {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", bin}, args...)...)
	}
	return exec.Command(bin, args...)
}

func (p *ownPostgres) run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := p.cmd(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
}

func (p *ownPostgres) start(t *testing.T) {
	t.Helper()
	p.run(t, "pg_ctl", "-D", p.dir, "-l", filepath.Join(p.dir, "log"), "-w", "-t", "120", "-o",
		"-p "+p.port+" -k "+p.dir+" -c listen_addresses=127.0.0.1 -c fsync=off", "start")
}

// stop ends the server at once, as a crash or a failover would.
func (p *ownPostgres) stop(t *testing.T) {
	p.run(t, "pg_ctl", "-D", p.dir, "-m", "immediate", "-w", "stop")
}

// immutable makes dir and everything under it unwritable — for root too
// (chattr +i) — and returns what undoes it.
func immutable(t *testing.T, dir string) func() {
	t.Helper()
	if os.Geteuid() != 0 {
		if out, err := exec.Command("chmod", "-R", "a-w", dir).CombinedOutput(); err != nil {
			t.Fatalf("chmod: %v %s", err, out)
		}
		return func() { _ = exec.Command("chmod", "-R", "u+w", dir).Run() }
	}
	if out, err := exec.Command("chattr", "-R", "+i", dir).CombinedOutput(); err != nil {
		t.Fatalf("the outage drill makes the blob directory read-only with chattr +i (root ignores modes): %v %s", err, out)
	}
	undo := func() { _ = exec.Command("chattr", "-R", "-i", dir).Run() }
	t.Cleanup(undo)
	return undo
}

func TestDrillOutages(t *testing.T) {
	if testing.Short() {
		t.Skip("a fault drill with its own Redis and PostgreSQL")
	}
	rd := startOwnRedis(t)
	pg, pgURL := startOwnPostgres(t)
	cfg := testenv.Config(t, pgURL, "redis://"+rd.addr+"/0")
	cfg.RateManagement, cfg.BurstManagement, cfg.RenderDPI = 100000, 100000, 72
	s := testenv.StartServer(t, cfg)
	s.App.Uploads.PublicURL = s.URL
	key, rec := s.CreateKeyRecord(t, "acme")
	db, ctx := s.App.Store.Client, tenant.WithOrg(context.Background(), rec.OrgID)

	var proj project
	postJSON(t, s, key, "/v1/projects", map[string]any{"name": "Outages"}).ExpectStatus(t, http.StatusCreated).JSON(t, &proj)
	set, pdf := synthPDF(t, 7)
	pages := set.Options.Sheets
	newDrawing := func() string {
		f := uploadFile(t, s, key, proj.ID, "set.pdf", "application/pdf", pdf)
		var acc struct {
			Data struct {
				JobID string `json:"job_id"`
			} `json:"data"`
		}
		postJSON(t, s, key, "/v1/drawings", map[string]any{"project_id": proj.ID, "file_id": f.ID}).ExpectStatus(t, http.StatusAccepted).JSON(t, &acc)
		return acc.Data.JobID
	}
	// every answer while something is down is the normal one or a 503
	// problem, never a 500
	unavailable := func(res *testenv.Response, what string) {
		t.Helper()
		if res.Status >= 500 && (res.Status != http.StatusServiceUnavailable || res.Header.Get("Content-Type") != "application/problem+json") {
			t.Errorf("%s: %d %s, want a 503 problem", what, res.Status, res.Body)
		}
	}
	// recovery is the requeue sweep's (every minute; it takes jobs that
	// waited two): here it runs every second with no wait, as time passing would
	recover := func(what string, ids ...string) {
		t.Helper()
		waitFor(t, 4*time.Minute, what, func() bool {
			if _, err := jobs.RequeueStale(ctx, db, s.App.Queue, time.Now()); err != nil {
				t.Logf("requeue sweep: %v", err)
			}
			for _, id := range ids {
				j, err := db.Job.Get(ctx, id)
				if err != nil || !jobstatus.Terminal(string(j.Status)) {
					time.Sleep(time.Second)
					return false
				}
			}
			return true
		})
	}

	// Redis crashes while a drawing is ingested, and comes back empty
	first := newDrawing()
	waitFor(t, 2*time.Minute, "the first drawing's ingestion started", func() bool {
		j, err := db.Job.Get(ctx, first)
		return err == nil && j.Status != job.StatusQueued
	})
	rd.crash()
	if res := s.Get(t, "", "/readyz"); res.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz without Redis: %d", res.Status)
	}
	s.Get(t, key, "/v1/projects").ExpectStatus(t, http.StatusOK)
	// a drawing accepted while the queue is down is committed and answered 202
	second := newDrawing()
	rd.start(t)
	recover("both drawings ended after Redis came back empty", first, second)

	// PostgreSQL stops: 503 problems; it starts again: the same process answers
	pg.stop(t)
	unavailable(s.Get(t, key, "/v1/projects"), "GET /v1/projects without PostgreSQL")
	if res := s.Get(t, key, "/v1/projects"); res.Status != http.StatusServiceUnavailable {
		t.Errorf("GET /v1/projects without PostgreSQL: %d %s, want 503", res.Status, res.Body)
	}
	unavailable(postJSON(t, s, key, "/v1/projects", map[string]any{"name": "x"}), "POST /v1/projects without PostgreSQL")
	if res := s.Get(t, "", "/readyz"); res.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz without PostgreSQL: %d %s", res.Status, res.Body)
	}
	pg.start(t)
	waitFor(t, time.Minute, "the API answers again after PostgreSQL restarted", func() bool {
		return s.Get(t, key, "/v1/projects").Status == http.StatusOK
	})

	// the blob directory read-only while a drawing is ingested: its stage is
	// retried once it is writable again
	third := newDrawing()
	undo := immutable(t, filepath.Join(cfg.DataDir, "blobs"))
	time.Sleep(3 * time.Second) // a moment: the stage fails and waits for its retry
	unavailable(s.Get(t, key, "/v1/jobs/"+third), "GET a job while blobs are read-only")
	undo()
	recover("the third drawing ended after the blob directory was writable again", third)

	// nothing lost, nothing twice
	for _, id := range []string{first, second, third} {
		j, err := db.Job.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status != job.StatusCompleted {
			t.Errorf("drawing job %s: %s %+v", id, j.Status, j.Error)
			continue
		}
		d, err := db.Drawing.Query().Where(drawing.ID(j.TargetID)).Only(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n, err := db.Sheet.Query().Where(sheet.DrawingID(d.ID)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		done, err := db.Event.Query().Where(event.JobID(id), event.Type("drawing.completed")).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != drawing.StatusReady || n != pages || done != 1 {
			t.Errorf("drawing %s: %s, %d sheets for %d pages, drawing.completed recorded %d times", d.ID, d.Status, n, pages, done)
		}
	}
	if n, err := db.Drawing.Query().Count(ctx); err != nil || n != 3 {
		t.Errorf("%d drawings (%v), want the 3 made", n, err)
	}
}
