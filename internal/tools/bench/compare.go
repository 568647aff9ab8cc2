package bench

// The compare benchmark: synthetic revision pairs (synth.Options.Revision)
// whose edits and page motion are known, compared through the local job
// tree; change recall and precision, alignment error against the known
// transform, false changes on a pair that only moved, and time against one
// page's render.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

// CompareRun compares the drawing at oldPath with the one at newPath (both
// ingested first, then compared as a Drawing compare with change analysis,
// as `plangraph compare` does) and returns its report.
type CompareRun func(ctx context.Context, oldPath, newPath string) (CompareRan, error)

// CompareRan is one compare's outcome.
type CompareRan struct {
	Report compare.Report
	// DPI the sheets were rendered at.
	DPI int
	// Compare is the compare job's own time, after both drawings were
	// ingested; CPU the process's CPU time over it (all threads), when
	// the runner measures it.
	Compare, CPU time.Duration
}

// CompareOptions configure a compare benchmark run.
type CompareOptions struct {
	// Seeds is how many pairs are made, one per seed from FirstSeed
	// (defaults 3 and 1); each drawing has one sheet.
	Seeds, FirstSeed int
	// PageSize as synth.Options takes it (default 36x24).
	PageSize string
	// Motion is synth.Options.RevisionMotion (small, large, turn).
	Motion string
	// Conventions are the drawings' drafting conventions (classic, mixed).
	Conventions string
	// Dir keeps the drawings, truths and reports (default: a temporary
	// directory, removed after).
	Dir string
	Run CompareRun
}

// CompareResult sums a compare benchmark run.
type CompareResult struct {
	// TruthFound of TruthTotal known edits were reported (a change whose
	// bounds overlap the edit's, IoU ≥ 0.3 or one inside the other, with
	// an accepted kind); ReportedRight of Reported changes overlap an edit.
	TruthFound, TruthTotal  int
	ReportedRight, Reported int
	PerKind                 map[string][2]int // truth kind → found, total
	Misses, Extras          []string
	// AlignErrPx are the block pairs' alignment errors: the largest
	// distance, over a block's corners, between where the reported and the
	// true transform put it.
	AlignErrPx []float64
	// Unregistered counts block pairs reported as not registering.
	Unregistered int
	// FalseOnMoved counts changes reported between an original and itself
	// moved as its revision is (nothing to report).
	FalseOnMoved int
	// Ratios are each compare's time over one page's render (the same run);
	// CPURatios its CPU time over the render's.
	Ratios, CPURatios []float64
	PeakRSSMB         float64
}

