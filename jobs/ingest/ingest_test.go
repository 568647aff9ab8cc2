package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/ent/sheet"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/internal/tilepack"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/internal/uploads"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/jobs/ingest"
	"github.com/plangraph/plangraph/jobs/jobstest"
	"github.com/plangraph/plangraph/vision/render"
)

type ingestEnv struct {
	ctx     context.Context
	db      *ent.Client
	q       *jobs.Queue
	ingest  *ingest.Ingest
	project *ent.Project
}

func newIngestEnv(t *testing.T, lim render.Limits) *ingestEnv {
	t.Helper()
	base := context.Background()
	var in *ingest.Ingest
	s := testenv.NewStack(t, 2, func(s *testenv.Stack, w *jobs.Worker) {
		in = &ingest.Ingest{R: s.Runner, Blobs: s.Bucket, Limits: lim}
		in.Register(w)
	})
	st, q := s.St, s.Q
	ctx := tenant.WithOrg(base, "org_test")
	p, err := st.Client.Project.Create().SetName("ingest").Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return &ingestEnv{ctx: ctx, db: st.Client, q: q, ingest: in, project: p}
}

// submit stores data as a ready file, makes a drawing and queues its processing.
func (e *ingestEnv) submit(t *testing.T, data []byte, ct string) (*ent.Drawing, *ent.Job) {
	t.Helper()
	key := uploads.StorageKey("org_test", "fil_"+t.Name())
	if err := e.ingest.Blobs.WriteAll(e.ctx, key, data, nil); err != nil {
		t.Fatal(err)
	}
	f, err := e.db.File.Create().SetProjectID(e.project.ID).SetFilename("set.pdf").SetContentType(ct).
		SetSize(int64(len(data))).SetStorageKey(key).SetStatus("ready").Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.db.Drawing.Create().SetProjectID(e.project.ID).SetFileID(f.ID).SetName("set").Save(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	j, err := jobs.Start(e.ctx, e.db, e.q, jobs.NewJob{Type: jobs.TypeDrawingPreprocess, ProjectID: e.project.ID,
		TargetType: job.TargetTypeDrawing, TargetID: d.ID})
	if err != nil {
		t.Fatal(err)
	}
	return d, j
}

func (e *ingestEnv) wait(t *testing.T, id string) *ent.Job {
	t.Helper()
	return jobstest.WaitJob(t, e.ctx, e.db, id, 120*time.Second, 100*time.Millisecond)
}

func TestIngestSyntheticSet(t *testing.T) {
	set, err := synth.Generate(synth.Options{Seed: 11, Sheets: 3, PageSize: "24x18"})
	if err != nil {
		t.Fatal(err)
	}
	var pdf bytes.Buffer
	if err := set.WritePDF(&pdf); err != nil {
		t.Fatal(err)
	}
	e := newIngestEnv(t, render.Limits{DPI: 100, MaxPixels: 250_000_000, MaxPages: 1000})
	d, j := e.submit(t, pdf.Bytes(), "application/pdf")
	got := e.wait(t, j.ID)
	if got.Status != job.StatusCompleted {
		t.Fatalf("drawing job %s: %+v", got.Status, got.Error)
	}
	children, _ := e.db.Job.Query().Where(job.ParentID(j.ID)).All(e.ctx)
	if len(children) != 3 {
		t.Fatalf("%d sheet jobs, want 3", len(children))
	}
	for _, c := range children {
		if c.Type != jobs.TypeSheetPreprocess || c.Status != job.StatusCompleted || c.StartedAt == nil || c.CompletedAt == nil {
			t.Fatalf("child %+v", c)
		}
		grand, _ := e.db.Job.Query().Where(job.ParentID(c.ID)).All(e.ctx)
		if len(grand) != 1 || grand[0].Type != jobs.TypeBlockPreprocess || grand[0].Status != job.StatusCompleted {
			t.Fatalf("block jobs of %s: %+v", c.ID, grand)
		}
	}
	dr, _ := e.db.Drawing.Get(e.ctx, d.ID)
	if dr.Status != drawing.StatusReady || dr.PageCount != 3 {
		t.Fatalf("drawing %s with %d pages", dr.Status, dr.PageCount)
	}
	sheets, _ := e.db.Sheet.Query().Where(sheet.DrawingID(d.ID)).Order(ent.Asc(sheet.FieldPageNumber)).All(e.ctx)
	if len(sheets) != 3 {
		t.Fatalf("%d sheets", len(sheets))
	}
	for i, s := range sheets {
		want := set.Truth.Sheets[i]
		if s.SheetNumber != want.SheetNumber || s.Title != want.Title || s.Discipline != want.Discipline {
			t.Errorf("page %d: got %q %q %q, want %q %q %q", i+1, s.SheetNumber, s.Title, s.Discipline, want.SheetNumber, want.Title, want.Discipline)
		}
		for _, b := range want.Blocks {
			for _, f := range b.Fields {
				if f.Key == "revision" && s.Revision != f.Value {
					t.Errorf("page %d: revision %q, want %q", i+1, s.Revision, f.Value)
				}
			}
		}
		if s.Dpi != 100 || s.Width != 2400 || s.Height != 1800 || s.URI != blobs.SheetURI(s.ID) {
			t.Errorf("page %d: %dx%d at %d dpi, uri %q", i+1, s.Width, s.Height, s.Dpi, s.URI)
		}
		// blocks: every truth block found with the right type (segmentation
		// quality itself is measured in vision/layout)
		blocks, _ := e.db.Block.Query().Where(block.SheetID(s.ID)).All(e.ctx)
		types := map[string]int{}
		for _, b := range blocks {
			types[string(b.Type)]++
			if b.URI != blobs.BlockURI(b.ID) || !b.Bounds.Valid() || b.Description == "" {
				t.Errorf("page %d: block %+v", i+1, b)
			}
			if ok, _ := e.ingest.Blobs.Exists(e.ctx, blobs.BlockKey("org_test", b.ID)+".png"); !ok {
				t.Errorf("page %d: block %s image was not stored", i+1, b.ID)
			}
		}
		wantTypes := map[string]int{}
		for _, b := range want.Blocks {
			wantTypes[b.Type]++
		}
		for typ, n := range wantTypes {
			if types[typ] != n {
				t.Errorf("page %d: %d %s blocks, want %d (got %v)", i+1, types[typ], typ, n, types)
			}
		}
		key := blobs.SheetKey("org_test", d.ID, s.PageNumber)
		for _, suffix := range []string{".png", "-thumb.png", ".dzi", "-words.json"} {
			if ok, _ := e.ingest.Blobs.Exists(e.ctx, key+suffix); !ok {
				t.Errorf("page %d: %s was not stored", i+1, key+suffix)
			}
		}
		// the pyramid's tiles are in one pack: the top tile and a full-resolution one
		levels := render.DZILevels(s.Width, s.Height)
		for _, tile := range []string{"0/0_0.png", fmt.Sprintf("%d/0_0.png", levels-1)} {
			rd, n, err := (&tilepack.Reader{Bucket: e.ingest.Blobs}).Tile(e.ctx, blobs.TilePack(key), tile)
			if err != nil {
				t.Errorf("page %d: tile %s: %v", i+1, tile, err)
				continue
			}
			if m, err := png.Decode(rd); err != nil || n == 0 || m.Bounds().Dx() == 0 {
				t.Errorf("page %d: tile %s does not decode (%v)", i+1, tile, err)
			}
			rd.Close()
		}
	}
	// the search index has the sheets, blocks and words; a rebuild replaces them
	idx := index.New(e.db, e.ingest.Blobs)
	rows := indexRows(t, e.ctx, idx, dr.ProjectID)
	nBlocks, _ := e.db.Block.Query().Count(e.ctx)
	if rows[index.TypeSheet] != 3 || rows[index.TypeBlock] != nBlocks || rows[index.TypeWord] < 30 {
		t.Errorf("search rows by type %v, want 3 sheets, %d blocks and the words", rows, nBlocks)
	}
	// processing the drawing again (a duplicate delivery after a crash)
	// neither duplicates nor loses sheets
	testenv.Redeliver(t, e.ctx, e.db, e.q, j.ID)
	if again := e.wait(t, j.ID); again.Status != job.StatusCompleted || again.StartedAt == nil || !again.StartedAt.After(*got.StartedAt) {
		t.Fatalf("reprocessing: %s, started %v (first %v)", again.Status, again.StartedAt, got.StartedAt)
	}
	if n, _ := e.db.Sheet.Query().Where(sheet.DrawingID(d.ID)).Count(e.ctx); n != 3 {
		t.Fatalf("%d sheets after reprocessing", n)
	}
	if n, _ := e.db.Job.Query().Where(job.ParentID(j.ID)).Count(e.ctx); n != 3 {
		t.Fatalf("%d sheet jobs after reprocessing", n)
	}
	if n, _ := e.db.Block.Query().Count(e.ctx); n == 0 || n > 3*12 {
		t.Fatalf("%d blocks after reprocessing", n)
	}
	if again := indexRows(t, e.ctx, idx, dr.ProjectID); fmt.Sprint(again) != fmt.Sprint(rows) {
		t.Errorf("search rows after reprocessing %v, before %v", again, rows)
	}
}

// indexRows counts a project's search rows by source type.
func indexRows(t *testing.T, ctx context.Context, idx *index.Index, projectID string) map[string]int {
	t.Helper()
	docs, err := idx.Docs(ctx, index.Scope{ProjectID: projectID}, 100000)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, d := range docs {
		n[d.SourceType]++
	}
	return n
}

func TestIngestBadInputFailsCleanly(t *testing.T) {
	set, err := synth.Generate(synth.Options{Seed: 5, Sheets: 2, PageSize: "24x18"})
	if err != nil {
		t.Fatal(err)
	}
	var pdf bytes.Buffer
	if err := set.WritePDF(&pdf); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		lim  render.Limits
		code string
	}{
		{"truncated PDF", pdf.Bytes()[:len(pdf.Bytes())/3], render.Limits{DPI: 72, MaxPixels: 1e8, MaxPages: 100}, "CORRUPT_FILE"},
		{"not a PDF at all", []byte("%PDF-1.7\nthis is not really a pdf"), render.Limits{DPI: 72, MaxPixels: 1e8, MaxPages: 100}, "CORRUPT_FILE"},
		// 24×18 in: 38.9 MP at 300 DPI, 9.7 MP at the least DPI a page is
		// drawn at to fit (render.MinFitDPI)
		{"pages over the cap", pdf.Bytes(), render.Limits{DPI: 300, MaxPixels: 5_000_000, MaxPages: 100}, "PAGE_TOO_LARGE"},
		{"too many pages", pdf.Bytes(), render.Limits{DPI: 72, MaxPixels: 1e8, MaxPages: 1}, "TOO_MANY_PAGES"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newIngestEnv(t, tt.lim)
			d, j := e.submit(t, tt.data, "application/pdf")
			got := e.wait(t, j.ID)
			if got.Status != job.StatusFailed || got.Error == nil || got.Error.Code != tt.code || got.Error.Message == "" {
				t.Fatalf("status %s, error %+v; want Failed %s", got.Status, got.Error, tt.code)
			}
			if n, _ := e.db.Sheet.Query().Where(sheet.DrawingID(d.ID)).Count(e.ctx); n != 0 {
				t.Fatalf("%d sheets left behind", n)
			}
			if dr, _ := e.db.Drawing.Get(e.ctx, d.ID); dr.Status != drawing.StatusFailed {
				t.Fatalf("drawing status %s, want failed", dr.Status)
			}
		})
	}
}

