package httpsonly

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	cflog "github.com/cloudflare/cfssl/log"

	"github.com/plangraph/plangraph/internal/tlsca"
)

func TestMain(m *testing.M) {
	cflog.Level = cflog.LevelWarning // cfssl is chatty at info level
	os.Exit(m.Run())
}

type server struct {
	addr     string
	roots    *x509.CertPool
	ln       net.Listener
	served   chan error
	mainHits atomic.Int32
	sawTLS   atomic.Bool
	sawProto atomic.Int32
}

func start(t *testing.T) *server {
	t.Helper()
	files, err := tlsca.Ensure(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := tlsca.LoadServerConfig(files.Cert, files.Key)
	if err != nil {
		t.Fatal(err)
	}
	caPEM, err := os.ReadFile(files.CA)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{roots: x509.NewCertPool(), served: make(chan error, 1)}
	if !s.roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("bad CA PEM")
	}

	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = inner.Addr().String()
	main := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mainHits.Add(1)
		s.sawTLS.Store(r.TLS != nil)
		s.sawProto.Store(int32(r.ProtoMajor))
		io.WriteString(w, "ok")
	})
	plain := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]any{
			"title":  "HTTPS required",
			"status": http.StatusBadRequest,
			"tls":    r.TLS != nil,
		})
	})
	srv := &http.Server{Handler: main, ReadHeaderTimeout: 5 * time.Second}
	s.ln = New(inner, cfg, plain)
	go func() { s.served <- srv.Serve(s.ln) }()
	t.Cleanup(func() { srv.Close() })
	return s
}

func (s *server) client(t *testing.T, h2 bool) *http.Client {
	tr := &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: s.roots},
		ForceAttemptHTTP2: h2,
	}
	if !h2 {
		tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 5 * time.Second}
}

func (s *server) get(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func TestHTTPS(t *testing.T) {
	s := start(t)
	for _, host := range []string{"localhost", "127.0.0.1"} {
		_, port, _ := net.SplitHostPort(s.addr)
		resp, body := s.get(t, s.client(t, false), "https://"+net.JoinHostPort(host, port)+"/")
		if resp.StatusCode != http.StatusOK || body != "ok" || resp.ProtoMajor != 1 {
			t.Errorf("%s: %d %q HTTP/%d", host, resp.StatusCode, body, resp.ProtoMajor)
		}
		if !s.sawTLS.Load() {
			t.Errorf("%s: handler saw r.TLS == nil", host)
		}
	}
}

func TestHTTP2(t *testing.T) {
	s := start(t)
	resp, body := s.get(t, s.client(t, true), "https://"+s.addr+"/")
	if resp.StatusCode != http.StatusOK || body != "ok" {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if resp.ProtoMajor != 2 || resp.TLS.NegotiatedProtocol != "h2" || s.sawProto.Load() != 2 {
		t.Errorf("HTTP/%d ALPN %q handler HTTP/%d", resp.ProtoMajor, resp.TLS.NegotiatedProtocol, s.sawProto.Load())
	}
	if !s.sawTLS.Load() {
		t.Error("handler saw r.TLS == nil")
	}
}

func TestPlainHTTPGetsPlainHandler(t *testing.T) {
	s := start(t)
	resp, body := s.get(t, &http.Client{Timeout: 5 * time.Second}, "http://"+s.addr+"/secret")
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q", ct)
	}
	var p struct {
		Status int  `json:"status"`
		TLS    bool `json:"tls"`
	}
	if err := json.Unmarshal([]byte(body), &p); err != nil || p.Status != 400 || p.TLS {
		t.Errorf("body %q: %v", body, err)
	}
	if !resp.Close {
		t.Error("response does not close the connection")
	}
	if n := s.mainHits.Load(); n != 0 {
		t.Errorf("main handler called %d times", n)
	}

	// Only one request is answered per connection, even when pipelined.
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
	all, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("connection not closed: %v", err)
	}
	if n := strings.Count(string(all), "HTTP/1.1 400"); n != 1 {
		t.Errorf("got %d responses:\n%s", n, all)
	}
	if !strings.Contains(string(all), "Connection: close") {
		t.Errorf("no Connection: close:\n%s", all)
	}
	if n := s.mainHits.Load(); n != 0 {
		t.Errorf("main handler called %d times", n)
	}
}

func TestSilentClientsDoNotBlockOthers(t *testing.T) {
	defer setVar(&sniffTimeout, 2*time.Second)()
	s := start(t)
	var silent []net.Conn
	for range 5 {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		silent = append(silent, c)
	}
	// A client stuck mid-request line also only delays itself.
	partial, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer partial.Close()
	io.WriteString(partial, "GE")

	start := time.Now()
	resp, _ := s.get(t, s.client(t, false), "https://"+s.addr+"/")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d", resp.StatusCode)
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("request took %v behind silent clients", d)
	}

	// Clients that never send anything are dropped after sniffTimeout.
	for _, c := range silent {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if n, err := c.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
			t.Errorf("silent client: read %d, %v; want EOF", n, err)
		}
	}
}

func TestPendingConnectionsAreBounded(t *testing.T) {
	defer setVar(&maxPending, 1)()
	defer setVar(&sniffTimeout, 400*time.Millisecond)()
	s := start(t)
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	time.Sleep(50 * time.Millisecond) // let the silent client take the only slot

	start := time.Now()
	resp, _ := s.get(t, s.client(t, false), "https://"+s.addr+"/")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d", resp.StatusCode)
	}
	// Served only once the silent client timed out and freed its slot.
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("served after %v despite a full pending set", d)
	}
}

func TestCloseStopsServe(t *testing.T) {
	s := start(t)
	silent, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	// Make sure the listener works and the silent client is being sniffed.
	s.get(t, s.client(t, false), "https://"+s.addr+"/")

	if err := s.ln.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.served:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("Serve returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after Close")
	}
	if _, err := s.ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v", err)
	}
	// Connections still being sniffed are closed too, not left to time out.
	silent.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := silent.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("pending client after Close: %v; want EOF", err)
	}
	if _, err := net.DialTimeout("tcp", s.addr, time.Second); err == nil {
		t.Error("port still accepting after Close")
	}
}

func TestBufferedConnKeepsPeekedBytes(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go io.WriteString(a, "hello world")
	br := bufio.NewReader(b)
	if p, err := br.Peek(1); err != nil || p[0] != 'h' {
		t.Fatalf("peek %q %v", p, err)
	}
	c := &bufferedConn{Conn: b, r: br}
	got := make([]byte, 11)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "hello world" {
		t.Errorf("read %q %v", got, err)
	}
}

func setVar[T any](p *T, v T) (restore func()) {
	old := *p
	*p = v
	return func() { *p = old }
}
