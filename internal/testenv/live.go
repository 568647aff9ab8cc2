package testenv

// Clients of the live progress interfaces, as an integration would use
// them: GraphQL subscriptions over graphql-transport-ws (gorilla/websocket)
// and Server-Sent Events.

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// WSMessage is a graphql-transport-ws message.
type WSMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// GraphQLWS is a graphql-transport-ws connection.
type GraphQLWS struct {
	conn *websocket.Conn
	wmu  sync.Mutex

	mu     sync.Mutex
	subs   map[string]chan WSMessage
	nextID int
	closed error // why the connection ended (a *websocket.CloseError when closed by the server)
	done   chan struct{}
}

// WSOptions configure DialGraphQLWS.
type WSOptions struct {
	TLS *tls.Config
	// Header is sent with the upgrade request (Authorization, Origin…).
	Header http.Header
	// Init is connection_init's payload ({"apiKey": …}); nil sends none.
	Init map[string]any
	// Subprotocol defaults to graphql-transport-ws.
	Subprotocol string
}

// DialGraphQLWS opens base's /graphql as a websocket (base is https://…)
// and completes connection_init. A refused upgrade returns the HTTP
// response; a refused init the *websocket.CloseError.
func DialGraphQLWS(base string, o WSOptions) (*GraphQLWS, *http.Response, error) {
	proto := o.Subprotocol
	if proto == "" {
		proto = "graphql-transport-ws"
	}
	tc := &tls.Config{}
	if o.TLS != nil {
		tc = o.TLS.Clone()
	}
	tc.NextProtos = []string{"http/1.1"} // a websocket upgrade is HTTP/1.1
	d := websocket.Dialer{TLSClientConfig: tc, HandshakeTimeout: 10 * time.Second, Subprotocols: []string{proto}}
	u := "wss://" + strings.TrimPrefix(base, "https://") + "/graphql"
	conn, res, err := d.Dial(u, o.Header)
	if err != nil {
		return nil, res, fmt.Errorf("dial %s: %w", u, err)
	}
	c := &GraphQLWS{conn: conn, subs: map[string]chan WSMessage{}, done: make(chan struct{})}
	init := WSMessage{Type: "connection_init"}
	if o.Init != nil {
		init.Payload, _ = json.Marshal(o.Init)
	}
	if err := c.send(init); err != nil {
		conn.Close()
		return nil, res, err
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var ack WSMessage
	if err := conn.ReadJSON(&ack); err != nil {
		conn.Close()
		return nil, res, err
	}
	_ = conn.SetReadDeadline(time.Time{})
	if ack.Type != "connection_ack" {
		conn.Close()
		return nil, res, fmt.Errorf("connection_init answered %s, want connection_ack", ack.Type)
	}
	go c.read()
	return c, res, nil
}

func (c *GraphQLWS) send(m WSMessage) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.conn.WriteJSON(m)
}

// read dispatches messages to their subscriptions and answers pings.
func (c *GraphQLWS) read() {
	var err error
	defer func() {
		c.mu.Lock()
		c.closed = err
		for _, ch := range c.subs {
			close(ch)
		}
		c.subs = map[string]chan WSMessage{}
		c.mu.Unlock()
		close(c.done)
	}()
	for {
		var m WSMessage
		if err = c.conn.ReadJSON(&m); err != nil {
			return
		}
		switch m.Type {
		case "ping":
			_ = c.send(WSMessage{Type: "pong"})
		case "pong":
		default:
			c.mu.Lock()
			ch := c.subs[m.ID]
			if m.Type == "complete" || m.Type == "error" {
				delete(c.subs, m.ID)
			}
			c.mu.Unlock()
			if ch != nil {
				ch <- m // buffered generously; a test that stops reading has failed anyway
				if m.Type == "complete" || m.Type == "error" {
					close(ch)
				}
			}
		}
	}
}

// Closed is closed when the connection has ended; Err then tells why.
func (c *GraphQLWS) Closed() <-chan struct{} { return c.done }

// Err is why the connection ended (nil while open).
func (c *GraphQLWS) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Close ends the connection.
func (c *GraphQLWS) Close() {
	c.wmu.Lock()
	_ = c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	c.wmu.Unlock()
	_ = c.conn.Close()
}

