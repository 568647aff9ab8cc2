package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func TestCitations(t *testing.T) {
	for text, want := range map[string][]int{
		"The panel schedule is on E-601 [2].":                    {1},
		"It is on E-601 [2]. The fans are EF-1 and EF-2 [1][3].": {1, 0, 2},
		"Sheet A1.1 shows it [1]":                                {0},
		"The drawings do not say. [1]":                           {0},
		"Level 2.5 holds it [1]! Is it? [1]":                     {0},
	} {
		got, err := Citations(text, 3)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v %v, want %v", text, got, err, want)
		}
	}
	for _, text := range []string{"", "It is on E-601.", "It is on E-601 [1]. It has 3 fans.", "It is on E-601 [4].", "It is [0]."} {
		if _, err := Citations(text, 3); err == nil {
			t.Errorf("%q accepted", text)
		}
	}
}

// fake is an OpenAI-compatible endpoint that checks the request and
// answers reply.
func fake(t *testing.T, reply string, seen *string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
			t.Errorf("request %s %s (auth %q)", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "m" || len(req.Messages) != 2 {
			t.Errorf("body: %+v %v", req, err)
		}
		*seen = req.Messages[len(req.Messages)-1].Content
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": reply}}}})
	}))
}

func TestAnswer(t *testing.T) {
	ps := []Passage{{"E-601, block PANEL SCHEDULE", "PANEL LP-1 208Y/120V"}, {"E-101, words", "SEE PANEL SCHEDULE ON E-601"}}
	var prompt string
	srv := fake(t, "Panel LP-1 is 208Y/120V [1].", &prompt)
	defer srv.Close()
	c := New(srv.URL+"/v1/", "m", "k")
	text, cited, err := c.Answer(context.Background(), "what voltage is panel LP-1?", ps)
	if err != nil || text != "Panel LP-1 is 208Y/120V [1]." || !slices.Equal(cited, []int{0}) {
		t.Fatalf("%q %v %v", text, cited, err)
	}
	for _, want := range []string{"what voltage is panel LP-1?", "[1] E-601, block PANEL SCHEDULE: PANEL LP-1 208Y/120V", "[2] E-101, words: SEE PANEL SCHEDULE ON E-601"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
	srv2 := fake(t, "Panel LP-1 is 208Y/120V. It feeds the lights [2].", &prompt)
	defer srv2.Close()
	if _, _, err := New(srv2.URL+"/v1", "m", "k").Answer(context.Background(), "q", ps); !errors.Is(err, ErrUncited) {
		t.Errorf("an uncited sentence: %v", err)
	}
	if New("", "m", "") != nil {
		t.Error("no URL: a client")
	}
}

func TestRenumber(t *testing.T) {
	if got := Renumber("A [3]. B [1][3].", []int{2, 0}); got != "A [1]. B [2][1]." {
		t.Errorf("%q", got)
	}
}