// A scanned sheet (a PNG with no text layer) gets its number and title by OCR.
func TestIngestScannedSheet(t *testing.T) {
	set, err := synth.Generate(synth.Options{Seed: 21, Sheets: 1, PageSize: "24x18", DPI: 150})
	if err != nil {
		t.Fatal(err)
	}
	var pdf bytes.Buffer
	if err := set.WritePDF(&pdf); err != nil {
		t.Fatal(err)
	}
	// "scan" the sheet: render it to a PNG, dropping the text layer
	dir := t.TempDir()
	pdfPath := dir + "/set.pdf"
	if err := os.WriteFile(pdfPath, pdf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	doc, err := render.Open(pdfPath, "application/pdf", render.Limits{DPI: 150, MaxPixels: 250_000_000, MaxPages: 10})
	if err != nil {
		t.Fatal(err)
	}
	img, err := doc.Render(0)
	doc.Close()
	if err != nil {
		t.Fatal(err)
	}
	var png bytes.Buffer
	if err := render.EncodePNG(&png, img); err != nil {
		t.Fatal(err)
	}
	e := newIngestEnv(t, render.Limits{DPI: 150, MaxPixels: 250_000_000, MaxPages: 10})
	d, j := e.submit(t, png.Bytes(), "image/png")
	if got := e.wait(t, j.ID); got.Status != job.StatusCompleted {
		t.Fatalf("job %s: %+v", got.Status, got.Error)
	}
	s, err := e.db.Sheet.Query().Where(sheet.DrawingID(d.ID)).Only(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := set.Truth.Sheets[0]
	if s.SheetNumber != want.SheetNumber || s.Discipline != want.Discipline {
		t.Fatalf("OCR read %q (%s), want %q (%s)", s.SheetNumber, s.Discipline, want.SheetNumber, want.Discipline)
	}
	if s.Title != want.Title {
		t.Logf("OCR title %q, truth %q", s.Title, want.Title)
	}
	sj, _ := e.db.Job.Query().Where(job.ParentID(j.ID)).Only(e.ctx)
	var res ingest.SheetResult
	_ = json.Unmarshal(sj.Result, &res)
	if res.TextSource != "ocr" || res.Words < 10 {
		t.Fatalf("sheet result %+v", res)
	}
}
