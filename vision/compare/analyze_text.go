package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// phrase is a run of words on one line (or one column, for vertical text),
// the unit text changes are found in: "OFFICE 104", `12'-6"`.
type phrase struct {
	text     string
	core     string   // text less the words in B's edge band (see edgeBand)
	box      geom.Box // B's frame (an A phrase's box mapped onto B)
	boxA     geom.Box // A's frame, A's phrases only
	h        float64  // text height across the baseline, B pixels
	conf     float64  // lowest recogniser confidence of its words
	vertical bool
	used     bool
	changed  bool // took part in a reported (or ignored) change
}

// textPhrases groups words into phrases: words of one orientation whose
// boxes share at least half their height and stand less than 0.8 text
// heights apart (a word space is ≈ 0.3–0.5 of the height; wider gaps part
// columns), and, when both words carry line numbers, of the same line or
// following each other a word space apart (a slanted line broken up).
// mapBox maps a word's box into B's frame (identity for B's words); edge
// tells the boxes (B's frame) whose words stay out of the phrase's core.
func textPhrases(ws []text.Word, mapBox func(geom.Box) geom.Box, skip, edge func(geom.Box) bool) []phrase {
	type tw struct {
		w        text.Word
		box      geom.Box
		vertical bool
	}
	var items []tw
	upright, turned := 0, 0 // words of two letters or more each way
	for _, w := range ws {
		if strings.TrimSpace(w.Text) == "" || !w.Box.Valid() || !readable(w) {
			continue
		}
		b := mapBox(w.Box)
		if skip(b) {
			continue
		}
		vert := len([]rune(w.Text)) >= 2 && b.Height() > 1.5*b.Width()
		if len([]rune(w.Text)) >= 2 {
			if vert {
				turned++
			} else {
				upright++
			}
		}
		items = append(items, tw{w, b, vert})
	}
	// a single letter's box does not say which way it reads: as most of
	// the words do (a sheet reprinted turned a quarter reads vertically)
	if turned > upright {
		for i := range items {
			if len([]rune(items[i].w.Text)) < 2 {
				items[i].vertical = true
			}
		}
	}
	sameRun := func(i, j int) bool {
		p, q := items[i], items[j]
		if p.vertical != q.vertical {
			return false
		}
		// across: overlap across the baseline; along: the gap along it.
		var across, along, hp, hq float64
		if p.vertical {
			across = min(p.box.XMax, q.box.XMax) - max(p.box.XMin, q.box.XMin)
			along = max(p.box.YMin-q.box.YMax, q.box.YMin-p.box.YMax)
			hp, hq = p.box.Width(), q.box.Width()
		} else {
			across = min(p.box.YMax, q.box.YMax) - max(p.box.YMin, q.box.YMin)
			along = max(p.box.XMin-q.box.XMax, q.box.XMin-p.box.XMax)
			hp, hq = p.box.Height(), q.box.Height()
		}
		if p.w.Line != 0 && q.w.Line != 0 && p.w.Line != q.w.Line {
			// a text layer breaks a line drawn a few degrees off level
			// into "lines" at its word spaces ("… APPLICABLE EDIT" "IONS
			// OF THE BUILDING"): words of two lines join only when they
			// follow each other, level, a word space apart at most (not
			// overlapping: a word read twice, by the layer and by OCR)
			h := max(hp, hq)
			return across >= 0.7*min(hp, hq) && along >= -0.1*h && along <= 0.5*h
		}
		return across >= 0.5*min(hp, hq) && along <= 0.8*max(hp, hq)
	}
	boxes := make([]geom.Box, len(items))
	reach := 0.0
	for i, it := range items {
		boxes[i] = it.box
		h := it.box.Height()
		if it.vertical {
			h = it.box.Width()
		}
		reach = max(reach, 0.8*h)
	}
	gs := linkGroups(boxes, reach, sameRun)
	out := make([]phrase, 0, len(gs))
	for _, idx := range gs {
		g := make([]tw, len(idx))
		for k, i := range idx {
			g[k] = items[i]
		}
		vert := g[0].vertical
		slices.SortStableFunc(g, func(x, y tw) int {
			if vert {
				return cmp.Compare(x.box.YMin, y.box.YMin)
			}
			return cmp.Compare(x.box.XMin, y.box.XMin)
		})
		p := phrase{vertical: vert, conf: 1}
		var parts, core []string
		for _, it := range g {
			parts = append(parts, strings.TrimSpace(it.w.Text))
			if edge == nil || !edge(it.box) {
				core = append(core, strings.TrimSpace(it.w.Text))
			}
			p.box = unionBox(p.box, it.box)
			p.boxA = unionBox(p.boxA, it.w.Box)
			c := it.w.Conf
			if c <= 0 {
				c = 1
			}
			p.conf = min(p.conf, c)
		}
		p.text, p.core = strings.Join(parts, " "), strings.Join(core, " ")
		p.h = p.box.Height()
		if vert {
			p.h = p.box.Width()
		}
		out = append(out, p)
	}
	return out
}

