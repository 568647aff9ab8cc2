package rest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/service/live"
	"github.com/plangraph/plangraph/jobs"
)

const (
	// streamHeartbeat is how often an idle stream sends a comment, so that
	// proxies and clients see it alive.
	streamHeartbeat = 15 * time.Second
	// streamWriteTimeout bounds each write: a client that stops reading
	// does not hold the stream open.
	streamWriteTimeout = 30 * time.Second
	// streamRetryMillis is the reconnection delay suggested to clients.
	streamRetryMillis = 3000
)

// jobStream is GET /v1/jobs/{id}/stream: Server-Sent Events of the job —
//
//	event: job           the job as GET /v1/jobs/{id} shows it: first its
//	                     current state, then after every change (no id)
//	id: evt_…            every stored event of the job and the jobs below it,
//	event: <type>        oldest first, then each new one as it is recorded;
//	data: {id, type, created_at, data}   the webhook delivery's body
//	event: end           after the job's final event; the stream closes
//
// plus a comment line every 15 s. Last-Event-ID (or ?last_event_id=) resumes
// after that event. The same thing the jobEvents and jobUpdated
// subscriptions send, from the same function (internal/service/live).
func (a *API) jobStream(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	q := r.URL.Query()
	for name := range q {
		if name != "last_event_id" {
			a.fail(w, r, apierr.Invalid(name, "is not a parameter of this endpoint"))
			return
		}
	}
	after := strings.TrimSpace(r.Header.Get("Last-Event-ID"))
	if after == "" {
		after = strings.TrimSpace(q.Get("last_event_id"))
	}
	ctx, cancel := httpx.UntilShutdown(r.Context())
	defer cancel()
	updates, err := a.s.Live.WatchJob(ctx, id, live.WatchOptions{States: true, Events: true, AfterEventID: after})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // proxies must not buffer the stream
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	defer func() { _ = rc.SetWriteDeadline(time.Time{}) }() // the connection may serve another request
	write := func(format string, args ...any) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return false
		}
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write("retry: %d\n\n", streamRetryMillis) {
		return
	}
	beat := time.NewTicker(streamHeartbeat)
	defer beat.Stop()
	var last []byte // the job as last sent, for the end message
	for {
		select {
		case <-beat.C:
			if !write(": keep-alive\n\n") {
				return
			}
		case u, ok := <-updates:
			if !ok {
				if ctx.Err() == nil && last != nil {
					write("event: end\ndata: %s\n\n", last) // the job has ended and said all
				}
				return
			}
			var sent bool
			switch {
			case u.Job != nil:
				last, _ = json.Marshal(jobs.ViewOf(u.Job))
				sent = write("event: job\ndata: %s\n\n", last)
			case u.Event != nil:
				b, _ := json.Marshal(events.EnvelopeOf(u.Event))
				sent = write("id: %s\nevent: %s\ndata: %s\n\n", u.Event.ID, u.Event.Type, b)
			}
			if !sent {
				return
			}
		}
	}
}

// jobStreamOp documents GET /v1/jobs/{id}/stream.
func jobStreamOp() op {
	return op{method: "GET", path: "/v1/jobs/{id}/stream", id: "streamJob", handler: method((*API).jobStream), tag: "Jobs", summary: "Follow a job live (Server-Sent Events)",
		desc: "A `text/event-stream` of the job, on any api process (a worker anywhere runs it). Messages:\n\n" +
			"- `event: job` (no `id`): the job as GET /v1/jobs/{id} returns it — first its current state, then after every change of status or progress;\n" +
			"- `id: evt_…`, `event: <type>`: every stored event of the job and of the jobs below it, oldest first, then each new one as it is recorded; `data` is `{id, type, created_at, data}`, the body a webhook receives (types: `parse.started`, `parse.child.completed`, `parse.block.completed`, `parse.completed`, `parse.failed`, `drawing.child.completed`, …);\n" +
			"- `event: end`: after the job's own final event (`parse.completed`, …, or the child completion of a child job); the stream then closes.\n\n" +
			"A comment line (`: keep-alive`) comes every 15 s. A stream cut short (the server shutting down, a network failure) is resumed by reconnecting with `Last-Event-ID` " +
			"(browsers' EventSource does that by itself; close it on `end`): only the events after that one are sent again, after the current state. " +
			"Other organizations' jobs are 404, as for GET /v1/jobs/{id}. GraphQL offers the same as the subscriptions `jobUpdated`, `jobEvents` and `projectJobs` (WebSocket at /graphql).",
		params: []node{pathID("job", "job"),
			query("last_event_id", "Resume after this event id (as the `Last-Event-ID` header, which wins when both are sent).", node{"type": "string"}, false),
			{"name": "Last-Event-ID", "in": "header", "required": false, "description": "Resume after this event id (sent by EventSource when it reconnects).", "schema": node{"type": "string"}}},
		ok: map[int]node{200: {"description": "The event stream; it ends after the job's final event.",
			"content": node{"text/event-stream": node{"schema": node{"type": "string",
				"description": "Server-Sent Events: `event: job` / `data: {job}`; `id: evt_…` / `event: <type>` / `data: {id, type, created_at, data}`; `event: end`; `: keep-alive` comments."}}},
			"headers": node{"Cache-Control": node{"description": "`no-cache`.", "schema": node{"type": "string"}}}}},
		errs: getErrs}
}
