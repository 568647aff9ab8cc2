package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/legend"
	"github.com/plangraph/plangraph/vision/render"
	"github.com/plangraph/plangraph/vision/symbols"
)

// SynthParse runs the local parse pipeline (legends read from the sheets,
// as `plangraph parse FILE` does) on the drawing at path. It returns the
// parse result and where the blocks that result names lie.
type SynthParse func(ctx context.Context, path string) (SynthParsed, error)

// SynthParsed is a parse of one synthetic drawing.
type SynthParsed struct {
	Result parse.ParseResult
	// Blocks are the blocks named by Result, by id.
	Blocks map[string]SynthBlock
}

// SynthBlock places a block: its page (1-based), its bounds in sheet
// pixels and the DPI its sheet was rendered at.
type SynthBlock struct {
	Page   int
	Bounds geom.Box
	DPI    int
}

// SynthOptions configure a synthetic benchmark run.
type SynthOptions struct {
	// Seeds is how many drawings are made, one per seed, from FirstSeed
	// (default 3).
	Seeds int
	// FirstSeed is the first seed (default 1): seeds not used while tuning
	// are a held-out check of the same parameters.
	FirstSeed int
	// Sheets per drawing (default 3).
	Sheets int
	// DPI of the ground truth; the parse should render at it (default 300).
	DPI int
	// PageSize as synth.Options takes it (default 36x24).
	PageSize string
	// Vary drafts plan instances unlike their legend graphic (synth.Options.Vary).
	Vary bool
	// Conventions are the drawings' drafting conventions
	// (synth.Options.Conventions: "" or "classic", "mixed").
	Conventions string
	// Dir keeps the drawings, truths and results (default: a temporary
	// directory, removed after).
	Dir string
	// Examples is how many false positives and misses are printed for each
	// of the worst labels (default 5; negative: none).
	Examples int
	Parse    SynthParse
}

// SynthResult is the outcome of a synthetic run.
type SynthResult struct {
	PerLabel map[string]symbols.Counts
	Overall  symbols.Counts
	// LegendRight of LegendTotal truth legend entries were found with the
	// right label, description and has_graphic (legend.MatchEntries).
	LegendRight, LegendTotal int
	// PerSheet is each drawing's parse wall time (upload, ingestion, legends,
	// matching) divided by its sheets.
	PerSheet []time.Duration
	// RenderPerSheet is, for each sheet in the order of PerSheet, the time
	// to render its page at the parse's DPI with the service's renderer
	// (best of three, timed in the same run before any parse, with nothing
	// else running): the speed goal is a parse within 8 times it.
	RenderPerSheet []time.Duration
	PeakRSSMB      float64
	// Errors are the false positives and misses, in truth pixels.
	Errors []SynthError
	// LegendMisses are the truth entries not found, and LegendExtra the found
	// entries that matched none.
	LegendMisses, LegendExtra []SynthLegendError
}

// SynthError is a false positive (Truth nil unless a truth instance of any
// label overlaps it) or a miss (Detection nil unless a detection of any
// label overlaps it). Boxes are sheet pixels at the truth DPI.
type SynthError struct {
	Seed  int64
	Page  int
	Miss  bool
	Label string
	// Truth is the missed instance, or the truth that best overlaps the
	// false positive.
	Truth *synth.InstanceTruth
	// Detection is the false positive, or the detection that best overlaps
	// the missed instance.
	Detection *symbols.Detection
	IoU       float64
	// In is the type of the truth block holding the false positive's centre.
	In string
}

// SynthLegendError is a legend entry missed or found wrongly.
type SynthLegendError struct {
	Seed        int64
	Page        int
	Label       string
	Description string
	HasGraphic  bool
}

