package vector

import (
	"bytes"
	"reflect"
	"testing"
)

func TestCut(t *testing.T) {
	all := Rect{-1e30, -1e30, 1e30, 1e30}
	p := &Page{W: 400, H: 300, DPI: 150}
	add := func(width float32, clip Rect, pts ...Point) {
		p.Paths = append(p.Paths, Path{Flags: Stroke, Alpha: 1, Width: width, Clip: clip,
			Cmd0: int32(len(p.Cmds)), Cmd1: int32(len(p.Cmds) + len(pts)), Pt0: int32(len(p.Pts))})
		p.Cmds = append(p.Cmds, MoveTo)
		for range pts[1:] {
			p.Cmds = append(p.Cmds, LineTo)
		}
		p.Pts = append(p.Pts, pts...)
	}
	add(2, all, Point{110, 120}, Point{150, 120})                    // 0: inside
	add(2, all, Point{50, 150}, Point{250, 150})                     // 1: crosses the block
	add(2, all, Point{10, 10}, Point{40, 10})                        // 2: outside
	add(8, all, Point{110, 97}, Point{190, 97})                      // 3: a thick stroke reaching in by its width
	add(2, Rect{300, 0, 400, 300}, Point{110, 200}, Point{150, 200}) // 4: inside but clipped away
	p.Glyphs = []Glyph{
		{Rune: 'A', A: 10, D: -10, E: 120, F: 140, Box: Rect{120, 131, 127, 140}}, // inside
		{Rune: 'B', A: 10, D: -10, E: 96, F: 140, Box: Rect{96, 131, 103, 140}},   // middle outside (99.5 < 100)
	}
	p.Images = [][4]Point{{{190, 190}, {220, 190}, {220, 220}, {190, 220}}, {{300, 250}, {310, 250}, {310, 260}, {300, 260}}}
	p.Shades = []Rect{{0, 0, 5, 5}, {150, 150, 160, 160}}

	r := Rect{100, 100, 200.5, 210}
	c := p.Cut(r)
	if c.W != 101 || c.H != 110 || c.DPI != 150 {
		t.Fatalf("size %d×%d at %d DPI, want 101×110 at 150", c.W, c.H, c.DPI)
	}
	if len(c.Paths) != 3 {
		t.Fatalf("%d paths kept, want 3 (inside, crossing, thick)", len(c.Paths))
	}
	want := [][]Point{{{10, 20}, {50, 20}}, {{-50, 50}, {150, 50}}, {{10, -3}, {90, -3}}}
	for i, pa := range c.Paths {
		cmds, k := c.PathCmds(i)
		if len(cmds) != 2 || !reflect.DeepEqual(c.Pts[k:k+2], want[i]) {
			t.Errorf("path %d: %v %v, want the points %v", i, cmds, c.Pts[k:k+2], want[i])
		}
		if pa.Clip != (Rect{0, 0, 100.5, 110}) {
			t.Errorf("path %d: clip %v, want the block", i, pa.Clip)
		}
	}
	if len(c.Glyphs) != 1 || c.Glyphs[0].Rune != 'A' || c.Glyphs[0].E != 20 || c.Glyphs[0].F != 40 || c.Glyphs[0].Box != (Rect{20, 31, 27, 40}) {
		t.Errorf("glyphs %+v, want A moved by (-100, -100)", c.Glyphs)
	}
	if len(c.Images) != 1 || c.Images[0][0] != (Point{90, 90}) {
		t.Errorf("images %v", c.Images)
	}
	if len(c.Shades) != 1 || c.Shades[0] != (Rect{50, 50, 60, 60}) {
		t.Errorf("shades %v", c.Shades)
	}
	// the cut is a valid page: it survives its stored form
	var b bytes.Buffer
	if err := c.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if d, err := Decode(b.Bytes()); err != nil || !reflect.DeepEqual(d, c) {
		t.Fatalf("cut page does not round-trip: %v", err)
	}
	if e := p.Cut(Rect{5, 5, 5, 9}); len(e.Paths)+len(e.Glyphs) != 0 || e.W != 0 {
		t.Errorf("an empty rect kept %+v", e)
	}
}
