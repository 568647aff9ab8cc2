package webhooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
)

// The example of the Standard Webhooks specification (and of its
// reference libraries' tests).
func TestSignMatchesTheStandardWebhooksExample(t *testing.T) {
	got, err := Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
	if _, err := Sign("whsec_not base64!", "m", time.Now(), nil); err == nil {
		t.Error("a malformed secret signed")
	}
}

func TestSignaturesDuringRotation(t *testing.T) {
	now := time.Now()
	ep := &ent.WebhookEndpoint{Secret: NewSecret(), PreviousSecret: NewSecret()}
	body := []byte(`{"id":"evt_1"}`)
	cur, _ := Sign(ep.Secret, "evt_1", now, body)
	prev, _ := Sign(ep.PreviousSecret, "evt_1", now, body)
	for name, c := range map[string]struct {
		expires *time.Time
		want    string
	}{
		"no overlap":   {nil, cur},
		"overlap":      {new(now.Add(time.Hour)), cur + " " + prev},
		"overlap over": {new(now.Add(-time.Second)), cur},
	} {
		ep.PreviousSecretExpiresAt = c.expires
		got, err := Signatures(ep, "evt_1", now, body)
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, c.want)
		}
	}
	if s := NewSecret(); !strings.HasPrefix(s, "whsec_") || len(s) != len("whsec_")+44 || s == NewSecret() {
		t.Errorf("NewSecret %q", s)
	}
}

func TestDefaultScheduleKeepsTryingForADay(t *testing.T) {
	for _, base := range []time.Duration{0, time.Second, 30 * time.Second, 5 * time.Minute} {
		s := DefaultSchedule(base)
		n := s.Attempts()
		if s.MinSpan() < 24*time.Hour {
			t.Errorf("base %s: %d attempts span at least %s, want 24h", base, n, s.MinSpan())
		}
		// one attempt fewer would not be enough: the count is the least
		var short time.Duration
		for i := 1; i < n-1; i++ {
			short += s.MinDelay(i)
		}
		if short >= 24*time.Hour {
			t.Errorf("base %s: %d attempts, but %d already span %s", base, n, n-1, short)
		}
		if n > 80 {
			t.Errorf("base %s: %d attempts", base, n)
		}
		prevCeil := time.Duration(0)
		for i := 1; i < n; i++ {
			c := s.ceiling(i)
			if c > time.Hour || c < prevCeil {
				t.Fatalf("base %s: ceiling %d is %s after %s", base, i, c, prevCeil)
			}
			prevCeil = c
			for range 20 {
				if d := s.Delay(i); d < c/2 || d > c {
					t.Fatalf("base %s: delay %d is %s, outside [%s, %s]", base, i, d, c/2, c)
				}
			}
		}
	}
	s := DefaultSchedule(0)
	if s.Base != 30*time.Second || s.ceiling(1) != 30*time.Second || s.ceiling(2) != time.Minute || s.ceiling(20) != time.Hour {
		t.Errorf("default schedule %+v: ceilings %s %s %s", s, s.ceiling(1), s.ceiling(2), s.ceiling(20))
	}
	// below the cap, the retry after attempt n+1 is never shorter than the
	// one after n
	for i := 1; s.ceiling(i+1) < time.Hour; i++ {
		if s.MinDelay(i+1) < s.ceiling(i) {
			t.Errorf("delays %d and %d overlap", i, i+1)
		}
	}
}

func TestEventFilters(t *testing.T) {
	bad := apierr.Fields{}
	got := CheckEvents([]string{"parse.completed", "drawing.*", "parse.completed"}, bad)
	if len(bad) != 0 || strings.Join(got, ",") != "parse.completed,drawing.*" {
		t.Errorf("CheckEvents: %v %v", got, bad)
	}
	for _, e := range []string{"parse.done", "*", "parse.", "parse.child.*", "Parse.completed", ""} {
		bad := apierr.Fields{}
		CheckEvents([]string{e}, bad)
		if len(bad["events"]) != 1 {
			t.Errorf("%q accepted: %v", e, bad)
		}
	}
	bad = apierr.Fields{}
	CheckEvents(make([]string, MaxEventFilters+1), bad)
	if len(bad["events"]) != 1 {
		t.Errorf("too many filters: %v", bad)
	}
	for _, c := range []struct {
		filter []string
		typ    string
		want   bool
	}{
		{nil, "parse.completed", true},
		{[]string{}, "sheet.child.completed", true},
		{[]string{"parse.completed"}, "parse.completed", true},
		{[]string{"parse.completed"}, "parse.failed", false},
		{[]string{"parse.*"}, "parse.block.completed", true},
		{[]string{"parse.*"}, "parsex.completed", false},
		{[]string{"drawing.*", "parse.failed"}, "parse.failed", true},
		{[]string{"drawing.*"}, "parse.completed", false},
	} {
		if got := Matches(c.filter, c.typ); got != c.want {
			t.Errorf("Matches(%v, %s) = %v", c.filter, c.typ, got)
		}
	}
	for _, typ := range EventTypes() {
		if !Matches([]string{typ[:strings.IndexByte(typ, '.')] + ".*"}, typ) {
			t.Errorf("no pattern selects %s", typ)
		}
	}
}