// Synth generates o.Seeds synthetic drawings, parses each with o.Parse and
// scores the symbols found (same label, IoU ≥ 0.5) and the legend entries
// read, printing a table to out.
func Synth(ctx context.Context, o SynthOptions, out io.Writer) (SynthResult, error) {
	res := SynthResult{PerLabel: map[string]symbols.Counts{}}
	if o.Parse == nil {
		return res, fmt.Errorf("bench synth: no parser")
	}
	if o.Seeds <= 0 {
		o.Seeds = 3
	}
	if o.FirstSeed <= 0 {
		o.FirstSeed = 1
	}
	if o.Sheets <= 0 {
		o.Sheets = 3
	}
	if o.DPI <= 0 {
		o.DPI = 300
	}
	if o.Examples == 0 {
		o.Examples = 5
	}
	dir, done, err := workDir(o.Dir, "plangraph-bench-synth-")
	if err != nil {
		return res, err
	}
	defer done()
	// every drawing is made and each page's render timed first, while
	// nothing else runs (after a parse the process is still returning its
	// memory, which slowed renders timed between parses up to fourfold)
	sets := make([]*synth.Set, o.Seeds)
	renderOf := make([]map[int]time.Duration, o.Seeds)
	for i := range sets {
		seed := int64(o.FirstSeed + i)
		set, err := synth.Generate(synth.Options{Seed: seed, Sheets: o.Sheets, PageSize: o.PageSize, DPI: float64(o.DPI), Vary: o.Vary, Conventions: o.Conventions})
		if err != nil {
			return res, err
		}
		base := filepath.Join(dir, fmt.Sprintf("synth-%d", seed))
		if err := synth.WriteFile(base+".pdf", set.WritePDF); err != nil {
			return res, err
		}
		if err := synth.WriteFile(base+".json", set.WriteTruth); err != nil {
			return res, err
		}
		renderOf[i] = map[int]time.Duration{}
		for _, sh := range set.Truth.Sheets {
			d, err := renderTime(ctx, base+".pdf", sh.Page, o.DPI)
			if err != nil {
				return res, fmt.Errorf("seed %d: %w", seed, err)
			}
			renderOf[i][sh.Page] = d
		}
		sets[i] = set
	}
	for i, set := range sets {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		seed := int64(o.FirstSeed + i)
		base := filepath.Join(dir, fmt.Sprintf("synth-%d", seed))
		var renders time.Duration
		for _, d := range renderOf[i] {
			renders += d
		}
		st := time.Now()
		parsed, err := o.Parse(ctx, base+".pdf")
		if err != nil {
			return res, fmt.Errorf("seed %d: %w", seed, err)
		}
		el := time.Since(st)
		if err := synth.WriteFile(base+"-result.json", func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(parsed.Result)
		}); err != nil {
			return res, err
		}
		for _, sh := range set.Truth.Sheets {
			res.PerSheet = append(res.PerSheet, el/time.Duration(len(set.Truth.Sheets)))
			res.RenderPerSheet = append(res.RenderPerSheet, renderOf[i][sh.Page])
		}
		var drawing symbols.Counts
		legRight, legTotal := 0, 0
		for _, st := range set.Truth.Sheets {
			dets := synthDetections(parsed, st.Page, set.Truth.DPI)
			truth := make([]symbols.Truth, len(st.Instances))
			for i, in := range st.Instances {
				truth[i] = symbols.Truth{Label: in.Label, Box: in.Box}
			}
			for l, c := range symbols.Score(dets, truth, 0.5) {
				drawing.Add(c)
				t := res.PerLabel[l]
				t.Add(c)
				res.PerLabel[l] = t
			}
			res.Errors = append(res.Errors, synthErrors(seed, st, dets)...)
			r, t, miss, extra := synthLegend(seed, st, parsed)
			legRight += r
			legTotal += t
			res.LegendMisses = append(res.LegendMisses, miss...)
			res.LegendExtra = append(res.LegendExtra, extra...)
		}
		res.Overall.Add(drawing)
		res.LegendRight += legRight
		res.LegendTotal += legTotal
		fmt.Fprintf(out, "seed %d: %d sheets, %d instances, %d detections, P %.3f R %.3f F1 %.3f, legend %d/%d, %.1f s per sheet = %.0f× its render (%.2f s)\n",
			seed, len(set.Truth.Sheets), drawing.TP+drawing.FN, drawing.TP+drawing.FP, drawing.Precision(), drawing.Recall(), drawing.F1(),
			legRight, legTotal, el.Seconds()/float64(len(set.Truth.Sheets)), el.Seconds()/renders.Seconds(),
			renders.Seconds()/float64(len(set.Truth.Sheets)))
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		res.PeakRSSMB = float64(ru.Maxrss) / 1024
	}
	res.print(out, o.Examples)
	return res, nil
}

