package search

import (
	"math"
	"sort"
	"strings"
)

// BM25 parameters: the usual k1 and b of Okapi BM25.
const (
	BM25K1 = 1.2
	BM25B  = 0.75
)

// BM25 scores documents (their token lists) for query groups. A group is
// one thing the query asks for, in its alternative forms (a word, or a
// vocabulary concept's phrases); a document's score is the sum over groups
// of the best form's Okapi BM25 term score, with
//
//	idf(f) = ln(1 + (N − df + 0.5) / (df + 0.5))
//
// where N is n (the number of documents in the searched collection) and df
// the number of docs containing f; a phrase's frequency counts its
// contiguous occurrences. Scores are comparable within one call only.
func BM25(docs [][]string, n int, groups [][]string) []float64 {
	if n < len(docs) {
		n = len(docs)
	}
	avg := 0.0
	for _, d := range docs {
		avg += float64(len(d))
	}
	if len(docs) > 0 {
		avg /= float64(len(docs))
	}
	avg = math.Max(avg, 1)
	df := map[string]int{}
	tf := make([]map[string]int, len(docs))
	for i, d := range docs {
		tf[i] = map[string]int{}
		for _, g := range groups {
			for _, f := range g {
				if c := phraseCount(d, strings.Fields(f)); c > 0 {
					if tf[i][f] == 0 {
						df[f]++
					}
					tf[i][f] = c
				}
			}
		}
	}
	out := make([]float64, len(docs))
	for i, d := range docs {
		norm := BM25K1 * (1 - BM25B + BM25B*float64(len(d))/avg)
		for _, g := range groups {
			best := 0.0
			for _, f := range g {
				c := float64(tf[i][f])
				if c == 0 {
					continue
				}
				idf := math.Log(1 + (float64(n)-float64(df[f])+0.5)/(float64(df[f])+0.5))
				best = math.Max(best, idf*c*(BM25K1+1)/(c+norm))
			}
			out[i] += best
		}
	}
	return out
}

func phraseCount(d, p []string) int {
	if len(p) == 0 {
		return 0
	}
	c := 0
	for i := 0; i+len(p) <= len(d); i++ {
		ok := true
		for j := range p {
			if d[i+j] != p[j] {
				ok = false
				break
			}
		}
		if ok {
			c++
		}
	}
	return c
}

// RRFK is reciprocal rank fusion's constant: a result's fused score is
// Σ 1/(RRFK + rank) over the retrievers that returned it (rank from 1), so
// agreeing retrievers lift a result and no retriever's raw scores need to
// be comparable with another's.
const RRFK = 60

// Ranked is one retriever's ordered result keys. Ranks, when set, gives
// each key's rank (from 1; keys the retriever scored equally share one, so
// two revisions of one sheet fuse to equal scores); else a key's rank is
// its position.
type Ranked struct {
	Retriever string
	Keys      []string
	Ranks     []int
}

// Fused is a result of Fuse: its key, fused score and the retrievers that
// found it (in the order the rankings were given).
type Fused struct {
	Key        string
	Score      float64
	Retrievers []string
}

// Fuse merges rankings by reciprocal rank fusion. A key repeated within one
// ranking counts at its best rank. Ties in score are broken by less (nil:
// by key), which callers use to put the newest revision first.
func Fuse(rankings []Ranked, less func(a, b string) bool) []Fused {
	byKey := map[string]*Fused{}
	var order []*Fused
	for _, r := range rankings {
		seen := map[string]bool{}
		for i, k := range r.Keys {
			if seen[k] {
				continue
			}
			seen[k] = true
			f := byKey[k]
			if f == nil {
				f = &Fused{Key: k}
				byKey[k] = f
				order = append(order, f)
			}
			rank := i + 1
			if r.Ranks != nil {
				rank = r.Ranks[i]
			}
			f.Score += 1 / float64(RRFK+rank)
			f.Retrievers = append(f.Retrievers, r.Retriever)
		}
	}
	if less == nil {
		less = func(a, b string) bool { return a < b }
	}
	sort.SliceStable(order, func(i, j int) bool {
		if d := order[i].Score - order[j].Score; math.Abs(d) > 1e-12 {
			return d > 0
		}
		return less(order[i].Key, order[j].Key)
	})
	out := make([]Fused, len(order))
	for i, f := range order {
		out[i] = *f
	}
	return out
}
