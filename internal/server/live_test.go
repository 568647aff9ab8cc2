package server_test

// Live progress: GraphQL subscriptions (graphql-transport-ws over
// gorilla/websocket) and GET /v1/jobs/{id}/stream (Server-Sent Events),
// in one process on both profiles here, and across processes (two api
// processes and a worker process) in TestLiveProgressAcrossProcesses.

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/internal/tools/synth"
)

// liveAPI is one api process as a client sees it.
type liveAPI struct {
	URL    string
	Client *http.Client
	TLS    *tls.Config
}

func (a liveAPI) do(t *testing.T, method, key, path string, body any) *testenv.Response {
	t.Helper()
	return testenv.Do(t, a.Client, a.URL, testenv.Request{Method: method, Path: path, Key: key, Body: body})
}

func (a liveAPI) dial(t *testing.T, o testenv.WSOptions) *testenv.GraphQLWS {
	t.Helper()
	o.TLS = a.TLS
	c, _, err := testenv.DialGraphQLWS(a.URL, o)
	if err != nil {
		t.Fatalf("graphql-transport-ws to %s: %v", a.URL, err)
	}
	t.Cleanup(c.Close)
	return c
}

func (a liveAPI) subscribe(t *testing.T, c *testenv.GraphQLWS, query string, vars map[string]any) *testenv.Subscription {
	t.Helper()
	s, err := c.Subscribe(query, vars)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	return s
}

func (a liveAPI) stream(t *testing.T, key, jobID, query string, header http.Header) *testenv.SSE {
	t.Helper()
	s, err := testenv.OpenSSE(t, a.Client, a.URL+"/v1/jobs/"+jobID+"/stream"+query, key, header)
	if err != nil {
		t.Fatalf("GET /v1/jobs/%s/stream: %v", jobID, err)
	}
	t.Cleanup(s.Close)
	return s
}

// liveSetup is what the live progress scenario runs on: subscriptions and
// streams go to A, requests that start work to B, and release lets the
// workers run what was queued (the cross-process test starts its worker
// process only then, so that every event happens after the subscriptions
// are open).
type liveSetup struct {
	A, B     liveAPI
	Key      string // organization acme
	OtherKey string // another organization
	// release lets the workers run; held says nothing runs before it
	release func(t *testing.T)
	held    bool
	// beforeRelease, when set, runs while the job waits (held)
	beforeRelease func(t *testing.T, jobID, projectID string)
}

const (
	jobUpdatedQuery  = `subscription($id: ID!) { jobUpdated(id: $id) { id type status progress startedAt completedAt result error { code message } } }`
	jobEventsQuery   = `subscription($id: ID!, $after: ID) { jobEvents(id: $id, after: $after) { id type createdAt data } }`
	projectJobsQuery = `subscription($p: ID!) { projectJobs(projectId: $p) { id type status progress parentID } }`
)

type liveJob struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Status      string          `json:"status"`
	Progress    float64         `json:"progress"`
	ParentID    *string         `json:"parentID"`
	StartedAt   *time.Time      `json:"startedAt"`
	CompletedAt *time.Time      `json:"completedAt"`
	Result      json.RawMessage `json:"result"`
}

type liveEvent struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

func decodeField[T any](t *testing.T, r testenv.Result, field string) T {
	t.Helper()
	var v T
	if len(r.Errors) > 0 {
		t.Fatalf("subscription errors: %+v", r.Errors)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.Data, &m); err != nil {
		t.Fatalf("data %s: %v", r.Data, err)
	}
	if err := json.Unmarshal(m[field], &v); err != nil {
		t.Fatalf("data.%s %s: %v", field, m[field], err)
	}
	return v
}

// synthPDF is a synthetic drawing set of one 24×18 sheet as PDF.
func synthPDF(t *testing.T, seed int64) (*synth.Set, []byte) {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: seed, Sheets: 1, PageSize: "24x18"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := set.WritePDF(&buf); err != nil {
		t.Fatal(err)
	}
	return set, buf.Bytes()
}

