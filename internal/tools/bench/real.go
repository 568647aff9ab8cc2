package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/tools/bench/labels"
	"github.com/plangraph/plangraph/vision/geom"
)

// RealParse runs the pipeline on one real drawing file: ingestion, then
// (unless ingestOnly) a parse reading the drawing's own legends.
type RealParse func(ctx context.Context, path string, ingestOnly bool) (RealParsed, error)

// RealParsed is what the pipeline made of one drawing file.
type RealParsed struct {
	Sheets []RealSheet
	// Ingest is the drawing's ingestion (every stage of every page); Parse
	// the parse after it (legends and symbol matching), zero when not run.
	Ingest, Parse time.Duration
	// Warnings are the parse's warnings, as "CODE: message".
	Warnings []string
	Parsed   bool
	// Ask answers questions over this drawing (nil: none asked).
	Ask RealAsk
	// Visual searches regions of this drawing's sheets (nil: none).
	Visual RealVisual
}

// RealSheet is one sheet as the pipeline read it; boxes in sheet pixels at DPI.
type RealSheet struct {
	Page                                int
	DPI                                 float64
	Number, Title, Discipline, Revision string
	Blocks                              []RealBlock
	// Legend is every legend entry read from the sheet's legend blocks.
	Legend []RealEntry
	// Instances are the symbols found on the sheet.
	Instances []RealInstance
}

// RealBlock is a block found.
type RealBlock struct {
	Type, Title, Scale string
	Box                geom.Box
}

// RealEntry is a legend entry read.
type RealEntry struct {
	Label, Description string
	HasGraphic         bool
	Graphic            geom.Box
}

// RealInstance is a symbol found: its legend entry's label and its box.
type RealInstance struct {
	Label      string
	Box        geom.Box
	Confidence float64
}

// RealOptions configure a real-set run.
type RealOptions struct {
	// Dir holds the drawings (the datasets' real/ folder, or a folder of
	// drawings named as the labels name them).
	Dir string
	// Labels is a folder of label files ("": the labels built in).
	Labels string
	// Only limits the run to the sets whose file name contains one of these.
	Only []string
	// IngestOnly skips the parse: sheets and blocks are scored, legends and
	// counts are not.
	IngestOnly bool
	// Verbose lists every mismatch.
	Verbose bool
	Parse   RealParse
}

// RealScore is the outcome for one set or for all.
type RealScore struct {
	Set                                        string
	Sheets                                     int
	NumberRight, TitleRight, DisciplineRight   int
	RevisionRight, RevisionLabelled            int
	TitleBlocks, TitleBlocksFound              int // labelled title blocks; found at IoU ≥ 0.5
	Blocks, BlocksRight, BlocksTyped           int // labelled; IoU ≥ 0.8 and same type; best match of IoU ≥ 0.5 with the same type
	BlocksMatched                              int // best match of IoU ≥ 0.5
	IoUSum                                     float64
	ExtraBlocks                                int // found blocks overlapping no labelled one at IoU ≥ 0.5
	LegendEntries, LegendRight, LegendDescribe int // labelled; found with the right label (and kind); and description
	LegendExtra                                int
	Counts, CountsRight                        int // hand counts; within 10 %
	Ingest, Parse, Render                      time.Duration
	Pages                                      int
	Ask                                        RealAskScore
	Visual                                     RealVisualScore
	// Errors lists what was wrong, one line each.
	Errors []string
}

// Add sums o into s.
func (s *RealScore) Add(o RealScore) {
	s.Sheets += o.Sheets
	s.NumberRight += o.NumberRight
	s.TitleRight += o.TitleRight
	s.DisciplineRight += o.DisciplineRight
	s.RevisionRight += o.RevisionRight
	s.RevisionLabelled += o.RevisionLabelled
	s.TitleBlocks += o.TitleBlocks
	s.TitleBlocksFound += o.TitleBlocksFound
	s.Blocks += o.Blocks
	s.BlocksRight += o.BlocksRight
	s.BlocksTyped += o.BlocksTyped
	s.BlocksMatched += o.BlocksMatched
	s.IoUSum += o.IoUSum
	s.ExtraBlocks += o.ExtraBlocks
	s.LegendEntries += o.LegendEntries
	s.LegendRight += o.LegendRight
	s.LegendDescribe += o.LegendDescribe
	s.LegendExtra += o.LegendExtra
	s.Counts += o.Counts
	s.CountsRight += o.CountsRight
	s.Ingest += o.Ingest
	s.Parse += o.Parse
	s.Render += o.Render
	s.Pages += o.Pages
	s.Ask.Add(o.Ask)
	s.Visual.Add(o.Visual)
}

