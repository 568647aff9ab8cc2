// Package httpsonly lets one port serve TLS while answering clients that
// speak plain HTTP to it with an error response instead of a failed
// handshake.
package httpsonly

import (
	"bufio"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// recordTypeHandshake is the first byte of every TLS connection.
const recordTypeHandshake = 0x16

// Tunables; variables so tests can shorten them.
var (
	// sniffTimeout bounds how long a client may take to send its first byte.
	sniffTimeout = 10 * time.Second
	// plainTimeout bounds reading the plain request and writing the answer.
	plainTimeout = 10 * time.Second
	// maxPending bounds connections accepted but not yet handed to Accept
	// (sniffing, waiting for Accept, or being answered as plain HTTP).
	maxPending = 1024
)

// New wraps inner so that connections starting with a TLS handshake are
// returned from Accept as *tls.Conn using cfg, while any other connection is
// answered right away with a single HTTP/1.1 response from plain (a generic
// 400 when nil) and closed. Use the result with http.Server.Serve, not
// ServeTLS; give the server a ReadHeaderTimeout to bound TLS handshakes.
//
// Sniffing happens off the Accept path, so slow clients delay only
// themselves, up to maxPending of them at once; beyond that the kernel
// backlog absorbs new connections.
func New(inner net.Listener, cfg *tls.Config, plain http.Handler) net.Listener {
	if plain == nil {
		plain = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "Client sent an HTTP request to an HTTPS server.", http.StatusBadRequest)
		})
	}
	l := &listener{
		inner:        inner,
		cfg:          cfg,
		plain:        plain,
		sniffTimeout: sniffTimeout,
		plainTimeout: plainTimeout,
		ready:        make(chan handoff),
		closed:       make(chan struct{}),
		failed:       make(chan struct{}),
		slots:        make(chan struct{}, maxPending),
		pending:      make(map[net.Conn]struct{}),
	}
	go l.acceptLoop()
	return l
}

type listener struct {
	inner        net.Listener
	cfg          *tls.Config
	plain        http.Handler
	sniffTimeout time.Duration
	plainTimeout time.Duration

	ready     chan handoff  // sniffed TLS connections for Accept
	closed    chan struct{} // closed by Close
	closeOnce sync.Once
	failed    chan struct{} // closed when inner.Accept fails for good
	err       error         // why; written before failed is closed
	slots     chan struct{} // semaphore of maxPending

	mu         sync.Mutex
	isClosed   bool
	pending    map[net.Conn]struct{} // raw conns we own, closed by Close
	closeError error
}

type handoff struct {
	raw net.Conn
	tls *tls.Conn
}

func (l *listener) Accept() (net.Conn, error) {
	select {
	case h := <-l.ready:
		l.mu.Lock()
		closed := l.isClosed
		delete(l.pending, h.raw)
		l.mu.Unlock()
		<-l.slots
		if closed {
			h.raw.Close()
			return nil, net.ErrClosed
		}
		return h.tls, nil
	case <-l.closed:
		return nil, net.ErrClosed
	case <-l.failed:
		return nil, l.err
	}
}

func (l *listener) Close() error {
	l.closeOnce.Do(func() {
		close(l.closed)
		l.mu.Lock()
		l.isClosed = true
		conns := l.pending
		l.pending = nil
		l.mu.Unlock()
		l.closeError = l.inner.Close()
		for c := range conns {
			c.Close()
		}
	})
	return l.closeError
}

func (l *listener) Addr() net.Addr { return l.inner.Addr() }

func (l *listener) acceptLoop() {
	var backoff time.Duration
	for {
		select {
		case l.slots <- struct{}{}:
		case <-l.closed:
			return
		}
		c, err := l.inner.Accept()
		if err != nil {
			<-l.slots
			select {
			case <-l.closed:
				return
			default:
			}
			// Same policy as http.Server: back off on resource exhaustion
			// (EMFILE and the like) instead of giving up.
			var te interface{ Temporary() bool }
			if errors.As(err, &te) && te.Temporary() {
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				select {
				case <-time.After(backoff):
					continue
				case <-l.closed:
					return
				}
			}
			l.err = err
			close(l.failed)
			return
		}
		backoff = 0
		if !l.track(c) {
			c.Close()
			<-l.slots
			return
		}
		go l.sniff(c)
	}
}

// track registers c so Close can reach it; false once closed.
func (l *listener) track(c net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.isClosed {
		return false
	}
	l.pending[c] = struct{}{}
	return true
}

// release forgets c and frees its slot.
func (l *listener) release(c net.Conn) {
	l.mu.Lock()
	delete(l.pending, c)
	l.mu.Unlock()
	<-l.slots
}

func (l *listener) sniff(raw net.Conn) {
	br := bufio.NewReader(raw)
	raw.SetReadDeadline(time.Now().Add(l.sniffTimeout))
	first, err := br.Peek(1)
	if err == nil {
		err = raw.SetReadDeadline(time.Time{})
	}
	if err != nil {
		raw.Close()
		l.release(raw)
		return
	}
	// Reads must go through br, which holds the sniffed bytes.
	conn := &bufferedConn{Conn: raw, r: br}
	if first[0] != recordTypeHandshake {
		l.servePlain(conn)
		l.release(raw)
		return
	}
	select {
	case l.ready <- handoff{raw: raw, tls: tls.Server(conn, l.cfg)}:
		// Accept now owns raw and its slot.
	case <-l.closed:
		raw.Close()
		l.release(raw)
	}
}

// servePlain answers exactly one request on c with l.plain and closes c.
// A real http.Server does the parsing so malformed requests, bodies and
// timeouts are handled as usual.
func (l *listener) servePlain(c net.Conn) {
	done := make(chan struct{})
	var once sync.Once
	srv := &http.Server{
		Handler:           l.plain,
		ReadHeaderTimeout: l.plainTimeout,
		ReadTimeout:       l.plainTimeout,
		WriteTimeout:      l.plainTimeout,
		MaxHeaderBytes:    16 << 10,
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateClosed || s == http.StateHijacked {
				once.Do(func() { close(done) })
			}
		},
	}
	// Sends "Connection: close" and closes after the first response.
	srv.SetKeepAlivesEnabled(false)
	srv.Serve(&oneConnListener{conn: c, addr: c.LocalAddr(), done: done})
}

// bufferedConn reads through r, which may hold bytes already read from Conn.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) {
	if c.r != nil {
		if c.r.Buffered() > 0 {
			return c.r.Read(p)
		}
		c.r = nil // drained; let the buffer be collected
	}
	return c.Conn.Read(p)
}

// oneConnListener yields conn once, then blocks until done is closed.
type oneConnListener struct {
	mu   sync.Mutex
	conn net.Conn
	addr net.Addr
	done chan struct{}
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	c := l.conn
	l.conn = nil
	l.mu.Unlock()
	if c != nil {
		return c, nil
	}
	<-l.done
	return nil, net.ErrClosed
}

// Close is a no-op: the connection's own lifecycle ends Serve.
func (l *oneConnListener) Close() error { return nil }

func (l *oneConnListener) Addr() net.Addr { return l.addr }
