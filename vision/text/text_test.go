package text

import (
	"strings"
	"testing"
)

const sample = `<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title></title></head><body><doc>
<page width="3024.000000" height="2160.000000"><flow><block xMin="1" yMin="2" xMax="3" yMax="4">
<line xMin="2799" yMin="2055.2" xMax="2900" yMax="2102.5"><word xMin="2799" yMin="2055.2" xMax="2900" yMax="2102.5">E201A</word></line>
<line xMin="10" yMin="20" xMax="90" yMax="30"><word xMin="10" yMin="20" xMax="40" yMax="30">POWER</word><word xMin="45" yMin="20" xMax="90" yMax="30">&amp;</word></line>
</block></flow></page></doc></body></html>`

func TestParseBBoxLayout(t *testing.T) {
	pages, err := ParseBBoxLayout(strings.NewReader(sample), 300.0/72)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 || pages[0].Width != 3024 || len(pages[0].Words) != 3 {
		t.Fatalf("got %+v", pages)
	}
	w := pages[0].Words[0]
	if w.Text != "E201A" || int(w.Box.XMin) != 11662 || w.Conf != 1 {
		t.Fatalf("first word %+v", w)
	}
	lines := Lines(pages[0].Words)
	if len(lines) != 2 || lines[1].Text != "POWER &" || lines[1].Box.XMax != 90*300.0/72 {
		t.Fatalf("lines %+v", lines)
	}
}

func FuzzParseBBoxLayout(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte(`<page width="1" height="1"><word xMin="a">x</word>`))
	f.Add([]byte(`<word>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		pages, _ := ParseBBoxLayout(strings.NewReader(string(b)), 1)
		for _, p := range pages {
			for _, w := range p.Words {
				if w.Text == "" || !w.Box.Valid() {
					t.Fatalf("kept an empty or inverted word %+v", w)
				}
			}
		}
	})
}