func TestURLPolicy(t *testing.T) {
	dns := map[string][]netip.Addr{
		"hooks.example.com":  {netip.MustParseAddr("93.184.215.14")},
		"rebind.example.com": {netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("10.0.0.7")},
		"meta.example.com":   {netip.MustParseAddr("169.254.169.254")},
	}
	p := URLPolicy{Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
		if a, ok := dns[host]; ok {
			return a, nil
		}
		return nil, errors.New("no such host")
	}}
	for raw, ok := range map[string]bool{
		"https://hooks.example.com/plangraph":  true,
		"https://hooks.example.com:8443/a?b=c": true,
		"https://93.184.215.14/x":              true,
		"https://[2606:4700:4700::1111]/x":     true,
		"http://hooks.example.com/x":           false,
		"https://user:pw@hooks.example.com/x":  false,
		"https://hooks.example.com/x#frag":     false,
		"https://rebind.example.com/x":         false,
		"https://meta.example.com/latest":      false,
		"https://127.0.0.1/x":                  false,
		"https://10.1.2.3/x":                   false,
		"https://[::1]/x":                      false,
		"https://[::ffff:192.168.1.1]/x":       false,
		"https://0.0.0.0/x":                    false,
		"https://unknown.example.com/x":        false,
		"hooks.example.com/x":                  false,
		"https:///x":                           false,
		"":                                     false,
		"https://hooks.example.com/" + strings.Repeat("a", MaxURLLength): false,
	} {
		bad := apierr.Fields{}
		p.Check(context.Background(), raw, bad)
		if (len(bad) == 0) != ok {
			t.Errorf("%q: %v, want accepted=%v", raw, bad, ok)
		}
	}
	// the operator's flag lets private addresses in, and nothing else
	open := URLPolicy{AllowPrivate: true}
	for raw, ok := range map[string]bool{"https://127.0.0.1:9/x": true, "https://localhost/x": true, "http://127.0.0.1/x": false} {
		bad := apierr.Fields{}
		open.Check(context.Background(), raw, bad)
		if (len(bad) == 0) != ok {
			t.Errorf("allowing private: %q: %v, want accepted=%v", raw, bad, ok)
		}
	}
}

// Without the operator's flag the dialler refuses private addresses
// whatever the URL check said (a name may resolve differently by then).
func TestSendRefusesPrivateAddressesAtConnectTime(t *testing.T) {
	hits := 0
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer srv.Close()
	hc, err := newHTTPClient(false, "", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ep := &ent.WebhookEndpoint{URL: strings.Replace(srv.URL, "127.0.0.1", "localhost", 1), Secret: NewSecret()}
	o := send(context.Background(), hc, 2*time.Second, ep, "evt_1", []byte(`{}`))
	if o.ok() || !strings.Contains(o.err, "private") || o.status != 0 || hits != 0 {
		t.Fatalf("sent to a loopback address: %+v, %d hits", o, hits)
	}
}

func TestSendOutcomes(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/fail", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, strings.Repeat("broken ", 2000), http.StatusBadGateway)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the server notices a client gone only once the body is read
		<-r.Context().Done()
	})
	srv := httptest.NewTLSServer(mux)
	defer srv.Close()
	hc, err := newHTTPClient(true, "", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	hc.Transport.(*http.Transport).TLSClientConfig.RootCAs = srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	for path, want := range map[string]struct {
		status int
		err    string
	}{
		"/ok":    {204, ""},
		"/fail":  {502, "the endpoint answered 502 Bad Gateway: broken broken"},
		"/moved": {302, "the endpoint answered 302 Found; redirects are not followed (Location: /ok)"},
		"/slow":  {0, "no answer within 1s"},
	} {
		ep := &ent.WebhookEndpoint{URL: srv.URL + path, Secret: NewSecret()}
		o := send(context.Background(), hc, time.Second, ep, "evt_1", []byte(`{}`))
		if o.status != want.status || !strings.HasPrefix(o.err, want.err) || (want.err == "") != o.ok() || len(o.err) > 1000 {
			t.Errorf("%s: %+v, want %+v", path, o, want)
		}
	}
}

