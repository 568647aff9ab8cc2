// Package safefetch downloads images that API requests name by URL without
// letting a request reach what the server can reach and the client cannot
// (server-side request forgery):
//
//   - only https, and only hosts on the operator's allowlist (exact names,
//     or "*.example.com" for its subdomains; empty: nothing is fetched);
//   - the address actually dialled must be public: loopback, private,
//     link-local (cloud metadata), shared, multicast and reserved ranges are
//     refused even for an allowlisted name, and the check runs on the
//     resolved address at connect time, so DNS rebinding cannot slip past it;
//   - no proxy from the environment, at most 3 redirects and each to an
//     allowlisted https host, a 10 s time limit and a size cap.
package safefetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrNotAllowed is a URL the allowlist does not permit.
var ErrNotAllowed = errors.New("the URL's host is not on the image URL allowlist")

// ErrPrivateAddress is a host that resolves to a non-public address.
var ErrPrivateAddress = errors.New("the host resolves to a private or reserved address")

// Client fetches allowlisted URLs.
type Client struct {
	allow    []string
	maxBytes int64
	hc       *http.Client
	// allowPrivate lets tests fetch from loopback servers.
	allowPrivate bool
}

// New makes a client for the hosts of allowlist (comma or space
// separated host names, "*.example.com" for subdomains). maxBytes caps a
// response body.
func New(allowlist string, maxBytes int64) *Client {
	c := &Client{maxBytes: maxBytes}
	for _, h := range strings.FieldsFunc(allowlist, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
		if h = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(h), ".")); h != "" {
			c.allow = append(c.allow, h)
		}
	}
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: c.control}
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would dial for us, past the address check
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
	}
	c.hc = &http.Client{Transport: tr, Timeout: 10 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("too many redirects")
		}
		return c.Check(req.URL)
	}}
	return c
}

// Enabled reports whether any host is allowed.
func (c *Client) Enabled() bool { return c != nil && len(c.allow) > 0 }

// Check reports whether u may be fetched (https and an allowlisted host).
func (c *Client) Check(u *url.URL) error {
	if c == nil || u == nil {
		return ErrNotAllowed
	}
	if u.Scheme != "https" {
		return fmt.Errorf("only https URLs are fetched")
	}
	if u.User != nil {
		return fmt.Errorf("URLs with credentials are not fetched")
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	for _, a := range c.allow {
		if host == a || (strings.HasPrefix(a, "*.") && strings.HasSuffix(host, a[1:]) && len(host) > len(a)-1) {
			return nil
		}
	}
	return ErrNotAllowed
}

// control runs on every connection attempt with the resolved address.
func (c *Client) control(network, address string, rc syscall.RawConn) error {
	if c.allowPrivate {
		return nil
	}
	return Control(network, address, rc)
}

// Control is a net.Dialer Control function that refuses to connect to an
// address that is not Public. It sees the address actually dialled, after
// name resolution, so a name that resolves to a public address when checked
// and to a private one when used (DNS rebinding) is still refused. Other
// outbound requests made on behalf of clients (webhook deliveries) dial
// through it too.
func Control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w (%s)", ErrPrivateAddress, address)
	}
	if !Public(ap.Addr()) {
		return ErrPrivateAddress
	}
	return nil
}

// reserved are ranges that are not publicly routable beyond what netip's
// predicates cover.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"), // NAT64 maps IPv4 (possibly private) into IPv6
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("2002::/16"), // 6to4 embeds IPv4
	netip.MustParsePrefix("100::/64"),
	// IPv6 forms that carry an IPv4 address, which the IPv4 checks would
	// never see: IPv4-compatible (::a.b.c.d, deprecated), IPv4-mapped
	// (::ffff:a.b.c.d: a public host publishes its IPv4 address as an A
	// record, not in this form) and IPv4-translated (::ffff:0:a.b.c.d)
	netip.MustParsePrefix("::/96"),
	netip.MustParsePrefix("::ffff:0:0/96"),
	netip.MustParsePrefix("::ffff:0:0:0/96"),
	netip.MustParsePrefix("fec0::/10"), // site-local (deprecated, still routed inside some networks)
}

// Public reports whether a is a publicly routable unicast address. An
// IPv6 address that embeds an IPv4 one (::a.b.c.d, ::ffff:a.b.c.d,
// ::ffff:0:a.b.c.d) is not, whatever the IPv4 address.
func Public(a netip.Addr) bool {
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || !a.IsGlobalUnicast() {
		return false
	}
	for _, p := range reserved {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// Get fetches rawURL, returning its body (at most maxBytes) and content
// type.
func (c *Client) Get(ctx context.Context, rawURL string) ([]byte, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, "", err
	}
	if err := c.Check(u); err != nil {
		return nil, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Accept", "image/png, image/jpeg, image/tiff")
	res, err := c.hc.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("the server answered %s", res.Status)
	}
	if res.ContentLength > c.maxBytes {
		return nil, "", fmt.Errorf("the image is larger than %d bytes", c.maxBytes)
	}
	b, err := io.ReadAll(io.LimitReader(res.Body, c.maxBytes+1))
	if err != nil {
		return nil, "", err
	}
	if int64(len(b)) > c.maxBytes {
		return nil, "", fmt.Errorf("the image is larger than %d bytes", c.maxBytes)
	}
	return b, res.Header.Get("Content-Type"), nil
}
