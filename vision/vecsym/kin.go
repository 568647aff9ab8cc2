package vecsym

import (
	"math"
	"slices"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
)

// Kin: symbols drawn much as each other, told apart by a tag. A 240 V
// receptacle is a receptacle with a third bar; the plan may draw the marks
// they differ by otherwise than the legend (the three bars squeezed where
// the two go), and the tag beside it says which it is.

// weakCovered and weakExplained: a pose below the confidence floor that
// finds this share of its template's marks, and accounts for this share of
// the drawing's about it, is a weak pose: every mark of the symbol there,
// and marks it does not account for beside them (another symbol's, drawn
// as this one with more) — kept for a tag to name (resolveKin).
const (
	weakCovered   = 0.9
	weakExplained = 0.5
)

// isWeak reports whether c, of template t, below the confidence floor, is
// a weak pose.
func isWeak(c Candidate, t *Template) bool {
	return !t.simple && c.Covered >= weakCovered && c.Explained >= weakExplained
}

// resolveKin gives a pose of an untagged symbol to a tagged one drawn
// much as it when a word beside it reads the tagged one's tag. Drawn much
// as it: the untagged one, posed at scale 1 on the tagged one's legend
// graphic, would be taken for it (covers minCovered of its marks). Twins
// are resolveTwins'. A word names one symbol, the nearest pose.
//
// Weak poses of untagged symbols (isWeak: below the confidence floor for
// the marks beside them they do not account for, such as the third bar)
// are named so too, and then counted as the tagged symbol — in place of a
// pose of another tagged symbol there whose own tag no word beside reads
// (a ceiling plug, two bars in a circle, found on the 240 V receptacle's
// squeezed bars with "240V" beside it); a weak pose over any other pose is
// not. It returns the poses kept.
func resolveKin(cs, weak []Candidate, ts []*Template, o Options) []Candidate {
	if len(o.Words) == 0 {
		return cs
	}
	keys := make([]string, len(ts))
	tagged := false
	for i := range ts {
		if i < len(o.Tags) {
			keys[i] = symbols.LetterKey(o.Tags[i])
			tagged = tagged || keys[i] != ""
		}
	}
	if !tagged {
		return cs
	}
	first := twinGroups(ts)
	type pair struct{ a, b int }
	held := map[pair]bool{}
	phrases := wordPhrases(o.Words)
	near := func(c Candidate) []int {
		r := math.Hypot(c.Box.Width(), c.Box.Height())
		return wordsIn(geom.Box{XMin: c.Box.XMin - r, YMin: c.Box.YMin - r, XMax: c.Box.XMax + r, YMax: c.Box.YMax + r}, o.Words)
	}
	// a weak pose may stand only where the kept poses are of tagged
	// symbols whose tags no word beside reads
	open := make([]bool, len(cs))
	for i, c := range cs {
		open[i] = keys[c.Template] != "" && !slices.ContainsFunc(near(c), func(w int) bool { return phrases[w].names(keys[c.Template]) })
	}
	pool := slices.Clone(cs) // the kept poses, then the weak ones
	for _, c := range weak {
		if keys[c.Template] != "" {
			continue
		}
		ok := true
		for i, k := range cs {
			if !open[i] && overlaps(c, k) {
				ok = false
				break
			}
		}
		if ok {
			pool = append(pool, c)
		}
	}
	var claims []tagClaim
	for ci, c := range pool {
		if keys[c.Template] != "" {
			continue // a tagged symbol's pose: its own (a tag may be left off)
		}
		for _, i := range near(c) {
			w := o.Words[i]
			x, y := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
			for j := range ts {
				if keys[j] == "" || first[j] == first[c.Template] || !phrases[i].names(keys[j]) {
					continue
				}
				p := pair{c.Template, j}
				v, ok := held[p]
				if !ok {
					v = foundShare(ts[c.Template], ts[j], minCovered)
					held[p] = v
				}
				if v {
					d := math.Hypot(x-(c.Box.XMin+c.Box.XMax)/2, y-(c.Box.YMin+c.Box.YMax)/2)
					claims = append(claims, tagClaim{ci, i, j, d})
				}
			}
		}
	}
	var named []Candidate
	assignNearest(claims, func(cl tagClaim) {
		if cl.c < len(cs) {
			cs[cl.c].Template = cl.t
			return
		}
		c := pool[cl.c]
		if !slices.ContainsFunc(named, func(k Candidate) bool { return overlaps(c, k) }) {
			c.Template = cl.t
			named = append(named, c)
		}
	})
	if len(named) == 0 {
		return cs
	}
	cs = slices.DeleteFunc(cs, func(k Candidate) bool {
		return slices.ContainsFunc(named, func(c Candidate) bool { return overlaps(c, k) })
	})
	return append(cs, named...)
}
