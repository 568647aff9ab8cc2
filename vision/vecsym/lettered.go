package vecsym

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/vector"
)

// Symbols lettered inside, lettered beside. A legend may draw a symbol as
// an outline with its tag written inside (a circle lettered SD, a double
// circle lettered S/C) where the plan draws the outline and writes the
// tag beside it — and, the letters being what tells the symbols apart,
// may draw the outline of a kindred entry (every detector a double
// circle, tagged SD or SD/CO beside it). So a template whose words lie
// inside its closed outline is also searched as that outline alone, and
// such a pose counts only when a word beside it (or in it) names the
// symbol: the tag of a lettered template whose outline is found in this
// one's or holds it (it goes to that template), or a phrase holding this
// template's own tag's letters (SD/CO holds S/C's). Without such a word an
// outline is any circle, and is not counted.

// letteredOutline is the template of m (a legend graphic's marks without
// the words inside box, in box's pixels) when those words lie inside
// its closed marks, else nil.
func letteredOutline(label string, pg *vector.Page, m *marks, words []vector.Rect, box vector.Rect) *Template {
	w := pathWidths(pg, m)
	dropWires(m, max(1, w))
	t := newTemplate(label, m, w)
	inside := 0
	for _, r := range words {
		r = moveRect(r, -box.X0, -box.Y0)
		if !m.box.Intersects(r) {
			continue
		}
		if !t.enclosed(complex(float64(r.X0+r.X1)/2, float64(r.Y0+r.Y1)/2)) {
			return nil // a word across the outline: not letters inside it
		}
		inside++
	}
	if inside == 0 || t.simple {
		return nil
	}
	return t
}

// outlineJobs lists the templates searched also as their outline: those
// with one and a tag, when the drawing has words to read tags in.
func outlineJobs(ts []*Template, o Options) []int {
	var owners []int
	if len(o.Words) == 0 {
		return nil
	}
	for i, t := range ts {
		if t.outline != nil && i < len(o.Tags) && symbols.LetterKey(o.Tags[i]) != "" {
			owners = append(owners, i)
		}
	}
	return owners
}

// kinOutlines reports whether a's and b's outlines are kin: one found
// whole in the other at scale 1.
func kinOutlines(a, b *Template) bool {
	return a == b || holds(a.outline, b.outline) || holds(b.outline, a.outline)
}

// holds reports whether a is found whole on b's marks at scale 1.
func holds(a, b *Template) bool { return foundShare(a, b, twinShare) }

// foundShare reports whether a pose of a at scale 1 on b's marks covers
// share of a's marks.
func foundShare(a, b *Template, share float64) bool {
	d := newDrawing(b.m)
	sc := &scorer{d: d, seen: make([]uint32, len(d.m.segs)), o: Options{MinScale: 1 - twinScale, MaxScale: 1 + twinScale}}
	for _, c := range sc.search(context.Background(), 0, a) {
		if c.Covered >= share {
			return true
		}
	}
	return false
}