// runLive is the scenario: a parse of an uploaded file, watched live
// through A while B started it; then history, resumption and refusals.
func runLive(t *testing.T, l liveSetup) {
	_, pdf := synthPDF(t, 3) // rendered at 72 DPI, its ingestion and a parse with a supplied symbol take seconds
	var proj project
	l.B.do(t, http.MethodPost, l.Key, "/v1/projects", map[string]any{"name": "Live"}).ExpectStatus(t, http.StatusCreated).JSON(t, &proj)
	var up uploadRec
	l.B.do(t, http.MethodPost, l.Key, "/v1/files", map[string]any{"project_id": proj.ID, "filename": "set.pdf",
		"content_type": "application/pdf", "size": len(pdf)}).ExpectStatus(t, http.StatusCreated).JSON(t, &up)
	testenv.Do(t, l.B.Client, l.B.URL, testenv.Request{Method: http.MethodPut, Path: up.UploadURL, Body: pdf, ContentType: "application/pdf"}).
		ExpectStatus(t, http.StatusOK)
	l.B.do(t, http.MethodPost, l.Key, "/v1/files/"+up.ID+"/confirm", nil).ExpectStatus(t, http.StatusOK)

	conn := l.A.dial(t, testenv.WSOptions{Init: map[string]any{"apiKey": l.Key}})
	projectJobs := l.A.subscribe(t, conn, projectJobsQuery, map[string]any{"p": proj.ID})

	symbol := map[string]any{"label": "BOX", "description": "a framed box", "image_url": pngDataURL(t, framed(24, 24))}
	res := l.B.do(t, http.MethodPost, l.Key, "/v1/parse", map[string]any{"features": []string{"symbols"}, "file_id": up.ID,
		"options": map[string]any{"symbols": map[string]any{"legend": []any{symbol}}}}).ExpectStatus(t, http.StatusAccepted)
	var acc struct {
		Data struct {
			JobID string `json:"job_id"`
		} `json:"data"`
	}
	res.JSON(t, &acc)
	id := acc.Data.JobID

	updated := l.A.subscribe(t, conn, jobUpdatedQuery, map[string]any{"id": id})
	evSub := l.A.subscribe(t, conn, jobEventsQuery, map[string]any{"id": id})
	sse := l.A.stream(t, l.Key, id, "", nil)
	if l.held {
		// nothing runs yet: the first state is Queued, and no event exists
		m, ok := updated.Next(30 * time.Second)
		if !ok || m.Type != "next" {
			t.Fatalf("jobUpdated sent %+v", m)
		}
		var r testenv.Result
		_ = json.Unmarshal(m.Payload, &r)
		if st := decodeField[liveJob](t, r, "jobUpdated"); st.Status != jobstatus.Queued {
			t.Fatalf("first state %+v, want Queued (no worker runs yet)", st)
		}
		if m, ok := evSub.Next(500 * time.Millisecond); ok {
			t.Fatalf("an event before any worker ran: %+v", m)
		}
		if l.beforeRelease != nil {
			l.beforeRelease(t, id, proj.ID)
		}
	}
	started := time.Now()
	l.release(t)

	// every event, in order, then completion
	results, errs, completed := evSub.Collect(3 * time.Minute)
	if !completed || len(errs) > 0 {
		t.Fatalf("jobEvents: completed %v, errors %+v after %d events", completed, errs, len(results))
	}
	var live []liveEvent
	for _, r := range results {
		live = append(live, decodeField[liveEvent](t, r, "jobEvents"))
	}
	t.Logf("parse %s: %d events in %s: %v", id, len(live), time.Since(started).Round(time.Millisecond), eventTypes(live))
	checkParseEvents(t, id, live)

	// states: status and progress never go back, the last is Completed with its result
	results, errs, completed = updated.Collect(time.Minute)
	if !completed || len(errs) > 0 || len(results) == 0 {
		t.Fatalf("jobUpdated: completed %v, errors %+v, %d states", completed, errs, len(results))
	}
	var states []liveJob
	for _, r := range results {
		states = append(states, decodeField[liveJob](t, r, "jobUpdated"))
	}
	checkStates(t, states)
	final := states[len(states)-1]
	if final.Status != jobstatus.Completed || final.CompletedAt == nil || len(final.Result) == 0 || string(final.Result) == "null" {
		t.Fatalf("last state %+v, want Completed with a result", final)
	}

	// the stream carried the same events and states, then end
	streamed, jobStates, ended := readStream(t, sse, time.Minute)
	if !ended {
		t.Fatalf("the stream did not end; %d events", len(streamed))
	}
	if !slices.Equal(eventIDs(streamed), eventIDs(live)) {
		t.Errorf("stream events %v\nsubscription events %v", eventTypes(streamed), eventTypes(live))
	}
	if len(jobStates) == 0 || jobStates[len(jobStates)-1]["status"] != jobstatus.Completed || jobStates[0]["job_id"] != id {
		t.Errorf("stream job states %v", jobStates)
	}
	if sse.Retry() == "" {
		t.Error("the stream suggests no retry delay")
	}

	// projectJobs: the parse job and the jobs below it, each moving forward, the parse job ending Completed
	byJob := map[string][]liveJob{}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		m, ok := projectJobs.Next(time.Until(deadline))
		if !ok || m.Type != "next" {
			t.Fatalf("projectJobs sent %+v", m)
		}
		var r testenv.Result
		_ = json.Unmarshal(m.Payload, &r)
		j := decodeField[liveJob](t, r, "projectJobs")
		byJob[j.ID] = append(byJob[j.ID], j)
		if j.ID == id && j.Status == jobstatus.Completed {
			break
		}
	}
	if s := byJob[id]; len(s) == 0 || s[len(s)-1].Status != jobstatus.Completed {
		t.Fatalf("projectJobs: the parse job's states %+v", s)
	}
	children := 0
	for jid, s := range byJob {
		checkStates(t, s)
		if jid != id && s[0].ParentID != nil {
			children++
		}
	}
	if children == 0 {
		t.Errorf("projectJobs sent no job below the parse job: %v", byJob)
	}
	if err := projectJobs.Stop(); err != nil {
		t.Fatal(err)
	}

	// after completion: the whole history, then complete; the state, then complete
	late := l.A.dial(t, testenv.WSOptions{Init: map[string]any{"Authorization": "Bearer " + l.Key}})
	results, errs, completed = l.A.subscribe(t, late, jobEventsQuery, map[string]any{"id": id}).Collect(30 * time.Second)
	if !completed || len(errs) > 0 {
		t.Fatalf("late jobEvents: completed %v, errors %+v", completed, errs)
	}
	var history []liveEvent
	for _, r := range results {
		history = append(history, decodeField[liveEvent](t, r, "jobEvents"))
	}
	if !slices.Equal(eventIDs(history), eventIDs(live)) {
		t.Errorf("late jobEvents %v\nlive %v", eventTypes(history), eventTypes(live))
	}
	results, errs, completed = l.A.subscribe(t, late, jobUpdatedQuery, map[string]any{"id": id}).Collect(30 * time.Second)
	if !completed || len(errs) > 0 || len(results) != 1 || decodeField[liveJob](t, results[0], "jobUpdated").Status != jobstatus.Completed {
		t.Fatalf("late jobUpdated: completed %v, errors %+v, %d states", completed, errs, len(results))
	}
	// resumed after an event: exactly the rest
	mid := len(live) / 2
	results, _, completed = l.A.subscribe(t, late, jobEventsQuery, map[string]any{"id": id, "after": live[mid].ID}).Collect(30 * time.Second)
	var rest []liveEvent
	for _, r := range results {
		rest = append(rest, decodeField[liveEvent](t, r, "jobEvents"))
	}
	if !completed || !slices.Equal(eventIDs(rest), eventIDs(live[mid+1:])) {
		t.Errorf("jobEvents after %s: %v, want %v", live[mid].ID, eventTypes(rest), eventTypes(live[mid+1:]))
	}

	// SSE resumption: Last-Event-ID, and the query parameter; after the last event only the state and end
	for _, c := range []struct {
		after  int
		header bool
	}{{mid, true}, {mid, false}, {len(live) - 1, true}} {
		var h http.Header
		query := ""
		if c.header {
			h = http.Header{"Last-Event-ID": {live[c.after].ID}}
		} else {
			query = "?last_event_id=" + live[c.after].ID
		}
		got, states, ended := readStream(t, l.A.stream(t, l.Key, id, query, h), 30*time.Second)
		if !ended || !slices.Equal(eventIDs(got), eventIDs(live[c.after+1:])) || len(states) != 1 {
			t.Errorf("stream after %s (header %v): ended %v, %d states, events %v, want %v", live[c.after].ID, c.header, ended, len(states),
				eventTypes(got), eventTypes(live[c.after+1:]))
		}
	}

	liveRefusals(t, l, id, proj.ID)
}