// Recognised words trusted as text: OCR of outlined lettering, hatching
// and symbols also returns "words" ("z—=O:", "LZ" read at 0.5), which
// described as text changes tell a user nothing; such words are left out,
// and their ink is reported as linework.
const (
	readableConf  = 0.6 // a recogniser's confidence (a text layer's words have 1)
	readableChars = 0.8 // share of letters, digits and drawing punctuation among its characters
)

// readable tells whether a word is trusted as text: a text layer's (or
// one of unknown confidence), or one recognised with readableConf or more
// holding a letter or digit, whose characters are mostly letters, digits
// and the punctuation of dimensions, tags and notes (12'-6", 3/A5, (E)).
func readable(w text.Word) bool {
	if w.Conf >= 1 || w.Conf <= 0 {
		return true
	}
	n, alnum, ok := 0, 0, 0
	for _, r := range w.Text {
		if unicode.IsSpace(r) {
			continue
		}
		n++
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			alnum++
			ok++
		case strings.ContainsRune(`'"-./()&#%+,:`, r):
			ok++
		}
	}
	return w.Conf >= readableConf && alnum > 0 && float64(ok) >= readableChars*float64(n)
}

// normText is the form phrases are compared in: upper case, without
// spaces (a text layer and OCR split "SURFACE" and "SUR FACE" alike
// differently).
func normText(s string) string { return strings.ToUpper(strings.Join(strings.Fields(s), "")) }

// sameWords tells phrases holding the same words in another order ("6 X
// 0/C" and "X 6 0/C": a stacked label whose words a text layer lists in
// another order once the sheet is reprinted shifted or rescaled).
func sameWords(a, b string) bool {
	wa, wb := strings.Fields(strings.ToUpper(a)), strings.Fields(strings.ToUpper(b))
	slices.Sort(wa)
	slices.Sort(wb)
	return slices.Equal(wa, wb)
}

// textPair is a matched A and B phrase set (one each, or more merged when
// a phrase of one side covers two of the other's).
type textPair struct {
	a, b []int
}

// text pairs A's phrases, mapped onto B, with B's and reports the changed
// ones: text (or dimension, by the strings' patterns) modified, added,
// removed or moved. A change needs the diff to show ink changed in its
// box, except a modification read from text layers on both sides (exact
// strings; reported with lower confidence when the ink did not change): a
// recogniser's misreading of identical ink is not a change. Every changed
// phrase explains its ink, whether or not Options.IgnoreText reports it.
func (an *analysis) text() {
	skip, edge := an.isOwned, an.edgeBand()
	pa := textPhrases(an.a.Words, an.mapBox, skip, edge)
	pb := textPhrases(an.b.Words, func(b geom.Box) geom.Box { return b }, skip, edge)
	an.phrasesB = pb

	// Unchanged: the same text at the same place.
	an.pairPhrases(pa, pb, func(p, q *phrase) (float64, bool) {
		d := centerDist(p.box, q.box)
		return -d, normText(p.text) == normText(q.text) && d <= max(an.tol, 0.5*min(p.h, q.h))
	}, nil)
	// Modified: overlapping phrases on one line, of like type size,
	// aligned at their centres or at either end (a label rewritten in
	// place); unrelated lettering that merely overlaps is not a rewrite.
	var pairs []textPair
	an.pairPhrases(pa, pb, func(p, q *phrase) (float64, bool) {
		if p.vertical != q.vertical || crossOverlap(p, q) < 0.5*min(p.h, q.h) || max(p.h, q.h) > 1.5*min(p.h, q.h) {
			return 0, false
		}
		p0, p1, q0, q1 := p.box.XMin, p.box.XMax, q.box.XMin, q.box.XMax
		if p.vertical {
			p0, p1, q0, q1 = p.box.YMin, p.box.YMax, q.box.YMin, q.box.YMax
		}
		h := max(p.h, q.h)
		if math.Abs(p0+p1-q0-q1) > 0.5*max(p1-p0, q1-q0) && math.Abs(p0-q0) > h && math.Abs(p1-q1) > h {
			return 0, false
		}
		in := p.box.Intersect(q.box).Area()
		ov := in / max(1, min(p.box.Area(), q.box.Area()))
		return ov, ov >= 0.25
	}, func(i, j int) { pairs = append(pairs, textPair{a: []int{i}, b: []int{j}}) })
	an.mergeLeftovers(pa, pb, pairs)
	// Moved: the same text a short way off.
	var moved [][2]int
	an.pairPhrases(pa, pb, func(p, q *phrase) (float64, bool) {
		d := centerDist(p.box, q.box)
		return -d, normText(p.text) == normText(q.text) && d <= max(8*max(p.h, q.h), 1.5*an.dpi)
	}, func(i, j int) { moved = append(moved, [2]int{i, j}) })

	for _, pr := range pairs {
		an.textModified(pa, pb, pr)
	}
	for _, m := range moved {
		an.textMoved(&pa[m[0]], &pb[m[1]])
	}
	for i := range pa {
		if !pa[i].used && pa[i].core != "" {
			an.textSingle(&pa[i], false)
		}
	}
	for i := range pb {
		if !pb[i].used && pb[i].core != "" {
			an.textSingle(&pb[i], true)
		}
	}
	for i := range pb {
		if pb[i].used && !pb[i].changed {
			an.steady = append(an.steady, pb[i])
		}
	}
}

