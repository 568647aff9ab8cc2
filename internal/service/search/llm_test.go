package search_test

// Ask with a language model (base.Deps.LLM): a local fake of an
// OpenAI-compatible chat endpoint checks that the prompt carries the
// question and the retrieved sources, and its reply words the answer;
// counts stay the index's; an uncited reply or a failing endpoint leaves
// the index's answer.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plangraph/plangraph/internal/search/llm"
	"github.com/plangraph/plangraph/internal/service/search"
)

type fakeLLM struct {
	mu     sync.Mutex
	reply  string
	status int
	prompt string
	calls  int
}

func (f *fakeLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct{ Role, Content string }
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if len(req.Messages) > 0 {
		f.prompt = req.Messages[len(req.Messages)-1].Content
	}
	if f.status != 0 {
		w.WriteHeader(f.status)
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": f.reply}}}})
}

func TestAskWithLanguageModel(t *testing.T) {
	st, bucket := open(t, "")
	f := seed(t, st, bucket, orgA, genSet(t))
	fk := &fakeLLM{}
	srv := httptest.NewServer(fk)
	defer srv.Close()
	f.svc.LLM = llm.New(srv.URL+"/v1", "test-model", "")

	// a lookup: the model words it from the sources the index found
	var title, number string
	for _, st := range f.truth.Sheets {
		for _, bt := range st.Blocks {
			if bt.Type == "Schedule" && bt.Title != "" && title == "" {
				title, number = bt.Title, st.SheetNumber
			}
		}
	}
	fk.reply = "The " + strings.ToLower(title) + " is on sheet " + number + " [1]." // (before any request)
	q := "Where is the " + strings.ToLower(title) + "?"
	a := ask2(t, f, q)
	if a.AnsweredBy != search.AnsweredByLLM || a.Answer != fk.reply || len(a.Sources) != 1 {
		t.Fatalf("lookup with a model: %+v", a)
	}
	if !strings.Contains(fk.prompt, q) || !strings.Contains(fk.prompt, "[1] "+a.Sources[0].SheetNumber) || !strings.Contains(fk.prompt, title) {
		t.Errorf("the prompt lacks the question or its sources:\n%s", fk.prompt)
	}

	// counts stay the index's own: the model is not asked
	calls := fk.calls
	if a := ask2(t, f, "How many exhaust fans?"); a.AnsweredBy != search.AnsweredByIndex || fk.calls != calls {
		t.Errorf("a count went to the model: %+v (%d calls)", a, fk.calls-calls)
	}

	// an uncited sentence, or a failing endpoint: the index's answer stands
	for name, set := range map[string]func(){
		"uncited": func() { fk.reply, fk.status = "It is on "+number+". Trust me.", 0 },
		"failing": func() { fk.status = http.StatusInternalServerError },
	} {
		fk.mu.Lock()
		set()
		fk.mu.Unlock()
		a := ask2(t, f, q)
		if a.AnsweredBy != search.AnsweredByIndex || !strings.Contains(a.Answer, number) {
			t.Errorf("%s model: %+v", name, a)
		}
	}
}

func ask2(t *testing.T, f *fixture, q string) *search.Answer {
	t.Helper()
	a, err := f.svc.Ask(f.ctx, f.project, search.AskInput{Question: q})
	if err != nil {
		t.Fatalf("ask %q: %v", q, err)
	}
	return a
}
