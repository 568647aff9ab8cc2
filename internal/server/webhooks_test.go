package server_test

// Webhooks through the real HTTPS server on every profile: the
// /v1/webhook_endpoints resource (validation, the secret shown once,
// rotation, pagination, other organizations, idempotency, GraphQL parity),
// and delivery to real TLS receivers: one that is down at first, one that
// never answers, one that answers 500, one that redirects, next to healthy
// ones. Events are recorded on job rows through the app's event bus (the
// runner does the same when jobs run), so no parse has to run.

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/event"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/webhookdelivery"
	"github.com/plangraph/plangraph/ent/webhookendpoint"
	"github.com/plangraph/plangraph/internal/events/webhooks"
	"github.com/plangraph/plangraph/internal/secretbox"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/jobs"
	parsejob "github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/rest"
)

// webhookRec and deliveryRec are a webhook endpoint and a delivery
// attempt as REST shows them (TestWebhookEndpoints checks the fields by
// name).
type (
	webhookRec  rest.WebhookEndpoint
	deliveryRec rest.WebhookDelivery
)

func (w webhookRec) ident() string  { return w.ID }
func (d deliveryRec) ident() string { return d.ID }

func createWebhook(t *testing.T, s *testenv.Server, key string, body map[string]any) webhookRec {
	t.Helper()
	var w webhookRec
	postJSON(t, s, key, "/v1/webhook_endpoints", body).ExpectStatus(t, http.StatusCreated).JSON(t, &w)
	return w
}

// a public address that needs no name resolution
const publicHook = "https://93.184.215.14/hooks/plangraph"

