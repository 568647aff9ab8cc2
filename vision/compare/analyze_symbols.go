package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
)

// symbolEvidence is the least share of a symbol's box that must be
// differing ink (and at least symbolMinInk pixels) for an unmatched
// instance to be a change: without it the matcher merely missed the symbol
// on one side, and nothing is reported.
const (
	symbolEvidence = 0.01
	symbolMinInk   = 10
)

// symItem is one unmatched symbol instance that the diff backs.
type symItem struct {
	label  string
	bounds geom.Box  // B's frame (A's instances mapped)
	boundA *geom.Box // A's frame, for removed and moved
	conf   float64
	dist   float64 // moved: how far, B pixels
}

// symbols matches A's symbol instances, mapped onto B, with B's: the same
// label within the tolerance is unchanged; an unmatched A and B instance of
// the same label close together is moved; the others are removed or added
// when the diff shows their ink changed. Changes are grouped per label,
// kind and neighbourhood (instances within an inch of each other):
// "2 × DUPLEX RECEPTACLE added".
func (an *analysis) symbols() {
	if len(an.a.Symbols) == 0 && len(an.b.Symbols) == 0 {
		return
	}
	type inst struct {
		s    Symbol
		box  geom.Box // B's frame
		used bool
	}
	as := make([]inst, len(an.a.Symbols))
	for i, s := range an.a.Symbols {
		as[i] = inst{s: s, box: an.mapBox(s.Bounds)}
	}
	bs := make([]inst, len(an.b.Symbols))
	for i, s := range an.b.Symbols {
		bs[i] = inst{s: s, box: s.Bounds}
	}
	// pairs of the same label within maxDist, nearest first.
	match := func(maxDist func(a, b geom.Box) float64) [][2]int {
		type cand struct {
			i, j int
			d    float64
		}
		var cs []cand
		for i := range as {
			for j := range bs {
				if as[i].used || bs[j].used || !sameLabel(as[i].s.Label, bs[j].s.Label) {
					continue
				}
				if d := centerDist(as[i].box, bs[j].box); d <= maxDist(as[i].box, bs[j].box) {
					cs = append(cs, cand{i, j, d})
				}
			}
		}
		slices.SortStableFunc(cs, func(x, y cand) int { return cmp.Compare(x.d, y.d) })
		var out [][2]int
		for _, c := range cs {
			if !as[c.i].used && !bs[c.j].used {
				as[c.i].used, bs[c.j].used = true, true
				out = append(out, [2]int{c.i, c.j})
			}
		}
		return out
	}
	size := func(b geom.Box) float64 { return max(b.Width(), b.Height()) }
	// Unchanged: within the tolerance, or a third of the symbol's size (a
	// matcher's boxes move a pixel or two between runs).
	match(func(a, b geom.Box) float64 {
		return max(an.tol, 0.3*min(a.Width(), a.Height(), b.Width(), b.Height()))
	})
	moved := match(func(a, b geom.Box) float64 { return max(4*max(size(a), size(b)), an.dpi/2) })

	var items [3][]symItem // added, removed, moved
	for _, p := range moved {
		ia, ib := as[p[0]], bs[p[1]]
		evA, evB := an.backed(ia.box, false), an.backed(ib.box, true)
		if !evA && !evB {
			continue
		}
		ba := ia.s.Bounds
		items[2] = append(items[2], symItem{label: ib.s.Label, bounds: ib.box, boundA: &ba,
			conf: evidenceConf(meanConf(ia.s.Confidence, ib.s.Confidence), evA && evB),
			dist: centerDist(ia.box, ib.box)})
		an.explain(growBox(ib.box, an.tol), true, false)
		an.explain(growBox(ia.box, an.tol), false, true)
		an.own(ib.box)
		an.own(ia.box)
	}
	for _, ib := range bs {
		if !ib.used && an.backed(ib.box, true) {
			items[0] = append(items[0], symItem{label: ib.s.Label, bounds: ib.box, conf: evidenceConf(meanConf(ib.s.Confidence), true)})
			an.explain(growBox(ib.box, an.tol), true, false)
			an.own(ib.box)
		}
	}
	for _, ia := range as {
		if !ia.used && an.backed(ia.box, false) {
			ba := ia.s.Bounds
			items[1] = append(items[1], symItem{label: ia.s.Label, bounds: ia.box, boundA: &ba, conf: evidenceConf(meanConf(ia.s.Confidence), true)})
			an.explain(growBox(ia.box, an.tol), false, true)
			an.own(ia.box)
		}
	}
	for k, kind := range []string{KindAdded, KindRemoved, KindMoved} {
		an.emitSymbolGroups(items[k], kind)
	}
}

