package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/plangraph/plangraph/graph"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/ratelimit"
)

// Limits of the GraphQL endpoint besides graph.DefaultLimits.
const (
	// graphqlTokenLimit is the most lexical tokens a GraphQL document may
	// have: the parser stops there.
	graphqlTokenLimit = 10000
	// maxSubscriptionsPerConnection is the most subscriptions one websocket
	// runs at once (the per-key cap on live streams is live.MaxStreamsPerKey).
	maxSubscriptionsPerConnection = 20
)

// wsConn is the state of one GraphQL websocket, in its operations' context.
type wsConn struct{ subs atomic.Int32 }

type wsConnKey struct{}

func withWSConn(ctx context.Context) context.Context {
	return context.WithValue(ctx, wsConnKey{}, &wsConn{})
}

func wsConnOf(ctx context.Context) *wsConn {
	c, _ := ctx.Value(wsConnKey{}).(*wsConn)
	return c
}

// chargeGraphQL charges an operation to the caller's budgets: each vision
// root field (the parse, compare and analyzeOverlay mutations, search and
// ask) to the vision budget, each other root field to the management
// budget, aliases counted. An HTTP request has already been charged one
// management request by the rate limit middleware, so its first
// management field is free; an operation over a websocket is charged in
// full, at least one management request.
func (a *App) chargeGraphQL(ctx context.Context, c graph.Cost) error {
	mgmt := c.Management
	if wsConnOf(ctx) == nil {
		mgmt--
	} else if c.Vision == 0 {
		mgmt = max(mgmt, 1)
	}
	if err := a.Limiter.Charge(ctx, ratelimit.Vision, c.Vision); err != nil {
		return err
	}
	return a.Limiter.Charge(ctx, ratelimit.Management, mgmt)
}

// limitSubscriptions refuses a websocket's subscription beyond
// maxSubscriptionsPerConnection running at once.
func limitSubscriptions(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	conn := wsConnOf(ctx)
	if conn == nil || oc.Operation == nil || oc.Operation.Operation != ast.Subscription {
		return next(ctx)
	}
	if conn.subs.Add(1) > maxSubscriptionsPerConnection {
		conn.subs.Add(-1)
		err := gqlerror.Errorf("this connection already runs %d subscriptions, the most one connection may; stop one (complete) or open another connection", maxSubscriptionsPerConnection)
		err.Extensions = map[string]any{"code": apierr.New(apierr.RateLimited, "").MachineCode(), "status": http.StatusTooManyRequests}
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{err}})
	}
	var once sync.Once
	release := func() { once.Do(func() { conn.subs.Add(-1) }) }
	stop := context.AfterFunc(ctx, release)
	h := next(ctx)
	return func(ctx context.Context) *graphql.Response {
		r := h(ctx)
		if r == nil {
			stop()
			release()
		}
		return r
	}
}

// limitBody caps a GraphQL request's body at max bytes (--max-body-bytes,
// as REST's JSON bodies): a larger one is answered 413 before it is parsed.
func limitBody(max int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		tooLarge := apierr.New(apierr.TooLarge, "the GraphQL request body is larger than %d bytes (--max-body-bytes)", max)
		if r.ContentLength > max {
			httpx.Problem(w, r, tooLarge)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			httpx.Problem(w, r, tooLarge)
			return
		case err != nil:
			httpx.Problem(w, r, apierr.Invalid("body", "could not be read"))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}
