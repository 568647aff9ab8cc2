package bench

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// LoadOptions configures Load: `plangraph serve` started as a process of its
// own, driven by vegeta from this one.
type LoadOptions struct {
	Bin      string        // the plangraph binary to start
	Profile  string        // "embedded" (SQLite, in-process Redis) or "server" (PostgreSQL + Redis)
	AdminURL string        // PostgreSQL URL that may create and drop the benchmark's database (server profile)
	RedisURL string        // Redis for the server profile
	Projects int           // projects seeded (the page read is 100 of them)
	Rate     int           // requests per second offered to each target
	Duration time.Duration // measured time per target
	Warmup   time.Duration // unmeasured time per target before it
}

// LoadResult is one target's figures.
type LoadResult struct {
	Name       string
	Rate       int
	Requests   uint64
	Errors     int // non-200 answers, transport errors and GraphQL errors
	Throughput float64
	P50, P90   time.Duration
	P99, Max   time.Duration
}

func (r LoadResult) String() string {
	return fmt.Sprintf("%-26s %4d req/s offered  %6d req  %4d err  %7.1f req/s  p50 %6.2f ms  p90 %6.2f ms  p99 %6.2f ms  max %7.2f ms",
		r.Name, r.Rate, r.Requests, r.Errors, r.Throughput, ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max))
}

// LoadQueries are the two targets: the same page of 100 projects through REST
// and through GraphQL (no totalCount), so that their difference is the
// GraphQL layer's.
const loadGraphQL = `{ projects(first: 100) { edges { node { id name createdAt updatedAt } } pageInfo { hasNextPage endCursor } } }`

// Load starts the server, seeds projects and measures each target.
func Load(ctx context.Context, o LoadOptions) ([]LoadResult, error) {
	dir, err := os.MkdirTemp("", "plangraph-load-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dataDir := filepath.Join(dir, "data")
	args := []string{"serve", "--addr", "127.0.0.1:" + port, "--data-dir", dataDir, "--log-level", "error",
		// the limiter stays on the path (its Redis calls are measured) but does not refuse the offered load
		"--rate-management", fmt.Sprint(4 * o.Rate), "--burst-management", fmt.Sprint(4 * o.Rate)}
	switch o.Profile {
	case "embedded":
	case "server":
		dbURL, drop, err := createDatabase(ctx, o.AdminURL, fmt.Sprintf("plangraph_load_%d", time.Now().UnixNano()))
		if err != nil {
			return nil, err
		}
		defer drop()
		args = append(args, "--database-url", dbURL, "--redis-url", o.RedisURL)
	default:
		return nil, fmt.Errorf("profile %q: embedded or server", o.Profile)
	}
	srv := exec.CommandContext(ctx, o.Bin, args...)
	srv.Stdout, srv.Stderr = os.Stderr, os.Stderr
	if err := srv.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = srv.Process.Signal(os.Interrupt); _ = srv.Wait() }()
	base := "https://127.0.0.1:" + port
	caFile := filepath.Join(dataDir, "tls", "ca.pem")
	client, err := waitServing(ctx, base, caFile)
	if err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, o.Bin, append([]string{"keys", "create", "--org", "load", "--data-dir", dataDir}, keyArgs(args)...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("keys create: %w", err)
	}
	key := strings.TrimSpace(string(out))
	auth := http.Header{"Authorization": {"Bearer " + key}}
	for i := 0; i < o.Projects; i++ {
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/v1/projects", strings.NewReader(fmt.Sprintf(`{"name":"Load project %04d"}`, i)))
		req.Header = auth.Clone()
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		if resp.StatusCode != 201 {
			return nil, fmt.Errorf("seeding project %d: status %d", i, resp.StatusCode)
		}
	}
	gql, _ := json.Marshal(map[string]string{"query": loadGraphQL})
	gqlHeader := auth.Clone()
	gqlHeader.Set("Content-Type", "application/json")
	targets := []struct {
		name string
		t    vegeta.Target
	}{
		{"REST /v1/projects?limit=100", vegeta.Target{Method: "GET", URL: base + "/v1/projects?limit=100", Header: auth}},
		{"GraphQL projects(first:100)", vegeta.Target{Method: "POST", URL: base + "/graphql", Body: gql, Header: gqlHeader}},
	}
	tr := client.Transport.(*http.Transport)
	var results []LoadResult
	for _, t := range targets {
		// an attacker is spent by one attack: one for the warm-up, one measured
		attacker := func() *vegeta.Attacker {
			return vegeta.NewAttacker(vegeta.TLSConfig(tr.TLSClientConfig), vegeta.KeepAlive(true), vegeta.Timeout(30*time.Second),
				vegeta.Workers(32), vegeta.MaxWorkers(1024), vegeta.MaxBody(-1))
		}
		rate := vegeta.Rate{Freq: o.Rate, Per: time.Second}
		for range attacker().Attack(vegeta.NewStaticTargeter(t.t), rate, o.Warmup, t.name+" warm-up") {
		}
		var m vegeta.Metrics
		bad := 0
		for res := range attacker().Attack(vegeta.NewStaticTargeter(t.t), rate, o.Duration, t.name) {
			m.Add(res)
			if res.Code != 200 || res.Error != "" || !answered(res.Body) {
				bad++
			}
		}
		m.Close()
		results = append(results, LoadResult{Name: t.name, Rate: o.Rate, Requests: m.Requests, Errors: bad, Throughput: m.Throughput,
			P50: m.Latencies.P50, P90: m.Latencies.P90, P99: m.Latencies.P99, Max: m.Latencies.Max})
		if ctx.Err() != nil {
			return results, ctx.Err()
		}
	}
	return results, nil
}

// answered tells a full page: REST's data array or GraphQL's data without errors.
func answered(body []byte) bool {
	return !bytes.Contains(body, []byte(`"errors"`)) && bytes.Count(body, []byte(`"id"`)) >= 100
}

// keyArgs passes the database flags of the server's arguments to `keys create`.
func keyArgs(serveArgs []string) []string {
	var out []string
	for i := 0; i+1 < len(serveArgs); i++ {
		if serveArgs[i] == "--database-url" {
			out = append(out, serveArgs[i], serveArgs[i+1])
		}
	}
	return out
}

func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, err := net.SplitHostPort(ln.Addr().String())
	return port, err
}

// waitServing waits (up to 90 s) for the server's CA file and /readyz, and
// returns a client that trusts the CA.
func waitServing(ctx context.Context, base, caFile string) (*http.Client, error) {
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if pem, err := os.ReadFile(caFile); err == nil {
			pool := x509.NewCertPool()
			pool.AppendCertsFromPEM(pem)
			c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
			if resp, err := c.Get(base + "/readyz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					return c, nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("%s did not become ready in 90 s", base)
}
