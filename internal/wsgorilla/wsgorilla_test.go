package wsgorilla

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
)

func TestOrigins(t *testing.T) {
	o, err := ParseOrigins(" https://app.example.com/ , https://*.example.org,http://localhost:3000")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		origin, host string
		want         bool
	}{
		{"", "api.example.com", true}, // not a browser
		{"https://api.example.com", "api.example.com", true},
		{"https://API.example.com", "api.example.com", true},
		{"https://app.example.com", "api.example.com", true},
		{"http://app.example.com", "api.example.com", false}, // scheme differs
		{"https://a.b.example.org", "api.example.com", true},
		{"https://example.org", "api.example.com", false},
		{"https://evilexample.org", "api.example.com", false},
		{"http://a.example.org", "api.example.com", false},
		{"http://localhost:3000", "api.example.com", true},
		{"http://localhost:3001", "api.example.com", false},
		{"https://evil.example", "api.example.com", false},
		{"null", "api.example.com", false},
	} {
		r := httptest.NewRequest(http.MethodGet, "https://"+c.host+"/graphql", nil)
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if got := o.Allowed(r); got != c.want {
			t.Errorf("origin %q to %s: allowed %v, want %v", c.origin, c.host, got, c.want)
		}
	}
	var none *Origins
	r := httptest.NewRequest(http.MethodGet, "https://api.example.com/graphql", nil)
	r.Header.Set("Origin", "https://app.example.com")
	if none.Allowed(r) {
		t.Error("no configured origins allowed another origin")
	}
	anyOrigin, _ := ParseOrigins("*")
	if !anyOrigin.Allowed(r) {
		t.Error("* did not allow an origin")
	}
	for _, bad := range []string{"app.example.com", "ftp://x.example", "https://*", "https://a.*.example.com", "https://x.example/path", "https://u@x.example"} {
		if _, err := ParseOrigins(bad); err == nil {
			t.Errorf("ParseOrigins(%q) accepted it", bad)
		}
	}
}

// wrapped hides the connection's http.Hijacker behind Unwrap, as logging
// middleware does.
type wrapped struct{ http.ResponseWriter }

func (w wrapped) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// server accepts one websocket with Implementation and hands it to serve.
func server(t *testing.T, impl Implementation, serve func(transport.WebsocketConn)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := impl.Accept(wrapped{w}, r, transport.WebsocketAcceptOptions{
			ResponseHeader: http.Header{"X-Test": {"1"}},
			Subprotocols:   []string{"graphql-ws", "graphql-transport-ws"},
		})
		if err != nil {
			http.Error(w, "unable to upgrade", http.StatusBadRequest)
			return
		}
		defer c.Close()
		serve(c)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func dial(t *testing.T, srv *httptest.Server, protocols ...string) (*websocket.Conn, *http.Response) {
	t.Helper()
	d := websocket.Dialer{Subprotocols: protocols, HandshakeTimeout: 5 * time.Second}
	c, res, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c, res
}

func TestConn(t *testing.T) {
	got := make(chan error, 1)
	srv := server(t, Implementation{}, func(c transport.WebsocketConn) {
		if c.Subprotocol() != "graphql-transport-ws" {
			got <- errors.New("negotiated " + c.Subprotocol())
			return
		}
		for {
			_, r, err := c.NextReader()
			if err != nil {
				got <- err
				return
			}
			b, _ := io.ReadAll(r)
			if err := c.WriteJSON(map[string]string{"echo": string(b)}); err != nil {
				got <- err
				return
			}
		}
	})
	c, res := dial(t, srv, "graphql-ws", "graphql-transport-ws")
	if res.Header.Get("X-Test") != "1" || c.Subprotocol() != "graphql-transport-ws" {
		t.Fatalf("header %q, subprotocol %q: the current protocol is preferred", res.Header.Get("X-Test"), c.Subprotocol())
	}
	if err := c.WriteMessage(websocket.TextMessage, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	var echo map[string]string
	if err := c.ReadJSON(&echo); err != nil || echo["echo"] != "hi" {
		t.Fatalf("echo %v, %v", echo, err)
	}
	// a normal close from the client is ErrWebsocketClosed on the server
	_ = c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "bye"), time.Now().Add(time.Second))
	select {
	case err := <-got:
		if !errors.Is(err, transport.ErrWebsocketClosed) {
			t.Errorf("after a normal close NextReader returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not see the close")
	}
}

func TestWriteCloseAndLimits(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes: more than a close frame holds
	srv := server(t, Implementation{}, func(c transport.WebsocketConn) {
		c.(transport.WebsocketReadLimiter).SetReadLimit(16)
		_, _, err := c.NextReader()
		if err == nil {
			_ = c.WriteClose(4403, long)
		} else {
			_ = c.WriteClose(4400, "read: "+err.Error())
		}
	})
	// a message over the read limit closes the connection with 1009
	c, _ := dial(t, srv, "graphql-transport-ws")
	_ = c.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("x", 64)))
	_, _, err := c.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Errorf("over the read limit: %v, want close 1009", err)
	}

	// a reason too long for a close frame is cut at a character boundary
	c, _ = dial(t, srv, "graphql-transport-ws")
	_ = c.WriteMessage(websocket.TextMessage, []byte("{}"))
	_, _, err = c.ReadMessage()
	if !errors.As(err, &ce) || ce.Code != 4403 || len(ce.Text) > 123 || !strings.HasPrefix(long, ce.Text) || len(ce.Text) < 120 {
		t.Errorf("close: %v (%d bytes of reason)", err, len(ce.Text))
	}
}

func TestReadDeadline(t *testing.T) {
	got := make(chan error, 1)
	srv := server(t, Implementation{}, func(c transport.WebsocketConn) {
		_ = c.(transport.WebsocketReadDeadliner).SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		_, _, err := c.NextReader()
		got <- err
	})
	dial(t, srv, "graphql-transport-ws")
	select {
	case err := <-got:
		if err == nil || errors.Is(err, transport.ErrWebsocketClosed) {
			t.Errorf("a silent peer past the deadline: %v, want a timeout", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the read deadline did not end the read")
	}
}

func TestRefusedUpgrade(t *testing.T) {
	var reason error
	o, _ := ParseOrigins("")
	srv := server(t, Implementation{Origins: o, OnError: func(_ *http.Request, _ int, err error) { reason = err }}, func(transport.WebsocketConn) {})
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}}
	_, res, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), http.Header{"Origin": {"https://evil.example"}})
	if err == nil || res == nil || res.StatusCode != http.StatusBadRequest {
		t.Fatalf("another origin: %v, %v", err, res)
	}
	body, _ := io.ReadAll(res.Body)
	if string(body) != "unable to upgrade\n" || reason == nil || !strings.Contains(reason.Error(), "origin") {
		t.Errorf("one answer is written (by the transport): %q; reason %v", body, reason)
	}
}