// Real runs the pipeline on every labelled set found in o.Dir and scores it,
// printing a table to out.
func Real(ctx context.Context, o RealOptions, out io.Writer) ([]RealScore, error) {
	if o.Parse == nil {
		return nil, fmt.Errorf("bench real: no parser")
	}
	sets, err := labels.Load(o.Labels)
	if err != nil {
		return nil, err
	}
	var scores []RealScore
	total := RealScore{Set: "overall"}
	for _, set := range sets {
		if len(o.Only) > 0 && !matchesAny(set.File, o.Only) {
			continue
		}
		path := filepath.Join(o.Dir, set.File)
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(out, "%s: not in %s, skipped\n", set.File, o.Dir)
			continue
		}
		var render time.Duration
		for _, sh := range set.Sheets {
			d, err := renderTime(ctx, path, sh.Page, 300)
			if err != nil {
				return nil, fmt.Errorf("%s page %d: %w", set.File, sh.Page, err)
			}
			render += d
		}
		p, err := o.Parse(ctx, path, o.IngestOnly)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", set.File, err)
		}
		sc := ScoreReal(set, p)
		sc.Render = render
		if p.Ask != nil {
			if sc.Ask, err = askReal(ctx, set, p.Ask, func(f string, a ...any) { sc.Errors = append(sc.Errors, fmt.Sprintf(f, a...)) }); err != nil {
				return nil, fmt.Errorf("%s: ask: %w", set.File, err)
			}
		}
		if p.Visual != nil && p.Parsed {
			if sc.Visual, err = visualReal(ctx, p, p.Visual, func(f string, a ...any) { sc.Errors = append(sc.Errors, fmt.Sprintf(f, a...)) }); err != nil {
				return nil, fmt.Errorf("%s: visual search: %w", set.File, err)
			}
		}
		scores = append(scores, sc)
		total.Add(sc)
		PrintReal(out, sc, p, o.Verbose)
	}
	if len(scores) > 1 {
		printRealRow(out, total, !o.IngestOnly)
	}
	return append(scores, total), nil
}

func matchesAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// ScoreReal compares one set's labels with what the pipeline made of it.
func ScoreReal(set labels.Set, p RealParsed) RealScore {
	sc := RealScore{Set: strings.TrimSuffix(set.File, filepath.Ext(set.File)), Ingest: p.Ingest, Parse: p.Parse}
	byPage := map[int]RealSheet{}
	for _, s := range p.Sheets {
		byPage[s.Page] = s
	}
	for _, want := range set.Sheets {
		got, ok := byPage[want.Page]
		sc.Sheets++
		sc.Pages++
		if !ok {
			sc.Errors = append(sc.Errors, fmt.Sprintf("p%d: no sheet", want.Page))
			continue
		}
		errf := func(format string, a ...any) {
			sc.Errors = append(sc.Errors, fmt.Sprintf("p%d ", want.Page)+fmt.Sprintf(format, a...))
		}
		if labels.SameNumber(got.Number, want.SheetNumber) {
			sc.NumberRight++
		} else {
			errf("number %q, want %q", got.Number, want.SheetNumber)
		}
		if labels.SameText(got.Title, want.Title) {
			sc.TitleRight++
		} else {
			errf("title %q, want %q", got.Title, want.Title)
		}
		if got.Discipline == want.Discipline {
			sc.DisciplineRight++
		} else {
			errf("discipline %q, want %q", got.Discipline, want.Discipline)
		}
		if want.Revision != "" || got.Revision != "" {
			sc.RevisionLabelled++
			if labels.SameText(got.Revision, want.Revision) {
				sc.RevisionRight++
			} else {
				errf("revision %q, want %q", got.Revision, want.Revision)
			}
		}
		scoreBlocks(&sc, want, got, errf)
		if p.Parsed {
			scoreLegends(&sc, want, got, errf)
			scoreCounts(&sc, want, got, errf)
		}
	}
	return sc
}

func scoreBlocks(sc *RealScore, want labels.Sheet, got RealSheet, errf func(string, ...any)) {
	matched := make([]bool, len(got.Blocks))
	for _, wb := range want.Blocks {
		box := wb.Box.At(got.DPI)
		best, bi := 0.0, -1
		for i, gb := range got.Blocks {
			if v := gb.Box.IoU(box); v > best {
				best, bi = v, i
			}
		}
		sc.Blocks++
		sc.IoUSum += best
		if wb.Type == "TitleBlock" {
			sc.TitleBlocks++
		}
		if bi < 0 || best < 0.5 {
			errf("%s %q not found (best IoU %.2f)", wb.Type, wb.Title, best)
			continue
		}
		matched[bi] = true
		gb := got.Blocks[bi]
		sc.BlocksMatched++
		if wb.Type == "TitleBlock" && gb.Type == "TitleBlock" {
			sc.TitleBlocksFound++
		}
		if gb.Type == wb.Type {
			sc.BlocksTyped++
			if best >= 0.8 {
				sc.BlocksRight++
				continue
			}
		}
		errf("%s %q found as %s %q at IoU %.2f", wb.Type, wb.Title, gb.Type, gb.Title, best)
	}
	for i, gb := range got.Blocks {
		if matched[i] {
			continue
		}
		over := false
		for _, wb := range want.Blocks {
			over = over || gb.Box.IoU(wb.Box.At(got.DPI)) >= 0.5
		}
		if !over {
			sc.ExtraBlocks++
			errf("extra %s %q %s", gb.Type, gb.Title, fmtBox(gb.Box))
		}
	}
}

