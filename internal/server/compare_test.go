package server_test

// Compare (POST /v1/drawings/{id}/compare, /v1/sheets/{id}/compare,
// /v1/compare, /v1/overlays/{id}/analyze; the compare and analyzeOverlay
// mutations) through the real HTTPS server on every profile: a synthetic
// sheet and its revision (internal/tools/synth) ingested and compared, the
// job tree, overlays listed with filters and expand, their images, the
// reports, request validation, organization isolation, idempotency,
// GraphQL parity and the overlays' images removed with their drawing. How
// well changes are found is the engine's business (its tests and
// benchmarks); here the plumbing is checked.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/event"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/overlayjson"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/jobs"
	engine "github.com/plangraph/plangraph/vision/compare"
	"github.com/plangraph/plangraph/vision/render"
)

// overlayFull is an overlay as GET /v1/overlays shows it.
type overlayFull struct {
	overlayRec
	ProjectID   string                 `json:"project_id"`
	Score       *float64               `json:"score"`
	Registered  bool                   `json:"registered"`
	Transform   *overlayjson.Transform `json:"transform"`
	URI         string                 `json:"uri"`
	AdditionURI string                 `json:"addition_uri"`
	DeletionURI string                 `json:"deletion_uri"`
	AlignedAURI string                 `json:"aligned_a_uri"`
	AlignedBURI string                 `json:"aligned_b_uri"`
	Changes     *[]overlayjson.Change  `json:"changes"`
	Warnings    []string               `json:"warnings"`
	BlockA      *struct {
		ID    string `json:"id"`
		Sheet *struct {
			ID      string      `json:"id"`
			Drawing *drawingRec `json:"drawing"`
		} `json:"sheet"`
	} `json:"block_a"`
	BlockB *blockRec `json:"block_b"`
	Job    *jobRec   `json:"job"`
}

// compareFixture is a synthetic sheet (A) and its revision (B), ingested.
type compareFixture struct {
	s                   *testenv.Server
	key, org, project   string
	old, new            string // drawings
	oldSheet, newSheet  string
	oldBlocks, newBlock []blockRec
	newPDF              []byte
}

func newCompareFixture(t *testing.T, p testenv.Profile) *compareFixture {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: 7, Sheets: 1, PageSize: "24x18", Revision: true})
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := set.WritePDF(&a); err != nil {
		t.Fatal(err)
	}
	if err := set.WriteRevisionPDF(&b); err != nil {
		t.Fatal(err)
	}
	s := startPipelines(t, p)
	key, rec := s.CreateKeyRecord(t, "acme")
	f := &compareFixture{s: s, key: key, org: rec.OrgID, newPDF: b.Bytes()}
	f.project = createProject(t, s, key, "Compare").ID
	ingest := func(name string, pdf []byte) (string, string) {
		fl := uploadFile(t, s, key, f.project, name, "application/pdf", pdf)
		var acc accepted
		postJSON(t, s, key, "/v1/drawings", map[string]any{"project_id": f.project, "file_id": fl.ID}).ExpectStatus(t, http.StatusAccepted).JSON(t, &acc)
		if raw := waitJobREST(t, s, key, acc.Data.JobID); raw["status"] != "Completed" {
			t.Fatalf("ingest %s: %v", name, raw)
		}
		sheets := getList[sheetRec](t, s, key, "/v1/sheets?drawing_id="+acc.Data.Drawing.ID).Data
		if len(sheets) != 1 {
			t.Fatalf("%s: %d sheets", name, len(sheets))
		}
		return acc.Data.Drawing.ID, sheets[0].ID
	}
	f.old, f.oldSheet = ingest("rev-a.pdf", a.Bytes())
	f.new, f.newSheet = ingest("rev-b.pdf", b.Bytes())
	f.oldBlocks = getList[blockRec](t, s, key, "/v1/blocks?limit=100&sheet_id="+f.oldSheet).Data
	f.newBlock = getList[blockRec](t, s, key, "/v1/blocks?limit=100&sheet_id="+f.newSheet).Data
	if len(f.oldBlocks) < 2 || len(f.newBlock) < 2 {
		t.Fatalf("blocks: %d and %d", len(f.oldBlocks), len(f.newBlock))
	}
	return f
}

