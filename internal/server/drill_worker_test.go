package server_test

// Fault drill: the plangraph binary as deployed — two api and two worker
// processes on one PostgreSQL database, one Redis and one blob directory —
// with a worker killed (SIGKILL) in the middle of a parse, and a webhook
// receiver that is down meanwhile. The parse must complete on the other
// worker with every feature recorded exactly once, and every event of the
// job tree must reach each endpoint, signed, once by webhook-id.

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/event"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/jobs"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
)

// stuckPDFToText is a pdftotext that says it started (touches
// $PLANGRAPH_DRILL_MARKER) and then never finishes while the process that
// ran it lives: the worker running it is caught in the middle of a sheet's
// ingestion, as long as the test needs.
const stuckPDFToText = `#!/bin/sh
touch "$PLANGRAPH_DRILL_MARKER"
while kill -0 $PPID 2>/dev/null; do sleep 0.2; done
`

func TestDrillWorkerKilledMidParse(t *testing.T) {
	if testing.Short() {
		t.Skip("a fault drill on four processes")
	}
	bin := buildPlangraph(t)
	data := t.TempDir()
	dbURL := testenv.Postgres(t)

	// receivers are trusted through --webhook-ca-file (every httptest TLS
	// server has the same certificate)
	probe := httptest.NewTLSServer(http.NotFoundHandler())
	caFile := filepath.Join(t.TempDir(), "receivers.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: probe.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	probe.Close()

	common := []string{"--data-dir", data, "--database-url", dbURL, "--redis-url", testenv.Redis(t),
		"--log-level", "warn", "--shutdown-timeout", "5s", "--render-dpi", "72",
		"--rate-management", "100000", "--burst-management", "100000", "--rate-vision", "100000", "--burst-vision", "100000",
		"--webhook-allow-private-urls", "--webhook-ca-file", caFile, "--webhook-retry-base", "1s", "--webhook-timeout", "5s"}
	api := func(name string) liveAPI {
		addr := freeAddr(t)
		p := startProcess(t, name, bin, append([]string{"api", "--addr", addr, "--public-url", "https://" + addr}, common...)...)
		a := liveAPI{URL: "https://" + addr}
		a.TLS, a.Client = trustCA(t, filepath.Join(data, "tls", "ca.pem"))
		p.waitReady(t, a)
		return a
	}
	A := api("api-A")
	B := api("api-B")
	key := createKeyWith(t, bin, "acme", common)

	// two endpoints: one up, one down until the worker has been killed
	ok := func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }
	healthy, flaky := newReceiver(t, ok), downReceiver(t)
	secrets := map[*receiver]string{}
	for r, api := range map[*receiver]liveAPI{healthy: A, flaky: B} {
		var ep webhookRec
		api.do(t, http.MethodPost, key, "/v1/webhook_endpoints", map[string]any{"url": r.url}).ExpectStatus(t, http.StatusCreated).JSON(t, &ep)
		secrets[r] = ep.Secret
	}

	// worker 1 alone, with a pdftotext that never finishes
	fake := t.TempDir()
	if err := os.WriteFile(filepath.Join(fake, "pdftotext"), []byte(stuckPDFToText), 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "pdftotext-started")
	w1 := startProcessEnv(t, "worker-1", bin, []string{"PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH"),
		"PLANGRAPH_DRILL_MARKER=" + marker}, append([]string{"worker", "--concurrency", "2"}, common...)...)

	// upload through A, parse through B (legends read from the sheet)
	set, pdf := synthPDF(t, 5)
	var proj project
	A.do(t, http.MethodPost, key, "/v1/projects", map[string]any{"name": "Drill"}).ExpectStatus(t, http.StatusCreated).JSON(t, &proj)
	var up uploadRec
	A.do(t, http.MethodPost, key, "/v1/files", map[string]any{"project_id": proj.ID, "filename": "set.pdf",
		"content_type": "application/pdf", "size": len(pdf)}).ExpectStatus(t, http.StatusCreated).JSON(t, &up)
	testenv.Do(t, A.Client, A.URL, testenv.Request{Method: http.MethodPut, Path: up.UploadURL, Body: pdf, ContentType: "application/pdf"}).
		ExpectStatus(t, http.StatusOK)
	A.do(t, http.MethodPost, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectStatus(t, http.StatusOK)
	var acc struct {
		Data struct {
			JobID string `json:"job_id"`
		} `json:"data"`
	}
	B.do(t, http.MethodPost, key, "/v1/parse", map[string]any{"features": []string{"symbols"}, "file_id": up.ID}).
		ExpectStatus(t, http.StatusAccepted).JSON(t, &acc)
	id := acc.Data.JobID

	// worker 1 is in the middle of the parse: a sheet's ingestion under way
	waitFor(t, 2*time.Minute, "worker 1 started reading the sheet's text", func() bool {
		_, err := os.Stat(marker)
		return err == nil
	})
	if st := jobStatus(t, A, key, id); st.Status != jobstatus.Started {
		t.Fatalf("the parse is %s while its sheet is read, want Started", st.Status)
	}
	w1.kill()
	killed := time.Now()
	startProcess(t, "worker-2", bin, append([]string{"worker", "--concurrency", "2"}, common...)...)
	flaky.up()

	// the task worker 1 held is recovered once its lease lapses (asynq: 30 s
	// lease, recovered 30 s after, checked every minute) and runs on worker 2
	var final jobs.View
	waitFor(t, 4*time.Minute, "the parse ended after the worker was killed", func() bool {
		final = jobStatus(t, B, key, id)
		return jobstatus.Terminal(final.Status)
	})
	t.Logf("parse %s %s %s after worker 1 was killed", id, final.Status, time.Since(killed).Round(time.Second))
	if final.Status != jobstatus.Completed {
		t.Fatalf("the parse ended %s: %+v", final.Status, final.Error)
	}
	var res parsejob.ParseResult
	if err := json.Unmarshal(final.Results, &res); err != nil {
		t.Fatalf("results %s: %v", final.Results, err)
	}
	if res.Summary.TotalInstancesFound == 0 || len(res.Legend) == 0 {
		t.Fatalf("the parse found no legend or no symbol: %s", final.Results)
	}
	// both api processes answer the same
	if a := jobStatus(t, A, key, id); a.Status != final.Status || string(a.Results) != string(final.Results) {
		t.Errorf("api A shows %s %s, api B %s", a.Status, a.Results, final.Status)
	}

	st, err := store.Open(context.Background(), dbURL, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	checkDrillRows(t, st.Client, id, set.Options.Sheets, res)
	checkDrillWebhooks(t, st.Client, id, map[string]*receiver{"up": healthy, "down at first": flaky}, secrets)
}

func jobStatus(t *testing.T, a liveAPI, key, id string) jobs.View {
	t.Helper()
	var v jobs.View
	a.do(t, http.MethodGet, key, "/v1/jobs/"+id, nil).ExpectStatus(t, http.StatusOK).JSON(t, &v)
	return v
}

// checkDrillRows: every job of the tree completed, one sheet per page,
// and the feature rows are exactly the result's — each legend entry and
// each instance once.
func checkDrillRows(t *testing.T, db *ent.Client, parseID string, pages int, res parsejob.ParseResult) {
	t.Helper()
	ctx := tenant.System(context.Background())
	tree := []string{parseID}
	var all []*ent.Job
	for frontier := []string{parseID}; len(frontier) > 0; {
		js, err := db.Job.Query().Where(job.ParentIDIn(frontier...)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		frontier = nil
		for _, j := range js {
			all = append(all, j)
			tree = append(tree, j.ID)
			frontier = append(frontier, j.ID)
		}
	}
	byType := map[string]int{}
	for _, j := range all {
		byType[j.Type]++
		if j.Status != job.StatusCompleted {
			t.Errorf("job %s (%s) is %s", j.ID, j.Type, j.Status)
		}
	}
	t.Logf("the parse's job tree: %v", byType)
	if byType[jobs.TypeDrawingPreprocess] != 1 || byType[jobs.TypeSheetPreprocess] != pages {
		t.Errorf("jobs below the parse %v: want one drawing_preprocess and %d sheet_preprocess", byType, pages)
	}
	dj, err := db.Job.Query().Where(job.ParentID(parseID), job.Type(jobs.TypeDrawingPreprocess)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sheets, err := db.Sheet.Query().Where(sheet.DrawingID(dj.TargetID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sheets) != pages {
		t.Errorf("%d sheets for %d pages", len(sheets), pages)
	}
	var sheetIDs []string
	for _, s := range sheets {
		sheetIDs = append(sheetIDs, s.ID)
	}
	blockIDs, err := db.Block.Query().Where(block.SheetIDIn(sheetIDs...)).IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}

	var wantEntries, wantInstances []string
	for _, l := range res.Legend {
		for _, s := range l.Symbols {
			wantEntries = append(wantEntries, s.FeatureID)
		}
	}
	for _, s := range res.Symbols {
		for _, in := range s.Instances {
			wantInstances = append(wantInstances, in.FeatureID)
		}
		if s.InstanceCount != len(s.Instances) {
			t.Errorf("%s: instance_count %d, %d instances", s.Label, s.InstanceCount, len(s.Instances))
		}
	}
	rows, err := db.Feature.Query().Where(feature.BlockIDIn(blockIDs...)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var gotEntries, gotInstances []string
	for _, f := range rows {
		if f.Kind == feature.KindLegendEntry {
			gotEntries = append(gotEntries, f.ID)
		} else {
			gotInstances = append(gotInstances, f.ID)
		}
	}
	for what, pair := range map[string][2][]string{"legend entries": {gotEntries, wantEntries}, "instances": {gotInstances, wantInstances}} {
		got, want := slices.Sorted(slices.Values(pair[0])), slices.Sorted(slices.Values(pair[1]))
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d rows %v, the result names %d: %v", what, len(got), got, len(want), want)
		}
	}
	// no instance twice at one place (a retried search would add a row of
	// its own rather than find the first)
	for i, a := range rows {
		for _, b := range rows[i+1:] {
			if a.Kind == feature.KindSymbolInstance && b.Kind == a.Kind && a.BlockID == b.BlockID && a.DefinedByID == b.DefinedByID &&
				a.Bounds.IoU(b.Bounds) >= 0.5 {
				t.Errorf("instances %s and %s of %s overlap at %v / %v", a.ID, b.ID, a.Label, a.Bounds, b.Bounds)
			}
		}
	}
	// one event of each kind per job
	evs, err := db.Event.Query().Where(event.RootJobID(parseID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range evs {
		k := e.JobID + " " + e.Type
		if seen[k] {
			t.Errorf("job %s recorded %s twice", e.JobID, e.Type)
		}
		seen[k] = true
	}
	if !seen[parseID+" parse.completed"] {
		t.Errorf("no parse.completed among %d events", len(evs))
	}
}

// checkDrillWebhooks: every event of the parse's tree reaches every
// endpoint (the one down at first once it is up), each receipt signed with
// the endpoint's secret, each webhook-id carrying one body; the endpoint
// that was down got each event once.
func checkDrillWebhooks(t *testing.T, db *ent.Client, parseID string, rs map[string]*receiver, secrets map[*receiver]string) {
	t.Helper()
	ctx := tenant.System(context.Background())
	var want []string
	waitFor(t, 2*time.Minute, "every event of the parse reached both endpoints", func() bool {
		evs, err := db.Event.Query().Where(event.RootJobID(parseID)).IDs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want = evs
		for _, r := range rs {
			got := r.ids()
			for _, id := range want {
				if !slices.Contains(got, id) {
					return false
				}
			}
		}
		return true
	})
	for name, r := range rs {
		bodies := map[string]string{}
		count := map[string]int{}
		for _, rc := range r.receipts() {
			id := rc.header.Get("webhook-id")
			count[id]++
			if len(verifySignature(secrets[r], rc.header, rc.body)) == 0 {
				t.Errorf("%s: %s is not signed with the endpoint's secret", name, id)
			}
			if b, ok := bodies[id]; ok && b != string(rc.body) {
				t.Errorf("%s: %s delivered with two bodies:\n%s\n%s", name, id, b, rc.body)
			}
			bodies[id] = string(rc.body)
			var body struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(rc.body, &body); err != nil || body.ID != id {
				t.Errorf("%s: body of %s: %s", name, id, rc.body)
			}
		}
		dups := 0
		for id, n := range count {
			if !slices.Contains(want, id) && strings.HasPrefix(id, "evt_") {
				continue // events of other jobs (the upload's, none today)
			}
			if n > 1 {
				dups++
				if r == rs["down at first"] {
					t.Errorf("%s: %s delivered %d times", name, id, n)
				}
			}
		}
		t.Logf("%s: %d events, %d receipts, %d delivered more than once (at least once, deduplicated by webhook-id)", name, len(want), len(r.receipts()), dups)
	}
}
