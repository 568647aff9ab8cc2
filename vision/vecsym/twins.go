package vecsym

import (
	"cmp"
	"context"
	"math"
	"slices"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
)

// Symbols drawn alike, told apart by a tag. A legend may show one graphic
// for several entries that the plan tells apart by a tag set beside each
// instance: a receptacle, the same receptacle tagged GFI, tagged +42" (its
// height). Their geometry is the same, so which of them a pose is given to
// was chance (whichever read a hair better). Templates whose marks each
// find the other's whole at scale 1 are twins; a pose of a twin is given to
// the twin whose tag (Options.Tags) one of the drawing's words beside it
// reads (Options.Words), and with no such word to the first of them that
// has no tag — the plain symbol — or, when all have tags, the first in
// legend order.

// twinScale: twins match each other at scale 1 within this.
const twinScale = 0.05

// twinShare: twins cover and explain this share of each other's marks.
const twinShare = 0.95

// twinGroups returns, per template, the index of the first of its twins
// (itself when it has none).
func twinGroups(ts []*Template) []int {
	first := make([]int, len(ts))
	for i := range ts {
		first[i] = i
		for j := 0; j < i; j++ {
			if first[j] == j && sameShape(ts[i], ts[j]) {
				first[i] = j
				break
			}
		}
	}
	return first
}

// sameShape reports whether a and b are the same graphic: each found whole
// on the other's marks at scale 1, explaining them all.
func sameShape(a, b *Template) bool {
	if math.Abs(a.size/b.size-1) > twinScale || math.Abs(a.weight/b.weight-1) > 0.1 || glyphText(a) != glyphText(b) {
		return false // (circles with other letters inside are other symbols)
	}
	return foundIn(a, b) && foundIn(b, a)
}

func foundIn(a, b *Template) bool {
	d := newDrawing(b.m)
	sc := &scorer{d: d, seen: make([]uint32, len(d.m.segs)), o: Options{MinScale: 1 - twinScale, MaxScale: 1 + twinScale}}
	for _, c := range sc.search(context.Background(), 0, a) {
		if c.Covered >= twinShare && c.Explained >= twinShare {
			return true
		}
	}
	return false
}

// glyphText is a template's letters, sorted.
func glyphText(t *Template) string {
	r := make([]rune, len(t.m.glyphs))
	for i, g := range t.m.glyphs {
		r[i] = g.r
	}
	slices.Sort(r)
	return string(r)
}

// resolveTwins gives each candidate of a template with twins to the twin
// whose tag a word beside it (within the symbol's diagonal of its box)
// reads, or abbreviates (abbreviates: "FB" beside a level marker whose
// twins are tagged FFB and RFB), or to the first twin without a tag. A
// tag labels one symbol: a word beside several goes to the nearest, and
// the others take another word or none (a plain receptacle set below a
// tagged one). When every twin has a tag, a candidate no word names is
// none of them — the plan tells them apart by the tag only, and a marker
// without one (a level marker of another kind of height) is not counted —
// and is dropped.
func resolveTwins(cs []Candidate, ts []*Template, o Options) []Candidate {
	first := twinGroups(ts)
	keys := make([]string, len(ts))
	for i := range ts {
		if i < len(o.Tags) {
			keys[i] = symbols.LetterKey(o.Tags[i])
		}
	}
	words := make([]string, len(o.Words))
	for i, w := range o.Words {
		words[i] = symbols.LetterKey(w.Text)
	}
	var claims []tagClaim
	unnamed := map[int]bool{} // candidates of twins that all have tags
	for i := range cs {
		c := &cs[i]
		g := first[c.Template]
		if g == c.Template && !slices.Contains(first[g+1:], g) {
			continue // no twins
		}
		c.Template = g
		var group []int
		for j := g; j < len(ts); j++ {
			if first[j] == g {
				group = append(group, j)
			}
		}
		if j := slices.IndexFunc(group, func(j int) bool { return keys[j] == "" }); j >= 0 {
			c.Template = group[j] // the plain symbol: the first twin without a tag
		} else {
			unnamed[i] = true
		}
		r := math.Hypot(c.Box.Width(), c.Box.Height())
		near := geom.Box{XMin: c.Box.XMin - r, YMin: c.Box.YMin - r, XMax: c.Box.XMax + r, YMax: c.Box.YMax + r}
		claim := func(w, j int) {
			wb := o.Words[w].Box
			d := math.Hypot((wb.XMin+wb.XMax-c.Box.XMin-c.Box.XMax)/2, (wb.YMin+wb.YMax-c.Box.YMin-c.Box.YMax)/2)
			claims = append(claims, tagClaim{i, w, j, d})
		}
		for _, j := range group {
			if keys[j] == "" {
				continue
			}
			for _, w := range tagsBeside(near, keys[j], o.Words, words) {
				claim(w, j)
			}
		}
		for _, w := range wordsIn(near, o.Words) {
			if j, ok := abbreviated(o.Words[w].Text, words[w], group, o.Tags, keys); ok {
				claim(w, j)
			}
		}
	}
	assignNearest(claims, func(cl tagClaim) {
		cs[cl.c].Template = cl.t
		delete(unnamed, cl.c)
	})
	if len(unnamed) == 0 {
		return cs
	}
	out := cs[:0]
	for i, c := range cs {
		if !unnamed[i] {
			out = append(out, c)
		}
	}
	return out
}

