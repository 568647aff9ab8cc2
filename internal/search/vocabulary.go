package search

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strings"
)

//go:embed vocabulary.json
var vocabularyJSON []byte

// Vocabulary is the construction vocabulary: concepts, each with the forms
// drawings write it in (REC, RECEPT, receptacle), and the phrases titles
// use for floors. It is data (vocabulary.json), read once.
type Vocabulary struct {
	// concept index by phrase (tokens joined by spaces)
	byPhrase map[string]int
	concepts [][]string // each concept's phrases, canonical first
	levels   map[string]int
	maxLen   int
}

type vocabFile struct {
	Terms []struct {
		Canonical string   `json:"canonical"`
		Variants  []string `json:"variants"`
	} `json:"terms"`
	Levels []struct {
		Level    int      `json:"level"`
		Variants []string `json:"variants"`
	} `json:"levels"`
}

// Default is the vocabulary embedded in the binary.
var Default = mustVocabulary(vocabularyJSON)

func mustVocabulary(b []byte) *Vocabulary {
	v, err := ParseVocabulary(b)
	if err != nil {
		panic("search: vocabulary.json: " + err.Error())
	}
	return v
}

// ParseVocabulary reads a vocabulary file (the format of vocabulary.json).
// A phrase that names two concepts keeps the first.
func ParseVocabulary(b []byte) (*Vocabulary, error) {
	var f vocabFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	v := &Vocabulary{byPhrase: map[string]int{}, levels: map[string]int{}}
	for _, t := range f.Terms {
		var forms []string
		for _, p := range append([]string{t.Canonical}, t.Variants...) {
			k := strings.Join(Tokens(p), " ")
			if k == "" || slices.Contains(forms, k) {
				continue
			}
			if _, taken := v.byPhrase[k]; !taken {
				v.byPhrase[k] = len(v.concepts)
			}
			forms = append(forms, k)
			v.maxLen = max(v.maxLen, len(strings.Fields(k)))
		}
		v.concepts = append(v.concepts, forms)
	}
	for _, l := range f.Levels {
		for _, p := range l.Variants {
			v.levels[strings.Join(Tokens(p), " ")] = l.Level
		}
	}
	return v, nil
}

// Match is a run of query tokens the vocabulary knows: Start and End index
// the tokens, Forms are all the concept's phrases (the run's own included).
type Match struct {
	Start, End int
	Canonical  string
	Forms      []string
}

// Find returns the vocabulary's phrases in toks, longest first at each
// position, not overlapping.
func (v *Vocabulary) Find(toks []string) []Match {
	var out []Match
	for i := 0; i < len(toks); {
		found := false
		for n := min(v.maxLen, len(toks)-i); n >= 1; n-- {
			if c, ok := v.byPhrase[strings.Join(toks[i:i+n], " ")]; ok {
				out = append(out, Match{Start: i, End: i + n, Canonical: v.concepts[c][0], Forms: v.concepts[c]})
				i += n
				found = true
				break
			}
		}
		if !found {
			// an abbreviation's plural: EFs, AHUs, VAVs (Stem leaves short words)
			if t := toks[i]; len(t) > 2 && strings.HasSuffix(t, "s") {
				if c, ok := v.byPhrase[t[:len(t)-1]]; ok {
					out = append(out, Match{Start: i, End: i + 1, Canonical: v.concepts[c][0], Forms: v.concepts[c]})
				}
			}
			i++
		}
	}
	return out
}

// Canonical rewrites toks with every known phrase replaced by its
// concept's canonical tokens: "ef" → "exhaust fan", "gfi rec" → "gfci
// receptacle". Two texts naming the same thing differently compare equal
// after it.
func (v *Vocabulary) Canonical(toks []string) []string {
	var out []string
	at := 0
	for _, m := range v.Find(toks) {
		out = append(out, toks[at:m.Start]...)
		out = append(out, strings.Fields(m.Canonical)...)
		at = m.End
	}
	return append(out, toks[at:]...)
}

// Levels returns the floor levels named in toks ("second floor", "level
// 2", "2nd flr" → 2), in order of appearance, each once.
func (v *Vocabulary) Levels(toks []string) []int {
	toks = v.Canonical(toks) // flr → floor
	var out []int
	for i := range toks {
		for n := 3; n >= 1; n-- {
			if i+n > len(toks) {
				continue
			}
			if l, ok := v.levels[strings.Join(toks[i:i+n], " ")]; ok && !slices.Contains(out, l) {
				out = append(out, l)
				break
			}
		}
	}
	// "first and second floor": the first level's word stands before "and"
	for i := 0; i+2 < len(toks); i++ {
		if toks[i+1] == "and" {
			if l, ok := v.levels[toks[i]+" floor"]; ok && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return out
}