// liveRefusals: keys missing, wrong or of another organization, origins
// not allowed, ids that do not exist.
func liveRefusals(t *testing.T, l liveSetup, jobID, projectID string) {
	a := l.A
	for name, o := range map[string]testenv.WSOptions{
		"no key":                    {},
		"a key that does not exist": {Init: map[string]any{"apiKey": "sk_" + strings.Repeat("A", 43)}},
		"a malformed key":           {Init: map[string]any{"apiKey": "nope"}},
		"not a bearer":              {Init: map[string]any{"Authorization": "Basic " + l.Key}},
	} {
		o.TLS = a.TLS
		c, _, err := testenv.DialGraphQLWS(a.URL, o)
		if code, reason := testenv.CloseCode(err); code != 4403 || !strings.HasPrefix(reason, "Forbidden") {
			t.Errorf("connection_init with %s: %v (close %d %q), want close 4403 Forbidden", name, err, code, reason)
		}
		if c != nil {
			c.Close()
		}
	}
	// a bad key in the upgrade request: refused before the upgrade, as every request
	_, res, err := testenv.DialGraphQLWS(a.URL, testenv.WSOptions{TLS: a.TLS, Header: http.Header{"Authorization": {"Bearer sk_wrong"}}})
	if err == nil || res == nil || res.StatusCode != http.StatusUnauthorized {
		t.Errorf("upgrade with a bad key: %v, response %v", err, res)
	}
	// a browser of another site
	_, res, err = testenv.DialGraphQLWS(a.URL, testenv.WSOptions{TLS: a.TLS, Init: map[string]any{"apiKey": l.Key},
		Header: http.Header{"Origin": {"https://evil.example"}}})
	if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("upgrade from another origin: %v, response %v", err, res)
	}
	// the key in the upgrade request's header, a page of the service's own origin, the legacy protocol
	for name, o := range map[string]testenv.WSOptions{
		"header key":  {Header: http.Header{"Authorization": {"Bearer " + l.Key}}},
		"same origin": {Init: map[string]any{"apiKey": l.Key}, Header: http.Header{"Origin": {a.URL}}},
		"graphql-ws":  {Init: map[string]any{"apiKey": l.Key}, Subprotocol: "graphql-ws"},
	} {
		o.TLS = a.TLS
		c, _, err := testenv.DialGraphQLWS(a.URL, o)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if name != "graphql-ws" {
			results, errs, completed := a.subscribe(t, c, jobUpdatedQuery, map[string]any{"id": jobID}).Collect(30 * time.Second)
			if !completed || len(errs) > 0 || len(results) != 1 {
				t.Errorf("%s: jobUpdated completed %v, errors %+v, %d states", name, completed, errs, len(results))
			}
		}
		c.Close()
	}

	// another organization's job and project are missing ones
	other := a.dial(t, testenv.WSOptions{Init: map[string]any{"apiKey": l.OtherKey}})
	for name, sub := range map[string]struct {
		q    string
		vars map[string]any
	}{
		"jobUpdated of another organization":     {jobUpdatedQuery, map[string]any{"id": jobID}},
		"jobEvents of another organization":      {jobEventsQuery, map[string]any{"id": jobID}},
		"projectJobs of another organization":    {projectJobsQuery, map[string]any{"p": projectID}},
		"jobEvents of a job that does not exist": {jobEventsQuery, map[string]any{"id": "job_01m00000000000000000000000"}},
	} {
		expectSubscriptionError(t, name, a.subscribe(t, other, sub.q, sub.vars), "NOT_FOUND")
	}
	for _, c := range []struct {
		key, query string
		status     int
		code       string
	}{
		{"", "", http.StatusUnauthorized, "UNAUTHORIZED"},
		{l.OtherKey, "", http.StatusNotFound, "NOT_FOUND"},
		{l.Key, "?since=1", http.StatusBadRequest, "VALIDATION_ERROR"},
	} {
		_, err := testenv.OpenSSE(t, a.Client, a.URL+"/v1/jobs/"+jobID+"/stream"+c.query, c.key, nil)
		var se *testenv.SSEStatusError
		if !errors.As(err, &se) || se.Status != c.status || !strings.Contains(string(se.Body), `"`+c.code+`"`) {
			t.Errorf("stream with key %q query %q: %v, want %d %s", c.key, c.query, err, c.status, c.code)
		}
	}
}