// backed reports whether the diff shows ink changed in a symbol's box.
func (an *analysis) backed(b geom.Box, added bool) bool {
	n := an.ink(growBox(b, an.tol), added)
	return n >= symbolMinInk && float64(n) >= symbolEvidence*b.Area()
}

// emitSymbolGroups groups items of one kind by label and neighbourhood and
// emits one change per group.
func (an *analysis) emitSymbolGroups(items []symItem, kind string) {
	byLabel := map[string][]symItem{}
	var labels []string
	for _, it := range items {
		k := strings.ToUpper(strings.TrimSpace(it.label))
		if _, ok := byLabel[k]; !ok {
			labels = append(labels, k)
		}
		byLabel[k] = append(byLabel[k], it)
	}
	slices.Sort(labels)
	for _, k := range labels {
		group := byLabel[k]
		boxes := make([]geom.Box, len(group))
		for i, it := range group {
			boxes[i] = it.bounds
		}
		for _, cl := range ClusterBoxes(boxes, an.dpi) {
			var c Change
			c.Kind, c.Category = kind, CategorySymbol
			var ba geom.Box
			conf, dist := 0.0, 0.0
			for _, i := range cl {
				it := group[i]
				c.Bounds = unionBox(c.Bounds, it.bounds)
				if it.boundA != nil {
					ba = unionBox(ba, *it.boundA)
				}
				conf += it.conf
				dist += it.dist
			}
			if ba != (geom.Box{}) {
				c.BoundsA = &ba
			}
			n := float64(len(cl))
			c.Confidence = conf / n
			name := symbolName(group[cl[0]].label)
			if len(cl) > 1 {
				name = fmt.Sprintf("%d × %s", len(cl), name)
			}
			c.Description = name + " " + kind
			if kind == KindMoved {
				c.Description += " " + an.distance(dist/n)
			}
			c.Severity = symbolSeverity(kind, len(cl), dist/n, an.dpi)
			an.emit(c)
		}
	}
}

// symbolName is how a change names a symbol: its legend label as read.
func symbolName(label string) string {
	if l := strings.Join(strings.Fields(label), " "); l != "" {
		return l
	}
	return "symbol"
}

// sameLabel compares legend labels case- and space-insensitively.
func sameLabel(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// meanConf is the mean of recogniser confidences in 0..1 (an unknown 0
// counts as 0.8, what a matcher's accepted detection typically scores).
func meanConf(cs ...float64) float64 {
	s := 0.0
	for _, c := range cs {
		if c <= 0 {
			c = 0.8
		}
		s += clampUnit(c)
	}
	return s / float64(len(cs))
}

// evidenceConf lowers a confidence when the diff backs only part of a
// change (a moved symbol whose old or new place shows no changed ink).
func evidenceConf(c float64, full bool) float64 {
	if full {
		return c
	}
	return 0.7 * c
}

// ClusterBoxes groups boxes that lie within gap of each other (box to
// box, through chains of neighbours): the analysis's grouping of
// neighbouring changes, and the markup's of the changes one cloud rings.
// Groups and their members are in input order.
func ClusterBoxes(boxes []geom.Box, gap float64) [][]int {
	return linkGroups(boxes, gap, func(i, j int) bool { return boxDistance(boxes[i], boxes[j]) <= gap })
}

// linkGroups splits items into the groups that near links (union-find). near
// is asked only of pairs whose boxes come within reach of each other
// across x (a sweep over the boxes sorted by left edge), each pair once
// with i < j; groups and members keep input order.
func linkGroups(boxes []geom.Box, reach float64, near func(i, j int) bool) [][]int {
	n := len(boxes)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(boxes[i].XMin, boxes[j].XMin) })
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for k, i := range order {
		for _, j := range order[k+1:] {
			if boxes[j].XMin > boxes[i].XMax+reach {
				break
			}
			if boxes[j].YMin > boxes[i].YMax+reach || boxes[i].YMin > boxes[j].YMax+reach {
				continue
			}
			if a, b := min(i, j), max(i, j); near(a, b) {
				if ri, rj := find(a), find(b); ri != rj {
					parent[max(ri, rj)] = min(ri, rj)
				}
			}
		}
	}
	idx := map[int]int{}
	var out [][]int
	for i := 0; i < n; i++ {
		r := find(i)
		k, ok := idx[r]
		if !ok {
			k = len(out)
			idx[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// distance describes a distance in B's pixels and on paper:
// "450 px (≈ 1.5 in at 300 DPI)".
func (an *analysis) distance(px float64) string {
	in := px / an.dpi
	var s string
	switch {
	case in >= 10:
		s = fmt.Sprintf("%.0f", in)
	case in >= 0.1:
		s = fmt.Sprintf("%.1f", in)
	default:
		s = fmt.Sprintf("%.2f", in)
	}
	return fmt.Sprintf("%.0f px (≈ %s in at %.0f DPI)", math.Round(px), s, an.dpi)
}
