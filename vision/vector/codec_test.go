package vector

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func samplePage() *Page {
	p := &Page{W: 100, H: 80, DPI: 300, Truncated: true}
	p.Paths = []Path{
		{Flags: Stroke | Dashed, Grey: 0, Alpha: 1, Width: 2.5, Clip: Rect{0, 0, 100, 80}, Cmd0: 0, Cmd1: 3, Pt0: 0},
		{Flags: Fill | EvenOdd, Grey: 0.5, Alpha: 0.8, Clip: Rect{-1e30, -1e30, 1e30, 1e30}, Cmd0: 3, Cmd1: 6, Pt0: 2},
	}
	p.Cmds = []Cmd{MoveTo, LineTo, Close, MoveTo, CurveTo, Close}
	p.Pts = []Point{{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}}
	p.Glyphs = []Glyph{{Rune: 'S', A: 10, D: -10, E: 50, F: 60, Adv: 0.6, Box: Rect{50, 52, 56, 60}, Grey: 0}}
	p.Images = [][4]Point{{{0, 0}, {10, 0}, {10, 10}, {0, 10}}}
	p.Shades = []Rect{{1, 1, 2, 2}}
	return p
}

func TestCodecRoundTrip(t *testing.T) {
	p := samplePage()
	var b bytes.Buffer
	if err := p.Encode(&b); err != nil {
		t.Fatal(err)
	}
	q, err := Decode(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Fatalf("round trip differs:\n%+v\n%+v", p, q)
	}
	// an empty page too
	b.Reset()
	if err := (&Page{W: 1, H: 1, DPI: 72}).Encode(&b); err != nil {
		t.Fatal(err)
	}
	if e, err := Decode(b.Bytes()); err != nil || e.W != 1 || len(e.Paths) != 0 {
		t.Fatalf("empty page: %+v %v", e, err)
	}
}

func TestDecodeRefusesDamage(t *testing.T) {
	var b bytes.Buffer
	if err := samplePage().Encode(&b); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	for _, data := range [][]byte{nil, []byte("not zstd"), good[:len(good)/2]} {
		if _, err := Decode(data); !errors.Is(err, ErrFormat) {
			t.Errorf("Decode(%d bytes) = %v, want ErrFormat", len(data), err)
		}
	}
	// a path pointing past the points
	p := samplePage()
	p.Paths[1].Pt0 = 5
	b.Reset()
	if err := p.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(b.Bytes()); !errors.Is(err, ErrFormat) {
		t.Errorf("a path past its points: %v, want ErrFormat", err)
	}
}

func FuzzDecode(f *testing.F) {
	var b bytes.Buffer
	_ = samplePage().Encode(&b)
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data)
		if err != nil {
			return
		}
		for i := range p.Paths {
			cmds, k := p.PathCmds(i)
			_ = cmds
			_ = k
		}
	})
}