// edgeBand tells the boxes (B's frame) that reach within commonEdgeTol of
// B's edge, or past it. B's word list holds the words wholly inside its
// block, so a word there may be in one side's list and not the other's (a
// fraction of a pixel decides it on a turned page: "… LOCATIONS EXACT →
// … LOCATIONS"): such words do not make a text change on their own. They
// still pair (a phrase moved across the edge is still moved).
func (an *analysis) edgeBand() func(geom.Box) bool {
	if an.b == nil || an.b.Image == nil {
		return nil
	}
	w, h := float64(an.b.Image.Rect.Dx()), float64(an.b.Image.Rect.Dy())
	return func(b geom.Box) bool {
		return b.XMin < commonEdgeTol || b.YMin < commonEdgeTol || b.XMax > w-commonEdgeTol || b.YMax > h-commonEdgeTol
	}
}

// pairPhrases pairs unused phrases greedily by score (highest first) among
// the pairs that qualify, marking them used and calling onPair.
func (an *analysis) pairPhrases(pa, pb []phrase, score func(p, q *phrase) (float64, bool), onPair func(i, j int)) {
	type cand struct {
		i, j int
		s    float64
	}
	var cs []cand
	for i := range pa {
		if pa[i].used {
			continue
		}
		for j := range pb {
			if pb[j].used || boxDistance(pa[i].box, pb[j].box) > max(8*max(pa[i].h, pb[j].h), 1.5*an.dpi) {
				continue
			}
			if s, ok := score(&pa[i], &pb[j]); ok {
				cs = append(cs, cand{i, j, s})
			}
		}
	}
	slices.SortStableFunc(cs, func(x, y cand) int { return cmp.Compare(y.s, x.s) })
	for _, c := range cs {
		if pa[c.i].used || pb[c.j].used {
			continue
		}
		pa[c.i].used, pb[c.j].used = true, true
		if onPair != nil {
			onPair(c.i, c.j)
		}
	}
}

// crossOverlap is how far two phrases overlap across their baselines.
func crossOverlap(p, q *phrase) float64 {
	if p.vertical {
		return min(p.box.XMax, q.box.XMax) - max(p.box.XMin, q.box.XMin)
	}
	return min(p.box.YMax, q.box.YMax) - max(p.box.YMin, q.box.YMin)
}

// mergeLeftovers adds to a pair the unpaired phrases of either side that
// lie on its line within a text height of it ("ROOM" "101" read apart in A,
// "ROOM 101A" as one in B).
func (an *analysis) mergeLeftovers(pa, pb []phrase, pairs []textPair) {
	for k := range pairs {
		pr := &pairs[k]
		for _, side := range []struct {
			ps   []phrase
			idx  *[]int
			near []phrase
			of   []int
		}{{pa, &pr.a, pb, pr.b}, {pb, &pr.b, pa, pr.a}} {
			other := side.near[side.of[0]]
			for i := range side.ps {
				p := &side.ps[i]
				if p.used || p.vertical != other.vertical || crossOverlap(p, &other) < 0.5*min(p.h, other.h) {
					continue
				}
				if boxDistance(p.box, other.box) <= min(p.h, other.h) {
					p.used = true
					*side.idx = append(*side.idx, i)
				}
			}
		}
	}
}