// Subscription is one operation's messages: next, then complete or error.
type Subscription struct {
	ID string
	C  <-chan WSMessage
	c  *GraphQLWS
}

// Subscribe starts query with vars.
func (c *GraphQLWS) Subscribe(query string, vars map[string]any) (*Subscription, error) {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan WSMessage, 4096)
	c.subs[id] = ch
	c.mu.Unlock()
	payload, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err := c.send(WSMessage{ID: id, Type: "subscribe", Payload: payload}); err != nil {
		return nil, err
	}
	return &Subscription{ID: id, C: ch, c: c}, nil
}

// Stop ends the subscription from the client's side.
func (s *Subscription) Stop() error { return s.c.send(WSMessage{ID: s.ID, Type: "complete"}) }

// Result is one "next" payload.
type Result struct {
	Data   json.RawMessage `json:"data"`
	Errors []GraphQLError  `json:"errors"`
}

// Next returns the subscription's next message, false when none came
// within timeout or the subscription has ended.
func (s *Subscription) Next(timeout time.Duration) (WSMessage, bool) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case m, ok := <-s.C:
		return m, ok
	case <-t.C:
		return WSMessage{}, false
	}
}

// Collect reads the subscription until it completes (or fails with an
// error message) or timeout passes, returning every next payload, the
// errors of an error message, and whether it completed.
func (s *Subscription) Collect(timeout time.Duration) (results []Result, errs []GraphQLError, completed bool) {
	deadline := time.Now().Add(timeout)
	for {
		m, ok := s.Next(time.Until(deadline))
		if !ok {
			return results, errs, false
		}
		switch m.Type {
		case "next":
			var r Result
			_ = json.Unmarshal(m.Payload, &r)
			results = append(results, r)
		case "error":
			_ = json.Unmarshal(m.Payload, &errs)
			return results, errs, false
		case "complete":
			return results, errs, true
		}
	}
}

// SSEEvent is one Server-Sent Event.
type SSEEvent struct {
	ID    string
	Event string
	Data  string
}

// SSE is an open event stream.
type SSE struct {
	Response *http.Response
	// Events delivers the stream's events (comments are counted in
	// Comments), and is closed when the stream ends.
	Events   <-chan SSEEvent
	mu       sync.Mutex
	comments int
	retry    string
}

// Comments is how many comment lines (heartbeats) arrived so far.
func (s *SSE) Comments() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.comments
}

// Retry is the last retry: field received.
func (s *SSE) Retry() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.retry
}

// Close ends the stream from the client's side.
func (s *SSE) Close() { s.Response.Body.Close() }

// OpenSSE GETs url (absolute) with key and header; a status other than 200
// returns the response with its body read into the error.
func OpenSSE(t testing.TB, client *http.Client, url, key string, header http.Header) (*SSE, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Accept", "text/event-stream")
	// no client timeout: the stream lasts as long as the job
	c := *client
	c.Timeout = 0
	res, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return &SSE{Response: res}, &SSEStatusError{Status: res.StatusCode, Body: b}
	}
	ch := make(chan SSEEvent, 4096)
	s := &SSE{Response: res, Events: ch}
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		var ev SSEEvent
		var data []string
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if len(data) > 0 || ev.Event != "" || ev.ID != "" {
					ev.Data = strings.Join(data, "\n")
					ch <- ev
				}
				ev, data = SSEEvent{}, nil
				continue
			}
			if strings.HasPrefix(line, ":") {
				s.mu.Lock()
				s.comments++
				s.mu.Unlock()
				continue
			}
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "id":
				ev.ID = value
			case "event":
				ev.Event = value
			case "data":
				data = append(data, value)
			case "retry":
				s.mu.Lock()
				s.retry = value
				s.mu.Unlock()
			}
		}
	}()
	return s, nil
}

// SSEStatusError is a stream request answered with another status than 200.
type SSEStatusError struct {
	Status int
	Body   []byte
}

func (e *SSEStatusError) Error() string { return fmt.Sprintf("status %d: %s", e.Status, e.Body) }

// CloseCode is the close code of err when the server closed the
// websocket, else 0.
func CloseCode(err error) (int, string) {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code, ce.Text
	}
	return 0, ""
}