// synthDetections are the instances of the result on page, in sheet pixels
// at the truth's DPI.
func synthDetections(p SynthParsed, page int, truthDPI float64) []symbols.Detection {
	var dets []symbols.Detection
	for _, s := range p.Result.Symbols {
		for _, in := range s.Instances {
			b, ok := p.Blocks[in.BlockID]
			if !ok || b.Page != page {
				continue
			}
			k := 1.0
			if b.DPI > 0 {
				k = truthDPI / float64(b.DPI)
			}
			box := in.Bounds.Translate(b.Bounds.XMin, b.Bounds.YMin)
			box = geom.Box{XMin: box.XMin * k, YMin: box.YMin * k, XMax: box.XMax * k, YMax: box.YMax * k}
			dets = append(dets, symbols.Detection{Label: s.Label, Box: box, Confidence: in.Confidence})
		}
	}
	return dets
}

// synthErrors lists the false positives and misses of one sheet, matching
// as symbols.Score does (most confident first, same label, IoU ≥ 0.5).
func synthErrors(seed int64, st synth.SheetTruth, dets []symbols.Detection) []SynthError {
	order := make([]int, len(dets))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return dets[order[a]].Confidence > dets[order[b]].Confidence })
	used := make([]bool, len(st.Instances))
	matched := make([]bool, len(dets))
	for _, i := range order {
		best, bi := 0.5, -1
		for j, t := range st.Instances {
			if !used[j] && t.Label == dets[i].Label {
				if v := dets[i].Box.IoU(t.Box); v >= best {
					best, bi = v, j
				}
			}
		}
		if bi >= 0 {
			used[bi], matched[i] = true, true
		}
	}
	var out []SynthError
	for i := range dets {
		if matched[i] {
			continue
		}
		e := SynthError{Seed: seed, Page: st.Page, Label: dets[i].Label, Detection: &dets[i]}
		cx, cy := (dets[i].Box.XMin+dets[i].Box.XMax)/2, (dets[i].Box.YMin+dets[i].Box.YMax)/2
		for _, b := range st.Blocks {
			if cx >= b.Box.XMin && cx < b.Box.XMax && cy >= b.Box.YMin && cy < b.Box.YMax {
				e.In = b.Type
			}
		}
		for j := range st.Instances {
			if v := dets[i].Box.IoU(st.Instances[j].Box); v > e.IoU {
				e.IoU, e.Truth = v, &st.Instances[j]
			}
		}
		out = append(out, e)
	}
	for j := range st.Instances {
		if used[j] {
			continue
		}
		e := SynthError{Seed: seed, Page: st.Page, Miss: true, Label: st.Instances[j].Label, Truth: &st.Instances[j]}
		for i := range dets {
			if v := dets[i].Box.IoU(st.Instances[j].Box); v > e.IoU {
				e.IoU, e.Detection = v, &dets[i]
			}
		}
		out = append(out, e)
	}
	return out
}

