package symbols

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"

	"github.com/plangraph/plangraph/vision/geom"
)

// Truth is one ground-truth instance for scoring.
type Truth struct {
	Label string
	Box   geom.Box
}

// Counts are the detection outcomes for one label (or all).
type Counts struct {
	TP, FP, FN int
}

// Precision is TP/(TP+FP), 1 when nothing was detected.
func (c Counts) Precision() float64 {
	if c.TP+c.FP == 0 {
		return 1
	}
	return float64(c.TP) / float64(c.TP+c.FP)
}

// Recall is TP/(TP+FN), 1 when nothing was expected.
func (c Counts) Recall() float64 {
	if c.TP+c.FN == 0 {
		return 1
	}
	return float64(c.TP) / float64(c.TP+c.FN)
}

// F1 is the harmonic mean of precision and recall.
func (c Counts) F1() float64 {
	p, r := c.Precision(), c.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Add sums counts.
func (c *Counts) Add(o Counts) { c.TP += o.TP; c.FP += o.FP; c.FN += o.FN }

// Score matches detections to truth greedily, most confident first: a
// detection is right when it has the truth's label and IoU ≥ minIoU with an
// instance not yet matched. It returns counts per label.
func Score(dets []Detection, truth []Truth, minIoU float64) map[string]Counts {
	out := map[string]Counts{}
	order := make([]int, len(dets))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return dets[order[a]].Confidence > dets[order[b]].Confidence })
	used := make([]bool, len(truth))
	for _, i := range order {
		d := dets[i]
		best, bi := minIoU, -1
		for j, t := range truth {
			if used[j] || t.Label != d.Label {
				continue
			}
			if v := d.Box.IoU(t.Box); v >= best {
				best, bi = v, j
			}
		}
		c := out[d.Label]
		if bi >= 0 {
			used[bi] = true
			c.TP++
		} else {
			c.FP++
		}
		out[d.Label] = c
	}
	for j, t := range truth {
		if !used[j] {
			c := out[t.Label]
			c.FN++
			out[t.Label] = c
		}
	}
	return out
}

// ReadSESYDTruth reads SESYD ground truth: <gom.std.OSymbol label x0 y0 x1 y1>.
func ReadSESYDTruth(path string) ([]Truth, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Truth
	dec := xml.NewDecoder(f)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "gom.std.OSymbol" {
			continue
		}
		var t Truth
		for _, a := range se.Attr {
			v, _ := strconv.ParseFloat(a.Value, 64)
			switch a.Name.Local {
			case "label":
				t.Label = a.Value
			case "x0":
				t.Box.XMin = v
			case "y0":
				t.Box.YMin = v
			case "x1":
				t.Box.XMax = v
			case "y1":
				t.Box.YMax = v
			}
		}
		out = append(out, t)
	}
}