func scoreLegends(sc *RealScore, want labels.Sheet, got RealSheet, errf func(string, ...any)) {
	used := make([]bool, len(got.Legend))
	for _, lg := range want.Legends {
		for _, we := range lg.Entries {
			sc.LegendEntries++
			hit := -1
			for i, ge := range got.Legend {
				if !used[i] && labels.SameText(ge.Label, we.Label) && ge.HasGraphic == (we.Kind != "text") {
					hit = i
					break
				}
			}
			if hit < 0 {
				errf("legend entry %q (%s) not read", we.Label, we.Kind)
				continue
			}
			used[hit] = true
			sc.LegendRight++
			if labels.SameText(got.Legend[hit].Description, we.Description) {
				sc.LegendDescribe++
			}
		}
	}
	for i, ge := range got.Legend {
		if !used[i] {
			sc.LegendExtra++
			errf("legend entry read but not labelled: %q %q graphic=%v", ge.Label, ge.Description, ge.HasGraphic)
		}
	}
}

func scoreCounts(sc *RealScore, want labels.Sheet, got RealSheet, errf func(string, ...any)) {
	for _, c := range want.Counts {
		var view *labels.Block
		for i := range want.Blocks {
			if labels.SameText(want.Blocks[i].Title, c.View) {
				view = &want.Blocks[i]
				break
			}
		}
		sc.Counts++
		if view == nil {
			errf("count of %q: no labelled view %q", c.Label, c.View)
			continue
		}
		box := view.Box.At(got.DPI)
		n := 0
		for _, in := range got.Instances {
			cx, cy := (in.Box.XMin+in.Box.XMax)/2, (in.Box.YMin+in.Box.YMax)/2
			if labels.SameText(in.Label, c.Label) && cx >= box.XMin && cx < box.XMax && cy >= box.YMin && cy < box.YMax {
				n++
			}
		}
		if math.Abs(float64(n-c.Count)) <= 0.1*float64(c.Count) {
			sc.CountsRight++
		} else {
			errf("count of %q in %q: %d, want %d", c.Label, c.View, n, c.Count)
		}
	}
}

func pct(a, b int) string {
	if b == 0 {
		return "    -"
	}
	return fmt.Sprintf("%5.1f", 100*float64(a)/float64(b))
}

func printRealRow(out io.Writer, s RealScore, parsed bool) {
	fmt.Fprintf(out, "%-34s %3d  num %s  title %s  disc %s  rev %s  TB %s  blocks %s (typed %s, mean IoU %.2f, extra %d)",
		s.Set, s.Sheets, pct(s.NumberRight, s.Sheets), pct(s.TitleRight, s.Sheets), pct(s.DisciplineRight, s.Sheets),
		pct(s.RevisionRight, s.RevisionLabelled), pct(s.TitleBlocksFound, s.TitleBlocks), pct(s.BlocksRight, s.Blocks),
		pct(s.BlocksTyped, s.Blocks), s.IoUSum/math.Max(float64(s.Blocks), 1), s.ExtraBlocks)
	if parsed {
		fmt.Fprintf(out, "  legend %s (desc %s, extra %d)  counts %d/%d", pct(s.LegendRight, s.LegendEntries),
			pct(s.LegendDescribe, s.LegendEntries), s.LegendExtra, s.CountsRight, s.Counts)
	}
	if s.Ask.Lookups+s.Ask.Lists > 0 {
		fmt.Fprintf(out, "  ask: where %d/%d, which sheets %d/%d", s.Ask.LookupsRight, s.Ask.Lookups, s.Ask.ListsRight, s.Ask.Lists)
	}
	if v := s.Visual; v.Asked > 0 {
		fmt.Fprintf(out, "  visual %d/%d (%.1f s each)", v.Right, v.Asked, v.Took.Seconds()/float64(v.Asked))
	}
	fmt.Fprintf(out, "  ingest %.1f s", s.Ingest.Seconds())
	if parsed && s.Render > 0 {
		fmt.Fprintf(out, "  parse %.1f s = %.1f× render (%.1f s)", s.Parse.Seconds(), s.Parse.Seconds()/s.Render.Seconds(), s.Render.Seconds())
	}
	fmt.Fprintln(out)
}

// PrintReal prints a score's row and, verbose, its mismatches and p's warnings.
func PrintReal(out io.Writer, s RealScore, p RealParsed, verbose bool) {
	printRealRow(out, s, p.Parsed)
	if !verbose {
		return
	}
	errs := append([]string(nil), s.Errors...)
	sort.SliceStable(errs, func(i, j int) bool { return pageOf(errs[i]) < pageOf(errs[j]) })
	for _, e := range errs {
		fmt.Fprintf(out, "    %s\n", e)
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(out, "    warning %s\n", w)
	}
}

func pageOf(e string) int {
	var n int
	fmt.Sscanf(e, "p%d", &n)
	return n
}
