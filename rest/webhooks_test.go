package rest

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/webhookdelivery"
	"github.com/plangraph/plangraph/internal/ids"
)

// The webhook routes answer what the OpenAPI document says, for the
// requests it allows, and refuse those it does not.
func TestOpenAPIWebhookResponses(t *testing.T) {
	e := newAPIEnv(t)
	const hook = "https://93.184.215.14/hooks/plangraph" // public, no name to resolve

	ep := e.do(req{method: "POST", target: "/v1/webhook_endpoints", body: map[string]any{"url": hook, "description": "ERP",
		"events": []string{"parse.completed", "drawing.*"}, "enabled": true}, header: map[string]string{"Idempotency-Key": "hook-1"}}, 201)
	id := sfield(t, ep, "id")
	if s := sfield(t, ep, "secret"); !strings.HasPrefix(s, "whsec_") {
		t.Errorf("secret %q", s)
	}
	// a replay under the same key answers the same endpoint without its
	// secret, and the stored record holds no secret either
	again := e.do(req{method: "POST", target: "/v1/webhook_endpoints", body: map[string]any{"url": hook, "description": "ERP",
		"events": []string{"parse.completed", "drawing.*"}, "enabled": true}, header: map[string]string{"Idempotency-Key": "hook-1"}}, 201)
	if e.last.Header.Get("Idempotency-Status") != "hit" || sfield(t, again, "id") != id || again["secret"] != nil {
		t.Errorf("replay: %s %v", e.last.Header.Get("Idempotency-Status"), again)
	}
	recs, err := e.db.IdempotencyRecord.Query().All(e.ctx)
	if err != nil || len(recs) == 0 {
		t.Fatalf("idempotency records: %d, %v", len(recs), err)
	}
	for _, rec := range recs {
		if strings.Contains(string(rec.ResponseBody), "whsec_") {
			t.Errorf("record %s stores the secret: %s", rec.Key, rec.ResponseBody)
		}
	}
	e.do(req{method: "POST", target: "/v1/webhook_endpoints", body: map[string]any{"url": hook + "/2"}}, 201)
	if one := e.do(req{method: "GET", target: "/v1/webhook_endpoints/" + id}, 200); one["secret"] != nil {
		t.Errorf("GET shows the secret: %v", one)
	}
	page := e.do(req{method: "GET", target: "/v1/webhook_endpoints?limit=1&enabled=true"}, 200)
	e.do(req{method: "GET", target: "/v1/webhook_endpoints?cursor=" + url.QueryEscape(sfield(t, page, "_meta", "next"))}, 200)
	e.do(req{method: "PATCH", target: "/v1/webhook_endpoints/" + id, body: map[string]any{"events": []string{}, "description": "ERP (all)"}}, 200)
	e.do(req{method: "POST", target: "/v1/webhook_endpoints/" + id + "/rotate_secret"}, 200)
	rot := e.do(req{method: "POST", target: "/v1/webhook_endpoints/" + id + "/rotate_secret", body: map[string]any{}}, 200)
	if field(rot, "previous_secret_expires_at") == nil || field(rot, "secret") == field(ep, "secret") {
		t.Errorf("rotation answered %v", rot)
	}

	// a delivery log, as the worker writes it
	j, err := e.db.Job.Create().SetType("parse").SetStatus(job.StatusCompleted).Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	evt, err := e.db.Event.Create().SetID(ids.New(ids.Event)).SetType("parse.completed").SetJobID(j.ID).SetRootJobID(j.ID).
		SetJobPath(j.ID).SetData(json.RawMessage(`{"job_id":"` + j.ID + `"}`)).Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	next := time.Now().Add(time.Minute).UTC().Truncate(time.Second)
	failed, err := e.db.WebhookDelivery.Create().SetEndpointID(id).SetEventID(evt.ID).SetEventType(evt.Type).SetAttempt(1).
		SetStatus(webhookdelivery.StatusFailed).SetResponseStatus(503).SetError("the endpoint answered 503 Service Unavailable").
		SetLatencyMs(120).SetNextAttemptAt(next).Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.WebhookDelivery.Create().SetEndpointID(id).SetEventID(evt.ID).SetEventType(evt.Type).SetAttempt(2).
		SetStatus(webhookdelivery.StatusSucceeded).SetResponseStatus(200).SetLatencyMs(80).Save(e.ctx); err != nil {
		t.Fatal(err)
	}
	log := e.do(req{method: "GET", target: "/v1/webhook_endpoints/" + id + "/deliveries?limit=1"}, 200)
	if d := log["data"].([]any)[0].(map[string]any); d["status"] != "succeeded" || d["error"] != nil || d["next_attempt_at"] != nil {
		t.Errorf("newest delivery %v", d)
	}
	older := e.do(req{method: "GET", target: "/v1/webhook_endpoints/" + id + "/deliveries?cursor=" + url.QueryEscape(sfield(t, log, "_meta", "next"))}, 200)
	if d := older["data"].([]any)[0].(map[string]any); d["id"] != failed.ID || d["response_status"] != float64(503) || d["next_attempt_at"] == nil {
		t.Errorf("older delivery %v", d)
	}
	e.do(req{method: "GET", target: "/v1/webhook_endpoints/" + id + "/deliveries?status=failed&event_id=" + evt.ID +
		"&created_after=2020-01-01T00:00:00Z"}, 200)
	rd := e.do(req{method: "POST", target: "/v1/webhook_endpoints/" + id + "/deliveries/" + failed.ID + "/redeliver",
		header: map[string]string{"Idempotency-Key": "redeliver-1"}}, 202)
	if sfield(t, rd, "data", "event_id") != evt.ID {
		t.Errorf("redeliver answered %v", rd)
	}

	// refusals
	e.do(req{method: "POST", target: "/v1/webhook_endpoints", body: map[string]any{"url": "https://10.0.0.8/x"}}, 400)
	e.doInvalid(req{method: "POST", target: "/v1/webhook_endpoints", body: map[string]any{"url": hook, "events": []string{"parse.everything"}}}, 400)
	e.doInvalid(req{method: "POST", target: "/v1/webhook_endpoints", body: map[string]any{"description": "no url"}}, 400)
	e.doInvalid(req{method: "POST", target: "/v1/webhook_endpoints", body: map[string]any{"url": hook, "secret": "whsec_x"}}, 400)
	e.doInvalid(req{method: "GET", target: "/v1/webhook_endpoints/" + id + "/deliveries?status=lost"}, 400)
	e.doInvalid(req{method: "GET", target: "/v1/webhook_endpoints/" + id + "/deliveries?expand=event"}, 400)
	e.do(req{method: "POST", target: "/v1/webhook_endpoints/" + id + "/deliveries/" + ids.New(ids.WebhookDelivery) + "/redeliver"}, 404)
	e.do(req{method: "GET", target: "/v1/webhook_endpoints/" + ids.New(ids.Webhook) + "/deliveries"}, 404)
	e.do(req{method: "PATCH", target: "/v1/webhook_endpoints/" + id, body: map[string]any{"enabled": false}}, 200)
	e.do(req{method: "POST", target: "/v1/webhook_endpoints/" + id + "/deliveries/" + failed.ID + "/redeliver"}, 409)
	e.do(req{method: "POST", target: "/v1/webhook_endpoints/" + ids.New(ids.Webhook) + "/rotate_secret"}, 404)
	e.do(req{method: "DELETE", target: "/v1/webhook_endpoints/" + id}, 204)
	e.do(req{method: "DELETE", target: "/v1/webhook_endpoints/" + id}, 404)
	e.do(req{method: "GET", target: "/v1/webhook_endpoints/" + id}, 404)
}