// joinPhrases joins phrases in reading order: their text, their boxes in
// B's and A's frames, lowest confidence, largest height.
func joinPhrases(ps []phrase, idx []int) phrase {
	sel := make([]phrase, len(idx))
	for k, i := range idx {
		sel[k] = ps[i]
	}
	slices.SortStableFunc(sel, func(x, y phrase) int {
		if x.vertical {
			return cmp.Compare(x.box.YMin, y.box.YMin)
		}
		return cmp.Compare(x.box.XMin, y.box.XMin)
	})
	out := sel[0]
	for _, p := range sel[1:] {
		out.text += " " + p.text
		out.core = strings.TrimSpace(out.core + " " + p.core)
		out.box = unionBox(out.box, p.box)
		out.boxA = unionBox(out.boxA, p.boxA)
		out.conf = min(out.conf, p.conf)
		out.h = max(out.h, p.h)
	}
	return out
}

// need is the least differing ink that backs a text change in a phrase of
// height h: 2 % of a square of the text's height, at least 6 pixels (a
// changed digit of 30 px text differs by ≈ 40–100 pixels).
func textNeed(h float64) int { return max(6, int(0.02*h*h)) }

// textModified reports a pair whose strings differ.
func (an *analysis) textModified(pa, pb []phrase, pr textPair) {
	p, q := joinPhrases(pa, pr.a), joinPhrases(pb, pr.b)
	if normText(p.text) == normText(q.text) || p.core != "" && normText(p.core) == normText(q.core) {
		return // (differing only in words at B's edge: see edgeBand)
	}
	inkB := an.ink(growBox(q.box, an.tol), true)
	inkA := an.ink(growBox(p.box, an.tol), false)
	conf := min(p.conf, q.conf)
	if inkA+inkB < textNeed(max(p.h, q.h)) {
		if conf < 0.99 || sameWords(p.text, q.text) {
			return // a recogniser's misreading, or a text layer's reading order, of unchanged ink
		}
		conf *= 0.6
	}
	for _, i := range pr.a {
		pa[i].changed = true
	}
	for _, i := range pr.b {
		pb[i].changed = true
	}
	an.explain(growBox(q.box, an.tol), true, false)
	an.explain(growBox(p.box, an.tol), false, true)
	ba := p.boxA
	c := Change{Kind: KindModified, Category: an.textCategory(&p, &q), Bounds: q.box, BoundsA: &ba,
		Description: textDiff(p.text, q.text), Severity: SeverityModerate, Confidence: conf}
	an.emitText(c, p.text, q.text)
}

// textMoved reports the same text moved a short way.
func (an *analysis) textMoved(p, q *phrase) {
	need := textNeed(max(p.h, q.h))
	if an.ink(growBox(q.box, an.tol), true) < need && an.ink(growBox(p.box, an.tol), false) < need {
		return
	}
	p.changed, q.changed = true, true
	an.explain(growBox(q.box, an.tol), true, false)
	an.explain(growBox(p.box, an.tol), false, true)
	ba := p.boxA
	cat := an.textCategory(nil, q)
	name := "text"
	if cat == CategoryDimension {
		name = "dimension"
	}
	c := Change{Kind: KindMoved, Category: cat, Bounds: q.box, BoundsA: &ba, Severity: SeverityModerate,
		Description: fmt.Sprintf("%s %q moved %s", name, q.text, an.distance(centerDist(p.box, q.box))),
		Confidence:  min(p.conf, q.conf)}
	an.emitText(c, q.text, q.text)
}

// textSingle reports a phrase of one side only (added when of B).
func (an *analysis) textSingle(p *phrase, added bool) {
	if an.ink(growBox(p.box, an.tol), added) < textNeed(p.h) {
		return
	}
	conf := p.conf
	p.changed = true
	an.explain(growBox(p.box, an.tol), added, !added)
	c := Change{Bounds: p.box, Severity: SeverityModerate, Confidence: conf}
	var cat string
	if added {
		c.Kind = KindAdded
		cat = an.textCategory(nil, p)
	} else {
		c.Kind = KindRemoved
		ba := p.boxA
		c.BoundsA = &ba
		cat = an.textCategory(p, nil)
	}
	name := "text"
	if cat == CategoryDimension {
		name = "dimension"
	}
	c.Category = cat
	c.Description = fmt.Sprintf("%s %q %s", name, p.text, c.Kind)
	old, nw := p.text, ""
	if added {
		old, nw = "", p.text
	}
	an.emitText(c, old, nw)
}

