// Package embed turns texts into semantic vectors with an operator's
// embeddings model: an OpenAI-compatible endpoint (POST {url}/embeddings
// with {"model", "input": [texts]}), off unless configured
// (--embeddings-url, --embeddings-model). Nothing is downloaded: without
// an endpoint search is lexical, vocabulary and structure only.
package embed

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/search/endpoint"
)

// Limits of one request.
const (
	// Batch is the most texts sent in one request.
	Batch = 64
	// MaxText is the longest text sent, in bytes (longer ones are cut at a
	// word): index rows are a title, a legend entry or a line of notes.
	MaxText = 2000
	// MaxDims bounds a vector's length (the largest public models have 4096).
	MaxDims = 8192
)

// Client calls one embeddings endpoint.
type Client struct{ *endpoint.Endpoint }

// New is a client of the endpoint at url, or nil when url is empty.
func New(url, model, key string) *Client {
	if e := endpoint.New(url, model, key); e != nil {
		return &Client{e}
	}
	return nil
}

// Name identifies the vectors a client makes (its model at its endpoint):
// vectors of another name are never compared with its own.
func (c *Client) Name() string {
	if c.Model == "" {
		return c.URL
	}
	return c.Model + "@" + c.URL
}

// Embed returns one unit-length vector per text, in order (at most Batch
// texts). Every vector has the same length; a zero vector is an error.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	if len(texts) > Batch {
		return nil, fmt.Errorf("embeddings: %d texts in one request (at most %d)", len(texts), Batch)
	}
	in := make([]string, len(texts))
	for i, t := range texts {
		in[i] = Clip(t)
	}
	data, err := c.Post(ctx, "embeddings", "/embeddings", map[string]any{"model": c.Model, "input": in}, 30*time.Second, 64<<20)
	if err != nil {
		return nil, err
	}
	var out struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("embeddings: not an embeddings response: %.200s", data)
	}
	if len(out.Data) != len(texts) {
		return nil, fmt.Errorf("embeddings: %d vectors for %d texts", len(out.Data), len(texts))
	}
	vecs := make([][]float32, len(texts))
	dims := len(out.Data[0].Embedding)
	for _, d := range out.Data {
		if d.Index < 0 || d.Index >= len(texts) || vecs[d.Index] != nil {
			return nil, fmt.Errorf("embeddings: a vector with index %d", d.Index)
		}
		if len(d.Embedding) != dims || dims == 0 || dims > MaxDims {
			return nil, fmt.Errorf("embeddings: vectors of %d and %d dimensions (1–%d expected, all alike)", dims, len(d.Embedding), MaxDims)
		}
		v, ok := unit(d.Embedding)
		if !ok {
			return nil, errors.New("embeddings: a zero or non-finite vector")
		}
		vecs[d.Index] = v
	}
	return vecs, nil
}

// Clip cuts a text to MaxText bytes at a word (whole UTF-8 characters).
func Clip(t string) string {
	t = strings.TrimSpace(t)
	if len(t) <= MaxText {
		return t
	}
	cut := t[:MaxText]
	for len(cut) > 0 && !isBoundary(t, len(cut)) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndexByte(cut, ' '); i > MaxText/2 {
		cut = cut[:i]
	}
	return cut
}

func isBoundary(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }

func unit(v []float64) ([]float32, bool) {
	var n float64
	for _, x := range v {
		n += x * x
	}
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return nil, false
	}
	n = math.Sqrt(n)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x / n)
	}
	return out, true
}

// Encode packs a vector as little-endian float32s (how the index stores it).
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Dot is the dot product of a unit vector and an encoded one of the same
// length (their cosine); ok is false when the lengths differ.
func Dot(q []float32, enc []byte) (float64, bool) {
	if len(enc) != 4*len(q) {
		return 0, false
	}
	var s float32
	for i, x := range q {
		s += x * math.Float32frombits(binary.LittleEndian.Uint32(enc[4*i:]))
	}
	return float64(s), true
}