// synthLegend scores the legend entries read on one sheet against the
// entries of its Legend blocks.
func synthLegend(seed int64, st synth.SheetTruth, p SynthParsed) (right, total int, miss, extra []SynthLegendError) {
	var want []legend.WantEntry
	for _, b := range st.Blocks {
		for _, e := range b.Entries {
			w := legend.WantEntry{Label: e.Label, Description: e.Description, HasGraphic: e.HasGraphic}
			if e.GraphicBox != nil {
				w.Graphic = e.GraphicBox.Translate(-b.Box.XMin, -b.Box.YMin)
			}
			want = append(want, w)
		}
	}
	var found []legend.Entry
	for _, l := range p.Result.Legend {
		if l.BlockID == nil || p.Blocks[*l.BlockID].Page != st.Page {
			continue
		}
		for _, s := range l.Symbols {
			found = append(found, legend.Entry{Label: s.Label, Description: s.Description, HasGraphic: s.HasGraphic})
		}
	}
	right, total = legend.MatchEntries(found, want)
	// Which ones: each wanted entry on its own against what the others left.
	left := found
	for _, w := range want {
		hit := -1
		for i, f := range left {
			if r, _ := legend.MatchEntries([]legend.Entry{f}, []legend.WantEntry{w}); r == 1 {
				hit = i
				break
			}
		}
		if hit < 0 {
			miss = append(miss, SynthLegendError{seed, st.Page, w.Label, w.Description, w.HasGraphic})
			continue
		}
		left = append(left[:hit:hit], left[hit+1:]...)
	}
	for _, f := range left {
		extra = append(extra, SynthLegendError{seed, st.Page, f.Label, f.Description, f.HasGraphic})
	}
	return right, total, miss, extra
}

