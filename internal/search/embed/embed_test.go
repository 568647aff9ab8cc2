package embed

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

func serve(t *testing.T, reply func(in []string) any, status int) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer k" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "m" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if status != 0 {
			w.WriteHeader(status)
			return
		}
		_ = json.NewEncoder(w).Encode(reply(req.Input))
	}))
	t.Cleanup(srv.Close)
	return New(srv.URL+"/v1/", "m", "k")
}

type item struct {
	Index     int       `json:"index"`
	Embedding []float64 `json:"embedding"`
}

func TestEmbed(t *testing.T) {
	ctx := context.Background()
	// answered out of order: vectors come back in the texts' order, unit length
	c := serve(t, func(in []string) any {
		var d []item
		for i := len(in) - 1; i >= 0; i-- {
			d = append(d, item{i, []float64{float64(len(in[i])), 0, 3}})
		}
		return map[string]any{"data": d}
	}, 0)
	vs, err := c.Embed(ctx, []string{"a", "abcd"})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(float64(vs[0][0])-1/math.Sqrt(10)) > 1e-6 || math.Abs(float64(vs[1][0])-0.8) > 1e-6 {
		t.Errorf("vectors %v", vs)
	}
	if d, ok := Dot(vs[1], Encode(vs[1])); !ok || math.Abs(d-1) > 1e-6 {
		t.Errorf("a unit vector's cosine with itself: %v %v", d, ok)
	}
	if _, ok := Dot(vs[1], Encode(vs[1][:2])); ok {
		t.Error("vectors of different lengths compared")
	}
	if _, err := c.Embed(ctx, make([]string, Batch+1)); err == nil {
		t.Error("an over-long batch was sent")
	}
	for name, reply := range map[string]func([]string) any{
		"too few":    func([]string) any { return map[string]any{"data": []item{{0, []float64{1}}}} },
		"dims":       func([]string) any { return map[string]any{"data": []item{{0, []float64{1}}, {1, []float64{1, 2}}}} },
		"zero":       func([]string) any { return map[string]any{"data": []item{{0, []float64{0}}, {1, []float64{1}}}} },
		"same index": func([]string) any { return map[string]any{"data": []item{{0, []float64{1}}, {0, []float64{1}}}} },
		"not json":   func([]string) any { return "nope" },
	} {
		if _, err := serve(t, reply, 0).Embed(ctx, []string{"a", "b"}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := serve(t, nil, http.StatusTooManyRequests).Embed(ctx, []string{"a"}); err == nil || !strings.Contains(err.Error(), "429") {
		t.Errorf("a refusal: %v", err)
	}
	if New(" ", "m", "") != nil {
		t.Error("a client without a URL")
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("wörd ", MaxText)
	c := Clip(long)
	if len(c) > MaxText || len(c) < MaxText/2 || !utf8.ValidString(c) || strings.HasSuffix(c, " ") {
		t.Errorf("clipped to %d bytes, valid %v", len(c), utf8.ValidString(c))
	}
	if Clip("  short ") != "short" {
		t.Error("short text changed")
	}
}
