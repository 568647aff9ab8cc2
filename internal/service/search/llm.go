package search

import (
	"context"
	"strings"

	"github.com/plangraph/plangraph/internal/search/llm"
)

// word has the operator's language model (base.Deps.LLM) word answer a
// from its own sources: the answer becomes the model's, citing a subset of
// them (those kept, in the order cited), answered_by "llm". Counts, sheet
// lists and changes stay the index's own (their numbers are exact); an
// answer without sources, a model that fails or an answer with a sentence
// that cites no source leaves the index's answer as it was.
func (s *Service) word(ctx context.Context, question string, a *Answer) {
	if s.LLM == nil || len(a.Sources) == 0 {
		return
	}
	ps := make([]llm.Passage, len(a.Sources))
	for i, src := range a.Sources {
		where := src.SheetNumber
		if where == "" {
			where = src.SheetID
		}
		ps[i] = llm.Passage{Where: where + ", " + strings.ReplaceAll(src.SourceType, "_", " ") + " " + src.Label,
			Text: strings.NewReplacer("«", "", "»", "").Replace(src.Snippet)}
	}
	text, cited, err := s.LLM.Answer(ctx, question, ps)
	if err != nil {
		if s.Log != nil {
			s.Log.WarnContext(ctx, "ask: the language model's answer is not used; the index's stands", "err", err)
		}
		return
	}
	kept := make([]Source, 0, len(cited))
	for _, i := range cited {
		kept = append(kept, a.Sources[i])
	}
	// the answer's [n] name the sources as the model was given them
	text = llm.Renumber(text, cited)
	a.Answer, a.Sources, a.AnsweredBy = text, kept, AnsweredByLLM
}
