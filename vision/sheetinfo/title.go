package sheetinfo

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

var (
	dateRE = regexp.MustCompile(`(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b`)
	// words that label title-block fields rather than fill them, or that
	// print on every sheet of a set (stamps, phases)
	stampRE = regexp.MustCompile(`(?i)^(copyright|©|\(c\)|construction documents|not for construction|for construction|preliminary|issued for|permit set|bid set|key plan|north|seal|stamp)\b`)
)

// title reads the sheet title: the value of a title label, else the
// largest-type paragraph near the number (numBox) that is no other field's.
func (r *reader) title(numBox geom.Box) (string, geom.Box) {
	// labelled: the title label nearest the number with a value
	type cand struct {
		lines []*tline
		d     float64
	}
	var cs []cand
	for _, lb := range r.labels {
		if lb.kind != fieldTitle {
			continue
		}
		var ls []*tline
		if lb.inline != nil {
			// the rest of the label's line, then the lines under it
			first := &tline{text: joinWords(lb.inline), box: boxOf(lb.inline), words: lb.inline, orient: lb.line.orient}
			ls = append([]*tline{first}, r.paragraphAfter(first, r.valueLines(lb))...)
		} else {
			vs := rows(r.valueLines(lb))
			if len(vs) > 0 {
				ls = append([]*tline{vs[0]}, r.paragraphAfter(vs[0], vs[1:])...)
				// a title may run on into the row below its cell when that
				// row is no field of its own
				var more []*tline
				for _, l := range r.lines {
					if !r.isLabelLine[l] && r.inTB(l.box) && r.unlabelledCell(l) {
						more = append(more, l)
					}
				}
				more = rows(sortedLines(more))
				ls = append(ls, r.paragraphAfter(ls[len(ls)-1], more)...)
			}
		}
		if len(ls) == 0 || letterCount(joinLineTexts(ls)) < 2 {
			continue
		}
		d := 0.0
		if numBox.Valid() {
			d = math.Hypot(lb.box.XMin-numBox.XMin, lb.box.YMin-numBox.YMin)
		}
		cs = append(cs, cand{ls, d})
	}
	if len(cs) > 0 {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
		return joinTitle(cs[0].lines)
	}
	if !numBox.Valid() {
		return "", geom.Box{}
	}
	return r.unlabelledTitle(numBox)
}

// paragraphAfter is the run of lines continuing first: each starting within
// a line's height under the last, of a like type size, not a label.
func (r *reader) paragraphAfter(first *tline, rest []*tline) []*tline {
	o := first.orient
	last := first
	size := first.typeSize()
	var out []*tline
	for _, l := range rest {
		if l == first || l.orient != o || r.isLabelLine[l] {
			continue
		}
		a, b := toFrame(o, last.box), toFrame(o, l.box)
		if b.XMax < a.XMin-size || b.XMin > a.XMax+size { // not in the same column
			continue
		}
		s := l.typeSize()
		gap := b.YMin - a.YMax
		if gap < -0.3*size {
			continue // beside or above
		}
		if gap > 1.25*math.Max(size, s) || s < 0.6*size || s > 1.6*size {
			break
		}
		out = append(out, l)
		last = l
	}
	return out
}

