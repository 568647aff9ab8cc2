package safefetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "1.1.1.1": true, "2606:4700:4700::1111": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false, "255.255.255.255": false,
		"224.0.0.1": false, "::1": false, "fe80::1": false, "fc00::1": false, "fd12::1": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "64:ff9b::a00:1": false, "::": false,
		"198.18.0.1": false, "240.0.0.1": false,
		// IPv6 forms embedding IPv4, public or not, and site-local
		"::8.8.8.8": false, "::127.0.0.1": false, "::ffff:8.8.8.8": false, "::ffff:0:8.8.8.8": false,
		"::ffff:0:10.0.0.1": false, "fec0::1": false, "feff::1": false,
	} {
		if got := Public(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Public(%s) = %v, want %v", addr, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	c := New("images.example.com, *.cdn.example.net", 1<<20)
	for raw, ok := range map[string]bool{
		"https://images.example.com/a.png":      true,
		"https://IMAGES.example.com./a.png":     true,
		"https://x.cdn.example.net/a.png":       true,
		"https://a.b.cdn.example.net/a.png":     true,
		"https://cdn.example.net/a.png":         false,
		"https://evilcdn.example.net/a.png":     false,
		"http://images.example.com/a.png":       false,
		"https://user:pw@images.example.com/a":  false,
		"https://images.example.com.evil.io/a":  false,
		"https://other.example.com/a.png":       false,
		"ftp://images.example.com/a.png":        false,
		"https://images.example.com:8443/a.png": true,
	} {
		u, _ := url.Parse(raw)
		if err := c.Check(u); (err == nil) != ok {
			t.Errorf("Check(%s) = %v, want allowed=%v", raw, err, ok)
		}
	}
	if New("", 1).Enabled() {
		t.Error("an empty allowlist is enabled")
	}
	var nilClient *Client
	if nilClient.Enabled() || nilClient.Check(&url.URL{Scheme: "https", Host: "x"}) == nil {
		t.Error("a nil client allows fetching")
	}
}

func TestGetRefusesPrivateAddressesEvenWhenAllowed(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("png")) }))
	defer srv.Close()
	c := New("127.0.0.1", 1<<20)
	trust(c, srv)
	_, _, err := c.Get(context.Background(), srv.URL+"/a.png")
	if !errors.Is(err, ErrPrivateAddress) {
		t.Fatalf("fetching a loopback server: %v, want ErrPrivateAddress", err)
	}
}

func TestGet(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/a.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte("png bytes"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(strings.Repeat("x", 100))) })
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example.org/a.png", http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	srv := httptest.NewTLSServer(mux)
	defer srv.Close()
	c := New("127.0.0.1", 50)
	c.allowPrivate = true
	trust(c, srv)
	ctx := context.Background()
	b, ct, err := c.Get(ctx, srv.URL+"/a.png")
	if err != nil || string(b) != "png bytes" || ct != "image/png" {
		t.Fatalf("Get = %q, %q, %v", b, ct, err)
	}
	for _, path := range []string{"/big", "/gone", "/away", "/loop"} {
		if _, _, err := c.Get(ctx, srv.URL+path); err == nil {
			t.Errorf("Get %s succeeded", path)
		}
	}
}

func trust(c *Client, srv *httptest.Server) {
	c.hc.Transport.(*http.Transport).TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
}
