package vecsym

import (
	"cmp"
	"context"
	"math"
	"slices"

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
// reads, or to the first twin without a tag, or to the first twin. A tag
// labels one symbol: a word beside several goes to the nearest, and the
// others take another word or none (a plain receptacle set below a tagged
// one).
func resolveTwins(cs []Candidate, ts []*Template, o Options) {
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
	for i := range cs {
		c := &cs[i]
		g := first[c.Template]
		if g == c.Template && !slices.Contains(first[g+1:], g) {
			continue // no twins
		}
		c.Template = g
		for j := g; j < len(ts); j++ {
			if first[j] == g && keys[j] == "" {
				c.Template = j // the plain symbol: the first twin without a tag
				break
			}
		}
		r := math.Hypot(c.Box.Width(), c.Box.Height())
		near := geom.Box{XMin: c.Box.XMin - r, YMin: c.Box.YMin - r, XMax: c.Box.XMax + r, YMax: c.Box.YMax + r}
		for j := g; j < len(ts); j++ {
			if first[j] != g || keys[j] == "" {
				continue
			}
			for _, w := range tagsBeside(near, keys[j], o.Words, words) {
				wb := o.Words[w].Box
				d := math.Hypot((wb.XMin+wb.XMax-c.Box.XMin-c.Box.XMax)/2, (wb.YMin+wb.YMax-c.Box.YMin-c.Box.YMax)/2)
				claims = append(claims, tagClaim{i, w, j, d})
			}
		}
	}
	assignNearest(claims, func(cl tagClaim) { cs[cl.c].Template = cl.t })
}

// tagClaim: word w beside candidate c reads template t's tag, d from it.
type tagClaim struct {
	c, w, t int
	d       float64
}

// assignNearest gives each candidate the template of its nearest claim
// whose word no nearer claim took: a tag labels one symbol.
func assignNearest(claims []tagClaim, give func(tagClaim)) {
	slices.SortStableFunc(claims, func(a, b tagClaim) int { return cmp.Compare(a.d, b.d) })
	done, used := map[int]bool{}, map[int]bool{}
	for _, cl := range claims {
		if !done[cl.c] && !used[cl.w] {
			give(cl)
			done[cl.c], used[cl.w] = true, true
		}
	}
}

// tagsBeside returns the words whose centre lies in near that read key.
func tagsBeside(near geom.Box, key string, ws []symbols.Word, keys []string) []int {
	var out []int
	for i, w := range ws {
		x, y := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
		if keys[i] == key && x >= near.XMin && x <= near.XMax && y >= near.YMin && y <= near.YMax {
			out = append(out, i)
		}
	}
	return out
}