func (res SynthResult) print(out io.Writer, examples int) {
	labels := make([]string, 0, len(res.PerLabel))
	for l := range res.PerLabel {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	w := 10
	for _, l := range labels {
		w = max(w, len(l))
	}
	fmt.Fprintf(out, "\n%-*s %4s %4s %4s %6s %6s %6s\n", w, "label", "TP", "FP", "FN", "P", "R", "F1")
	for _, l := range labels {
		c := res.PerLabel[l]
		fmt.Fprintf(out, "%-*s %4d %4d %4d %6.3f %6.3f %6.3f\n", w, l, c.TP, c.FP, c.FN, c.Precision(), c.Recall(), c.F1())
	}
	c := res.Overall
	fmt.Fprintf(out, "%-*s %4d %4d %4d %6.3f %6.3f %6.3f\n", w, "overall", c.TP, c.FP, c.FN, c.Precision(), c.Recall(), c.F1())
	legAcc := 1.0
	if res.LegendTotal > 0 {
		legAcc = float64(res.LegendRight) / float64(res.LegendTotal)
	}
	fmt.Fprintf(out, "legend entries right %d/%d (%.3f)\nmean %.1f s per sheet, peak RSS %.0f MB\n",
		res.LegendRight, res.LegendTotal, legAcc, meanSeconds(res.PerSheet), res.PeakRSSMB)
	if r := meanSeconds(res.RenderPerSheet); r > 0 {
		fmt.Fprintf(out, "parse time / render time: mean %.1f× (render %.2f s per sheet; goal ≤ 8×)\n", meanSeconds(res.PerSheet)/r, r)
	}
	if examples < 0 {
		return
	}
	for _, e := range res.LegendMisses {
		fmt.Fprintf(out, "legend miss  seed %d p%d: %q %q graphic=%v\n", e.Seed, e.Page, e.Label, e.Description, e.HasGraphic)
	}
	for _, e := range res.LegendExtra {
		fmt.Fprintf(out, "legend wrong seed %d p%d: %q %q graphic=%v\n", e.Seed, e.Page, e.Label, e.Description, e.HasGraphic)
	}
	where := map[string]int{}
	for _, e := range res.Errors {
		if !e.Miss {
			in := e.In
			if in == "" {
				in = "no block"
			}
			where[in]++
		}
	}
	if len(where) > 0 {
		kinds := make([]string, 0, len(where))
		for k := range where {
			kinds = append(kinds, k)
		}
		sort.Slice(kinds, func(a, b int) bool { return where[kinds[a]] > where[kinds[b]] })
		fmt.Fprint(out, "false positives by truth block:")
		for _, k := range kinds {
			fmt.Fprintf(out, " %s %d", k, where[k])
		}
		fmt.Fprintln(out)
	}
	// The worst labels (lowest F1, at most 3 with errors) with examples.
	sort.SliceStable(labels, func(a, b int) bool { return res.PerLabel[labels[a]].F1() < res.PerLabel[labels[b]].F1() })
	shown := 0
	for _, l := range labels {
		if shown == 3 || res.PerLabel[l].F1() == 1 {
			break
		}
		shown++
		fmt.Fprintf(out, "\n%s (F1 %.3f):\n", l, res.PerLabel[l].F1())
		fp, fn := 0, 0
		for _, e := range res.Errors {
			if e.Label != l {
				continue
			}
			if e.Miss && fn < examples {
				fn++
				fmt.Fprintf(out, "  miss seed %d p%d truth %s%s", e.Seed, e.Page, fmtBox(e.Truth.Box), fmtPose(e.Truth))
				if e.Detection != nil {
					fmt.Fprintf(out, "; best overlap %s %s conf %.2f IoU %.2f", e.Detection.Label, fmtBox(e.Detection.Box), e.Detection.Confidence, e.IoU)
				}
				fmt.Fprintln(out)
			} else if !e.Miss && fp < examples {
				fp++
				in := e.In
				if in == "" {
					in = "no block"
				}
				fmt.Fprintf(out, "  FP   seed %d p%d det %s conf %.2f in %s", e.Seed, e.Page, fmtBox(e.Detection.Box), e.Detection.Confidence, in)
				if e.Truth != nil {
					fmt.Fprintf(out, "; best overlap truth %s %s%s IoU %.2f", e.Truth.Label, fmtBox(e.Truth.Box), fmtPose(e.Truth), e.IoU)
				} else {
					fmt.Fprint(out, "; no truth overlaps")
				}
				fmt.Fprintln(out)
			}
		}
	}
}

func fmtBox(b geom.Box) string {
	return fmt.Sprintf("[%.0f,%.0f %.0f×%.0f]", b.XMin, b.YMin, b.Width(), b.Height())
}

func fmtPose(t *synth.InstanceTruth) string {
	var extra []string
	if t.Crossed != "" {
		extra = append(extra, "crossed "+t.Crossed)
	}
	if t.Suffix != nil {
		extra = append(extra, fmt.Sprintf("suffix %q", t.Suffix.Text))
	}
	s := fmt.Sprintf(" angle %.0f° scale %.2f", math.Mod(t.Angle, 360), t.Scale)
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

// meanSeconds is the mean of ds in seconds (0 for none).
func meanSeconds(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	var total time.Duration
	for _, d := range ds {
		total += d
	}
	return total.Seconds() / float64(len(ds))
}

// renderTime is the best of three renders of page (1-based) of the PDF at
// file at dpi with the service's renderer, opening the file included.
func renderTime(ctx context.Context, file string, page, dpi int) (time.Duration, error) {
	wall, _, err := renderTimes(ctx, file, page, dpi)
	return wall, err
}

// renderTimes is renderTime with the process's CPU time of the render
// (the least of the three too): on a machine others load, the CPU time
// moves less than the wall time.
func renderTimes(ctx context.Context, file string, page, dpi int) (wall, cpu time.Duration, err error) {
	lim := render.DefaultLimits()
	lim.DPI = dpi
	for range 3 {
		t0, c0 := time.Now(), ProcessCPU()
		doc, err := render.Open(file, "application/pdf", lim)
		if err != nil {
			return 0, 0, err
		}
		_, err = render.RenderContext(ctx, doc, page-1)
		doc.Close()
		if err != nil {
			return 0, 0, err
		}
		if d := time.Since(t0); wall == 0 || d < wall {
			wall = d
		}
		if d := ProcessCPU() - c0; cpu == 0 || d < cpu {
			cpu = d
		}
	}
	return wall, cpu, nil
}

// ProcessCPU is the CPU time (user and system, all threads) this process
// has used so far.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// workDir is a benchmark's directory: dir, made when missing, or (dir
// empty) a temporary one that done removes.
func workDir(dir, prefix string) (_ string, done func(), err error) {
	if dir != "" {
		return dir, func() {}, os.MkdirAll(dir, 0o755)
	}
	if dir, err = os.MkdirTemp("", prefix); err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}