// testRedis is a miniredis and a client of it.
func testRedis(t *testing.T) (*miniredis.Miniredis, *redis.Client) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	return m, rdb
}

func TestSlotsBoundAnEndpoint(t *testing.T) {
	_, rdb := testRedis(t)
	s := slots{rdb: rdb, perEndpoint: 2, perOrg: 10, ttl: time.Minute}
	ctx := context.Background()
	r1, ok1 := s.acquire(ctx, "org_1", "whe_a")
	r2, ok2 := s.acquire(ctx, "org_1", "whe_a")
	_, ok3 := s.acquire(ctx, "org_1", "whe_a")
	rb, okb := s.acquire(ctx, "org_1", "whe_b")
	if !ok1 || !ok2 || ok3 || !okb {
		t.Fatalf("acquire: %v %v %v %v", ok1, ok2, ok3, okb)
	}
	r1()
	r4, ok4 := s.acquire(ctx, "org_1", "whe_a")
	if !ok4 {
		t.Fatal("a released slot was not free")
	}
	r2()
	r4()
	rb()
	// a token of a worker that died lapses by itself
	short := slots{rdb: rdb, perEndpoint: 1, perOrg: 10, ttl: time.Second}
	if _, ok := short.acquire(ctx, "org_1", "whe_c"); !ok {
		t.Fatal("first slot")
	}
	if _, ok := short.acquire(ctx, "org_1", "whe_c"); ok {
		t.Fatal("second slot while the first is held")
	}
	time.Sleep(1100 * time.Millisecond)
	if _, ok := short.acquire(ctx, "org_1", "whe_c"); !ok {
		t.Fatal("the lapsed slot was not freed")
	}
}

// An organization's endpoints together hold at most perOrg slots, however
// many endpoints it has; another organization's endpoints still get theirs,
// and a refusal for the organization leaves the endpoint's slot free.
func TestSlotsBoundAnOrganization(t *testing.T) {
	m, rdb := testRedis(t)
	s := slots{rdb: rdb, perEndpoint: 2, perOrg: 3, ttl: time.Minute}
	ctx := context.Background()
	var held []func()
	for i := range 3 {
		r, ok := s.acquire(ctx, "org_flood", fmt.Sprintf("whe_f%d", i))
		if !ok {
			t.Fatalf("slot %d of the organization refused", i)
		}
		held = append(held, r)
	}
	if _, ok := s.acquire(ctx, "org_flood", "whe_f9"); ok {
		t.Fatal("a fourth endpoint of the organization got a slot past its limit of 3")
	}
	if n := m.Exists("plangraph:webhooks:inflight:whe_f9"); n {
		members, _ := m.ZMembers("plangraph:webhooks:inflight:whe_f9")
		if len(members) != 0 {
			t.Fatalf("the refused attempt kept its endpoint's slot: %v", members)
		}
	}
	r, ok := s.acquire(ctx, "org_other", "whe_o")
	if !ok {
		t.Fatal("another organization was refused while the first held its slots")
	}
	r()
	held[0]()
	if _, ok := s.acquire(ctx, "org_flood", "whe_f9"); !ok {
		t.Fatal("a released slot of the organization was not free")
	}
}

// The system resolver answers A records as IPv4-mapped addresses, a form
// safefetch.Public refuses as a literal: the policy checks them as IPv4.
func TestURLPolicyResolverAnswersAsIPv4(t *testing.T) {
	addrs, err := URLPolicy{}.lookup(context.Background(), "localhost")
	if err != nil || len(addrs) == 0 {
		t.Skipf("localhost does not resolve here: %v", err)
	}
	for _, a := range addrs {
		if a.Is4In6() {
			t.Errorf("localhost resolved to %s: the IPv4-mapped form is passed on", a)
		}
	}
}
