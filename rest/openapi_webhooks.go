package rest

// The webhook part of the OpenAPI document: its representations join
// componentTypes and fieldDocs, its list joins listResources, and
// webhookOps are the other routes of the route table (with their handlers).

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/plangraph/plangraph/ent/webhookdelivery"
	engine "github.com/plangraph/plangraph/internal/events/webhooks"
	"github.com/plangraph/plangraph/internal/service/webhooks"
)

func init() {
	componentTypes[reflect.TypeFor[WebhookEndpoint]()] = "WebhookEndpoint"
	componentTypes[reflect.TypeFor[WebhookDelivery]()] = "WebhookDelivery"
	componentTypes[reflect.TypeFor[WebhookRedelivery]()] = "WebhookRedelivery"
	fieldDocs[reflect.TypeFor[WebhookEndpoint]()] = map[string]node{
		"id":          {"description": "Webhook endpoint id (prefix `whe_`)."},
		"url":         {"description": webhookURLText, "format": "uri", "maxLength": engine.MaxURLLength},
		"description": {"description": "Free text for people; empty when not given.", "maxLength": engine.MaxDescriptionLength},
		"events":      {"description": webhookEventsText, "items": eventFilterSchema()},
		"enabled":     {"description": "Whether events are sent. A disabled endpoint gets nothing, and its queued attempts end without sending."},
		"secret": {"description": "The signing secret, `whsec_` + base64 of a 32-byte key. Only in the answers of POST /v1/webhook_endpoints and rotate_secret: keep it then.",
			"pattern": "^" + engine.SecretPrefix},
		"previous_secret_expires_at": {"description": "After a rotation, until when the previous secret also signs (its signature follows the new one in webhook-signature); null otherwise."},
		"created_at":                 {"description": "When the endpoint was created."},
		"updated_at":                 {"description": "When the endpoint was last changed."},
	}
	fieldDocs[reflect.TypeFor[WebhookDelivery]()] = map[string]node{
		"id":          {"description": "Delivery attempt id (prefix `whd_`)."},
		"endpoint_id": {"description": "The endpoint."},
		"event_id":    {"description": "The event sent (its `id`, also the `webhook-id` header; prefix `evt_`)."},
		"event_type":  {"description": "The event's type."},
		"attempt":     {"description": "1 for the first attempt to send this event to this endpoint; manual redeliveries count too.", "minimum": 1},
		"manual":      {"description": "true for a redelivery asked for with .../redeliver."},
		"status":      {"description": "`succeeded`: the endpoint answered 2xx. `failed`: anything else, redirects and timeouts included.", "enum": deliveryStatuses()},
		"response_status": {"description": "HTTP status the endpoint answered; null when it did not answer.",
			"minimum": 100, "maximum": 599},
		"latency_ms":      {"description": "Milliseconds from sending to the end of the answer (or to the failure).", "minimum": 0},
		"error":           {"description": "Why the attempt failed (the status and the start of the answer, or the connection error); null when it succeeded."},
		"next_attempt_at": {"description": "When the event will be tried again after this failure; null after a success, a manual attempt, or the last attempt."},
		"created_at":      {"description": "When the attempt ended."},
	}
	fieldDocs[reflect.TypeFor[WebhookRedelivery]()] = map[string]node{
		"endpoint_id": {"description": "The endpoint."},
		"event_id":    {"description": "The event that will be sent again, with the same webhook-id and body."},
		"event_type":  {"description": "The event's type."},
		"queued_at":   {"description": "When the redelivery was queued."},
	}
	listResources = append(listResources, listResource{res: webhookEndpointsRes, singular: "webhook endpoint", prefix: "whe",
		tag: "Webhooks", schema: "WebhookEndpoint", filters: []filterDoc{
			filter("enabled", "true: only enabled endpoints; false: only disabled ones.", node{"type": "boolean"}),
		}})
}

var (
	webhookURLText = fmt.Sprintf("Where events are POSTed: an https URL of at most %d characters, without user name or password or fragment. "+
		"Its host must resolve to public addresses only (private, loopback, link-local and reserved ones are refused, when the URL is saved and again "+
		"when each delivery connects) unless the operator runs the service with `--webhook-allow-private-urls`.", engine.MaxURLLength)
	webhookEventsText = "Event types to send: exact types, or `kind.*` for every type of a kind (`parse.*`). Empty: every type. " +
		"Types: " + strings.Join(engine.EventTypes(), ", ") + "."
)

func eventFilterSchema() node {
	return node{"type": "string", "enum": webhooks.EventTypes()}
}

func deliveryStatuses() []string {
	return []string{string(webhookdelivery.StatusSucceeded), string(webhookdelivery.StatusFailed)}
}

// webhookDeliveryText describes delivery for the operations.
const webhookDeliveryText = "Each event is POSTed as JSON `{id, type, created_at, data}` (the same bytes on every attempt) with the Standard Webhooks headers " +
	"`webhook-id` (the event id: use it to drop duplicates, as delivery is at least once), `webhook-timestamp` (Unix seconds) and `webhook-signature` " +
	"(`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the base64-decoded part of the secret after `whsec_`; " +
	"space separated, the previous secret's signature follows for 24 hours after a rotation). A 2xx answer within the time limit (10 s by default) is success; " +
	"anything else, a redirect included (redirects are not followed), is retried with exponential backoff and jitter (doubling up to an hour between attempts) " +
	"for at least 24 hours. Events are sent to the endpoints that exist, are enabled and want them when the event happens."