func TestWebhookEndpoints(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := startUnlimited(t, p) // without --webhook-allow-private-urls
			key, rec := s.CreateKeyRecord(t, "Webhook org")
			other := s.CreateKey(t, "Other org")
			db, ctx := s.App.Store.Client, tenant.WithOrg(context.Background(), rec.OrgID)

			// create: the secret comes once, with the endpoint
			res := postJSON(t, s, key, "/v1/webhook_endpoints", map[string]any{
				"url": publicHook, "description": "CI bridge", "events": []string{"parse.completed", "drawing.*", "parse.completed"}})
			res.ExpectStatus(t, http.StatusCreated)
			raw := res.Object(t)
			if got := slices.Sorted(mapKeys(raw)); !slices.Equal(got, []string{"created_at", "description", "enabled", "events", "id",
				"previous_secret_expires_at", "secret", "updated_at", "url"}) {
				t.Errorf("create answered fields %v", got)
			}
			var ep webhookRec
			res.JSON(t, &ep)
			key32, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(ep.Secret, "whsec_"))
			if !strings.HasPrefix(ep.ID, "whe_") || !strings.HasPrefix(ep.Secret, "whsec_") || err != nil || len(key32) != 32 ||
				ep.URL != publicHook || ep.Description != "CI bridge" || !ep.Enabled || ep.PreviousSecretExpiresAt != nil ||
				!slices.Equal(ep.Events, []string{"parse.completed", "drawing.*"}) {
				t.Errorf("created %+v", ep)
			}
			if loc := res.Header.Get("Location"); loc != "/v1/webhook_endpoints/"+ep.ID {
				t.Errorf("Location %q", loc)
			}
			for _, path := range []string{"/v1/webhook_endpoints/" + ep.ID, "/v1/webhook_endpoints"} {
				got := s.Get(t, key, path).ExpectStatus(t, http.StatusOK)
				if strings.Contains(string(got.Body), ep.Secret) || strings.Contains(string(got.Body), `"secret"`) {
					t.Errorf("GET %s shows the secret: %s", path, got.Body)
				}
			}
			minimal := createWebhook(t, s, key, map[string]any{"url": "https://[2606:4700:4700::1111]:8443/x?y=z"})
			if minimal.Events == nil || len(minimal.Events) != 0 || !minimal.Enabled || minimal.Description != "" {
				t.Errorf("defaults: %+v", minimal)
			}

			// validation
			long := "https://93.184.215.14/" + strings.Repeat("a", 2048)
			for _, c := range []struct {
				body   map[string]any
				fields []string
			}{
				{map[string]any{}, []string{"url"}},
				{map[string]any{"url": ""}, []string{"url"}},
				{map[string]any{"url": "http://93.184.215.14/x"}, []string{"url"}},
				{map[string]any{"url": "93.184.215.14/x"}, []string{"url"}},
				{map[string]any{"url": "https://user:pw@93.184.215.14/x"}, []string{"url"}},
				{map[string]any{"url": long}, []string{"url"}},
				{map[string]any{"url": "https://127.0.0.1:8443/x"}, []string{"url"}},
				{map[string]any{"url": "https://10.1.2.3/x"}, []string{"url"}},
				{map[string]any{"url": "https://192.168.0.10/x"}, []string{"url"}},
				{map[string]any{"url": "https://169.254.169.254/latest/meta-data"}, []string{"url"}},
				{map[string]any{"url": "https://[::1]/x"}, []string{"url"}},
				{map[string]any{"url": "https://[fe80::1]/x"}, []string{"url"}},
				{map[string]any{"url": "https://0.0.0.0/x"}, []string{"url"}},
				{map[string]any{"url": "https://localhost/x"}, []string{"url"}},
				{map[string]any{"url": publicHook, "events": []string{"parse.done"}}, []string{"events"}},
				{map[string]any{"url": publicHook, "events": []string{"*"}}, []string{"events"}},
				{map[string]any{"url": publicHook, "description": strings.Repeat("d", 501)}, []string{"description"}},
				{map[string]any{"url": "http://x", "events": []string{"nope"}}, []string{"url", "events"}},
			} {
				prob := postJSON(t, s, key, "/v1/webhook_endpoints", c.body).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
				for _, f := range c.fields {
					if len(prob.Errors[f]) == 0 {
						t.Errorf("%v: errors %v do not name %s", c.body, prob.Errors, f)
					}
				}
			}
			postJSON(t, s, key, "/v1/webhook_endpoints", map[string]any{"url": publicHook, "secret": "whsec_mine"}).
				ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")

			// update
			var up webhookRec
			s.Send(t, http.MethodPatch, key, "/v1/webhook_endpoints/"+ep.ID, map[string]any{
				"url": "https://93.184.215.14/v2", "events": []string{}, "enabled": false, "description": ""}).
				ExpectStatus(t, http.StatusOK).JSON(t, &up)
			if up.URL != "https://93.184.215.14/v2" || len(up.Events) != 0 || up.Enabled || up.Description != "" || up.Secret != "" ||
				!up.UpdatedAt.After(ep.UpdatedAt) || !up.CreatedAt.Equal(ep.CreatedAt) {
				t.Errorf("updated %+v", up)
			}
			s.Send(t, http.MethodPatch, key, "/v1/webhook_endpoints/"+ep.ID, map[string]any{"url": "https://10.0.0.1/x"}).
				ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			s.Send(t, http.MethodPatch, key, "/v1/webhook_endpoints/"+ep.ID, map[string]any{"events": []string{"parse.*"}}).
				ExpectStatus(t, http.StatusOK)
			s.Send(t, http.MethodPatch, key, "/v1/webhook_endpoints/whe_01jd7m3v2k8q9r4s5t6v7w8x9y", map[string]any{"enabled": true}).
				ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")

			// rotation: a new secret, once; the old one kept for 24 hours
			var rot webhookRec
			postJSON(t, s, key, "/v1/webhook_endpoints/"+ep.ID+"/rotate_secret", nil).ExpectStatus(t, http.StatusOK).JSON(t, &rot)
			if !strings.HasPrefix(rot.Secret, "whsec_") || rot.Secret == ep.Secret || rot.PreviousSecretExpiresAt == nil ||
				rot.PreviousSecretExpiresAt.Sub(time.Now()) < 23*time.Hour || rot.PreviousSecretExpiresAt.Sub(time.Now()) > 25*time.Hour {
				t.Errorf("rotated %+v", rot)
			}
			// stored sealed, under the key outside the database
			stored, err := db.WebhookEndpoint.Get(ctx, ep.ID)
			if err != nil || strings.Contains(stored.Secret+stored.PreviousSecret, "whsec_") {
				t.Fatalf("stored secrets after rotation: %v (in the clear: %v)", err, stored != nil && strings.Contains(stored.Secret, "whsec_"))
			}
			cur, err1 := s.App.Webhooks.Box.Open(stored.Secret)
			prev, err2 := s.App.Webhooks.Box.Open(stored.PreviousSecret)
			if err1 != nil || err2 != nil || cur != rot.Secret || prev != ep.Secret {
				t.Errorf("stored secrets after rotation do not open to the shown ones: %v %v", err1, err2)
			}
			for _, id := range []string{"secret:cursor", "secret:uploads"} {
				if row, err := db.Setting.Get(tenant.System(ctx), id); err != nil || !secretbox.Sealed(row.Value) {
					t.Errorf("setting %s is not sealed (%v)", id, err)
				}
			}
			var again webhookRec
			s.Get(t, key, "/v1/webhook_endpoints/"+ep.ID).ExpectStatus(t, http.StatusOK).JSON(t, &again)
			if again.Secret != "" || again.PreviousSecretExpiresAt == nil {
				t.Errorf("GET after rotation %+v", again)
			}

			// another organization sees none of it
			for _, r := range []testenv.Request{
				{Method: http.MethodGet, Path: "/v1/webhook_endpoints/" + ep.ID},
				{Method: http.MethodPatch, Path: "/v1/webhook_endpoints/" + ep.ID, Body: map[string]any{"enabled": true}},
				{Method: http.MethodPost, Path: "/v1/webhook_endpoints/" + ep.ID + "/rotate_secret"},
				{Method: http.MethodGet, Path: "/v1/webhook_endpoints/" + ep.ID + "/deliveries"},
				{Method: http.MethodPost, Path: "/v1/webhook_endpoints/" + ep.ID + "/deliveries/whd_01jd7m3v2k8q9r4s5t6v7w8x9y/redeliver"},
				{Method: http.MethodDelete, Path: "/v1/webhook_endpoints/" + ep.ID},
			} {
				r.Key = other
				s.Do(t, r).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			}
			if l := getList[webhookRec](t, s, other, "/v1/webhook_endpoints"); len(l.Data) != 0 {
				t.Errorf("another organization lists %v", l.Data)
			}
			s.Get(t, key, "/v1/webhook_endpoints/"+ep.ID+"/deliveries/whd_x/redeliver").ExpectProblem(t, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")

			// idempotent create: the same endpoint again, its secret shown only the first time
			idem := testenv.Request{Method: http.MethodPost, Path: "/v1/webhook_endpoints", Key: key,
				Body: map[string]any{"url": publicHook + "/idem"}, Header: http.Header{"Idempotency-Key": {"hook-1"}}}
			var first, second webhookRec
			s.Do(t, idem).ExpectStatus(t, http.StatusCreated).JSON(t, &first)
			r2 := s.Do(t, idem).ExpectStatus(t, http.StatusCreated)
			r2.JSON(t, &second)
			if r2.Header.Get("Idempotency-Status") != "hit" || second.ID != first.ID || !strings.HasPrefix(first.Secret, "whsec_") || second.Secret != "" {
				t.Errorf("repeated idempotent create: %s %+v %+v", r2.Header.Get("Idempotency-Status"), first, second)
			}

			// the list: newest first, paged, filtered
			for i := range 3 {
				createWebhook(t, s, key, map[string]any{"url": publicHook + "/" + strconv.Itoa(i)})
			}
			all, err := db.WebhookEndpoint.Query().Order(ent.Desc(webhookendpoint.FieldCreatedAt), ent.Desc(webhookendpoint.FieldID)).IDs(ctx)
			if err != nil || len(all) != 6 {
				t.Fatalf("endpoints %v %v", all, err)
			}
			var walked []string
			path := "/v1/webhook_endpoints?limit=2"
			for range 5 {
				l := getList[webhookRec](t, s, key, path)
				walked = append(walked, idsOf(l.Data)...)
				if l.Meta.Next == nil {
					break
				}
				path = "/v1/webhook_endpoints?cursor=" + url.QueryEscape(*l.Meta.Next)
			}
			if !slices.Equal(walked, all) {
				t.Errorf("walked %v, want %v", walked, all)
			}
			disabled := getList[webhookRec](t, s, key, "/v1/webhook_endpoints?enabled=false")
			if len(disabled.Data) != 1 || disabled.Data[0].ID != ep.ID {
				t.Errorf("enabled=false lists %v", idsOf(disabled.Data))
			}
			s.Get(t, key, "/v1/webhook_endpoints?enabled=maybe").ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			s.Get(t, key, "/v1/webhook_endpoints?url=x").ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			deliveries := getList[deliveryRec](t, s, key, "/v1/webhook_endpoints/"+ep.ID+"/deliveries")
			if len(deliveries.Data) != 0 || deliveries.Meta.Next != nil {
				t.Errorf("deliveries of a new endpoint: %+v", deliveries)
			}
			s.Get(t, key, "/v1/webhook_endpoints/"+ep.ID+"/deliveries?status=lost").ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			s.Get(t, key, "/v1/webhook_endpoints/"+ep.ID+"/deliveries?endpoint_id=x").ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")

			// GraphQL: the same operations
			g := s.GraphQL(t, key, `mutation($u: String!) { createWebhookEndpoint(input: {url: $u, events: ["parse.*"], enabled: true}) {
				secret endpoint { id url events enabled } } }`, map[string]any{"u": publicHook + "/gql"})
			var created struct {
				CreateWebhookEndpoint struct {
					Secret   string
					Endpoint struct {
						ID, URL string
						Events  []string
						Enabled bool
					}
				}
			}
			g.DataInto(t, &created)
			gid := created.CreateWebhookEndpoint.Endpoint.ID
			var viaREST webhookRec
			s.Get(t, key, "/v1/webhook_endpoints/"+gid).ExpectStatus(t, http.StatusOK).JSON(t, &viaREST)
			if !strings.HasPrefix(created.CreateWebhookEndpoint.Secret, "whsec_") || viaREST.URL != publicHook+"/gql" ||
				!slices.Equal(viaREST.Events, []string{"parse.*"}) {
				t.Errorf("GraphQL create %+v, REST shows %+v", created, viaREST)
			}
			g = s.GraphQL(t, key, `query($id: ID!) { webhookEndpoints(first: 100) { totalCount edges { node { id } } }
				webhookEndpoint(id: $id) { url deliveries(first: 5) { totalCount } } webhookEventTypes }`, map[string]any{"id": gid})
			var q struct {
				WebhookEndpoints struct{ TotalCount int }
				WebhookEndpoint  struct {
					URL        string
					Deliveries struct{ TotalCount int }
				}
				WebhookEventTypes []string
			}
			g.DataInto(t, &q)
			if q.WebhookEndpoints.TotalCount != 7 || q.WebhookEndpoint.URL != publicHook+"/gql" ||
				!slices.Contains(q.WebhookEventTypes, "parse.block.completed") || !slices.Contains(q.WebhookEventTypes, "drawing.*") {
				t.Errorf("GraphQL query %+v", q)
			}
			expectGraphQLError(t, s.GraphQL(t, key, `mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: {url: "https://127.0.0.1/x"}) { id } }`,
				map[string]any{"id": gid}), "VALIDATION_ERROR", "url")
			expectGraphQLError(t, s.GraphQL(t, key, `mutation { createWebhookEndpoint(input: {url: "https://93.184.215.14/", events: ["parse.nope"]}) { secret } }`,
				nil), "VALIDATION_ERROR", "events")
			g = s.GraphQL(t, key, `mutation($id: ID!) { rotateWebhookEndpointSecret(id: $id) { secret endpoint { previousSecretExpiresAt } } }`,
				map[string]any{"id": gid})
			var rotated struct {
				RotateWebhookEndpointSecret struct {
					Secret   string
					Endpoint struct{ PreviousSecretExpiresAt *time.Time }
				}
			}
			g.DataInto(t, &rotated)
			if r := rotated.RotateWebhookEndpointSecret; r.Secret == created.CreateWebhookEndpoint.Secret || r.Endpoint.PreviousSecretExpiresAt == nil {
				t.Errorf("GraphQL rotation %+v", r)
			}
			g = s.GraphQL(t, other, `query($id: ID!) { webhookEndpoint(id: $id) { id } node(id: $id) { id } }`, map[string]any{"id": gid})
			if string(g.Data) != `{"webhookEndpoint":null,"node":null}` {
				t.Errorf("another organization reads %s", g.Data)
			}
			g = s.GraphQL(t, key, `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`, map[string]any{"id": gid})
			g.DataInto(t, &struct{}{})
			s.Get(t, key, "/v1/webhook_endpoints/"+gid).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")

			// delete
			s.Do(t, testenv.Request{Method: http.MethodDelete, Path: "/v1/webhook_endpoints/" + ep.ID, Key: key}).ExpectStatus(t, http.StatusNoContent)
			s.Get(t, key, "/v1/webhook_endpoints/"+ep.ID).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			s.Do(t, testenv.Request{Method: http.MethodDelete, Path: "/v1/webhook_endpoints/" + ep.ID, Key: key}).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
		})
	}
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// receipt is one request a receiver got.
type receipt struct {
	header http.Header
	body   []byte
	at     time.Time
}