// expectSubscriptionError: the operation fails with a GraphQL error of code
// (as an error message, or a next carrying errors before complete).
func expectSubscriptionError(t *testing.T, name string, s *testenv.Subscription, code string) {
	t.Helper()
	results, errs, _ := s.Collect(30 * time.Second)
	for _, r := range results {
		if len(r.Errors) == 0 && string(r.Data) != "null" {
			t.Errorf("%s: data %s", name, r.Data)
		}
		errs = append(errs, r.Errors...)
	}
	if len(errs) == 0 || errs[0].Extensions["code"] != code {
		t.Errorf("%s: errors %+v, want code %s", name, errs, code)
	}
}

func eventIDs(evs []liveEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

func eventTypes(evs []liveEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// checkParseEvents checks a parse job's events: each once, in recording
// order, parse.started first, then the drawing's ingestion and the block
// searches, parse.completed last.
func checkParseEvents(t *testing.T, id string, evs []liveEvent) {
	t.Helper()
	if len(evs) < 3 {
		t.Fatalf("%d events: %v", len(evs), eventTypes(evs))
	}
	seen := map[string]bool{}
	count := map[string]int{}
	for i, e := range evs {
		if seen[e.ID] || !strings.HasPrefix(e.ID, "evt_") {
			t.Errorf("event %d: id %q repeated or not evt_", i, e.ID)
		}
		seen[e.ID] = true
		count[e.Type]++
		if i > 0 && e.CreatedAt.Before(evs[i-1].CreatedAt) {
			t.Errorf("event %d (%s) is older than the one before it", i, e.Type)
		}
		var data map[string]any
		if err := json.Unmarshal(e.Data, &data); err != nil || data == nil {
			t.Errorf("event %s data %s", e.Type, e.Data)
		}
	}
	if evs[0].Type != "parse.started" || evs[len(evs)-1].Type != "parse.completed" {
		t.Errorf("events %v: want parse.started first and parse.completed last", eventTypes(evs))
	}
	if count["parse.child.completed"] == 0 || count["parse.block.completed"] == 0 {
		t.Errorf("events %v: want the drawing's ingestion (parse.child.completed) and block results (parse.block.completed)", eventTypes(evs))
	}
	var last map[string]any
	_ = json.Unmarshal(evs[len(evs)-1].Data, &last)
	if last["job_id"] != id || last["status"] != jobstatus.Completed {
		t.Errorf("parse.completed data %v", last)
	}
}

var statusOrder = map[string]int{jobstatus.Queued: 0, jobstatus.Started: 1, jobstatus.Completed: 2, jobstatus.Failed: 2, jobstatus.Canceled: 2}

// checkStates checks that a job's states never go back.
func checkStates(t *testing.T, states []liveJob) {
	t.Helper()
	for i := 1; i < len(states); i++ {
		a, b := states[i-1], states[i]
		if statusOrder[b.Status] < statusOrder[a.Status] || b.Progress < a.Progress {
			t.Errorf("state %d (%s %.3f) after (%s %.3f)", i, b.Status, b.Progress, a.Status, a.Progress)
		}
		if a.Status == b.Status && a.Progress == b.Progress && (a.CompletedAt == nil) == (b.CompletedAt == nil) {
			t.Errorf("state %d repeats the one before it: %+v", i, b)
		}
	}
}

// readStream reads an event stream until it ends: its events, the job
// states (event: job) and whether it ended with event: end.
func readStream(t *testing.T, s *testenv.SSE, timeout time.Duration) (evs []liveEvent, states []map[string]any, ended bool) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case e, ok := <-s.Events:
			if !ok {
				return evs, states, ended
			}
			switch e.Event {
			case "job":
				var m map[string]any
				if err := json.Unmarshal([]byte(e.Data), &m); err != nil {
					t.Fatalf("event: job data %q: %v", e.Data, err)
				}
				if e.ID != "" {
					t.Errorf("event: job carries id %q", e.ID)
				}
				states = append(states, m)
			case "end":
				ended = true
			default:
				var env struct {
					ID        string          `json:"id"`
					Type      string          `json:"type"`
					CreatedAt time.Time       `json:"created_at"`
					Data      json.RawMessage `json:"data"`
				}
				if err := json.Unmarshal([]byte(e.Data), &env); err != nil {
					t.Fatalf("event %s data %q: %v", e.Event, e.Data, err)
				}
				if env.ID != e.ID || env.Type != e.Event || env.CreatedAt.IsZero() || len(env.Data) == 0 {
					t.Errorf("event id %q type %q carries %s", e.ID, e.Event, e.Data)
				}
				evs = append(evs, liveEvent{ID: env.ID, Type: env.Type, CreatedAt: env.CreatedAt, Data: env.Data})
			}
		case <-deadline:
			t.Errorf("the stream did not end within %s", timeout)
			return evs, states, ended
		}
	}
}

func TestLiveProgress(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			cfg := p.Config
			cfg.RateManagement, cfg.BurstManagement = 100000, 100000
			cfg.RateVision, cfg.BurstVision = 100000, 100000
			cfg.RenderDPI = 72
			s := testenv.StartServer(t, cfg)
			s.App.Uploads.PublicURL = s.URL
			api := liveAPI{URL: s.URL, Client: s.Client, TLS: s.Client.Transport.(*http.Transport).TLSClientConfig}
			runLive(t, liveSetup{A: api, B: api, Key: s.CreateKey(t, "acme"), OtherKey: s.CreateKey(t, "globex"),
				release: func(*testing.T) {}})
		})
	}
}
