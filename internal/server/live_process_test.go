package server_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/testenv"
)

// TestLiveProgressAcrossProcesses runs the live progress scenario on the
// plangraph binary as it is deployed: api process A serves the
// subscriptions and streams, api process B accepts the requests, and a
// worker process — started only once everything is subscribed — runs the
// jobs; all three share one PostgreSQL database, one Redis and one blob
// directory. What the worker does reaches A through Redis pub/sub alone.
func TestLiveProgressAcrossProcesses(t *testing.T) {
	bin := buildPlangraph(t)
	data := t.TempDir()
	common := []string{"--data-dir", data, "--database-url", testenv.Postgres(t), "--redis-url", testenv.Redis(t),
		"--log-level", "warn", "--shutdown-timeout", "5s", "--render-dpi", "72",
		"--rate-management", "100000", "--burst-management", "100000", "--rate-vision", "100000", "--burst-vision", "100000"}
	api := func(name string) liveAPI {
		addr := freeAddr(t)
		p := startProcess(t, name, bin, append([]string{"api", "--addr", addr, "--public-url", "https://" + addr}, common...)...)
		a := liveAPI{URL: "https://" + addr}
		a.TLS, a.Client = trustCA(t, filepath.Join(data, "tls", "ca.pem"))
		p.waitReady(t, a)
		return a
	}
	// one after the other: the first makes the database schema and the certificate
	A := api("api-A")
	B := api("api-B")
	key := createKeyWith(t, bin, "acme", common)
	other := createKeyWith(t, bin, "globex", common)
	// while the job waits for a worker: an api process that shuts down
	// ends its streams and websockets (clients reconnect elsewhere) and
	// exits without waiting for them
	shutdown := func(t *testing.T, jobID, projectID string) {
		addr := freeAddr(t)
		p := startProcess(t, "api-C", bin, append([]string{"api", "--addr", addr, "--public-url", "https://" + addr}, common...)...)
		C := liveAPI{URL: "https://" + addr, TLS: A.TLS, Client: A.Client}
		p.waitReady(t, C)
		sse := C.stream(t, key, jobID, "", nil)
		ws := C.dial(t, testenv.WSOptions{Init: map[string]any{"apiKey": key}})
		sub := C.subscribe(t, ws, projectJobsQuery, map[string]any{"p": projectID})
		if m, ok := sub.Next(30 * time.Second); !ok || m.Type != "next" {
			t.Fatalf("projectJobs on C: %+v", m)
		}
		if e, ok := <-sse.Events; !ok || e.Event != "job" {
			t.Fatalf("stream on C: %+v", e)
		}
		start := time.Now()
		if err := p.stop(); err != nil {
			t.Fatalf("api-C: %v", err)
		}
		for e := range sse.Events {
			if e.Event == "end" {
				t.Error("a stream cut by shutdown says end")
			}
		}
		select {
		case <-ws.Closed():
		case <-time.After(5 * time.Second):
			t.Error("the websocket is open after its server stopped")
		}
		if d := time.Since(start); d > 4*time.Second {
			t.Errorf("api-C took %s to stop with a stream and a websocket open (shutdown timeout 5 s)", d)
		}
	}
	runLive(t, liveSetup{A: A, B: B, Key: key, OtherKey: other, held: true, beforeRelease: shutdown, release: func(t *testing.T) {
		startProcess(t, "worker", bin, append([]string{"worker", "--concurrency", "2"}, common...)...)
	}})
}

// buildPlangraph builds cmd/plangraph into a temporary directory.
func buildPlangraph(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "plangraph")
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/plangraph")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/plangraph: %v\n%s", err, out)
	}
	return bin
}

// freeAddr is a free port on 127.0.0.1 (free when asked).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// trustCA is a TLS configuration and HTTP client trusting the CA in file.
func trustCA(t *testing.T, file string) (*tls.Config, *http.Client) {
	t.Helper()
	roots := x509.NewCertPool()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		// the first api process writes it as it starts
		if pem, err := os.ReadFile(file); err == nil && roots.AppendCertsFromPEM(pem) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no CA certificate in %s after 30 s", file)
		}
	}
	tc := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	tr := &http.Transport{TLSClientConfig: tc.Clone(), ForceAttemptHTTP2: true}
	t.Cleanup(tr.CloseIdleConnections)
	return tc, &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// process is a running plangraph command; its log is shown when the test fails.
type process struct {
	name string
	cmd  *exec.Cmd
	out  *os.File // its standard output and error
	done chan error
	once sync.Once
	err  error
}

// startProcess runs bin with args until the test ends, then stops it with
// SIGTERM (as a deployment would) and checks that it exited cleanly.
func startProcess(t *testing.T, name, bin string, args ...string) *process {
	t.Helper()
	return startProcessEnv(t, name, bin, nil, args...)
}

// startProcessEnv is startProcess with env added to the test's environment.
func startProcessEnv(t *testing.T, name, bin string, env []string, args ...string) *process {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), name+"-*.log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	p := &process{name: name, cmd: exec.Command(bin, args...), out: out, done: make(chan error, 1)}
	p.cmd.Stdout, p.cmd.Stderr = out, out
	if env != nil {
		p.cmd.Env = append(os.Environ(), env...)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if err := p.stop(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if t.Failed() {
			t.Logf("%s log:\n%s", name, p.log())
		}
	})
	return p
}

// stop sends SIGTERM and waits for the process to exit (once).
func (p *process) stop() error {
	p.once.Do(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case p.err = <-p.done:
		case <-time.After(30 * time.Second):
			_ = p.cmd.Process.Kill()
			p.err = fmt.Errorf("did not stop within 30 s of SIGTERM")
			<-p.done
		}
	})
	return p.err
}

// kill ends the process with SIGKILL, as a crash or the OOM killer
// would: nothing of it runs after, no deferred cleanup, no lease released.
func (p *process) kill() {
	p.once.Do(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
}

// log is the end of the process's output.
func (p *process) log() string {
	b, _ := os.ReadFile(p.out.Name())
	return tail(string(b), 60)
}

// waitReady waits until the api answers /readyz.
func (p *process) waitReady(t *testing.T, a liveAPI) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-p.done:
			t.Fatalf("%s exited: %v\n%s", p.name, err, p.log())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.URL+"/readyz", nil)
		res, err := a.Client.Do(req)
		if err == nil {
			res.Body.Close()
		}
		cancel()
		if err == nil && res.StatusCode == http.StatusOK {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s is not ready after 60 s:\n%s", p.name, p.log())
}

// createKeyWith runs plangraph keys create for org.
func createKeyWith(t *testing.T, bin, org string, common []string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, append([]string{"keys", "create", "--org", org}, common...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("plangraph keys create: %v\n%s", err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