// receiver is a TLS webhook receiver whose behaviour the test picks.
type receiver struct {
	t      *testing.T
	srv    *httptest.Server
	url    string
	answer http.HandlerFunc

	mu          sync.Mutex
	got         []receipt
	inFlight    int
	maxInFlight int
}

func newReceiver(t *testing.T, answer http.HandlerFunc) *receiver {
	r := &receiver{t: t, answer: answer}
	r.srv = httptest.NewTLSServer(r)
	r.url = r.srv.URL + "/hook"
	t.Cleanup(r.srv.Close)
	return r
}

// downReceiver is a receiver whose address refuses connections until up.
func downReceiver(t *testing.T) *receiver {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return &receiver{t: t, url: "https://" + addr + "/hook", answer: func(w http.ResponseWriter, _ *http.Request) {}}
}

func (r *receiver) up() {
	u, _ := url.Parse(r.url)
	ln, err := net.Listen("tcp", u.Host)
	if err != nil {
		r.t.Fatalf("the receiver's port was taken meanwhile: %v", err)
	}
	r.srv = httptest.NewUnstartedServer(r)
	r.srv.Listener = ln
	r.srv.StartTLS()
	r.t.Cleanup(r.srv.Close)
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.got = append(r.got, receipt{header: req.Header.Clone(), body: body, at: time.Now()})
	r.inFlight++
	r.maxInFlight = max(r.maxInFlight, r.inFlight)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inFlight--
		r.mu.Unlock()
	}()
	if req.Method != http.MethodPost || req.URL.Path != "/hook" {
		http.Error(w, "unexpected request", http.StatusBadRequest)
		return
	}
	r.answer(w, req)
}

