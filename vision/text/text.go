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
	"time"

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
			l.Box = l.Box.Union(w.Box)
		}
		l.Text += w.Text
		l.Words = append(l.Words, w)
	}
	return out
}

// ErrNoPdftotext is returned when poppler's pdftotext is not installed.
var ErrNoPdftotext = errors.New("text: pdftotext (poppler-utils) is not installed")

// MaxPDFTextBytes bounds pdftotext's output for one page, read as it
// comes (a page's text layer is some megabytes at most; a hostile one may
// be far more): past it the page's text is refused with ErrTextTooLarge.
var MaxPDFTextBytes int64 = 64 << 20

// ErrTextTooLarge is a page whose text layer is over MaxPDFTextBytes.
var ErrTextTooLarge = errors.New("text: the page's text layer is too large")

// PDFPage reads the text layer of page (1-based) of the PDF at path, with
// boxes scaled by scale (pixels per point: dpi / 72). pdftotext's output
// is parsed as it is written, never held whole, and at most
// MaxPDFTextBytes of it is read.
func PDFPage(ctx context.Context, path string, page int, scale float64) (Page, error) {
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		return Page{}, ErrNoPdftotext
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stderr := &headBuffer{max: 4 << 10}
	cmd := exec.CommandContext(ctx, bin, "-q", "-bbox-layout", "-f", strconv.Itoa(page), "-l", strconv.Itoa(page), path, "-")
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second // a killed process's pipes are closed even if something holds them
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Page{}, err
	}
	if err := cmd.Start(); err != nil {
		return Page{}, fmt.Errorf("pdftotext page %d: %w", page, err)
	}
	capped := &capReader{r: stdout, left: MaxPDFTextBytes}
	pages, perr := ParseBBoxLayout(capped, scale)
	if perr != nil || capped.over {
		cancel() // stop pdftotext rather than read the rest
	} else {
		_, _ = io.Copy(io.Discard, capped) // anything after the page's XHTML
	}
	werr := cmd.Wait()
	switch {
	case capped.over:
		return Page{}, fmt.Errorf("pdftotext page %d: over %d bytes: %w", page, MaxPDFTextBytes, ErrTextTooLarge)
	case werr != nil:
		return Page{}, fmt.Errorf("pdftotext page %d: %v: %s", page, werr, strings.TrimSpace(stderr.String()))
	case perr != nil:
		return Page{}, perr
	case len(pages) == 0:
		return Page{}, fmt.Errorf("pdftotext page %d: no page in output", page)
	}
	return pages[0], nil
}

// capReader reads at most left bytes of r; past them it reports EOF and
// marks itself over.
type capReader struct {
	r    io.Reader
	left int64
	over bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// one byte more tells a stream of exactly the limit from a longer one
		var b [1]byte
		if n, _ := c.r.Read(b[:]); n > 0 {
			c.over = true
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// headBuffer keeps the first max bytes written to it and drops the rest.
type headBuffer struct {
	bytes.Buffer
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - h.Len(); room > 0 {
		h.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
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