// Recall, Precision of the changes.
func (r CompareResult) Recall() float64    { return ratio(r.TruthFound, r.TruthTotal) }
func (r CompareResult) Precision() float64 { return ratio(r.ReportedRight, r.Reported) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// changeKinds are the change kinds that report each kind of known edit.
var changeKinds = map[string][]string{
	"symbol_added":      {compare.KindAdded},
	"symbol_removed":    {compare.KindRemoved},
	"symbol_moved":      {compare.KindMoved},
	"wall_moved":        {compare.KindMoved, compare.KindModified},
	"dimension_changed": {compare.KindModified},
	"room_renamed":      {compare.KindModified},
	"revision_cloud":    {compare.KindAdded},
	"title_block":       {compare.KindModified},
}

// Compare runs the benchmark.
func Compare(ctx context.Context, o CompareOptions, out io.Writer) (CompareResult, error) {
	res := CompareResult{PerKind: map[string][2]int{}}
	if o.Run == nil {
		return res, fmt.Errorf("bench compare: no runner")
	}
	o.Seeds, o.FirstSeed = max(o.Seeds, 0), max(o.FirstSeed, 1)
	if o.Seeds == 0 {
		o.Seeds = 3
	}
	dir, done, err := workDir(o.Dir, "plangraph-bench-compare-")
	if err != nil {
		return res, err
	}
	defer done()
	for i := 0; i < o.Seeds; i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		seed := int64(o.FirstSeed + i)
		set, err := synth.Generate(synth.Options{Seed: seed, Sheets: 1, Revision: true, RevisionMotion: o.Motion,
			PageSize: o.PageSize, Conventions: o.Conventions})
		if err != nil {
			return res, err
		}
		base := filepath.Join(dir, fmt.Sprintf("synth-%d", seed))
		for _, f := range []struct {
			path  string
			write func(io.Writer) error
		}{{base + ".pdf", set.WritePDF}, {base + "-rev.pdf", set.WriteRevisionPDF}, {base + "-moved.pdf", set.WriteMovedPDF}, {base + ".json", set.WriteTruth}} {
			if err := synth.WriteFile(f.path, f.write); err != nil {
				return res, err
			}
		}
		render, renderCPU, err := renderTimes(ctx, base+"-rev.pdf", 1, int(set.Truth.DPI))
		if err != nil {
			return res, fmt.Errorf("seed %d: %w", seed, err)
		}
		st := set.Truth.Sheets[0]
		ran, err := o.Run(ctx, base+".pdf", base+"-rev.pdf")
		if err != nil {
			return res, fmt.Errorf("seed %d: %w", seed, err)
		}
		if err := writeJSON(base+"-report.json", ran.Report); err != nil {
			return res, err
		}
		one := scoreCompare(fmt.Sprintf("seed %d", seed), st, set.Truth.DPI, ran)
		moved, err := o.Run(ctx, base+".pdf", base+"-moved.pdf")
		if err != nil {
			return res, fmt.Errorf("seed %d (moved): %w", seed, err)
		}
		falseMoved := 0
		for _, c := range reportedChanges(moved) {
			falseMoved++
			res.Extras = append(res.Extras, fmt.Sprintf("seed %d moved: %s %s %q at %s", seed, c.Kind, c.Category, c.Description, fmtBox(c.page)))
		}
		res.FalseOnMoved += falseMoved
		res.add(one)
		res.Ratios = append(res.Ratios, ran.Compare.Seconds()/render.Seconds())
		cpu := ""
		if ran.CPU > 0 && renderCPU > 0 {
			res.CPURatios = append(res.CPURatios, ran.CPU.Seconds()/renderCPU.Seconds())
			cpu = fmt.Sprintf("; cpu %.2f s = %.1f× the render's (%.2f s)", ran.CPU.Seconds(), ran.CPU.Seconds()/renderCPU.Seconds(), renderCPU.Seconds())
		}
		fmt.Fprintf(out, "seed %d: %d edits, found %d; %d changes, %d right; align err max %.2f px; moved-only pair: %d changes; compare %.2f s = %.1f× render (%.2f s)%s\n",
			seed, one.TruthTotal, one.TruthFound, one.Reported, one.ReportedRight, maxOf(one.AlignErrPx), falseMoved,
			ran.Compare.Seconds(), ran.Compare.Seconds()/render.Seconds(), render.Seconds(), cpu)
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		res.PeakRSSMB = float64(ru.Maxrss) / 1024
	}
	res.print(out)
	return res, nil
}

func writeJSON(path string, v any) error {
	return synth.WriteFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}

// pageChange is a reported change with its bounds on the newer sheet.
type pageChange struct {
	compare.ReportChange
	page  geom.Box
	sheet int // the newer sheet's page in its file (1-based)
}

// reportedChanges are the report's changes in the newer sheet's pixels.
func reportedChanges(ran CompareRan) []pageChange {
	var out []pageChange
	for _, p := range ran.Report.Pairs {
		for _, ov := range p.Overlays {
			for _, c := range ov.Changes {
				out = append(out, pageChange{c, c.Bounds.Translate(ov.New.Bounds.XMin, ov.New.Bounds.YMin), p.New.Page})
			}
		}
	}
	return out
}

// overlapsEdit is the benchmark's rule for a change on an edit.
func overlapsEdit(a, b geom.Box) bool {
	in := a.Intersect(b).Area()
	return a.IoU(b) >= 0.3 || (in > 0 && (in >= 0.9*a.Area() || in >= 0.9*b.Area()))
}