// letteredBeside keeps the outline poses per[k] (of template owners[k])
// that a word beside them names, each given to the template it names
// (see above). A phrase naming several lettered symbols ("SD/ CO": a
// smoke and a carbon monoxide detector) names the one whose outline holds
// all theirs (the combined detector's double circle). A word names one
// symbol, the nearest pose it names.
func letteredBeside(per [][]Candidate, owners []int, ts []*Template, o Options) []Candidate {
	if len(owners) == 0 || len(o.Words) == 0 {
		return nil
	}
	keys := make([]string, len(ts))
	for i := range ts {
		if i < len(o.Tags) {
			keys[i] = symbols.LetterKey(o.Tags[i])
		}
	}
	type pair struct{ a, b int }
	held := map[pair]bool{}
	holdsOutline := func(a, b int) bool { // a's outline found whole in b's
		k := pair{a, b}
		v, ok := held[k]
		if !ok {
			v = a == b || holds(ts[a].outline, ts[b].outline)
			held[k] = v
		}
		return v
	}
	kin := func(a, b int) bool { return holdsOutline(a, b) || holdsOutline(b, a) }
	inside := map[pair]bool{}
	inGraphic := func(a, b int) bool { // a's outline found whole in b's graphic
		k := pair{a, b}
		v, ok := inside[k]
		if !ok {
			v = holds(ts[a].outline, ts[b])
			inside[k] = v
		}
		return v
	}
	phrases := wordPhrases(o.Words)
	// names is the lettered template a phrase names beside a pose of own's
	// outline, or -1
	names := func(ph phrase, own int) int {
		var named []int
		for _, j := range owners {
			if keys[j] != "" && ph.names(keys[j]) && kin(own, j) {
				named = append(named, j)
			}
		}
		if len(named) == 0 {
			// a symbol whose tag the legend sets beside its graphic, the
			// outline found whole in that graphic (a thermostat's circle)
			for j := range ts {
				if keys[j] != "" && ts[j].outline == nil && ph.names(keys[j]) && inGraphic(own, j) {
					named = append(named, j)
				}
			}
			if len(named) != 1 {
				return -1
			}
		}
		switch {
		case len(named) == 1:
			return named[0]
		case len(named) == 0:
			return -1
		}
		for _, j := range owners {
			if slices.Contains(named, j) || !kin(own, j) {
				continue
			}
			all := true
			for _, n := range named {
				all = all && holdsOutline(n, j)
			}
			if all {
				return j
			}
		}
		return -1
	}
	var claims []tagClaim
	var flat []Candidate // per's candidates, claimed by index
	for k, cs := range per {
		own := owners[k]
		for _, c := range cs {
			if c.Confidence < o.MinConfidence {
				continue
			}
			ci := len(flat)
			flat = append(flat, c)
			r := math.Hypot(c.Box.Width(), c.Box.Height())
			near := geom.Box{XMin: c.Box.XMin - r, YMin: c.Box.YMin - r, XMax: c.Box.XMax + r, YMax: c.Box.YMax + r}
			for i, w := range o.Words {
				x, y := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
				if x < near.XMin || x > near.XMax || y < near.YMin || y > near.YMax {
					continue
				}
				if t := names(phrases[i], own); t >= 0 {
					d := math.Hypot(x-(c.Box.XMin+c.Box.XMax)/2, y-(c.Box.YMin+c.Box.YMax)/2)
					claims = append(claims, tagClaim{ci, i, t, d})
				}
			}
		}
	}
	var out []Candidate
	assignNearest(claims, func(cl tagClaim) {
		c := flat[cl.c]
		c.Template = cl.t
		out = append(out, c)
	})
	return out
}

// phrase is a word with the words set on its line before and after it,
// a space apart at most (an OCR reads "SD/ CO" as two words): the letter
// key of the whole and of each of its tokens (runs of letters and digits).
type phrase struct {
	key    string
	tokens []string
}

// names reports whether the phrase reads tag key k, whole or as one of
// its tokens.
func (ph phrase) names(k string) bool { return k == ph.key || slices.Contains(ph.tokens, k) }

// wordPhrases is each word's phrase.
func wordPhrases(ws []symbols.Word) []phrase {
	out := make([]phrase, len(ws))
	order := make([]int, len(ws))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return ws[order[a]].Box.XMin < ws[order[b]].Box.XMin })
	for i, w := range ws {
		h := w.Box.Height()
		y := (w.Box.YMin + w.Box.YMax) / 2
		line := func(v symbols.Word) bool {
			vy := (v.Box.YMin + v.Box.YMax) / 2
			return math.Abs(vy-y) <= h/2 && math.Abs(v.Box.Height()-h) <= h/2
		}
		parts := []string{w.Text}
		// rightwards, then leftwards, a gap of a height at most
		x := w.Box.XMax
		for _, j := range order {
			v := ws[j]
			if j != i && line(v) && v.Box.XMin >= x-1 && v.Box.XMin-x <= h {
				parts = append(parts, v.Text)
				x = v.Box.XMax
			}
		}
		x = w.Box.XMin
		for k := len(order) - 1; k >= 0; k-- {
			j := order[k]
			v := ws[j]
			if j != i && line(v) && v.Box.XMax <= x+1 && x-v.Box.XMax <= h {
				parts = append(parts, v.Text)
				x = v.Box.XMin
			}
		}
		whole := strings.Join(parts, " ")
		ph := phrase{key: symbols.LetterKey(whole)}
		for _, tok := range strings.FieldsFunc(whole, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			ph.tokens = append(ph.tokens, symbols.LetterKey(tok))
		}
		out[i] = ph
	}
	return out
}
