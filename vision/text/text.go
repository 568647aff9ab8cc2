// Package text reads the words of a drawing with their boxes: from a PDF's
// text layer (poppler's pdftotext -bbox-layout) and, for pages without a
// usable layer, from OCR. Boxes are in pixels of the rendered page.
package text

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/plangraph/plangraph/vision/geom"
)

// Word is one word and where it is.
type Word struct {
	Text string   `json:"text"`
	Box  geom.Box `json:"box"`
	// Line numbers the word's line within the page (words of a line share it).
	Line int `json:"line"`
	// Conf is the recogniser's confidence, 1 for a PDF text layer.
	Conf float64 `json:"conf"`
}

// Page is the text of one page.
type Page struct {
	// Width and Height of the page in PDF points (1/72 in).
	Width, Height float64
	Words         []Word
}

// Line is a run of words on one line.
type Line struct {
	Text  string
	Box   geom.Box
	Words []Word
}

// Lines groups a page's words by line, in reading order.
func Lines(words []Word) []Line {
	var out []Line
	idx := map[int]int{}
	for _, w := range words {
		i, ok := idx[w.Line]
		if !ok {
			idx[w.Line] = len(out)
			out = append(out, Line{Box: w.Box})
			i = len(out) - 1
		}
		l := &out[i]
		if len(l.Words) > 0 {
			l.Text += " "
			l.Box = union(l.Box, w.Box)
		}
		l.Text += w.Text
		l.Words = append(l.Words, w)
	}
	return out
}

func union(a, b geom.Box) geom.Box {
	return geom.Box{XMin: min(a.XMin, b.XMin), YMin: min(a.YMin, b.YMin), XMax: max(a.XMax, b.XMax), YMax: max(a.YMax, b.YMax)}
}

// ErrNoPdftotext is returned when poppler's pdftotext is not installed.
var ErrNoPdftotext = errors.New("text: pdftotext (poppler-utils) is not installed")

// PDFPage reads the text layer of page (1-based) of the PDF at path, with
// boxes scaled by scale (pixels per point: dpi / 72).
func PDFPage(ctx context.Context, path string, page int, scale float64) (Page, error) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		return Page{}, ErrNoPdftotext
	}
	var out, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-q", "-bbox-layout", "-f", strconv.Itoa(page), "-l", strconv.Itoa(page), path, "-")
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return Page{}, fmt.Errorf("pdftotext page %d: %v: %s", page, err, strings.TrimSpace(stderr.String()))
	}
	pages, err := ParseBBoxLayout(&out, scale)
	if err != nil {
		return Page{}, err
	}
	if len(pages) == 0 {
		return Page{}, fmt.Errorf("pdftotext page %d: no page in output", page)
	}
	return pages[0], nil
}

// ParseBBoxLayout parses pdftotext -bbox-layout XHTML. Coordinates are
// multiplied by scale.
func ParseBBoxLayout(r io.Reader, scale float64) ([]Page, error) {
	dec := xml.NewDecoder(r)
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	var (
		pages []Page
		cur   *Page
		line  int
		inW   bool
		word  Word
	)
	attr := func(se xml.StartElement, name string) float64 {
		for _, a := range se.Attr {
			if a.Name.Local == name {
				v, _ := strconv.ParseFloat(a.Value, 64)
				return v
			}
		}
		return 0
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return pages, fmt.Errorf("pdftotext output: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "page":
				pages = append(pages, Page{Width: attr(t, "width"), Height: attr(t, "height")})
				cur = &pages[len(pages)-1]
			case "line":
				line++
			case "word":
				if cur == nil {
					continue
				}
				inW = true
				word = Word{Line: line, Conf: 1, Box: geom.Box{
					XMin: attr(t, "xMin") * scale, YMin: attr(t, "yMin") * scale,
					XMax: attr(t, "xMax") * scale, YMax: attr(t, "yMax") * scale,
				}}
			}
		case xml.CharData:
			if inW {
				word.Text += string(t)
			}
		case xml.EndElement:
			if t.Name.Local == "word" && inW {
				inW = false
				word.Text = strings.TrimSpace(word.Text)
				if word.Text != "" && word.Box.Valid() {
					cur.Words = append(cur.Words, word)
				}
			}
		}
	}
	return pages, nil
}
