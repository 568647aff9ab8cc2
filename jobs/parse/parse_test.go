package parse_test

// The parse job tree with stand-ins for the vision steps (the legend reader
// and the matcher have their own tests and benchmarks): stages, results,
// stored features, retries, and every kind of bad input ending in a clear
// result or failure, never a hung job.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/jobs/jobstest"
	"github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/legend"
	"github.com/plangraph/plangraph/vision/symbols"
	"github.com/plangraph/plangraph/vision/text"
)

const parseOrg = "org_parse"

// fakeVision stands in for legend.Parse and symbols.Match.
type fakeVision struct {
	mu      sync.Mutex
	entries []legend.Entry
	// perTemplate detections of each template on every searched block
	perTemplate int
	// shift moves every box, as a matcher's small run-to-run differences do
	shift       float64
	matchErr    error
	matchPanics bool
	// outOfTime: the search reports the right half of every block
	// unsearched, as at the end of its time budget
	outOfTime bool
	// stoppedRefining: the search reports 4 of 10 candidates unexamined,
	// as a search stopped in its refinement does
	stoppedRefining bool
	panics          bool
	// realLegend: the legend is read by legend.Parse, not from entries
	realLegend bool
	matched    map[string]int // block width×height → calls
	// searched: the labels of every template searched for
	searched map[string]int
	// withWords: the templates of the last search given words, by label
	withWords map[string]symbols.Template
	// words and letters: what the last search given words was told of them
	words   []geom.Box
	letters []symbols.Word
}

func (f *fakeVision) read(img *image.Gray, words []text.Word) []legend.Entry {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.panics {
		panic("legend reader bug")
	}
	if f.realLegend {
		return legend.Parse(img, words)
	}
	return f.entries
}

func (f *fakeVision) match(ctx context.Context, img *image.Gray, tmpls []symbols.Template, opt symbols.Options) (symbols.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.matchPanics {
		panic("matcher bug")
	}
	if f.matchErr != nil {
		return symbols.Result{}, f.matchErr
	}
	if f.matched == nil {
		f.matched = map[string]int{}
	}
	f.matched[fmt.Sprintf("%dx%d", img.Rect.Dx(), img.Rect.Dy())]++
	if f.searched == nil {
		f.searched = map[string]int{}
	}
	for _, t := range tmpls {
		f.searched[t.Label]++
	}
	if len(opt.Words) > 0 {
		f.withWords = map[string]symbols.Template{}
		f.words, f.letters = opt.Words, opt.Letters
		for _, t := range tmpls {
			f.withWords[t.Label] = t
		}
	}
	var res symbols.Result
	if f.stoppedRefining {
		res.Stats = symbols.Stats{Candidates: 10, Unrefined: 4}
	}
	if f.outOfTime {
		r := img.Rect
		res.Unsearched = []image.Rectangle{image.Rect((r.Min.X+r.Max.X)/2, r.Min.Y, r.Max.X, r.Max.Y)}
	}
	for i, t := range tmpls {
		for k := 0; k < f.perTemplate; k++ {
			x := float64(10+40*k) + f.shift
			y := float64(10+40*i) + f.shift
			box := geom.Box{XMin: x, YMin: y, XMax: x + float64(t.Image.Rect.Dx()), YMax: y + float64(t.Image.Rect.Dy())}
			// as the matcher does, a textless symbol is not found on words
			if t.NoText && wordCover(box, opt.Words) >= symbols.WordCover {
				continue
			}
			res.Detections = append(res.Detections, symbols.Detection{Template: i, Label: t.Label, Confidence: 0.9 - 0.1*float64(k), Box: box})
		}
	}
	return res, nil
}

// wordCover is the share of box that words cover.
func wordCover(box geom.Box, words []geom.Box) float64 {
	in := 0.0
	for _, w := range words {
		in += box.Intersect(w).Area()
	}
	return in / box.Area()
}

// square is a w×h symbol: a black frame on white.
func square(w, h int) *image.Gray {
	img := blank(w, h)
	for x := 0; x < w; x++ {
		img.Pix[x], img.Pix[(h-1)*img.Stride+x] = 0, 0
	}
	for y := 0; y < h; y++ {
		img.Pix[y*img.Stride], img.Pix[y*img.Stride+w-1] = 0, 0
	}
	return img
}

func blank(w, h int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	return img
}

type parseEnv struct {
	ctx     context.Context
	db      *ent.Client
	q       *jobs.Queue
	bucket  *blob.Bucket
	fake    *fakeVision
	bus     *events.Bus
	project *ent.Project
	drawing *ent.Drawing
	sheet   *ent.Sheet
	// blocks of the sheet: a legend, a plan with ink, a blank plan, a
	// detail, and notes (never searched)
	legend, plan, blankPlan, detail, notes *ent.Block
	// placed counts the blocks placed on sheets: each sits in a cell of
	// its own, 512 px apart (a multiple of the matcher's sheet grid)
	placed int
}

