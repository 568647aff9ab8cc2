package compare_test

// The compare job tree on blocks drawn here, with the real engine
// (vision/compare's Generate and Analyze): pairing, overlays and their images stored
// once, change analysis stored with stable ids, the summary, events,
// retries that add nothing, and blocks that do not register or differ
// wholly ending in a completed result, never a hung job.

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/event"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/overlay"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/events"
	"github.com/plangraph/plangraph/internal/overlayjson"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/jobs"
	comparejob "github.com/plangraph/plangraph/jobs/compare"
	"github.com/plangraph/plangraph/jobs/jobstest"
	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/geom"
)

const org = "org_compare"

// shape is an outlined rectangle (w > 0) or a line (w == 0: from x0,y0 to
// x1,y1, horizontal or vertical), 4 px wide, in block pixels.
type shape struct{ x0, y0, x1, y1 int }

// draw draws shapes on a w×h page, moved by (dx, dy).
func draw(w, h, dx, dy int, shapes ...shape) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	fill := func(x0, y0, x1, y1 int) {
		for y := max(y0+dy, 0); y < min(y1+dy, h); y++ {
			for x := max(x0+dx, 0); x < min(x1+dx, w); x++ {
				img.Pix[y*w+x] = 0
			}
		}
	}
	for _, s := range shapes {
		if s.x0 == s.x1 || s.y0 == s.y1 { // a line
			fill(s.x0, s.y0, max(s.x1, s.x0+4), max(s.y1, s.y0+4))
			continue
		}
		fill(s.x0, s.y0, s.x1, s.y0+4)
		fill(s.x0, s.y1-4, s.x1, s.y1)
		fill(s.x0, s.y0, s.x0+4, s.y1)
		fill(s.x1-4, s.y0, s.x1, s.y1)
	}
	return img
}

// the plan of revision A: rooms, a corridor wall, furniture
var planA = []shape{
	{40, 40, 760, 560}, {40, 40, 300, 300}, {300, 40, 560, 300}, {560, 40, 760, 300},
	{40, 380, 760, 380}, {100, 420, 180, 500}, {600, 420, 700, 520}, {350, 100, 450, 160},
}

// revision B: one box removed, one added, a wall moved
var planB = []shape{
	{40, 40, 760, 560}, {40, 40, 300, 300}, {300, 40, 560, 300}, {560, 40, 760, 300},
	{40, 400, 760, 400}, {100, 420, 180, 500}, {350, 100, 450, 160}, {420, 440, 520, 530},
}

var titleBlock = []shape{{10, 10, 290, 590}, {10, 300, 290, 300}, {10, 450, 290, 450}, {40, 500, 260, 540}}

type env struct {
	ctx     context.Context
	db      *ent.Client
	q       *jobs.Queue
	s       *testenv.Stack
	project *ent.Project
}

func newEnv(t *testing.T) *env {
	t.Helper()
	s := testenv.NewStack(t, 3, func(s *testenv.Stack, w *jobs.Worker) {
		s.Runner.Events = events.New(s.St.Client, nil, nil)
		(&comparejob.Compare{R: s.Runner, Blobs: s.Bucket}).Register(w)
	})
	e := &env{ctx: tenant.WithOrg(context.Background(), org), db: s.St.Client, q: s.Q, s: s}
	e.project = must[*ent.Project](t)(e.db.Project.Create().SetName("compare").Save(e.ctx))
	return e
}

func must[T any](t *testing.T) func(T, error) T { return jobstest.Must[T](t) }

func (e *env) drawing(t *testing.T, name string) *ent.Drawing {
	t.Helper()
	f := must[*ent.File](t)(e.db.File.Create().SetProjectID(e.project.ID).SetFilename(name + ".png").SetContentType("image/png").
		SetSize(1).SetStorageKey("files/" + name).SetStatus("ready").Save(e.ctx))
	return must[*ent.Drawing](t)(e.db.Drawing.Create().SetProjectID(e.project.ID).SetFileID(f.ID).SetName(name).SetStatus(drawing.StatusReady).Save(e.ctx))
}