// unlabelledTitle is the title block's largest-type paragraph near the
// number that is not a label, a field's value, a date, a number or a stamp.
func (r *reader) unlabelledTitle(num geom.Box) (string, geom.Box) {
	nw, nh := r.w, r.h
	win := geom.Box{XMin: num.XMin - 0.25*nw, YMin: num.YMin - 0.3*nh, XMax: nw, YMax: nh}
	if tb := r.hints.TitleBlock; tb.Valid() {
		win = tb
	}
	var cands []*tline
	for _, l := range r.lines {
		c := (l.box.XMin+l.box.XMax)/2 >= win.XMin && (l.box.XMin+l.box.XMax)/2 <= win.XMax &&
			(l.box.YMin+l.box.YMax)/2 >= win.YMin && (l.box.YMin+l.box.YMax)/2 <= win.YMax
		if !c || r.isLabelLine[l] || r.claimed[l] || letterCount(l.text) < 3 || dateRE.MatchString(l.text) ||
			numberRE.MatchString(cleanToken(l.text)) || stampRE.MatchString(l.text) || containsBox(l.box, num) {
			continue
		}
		cands = append(cands, l)
	}
	if len(cands) == 0 {
		return "", geom.Box{}
	}
	// paragraphs: lines of one direction and like size stacked closely
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := toFrame(cands[i].orient, cands[i].box), toFrame(cands[j].orient, cands[j].box)
		if cands[i].orient != cands[j].orient {
			return cands[i].orient < cands[j].orient
		}
		return a.YMin < b.YMin
	})
	used := map[*tline]bool{}
	var paras [][]*tline
	for _, l := range cands {
		if used[l] {
			continue
		}
		p := append([]*tline{l}, r.paragraphAfter(l, cands)...)
		for _, x := range p {
			used[x] = true
		}
		if stampRE.MatchString(joinLineTexts(p)) {
			continue
		}
		paras = append(paras, p)
	}
	// the number's reading direction: a name set sideways beside an
	// upright number (the project's, along a vertical strip) is not the
	// title while a paragraph reads as the number does
	numO := horizontal
	for _, l := range r.lines {
		if containsBox(l.box, num) {
			numO = l.orient
		}
	}
	same := false
	for _, p := range paras {
		same = same || p[0].orient == numO
	}
	maxSize := 0.0
	for _, p := range paras {
		if !same || p[0].orient == numO {
			maxSize = math.Max(maxSize, paraSize(p))
		}
	}
	// the largest type near the number: size, decaying with the distance
	// in number heights (a stamp or the project's name in large type
	// further up the strip is not the title)
	reach := 4 * math.Min(num.Width(), num.Height())
	best, bestScore := -1, math.Inf(-1)
	for i, p := range paras {
		s := paraSize(p)
		if s < 0.5*maxSize || same && p[0].orient != numO {
			continue
		}
		d := math.Inf(1)
		for _, l := range p {
			d = math.Min(d, boxDist(l.box, num))
		}
		score := s * math.Exp(-d/reach)
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return "", geom.Box{}
	}
	return joinTitle(paras[best])
}

func paraSize(p []*tline) float64 {
	s := 0.0
	for _, l := range p {
		s = math.Max(s, l.typeSize())
	}
	return s
}

func containsBox(outer, inner geom.Box) bool {
	cx, cy := (inner.XMin+inner.XMax)/2, (inner.YMin+inner.YMax)/2
	return cx >= outer.XMin && cx <= outer.XMax && cy >= outer.YMin && cy <= outer.YMax
}

func boxDist(a, b geom.Box) float64 {
	dx := math.Max(0, math.Max(a.XMin-b.XMax, b.XMin-a.XMax))
	dy := math.Max(0, math.Max(a.YMin-b.YMax, b.YMin-a.YMax))
	return math.Hypot(dx, dy)
}

func joinLineTexts(ls []*tline) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.text
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

func joinTitle(ls []*tline) (string, geom.Box) {
	box := ls[0].box
	for _, l := range ls[1:] {
		box = union(box, l.box)
	}
	return joinLineTexts(ls), box
}

func letterCount(s string) int {
	n := 0
	for _, r := range s {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0xBF {
			n++
		}
	}
	return n
}

// rows joins lines (in reading order, of one direction) that share a row
// into one: OCR splits "1.   FLOOR PLAN" at the gap after the item number.
func rows(ls []*tline) []*tline {
	var out []*tline
	for _, l := range ls {
		if n := len(out); n > 0 {
			last := out[n-1]
			a, b := toFrame(l.orient, last.box), toFrame(l.orient, l.box)
			sa, sb := last.typeSize(), l.typeSize()
			size := math.Max(sa, sb)
			if last.orient == l.orient && math.Abs((a.YMin+a.YMax)/2-(b.YMin+b.YMax)/2) < 0.5*size &&
				b.XMin > a.XMax-0.2*size && b.XMin-a.XMax < 4*size && math.Min(sa, sb) > 0.7*size {
				out[n-1] = &tline{text: last.text + " " + l.text, box: union(last.box, l.box),
					words: append(append([]text.Word(nil), last.words...), l.words...), orient: l.orient}
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// sortedLines orders lines top to bottom, then left to right, in their
// reading frames.
func sortedLines(ls []*tline) []*tline {
	sort.SliceStable(ls, func(i, j int) bool {
		a, b := toFrame(ls[i].orient, ls[i].box), toFrame(ls[j].orient, ls[j].box)
		if math.Abs(a.YMin-b.YMin) > 0.5*math.Min(a.Height(), b.Height()) {
			return a.YMin < b.YMin
		}
		return a.XMin < b.XMin
	})
	return ls
}
