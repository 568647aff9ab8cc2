package legend

import (
	"regexp"
	"sort"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// abbrevTerm is an abbreviation set before "=" in a list of them
// ("AK = Außenkante", "GK-Wand = Gipskartonständerwand").
var abbrevTerm = regexp.MustCompile(`^[\p{Lu}\p{N}][\p{L}\p{N}.\-/]{0,11}$`)

// splitAbbreviations turns text-only entries that are rows of an
// abbreviation list set as "TERM = meaning", several to a row ("AK =
// Außenkante   FFB = Fertigfußboden   RFB = Rohfußboden"), into one entry
// per term, each boxed by its own words. Entries with a graphic and rows
// without such pairs are kept as they are.
//
// A graphic's entry whose text is such pairs ("MW = Mauerwerk" beside a
// hatch; "FFB = Fertigfußboden" and "RFB = Rohfußboden" both beside one
// level marker) gives an entry per term, each with the graphic.
func splitAbbreviations(es []Entry, words []text.Word) []Entry {
	var out []Entry
	for _, e := range es {
		if !strings.Contains(e.Label+" "+e.Description, "=") {
			out = append(out, e)
			continue
		}
		var pairs []Entry
		if !e.HasGraphic {
			pairs = abbrevPairs(wordsWithin(words, e.Box), 2)
		} else if pairs = abbrevPairs(wordsBeside(words, e), 1); len(pairs) > 0 && !strings.HasPrefix(e.Label, pairs[0].Label) {
			pairs = nil // text before the first term: not a list of terms
		}
		if len(pairs) == 0 {
			out = append(out, e)
			continue
		}
		for _, pe := range pairs {
			if e.HasGraphic {
				pe.HasGraphic, pe.Graphic, pe.Exemplar = true, e.Graphic, e.Exemplar
				g := e.Graphic
				pe.Box = geom.Box{XMin: min(pe.Box.XMin, g.XMin), YMin: min(pe.Box.YMin, g.YMin),
					XMax: max(pe.Box.XMax, g.XMax), YMax: max(pe.Box.YMax, g.YMax)}
			}
			out = append(out, pe)
		}
	}
	return out
}

// wordsBeside are the words of an entry outside its graphic, in reading
// order.
func wordsBeside(words []text.Word, e Entry) []text.Word {
	var ws []text.Word
	for _, w := range wordsWithin(words, e.Box) {
		cx, cy := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
		if cx < e.Graphic.XMin || cx > e.Graphic.XMax || cy < e.Graphic.YMin || cy > e.Graphic.YMax {
			ws = append(ws, w)
		}
	}
	return ws
}

// wordsWithin are the words centred in b, in reading order (by line, then
// left to right).
func wordsWithin(words []text.Word, b geom.Box) []text.Word {
	var ws []text.Word
	for _, w := range words {
		cx, cy := (w.Box.XMin+w.Box.XMax)/2, (w.Box.YMin+w.Box.YMax)/2
		if cx >= b.XMin && cx <= b.XMax && cy >= b.YMin && cy <= b.YMax {
			ws = append(ws, w)
		}
	}
	sort.SliceStable(ws, func(i, j int) bool {
		a, c := ws[i].Box, ws[j].Box
		if ov := min(a.YMax, c.YMax) - max(a.YMin, c.YMin); ov < 0.5*min(a.Height(), c.Height()) {
			return a.YMin < c.YMin
		}
		return a.XMin < c.XMin
	})
	return ws
}

// abbrevPairs reads "TERM = meaning" pairs from words in reading order:
// a term is a short word followed by "=" (as its own word or its last
// character); the meaning runs to the next term on the same line. Fewer
// than minPairs terms give none.
func abbrevPairs(ws []text.Word, minPairs int) []Entry {
	type start struct{ at, skip int } // term at ws[at], meaning from at+skip
	var starts []start
	for i, w := range ws {
		t := strings.TrimSuffix(w.Text, "=")
		switch {
		case t != w.Text && abbrevTerm.MatchString(t):
			starts = append(starts, start{i, 1})
		case i+1 < len(ws) && ws[i+1].Text == "=" && abbrevTerm.MatchString(w.Text) && sameLine(w, ws[i+1]):
			starts = append(starts, start{i, 2})
		case i+1 < len(ws) && strings.HasPrefix(ws[i+1].Text, "=") && len(ws[i+1].Text) > 1 && abbrevTerm.MatchString(w.Text) && sameLine(w, ws[i+1]):
			starts = append(starts, start{i, 1}) // "AK =Außenkante"
		}
	}
	if len(starts) < minPairs {
		return nil
	}
	var out []Entry
	for k, s := range starts {
		end := len(ws)
		if k+1 < len(starts) {
			end = starts[k+1].at
		}
		term := strings.TrimSuffix(ws[s.at].Text, "=")
		box := ws[s.at].Box
		var meaning []string
		for i := s.at + s.skip; i < end; i++ {
			// the meaning stays on the term's line, or runs on under it
			if !sameLine(ws[s.at], ws[i]) && ws[i].Box.XMin < ws[s.at].Box.XMin-ws[s.at].Box.Height() {
				break
			}
			meaning = append(meaning, strings.TrimPrefix(ws[i].Text, "="))
			box = geom.Box{XMin: min(box.XMin, ws[i].Box.XMin), YMin: min(box.YMin, ws[i].Box.YMin),
				XMax: max(box.XMax, ws[i].Box.XMax), YMax: max(box.YMax, ws[i].Box.YMax)}
		}
		desc := strings.TrimSpace(strings.Join(meaning, " "))
		if desc == "" {
			continue
		}
		out = append(out, Entry{Label: term, Description: desc, Box: box})
	}
	return out
}

func sameLine(a, b text.Word) bool {
	return min(a.Box.YMax, b.Box.YMax)-max(a.Box.YMin, b.Box.YMin) >= 0.5*min(a.Box.Height(), b.Box.Height())
}
