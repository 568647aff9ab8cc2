package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/geom"
)

// TestSynthScoring feeds Synth a parser that answers with the ground truth
// itself, rendered at half the truth's DPI with instance bounds in block
// pixels, less one instance and plus one stray detection: the scores must
// come out exactly.
func TestSynthScoring(t *testing.T) {
	truthParse := func(ctx context.Context, path string) (SynthParsed, error) {
		p := SynthParsed{Blocks: map[string]SynthBlock{}}
		b, err := os.ReadFile(strings.TrimSuffix(path, ".pdf") + ".json")
		if err != nil {
			return p, err
		}
		var tr synth.Truth
		if err := json.Unmarshal(b, &tr); err != nil {
			return p, err
		}
		const k = 0.5 // rendered at half the truth's DPI
		half := func(b geom.Box) geom.Box {
			return geom.Box{XMin: b.XMin * k, YMin: b.YMin * k, XMax: b.XMax * k, YMax: b.YMax * k}
		}
		bySym := map[string]int{}
		for _, st := range tr.Sheets {
			for bi, bt := range st.Blocks {
				id := fmt.Sprintf("blk_%d_%d", st.Page, bi)
				p.Blocks[id] = SynthBlock{Page: st.Page, Bounds: half(bt.Box), DPI: int(tr.DPI * k)}
				if len(bt.Entries) > 0 {
					lr := parse.LegendResult{BlockID: &id}
					for _, e := range bt.Entries {
						lr.Symbols = append(lr.Symbols, parse.LegendSymbol{Label: e.Label, Description: e.Description, HasGraphic: e.HasGraphic})
					}
					p.Result.Legend = append(p.Result.Legend, lr)
				}
			}
			for i, in := range st.Instances[1:] { // the first is missed
				id := fmt.Sprintf("blk_%d_%d", st.Page, in.Block)
				o := p.Blocks[id].Bounds
				box := half(in.Box).Translate(-o.XMin, -o.YMin)
				si, ok := bySym[in.Label]
				if !ok {
					si = len(p.Result.Symbols)
					bySym[in.Label] = si
					p.Result.Symbols = append(p.Result.Symbols, parse.ParseSymbol{Label: in.Label})
				}
				s := &p.Result.Symbols[si]
				s.Instances = append(s.Instances, parse.ParseInstance{BlockID: id, Bounds: box, Confidence: 0.9})
				if i == 0 { // and a stray one far from it
					s.Instances = append(s.Instances, parse.ParseInstance{BlockID: id, Bounds: box.Translate(-box.XMin, -box.YMin), Confidence: 0.6})
				}
			}
		}
		return p, nil
	}
	var out bytes.Buffer
	res, err := Synth(context.Background(), SynthOptions{Seeds: 1, Sheets: 2, PageSize: "24x18", Dir: t.TempDir(), Parse: truthParse}, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out.String())
	c := res.Overall
	if c.FP != 2 || c.FN != 2 || c.TP < 10 {
		t.Errorf("overall %+v, want 2 FP and 2 FN (one each per sheet)", c)
	}
	if res.LegendTotal == 0 || res.LegendRight != res.LegendTotal {
		t.Errorf("legend %d/%d", res.LegendRight, res.LegendTotal)
	}
	if len(res.Errors) != 4 || len(res.PerSheet) != 2 || len(res.RenderPerSheet) != 2 {
		t.Errorf("%d errors, %d sheet times, %d render times", len(res.Errors), len(res.PerSheet), len(res.RenderPerSheet))
	}
	for _, d := range res.RenderPerSheet {
		if d <= 0 {
			t.Errorf("render time %v", d)
		}
	}
	if !strings.Contains(out.String(), "parse time / render time: mean") {
		t.Errorf("no speed ratio in\n%s", out.String())
	}
	for _, e := range res.Errors {
		if e.Miss && (e.Truth == nil || e.Detection != nil) || !e.Miss && (e.Detection == nil || e.In == "") {
			t.Errorf("error %+v", e)
		}
	}
	if !strings.Contains(out.String(), "  miss seed 1 p1 truth") || !strings.Contains(out.String(), "  FP   seed 1 p1 det") {
		t.Errorf("no examples in\n%s", out.String())
	}
}
