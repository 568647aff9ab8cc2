// Package search holds the pure parts of project search and ask: the
// tokeniser every indexed text and every query goes through, the
// construction vocabulary (abbreviations, synonyms, floor names) kept as data
// in vocabulary.json, BM25 scoring, reciprocal rank fusion of several
// retrievers' rankings, snippets with the matched words marked, and the
// recognition of question types. Nothing here touches a database; the index
// and its full-text backends are in internal/search/index.
package search

import (
	"strings"
	"unicode"
)

// Tokens splits s into search tokens: runs of letters and digits, lower
// cased and reduced to a singular form by Stem. Every other character (FTS
// syntax such as `"`, `*`, `'`, `-`, parentheses) separates tokens, so a
// token can be put into either database's full-text query as it is.
func Tokens(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out = append(out, Stem(strings.ToLower(f)))
	}
	return out
}

// Stem reduces an English plural to its singular with a few suffix rules
// (fans → fan, batteries → battery, boxes → box, switches → switch); words
// that only look plural (gas, bus, glass, chassis) and short words keep
// their form. It is deliberately light: it must give the same token at
// index and query time, never merge unrelated words.
func Stem(w string) string {
	n := len(w)
	switch {
	case n <= 3 || !isLetters(w):
		return w
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"), strings.HasSuffix(w, "as"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	}
	return w
}

func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// Terms is the indexed form of a text: its tokens joined by spaces. Both
// full-text backends index this column with a tokeniser that only splits
// on spaces and folds case (PostgreSQL's 'simple' configuration, SQLite's
// unicode61), so matching means the same on both.
func Terms(texts ...string) string {
	var all []string
	for _, t := range texts {
		all = append(all, Tokens(t)...)
	}
	return strings.Join(all, " ")
}

// Snippet returns text cut to about max runes around the first matched
// word, with every word whose token is in match wrapped in « ». Words are
// compared by token, so "FANS" is marked for the token "fan".
func Snippet(text string, match map[string]bool, max int) string {
	type span struct{ a, b int }
	var hits []span
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !unicode.IsLetter(rs[i]) && !unicode.IsDigit(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
			j++
		}
		if match[Stem(strings.ToLower(string(rs[i:j])))] {
			hits = append(hits, span{i, j})
		}
		i = j
	}
	lo, hi := 0, len(rs)
	if max > 0 && len(rs) > max {
		if len(hits) > 0 && hits[0].a > max/3 {
			lo = hits[0].a - max/3
		}
		hi = min(len(rs), lo+max)
	}
	var b strings.Builder
	if lo > 0 {
		b.WriteString("…")
	}
	at := lo
	for _, h := range hits {
		if h.a < lo || h.b > hi {
			continue
		}
		b.WriteString(string(rs[at:h.a]))
		b.WriteString("«" + string(rs[h.a:h.b]) + "»")
		at = h.b
	}
	b.WriteString(string(rs[at:hi]))
	if hi < len(rs) {
		b.WriteString("…")
	}
	return b.String()
}
