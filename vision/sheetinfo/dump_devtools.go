//go:build devtools

package sheetinfo

import (
	"fmt"
	"io"

	"github.com/plangraph/plangraph/vision/text"
)

// Dump writes what the reader makes of words: the labels it finds, the
// value lines of each, and the lines in the title block (development aid).
func Dump(out io.Writer, words []text.Word, w, h float64, hints Hints) {
	r := newReader(words, w, h, hints)
	for _, lb := range r.labels {
		in := ""
		if lb.inline != nil {
			in = joinWords(lb.inline)
		}
		fmt.Fprintf(out, "label %s %q inline=%q at %v", lb.kind, lb.line.text, in, lb.box)
		if hints.Cells != nil {
			fmt.Fprintf(out, " cell %v", hints.Cells(lb.box))
		}
		fmt.Fprintln(out)
		for _, l := range r.valueLines(lb) {
			fmt.Fprintf(out, "    value %q %v\n", l.text, l.box)
		}
	}
	for _, l := range r.lines {
		if r.inTB(l.box) {
			fmt.Fprintf(out, "line %q %v orient=%d label=%v claimed=%v size=%.1f\n", l.text, l.box, l.orient, r.isLabelLine[l], r.claimed[l], l.typeSize())
		}
	}
}
