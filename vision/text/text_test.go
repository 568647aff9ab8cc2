package text

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// pdftotext's output is read as it comes and refused past
// MaxPDFTextBytes: a page with an endless text layer fails promptly
// instead of filling memory, and a page under the limit still parses.
func TestPDFPageCapsPdftotextOutput(t *testing.T) {
	dir := t.TempDir()
	word := `<word xMin="1" yMin="1" xMax="2" yMax="2">a</word>`
	script := "#!/bin/sh\nif [ \"$PDFTOTEXT_FAKE\" = endless ]; then\n  echo '<html><body><doc><page width=\"10\" height=\"10\"><flow><block><line>'\n  yes '" + word + "'\nfi\n" +
		"echo '<html><body><doc><page width=\"10\" height=\"10\"><flow><block><line>" + word + "</line></block></flow></page></doc></body></html>'\n"
	if err := os.WriteFile(filepath.Join(dir, "pdftotext"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	old := MaxPDFTextBytes
	MaxPDFTextBytes = 1 << 20
	t.Cleanup(func() { MaxPDFTextBytes = old })

	p, err := PDFPage(context.Background(), "unused.pdf", 1, 1)
	if err != nil || len(p.Words) != 1 {
		t.Fatalf("a small page: %+v, %v", p, err)
	}
	t.Setenv("PDFTOTEXT_FAKE", "endless")
	start := time.Now()
	_, err = PDFPage(context.Background(), "unused.pdf", 1, 1)
	if !errors.Is(err, ErrTextTooLarge) {
		t.Fatalf("an endless text layer: %v, want ErrTextTooLarge", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("refusing it took %s", d)
	}
}
