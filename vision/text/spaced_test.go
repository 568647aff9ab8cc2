package text

import (
	"reflect"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
)

// letters sets s one word per character, h high, with gap between
// letters and wide between the words of s.
func letters(line int, x, h, gap, wide float64, s string) []Word {
	var out []Word
	for _, r := range s {
		if r == ' ' {
			x += wide - gap
			continue
		}
		out = append(out, Word{Text: string(r), Line: line, Conf: 1, Box: geom.Box{XMin: x, YMin: 100, XMax: x + 0.7*h, YMax: 100 + h}})
		x += 0.7*h + gap
	}
	return out
}

func texts(ws []Word) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Text)
	}
	return out
}

func TestJoinSpacedLetters(t *testing.T) {
	for _, c := range []struct {
		name  string
		words []Word
		want  []string
	}{
		{"a tracked heading", letters(1, 0, 10, 8, 30, "LEGEND"), []string{"LEGEND"}},
		{"two tracked words", letters(1, 0, 10, 8, 30, "KEY PLAN"), []string{"KEY", "PLAN"}},
		{"words set normally", []Word{
			{Text: "A", Line: 2, Box: geom.Box{XMin: 0, YMin: 0, XMax: 7, YMax: 10}},
			{Text: "FLOOR", Line: 2, Box: geom.Box{XMin: 12, YMin: 0, XMax: 50, YMax: 10}},
			{Text: "B", Line: 2, Box: geom.Box{XMin: 55, YMin: 0, XMax: 62, YMax: 10}},
		}, []string{"A", "FLOOR", "B"}},
		{"grid bubbles far apart", letters(3, 0, 10, 200, 200, "ABCD"), []string{"A", "B", "C", "D"}},
		{"two letters", letters(4, 0, 10, 8, 30, "NO"), []string{"N", "O"}},
	} {
		if got := texts(JoinSpacedLetters(c.words)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// other lines' words keep their places around a joined run
	ws := append([]Word{{Text: "NOTE", Line: 9, Box: geom.Box{XMin: 0, YMin: 0, XMax: 40, YMax: 10}}}, letters(1, 0, 10, 8, 30, "LEGEND")...)
	ws = append(ws, Word{Text: "END", Line: 10, Box: geom.Box{XMin: 0, YMin: 300, XMax: 30, YMax: 310}})
	got := JoinSpacedLetters(ws)
	if !reflect.DeepEqual(texts(got), []string{"NOTE", "LEGEND", "END"}) || got[1].Box.XMin != 0 || got[1].Box.XMax < 80 {
		t.Errorf("joined %+v", got)
	}
}
