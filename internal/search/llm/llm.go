// Package llm words answers with an operator's language model: an
// OpenAI-compatible chat completions endpoint (POST {url}/chat/completions),
// off unless configured (--llm-url, --llm-model). The model is given the
// question and numbered passages retrieved from the drawings, told to answer
// from them only and to cite one after every sentence as [n]; an answer
// with a sentence that cites nothing, or cites a passage it was not given,
// is refused, so nothing reaches a user without a source.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/search/endpoint"
)

// Client calls one chat completions endpoint (its URL is the API's base,
// https://host/v1: requests go to URL/chat/completions).
type Client struct{ *endpoint.Endpoint }

// New is a client of the endpoint at url, or nil when url is empty.
func New(url, model, key string) *Client {
	if e := endpoint.New(url, model, key); e != nil {
		return &Client{e}
	}
	return nil
}

// Passage is a retrieved source the model may cite, as [n] with n its
// 1-based place in the list.
type Passage struct {
	Where string // sheet and what it is ("A101, block FLOOR PLAN")
	Text  string
}

// ErrUncited is returned for an answer with a sentence that cites no given
// passage.
var ErrUncited = errors.New("llm: the model's answer has a sentence without a citation of a given source")

const system = "You answer questions about a set of construction drawings. Use only the numbered sources given; " +
	"do not use anything else you know. After every sentence cite the source it comes from as [n] (several as [1][2]). " +
	"Keep numbers, sheet numbers and names exactly as the sources give them. If the sources do not answer the " +
	"question, say \"The drawings do not say.\" and cite the closest source. Answer in at most three sentences."

// Prompt is the user message: the question and the numbered sources.
func Prompt(question string, ps []Passage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\nSources:\n", question)
	for i, p := range ps {
		fmt.Fprintf(&b, "[%d] %s: %s\n", i+1, p.Where, p.Text)
	}
	return b.String()
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Answer asks the model and returns its answer and the passages it cites
// (0-based, in first-cited order). Every sentence must cite a given passage
// (ErrUncited otherwise).
func (c *Client) Answer(ctx context.Context, question string, ps []Passage) (string, []int, error) {
	if len(ps) == 0 {
		return "", nil, errors.New("llm: no sources to answer from")
	}
	data, err := c.Post(ctx, "llm", "/chat/completions", map[string]any{
		"model":       c.Model,
		"temperature": 0,
		"messages":    []message{{"system", system}, {"user", Prompt(question, ps)}},
	}, 20*time.Second, 1<<20)
	if err != nil {
		return "", nil, err
	}
	var out struct {
		Choices []struct {
			Message message `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.Choices) == 0 {
		return "", nil, fmt.Errorf("llm: not a chat completion: %.200s", data)
	}
	text := strings.TrimSpace(out.Choices[0].Message.Content)
	cited, err := Citations(text, len(ps))
	if err != nil {
		return "", nil, err
	}
	return text, cited, nil
}

var (
	citation = regexp.MustCompile(`\[(\d{1,3})\]`)
	// a sentence ends at . ! or ? followed by a space or the end, after
	// its citations
	sentenceEnd = regexp.MustCompile(`[.!?](\s*\[\d{1,3}\])*(\s+|$)`)
)

// Citations checks that every sentence of text cites one of n passages and
// returns the cited ones (0-based, first-cited first).
func Citations(text string, n int) ([]int, error) {
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("llm: an empty answer")
	}
	var cited []int
	seen := map[int]bool{}
	start := 0
	ends := sentenceEnd.FindAllStringIndex(text, -1)
	if len(ends) == 0 || ends[len(ends)-1][1] < len(text) {
		ends = append(ends, []int{len(text), len(text)})
	}
	for _, e := range ends {
		s := strings.TrimSpace(text[start:e[1]])
		start = e[1]
		if s == "" {
			continue
		}
		refs := citation.FindAllStringSubmatch(s, -1)
		if len(refs) == 0 {
			return nil, ErrUncited
		}
		for _, r := range refs {
			k, _ := strconv.Atoi(r[1])
			if k < 1 || k > n {
				return nil, fmt.Errorf("llm: the answer cites source [%d] of %d given", k, n)
			}
			if !seen[k-1] {
				seen[k-1] = true
				cited = append(cited, k-1)
			}
		}
	}
	return cited, nil
}

// Renumber rewrites text's citations to the cited passages' places in
// cited (as Answer returns it): [k] of the given list becomes [j+1] where
// cited[j] is k-1, so they name the sources kept in that order.
func Renumber(text string, cited []int) string {
	to := map[int]int{}
	for j, k := range cited {
		to[k+1] = j + 1
	}
	return citation.ReplaceAllStringFunc(text, func(m string) string {
		k, _ := strconv.Atoi(m[1 : len(m)-1])
		if j, ok := to[k]; ok {
			return "[" + strconv.Itoa(j) + "]"
		}
		return m
	})
}
