package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/ratelimit"
	"github.com/plangraph/plangraph/internal/wsgorilla"
)

// GraphQL subscriptions: websockets at /graphql (graphql-transport-ws, or
// the legacy graphql-ws), served by gorilla/websocket.
const (
	// wsInitTimeout is how long a new connection may take to send
	// connection_init (and so to authenticate).
	wsInitTimeout = 15 * time.Second
	// wsPingInterval: graphql-transport-ws connections are pinged this
	// often and dropped when no pong comes back within twice as long.
	wsPingInterval = 30 * time.Second
	// wsKeepAlive: legacy graphql-ws connections get a keep-alive message
	// this often.
	wsKeepAlive = 15 * time.Second
	// close codes of graphql-transport-ws for a refused connection_init
	wsCloseForbidden = 4403
	wsCloseInternal  = 4500
)

// origins are the browser origins that may open websockets: the service's
// own (its public URL and whatever host a request was sent to) and
// --allowed-origins.
func (a *App) origins() *wsgorilla.Origins {
	o, err := wsgorilla.ParseOrigins(a.Cfg.PublicURL + "," + a.Cfg.AllowedOrigins)
	if err != nil { // Resolve checked --allowed-origins; the public URL may be a bare host
		a.Log.Warn("websocket origins: using the allowed origins only", "err", err)
		if o, err = wsgorilla.ParseOrigins(a.Cfg.AllowedOrigins); err != nil {
			o = &wsgorilla.Origins{}
		}
	}
	return o
}

// websocketTransport is gqlgen's websocket transport on gorilla/websocket,
// authenticating in connection_init.
func (a *App) websocketTransport(origins *wsgorilla.Origins) transport.Websocket {
	return transport.Websocket{
		Implementation: wsgorilla.Implementation{
			Origins: origins,
			OnError: func(r *http.Request, status int, reason error) {
				a.Log.InfoContext(r.Context(), "websocket upgrade refused", "status", status, "reason", reason.Error(),
					"request_id", httpx.RequestID(r.Context()))
			},
		},
		InitFunc:              a.websocketInit,
		InitTimeout:           wsInitTimeout,
		KeepAlivePingInterval: wsKeepAlive,
		PingPongInterval:      wsPingInterval,
		ErrorFunc: func(ctx context.Context, err error) {
			a.Log.DebugContext(ctx, "websocket", "err", err, "request_id", httpx.RequestID(ctx))
		},
	}
}

// websocketUpgrade admits an upgrade request to /graphql. Browsers from
// other origins are refused (403). A request that carries an API key is
// authenticated now (401 when the key is bad), as every request; one
// without waits for connection_init (websocketInit) and is rate limited by
// client address meanwhile.
func (a *App) websocketUpgrade(gql http.Handler, origins *wsgorilla.Origins) http.Handler {
	withKey := a.authenticated(gql)
	withoutKey := a.Limiter.Middleware(ratelimit.Classify)(gql)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !origins.Allowed(r) {
			httpx.Problem(w, r, apierr.New(apierr.Forbidden, "websocket connections from origin %q are not allowed; the operator may add it with --allowed-origins", r.Header.Get("Origin")).WithCode("ORIGIN_NOT_ALLOWED"))
			return
		}
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-API-Key") != "" {
			withKey.ServeHTTP(w, r)
			return
		}
		withoutKey.ServeHTTP(w, r)
	})
}

// isWebsocket reports whether r asks to become a websocket.
func isWebsocket(r *http.Request) bool { return websocket.IsWebSocketUpgrade(r) }

// websocketInit authenticates a connection: the key in connection_init
// ({"apiKey": "sk_…"} or {"Authorization": "Bearer sk_…"}) or else the
// upgrade request's. The connection's operations then run in the key's
// organization, exactly as requests do; it closes when the server shuts
// down, so that clients reconnect to another process.
func (a *App) websocketInit(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	key := strings.TrimSpace(p.GetString("apiKey"))
	if key == "" {
		if h := strings.TrimSpace(p.Authorization()); h != "" {
			if len(h) <= 7 || !strings.EqualFold(h[:7], "bearer ") {
				return wsRefuse(ctx, apierr.New(apierr.Unauthorized, "connection_init Authorization must be \"Bearer sk_…\""))
			}
			key = strings.TrimSpace(h[7:])
		}
	}
	if key != "" {
		pr, err := a.checkKey(ctx, key)
		if err != nil {
			return wsRefuse(ctx, err)
		}
		httpx.InfoOf(ctx).Org = pr.OrgID
		ctx = auth.With(ctx, pr)
	} else if _, ok := auth.From(ctx); !ok {
		return wsRefuse(ctx, apierr.New(apierr.Unauthorized, "an API key is required: send {\"apiKey\": \"sk_…\"} in connection_init"))
	}
	// cancelled early when the server shuts down; otherwise it ends with the
	// upgrade request's context, when the connection closes
	ctx, _ = httpx.UntilShutdown(ctx)
	return withWSConn(ctx), nil, nil
}

// wsRefuse refuses connection_init: graphql-transport-ws closes with 4403
// (4500 when the key could not be checked), graphql-ws sends
// connection_error first.
func wsRefuse(ctx context.Context, err error) (context.Context, *transport.InitPayload, error) {
	e := apierr.From(err)
	code, reason := wsCloseForbidden, "Forbidden: "+e.Detail
	if e.Kind == apierr.Internal {
		code, reason = wsCloseInternal, "Internal Server Error: the API key could not be checked; try again"
	}
	ctx = transport.AppendCloseReason(transport.WithWebsocketCloseCode(ctx, code), reason)
	return ctx, nil, errors.New(reason)
}
