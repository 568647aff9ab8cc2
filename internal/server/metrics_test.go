package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/testenv"
)

// Methods a client makes up share one label, so they cannot grow the
// series without bound.
func TestMetricsMethodLabels(t *testing.T) {
	p := testenv.Profiles(t)[0]
	s := testenv.StartServer(t, p.Config)
	for _, m := range []string{"FOOBAR", "BAZ1", "QUUX2", "get"} {
		s.Do(t, testenv.Request{Method: m, Path: "/v1/projects"})
		s.Do(t, testenv.Request{Method: m, Path: "/metrics"})
	}
	body := string(s.Get(t, "", "/metrics").ExpectStatus(t, http.StatusOK).Body)
	for _, bad := range []string{"FOOBAR", "BAZ1", "QUUX2", `method="get"`} {
		if strings.Contains(body, bad) {
			t.Errorf("metrics carry the made-up method %s", bad)
		}
	}
	if !strings.Contains(body, `method="OTHER"`) {
		t.Errorf("metrics lack method=\"OTHER\"")
	}
}

// --metrics-token protects /metrics; --metrics-addr moves it off the API
// port.
func TestMetricsProtection(t *testing.T) {
	p := testenv.Profiles(t)[0]
	t.Run("token", func(t *testing.T) {
		cfg := p.Config
		cfg.MetricsToken = "m3trics-s3cret"
		s := testenv.StartServer(t, cfg)
		res := s.Get(t, "", "/metrics")
		if res.Status != http.StatusUnauthorized || strings.Contains(string(res.Body), "plangraph_http_requests_total") {
			t.Errorf("no token: %d %.200s", res.Status, res.Body)
		}
		res = s.Do(t, testenv.Request{Method: http.MethodGet, Path: "/metrics", Header: http.Header{"Authorization": {"Bearer wrong"}}})
		if res.Status != http.StatusUnauthorized {
			t.Errorf("wrong token: %d", res.Status)
		}
		res = s.Do(t, testenv.Request{Method: http.MethodGet, Path: "/metrics", Header: http.Header{"Authorization": {"Bearer m3trics-s3cret"}}})
		if res.Status != http.StatusOK || !strings.Contains(string(res.Body), "plangraph_http_requests_total") {
			t.Errorf("with the token: %d %.200s", res.Status, res.Body)
		}
	})
	t.Run("addr", func(t *testing.T) {
		cfg := p.Config
		cfg.MetricsAddr = "127.0.0.1:0"
		cfg.MetricsToken = "tok"
		s := testenv.StartServer(t, cfg)
		if res := s.Do(t, testenv.Request{Method: http.MethodGet, Path: "/metrics", Header: http.Header{"Authorization": {"Bearer tok"}}}); strings.Contains(string(res.Body), "plangraph_http_requests_total") {
			t.Errorf("the API port still serves the metrics (%d)", res.Status)
		}
		addr := s.App.MetricsAddr()
		if addr == "" {
			t.Fatal("no metrics listener")
		}
		get := func(token string) (int, string) {
			req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/metrics", nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		if st, _ := get(""); st != http.StatusUnauthorized {
			t.Errorf("metrics address without the token: %d", st)
		}
		if st, body := get("tok"); st != http.StatusOK || !strings.Contains(body, "plangraph_http_requests_total") {
			t.Errorf("metrics address: %d %.200s", st, body)
		}
	})
}