// webhookOps are the webhook operations besides the list and single GET.
func webhookOps() []op {
	props := node{
		"url":         node{"type": "string", "minLength": 1, "maxLength": engine.MaxURLLength, "format": "uri", "description": webhookURLText},
		"description": node{"type": "string", "maxLength": engine.MaxDescriptionLength, "description": "Free text for people."},
		"events":      node{"type": "array", "maxItems": engine.MaxEventFilters, "items": eventFilterSchema(), "description": webhookEventsText},
		"enabled":     node{"type": "boolean", "description": "Whether events are sent (default true)."},
	}
	endpointID := pathID("whe", "webhook endpoint")
	withSecret := okJSON("The endpoint, with its `secret` (shown this once).", schemaRef("WebhookEndpoint"))
	return []op{
		{method: "POST", path: "/v1/webhook_endpoints", id: "createWebhookEndpoint", handler: jsonOp((*API).createWebhookEndpoint), tag: "Webhooks", summary: "Create a webhook endpoint",
			desc: "Registers a URL for the organization's events and returns its signing secret, which is not shown again. " + webhookDeliveryText,
			body: body(object([]string{"url"}, props), true, "The endpoint."),
			ok:   map[int]node{201: withSecret}, errs: createErrs,
			errText: map[int]string{400: "The request is invalid (VALIDATION_ERROR with `errors.url`, `errors.events` or `errors.description`: not https, " +
				"too long, credentials in the URL, a host that resolves to a private address or does not resolve, an unknown event type).",
				409: "The organization has as many endpoints as it may have (WEBHOOK_ENDPOINT_LIMIT, `--webhook-max-endpoints`, 20 by default), or an Idempotency-Key conflict."}},
		{method: "PATCH", path: "/v1/webhook_endpoints/{id}", id: "updateWebhookEndpoint", handler: jsonOp((*API).updateWebhookEndpoint), tag: "Webhooks", summary: "Change a webhook endpoint",
			params: []node{endpointID},
			body:   body(object(nil, props), true, "Fields to change; absent fields keep their value (`events: []` sends every type)."),
			ok:     map[int]node{200: okJSON("The updated endpoint (without secret).", schemaRef("WebhookEndpoint"))}, errs: patchErrs},
		{method: "DELETE", path: "/v1/webhook_endpoints/{id}", id: "deleteWebhookEndpoint", handler: deleter(func(a *API) func(context.Context, string) error { return a.s.Webhooks.Delete }), tag: "Webhooks", summary: "Delete a webhook endpoint",
			desc:   "Deletes the endpoint and its delivery log; attempts already queued end without sending.",
			params: []node{endpointID}, ok: map[int]node{204: {"description": "Deleted."}}, errs: deleteErrs},
		{method: "POST", path: "/v1/webhook_endpoints/{id}/rotate_secret", id: "rotateWebhookEndpointSecret", handler: jsonOp((*API).rotateWebhookSecret), tag: "Webhooks", summary: "Rotate the signing secret",
			desc: "Makes a new secret and returns it once. For 24 hours the previous secret keeps signing too (webhook-signature carries both " +
				"signatures), so receivers can switch without missing an event; a second rotation within that time retires the first secret at once.",
			params: []node{endpointID}, body: body(object(nil, node{}), false, "No body, or an empty JSON object."),
			ok: map[int]node{200: withSecret}, errs: []int{400, 401, 404, 409, 413, 415, 429, 500, 503},
			errText: map[int]string{409: "Another rotation happened at the same moment (CONFLICT), or an Idempotency-Key conflict."}},
		{method: "GET", path: "/v1/webhook_endpoints/{id}/deliveries", id: "listWebhookDeliveries", handler: method((*API).webhookDeliveries), tag: "Webhooks", summary: "List an endpoint's delivery attempts",
			desc: "Every attempt to send an event to the endpoint, newest first (created_at, then id, descending), paged like every list. " +
				"Unknown query parameters are rejected (400); a cursor continues only the endpoint it came from.",
			params: []node{endpointID, ref("parameters", "Limit"), ref("parameters", "Cursor"),
				query("event_id", "Attempts to send this event.", node{"type": "string"}, false),
				query("status", "Attempts with this outcome.", node{"type": "string", "enum": deliveryStatuses()}, false),
				ref("parameters", "CreatedAfter"), ref("parameters", "CreatedBefore")},
			ok: map[int]node{200: okJSON("A page of delivery attempts.", object([]string{"data", "_meta"}, node{
				"data":  node{"type": "array", "items": schemaRef("WebhookDelivery"), "description": "The attempts of this page, newest first."},
				"_meta": schemaRef("PageMeta"),
			}))},
			errs: getErrs},
		{method: "POST", path: "/v1/webhook_endpoints/{id}/deliveries/{delivery_id}/redeliver", id: "redeliverWebhook", handler: jsonOp((*API).redeliverWebhook), tag: "Webhooks",
			summary: "Send a delivery's event again",
			desc: "Queues one more attempt to send the event of the delivery to the endpoint, with the same webhook-id and body (freshly signed). " +
				"It is made once, whatever its outcome, and appears in the delivery log with `manual: true`.",
			params: []node{endpointID, {"name": "delivery_id", "in": "path", "required": true, "description": "Id of a delivery attempt of the endpoint (prefix `whd_`).",
				"schema": node{"type": "string", "minLength": 1}}},
			body: body(object(nil, node{}), false, "No body, or an empty JSON object."),
			ok:   map[int]node{202: okJSON("The redelivery was queued.", object([]string{"data"}, node{"data": schemaRef("WebhookRedelivery")}))},
			errs: []int{400, 401, 404, 409, 413, 415, 429, 500, 503},
			errText: map[int]string{
				404: "No such endpoint, or the endpoint has no such delivery (NOT_FOUND).",
				409: "The endpoint is disabled (ENDPOINT_DISABLED), the event was deleted with its job (EVENT_DELETED), or an Idempotency-Key conflict.",
			}},
	}
}