// startCompare POSTs a compare request that must be accepted; it returns
// the response and the job id.
func startCompare(t *testing.T, s *testenv.Server, key, path string, body any, h http.Header) (*testenv.Response, string) {
	t.Helper()
	res := s.Do(t, testenv.Request{Method: http.MethodPost, Path: path, Key: key, Body: body, Header: h}).ExpectStatus(t, http.StatusAccepted)
	raw := res.Object(t)
	data := keysOf(t, "202 data", raw["data"], []string{"job_id", "type", "status"}, "target")
	id, _ := data["job_id"].(string)
	if len(raw) != 1 || !strings.HasPrefix(id, "job_") || data["status"] != "PENDING" {
		t.Errorf("202 body %s", res.Body)
	}
	if loc := res.Header.Get("Location"); loc != "/v1/jobs/"+id {
		t.Errorf("Location %q", loc)
	}
	return res, id
}

func TestCompare(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			f := newCompareFixture(t, p)
			s, key := f.s, f.key
			t.Run("validation", func(t *testing.T) { compareValidation(t, f) })

			// the drawing B against A, once under an idempotency key
			h := http.Header{"Idempotency-Key": {"compare-once"}}
			first, id := startCompare(t, s, key, "/v1/drawings/"+f.new+"/compare", map[string]any{"compare_to": f.old}, h)
			again, _ := startCompare(t, s, key, "/v1/drawings/"+f.new+"/compare", map[string]any{"compare_to": f.old}, h)
			if !bytes.Equal(first.Body, again.Body) || again.Header.Get("Idempotency-Status") != "hit" {
				t.Errorf("repeat: %s / %s (%s)", first.Body, again.Body, again.Header.Get("Idempotency-Status"))
			}
			var acc struct{ Data jobRec }
			first.JSON(t, &acc)
			if acc.Data.Type != jobs.TypeCompare || acc.Data.Target == nil || *acc.Data.Target != (jobTarget{"drawing", f.new}) {
				t.Errorf("202 data %+v", acc.Data)
			}
			raw := waitJobREST(t, s, key, id)
			if raw["status"] != "Completed" {
				t.Fatalf("compare job: %v", raw)
			}
			var rep engine.Report
			b, _ := json.Marshal(raw["results"])
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Type != "Drawing" || rep.Old.ID != f.old || rep.New.ID != f.new || !rep.Analyzed || len(rep.Pairs) != 1 ||
				rep.Pairs[0].Old.SheetID != f.oldSheet || rep.Pairs[0].New.SheetID != f.newSheet || len(rep.SheetsAdded)+len(rep.SheetsRemoved) != 0 {
				t.Fatalf("report %+v", rep)
			}
			ovIDs := map[string]engine.ReportOverlay{}
			changes := 0
			for _, o := range rep.Pairs[0].Overlays {
				ovIDs[o.OverlayID] = o
				changes += len(o.Changes)
			}
			// the revision moved walls, renamed rooms, added symbols: changes found, the report says so
			if len(ovIDs) < 2 || changes == 0 || !rep.HasChanges {
				t.Errorf("%d overlays, %d changes, has_changes %v", len(ovIDs), changes, rep.HasChanges)
			}
			t.Logf("compare of a synthetic revision: %d overlays, %d changes %v", len(ovIDs), changes, rep.ByCategory)
			// the job tree: an overlay and an analysis per block pair, one summary
			kids := getList[jobRec](t, s, key, "/v1/jobs?limit=100&parent_id="+id).Data
			count := map[string]int{}
			for _, k := range kids {
				count[k.Type]++
			}
			if count[jobs.TypeOverlayGenerate] != len(ovIDs) || count[jobs.TypeChangesAnalyze] != len(ovIDs) || count[jobs.TypeChangesSummarize] != 1 {
				t.Errorf("children %v for %d overlays", count, len(ovIDs))
			}
			ctx := tenant.WithOrg(context.Background(), f.org)
			evs, err := s.App.Store.Client.Event.Query().Where(event.JobIDIn(append(idsOf(kids), id)...)).All(ctx)
			if err != nil {
				t.Fatal(err)
			}
			types := map[string]int{}
			for _, e := range evs {
				types[e.Type]++
			}
			if types["compare.started"] != 1 || types["compare.completed"] != 1 || types[jobs.EventCompareChildCompleted] != len(kids) {
				t.Errorf("events %v for %d children", types, len(kids))
			}

			// the overlays: listed by job with every filter and expand
			q := "/v1/overlays?limit=100&job_id=" + id
			ovs := getList[overlayFull](t, s, key, q+"&expand="+url.QueryEscape("block_a.sheet.drawing,block_b,job")).Data
			if len(ovs) != len(ovIDs) {
				t.Fatalf("%d overlays listed, the report has %d", len(ovs), len(ovIDs))
			}
			for _, o := range ovs {
				ro, ok := ovIDs[o.ID]
				if !ok || o.BlockAID != ro.Old.BlockID || o.BlockBID != ro.New.BlockID || o.ProjectID != f.project || o.Score == nil ||
					*o.Score != ro.Score || o.Transform == nil || !o.HasChanges || o.Changes == nil || len(*o.Changes) != len(ro.Changes) {
					t.Errorf("overlay %+v, in the report %+v", o, ro)
				}
				if o.BlockA == nil || o.BlockA.Sheet == nil || o.BlockA.Sheet.Drawing == nil || o.BlockA.Sheet.Drawing.ID != f.old ||
					o.BlockB == nil || o.BlockB.ID != o.BlockBID || o.Job == nil || o.Job.JobID != id {
					t.Errorf("overlay %s expanded: %+v %+v %+v", o.ID, o.BlockA, o.BlockB, o.Job)
				}
				if o.URI != "/v1/overlays/"+o.ID+"/image" || o.AlignedAURI != "/v1/overlays/"+o.ID+"/aligned_a" {
					t.Errorf("overlay %s: uri %q, aligned_a_uri %q", o.ID, o.URI, o.AlignedAURI)
				}
			}
			for filter, want := range map[string]int{"&has_changes=true": len(ovs), "&has_changes=false": 0, "&drawing_id=" + f.old: len(ovs),
				"&drawing_id=" + f.new + "&project_id=" + f.project: len(ovs)} {
				if got := len(getList[overlayRec](t, s, key, q+filter).Data); got != want {
					t.Errorf("overlays%s: %d, want %d", filter, got, want)
				}
			}
			one := ovs[0]
			var got overlayFull
			s.Get(t, key, "/v1/overlays/"+one.ID+"?expand=block_a.sheet.drawing").ExpectStatus(t, http.StatusOK).JSON(t, &got)
			if got.ID != one.ID || got.BlockA == nil || got.BlockA.Sheet == nil || got.BlockA.Sheet.Drawing == nil {
				t.Errorf("GET overlay: %+v", got)
			}

			// the images: PNGs of B's size, this organization's only
			other := s.CreateKey(t, "other")
			for _, img := range blobs.OverlayImages {
				res := s.Get(t, key, "/v1/overlays/"+one.ID+"/"+img.Name).ExpectStatus(t, http.StatusOK)
				if ct := res.Header.Get("Content-Type"); ct != "image/png" {
					t.Errorf("%s: Content-Type %q", img.Name, ct)
				}
				cfg, err := png.DecodeConfig(bytes.NewReader(res.Body))
				if err != nil || cfg.Width <= 0 {
					t.Errorf("%s: not a PNG (%v)", img.Name, err)
				}
				s.Get(t, other, "/v1/overlays/"+one.ID+"/"+img.Name).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				// as Deep Zoom: the descriptor has the image's size; the full-size tile at the corner is the image's corner
				dzi := s.Get(t, key, "/v1/overlays/"+one.ID+"/"+img.Name+"/tiles.dzi").ExpectStatus(t, http.StatusOK)
				if !strings.Contains(string(dzi.Body), fmt.Sprintf(`Width="%d" Height="%d"`, cfg.Width, cfg.Height)) {
					t.Errorf("%s tiles.dzi: %s, want the image's %d × %d", img.Name, dzi.Body, cfg.Width, cfg.Height)
				}
				top := render.DZILevels(cfg.Width, cfg.Height) - 1
				tile := s.Get(t, key, fmt.Sprintf("/v1/overlays/%s/%s/tiles_files/%d/0_0.png", one.ID, img.Name, top)).ExpectStatus(t, http.StatusOK)
				timg, err := png.Decode(bytes.NewReader(tile.Body))
				full, ferr := png.Decode(bytes.NewReader(res.Body))
				switch {
				case err != nil || ferr != nil || timg.Bounds().Dx() != min(257, cfg.Width):
					t.Errorf("%s corner tile: %v %v", img.Name, err, ferr)
				case !sameColor(timg.At(100, 100), full.At(100, 100)):
					t.Errorf("%s corner tile at (100, 100) is not the image's pixel", img.Name)
				}
				s.Get(t, key, fmt.Sprintf("/v1/overlays/%s/%s/tiles_files/%d/999_0.png", one.ID, img.Name, top)).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				s.Get(t, other, "/v1/overlays/"+one.ID+"/"+img.Name+"/tiles.dzi").ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			}
			s.Get(t, other, "/v1/overlays/"+one.ID).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")

			// the reports
			md := s.Get(t, key, "/v1/jobs/"+id+"/report.md").ExpectStatus(t, http.StatusOK)
			if !strings.HasPrefix(md.Header.Get("Content-Type"), "text/markdown") || !strings.Contains(string(md.Body), rep.Pairs[0].New.Number) ||
				!strings.Contains(string(md.Body), one.ID) {
				t.Errorf("report.md (%s) does not name the sheet %q and overlay %s:\n%s", md.Header.Get("Content-Type"), rep.Pairs[0].New.Number, one.ID, md.Body)
			}
			for _, doc := range []string{"report.pdf", "markup.pdf"} {
				res := s.Get(t, key, "/v1/jobs/"+id+"/"+doc).ExpectStatus(t, http.StatusOK)
				if res.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(res.Body, []byte("%PDF-")) {
					t.Errorf("%s: %s, %.20q", doc, res.Header.Get("Content-Type"), res.Body)
				}
				if doc == "markup.pdf" && bytes.Equal(res.Body, f.newPDF) {
					t.Errorf("markup.pdf is the newer drawing unchanged, with %d changes to cloud", changes)
				}
			}
			kidID := kids[0].JobID
			s.Get(t, key, "/v1/jobs/"+kidID+"/report.md").ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			s.Get(t, other, "/v1/jobs/"+id+"/report.md").ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			running, err := s.App.Store.Client.Job.Create().SetType(jobs.TypeCompare).SetStatus(job.StatusStarted).SetProjectID(f.project).Save(ctx)
			if err != nil {
				t.Fatal(err)
			}
			s.Get(t, key, "/v1/jobs/"+running.ID+"/report.pdf").ExpectProblem(t, http.StatusConflict, "JOB_NOT_COMPLETED")

			// analysis run again on one overlay: the same changes, the same ids
			_, aid := startCompare(t, s, key, "/v1/overlays/"+one.ID+"/analyze", nil, nil)
			if araw := waitJobREST(t, s, key, aid); araw["status"] != "Completed" || araw["type"] != jobs.TypeChangesAnalyze {
				t.Errorf("analysis job: %v", araw)
			}
			var after overlayFull
			s.Get(t, key, "/v1/overlays/"+one.ID).ExpectStatus(t, http.StatusOK).JSON(t, &after)
			if after.Changes == nil || len(*after.Changes) != len(*one.Changes) {
				t.Fatalf("changes after a new analysis: %v, before %v", after.Changes, one.Changes)
			}
			for i, c := range *after.Changes {
				if b := (*one.Changes)[i]; c.ID != b.ID || c.Kind != b.Kind || c.Bounds != b.Bounds {
					t.Errorf("change %d: %+v, before %+v", i, c, b)
				}
			}

			t.Run("graphql", func(t *testing.T) { compareGraphQL(t, f) })

			// deleting drawing A deletes its overlays and their images
			okey := blobs.OverlayKey(f.org, one.ID) + blobs.OverlayCombined.Suffix
			s.Send(t, http.MethodDelete, key, "/v1/drawings/"+f.old, nil).ExpectStatus(t, http.StatusNoContent)
			if n := len(getList[overlayRec](t, s, key, q).Data); n != 0 {
				t.Errorf("%d overlays of the deleted drawing listed", n)
			}
			waitFor(t, time.Minute, "the deleted drawing's overlay images are removed", func() bool {
				ok, err := s.App.Blobs.Exists(ctx, okey)
				return err == nil && !ok
			})
		})
	}
}