func newParseEnv(t *testing.T) *parseEnv {
	t.Helper()
	base := context.Background()
	fake := &fakeVision{perTemplate: 2}
	s := testenv.NewStack(t, 3, func(s *testenv.Stack, w *jobs.Worker) {
		s.Runner.Events = events.New(s.St.Client, nil, nil)
		p := &parse.Parse{R: s.Runner, Blobs: s.Bucket, Match: fake.match, ReadLegend: fake.read}
		p.Register(w)
	})
	st, q, bucket := s.St, s.Q, s.Bucket
	e := &parseEnv{ctx: tenant.WithOrg(base, parseOrg), db: st.Client, q: q, bucket: bucket, fake: fake, bus: s.Runner.Events}
	e.project = must[*ent.Project](t)(e.db.Project.Create().SetName("parse").Save(e.ctx))
	e.drawing, e.sheet = e.addSheet(t)
	e.legend = e.addBlock(t, e.sheet, block.TypeLegend, square(300, 200))
	plan := blank(400, 300)
	for _, r := range []image.Rectangle{image.Rect(50, 50, 90, 90), image.Rect(200, 100, 260, 130)} {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				plan.Pix[y*plan.Stride+x] = 0
			}
		}
	}
	e.plan = e.addBlock(t, e.sheet, block.TypePlan, plan)
	e.blankPlan = e.addBlock(t, e.sheet, block.TypePlan, blank(250, 150))
	e.detail = e.addBlock(t, e.sheet, block.TypeDetail, square(120, 90))
	e.notes = e.addBlock(t, e.sheet, block.TypeGeneralNotes, square(100, 100))
	return e
}

func must[T any](t *testing.T) func(T, error) T { return jobstest.Must[T](t) }

// addSheet makes a ready drawing with one sheet.
func (e *parseEnv) addSheet(t *testing.T) (*ent.Drawing, *ent.Sheet) {
	t.Helper()
	f := must[*ent.File](t)(e.db.File.Create().SetProjectID(e.project.ID).SetFilename("set.pdf").SetContentType("application/pdf").
		SetSize(1).SetStorageKey("files/x").SetStatus("ready").Save(e.ctx))
	d := must[*ent.Drawing](t)(e.db.Drawing.Create().SetProjectID(e.project.ID).SetFileID(f.ID).SetName("set").SetStatus(drawing.StatusReady).Save(e.ctx))
	s := must[*ent.Sheet](t)(e.db.Sheet.Create().SetProjectID(e.project.ID).SetDrawingID(d.ID).SetPageNumber(1).SetWidth(2000).SetHeight(1500).SetDpi(300).Save(e.ctx))
	return d, s
}

func (e *parseEnv) addBlock(t *testing.T, s *ent.Sheet, typ block.Type, img *image.Gray) *ent.Block {
	t.Helper()
	x, y := float64(512*(e.placed%4)), float64(512*(e.placed/4%3))
	e.placed++
	b := must[*ent.Block](t)(e.db.Block.Create().SetProjectID(e.project.ID).SetSheetID(s.ID).SetType(typ).
		SetBounds(geom.Box{XMin: x, YMin: y, XMax: x + float64(img.Rect.Dx()), YMax: y + float64(img.Rect.Dy())}).Save(e.ctx))
	if err := blobs.PutPNG(e.ctx, e.bucket, blobs.BlockKey(parseOrg, b.ID)+".png", img); err != nil {
		t.Fatal(err)
	}
	if err := e.bucket.WriteAll(e.ctx, blobs.BlockKey(parseOrg, b.ID)+"-words.json", []byte("[]"), nil); err != nil {
		t.Fatal(err)
	}
	return b
}

// legendOf sets what the legend reader finds: a 30 px symbol, a 6 px one
// (under the 10 px minimum) and a text-only entry.
func (e *parseEnv) standardLegend() {
	e.fake.entries = []legend.Entry{
		{Label: "D1", Description: "Door", HasGraphic: true, Exemplar: square(30, 30), Graphic: geom.Box{XMin: 10, YMin: 10, XMax: 40, YMax: 40}, Box: geom.Box{XMin: 10, YMin: 10, XMax: 200, YMax: 40}},
		{Label: "S", Description: "Tiny", HasGraphic: true, Exemplar: square(6, 6), Graphic: geom.Box{XMin: 10, YMin: 60, XMax: 16, YMax: 66}, Box: geom.Box{XMin: 10, YMin: 60, XMax: 200, YMax: 70}},
		{Label: "NIC", Description: "Not in contract", Box: geom.Box{XMin: 10, YMin: 90, XMax: 200, YMax: 110}},
	}
}

