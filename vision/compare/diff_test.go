package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/text"
)

// TestIgnoreHatches: B adds a hatched area, a light screen and a symbol.
// All three are changes; with Options.IgnoreHatches only the symbol is,
// and a warning says what was left out.
func TestIgnoreHatches(t *testing.T) {
	p := newPlan(31, 1500, 1000)
	q := p.clone()
	edits := map[string]geom.Box{
		"hatch":  q.addHatch(180, 620, 330, 760, 9),
		"screen": q.addScreen(620, 200, 760, 300, 215),
		"symbol": q.addSymbol(900, 640, 'H'),
	}
	a := side(p.draw(Identity, 1500, 1000, 2), 150)
	b := side(q.draw(Transform{Scale: 1.05, RotationDeg: 0.8, Tx: 7.5, Ty: -20.25}, 1500, 1000, 2), 150)
	tr := Transform{Scale: 1.05, RotationDeg: 0.8, Tx: 7.5, Ty: -20.25}
	found := func(ov *Overlay, name string) bool {
		for _, r := range ov.Regions {
			if meets(r.Bounds, tr.ApplyBox(edits[name])) {
				return true
			}
		}
		return false
	}

	ov := generate(t, a, b, Options{})
	if len(ov.Regions) != 3 {
		t.Errorf("%d regions, want 3: %+v", len(ov.Regions), ov.Regions)
	}
	for name := range edits {
		if !found(ov, name) {
			t.Errorf("%s not found", name)
		}
	}

	ov = generate(t, a, b, Options{IgnoreHatches: true})
	if len(ov.Regions) != 1 || !found(ov, "symbol") {
		t.Errorf("ignoring hatches: regions %+v, want the symbol's alone", ov.Regions)
	}
	if w := strings.Join(ov.Warnings, " "); !strings.Contains(w, "1 region(s) of hatching and 1 of faint") {
		t.Errorf("warnings %q, want one counting a hatch and a faint region", ov.Warnings)
	}
}

// TestPeriodic checks the hatch test's profile rule on its own: strokes
// every 7 or 12 bins over a slow trend (an outline) are a hatch; two
// strokes (a wall's lines), strokes at random places and a bare trend are
// not.
func TestPeriodic(t *testing.T) {
	prof := func(at ...int) []float64 {
		p := make([]float64, 160)
		for i := range p {
			p[i] = 3 + 2*math.Sin(float64(i)/40) // the trend
		}
		for _, x := range at {
			p[x] += 10
			p[x+1] += 10
		}
		return p
	}
	every := func(from, step, n int) []int {
		var out []int
		for i := 0; i < n; i++ {
			out = append(out, from+i*step)
		}
		return out
	}
	for _, c := range []struct {
		name string
		at   []int
		want bool
	}{
		{"every 7", every(10, 7, 18), true},
		{"every 12", every(5, 12, 11), true},
		{"two lines", []int{60, 66}, false},
		{"scattered", []int{3, 17, 22, 61, 64, 90, 131, 140}, false},
		{"no strokes", nil, false},
	} {
		if got := periodic(prof(c.at...), 24); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTextChanges: words of a text layer that changed in place are
// marked on both sides; unchanged words, OCR words and words that only
// moved with the page are not.
func TestTextChanges(t *testing.T) {
	tr := Transform{Scale: 1.1, Tx: 30, Ty: -12}
	word := func(s string, x, y, conf float64) text.Word {
		return text.Word{Text: s, Box: geom.Box{XMin: x, YMin: y, XMax: x + 40, YMax: y + 12}, Conf: conf}
	}
	moved := func(w text.Word) text.Word { w.Box = tr.ApplyBox(w.Box); return w }
	a := &Side{Words: []text.Word{word("REV", 100, 100, 1), word("A", 150, 100, 1), word("OFFICE", 300, 200, 1), word("LOBBY", 500, 500, 0.7)}}
	b := &Side{Words: []text.Word{moved(word("REV", 100, 100, 1)), moved(word("B", 150, 100, 1)), moved(word("OFFICE", 300, 200, 1)), moved(word("L0BBY", 500, 500, 0.7))}}
	got := textChanges(a, b, tr)
	want := paddedPixelRect(tr.ApplyBox(word("A", 150, 100, 1).Box))
	if len(got) != 2 || got[0] != want || got[1] != want {
		t.Errorf("changed boxes %v, want %v twice (A's letter moved into B, B's letter)", got, want)
	}
}