func compareValidation(t *testing.T, f *compareFixture) {
	s, key := f.s, f.key
	ctx := tenant.WithOrg(context.Background(), f.org)
	db := s.App.Store.Client
	// a drawing still processing, and a drawing of another project
	busy, err := db.Drawing.Create().SetProjectID(f.project).SetName("busy").SetStatus(drawing.StatusProcessing).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := createProject(t, s, key, "Elsewhere").ID
	foreign, err := db.Drawing.Create().SetProjectID(elsewhere).SetName("foreign").SetStatus(drawing.StatusReady).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	missing := "drw_00000000000000000000000000"
	cases := []struct {
		name, path string
		body       any
		status     int
		code       string
		field      string
	}{
		{"same drawing twice", "/v1/drawings/" + f.new + "/compare", map[string]any{"compare_to": f.new}, 400, "VALIDATION_ERROR", "compare_to"},
		{"compare_to missing", "/v1/drawings/" + f.new + "/compare", map[string]any{}, 400, "VALIDATION_ERROR", "compare_to"},
		{"compare_to a sheet", "/v1/drawings/" + f.new + "/compare", map[string]any{"compare_to": f.oldSheet}, 400, "VALIDATION_ERROR", "compare_to"},
		{"unknown field", "/v1/drawings/" + f.new + "/compare", map[string]any{"compare_to": f.old, "with": "x"}, 400, "VALIDATION_ERROR", ""},
		{"path drawing missing", "/v1/drawings/" + missing + "/compare", map[string]any{"compare_to": f.old}, 404, "NOT_FOUND", ""},
		{"path names a sheet", "/v1/drawings/" + f.newSheet + "/compare", map[string]any{"compare_to": f.old}, 404, "NOT_FOUND", ""},
		{"older drawing missing", "/v1/drawings/" + f.new + "/compare", map[string]any{"compare_to": missing}, 404, "NOT_FOUND", ""},
		{"drawing processing", "/v1/drawings/" + f.new + "/compare", map[string]any{"compare_to": busy.ID}, 409, "DRAWING_NOT_READY", ""},
		{"another project", "/v1/drawings/" + f.new + "/compare", map[string]any{"compare_to": foreign.ID}, 400, "VALIDATION_ERROR", "compare_to"},
		{"unknown analysis", "/v1/drawings/" + f.new + "/compare", map[string]any{"compare_to": f.old, "analyze": []string{"summary"}}, 400, "VALIDATION_ERROR", "analyze"},
		{"tolerance out of range", "/v1/drawings/" + f.new + "/compare", map[string]any{"compare_to": f.old, "options": map[string]any{"tolerance_px": 0}}, 400, "VALIDATION_ERROR", "options.tolerance_px"},
		{"sheet against a drawing", "/v1/sheets/" + f.newSheet + "/compare", map[string]any{"compare_to": f.old}, 400, "VALIDATION_ERROR", "compare_to"},
		{"unknown type", "/v1/compare", map[string]any{"type": "Page", "old_id": f.old, "new_id": f.new}, 400, "VALIDATION_ERROR", "type"},
		{"old_id of another type", "/v1/compare", map[string]any{"type": "Block", "old_id": f.oldSheet, "new_id": f.newBlock[0].ID}, 400, "VALIDATION_ERROR", "old_id"},
		{"new_id missing", "/v1/compare", map[string]any{"type": "Drawing", "old_id": f.old}, 400, "VALIDATION_ERROR", "new_id"},
		{"same block twice", "/v1/compare", map[string]any{"type": "Block", "old_id": f.newBlock[0].ID, "new_id": f.newBlock[0].ID}, 400, "VALIDATION_ERROR", "old_id"},
		{"overlay missing", "/v1/overlays/ovl_00000000000000000000000000/analyze", nil, 404, "NOT_FOUND", ""},
	}
	for _, tc := range cases {
		pr := postJSON(t, s, key, tc.path, tc.body).ExpectProblem(t, tc.status, tc.code)
		if tc.field != "" && len(pr.Errors[tc.field]) == 0 {
			t.Errorf("%s: errors %v do not name %s", tc.name, pr.Errors, tc.field)
		}
	}
	// another organization's drawings do not exist for it
	other := s.CreateKey(t, "other")
	postJSON(t, s, other, "/v1/drawings/"+f.new+"/compare", map[string]any{"compare_to": f.old}).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
	// nothing was queued by any of them
	if n, err := db.Job.Query().Where(job.TypeEQ(jobs.TypeCompare)).Count(ctx); err != nil || n != 0 {
		t.Errorf("%d compare jobs after refused requests (%v)", n, err)
	}
}

