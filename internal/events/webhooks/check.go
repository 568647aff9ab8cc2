package webhooks

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/safefetch"
	"github.com/plangraph/plangraph/jobs"
)

// Limits of an endpoint's fields.
const (
	MaxURLLength         = 2048
	MaxDescriptionLength = 500
	MaxEventFilters      = 50
)

// EventTypes are the types an endpoint may ask for (jobs.EventTypes).
func EventTypes() []string { return jobs.EventTypes() }

// EventPatterns are the "kind.*" filters, one per kind of event type
// (parse.* is every parse.… type).
func EventPatterns() []string {
	var out []string
	for _, t := range EventTypes() {
		p := t[:strings.IndexByte(t, '.')] + ".*"
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Matches reports whether an endpoint with filter wants events of type
// typ: an empty filter wants every type; an entry is a type or a kind.*
// pattern.
func Matches(filter []string, typ string) bool {
	if len(filter) == 0 {
		return true
	}
	for _, f := range filter {
		if f == typ || (strings.HasSuffix(f, ".*") && strings.HasPrefix(typ, f[:len(f)-1])) {
			return true
		}
	}
	return false
}

// CheckEvents validates an events filter, adding messages to bad under
// "events", and returns it without repeats (never nil: empty means every
// type).
func CheckEvents(events []string, bad apierr.Fields) []string {
	out := []string{}
	if len(events) > MaxEventFilters {
		bad.Add("events", fmt.Sprintf("must have at most %d entries", MaxEventFilters))
		return out
	}
	types, patterns := EventTypes(), EventPatterns()
	for i, e := range events {
		if !slices.Contains(types, e) && !slices.Contains(patterns, e) {
			bad.Add("events", fmt.Sprintf("[%d] %q is not an event type; use one of %s, or a pattern %s",
				i, e, strings.Join(types, ", "), strings.Join(patterns, ", ")))
			continue
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// CheckDescription validates a description under "description".
func CheckDescription(d string, bad apierr.Fields) {
	if !utf8.ValidString(d) || utf8.RuneCountInString(d) > MaxDescriptionLength {
		bad.Add("description", fmt.Sprintf("must be at most %d characters of UTF-8", MaxDescriptionLength))
	}
}

// URLPolicy decides which endpoint URLs are accepted.
type URLPolicy struct {
	// AllowPrivate accepts hosts on private, loopback and link-local
	// addresses (the operator's --webhook-allow-private-urls).
	AllowPrivate bool
	// Resolve looks a host name up; nil uses the system resolver.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
}

// Check validates raw as an endpoint URL, adding messages to bad under
// "url". Unless private addresses are allowed, every
// address the host resolves to must be public; the delivery dialler checks
// the address it connects to again (DNS answers may change).
func (p URLPolicy) Check(ctx context.Context, raw string, bad apierr.Fields) {
	if msg := p.problem(ctx, raw); msg != "" {
		bad.Add("url", msg)
	}
}

func (p URLPolicy) problem(ctx context.Context, raw string) string {
	if raw == "" {
		return "is required"
	}
	if len(raw) > MaxURLLength {
		return fmt.Sprintf("must be at most %d characters", MaxURLLength)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || !u.IsAbs() || u.Opaque != "":
		return "must be an absolute https URL"
	case u.Scheme != "https":
		return "must be an https URL"
	case u.User != nil:
		return "must not contain a user name or password"
	case u.Hostname() == "":
		return "must name a host"
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return "must not have a fragment"
	}
	if p.AllowPrivate {
		return ""
	}
	host := u.Hostname()
	addrs, err := p.lookup(ctx, host)
	if err != nil || len(addrs) == 0 {
		return fmt.Sprintf("the host %q could not be resolved", host)
	}
	for _, a := range addrs {
		if !safefetch.Public(a) {
			return fmt.Sprintf("the host %q resolves to %s, a private, loopback, link-local or reserved address; webhooks are sent to public addresses only", host, a.Unmap())
		}
	}
	return ""
}

func (p URLPolicy) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if p.Resolve != nil {
		return p.Resolve(ctx, host)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	for i, a := range addrs {
		// the resolver hands A records back in the IPv4-mapped form, which
		// safefetch.Public refuses as an address literal
		addrs[i] = a.Unmap()
	}
	return addrs, err
}
