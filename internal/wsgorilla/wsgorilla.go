// Package wsgorilla serves gqlgen's websocket transport (GraphQL
// subscriptions over graphql-transport-ws and the legacy graphql-ws) with
// github.com/gorilla/websocket: gqlgen ships only a coder/websocket
// adapter, this one implements transport.WebsocketImplementation and
// transport.WebsocketConn, including the optional read limit and read
// deadline, on gorilla.
//
// Browsers may open a websocket to any site, so upgrades are checked
// against their Origin: the service's own host and configured origins are
// accepted; requests without an Origin header (non-browser clients) are too.
package wsgorilla

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/gorilla/websocket"
)

// Implementation accepts websocket connections for gqlgen's transport.
type Implementation struct {
	// Origins decides which browser origins may connect (nil: same host only).
	Origins *Origins
	// WriteTimeout bounds each message written (10 s when zero), so that a
	// client that stops reading cannot hold the connection's writers.
	WriteTimeout time.Duration
	// HandshakeTimeout bounds the opening handshake (10 s when zero).
	HandshakeTimeout time.Duration
	// OnError, when set, learns why an upgrade failed (gqlgen then answers
	// 400 "unable to upgrade").
	OnError func(r *http.Request, status int, reason error)
}

var _ transport.WebsocketImplementation = Implementation{}

// preferred orders the GraphQL subprotocols: when a client offers both,
// the current one (graphql-transport-ws) wins over the legacy graphql-ws.
var preferred = []string{"graphql-transport-ws", "graphql-ws"}

// Accept upgrades r to a websocket speaking one of options.Subprotocols.
func (i Implementation) Accept(w http.ResponseWriter, r *http.Request, options transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	var protocols []string
	for _, p := range preferred {
		if slices.Contains(options.Subprotocols, p) {
			protocols = append(protocols, p)
		}
	}
	for _, p := range options.Subprotocols {
		if !slices.Contains(protocols, p) {
			protocols = append(protocols, p)
		}
	}
	u := websocket.Upgrader{
		HandshakeTimeout: orDefault(i.HandshakeTimeout, 10*time.Second),
		Subprotocols:     protocols,
		CheckOrigin:      i.Origins.Allowed,
		// gqlgen answers a failed upgrade itself; writing here too would
		// send two responses
		Error: func(w http.ResponseWriter, r *http.Request, status int, reason error) {
			if i.OnError != nil {
				i.OnError(r, status, reason)
			}
		},
	}
	header := http.Header{}
	for k, vs := range options.ResponseHeader {
		if !strings.EqualFold(k, "Sec-Websocket-Protocol") {
			header[k] = append(header[k], vs...)
		}
	}
	c, err := u.Upgrade(hijackable(w), r, header)
	if err != nil {
		return nil, err
	}
	return &Conn{c: c, writeTimeout: orDefault(i.WriteTimeout, 10*time.Second)}, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// hijackable gives gorilla, which asks for an http.Hijacker, a writer that
// has one even when w wraps the connection's writer (middleware records
// status and size): the hijack is reached through Unwrap, as
// http.ResponseController does.
func hijackable(w http.ResponseWriter) http.ResponseWriter {
	if _, ok := w.(http.Hijacker); ok {
		return w
	}
	return hijacker{w}
}

type hijacker struct{ http.ResponseWriter }

func (h hijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(h.ResponseWriter).Hijack()
}

// Conn is an accepted connection. Reads come from the transport's one
// reader; writes may come from several goroutines and are serialised.
type Conn struct {
	c            *websocket.Conn
	writeTimeout time.Duration
	mu           sync.Mutex
}

var (
	_ transport.WebsocketConn          = (*Conn)(nil)
	_ transport.WebsocketReadLimiter   = (*Conn)(nil)
	_ transport.WebsocketReadDeadliner = (*Conn)(nil)
)

// NextReader returns the next data message. A close from the peer with a
// normal status (1000, 1001 going away, or none) is transport.ErrWebsocketClosed.
func (c *Conn) NextReader() (int, io.Reader, error) {
	t, r, err := c.c.NextReader()
	if err != nil {
		if websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseNoStatusReceived) {
			return t, nil, transport.ErrWebsocketClosed
		}
		return t, nil, err
	}
	return t, r, nil
}