func compareGraphQL(t *testing.T, f *compareFixture) {
	s, key := f.s, f.key
	const mutation = `mutation($in: CompareInput!) { compare(input: $in) { id type status targetType targetID } }`
	g := s.GraphQL(t, key, mutation, map[string]any{"in": map[string]any{"type": "Drawing", "oldID": f.new, "newID": f.new}})
	expectGraphQLError(t, g, "VALIDATION_ERROR", "old_id")
	// two blocks of different content (the plan of A against B's title block):
	// a completed overlay, overlays only
	var plan, tb string
	for _, b := range f.oldBlocks {
		if b.Type == "Plan" && plan == "" {
			plan = b.ID
		}
	}
	for _, b := range f.newBlock {
		if b.Type == "TitleBlock" {
			tb = b.ID
		}
	}
	if plan == "" || tb == "" {
		t.Fatalf("no plan in A (%q) or title block in B (%q)", plan, tb)
	}
	var started struct {
		Compare struct{ ID, Type, Status, TargetType, TargetID string }
	}
	s.GraphQL(t, key, mutation, map[string]any{"in": map[string]any{"type": "Block", "oldID": plan, "newID": tb, "analyze": []string{}}}).DataInto(t, &started)
	if started.Compare.Type != jobs.TypeCompare || started.Compare.TargetType != "block" || started.Compare.TargetID != tb {
		t.Errorf("compare mutation: %+v", started)
	}
	if raw := waitJobREST(t, s, key, started.Compare.ID); raw["status"] != "Completed" {
		t.Fatalf("block compare: %v", raw)
	}
	var out struct {
		Overlays struct {
			TotalCount int
			Edges      []struct {
				Node struct {
					ID, BlockAID, BlockBID, URI, AlignedAURI string
					Score                                    float64
					HasChanges, Registered                   bool
					Transform                                *struct{ Scale, RotationDeg, Tx, Ty, ResidualPx float64 }
					Changes                                  []struct{ ID string }
					Warnings                                 []string
					Job                                      struct{ ID string }
				}
			}
		}
	}
	s.GraphQL(t, key, `query($job: ID!) { overlays(where: {jobID: $job}) { totalCount edges { node {
		id blockAID blockBID uri alignedAURI score hasChanges registered transform { scale rotationDeg tx ty residualPx } changes { id } warnings job { id } } } } }`,
		map[string]any{"job": started.Compare.ID}).DataInto(t, &out)
	if out.Overlays.TotalCount != 1 || len(out.Overlays.Edges) != 1 {
		t.Fatalf("overlays of the block compare: %+v", out.Overlays)
	}
	n := out.Overlays.Edges[0].Node
	if n.BlockAID != plan || n.BlockBID != tb || n.Job.ID != started.Compare.ID || n.HasChanges || n.Changes != nil || n.Transform == nil ||
		n.URI != "/v1/overlays/"+n.ID+"/image" || n.Score >= 0.6 {
		t.Errorf("overlay of a plan against a title block (score under 0.6, not analyzed): %+v", n)
	}
	t.Logf("a plan against a title block: score %.3f, warnings %q", n.Score, n.Warnings)
	// analyzed afterwards through the mutation
	var an struct {
		AnalyzeOverlay struct{ ID, Type, TargetID string }
	}
	s.GraphQL(t, key, `mutation($id: ID!) { analyzeOverlay(id: $id, options: {ignoreText: true}) { id type targetID } }`,
		map[string]any{"id": n.ID}).DataInto(t, &an)
	if an.AnalyzeOverlay.Type != jobs.TypeChangesAnalyze || an.AnalyzeOverlay.TargetID != n.ID {
		t.Errorf("analyzeOverlay: %+v", an)
	}
	if raw := waitJobREST(t, s, key, an.AnalyzeOverlay.ID); raw["status"] != "Completed" {
		t.Errorf("analysis: %v", raw)
	}
	s.GraphQL(t, key, `query($job: ID!) { overlays(where: {jobID: $job, hasChanges: true}) { totalCount edges { node {
		id blockAID blockBID uri alignedAURI score hasChanges registered transform { scale rotationDeg tx ty residualPx } changes { id } warnings job { id } } } } }`,
		map[string]any{"job": started.Compare.ID}).DataInto(t, &out)
	if out.Overlays.TotalCount != 1 || !out.Overlays.Edges[0].Node.HasChanges || out.Overlays.Edges[0].Node.Changes == nil {
		t.Errorf("the analyzed overlay: %+v", out.Overlays)
	}
}

func sameColor(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	return ar == br && ag == bg && ab == bb
}