// abbreviated is the one twin of group (templates, tags by index, their
// letter keys) whose tag the word text (letter key key) abbreviates —
// when it reads none of their tags whole: the same first and last letter
// and the rest of its letters in the tag's order ("FB" for FFB, not for
// RFB).
func abbreviated(text, key string, group []int, tags, keys []string) (int, bool) {
	w := orderedLetters(text)
	if len(w) < 2 {
		return 0, false
	}
	found := -1
	for _, j := range group {
		if keys[j] == "" {
			continue
		}
		if keys[j] == key {
			return 0, false // a tag read whole: tagsBeside's
		}
		if abbreviates(w, orderedLetters(tags[j])) {
			if found >= 0 {
				return 0, false // ambiguous
			}
			found = j
		}
	}
	return found, found >= 0
}

// abbreviates reports whether w is a shortening of tag: shorter, the same
// first and last letter, its letters in tag's order.
func abbreviates(w, tag []rune) bool {
	if len(w) >= len(tag) || w[0] != tag[0] || w[len(w)-1] != tag[len(tag)-1] {
		return false
	}
	k := 0
	for _, r := range tag {
		if k < len(w) && w[k] == r {
			k++
		}
	}
	return k == len(w)
}

// orderedLetters is s's letters and digits, upper case, in order.
func orderedLetters(s string) []rune {
	var r []rune
	for _, c := range s {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			r = append(r, unicode.ToUpper(c))
		}
	}
	return r
}

// tagClaim: word w beside candidate c reads template t's tag, d from it.
type tagClaim struct {
	c, w, t int
	d       float64
}

// assignNearest gives each candidate the template of its nearest claim
// whose word no nearer claim took: a tag labels one symbol. Then a
// candidate left without a word takes one a nearer candidate holds when
// that one can take another word of its own (each symbol's tag set at its
// upper right, the tags of two symbols stacked close stand as near the
// lower symbol's neighbour as their own): the most symbols tagged.
func assignNearest(claims []tagClaim, give func(tagClaim)) {
	slices.SortStableFunc(claims, func(a, b tagClaim) int { return cmp.Compare(a.d, b.d) })
	byC, byW := map[int]int{}, map[int]int{} // the claim given to a candidate, holding a word
	adj := map[int][]int{}                   // a candidate's claims, nearest first
	var order []int                          // candidates by their nearest claim
	for k, cl := range claims {
		if _, ok := adj[cl.c]; !ok {
			order = append(order, cl.c)
		}
		adj[cl.c] = append(adj[cl.c], k)
		_, done := byC[cl.c]
		_, used := byW[cl.w]
		if !done && !used {
			byC[cl.c], byW[cl.w] = k, k
		}
	}
	var seen map[int]bool
	var augment func(c int) bool
	augment = func(c int) bool {
		for _, k := range adj[c] {
			w := claims[k].w
			if seen[w] {
				continue
			}
			seen[w] = true
			if h, held := byW[w]; !held || augment(claims[h].c) {
				byC[c], byW[w] = k, k
				return true
			}
		}
		return false
	}
	for _, c := range order {
		if _, done := byC[c]; !done {
			seen = map[int]bool{}
			augment(c)
		}
	}
	swapNearer(claims, byC, byW, adj, order)
	for k, cl := range claims {
		if h, ok := byC[cl.c]; ok && h == k {
			give(cl)
		}
	}
}

// swapNearer swaps the words of two candidates (byC: the claim given to
// each, byW: the claim holding each word, adj: each candidate's claims)
// while that brings both nearer in all: of two symbols stacked close, each
// takes the tag set the same way beside it, not the one nearest.
func swapNearer(claims []tagClaim, byC, byW map[int]int, adj map[int][]int, order []int) {
	type cw struct{ c, w int }
	of := map[cw]int{} // the nearest claim of a candidate on a word
	for k, cl := range claims {
		if _, ok := of[cw{cl.c, cl.w}]; !ok {
			of[cw{cl.c, cl.w}] = k
		}
	}
	for range len(order) { // each pass removes distance; a few do
		swapped := false
		for _, a := range order {
			ka, ok := byC[a]
			if !ok {
				continue
			}
			for _, xa := range adj[a] {
				kb, held := byW[claims[xa].w]
				if !held || claims[kb].c == a {
					continue
				}
				xb, ok := of[cw{claims[kb].c, claims[ka].w}]
				if ok && claims[xa].d+claims[xb].d < claims[ka].d+claims[kb].d-1e-9 {
					byC[a], byC[claims[kb].c] = xa, xb
					byW[claims[xa].w], byW[claims[xb].w] = xa, xb
					swapped = true
					break
				}
			}
		}
		if !swapped {
			return
		}
	}
}

// tagsBeside returns the words whose centre lies in near that read key.
func tagsBeside(near geom.Box, key string, ws []symbols.Word, keys []string) []int {
	return slices.DeleteFunc(wordsIn(near, ws), func(i int) bool { return keys[i] != key })
}

// wordsIn returns the words whose centre lies in near.
func wordsIn(near geom.Box, ws []symbols.Word) []int {
	var out []int
	for i, w := range ws {
		x, y := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
		if x >= near.XMin && x <= near.XMax && y >= near.YMin && y <= near.YMax {
			out = append(out, i)
		}
	}
	return out
}