// sheet adds page page numbered number to d, its blocks placed side by
// side at the top left, and a thumbnail of them.
func (e *env) sheet(t *testing.T, d *ent.Drawing, page int, number, title string, blocks ...*image.Gray) (*ent.Sheet, []*ent.Block) {
	t.Helper()
	s := must[*ent.Sheet](t)(e.db.Sheet.Create().SetProjectID(e.project.ID).SetDrawingID(d.ID).SetPageNumber(page).
		SetSheetNumber(number).SetSheetNumberNorm(sheetmeta.Normalize(number)).SetTitle(title).SetWidth(2000).SetHeight(1000).SetDpi(300).Save(e.ctx))
	thumb := draw(200, 100, 0, 0)
	var out []*ent.Block
	x := 0
	for i, img := range blocks {
		typ := block.TypePlan
		if i > 0 {
			typ = block.TypeTitleBlock
		}
		w, h := img.Rect.Dx(), img.Rect.Dy()
		b := must[*ent.Block](t)(e.db.Block.Create().SetProjectID(e.project.ID).SetSheetID(s.ID).SetType(typ).
			SetBounds(geom.Box{XMin: float64(x), YMin: 0, XMax: float64(x + w), YMax: float64(h)}).Save(e.ctx))
		if err := blobs.PutPNG(e.ctx, e.s.Bucket, blobs.BlockKey(org, b.ID)+".png", img); err != nil {
			t.Fatal(err)
		}
		for y := 0; y < h/10; y++ {
			for xx := 0; xx < w/10; xx++ {
				thumb.Pix[y*200+x/10+xx] = img.Pix[(y*10)*w+xx*10]
			}
		}
		out = append(out, b)
		x += w
	}
	if err := blobs.PutPNG(e.ctx, e.s.Bucket, blobs.SheetKey(org, d.ID, page)+"-thumb.png", thumb); err != nil {
		t.Fatal(err)
	}
	return s, out
}

func (e *env) compare(t *testing.T, in comparejob.Input) *ent.Job {
	t.Helper()
	tt := comparejob.TargetType(in.Type)
	j, err := jobs.Start(e.ctx, e.db, e.q, jobs.NewJob{Type: jobs.TypeCompare, ProjectID: e.project.ID, TargetType: tt, TargetID: in.NewID, Input: in})
	if err != nil {
		t.Fatal(err)
	}
	return jobstest.WaitJob(t, e.ctx, e.db, j.ID, 2*time.Minute, 20*time.Millisecond)
}

