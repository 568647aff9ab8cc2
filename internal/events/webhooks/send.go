package webhooks

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/safefetch"
)

// UserAgent is sent with every delivery.
const UserAgent = "plangraph-webhooks/1.0"

// maxResponseBytes is how much of a receiver's answer is read (and a
// little of it kept in the delivery log).
const maxResponseBytes = 4 << 10

// Body is the delivery body of e: its envelope as JSON, built from the
// stored row only (times in UTC), so it is the same bytes every time.
func Body(e *ent.Event) ([]byte, error) {
	env := events.EnvelopeOf(e)
	env.CreatedAt = env.CreatedAt.UTC()
	return json.Marshal(env)
}

// newHTTPClient makes the client deliveries are sent with: no proxy (it
// would dial for us, past the address check), connections only to public
// addresses unless allowPrivate, redirects not followed (a 3xx is a failed
// attempt), the system's CAs plus those in caFile.
func newHTTPClient(allowPrivate bool, caFile string, timeout time.Duration) (*http.Client, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("webhook CA file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("webhook CA file %s holds no PEM certificate", caFile)
		}
		tc.RootCAs = pool
	}
	dialer := &net.Dialer{Timeout: min(timeout, 10*time.Second), KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = safefetch.Control
	}
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         dialer.DialContext,
		TLSClientConfig:     tc,
		TLSHandshakeTimeout: min(timeout, 10*time.Second),
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        100,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
	}
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}, nil
}

// outcome is what one attempt came to.
type outcome struct {
	status  int // HTTP status; 0 when there was no answer
	err     string
	latency time.Duration
}

func (o outcome) ok() bool { return o.err == "" }

// send POSTs body to ep as message msgID, signed at the moment of sending,
// within timeout.
func send(ctx context.Context, hc *http.Client, timeout time.Duration, ep *ent.WebhookEndpoint, msgID string, body []byte) outcome {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	now := time.Now()
	sig, err := Signatures(ep, msgID, now, body)
	if err != nil {
		return outcome{err: err.Error()}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return outcome{err: "the URL cannot be requested: " + err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("webhook-id", msgID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	res, err := hc.Do(req)
	if err != nil {
		return outcome{err: transportError(ctx, err, timeout), latency: time.Since(now)}
	}
	defer res.Body.Close()
	// a 2xx whose body does not arrive in time still counts: the receiver
	// has accepted the event
	answer, _ := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes))
	o := outcome{status: res.StatusCode, latency: time.Since(now)}
	switch {
	case res.StatusCode >= 300 && res.StatusCode < 400:
		o.err = fmt.Sprintf("the endpoint answered %s; redirects are not followed", res.Status)
		if loc := res.Header.Get("Location"); loc != "" {
			o.err += " (Location: " + clip(loc, 200) + ")"
		}
	case res.StatusCode < 200 || res.StatusCode >= 300:
		o.err = "the endpoint answered " + res.Status
		if s := clip(strings.TrimSpace(string(answer)), 300); s != "" {
			o.err += ": " + s
		}
	}
	return o
}

// transportError says why no answer came, without the URL (the log
// belongs to the endpoint, whose URL is known).
func transportError(ctx context.Context, err error, timeout time.Duration) string {
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Sprintf("no answer within %s", timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, safefetch.ErrPrivateAddress) {
		return "refused: the host resolves to a private, loopback, link-local or reserved address"
	}
	return clip(err.Error(), 500)
}

// clip shortens s to at most n bytes of valid UTF-8.
func clip(s string, n int) string {
	if len(s) > n {
		s = s[:n]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return strings.ToValidUTF8(s, "�")
}