func (r *receiver) receipts() []receipt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// ids are the webhook-ids received, in order.
func (r *receiver) ids() []string {
	var out []string
	for _, x := range r.receipts() {
		out = append(out, x.header.Get("webhook-id"))
	}
	return out
}

// verifySignature checks a request the Standard Webhooks way, written
// here from the specification (not with the service's code): the
// signature is base64(HMAC-SHA256(base64-decoded secret after whsec_,
// "{webhook-id}.{webhook-timestamp}.{body}")) among the space-separated
// "v1,…" entries of webhook-signature. It returns the positions of the
// entries that match.
func verifySignature(secret string, h http.Header, body []byte) []int {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return nil
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "." + string(body)))
	want := mac.Sum(nil)
	var matched []int
	for i, sig := range strings.Fields(h.Get("webhook-signature")) {
		v, b64, _ := strings.Cut(sig, ",")
		got, err := base64.StdEncoding.DecodeString(b64)
		if v == "v1" && err == nil && hmac.Equal(got, want) {
			matched = append(matched, i)
		}
	}
	return matched
}

func waitFor(t *testing.T, timeout time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ceilingOf is the largest delay the schedule may choose after failed
// automatic attempt n with retry base base (and the jitter's floor is half).
func ceilingOf(base time.Duration, n int) time.Duration {
	return min(base<<(n-1), time.Hour)
}

func TestWebhookDelivery(t *testing.T) {
	// every httptest TLS server has the same self-signed certificate:
	// receivers are trusted through the operator's --webhook-ca-file
	probe := httptest.NewTLSServer(http.NotFoundHandler())
	caFile := filepath.Join(t.TempDir(), "receivers.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: probe.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	probe.Close()
	const base, timeout = time.Second, time.Second

	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			cfg := p.Config
			cfg.RateManagement, cfg.BurstManagement = 100000, 100000
			cfg.WebhookAllowPrivateURLs, cfg.WebhookCAFile = true, caFile
			cfg.WebhookTimeout, cfg.WebhookRetryBase, cfg.WebhookConcurrency = timeout, base, 8 // 2 slots per endpoint
			s := testenv.StartServer(t, cfg)
			key, rec := s.CreateKeyRecord(t, "Hooked org")
			otherKey, otherRec := s.CreateKeyRecord(t, "Other org")
			db, ctx := s.App.Store.Client, tenant.WithOrg(context.Background(), rec.OrgID)

			ok := func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }
			healthy, filtered, off, foreign := newReceiver(t, ok), newReceiver(t, ok), newReceiver(t, ok), newReceiver(t, ok)
			flaky := downReceiver(t)
			slow := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
				select { // never answers in time
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
				// and never answers at all: returning would send an implicit
				// 200, which a client whose deadline is just passing can read
				panic(http.ErrAbortHandler)
			})
			fail := newReceiver(t, func(w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "database on fire", http.StatusInternalServerError)
			})
			moved := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, healthy.url, http.StatusFound)
			})

			eps := map[*receiver]webhookRec{}
			add := func(r *receiver, k string, body map[string]any) {
				body["url"] = r.url
				eps[r] = createWebhook(t, s, k, body)
			}
			add(healthy, key, map[string]any{})
			add(flaky, key, map[string]any{"description": "down at first"})
			add(filtered, key, map[string]any{"events": []string{"parse.completed", "drawing.*"}})
			add(off, key, map[string]any{"enabled": false})
			add(slow, key, map[string]any{})
			add(fail, key, map[string]any{"events": []string{"parse.completed"}})
			add(moved, key, map[string]any{"events": []string{"parse.completed"}})
			add(foreign, otherKey, map[string]any{})

			// a parse job tree and a drawing job, and their events
			mkJob := func(typ string, parent *ent.Job, status job.Status) *ent.Job {
				c := db.Job.Create().SetType(typ).SetStatus(status).SetProgress(1)
				if parent != nil {
					c.SetParentID(parent.ID).SetTargetType(job.TargetTypeBlock).SetTargetID("blk_01jd7m3v2k8q9r4s5t6v7w8x9y")
				}
				j, err := c.Save(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return j
			}
			parse := mkJob(jobs.TypeParse, nil, job.StatusCompleted)
			legend := mkJob(jobs.TypeLegendParse, parse, job.StatusCompleted)
			match := mkJob(jobs.TypeSymbolMatch, parse, job.StatusCompleted)
			drawing := mkJob(jobs.TypeDrawingPreprocess, nil, job.StatusCompleted)
			record := func(j *ent.Job, typ string, data any) *ent.Event {
				t.Helper()
				e, err := s.App.Events.Record(ctx, j, typ, data)
				if err != nil {
					t.Fatalf("record %s: %v", typ, err)
				}
				return e
			}
			start := time.Now()
			evs := []*ent.Event{
				record(parse, "parse.started", jobs.ViewOf(parse)),
				record(legend, jobs.EventParseChildCompleted, jobs.ChildCompleted{JobID: legend.ID, ParentJobID: parse.ID,
					ChildJobType: legend.Type, Status: "completed", Target: jobs.TargetOf(legend), Results: json.RawMessage(`{"symbols_detected":3}`)}),
				record(match, jobs.EventParseBlockCompleted, parsejob.BlockCompleted{JobID: match.ID, ParseJobID: parse.ID, BlockID: match.TargetID,
					Status: "completed", Results: &parsejob.BlockResults{Symbols: []parsejob.ParseSymbol{}}}),
				record(parse, "parse.completed", jobs.ViewOf(parse)),
				record(drawing, "drawing.completed", jobs.ViewOf(drawing)),
			}
			// recording again (a retried task) keeps one event
			if again := record(parse, "parse.completed", map[string]any{"other": "data"}); again.ID != evs[3].ID {
				t.Errorf("recorded twice: %s and %s", evs[3].ID, again.ID)
			}
			allIDs := make([]string, len(evs))
			for i, e := range evs {
				allIDs[i] = e.ID
			}
			byID := map[string]*ent.Event{}
			for _, e := range evs {
				byID[e.ID] = e
			}
			hasAll := func(r *receiver, want []string) func() bool {
				return func() bool {
					got := r.ids()
					for _, id := range want {
						if !slices.Contains(got, id) {
							return false
						}
					}
					return true
				}
			}
			logOf := func(r *receiver) []*ent.WebhookDelivery {
				ds, err := db.WebhookDelivery.Query().Where(webhookdelivery.EndpointID(eps[r].ID)).
					Order(ent.Asc(webhookdelivery.FieldCreatedAt), ent.Asc(webhookdelivery.FieldID)).All(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return ds
			}
			attemptsOf := func(r *receiver, eventID string) []*ent.WebhookDelivery {
				var out []*ent.WebhookDelivery
				for _, d := range logOf(r) {
					if d.EventID == eventID && !d.Manual {
						out = append(out, d)
					}
				}
				return out
			}

			// a healthy endpoint gets everything at once, whatever the others do
			waitFor(t, 5*time.Second, "the healthy endpoint got every event", hasAll(healthy, allIDs))
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the healthy endpoint waited %s", d)
			}
			for _, d := range logOf(healthy) {
				if d.Status != webhookdelivery.StatusSucceeded || d.Attempt != 1 || d.ResponseStatus != http.StatusNoContent ||
					d.NextAttemptAt != nil || d.Error != "" || d.Manual {
					t.Errorf("healthy delivery %+v", d)
				}
			}

			// a redirect is a failure, and is not followed
			waitFor(t, 10*time.Second, "two attempts to the redirecting endpoint", func() bool { return len(logOf(moved)) >= 2 })
			for _, d := range logOf(moved) {
				if d.Status != webhookdelivery.StatusFailed || d.ResponseStatus != http.StatusFound || !strings.Contains(d.Error, "redirects are not followed") {
					t.Errorf("redirected attempt %+v", d)
				}
			}
			if n := strings.Count(strings.Join(healthy.ids(), " "), evs[3].ID); n != 1 {
				t.Errorf("the healthy endpoint got parse.completed %d times (a redirect was followed?)", n)
			}
			// disabled: queued retries end without sending
			s.Send(t, http.MethodPatch, key, "/v1/webhook_endpoints/"+eps[moved].ID, map[string]any{"enabled": false}).ExpectStatus(t, http.StatusOK)
			time.Sleep(200 * time.Millisecond) // an attempt under way ends
			hits, logged := len(moved.receipts()), len(logOf(moved))
			due := *logOf(moved)[logged-1].NextAttemptAt
			time.Sleep(time.Until(due) + 1500*time.Millisecond)
			if len(moved.receipts()) != hits || len(logOf(moved)) != logged {
				t.Errorf("a disabled endpoint was still sent to: %d → %d requests", hits, len(moved.receipts()))
			}

			// the receiver that is down: attempts fail and are retried until it is up
			waitFor(t, 15*time.Second, "two failed attempts of every event to the endpoint that is down", func() bool {
				for _, id := range allIDs {
					if len(attemptsOf(flaky, id)) < 2 {
						return false
					}
				}
				return true
			})
			flaky.up()
			waitFor(t, 20*time.Second, "every event reached the endpoint once it was up", func() bool {
				for _, id := range allIDs {
					a := attemptsOf(flaky, id)
					if len(a) == 0 || a[len(a)-1].Status != webhookdelivery.StatusSucceeded {
						return false
					}
				}
				return true
			})
			for _, id := range allIDs {
				a := attemptsOf(flaky, id)
				for i, d := range a {
					if d.Attempt != i+1 {
						t.Errorf("%s: attempt %d numbered %d", id, i+1, d.Attempt)
					}
					if i == len(a)-1 {
						break
					}
					if d.Status != webhookdelivery.StatusFailed || d.ResponseStatus != 0 || d.Error == "" || d.NextAttemptAt == nil {
						t.Errorf("%s: failed attempt %+v", id, d)
						continue
					}
					// the delay chosen is the schedule's, and the next attempt waited for it
					if wait := d.NextAttemptAt.Sub(d.CreatedAt); wait < ceilingOf(base, i+1)/2 || wait > ceilingOf(base, i+1)+time.Second {
						t.Errorf("%s: after attempt %d the next was due in %s, want %s to %s (rounded up to a second)", id, i+1, wait, ceilingOf(base, i+1)/2, ceilingOf(base, i+1))
					}
					if a[i+1].CreatedAt.Before(*d.NextAttemptAt) {
						t.Errorf("%s: attempt %d at %s, before it was due (%s)", id, i+2, a[i+1].CreatedAt, d.NextAttemptAt)
					}
				}
			}

			// filters, disabled endpoints and organizations
			waitFor(t, 5*time.Second, "the filtered endpoint got its two events", hasAll(filtered, []string{evs[3].ID, evs[4].ID}))

			// 500: backing off, logged
			waitFor(t, 20*time.Second, "four attempts to the endpoint answering 500", func() bool { return len(logOf(fail)) >= 4 })
			a := logOf(fail)
			for i, d := range a[:4] {
				if d.EventID != evs[3].ID || d.Status != webhookdelivery.StatusFailed || d.ResponseStatus != 500 ||
					!strings.Contains(d.Error, "500") || !strings.Contains(d.Error, "database on fire") || d.NextAttemptAt == nil || d.Attempt != i+1 {
					t.Errorf("attempt %d to the 500 endpoint: %+v", i+1, d)
				}
			}
			if g1, g3 := a[1].CreatedAt.Sub(a[0].CreatedAt), a[3].CreatedAt.Sub(a[2].CreatedAt); g3 <= g1 {
				t.Errorf("attempts to the 500 endpoint do not back off: gaps %s then %s", g1, g3)
			}
			if d1, d3 := a[0].NextAttemptAt.Sub(a[0].CreatedAt), a[2].NextAttemptAt.Sub(a[2].CreatedAt); d3 <= d1 {
				t.Errorf("scheduled delays do not grow: %s then %s", d1, d3)
			}

			// the endpoint that never answers: timeouts, and it holds at most its two slots
			waitFor(t, 15*time.Second, "two attempts of an event to the endpoint that never answers", func() bool {
				return len(attemptsOf(slow, evs[0].ID)) >= 2
			})
			for _, d := range logOf(slow) {
				if d.Status != webhookdelivery.StatusFailed || d.ResponseStatus != 0 || d.Error != "no answer within 1s" ||
					d.LatencyMs < 900 || d.LatencyMs > 3000 {
					t.Errorf("attempt to the endpoint that never answers: %+v", d)
				}
			}
			slow.mu.Lock()
			if slow.maxInFlight > 2 {
				t.Errorf("the endpoint that never answers had %d attempts in flight at once, want at most 2", slow.maxInFlight)
			}
			slow.mu.Unlock()
			// deleted: queued attempts end quietly
			s.Do(t, testenv.Request{Method: http.MethodDelete, Path: "/v1/webhook_endpoints/" + eps[slow].ID, Key: key}).ExpectStatus(t, http.StatusNoContent)
			time.Sleep(timeout + 500*time.Millisecond)
			hits = len(slow.receipts())
			time.Sleep(3 * time.Second)
			if n := len(slow.receipts()); n != hits {
				t.Errorf("a deleted endpoint was still sent to: %d → %d requests", hits, n)
			}

			// rotation: both signatures while the previous secret overlaps
			var rot webhookRec
			postJSON(t, s, key, "/v1/webhook_endpoints/"+eps[healthy].ID+"/rotate_secret", nil).ExpectStatus(t, http.StatusOK).JSON(t, &rot)
			failed := mkJob(jobs.TypeParse, nil, job.StatusFailed)
			late := record(failed, "parse.failed", jobs.ViewOf(failed))
			byID[late.ID] = late
			waitFor(t, 5*time.Second, "the event after the rotation", hasAll(healthy, []string{late.ID}))

			// manual redelivery: the same id and body again, logged as manual
			var pc *ent.WebhookDelivery
			for _, d := range logOf(healthy) {
				if d.EventID == evs[3].ID {
					pc = d
				}
			}
			rd := postJSON(t, s, key, "/v1/webhook_endpoints/"+eps[healthy].ID+"/deliveries/"+pc.ID+"/redeliver", nil).
				ExpectStatus(t, http.StatusAccepted).Object(t)
			if d, _ := rd["data"].(map[string]any); d["event_id"] != evs[3].ID || d["event_type"] != "parse.completed" {
				t.Errorf("redeliver answered %v", rd)
			}
			waitFor(t, 5*time.Second, "the redelivery", func() bool {
				return strings.Count(strings.Join(healthy.ids(), " "), evs[3].ID) == 2
			})
			waitFor(t, 2*time.Second, "the redelivery's log", func() bool { return len(logOf(healthy)) == len(evs)+2 })
			last := logOf(healthy)[len(evs)+1]
			if !last.Manual || last.EventID != evs[3].ID || last.Attempt != 2 || last.Status != webhookdelivery.StatusSucceeded || last.NextAttemptAt != nil {
				t.Errorf("manual redelivery logged as %+v", last)
			}
			postJSON(t, s, otherKey, "/v1/webhook_endpoints/"+eps[healthy].ID+"/deliveries/"+pc.ID+"/redeliver", nil).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			postJSON(t, s, key, "/v1/webhook_endpoints/"+eps[healthy].ID+"/deliveries/"+logOf(filtered)[0].ID+"/redeliver", nil).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			postJSON(t, s, key, "/v1/webhook_endpoints/"+eps[moved].ID+"/deliveries/"+logOf(moved)[0].ID+"/redeliver", nil).ExpectProblem(t, http.StatusConflict, "ENDPOINT_DISABLED")

			// the sweep dispatches an event whose fan-out never got queued
			stray, err := db.Event.Create().SetID("evt_01jd7m3v2k8q9r4s5t6v7w8x9y").SetType("drawing.failed").SetJobID(drawing.ID).
				SetRootJobID(drawing.ID).SetJobPath(drawing.ID).SetData(json.RawMessage(`{"job_id":"` + drawing.ID + `"}`)).
				SetCreatedAt(time.Now().UTC().Add(-2 * time.Minute).Truncate(time.Microsecond)).Save(ctx)
			if err != nil {
				t.Fatal(err)
			}
			byID[stray.ID] = stray
			if err := s.App.Queue.Enqueue(context.Background(), asynq.NewTask(webhooks.TypeSweep, nil), asynq.Queue(jobs.QueueWebhooks)); err != nil {
				t.Fatal(err)
			}
			waitFor(t, 5*time.Second, "the swept event", hasAll(healthy, []string{stray.ID}))
			waitFor(t, 5*time.Second, "the swept event (drawing.*)", hasAll(filtered, []string{stray.ID}))
			waitFor(t, 2*time.Second, "the swept event marked dispatched", func() bool {
				e, err := db.Event.Query().Where(event.ID(stray.ID)).Only(ctx)
				return err == nil && e.Dispatched
			})

			// every request: signed with the endpoint's secret (the previous one
			// too after the rotation), one body per event id, the envelope of the row
			bodies := map[string]string{}
			for r, ep := range eps {
				for _, x := range r.receipts() {
					id := x.header.Get("webhook-id")
					if prev, seen := bodies[id]; seen && prev != string(x.body) {
						t.Errorf("event %s was delivered with two bodies:\n%s\n%s", id, prev, x.body)
					}
					bodies[id] = string(x.body)
					if ct, ua := x.header.Get("Content-Type"), x.header.Get("User-Agent"); ct != "application/json" || !strings.HasPrefix(ua, "plangraph-webhooks/") {
						t.Errorf("headers %v", x.header)
					}
					ts, err := strconv.ParseInt(x.header.Get("webhook-timestamp"), 10, 64)
					if err != nil || time.Unix(ts, 0).Sub(x.at).Abs() > 5*time.Second {
						t.Errorf("webhook-timestamp %q received at %s", x.header.Get("webhook-timestamp"), x.at)
					}
					if r == healthy && x.at.After(rot.UpdatedAt) {
						// after the rotation: the new secret's signature, then the old one's
						if cur, old := verifySignature(rot.Secret, x.header, x.body), verifySignature(ep.Secret, x.header, x.body); !slices.Equal(cur, []int{0}) || !slices.Equal(old, []int{1}) {
							t.Errorf("after the rotation: %q verifies with the new secret at %v and the old at %v", x.header.Get("webhook-signature"), cur, old)
						}
					} else if signed := verifySignature(ep.Secret, x.header, x.body); !slices.Equal(signed, []int{0}) || strings.Contains(x.header.Get("webhook-signature"), " ") {
						t.Errorf("%s to %s: signature %q does not verify with the endpoint's secret", id, r.url, x.header.Get("webhook-signature"))
					}
					var env struct {
						ID        string          `json:"id"`
						Type      string          `json:"type"`
						CreatedAt time.Time       `json:"created_at"`
						Data      json.RawMessage `json:"data"`
					}
					if err := json.Unmarshal(x.body, &env); err != nil {
						t.Errorf("body %s: %v", x.body, err)
						continue
					}
					want := byID[env.ID]
					if env.ID != id || want == nil || env.Type != want.Type || !env.CreatedAt.Equal(want.CreatedAt) || !jsonEqual(env.Data, want.Data) {
						t.Errorf("body %s is not the envelope of event %s", x.body, id)
					}
				}
			}
			if len(bodies) != len(evs)+2 {
				t.Errorf("%d event ids were delivered, want %d", len(bodies), len(evs)+2)
			}
			if got := filtered.ids(); len(got) != 3 || !slices.Contains(got, evs[3].ID) || !slices.Contains(got, evs[4].ID) {
				t.Errorf("the filtered endpoint got %v", got)
			}
			if n := len(off.receipts()); n != 0 {
				t.Errorf("the disabled endpoint got %d requests", n)
			}
			if n := len(foreign.receipts()); n != 0 {
				t.Errorf("another organization's endpoint got %d requests", n)
			}
			for r, ep := range eps {
				for _, d := range logOf(r) {
					if d.EndpointID != ep.ID || d.OrgID != rec.OrgID {
						t.Errorf("delivery %+v logged under the wrong endpoint or organization", d)
					}
				}
			}

			// the delivery log through REST: paged, filtered, scoped (once the
			// endpoint that was down has every event, its log stays still)
			waitFor(t, 5*time.Second, "the later events at the endpoint that was down", func() bool {
				for _, id := range []string{late.ID, stray.ID} {
					a := attemptsOf(flaky, id)
					if len(a) == 0 || a[len(a)-1].Status != webhookdelivery.StatusSucceeded {
						return false
					}
				}
				return true
			})
			want := logOf(flaky)
			slices.Reverse(want)
			var walked []deliveryRec
			path := "/v1/webhook_endpoints/" + eps[flaky].ID + "/deliveries?limit=4"
			var second listing[deliveryRec]
			for i := range 20 {
				l := getList[deliveryRec](t, s, key, path)
				walked = append(walked, l.Data...)
				if i == 1 {
					second = l
				}
				if l.Meta.Next == nil {
					break
				}
				path = "/v1/webhook_endpoints/" + eps[flaky].ID + "/deliveries?cursor=" + url.QueryEscape(*l.Meta.Next)
			}
			if len(walked) != len(want) || len(want) < 10 {
				t.Fatalf("walked %d deliveries, the log has %d", len(walked), len(want))
			}
			for i, d := range walked {
				w := want[i]
				if d.ID != w.ID || d.EventID != w.EventID || d.Attempt != w.Attempt || d.Status != string(w.Status) ||
					d.EndpointID != eps[flaky].ID || (d.Error == nil) != (w.Error == "") || d.ResponseStatus != nil && *d.ResponseStatus != w.ResponseStatus {
					t.Errorf("delivery %d: %+v, want %+v", i, d, w)
				}
			}
			if second.Meta.Prev == nil {
				t.Fatal("the second page has no prev cursor")
			}
			back := getList[deliveryRec](t, s, key, "/v1/webhook_endpoints/"+eps[flaky].ID+"/deliveries?cursor="+url.QueryEscape(*second.Meta.Prev))
			if !slices.Equal(idsOf(back.Data), idsOf(walked[:4])) {
				t.Errorf("prev of the second page: %v, want %v", idsOf(back.Data), idsOf(walked[:4]))
			}
			s.Get(t, key, "/v1/webhook_endpoints/"+eps[healthy].ID+"/deliveries?cursor="+url.QueryEscape(*second.Meta.Prev)).
				ExpectProblem(t, http.StatusBadRequest, "INVALID_CURSOR")
			okOnly := getList[deliveryRec](t, s, key, "/v1/webhook_endpoints/"+eps[flaky].ID+"/deliveries?status=succeeded&limit=100")
			succeeded := 0
			for _, d := range want {
				if d.Status == webhookdelivery.StatusSucceeded {
					succeeded++
				}
			}
			if len(okOnly.Data) != succeeded || succeeded != len(evs)+2 {
				t.Errorf("status=succeeded lists %d of %d", len(okOnly.Data), succeeded)
			}
			one := getList[deliveryRec](t, s, key, "/v1/webhook_endpoints/"+eps[flaky].ID+"/deliveries?event_id="+evs[0].ID)
			if len(one.Data) != len(attemptsOf(flaky, evs[0].ID)) || one.Data[0].Status != "succeeded" {
				t.Errorf("event_id filter: %+v", one.Data)
			}
			s.Get(t, otherKey, "/v1/webhook_endpoints/"+eps[flaky].ID+"/deliveries").ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			if n, _ := db.WebhookDelivery.Query().Where(webhookdelivery.EndpointID(eps[foreign].ID)).Count(tenant.WithOrg(context.Background(), otherRec.OrgID)); n != 0 {
				t.Errorf("another organization's endpoint has %d deliveries", n)
			}

			// GraphQL shows the same log
			g := s.GraphQL(t, key, `query($id: ID!) { webhookEndpoint(id: $id) { deliveries(first: 100) { totalCount
				edges { node { id eventID eventType attempt manual status responseStatus latencyMs error nextAttemptAt } } } } }`,
				map[string]any{"id": eps[flaky].ID})
			var gq struct {
				WebhookEndpoint struct {
					Deliveries struct {
						TotalCount int
						Edges      []struct{ Node struct{ ID, Status string } }
					}
				}
			}
			g.DataInto(t, &gq)
			var gids []string
			for _, e := range gq.WebhookEndpoint.Deliveries.Edges {
				gids = append(gids, e.Node.ID)
			}
			if gq.WebhookEndpoint.Deliveries.TotalCount != len(want) || !slices.Equal(gids, idsOf(walked)) {
				t.Errorf("GraphQL deliveries %v, REST %v", gids, idsOf(walked))
			}
		})
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