func (e *parseEnv) start(t *testing.T, in parse.ParseInput, tt job.TargetType, target string) *ent.Job {
	t.Helper()
	in.Features = []string{"symbols"}
	j, err := jobs.Start(e.ctx, e.db, e.q, jobs.NewJob{Type: jobs.TypeParse, ProjectID: e.project.ID, TargetType: tt, TargetID: target, Input: in})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func (e *parseEnv) wait(t *testing.T, id string) *ent.Job {
	t.Helper()
	return jobstest.WaitJob(t, e.ctx, e.db, id, 60*time.Second, 50*time.Millisecond)
}

// result waits for a parse job that must complete.
func (e *parseEnv) result(t *testing.T, id string) parse.ParseResult {
	t.Helper()
	j := e.wait(t, id)
	if j.Status != job.StatusCompleted {
		t.Fatalf("parse %s: %s %+v", id, j.Status, j.Error)
	}
	var r parse.ParseResult
	if err := json.Unmarshal(j.Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// events checks the event sequence of a completed parse job: started, the
// legend child, one per view block, completed; ids as events.EventID gives.
func (e *parseEnv) events(t *testing.T, parseID string, children []*ent.Job) []*ent.Event {
	t.Helper()
	// the completed event is recorded as the job ends, which its status may
	// show a moment before: wait for it (bounded)
	var evs []*ent.Event
	for deadline := time.Now().Add(10 * time.Second); ; {
		var err error
		if evs, err = e.bus.Since(e.ctx, parseID, ""); err != nil {
			t.Fatal(err)
		}
		if len(evs) >= 6 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
	}
	want := "[parse.started parse.child.completed parse.block.completed parse.block.completed parse.block.completed parse.completed]"
	if fmt.Sprint(types) != want {
		t.Fatalf("events %v, want %s", types, want)
	}
	if evs[0].ID != events.EventID(parseID, "parse.started") || evs[5].ID != events.EventID(parseID, "parse.completed") {
		t.Errorf("event ids %s %s", evs[0].ID, evs[5].ID)
	}
	return evs
}

func (e *parseEnv) instances(t *testing.T) []*ent.Feature {
	t.Helper()
	fs, err := e.db.Feature.Query().Where(feature.KindEQ(feature.KindSymbolInstance)).Order(ent.Asc(feature.FieldID)).All(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func featureIDs(fs []*ent.Feature) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	sort.Strings(out)
	return out
}

func warned(r parse.ParseResult, code string) []parse.ParseWarning {
	var out []parse.ParseWarning
	for _, w := range r.Warnings {
		if w.Code == code {
			out = append(out, w)
		}
	}
	return out
}

func TestParseSheet(t *testing.T) {
	e := newParseEnv(t)
	e.standardLegend()
	j := e.start(t, parse.ParseInput{SheetID: e.sheet.ID}, job.TargetTypeSheet, e.sheet.ID)
	r := e.result(t, j.ID)

	// the legend: three entries stored, two with a graphic
	if len(r.Legend) != 1 || *r.Legend[0].BlockID != e.legend.ID || r.Legend[0].SymbolsDetected != 3 || r.Legend[0].SymbolsWithGraphic != 2 {
		t.Fatalf("legend %+v", r.Legend)
	}
	entries, err := e.db.Feature.Query().Where(feature.KindEQ(feature.KindLegendEntry)).All(e.ctx)
	if err != nil || len(entries) != 3 {
		t.Fatalf("%d legend entries stored (%v)", len(entries), err)
	}
	door := r.Legend[0].Symbols[0]
	if door.Label != "D1" || door.Description != "Door" || !door.HasGraphic || r.Legend[0].Symbols[2].HasGraphic {
		t.Errorf("legend symbols %+v", r.Legend[0].Symbols)
	}
	if ok, _ := e.bucket.Exists(e.ctx, blobs.FeatureKey(parseOrg, door.FeatureID)+".png"); !ok {
		t.Error("the exemplar of the door was not stored")
	}
	// searched: the plan and the detail (not the blank plan, the legend or the notes);
	// the tiny symbol is skipped once, the blank plan reported
	if len(r.Symbols) != 1 || r.Symbols[0].LegendFeatureID != door.FeatureID || r.Symbols[0].InstanceCount != 4 || len(r.Symbols[0].Instances) != 4 {
		t.Fatalf("symbols %+v", r.Symbols)
	}
	if r.Summary != (parse.ParseSummary{TotalSymbolsSearched: 1, TotalInstancesFound: 4}) {
		t.Errorf("summary %+v", r.Summary)
	}
	// the tiny symbol and the text-only entry are named once, by the legend
	if w := warned(r, parse.WarnSymbolSkipped); len(w) != 1 || w[0].Label != "S" || w[0].BlockID != e.legend.ID {
		t.Errorf("skipped %+v", w)
	}
	if w := warned(r, parse.WarnTextOnly); len(w) != 1 || w[0].Label != "NIC" || w[0].FeatureID != r.Legend[0].Symbols[2].FeatureID {
		t.Errorf("text only %+v", w)
	}
	if w := warned(r, parse.WarnBlockBlank); len(w) != 1 || w[0].BlockID != e.blankPlan.ID {
		t.Errorf("blank %+v", w)
	}
	blocks := map[string]int{}
	for _, in := range r.Symbols[0].Instances {
		blocks[in.BlockID]++
		if in.Confidence < 0 || in.Confidence > 1 || !in.Bounds.Valid() {
			t.Errorf("instance %+v", in)
		}
	}
	if blocks[e.plan.ID] != 2 || blocks[e.detail.ID] != 2 || len(blocks) != 2 {
		t.Errorf("instances by block %v", blocks)
	}
	stored := e.instances(t)
	if len(stored) != 4 {
		t.Fatalf("%d instances stored", len(stored))
	}
	for _, f := range stored {
		if f.DefinedByID != door.FeatureID || f.Confidence == nil || f.Label != "D1" {
			t.Errorf("instance %+v", f)
		}
	}
	// the search index has the door's counts per block and its legend entries
	docs, err := index.New(e.db, e.bucket).Docs(e.ctx, index.Scope{ProjectID: e.project.ID,
		Types: []string{index.TypeSymbol, index.TypeLegendEntry}}, 100)
	if err != nil {
		t.Fatal(err)
	}
	counts, legendRows := map[string]int{}, 0
	for _, d := range docs {
		if d.SourceType == index.TypeLegendEntry {
			legendRows++
		} else if d.SourceID == door.FeatureID && d.Parsed {
			counts[d.BlockID] += d.Count
		}
	}
	if legendRows != 3 || fmt.Sprint(counts) != fmt.Sprint(blocks) {
		t.Errorf("search rows: %d legend entries, door counts %v, want 3 and %v", legendRows, counts, blocks)
	}
	// the tree: a legend job, a match job per view block, each with its block result
	children, err := e.db.Job.Query().Where(job.ParentID(j.ID)).All(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]int{}
	for _, c := range children {
		types[c.Type]++
		if c.Type == jobs.TypeSymbolMatch {
			var br parse.BlockMatchResult
			if err := json.Unmarshal(c.Result, &br); err != nil || br.BlockID != c.TargetID {
				t.Errorf("block result %s (%v)", c.Result, err)
			}
		}
	}
	if types[jobs.TypeLegendParse] != 1 || types[jobs.TypeSymbolMatch] != 3 || len(children) != 4 {
		t.Errorf("children %v", types)
	}
	evs := e.events(t, j.ID, children)

	t.Run("events", func(t *testing.T) {
		var legendEv jobs.ChildCompleted
		if err := json.Unmarshal(evs[1].Data, &legendEv); err != nil || legendEv.ParentJobID != j.ID ||
			legendEv.ChildJobType != jobs.TypeLegendParse || legendEv.Status != "completed" ||
			legendEv.Target == nil || legendEv.Target.Type != "block" || legendEv.Target.ID != e.legend.ID {
			t.Fatalf("legend event %s (%v)", evs[1].Data, err)
		}
		var lr parse.LegendResult
		if err := json.Unmarshal(legendEv.Results, &lr); err != nil || *lr.BlockID != e.legend.ID || lr.SymbolsDetected != 3 ||
			lr.SymbolsWithGraphic != 2 || lr.Symbols[0].FeatureID != door.FeatureID {
			t.Errorf("legend event results %s (%v)", legendEv.Results, err)
		}
		found := 0
		for _, ev := range evs[2:5] {
			var b parse.BlockCompleted
			if err := json.Unmarshal(ev.Data, &b); err != nil || b.ParseJobID != j.ID || b.Status != "completed" || b.Results == nil {
				t.Fatalf("block event %s (%v)", ev.Data, err)
			}
			found += b.Results.Summary.TotalInstancesFound
			if b.BlockID == e.plan.ID && (len(b.Results.Symbols) != 1 || b.Results.Symbols[0].InstanceCount != 2 ||
				len(b.Results.Symbols[0].Instances) != 2 || b.Results.Symbols[0].Label != "D1") {
				t.Errorf("plan block event %s", ev.Data)
			}
		}
		if found != 4 {
			t.Errorf("block events found %d instances", found)
		}
		var done struct {
			JobID   string            `json:"job_id"`
			Status  string            `json:"status"`
			Results parse.ParseResult `json:"results"`
		}
		if err := json.Unmarshal(evs[5].Data, &done); err != nil || done.JobID != j.ID || done.Status != "Completed" ||
			done.Results.Summary != r.Summary {
			t.Errorf("completed event %s (%v)", evs[5].Data, err)
		}
		// resuming after the legend event gives what followed it
		rest, err := e.bus.Since(e.ctx, j.ID, evs[1].ID)
		if err != nil || len(rest) != 4 || rest[0].ID != evs[2].ID {
			t.Errorf("since the legend event: %d events (%v)", len(rest), err)
		}
		// a child's stream holds only its own event
		mine, err := e.bus.Since(e.ctx, legendEv.JobID, "")
		if err != nil || len(mine) != 1 || mine[0].ID != evs[1].ID {
			t.Errorf("the legend job's events: %d (%v)", len(mine), err)
		}
	})

	t.Run("retries and a second parse add nothing", func(t *testing.T) {
		e.fake.mu.Lock()
		e.fake.shift = 1.3
		e.fake.mu.Unlock()
		for _, c := range children {
			testenv.Redeliver(t, e.ctx, e.db, e.q, c.ID)
			if got := e.wait(t, c.ID); got.Status != job.StatusCompleted {
				t.Fatalf("rerun %s: %s", c.ID, got.Status)
			}
		}
		if got := featureIDs(e.instances(t)); fmt.Sprint(got) != fmt.Sprint(featureIDs(stored)) {
			t.Errorf("after retries: %v, before %v", got, featureIDs(stored))
		}
		// the children's events exist once, as first recorded
		again, err := e.bus.Since(e.ctx, j.ID, "")
		if err != nil || len(again) != len(evs) {
			t.Fatalf("%d events after retries, %d before (%v)", len(again), len(evs), err)
		}
		for i := range evs {
			if again[i].ID != evs[i].ID || string(again[i].Data) != string(evs[i].Data) {
				t.Errorf("event %d changed on retry: %s → %s", i, evs[i].Data, again[i].Data)
			}
		}
		r2 := e.result(t, e.start(t, parse.ParseInput{DrawingID: e.drawing.ID}, job.TargetTypeDrawing, e.drawing.ID).ID)
		if r2.Legend[0].Symbols[0].FeatureID != door.FeatureID || r2.Summary.TotalInstancesFound != 4 {
			t.Errorf("second parse: %+v", r2)
		}
		if got := featureIDs(e.instances(t)); fmt.Sprint(got) != fmt.Sprint(featureIDs(stored)) {
			t.Errorf("after a second parse: %v, before %v", got, featureIDs(stored))
		}
		// a parse that finds less replaces what the earlier one stored
		e.fake.mu.Lock()
		e.fake.perTemplate = 1
		e.fake.mu.Unlock()
		r3 := e.result(t, e.start(t, parse.ParseInput{SheetID: e.sheet.ID, Count: true}, job.TargetTypeSheet, e.sheet.ID).ID)
		if r3.Summary.TotalInstancesFound != 2 || r3.Symbols[0].Instances != nil || len(e.instances(t)) != 2 {
			t.Errorf("third parse (count only): %+v, %d stored", r3, len(e.instances(t)))
		}
	})
}

// TestParseDropsTextlessSymbolsOnWords: on a plan whose words cover a
// detection, the detection of a symbol drawn without letters goes (it is
// text), while a symbol whose legend graphic holds a word keeps its
// detection on a word; off the words both keep theirs. The parse tells the
// matcher which symbols are textless and where the block's words are, in
// the searched image's pixels; the fake matcher applies the matcher's rule
// (vision/symbols' TestTextlessSymbolsOnWords tests the rule itself).
func TestParseDropsTextlessSymbolsOnWords(t *testing.T) {
	e := newParseEnv(t)
	e.fake.entries = []legend.Entry{
		{Label: "L4", Description: "Strip light", HasGraphic: true, Exemplar: square(30, 30), Graphic: geom.Box{XMin: 10, YMin: 10, XMax: 40, YMax: 40}, Box: geom.Box{XMin: 10, YMin: 10, XMax: 200, YMax: 40}},
		{Label: "GFI", Description: "GFI receptacle", HasGraphic: true, Exemplar: square(30, 30), Graphic: geom.Box{XMin: 10, YMin: 60, XMax: 40, YMax: 90}, Box: geom.Box{XMin: 10, YMin: 60, XMax: 200, YMax: 90}},
	}
	put := func(b *ent.Block, words []text.Word) {
		wb, _ := json.Marshal(words)
		if err := e.bucket.WriteAll(e.ctx, blobs.BlockKey(parseOrg, b.ID)+"-words.json", wb, nil); err != nil {
			t.Fatal(err)
		}
	}
	// the legend's image: the GFI graphic a frame (30×30 px, 116 px of
	// ink) around its word, drawn as a 10×10 px block of ink
	leg := square(300, 200)
	for i := 0; i < 30; i++ {
		leg.SetGray(10+i, 60, color.Gray{}) // the frame's sides
		leg.SetGray(10+i, 89, color.Gray{})
		leg.SetGray(10, 60+i, color.Gray{})
		leg.SetGray(39, 60+i, color.Gray{})
	}
	for y := 70; y < 80; y++ {
		for x := 20; x < 30; x++ {
			leg.SetGray(x, y, color.Gray{})
		}
	}
	if err := blobs.PutPNG(e.ctx, e.bucket, blobs.BlockKey(parseOrg, e.legend.ID)+".png", leg); err != nil {
		t.Fatal(err)
	}
	put(e.legend, []text.Word{
		{Text: "GFI", Box: geom.Box{XMin: 14, YMin: 66, XMax: 36, YMax: 84}, Conf: 1},    // inside the second graphic
		{Text: "Strip", Box: geom.Box{XMin: 60, YMin: 14, XMax: 100, YMax: 36}, Conf: 1}, // descriptions beside them
		{Text: "GFI", Box: geom.Box{XMin: 60, YMin: 64, XMax: 90, YMax: 86}, Conf: 1},
	})
	// the fake matcher finds each symbol twice, template i's k-th at
	// (10+40k, 10+40i) of the searched image, as large as its stored
	// exemplar. The views stand 100 px off the sheet's matching grid, so
	// they are searched padded by 100 px and the words must move with them
	// (the fake's shift puts its detections where they were on the views)
	for _, b := range []*ent.Block{e.plan, e.detail} {
		w, h := b.Bounds.Width(), b.Bounds.Height()
		if _, err := b.Update().SetBounds(geom.Box{XMin: 100, YMin: 100, XMax: 100 + w, YMax: 100 + h}).Save(e.ctx); err != nil {
			t.Fatal(err)
		}
	}
	e.fake.shift = 100
	put(e.plan, []text.Word{
		{Text: "MEN", Box: geom.Box{XMin: 4, YMin: 4, XMax: 49, YMax: 49}, Conf: 1},
		{Text: "GFI", Box: geom.Box{XMin: 4, YMin: 49, XMax: 49, YMax: 89}, Conf: 1},
	})
	j := e.start(t, parse.ParseInput{SheetID: e.sheet.ID}, job.TargetTypeSheet, e.sheet.ID)
	r := e.result(t, j.ID)
	onPlan := map[string][]geom.Box{}
	for _, s := range r.Symbols {
		for _, in := range s.Instances {
			if in.BlockID == e.plan.ID {
				onPlan[s.Label] = append(onPlan[s.Label], in.Bounds)
			}
		}
	}
	if len(onPlan["L4"]) != 1 || onPlan["L4"][0].XMin < 40 {
		t.Errorf("strip lights on the plan %v, want only the one off the word", onPlan["L4"])
	}
	if len(onPlan["GFI"]) != 2 {
		t.Errorf("GFI receptacles on the plan %v, want both", onPlan["GFI"])
	}
	// the detail has no words: both of each
	if n := r.Summary.TotalInstancesFound; n != 3+4 {
		t.Errorf("%d instances in all, want 7", n)
	}
	// what the matcher was told of the graphics' words: the strip light
	// has none; of the GFI graphic's ink, the word holds 100 of 216 px
	l4, gfi := e.fake.withWords["L4"], e.fake.withWords["GFI"]
	if !l4.NoText || !l4.WordsKnown || l4.WordInk != 0 {
		t.Errorf("strip light: %+v, want textless with its words known", l4)
	}
	if gfi.NoText || !gfi.WordsKnown || math.Abs(gfi.WordInk-100.0/216) > 1e-9 {
		t.Errorf("GFI receptacle: NoText %v, WordsKnown %v, WordInk %.3f, want 100/216 = %.3f", gfi.NoText, gfi.WordsKnown, gfi.WordInk, 100.0/216)
	}
	// what the graphics read, and the plan's words as read, where the
	// vetoing ones are
	if l4.Text != "" || gfi.Text != "GFI" {
		t.Errorf("graphics read %q and %q, want nothing and GFI", l4.Text, gfi.Text)
	}
	if len(e.fake.letters) != 2 || e.fake.letters[0].Text != "MEN" || e.fake.letters[1].Text != "GFI" ||
		len(e.fake.words) != 2 || e.fake.letters[0].Box != e.fake.words[0] || e.fake.letters[1].Box != e.fake.words[1] {
		t.Errorf("the matcher was told the words %+v and their boxes %v", e.fake.letters, e.fake.words)
	}
}

func TestParseBlockWithSuppliedSymbols(t *testing.T) {
	e := newParseEnv(t)
	// supplied symbols are block-less legend entries made with the job:
	// one good, one larger than the plan, one blank region of the sheet
	jobID := ids.New(ids.Job)
	j, err := e.db.Job.Create().SetID(jobID).SetType(jobs.TypeParse).SetProjectID(e.project.ID).
		SetTargetType(job.TargetTypeBlock).SetTargetID(e.plan.ID).Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	in := parse.ParseInput{Features: []string{"symbols"}, BlockID: e.plan.ID}
	for i, s := range []struct {
		label string
		img   *image.Gray
		src   *parse.ExemplarSource
	}{
		{"GOOD", square(20, 25), nil},
		{"HUGE", square(900, 900), nil},
		{"CUT", nil, &parse.ExemplarSource{SheetID: e.sheet.ID, Bounds: geom.Box{XMin: 5, YMin: 5, XMax: 50, YMax: 50}}},
	} {
		f, err := e.db.Feature.Create().SetJobID(jobID).SetKind(feature.KindLegendEntry).SetLabel(s.label).SetHasGraphic(true).
			SetDedupeKey(fmt.Sprintf("supplied:%s:%d", jobID, i)).Save(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if s.img != nil {
			if err := blobs.PutPNG(e.ctx, e.bucket, blobs.FeatureKey(parseOrg, f.ID)+".png", s.img); err != nil {
				t.Fatal(err)
			}
		}
		in.Supplied = append(in.Supplied, parse.SuppliedSymbol{FeatureID: f.ID, Source: s.src})
	}
	// the sheet's page image: blank where the exemplar is cut
	if err := blobs.PutPNG(e.ctx, e.bucket, blobs.SheetKey(parseOrg, e.drawing.ID, 1)+".png", blank(2000, 1500)); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(in)
	if j, err = e.db.Job.UpdateOne(j).SetInput(b).Save(e.ctx); err != nil {
		t.Fatal(err)
	}
	if err := jobs.Enqueue(e.ctx, e.q, j, ""); err != nil {
		t.Fatal(err)
	}
	r := e.result(t, j.ID)
	if len(r.Legend) != 1 || r.Legend[0].BlockID != nil || r.Legend[0].Source != parse.SourceRequest ||
		r.Legend[0].SymbolsDetected != 3 || r.Legend[0].SymbolsWithGraphic != 2 {
		t.Fatalf("legend %+v", r.Legend)
	}
	if len(r.Symbols) != 1 || r.Symbols[0].Label != "GOOD" || r.Symbols[0].InstanceCount != 2 {
		t.Errorf("symbols %+v", r.Symbols)
	}
	if w := warned(r, parse.WarnSymbolSkipped); len(w) != 1 || w[0].Label != "HUGE" {
		t.Errorf("skipped %+v", r.Warnings)
	}
	if w := warned(r, parse.WarnExemplarBlank); len(w) != 1 || w[0].Label != "CUT" {
		t.Errorf("blank exemplar %+v", r.Warnings)
	}
	n, _ := e.db.Job.Query().Where(job.ParentID(j.ID), job.TypeEQ(jobs.TypeLegendParse)).Count(e.ctx)
	if n != 0 {
		t.Errorf("%d legend jobs with supplied symbols", n)
	}
}

func TestParseBadInput(t *testing.T) {
	t.Run("a legend without graphics", func(t *testing.T) {
		e := newParseEnv(t)
		e.fake.entries = []legend.Entry{{Label: "A", Description: "text only"}, {Label: "B", Description: "also"}}
		r := e.result(t, e.start(t, parse.ParseInput{SheetID: e.sheet.ID}, job.TargetTypeSheet, e.sheet.ID).ID)
		if len(warned(r, parse.WarnNoGraphics)) != 1 || len(r.Symbols) != 0 || r.Legend[0].SymbolsDetected != 2 {
			t.Errorf("result %+v", r)
		}
		// a legend all of text is named once, not entry by entry
		if w := warned(r, parse.WarnTextOnly); len(w) != 1 || w[0].FeatureID != "" || w[0].BlockID != e.legend.ID || !strings.Contains(w[0].Message, "2 entries") {
			t.Errorf("text-only warnings %+v", w)
		}
	})
	t.Run("no legend", func(t *testing.T) {
		e := newParseEnv(t)
		d, s := e.addSheet(t)
		e.addBlock(t, s, block.TypePlan, square(100, 100))
		r := e.result(t, e.start(t, parse.ParseInput{DrawingID: d.ID}, job.TargetTypeDrawing, d.ID).ID)
		if len(warned(r, parse.WarnNoLegend)) != 1 || len(r.Legend) != 0 || len(r.Symbols) != 0 {
			t.Errorf("result %+v", r)
		}
	})
	t.Run("a sheet without a legend uses its drawing's", func(t *testing.T) {
		e := newParseEnv(t)
		e.standardLegend()
		s := must[*ent.Sheet](t)(e.db.Sheet.Create().SetProjectID(e.project.ID).SetDrawingID(e.drawing.ID).SetPageNumber(2).SetDpi(300).Save(e.ctx))
		e.addBlock(t, s, block.TypeSection, square(200, 200))
		r := e.result(t, e.start(t, parse.ParseInput{SheetID: s.ID}, job.TargetTypeSheet, s.ID).ID)
		if len(r.Legend) != 1 || *r.Legend[0].BlockID != e.legend.ID || r.Summary.TotalInstancesFound != 2 {
			t.Errorf("result %+v", r)
		}
	})
	t.Run("a legend serves the sheets of its discipline", func(t *testing.T) {
		e := newParseEnv(t)
		e.standardLegend()
		if err := e.db.Sheet.UpdateOne(e.sheet).SetDiscipline("electrical").Exec(e.ctx); err != nil {
			t.Fatal(err)
		}
		for i, c := range []struct {
			discipline string
			searched   bool
		}{{"architectural", false}, {"electrical", true}, {"", true}} {
			s := must[*ent.Sheet](t)(e.db.Sheet.Create().SetProjectID(e.project.ID).SetDrawingID(e.drawing.ID).SetPageNumber(2 + i).
				SetDiscipline(c.discipline).SetDpi(300).Save(e.ctx))
			b := e.addBlock(t, s, block.TypeSection, square(200, 200))
			r := e.result(t, e.start(t, parse.ParseInput{SheetID: s.ID}, job.TargetTypeSheet, s.ID).ID)
			w := warned(r, parse.WarnNoLegend)
			switch {
			case c.searched && (r.Summary.TotalInstancesFound != 2 || len(w) != 0):
				t.Errorf("%q sheet: %+v", c.discipline, r)
			case !c.searched && (r.Summary.TotalInstancesFound != 0 || len(w) != 1 || w[0].BlockID != b.ID):
				t.Errorf("%q sheet searched with an electrical legend: %+v", c.discipline, r)
			}
		}
		// a legend on a general sheet (a cover sheet's symbol list) serves every sheet
		if err := e.db.Sheet.UpdateOne(e.sheet).SetDiscipline("general").Exec(e.ctx); err != nil {
			t.Fatal(err)
		}
		s := must[*ent.Sheet](t)(e.db.Sheet.Create().SetProjectID(e.project.ID).SetDrawingID(e.drawing.ID).SetPageNumber(9).
			SetDiscipline("architectural").SetDpi(300).Save(e.ctx))
		e.addBlock(t, s, block.TypeSection, square(200, 200))
		if r := e.result(t, e.start(t, parse.ParseInput{SheetID: s.ID}, job.TargetTypeSheet, s.ID).ID); r.Summary.TotalInstancesFound != 2 {
			t.Errorf("a general legend did not serve an architectural sheet: %+v", r)
		}
	})
	t.Run("nothing to search", func(t *testing.T) {
		e := newParseEnv(t)
		e.standardLegend()
		r := e.result(t, e.start(t, parse.ParseInput{BlockID: e.blankPlan.ID, LegendBlockID: e.legend.ID}, job.TargetTypeBlock, e.blankPlan.ID).ID)
		if len(warned(r, parse.WarnBlockBlank)) != 1 || len(r.Symbols) != 0 {
			t.Errorf("result %+v", r)
		}
	})
	t.Run("out of time", func(t *testing.T) {
		e := newParseEnv(t)
		e.standardLegend()
		e.fake.outOfTime = true
		r := e.result(t, e.start(t, parse.ParseInput{BlockID: e.plan.ID, LegendBlockID: e.legend.ID}, job.TargetTypeBlock, e.plan.ID).ID)
		w := warned(r, parse.WarnSearchIncomplete)
		if len(w) != 1 || w[0].BlockID != e.plan.ID || !strings.Contains(w[0].Message, "50% of the block unsearched") {
			t.Errorf("warnings %+v", r.Warnings)
		}
		// what was found in the searched part is kept
		if r.Summary.TotalInstancesFound == 0 {
			t.Errorf("result %+v", r)
		}
		e.fake.mu.Lock()
		e.fake.outOfTime, e.fake.stoppedRefining = false, true
		e.fake.mu.Unlock()
		r = e.result(t, e.start(t, parse.ParseInput{BlockID: e.plan.ID, LegendBlockID: e.legend.ID}, job.TargetTypeBlock, e.plan.ID).ID)
		w = warned(r, parse.WarnSearchIncomplete)
		if len(w) != 1 || !strings.Contains(w[0].Message, "likeliest 6 of 10 candidate places") || r.Summary.TotalInstancesFound == 0 {
			t.Errorf("stopped refining: %+v", r)
		}
	})
	for name, setup := range map[string]func(f *fakeVision){
		"the matcher fails":          func(f *fakeVision) { f.matchErr = errors.New("out of ideas") },
		"the matcher panics":         func(f *fakeVision) { f.matchPanics = true },
		"the legend reader panics":   func(f *fakeVision) { f.panics = true },
		"the matcher says cancelled": func(f *fakeVision) { f.matchErr = context.Canceled },
	} {
		t.Run(name, func(t *testing.T) {
			e := newParseEnv(t)
			e.standardLegend()
			setup(e.fake)
			// one block: its failure is the parse's
			j := e.wait(t, e.start(t, parse.ParseInput{BlockID: e.plan.ID, LegendBlockID: e.legend.ID}, job.TargetTypeBlock, e.plan.ID).ID)
			if j.Status != job.StatusFailed || j.Error == nil {
				t.Fatalf("%s: %s %+v", name, j.Status, j.Error)
			}
			t.Logf("%s → %s: %s", name, j.Error.Code, j.Error.Message)
			if e.fake.panics {
				return
			}
			// a sheet: the blocks that could be searched make a result, with a warning for the others
			r := e.result(t, e.start(t, parse.ParseInput{SheetID: e.sheet.ID}, job.TargetTypeSheet, e.sheet.ID).ID)
			if w := warned(r, parse.WarnMatchFailed); len(w) != 2 || len(warned(r, parse.WarnBlockBlank)) != 1 {
				t.Errorf("sheet result %+v", r)
			}
		})
	}
}