func report(t *testing.T, j *ent.Job) engine.Report {
	t.Helper()
	if j.Status != job.StatusCompleted {
		t.Fatalf("compare job %s: %s %+v", j.ID, j.Status, j.Error)
	}
	var rep engine.Report
	if err := json.Unmarshal(j.Result, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestCompareDrawings(t *testing.T) {
	e := newEnv(t)
	da, db := e.drawing(t, "rev A"), e.drawing(t, "rev B")
	_, blocksA := e.sheet(t, da, 1, "A-101", "FLOOR PLAN", draw(800, 600, 0, 0, planA...), draw(300, 600, 0, 0, titleBlock...))
	e.sheet(t, da, 2, "A-501", "DETAILS", draw(400, 300, 0, 0, shape{20, 20, 380, 280}))
	// B: the plan revised and its sheet shifted a few pixels; the details
	// sheet gone; a new sheet
	_, blocksB := e.sheet(t, db, 1, "A101", "FLOOR PLAN", draw(800, 600, 5, -3, planB...), draw(300, 600, 5, -3, titleBlock...))
	e.sheet(t, db, 2, "A-601", "SCHEDULES", draw(400, 300, 0, 0, shape{50, 50, 350, 250}, shape{50, 150, 350, 150}))

	j := e.compare(t, comparejob.Input{Type: comparejob.TypeDrawing, OldID: da.ID, NewID: db.ID, Analyze: true})
	rep := report(t, j)
	if rep.Type != "Drawing" || rep.Old.ID != da.ID || rep.New.ID != db.ID || rep.Old.Name != "rev A" || !rep.Analyzed || !rep.HasChanges {
		t.Errorf("report head %+v %+v analyzed %v has_changes %v", rep.Old, rep.New, rep.Analyzed, rep.HasChanges)
	}
	if len(rep.SheetsAdded) != 1 || rep.SheetsAdded[0].Number != "A-601" || len(rep.SheetsRemoved) != 1 || rep.SheetsRemoved[0].Number != "A-501" {
		t.Errorf("sheets added %+v removed %+v", rep.SheetsAdded, rep.SheetsRemoved)
	}
	if len(rep.SheetsRenumbered) != 0 {
		t.Errorf("A-101 and A101 are one number: renumbered %+v", rep.SheetsRenumbered)
	}
	if len(rep.Pairs) != 1 || len(rep.Pairs[0].Overlays) != 2 {
		t.Fatalf("pairs %+v, want one sheet pair of two block pairs", rep.Pairs)
	}
	byBlock := map[string]engine.ReportOverlay{}
	for _, o := range rep.Pairs[0].Overlays {
		byBlock[o.Old.BlockID] = o
	}
	plan, tb := byBlock[blocksA[0].ID], byBlock[blocksA[1].ID]
	if plan.New.BlockID != blocksB[0].ID || tb.New.BlockID != blocksB[1].ID {
		t.Fatalf("block pairs %+v", rep.Pairs[0].Overlays)
	}
	// the title block only moved: registered onto B, nothing changed
	if tb.Score < 0.95 || len(tb.Changes) != 0 || tb.Transform.Scale < 0.99 || tb.Transform.Scale > 1.01 {
		t.Errorf("title block overlay: score %.3f, %d changes, transform %+v", tb.Score, len(tb.Changes), tb.Transform)
	}
	if dx, dy := tb.Transform.Tx-5, tb.Transform.Ty+3; dx*dx+dy*dy > 1 {
		t.Errorf("title block moved by (5, -3), the transform says (%.2f, %.2f)", tb.Transform.Tx, tb.Transform.Ty)
	}
	// the plan changed: less than identical, its changes stored and counted
	if plan.Score >= 0.99 || plan.Score <= 0 || len(plan.Changes) == 0 {
		t.Errorf("plan overlay: score %.3f, %d changes", plan.Score, len(plan.Changes))
	}
	sum := func(m map[string]int) int {
		n := 0
		for _, v := range m {
			n += v
		}
		return n
	}
	if total := len(plan.Changes) + len(tb.Changes); sum(rep.ByCategory) != total || sum(rep.BySeverity) != total || sum(rep.ByKind) != total ||
		sum(plan.ByCategory) != len(plan.Changes) {
		t.Errorf("counts %v %v %v / %v, %d changes listed", rep.ByCategory, rep.BySeverity, rep.ByKind, plan.ByCategory, total)
	}
	for _, c := range plan.Changes {
		if c.Kind == "" || c.Category == "" || c.Description == "" || !c.Bounds.Valid() {
			t.Errorf("change %+v", c)
		}
	}
	// the overlays: one per pair, their images stored, their changes with stable ids
	ovs := must[[]*ent.Overlay](t)(e.db.Overlay.Query().Where(overlay.JobID(j.ID)).All(e.ctx))
	if len(ovs) != 2 {
		t.Fatalf("%d overlays stored, want 2", len(ovs))
	}
	for _, o := range ovs {
		if o.ID != comparejob.OverlayID(j.ID, o.BlockAID, o.BlockBID) || o.ProjectID != e.project.ID || !o.HasChanges || o.Transform == nil || o.Score == nil {
			t.Errorf("overlay %+v", o)
		}
		for _, img := range blobs.OverlayImages {
			if ok, err := e.s.Bucket.Exists(e.ctx, blobs.OverlayKey(org, o.ID)+img.Suffix); err != nil || !ok {
				t.Errorf("overlay %s has no %s image (%v)", o.ID, img.Name, err)
			}
			if img == blobs.OverlayAlignedB { // B's own image, as B's block has it
				got, err1 := blobs.GetPNG(e.ctx, e.s.Bucket, blobs.OverlayKey(org, o.ID)+img.Suffix)
				want, err2 := blobs.GetPNG(e.ctx, e.s.Bucket, blobs.BlockKey(org, o.BlockBID)+".png")
				if err1 != nil || err2 != nil || got.Rect != want.Rect || !bytes.Equal(got.Pix, want.Pix) {
					t.Errorf("overlay %s: aligned_b is not block %s's image (%v, %v)", o.ID, o.BlockBID, err1, err2)
				}
			}
			if want := "/v1/overlays/" + o.ID + "/" + img.Name; img == blobs.OverlayCombined && o.URI != want || img == blobs.OverlayAddition && o.AdditionURI != want {
				t.Errorf("overlay %s: uri %q addition %q", o.ID, o.URI, o.AdditionURI)
			}
		}
		for i, c := range o.Changes {
			if !strings.HasPrefix(c.ID, "chg_") || c.ID != comparejob.StoredChange(o.ID, i, engine.Change{}).ID {
				t.Errorf("change %d of %s has id %s", i, o.ID, c.ID)
			}
		}
	}
	// the job tree and its events
	children := must[[]*ent.Job](t)(e.db.Job.Query().Where(job.ParentID(j.ID)).All(e.ctx))
	count := map[string]int{}
	for _, c := range children {
		count[c.Type]++
		if c.Status != job.StatusCompleted {
			t.Errorf("child %s %s: %s %+v", c.Type, c.ID, c.Status, c.Error)
		}
	}
	if count[jobs.TypeOverlayGenerate] != 2 || count[jobs.TypeChangesAnalyze] != 2 || count[jobs.TypeChangesSummarize] != 1 || len(children) != 5 {
		t.Errorf("children %v", count)
	}
	evs := must[[]*ent.Event](t)(e.db.Event.Query().Where(event.JobIDIn(append(jobIDs(children), j.ID)...)).All(e.ctx))
	types := map[string]int{}
	for _, ev := range evs {
		types[ev.Type]++
	}
	if types["compare.started"] != 1 || types["compare.completed"] != 1 || types[jobs.EventCompareChildCompleted] != 5 {
		t.Errorf("events %v", types)
	}

	// a retried overlay task and a retried analysis add nothing
	var gen, ana *ent.Job
	for _, c := range children {
		if c.Type == jobs.TypeOverlayGenerate && c.TargetID == blocksB[0].ID {
			gen = c
		}
		if c.Type == jobs.TypeChangesAnalyze && c.TargetID == plan.OverlayID {
			ana = c
		}
	}
	before := must[*ent.Overlay](t)(e.db.Overlay.Get(e.ctx, plan.OverlayID))
	for _, c := range []*ent.Job{gen, ana} {
		testenv.Redeliver(t, e.ctx, e.db, e.q, c.ID)
		if again := jobstest.WaitJob(t, e.ctx, e.db, c.ID, time.Minute, 20*time.Millisecond); again.Status != job.StatusCompleted {
			t.Fatalf("redelivered %s: %s %+v", c.Type, again.Status, again.Error)
		}
	}
	after := must[*ent.Overlay](t)(e.db.Overlay.Get(e.ctx, plan.OverlayID))
	if n := must[int](t)(e.db.Overlay.Query().Where(overlay.JobID(j.ID)).Count(e.ctx)); n != 2 {
		t.Errorf("%d overlays after the retries", n)
	}
	if !slices.EqualFunc(before.Changes, after.Changes, func(a, b overlayjson.Change) bool { return a.ID == b.ID && a.Bounds == b.Bounds }) {
		t.Errorf("a retried analysis changed the changes:\n%+v\n%+v", before.Changes, after.Changes)
	}
}

func jobIDs(js []*ent.Job) []string {
	out := make([]string, len(js))
	for i, j := range js {
		out[i] = j.ID
	}
	return out
}

func TestCompareBlocksAndBadPairs(t *testing.T) {
	e := newEnv(t)
	d := e.drawing(t, "set")
	_, bs := e.sheet(t, d, 1, "A-1", "PLAN", draw(800, 600, 0, 0, planA...), draw(300, 600, 0, 0, titleBlock...))
	_, bs2 := e.sheet(t, d, 2, "A-2", "PLAN", draw(800, 600, 0, 0), draw(300, 600, 0, 0))

	// two blocks of wholly different content: completed, a low score
	j := e.compare(t, comparejob.Input{Type: comparejob.TypeBlock, OldID: bs[0].ID, NewID: bs[1].ID})
	rep := report(t, j)
	if len(rep.Pairs) != 1 || len(rep.Pairs[0].Overlays) != 1 || rep.Analyzed {
		t.Fatalf("block compare report %+v", rep)
	}
	if o := rep.Pairs[0].Overlays[0]; o.Score > 0.6 || o.Changes == nil || len(o.Changes) != 0 {
		t.Errorf("a plan and a title block: score %.3f (want < 0.6, major), changes %v (not analyzed: none)", o.Score, o.Changes)
	}
	if n := must[int](t)(e.db.Job.Query().Where(job.ParentID(j.ID), job.TypeEQ(jobs.TypeChangesAnalyze)).Count(e.ctx)); n != 0 {
		t.Errorf("analyze false made %d analysis jobs", n)
	}
	// an empty block against a drawn one: completed, whatever registration made of it
	j = e.compare(t, comparejob.Input{Type: comparejob.TypeBlock, OldID: bs2[0].ID, NewID: bs[0].ID, Analyze: true})
	rep = report(t, j)
	if o := rep.Pairs[0].Overlays; len(o) != 1 || o[0].Score > 0.6 {
		t.Errorf("an empty block against a plan: %+v", o)
	}
	// a sheet compare of a sheet with itself is refused by the service;
	// here two sheets: the empty plan pairs with the plan by place and type
	j = e.compare(t, comparejob.Input{Type: comparejob.TypeSheet, OldID: bs2[0].SheetID, NewID: bs[0].SheetID})
	rep = report(t, j)
	if len(rep.Pairs) != 1 || len(rep.Pairs[0].Overlays) != 2 {
		t.Errorf("sheet compare pairs %+v", rep.Pairs)
	}
	// a block deleted before its job ran: the compare fails clearly
	gone := must[*ent.Block](t)(e.db.Block.Create().SetProjectID(e.project.ID).SetSheetID(bs[0].SheetID).SetType(block.TypePlan).
		SetBounds(geom.Box{XMax: 10, YMax: 10}).Save(e.ctx))
	if err := e.db.Block.DeleteOne(gone).Exec(e.ctx); err != nil {
		t.Fatal(err)
	}
	j = e.compare(t, comparejob.Input{Type: comparejob.TypeBlock, OldID: gone.ID, NewID: bs[0].ID})
	if j.Status != job.StatusFailed || j.Error == nil || j.Error.Code != "NOT_FOUND" {
		t.Errorf("a compare of a deleted block: %s %+v", j.Status, j.Error)
	}
}