// scoreCompare scores one pair's report against its sheet's truth.
func scoreCompare(name string, st synth.SheetTruth, truthDPI float64, ran CompareRan) CompareResult {
	res := CompareResult{PerKind: map[string][2]int{}}
	rt := st.Revision
	changes := reportedChanges(ran)
	k := 1.0 // truth pixels → the run's
	if ran.DPI > 0 && truthDPI > 0 {
		k = float64(ran.DPI) / truthDPI
	}
	truthBox := func(b geom.Box) geom.Box {
		return geom.Box{XMin: b.XMin * k, YMin: b.YMin * k, XMax: b.XMax * k, YMax: b.YMax * k}
	}
	right := make([]bool, len(changes))
	for _, tc := range rt.Changes {
		tb := truthBox(tc.Box)
		found := false
		for i, c := range changes {
			if !overlapsEdit(c.page, tb) {
				continue
			}
			right[i] = true
			for _, k := range changeKinds[tc.Kind] {
				found = found || c.Kind == k
			}
		}
		pk := res.PerKind[tc.Kind]
		pk[1]++
		res.TruthTotal++
		if found {
			pk[0]++
			res.TruthFound++
		} else {
			res.Misses = append(res.Misses, fmt.Sprintf("%s: %s (%s) at %s", name, tc.Kind, tc.Description, fmtBox(tb)))
		}
		res.PerKind[tc.Kind] = pk
	}
	for i, c := range changes {
		res.Reported++
		if right[i] {
			res.ReportedRight++
		} else {
			res.Extras = append(res.Extras, fmt.Sprintf("%s: %s %s %q at %s", name, c.Kind, c.Category, c.Description, fmtBox(c.page)))
		}
	}
	// alignment: where each block's corners go, reported against true; a
	// transform maps the blocks' image pixels, which start at the whole
	// pixel at or before each block's corner
	tr := rt.Transform
	for _, p := range ran.Report.Pairs {
		for _, ov := range p.Overlays {
			if !ov.Registered {
				res.Unregistered++
			}
			oa, ob := ov.Old.Bounds, ov.New.Bounds
			ax, ay, bx, by := math.Floor(oa.XMin), math.Floor(oa.YMin), math.Floor(ob.XMin), math.Floor(ob.YMin)
			w, h := oa.Width(), oa.Height()
			worst := 0.0
			for _, c := range [4][2]float64{{0, 0}, {w, 0}, {0, h}, {w, h}} {
				x, y := ov.Transform.Apply(c[0], c[1])
				tx, ty := tr.Point((c[0]+ax)/k, (c[1]+ay)/k)
				worst = max(worst, math.Hypot(x-(tx*k-bx), y-(ty*k-by)))
			}
			res.AlignErrPx = append(res.AlignErrPx, worst)
		}
	}
	return res
}

func (r *CompareResult) add(o CompareResult) {
	r.TruthFound += o.TruthFound
	r.TruthTotal += o.TruthTotal
	r.ReportedRight += o.ReportedRight
	r.Reported += o.Reported
	for k, v := range o.PerKind {
		t := r.PerKind[k]
		r.PerKind[k] = [2]int{t[0] + v[0], t[1] + v[1]}
	}
	r.Misses = append(r.Misses, o.Misses...)
	r.Extras = append(r.Extras, o.Extras...)
	r.AlignErrPx = append(r.AlignErrPx, o.AlignErrPx...)
	r.Unregistered += o.Unregistered
}

func maxOf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func (r CompareResult) print(out io.Writer) {
	mean := func(v []float64) float64 {
		if len(v) == 0 {
			return 0
		}
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	fmt.Fprintf(out, "changes: recall %.3f (%d/%d), precision %.3f (%d/%d)\n", r.Recall(), r.TruthFound, r.TruthTotal,
		r.Precision(), r.ReportedRight, r.Reported)
	kinds := make([]string, 0, len(r.PerKind))
	for k := range r.PerKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(out, "  %-18s %d/%d\n", k, r.PerKind[k][0], r.PerKind[k][1])
	}
	fmt.Fprintf(out, "alignment error: mean %.2f px, max %.2f px over %d block pairs (%d reported as not registering)\n",
		mean(r.AlignErrPx), maxOf(r.AlignErrPx), len(r.AlignErrPx), r.Unregistered)
	fmt.Fprintf(out, "false changes on moved-only pairs: %d\n", r.FalseOnMoved)
	fmt.Fprintf(out, "time: mean %.2f×, max %.2f× one page's render; peak RSS %.0f MB\n", mean(r.Ratios), maxOf(r.Ratios), r.PeakRSSMB)
	if len(r.CPURatios) > 0 {
		fmt.Fprintf(out, "cpu time: mean %.2f×, max %.2f× the render's\n", mean(r.CPURatios), maxOf(r.CPURatios))
	}
	for i, m := range r.Misses {
		if i == 10 {
			fmt.Fprintf(out, "  … %d more misses\n", len(r.Misses)-i)
			break
		}
		fmt.Fprintln(out, "  miss:", m)
	}
	for i, e := range r.Extras {
		if i == 10 {
			fmt.Fprintf(out, "  … %d more extra changes\n", len(r.Extras)-i)
			break
		}
		fmt.Fprintln(out, "  extra:", e)
	}
}