// WriteJSON sends v as one text message.
func (c *Conn) WriteJSON(v any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.c.SetWriteDeadline(time.Now().Add(c.writeTimeout)); err != nil {
		return err
	}
	return c.c.WriteJSON(v)
}

// maxCloseReason is the most a close frame's reason may hold (125 bytes of
// control payload less the 2-byte code).
const maxCloseReason = 123

// WriteClose sends a close frame with code and message (cut to what a close
// frame holds). It does not wait for the peer's answer; Close ends the
// connection.
func (c *Conn) WriteClose(code int, message string) error {
	for len(message) > maxCloseReason {
		_, size := utf8.DecodeLastRuneInString(message)
		message = message[:len(message)-size]
	}
	err := c.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, message), time.Now().Add(c.writeTimeout))
	if err != nil && !errors.Is(err, websocket.ErrCloseSent) {
		return fmt.Errorf("websocket close: %w", err)
	}
	return nil
}

// Close ends the connection.
func (c *Conn) Close() error { return c.c.Close() }

// Subprotocol is the negotiated subprotocol ("" when the client named none).
func (c *Conn) Subprotocol() string { return c.c.Subprotocol() }

// SetReadLimit makes a larger message from the peer close the connection
// (status 1009).
func (c *Conn) SetReadLimit(limit int64) { c.c.SetReadLimit(limit) }

// SetReadDeadline makes reads fail after t (zero: never); the transport
// uses it to drop peers that stop answering pings.
func (c *Conn) SetReadDeadline(t time.Time) error { return c.c.SetReadDeadline(t) }

// Origins are the browser origins allowed to open websockets.
type Origins struct {
	exact    []string // "https://app.example.com", lower case
	suffixes []string // "https://*.example.com" as scheme "https", suffix ".example.com"
	schemes  []string
	any      bool
}

// ParseOrigins reads a comma-separated list of origins: scheme://host[:port],
// scheme://*.domain for its subdomains, or * for any origin.
func ParseOrigins(list string) (*Origins, error) {
	o := &Origins{}
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimRight(strings.TrimSpace(s), "/")
		if s == "" {
			continue
		}
		if s == "*" {
			o.any = true
			continue
		}
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
			return nil, fmt.Errorf("origin %q is not scheme://host[:port] (http or https; *.domain for subdomains)", s)
		}
		host := strings.ToLower(u.Host)
		if rest, ok := strings.CutPrefix(host, "*."); ok {
			if rest == "" || strings.Contains(rest, "*") {
				return nil, fmt.Errorf("origin %q: a wildcard stands only for subdomains, as https://*.example.com", s)
			}
			o.suffixes = append(o.suffixes, "."+rest)
			o.schemes = append(o.schemes, u.Scheme)
			continue
		}
		if strings.Contains(host, "*") {
			return nil, fmt.Errorf("origin %q: a wildcard stands only for subdomains, as https://*.example.com", s)
		}
		o.exact = append(o.exact, u.Scheme+"://"+host)
	}
	return o, nil
}

// Allowed reports whether r may become a websocket: it has no Origin (not
// a browser), or its Origin is the host r was sent to, or a configured one.
func (o *Origins) Allowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Host)
	if strings.EqualFold(host, r.Host) {
		return true
	}
	if o == nil {
		return false
	}
	if o.any {
		return true
	}
	if slices.Contains(o.exact, strings.ToLower(u.Scheme)+"://"+host) {
		return true
	}
	for i, suffix := range o.suffixes {
		if strings.EqualFold(u.Scheme, o.schemes[i]) && strings.HasSuffix(host, suffix) {
			return true
		}
	}
	return false
}