// emitText emits a text change unless Options.IgnoreText leaves text out.
func (an *analysis) emitText(c Change, old, nw string) {
	if an.opt.IgnoreText {
		return
	}
	an.emitMeta(c, changeMeta{old: old, new: nw, text: true})
}

// textCategory is dimension when the old (A) or new (B) phrase is a
// dimension string, else text.
func (an *analysis) textCategory(old, nw *phrase) string {
	if old != nil {
		if k := dimensionKind(old.text); k == 2 || k == 1 && dimensionLine(an.a.Image, old.boxA) {
			return CategoryDimension
		}
	}
	if nw != nil {
		if k := dimensionKind(nw.text); k == 2 || k == 1 && dimensionLine(an.b.Image, nw.box) {
			return CategoryDimension
		}
	}
	return CategoryText
}

// textDiff describes a changed phrase as "old → new"; a long phrase (more
// than six words) is cut to the changed words and one word either side,
// with "…" where words were left out.
func textDiff(old, nw string) string {
	a, b := strings.Fields(old), strings.Fields(nw)
	if len(a) <= 6 && len(b) <= 6 {
		return strings.Join(a, " ") + " → " + strings.Join(b, " ")
	}
	pre := 0
	for pre < len(a) && pre < len(b) && strings.EqualFold(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && strings.EqualFold(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	cut := func(ws []string) string {
		from, to := max(0, pre-1), min(len(ws), len(ws)-suf+1)
		s := strings.Join(ws[from:to], " ")
		if from > 0 {
			s = "… " + s
		}
		if to < len(ws) {
			s += " …"
		}
		return s
	}
	return cut(a) + " → " + cut(b)
}

// redrawn reports residue ink that lies within an unchanged phrase (the
// ink changed although both sides read the same words) as a text change
// of lower confidence; it returns whether it did.
func (an *analysis) redrawn(b geom.Box) bool {
	for i, p := range an.steady {
		if p.box.Intersect(b).Area() >= 0.8*b.Area() && b.Area() > 0 {
			if an.steady[i].changed {
				return true // reported for the other side's ink
			}
			an.steady[i].changed = true
			an.emitText(Change{Kind: KindModified, Category: CategoryText, Bounds: p.box,
				Description: fmt.Sprintf("%q redrawn (its ink changed; both sides read the same words)", p.text),
				Severity:    SeverityMinor, Confidence: 0.4}, p.text, p.text)
			return true
		}
	}
	return false
}

// nearLabel names the nearest B phrase with a letter in it within an inch
// of box b (not a dimension string, and when recognised rather than read
// from a text layer, one a reader would know: see landmark), for linework
// descriptions; "" when none.
func (an *analysis) nearLabel(b geom.Box) string {
	best, bd := "", math.Inf(1)
	if an.labels == nil {
		an.labels = []phrase{}
		for _, p := range an.phrasesB {
			if dimensionKind(p.text) == 0 && strings.ContainsFunc(p.text, isLetter) && landmark(p) {
				an.labels = append(an.labels, p)
			}
		}
	}
	for _, p := range an.labels {
		if d := boxDistance(p.box, b); d <= an.dpi && d < bd && len(p.text) <= 40 {
			best, bd = p.text, d
		}
	}
	return best
}

// Recognised phrases that may name a place ("near …"): fragments of
// outlined lettering that OCR reads as "ol", "TT" or "Kon)" name nothing.
const (
	landmarkConf    = 0.8 // the recogniser's confidence in its words
	landmarkLetters = 4   // letters in a row, in one word at least
)

// landmark tells whether phrase p may name a place in a description: a
// text layer's phrase always; a recognised one with landmarkConf or more
// and a word of landmarkLetters letters in a row.
func landmark(p phrase) bool {
	if p.conf >= 0.99 {
		return true
	}
	run, best := 0, 0
	for _, r := range p.text {
		if unicode.IsLetter(r) {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return p.conf >= landmarkConf && best >= landmarkLetters
}

func isLetter(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }
