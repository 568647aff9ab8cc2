// Package endpoint is what the optional model clients (internal/search/llm,
// internal/search/embed) share: one OpenAI-compatible HTTP API named by the
// operator — its base URL, model name and bearer token — and a JSON POST
// bounded in time and size that fails on any status but 200.
package endpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Endpoint is one API.
type Endpoint struct {
	// URL is the API's base (https://host/v1); paths are appended to it.
	URL   string
	Model string
	// Key, when set, is sent as a bearer token.
	Key string
	// Timeout bounds one request (0: the caller's default).
	Timeout time.Duration
	HTTP    *http.Client
}

// New is the endpoint at url, or nil when url is empty.
func New(url, model, key string) *Endpoint {
	if strings.TrimSpace(url) == "" {
		return nil
	}
	return &Endpoint{URL: strings.TrimRight(strings.TrimSpace(url), "/"), Model: model, Key: key, HTTP: &http.Client{}}
}

// Post sends body as JSON to URL+path within the endpoint's timeout (def
// when unset) and returns the response's body (at most limit bytes); name
// prefixes its errors.
func (e *Endpoint) Post(ctx context.Context, name, path string, body any, def time.Duration, limit int64) ([]byte, error) {
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = def
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL+path, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if e.Key != "" {
		req.Header.Set("Authorization", "Bearer "+e.Key)
	}
	res, err := e.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(io.LimitReader(res.Body, limit))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s: %.200s", name, res.Status, out)
	}
	return out, nil
}
