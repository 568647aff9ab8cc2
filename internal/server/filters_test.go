package server_test

// Sheets, blocks, overlays and jobs through the real HTTPS server, on every
// profile: every filter and expansion of the specification, and sheet
// updates, against a fixture of one organization's rows inserted with the
// application's Ent client.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/internal/uploads"
	"github.com/plangraph/plangraph/vision/geom"
)

// mgmtFixture is one organization's seeded data. Every row has a name ("dA",
// "sA1", "o1", "jP"…); id and at give its id and created_at.
type mgmtFixture struct {
	org    string
	key    string
	p1, p2 string
	id     map[string]string
	at     map[string]time.Time
	name   map[string]string // id → name, for messages
}

// ids are the ids of names, newest first (the order of every list).
func (f *mgmtFixture) newest(names ...string) []string {
	ns := slices.Clone(names)
	slices.SortFunc(ns, func(a, b string) int { return f.at[b].Compare(f.at[a]) })
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = f.id[n]
	}
	return out
}

// names turns ids back into fixture names for readable failures.
func (f *mgmtFixture) names(idList []string) []string {
	out := make([]string, len(idList))
	for i, id := range idList {
		if n, ok := f.name[id]; ok {
			out[i] = n
		} else {
			out[i] = id
		}
	}
	return out
}

var fixturePlaceholder = regexp.MustCompile(`\{(@?)([A-Za-z0-9]+)\}`)

// q expands {name} into the row's id and {@name} into its created_at.
func (f *mgmtFixture) q(s string) string {
	return fixturePlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		sub := fixturePlaceholder.FindStringSubmatch(m)
		if sub[1] == "@" {
			at, ok := f.at[sub[2]]
			if !ok {
				panic("the fixture has no row " + sub[2])
			}
			return url.QueryEscape(at.Format(time.RFC3339Nano))
		}
		if sub[2] == "p1" {
			return f.p1
		}
		if sub[2] == "p2" {
			return f.p2
		}
		id, ok := f.id[sub[2]]
		if !ok {
			panic("the fixture has no row " + sub[2])
		}
		return id
	})
}

// seed creates, for the organization of rec (whose key is key), two
// projects and in them:
//
//	files     fA, fB (ready PDFs)
//	drawings  dA (p1, file fA), dB (p1, file fB), dC (p2, no file)
//	sheets    sA1 A-101 architectural, sA2 S-201 structural, sA3 M-301 mechanical (dA);
//	          sB1 A-101 architectural, sB2 S-201 structural (dB); sC1 A-101 architectural (dC)
//	blocks    bA1 Plan, bA2 Legend (sA1); bA3 Detail (sA2); bB1 Plan, bB2 Schedule (sB1);
//	          bB3 Detail (sB2); bC1 Plan (sC1)
//	jobs      jP compare Completed → drawing dB; its children jC1 overlay.generate Completed → bB1,
//	          jC2 overlay.generate Failed → bB3, jC3 vision.legend.parse Started → bA2;
//	          jQ parse Queued → sheet sA1; jX parse Canceled → drawing dC (p2);
//	          jO analyze_changes Queued → overlay o1
//	overlays  o1 bA1/bB1 changes, job jC1; o2 bA3/bB3 no changes, job jC1;
//	          o3 bB2/bB1 changes, job jC2; o4 bC1/bA2 (p2) no changes, no job
//
// Rows are created one second apart, in the order above, an hour ago.
func seedManagement(t *testing.T, s *testenv.Server, key string, rec *ent.APIKey) *mgmtFixture {
	t.Helper()
	f := &mgmtFixture{org: rec.OrgID, key: key, id: map[string]string{}, at: map[string]time.Time{}, name: map[string]string{}}
	f.p1 = createProject(t, s, key, "Tower").ID
	f.p2 = createProject(t, s, key, "Annex").ID
	ctx := tenant.WithOrg(context.Background(), rec.OrgID)
	db := s.App.Store.Client
	clock := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	next := func(n string) time.Time {
		clock = clock.Add(time.Second)
		f.at[n] = clock
		return clock
	}
	// saved fails the test when row n was not saved; keep records its id
	saved := func(n string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seed %s: %v", n, err)
		}
	}
	keep := func(n, id string) { f.id[n], f.name[id] = id, n }
	proj := func(p string) string {
		if p == "p2" {
			return f.p2
		}
		return f.p1
	}
	mkFile := func(n, p string) {
		id := ids.New(ids.File)
		at := next(n)
		x, err := db.File.Create().SetID(id).SetCreatedAt(at).SetProjectID(proj(p)).SetFilename(n + ".pdf").
			SetContentType("application/pdf").SetSize(int64(len(minimalPDF))).SetSha256(sha256Hex(minimalPDF)).
			SetStatus(file.StatusReady).SetConfirmedAt(at).SetStorageKey(uploads.StorageKey(rec.OrgID, id)).Save(ctx)
		saved(n, err)
		keep(n, x.ID)
	}
	mkDrawing := func(n, p, name, fileName string) {
		c := db.Drawing.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetName(name).
			SetStatus(drawing.StatusReady).SetPageCount(3)
		if fileName != "" {
			c.SetFileID(f.id[fileName])
		}
		x, err := c.Save(ctx)
		saved(n, err)
		keep(n, x.ID)
	}
	mkSheet := func(n, p, d string, page int, number, title, discipline string) {
		x, err := db.Sheet.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetDrawingID(f.id[d]).
			SetPageNumber(page).SetSheetNumber(number).SetSheetNumberNorm(sheetmeta.Normalize(number)).
			SetTitle(title).SetDiscipline(discipline).SetWidth(3300).SetHeight(2550).SetURI("sheets/" + n + ".png").Save(ctx)
		saved(n, err)
		keep(n, x.ID)
	}
	mkBlock := func(n, p, sheet, typ string) {
		x, err := db.Block.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetSheetID(f.id[sheet]).
			SetType(block.Type(typ)).SetTitle(typ + " " + n).SetDescription("block " + n).
			SetBounds(geom.Box{XMin: 10, YMin: 20, XMax: 1010, YMax: 820}).SetURI("blocks/" + n + ".png").Save(ctx)
		saved(n, err)
		keep(n, x.ID)
	}
	mkJob := func(n, p, typ, status, targetType, target, parent string) {
		c := db.Job.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetType(typ).SetStatus(job.Status(status)).
			SetTargetType(job.TargetType(targetType)).SetTargetID(f.id[target])
		if parent != "" {
			c.SetParentID(f.id[parent])
		}
		x, err := c.Save(ctx)
		saved(n, err)
		keep(n, x.ID)
	}
	mkOverlay := func(n, p, a, b string, changes bool, jobName string) {
		c := db.Overlay.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetBlockAID(f.id[a]).SetBlockBID(f.id[b]).
			SetHasChanges(changes).SetScore(0.75).SetURI("overlays/" + n + ".png")
		if jobName != "" {
			c.SetJobID(f.id[jobName])
		}
		x, err := c.Save(ctx)
		saved(n, err)
		keep(n, x.ID)
	}

	mkFile("fA", "p1")
	mkFile("fB", "p1")
	mkDrawing("dA", "p1", "Tower Rev A", "fA")
	mkDrawing("dB", "p1", "Tower Rev B", "fB")
	mkDrawing("dC", "p2", "Annex Site", "")
	mkSheet("sA1", "p1", "dA", 1, "A-101", "First Floor Plan", "architectural")
	mkSheet("sA2", "p1", "dA", 2, "S-201", "Foundation Plan", "structural")
	mkSheet("sA3", "p1", "dA", 3, "M-301", "HVAC Plan", "mechanical")
	mkSheet("sB1", "p1", "dB", 1, "A-101", "First Floor Plan", "architectural")
	mkSheet("sB2", "p1", "dB", 2, "S-201", "Foundation Plan", "structural")
	mkSheet("sC1", "p2", "dC", 1, "A-101", "Site Plan", "architectural")
	mkBlock("bA1", "p1", "sA1", "Plan")
	mkBlock("bA2", "p1", "sA1", "Legend")
	mkBlock("bA3", "p1", "sA2", "Detail")
	mkBlock("bB1", "p1", "sB1", "Plan")
	mkBlock("bB2", "p1", "sB1", "Schedule")
	mkBlock("bB3", "p1", "sB2", "Detail")
	mkBlock("bC1", "p2", "sC1", "Plan")
	mkJob("jP", "p1", "compare", "Completed", "drawing", "dB", "")
	mkJob("jC1", "p1", "overlay.generate", "Completed", "block", "bB1", "jP")
	mkJob("jC2", "p1", "overlay.generate", "Failed", "block", "bB3", "jP")
	mkJob("jC3", "p1", "vision.legend.parse", "Started", "block", "bA2", "jP")
	mkJob("jQ", "p1", "parse", "Queued", "sheet", "sA1", "")
	mkJob("jX", "p2", "parse", "Canceled", "drawing", "dC", "")
	mkOverlay("o1", "p1", "bA1", "bB1", true, "jC1")
	mkOverlay("o2", "p1", "bA3", "bB3", false, "jC1")
	mkOverlay("o3", "p1", "bB2", "bB1", true, "jC2")
	mkOverlay("o4", "p2", "bC1", "bA2", false, "")
	mkJob("jO", "p1", "analyze_changes", "Queued", "overlay", "o1", "")
	return f
}

// startSeeded starts a server on p (startUnlimited) and seeds the
// organization "acme" (seedManagement); f.key is its key.
func startSeeded(t *testing.T, p testenv.Profile) (*testenv.Server, *mgmtFixture) {
	t.Helper()
	s := startUnlimited(t, p)
	key, rec := s.CreateKeyRecord(t, "acme")
	return s, seedManagement(t, s, key, rec)
}

// ---------------------------------------------------------------------------
// filters and expansions

// expectExpanded checks that the dotted path is expanded in item: at each
// level the relation's object sits beside its _id field, which stays, and
// carries that id (null _id: no object).
func expectExpanded(t *testing.T, what string, item map[string]any, path string) {
	t.Helper()
	cur := item
	for _, rel := range strings.Split(path, ".") {
		idv, has := cur[rel+"_id"]
		if !has {
			t.Errorf("%s: %s_id is missing beside the expansion %s: %v", what, rel, path, cur)
			return
		}
		sub, present := cur[rel]
		if idv == nil {
			if present && sub != nil {
				t.Errorf("%s: %s_id is null but %s is %v", what, rel, rel, sub)
			}
			return
		}
		m, ok := sub.(map[string]any)
		if !ok {
			t.Errorf("%s: %s (%s) is not expanded: %v", what, rel, path, sub)
			return
		}
		idKey := "id"
		if rel == "job" || rel == "parent" {
			idKey = "job_id"
		}
		if m[idKey] != idv {
			t.Errorf("%s: expanded %s has %s %v, want %v", what, rel, idKey, m[idKey], idv)
		}
		cur = m
	}
}

// expectNotExpanded checks that the last relation of path is absent where
// its parent is present.
func expectNotExpanded(t *testing.T, what string, item map[string]any, path string) {
	t.Helper()
	segs := strings.Split(path, ".")
	cur := item
	for _, rel := range segs[:len(segs)-1] {
		m, ok := cur[rel].(map[string]any)
		if !ok {
			return // the parent is not there either
		}
		cur = m
	}
	if v, ok := cur[segs[len(segs)-1]]; ok {
		t.Errorf("%s: %s was not asked for but is %v", what, path, v)
	}
}

func TestManagementFiltersAndExpansion(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, f := startSeeded(t, p)
			key := f.key

			type filterCase struct {
				query string // {name} → id, {@name} → created_at
				want  []string
			}
			run := func(t *testing.T, list string, get func(path string) []string, cases []filterCase) {
				for _, tc := range cases {
					q := f.q(tc.query)
					t.Run(tc.query, func(t *testing.T) {
						got := get("/v1/" + list + "?" + q)
						if want := f.newest(tc.want...); !slices.Equal(got, want) {
							t.Errorf("GET /v1/%s?%s gave\n%v\nwant (newest first)\n%v", list, tc.query, f.names(got), tc.want)
						}
					})
				}
			}
			t.Run("sheets", func(t *testing.T) {
				run(t, "sheets", func(path string) []string { return idsOf(getList[sheetRec](t, s, key, path).Data) }, []filterCase{
					{"", []string{"sA1", "sA2", "sA3", "sB1", "sB2", "sC1"}},
					{"drawing_id={dA}", []string{"sA1", "sA2", "sA3"}},
					{"drawing_id={dB}", []string{"sB1", "sB2"}},
					{"drawing_id=drw_00000000000000000000000000", nil},
					{"project_id={p1}", []string{"sA1", "sA2", "sA3", "sB1", "sB2"}},
					{"project_id={p2}", []string{"sC1"}},
					{"discipline=architectural", []string{"sA1", "sB1", "sC1"}},
					{"discipline=structural", []string{"sA2", "sB2"}},
					{"discipline=electrical", nil},
					{"sheet_number=A-101", []string{"sA1", "sB1", "sC1"}},
					{"sheet_number=S-201", []string{"sA2", "sB2"}},
					{"sheet_number=A101", nil},
					{"sheet_number=A-10", nil},
					{"sheet_number=a-101", nil},
					{"sheet_number=S-201&drawing_id={dB}", []string{"sB2"}},
					{"discipline=architectural&project_id={p1}", []string{"sA1", "sB1"}},
					{"discipline=mechanical&project_id={p2}", nil},
					{"created_after={@sA3}", []string{"sB1", "sB2", "sC1"}},
					{"created_before={@sB1}", []string{"sA1", "sA2", "sA3"}},
					{"created_after={@sA1}&created_before={@sB2}", []string{"sA2", "sA3", "sB1"}},
					{"created_after={@sA1}&drawing_id={dA}", []string{"sA2", "sA3"}},
				})
			})
			t.Run("blocks", func(t *testing.T) {
				run(t, "blocks", func(path string) []string { return idsOf(getList[blockRec](t, s, key, path).Data) }, []filterCase{
					{"", []string{"bA1", "bA2", "bA3", "bB1", "bB2", "bB3", "bC1"}},
					{"sheet_id={sA1}", []string{"bA1", "bA2"}},
					{"sheet_id={sB1}", []string{"bB1", "bB2"}},
					{"sheet_id={sA3}", nil},
					{"type=Plan", []string{"bA1", "bB1", "bC1"}},
					{"type=Detail", []string{"bA3", "bB3"}},
					{"type=Legend", []string{"bA2"}},
					{"type=Schedule", []string{"bB2"}},
					{"type=Elevation", nil},
					{"type=Plan&sheet_id={sB1}", []string{"bB1"}},
					{"created_after={@bB2}", []string{"bB3", "bC1"}},
					{"created_before={@bA3}&type=Plan", []string{"bA1"}},
				})
				b := getList[blockRec](t, s, key, "/v1/blocks?sheet_id="+f.id["sA2"]).Data
				if len(b) != 1 || b[0].Bounds != (geom.Box{XMin: 10, YMin: 20, XMax: 1010, YMax: 820}) || b[0].Type != "Detail" || b[0].SheetID != f.id["sA2"] {
					t.Errorf("block representation: %+v", b)
				}
			})
			t.Run("overlays", func(t *testing.T) {
				run(t, "overlays", func(path string) []string { return idsOf(getList[overlayRec](t, s, key, path).Data) }, []filterCase{
					{"", []string{"o1", "o2", "o3", "o4"}},
					{"project_id={p1}", []string{"o1", "o2", "o3"}},
					{"project_id={p2}", []string{"o4"}},
					{"job_id={jC1}", []string{"o1", "o2"}},
					{"job_id={jC2}", []string{"o3"}},
					{"job_id={jP}", nil},
					{"drawing_id={dA}", []string{"o1", "o2", "o4"}},
					{"drawing_id={dB}", []string{"o1", "o2", "o3"}},
					{"drawing_id={dC}", []string{"o4"}},
					{"has_changes=true", []string{"o1", "o3"}},
					{"has_changes=false", []string{"o2", "o4"}},
					{"drawing_id={dA}&has_changes=false", []string{"o2", "o4"}},
					{"drawing_id={dB}&job_id={jC1}&has_changes=true", []string{"o1"}},
					{"created_after={@o2}", []string{"o3", "o4"}},
					{"created_before={@o3}&project_id={p1}", []string{"o1", "o2"}},
				})
				o := getList[overlayRec](t, s, key, "/v1/overlays?job_id="+f.id["jC2"]).Data
				if len(o) != 1 || o[0].BlockAID != f.id["bB2"] || o[0].BlockBID != f.id["bB1"] || !o[0].HasChanges || o[0].JobID == nil || *o[0].JobID != f.id["jC2"] {
					t.Errorf("overlay representation: %+v", o)
				}
			})
			t.Run("jobs", func(t *testing.T) {
				run(t, "jobs", func(path string) []string { return idsOf(getList[jobRec](t, s, key, path).Data) }, []filterCase{
					{"", []string{"jP", "jC1", "jC2", "jC3", "jQ", "jX", "jO"}},
					{"project_id={p1}", []string{"jP", "jC1", "jC2", "jC3", "jQ", "jO"}},
					{"project_id={p2}", []string{"jX"}},
					{"status=Completed", []string{"jP", "jC1"}},
					{"status=Failed", []string{"jC2"}},
					{"status=Started", []string{"jC3"}},
					{"status=Queued", []string{"jQ", "jO"}},
					{"status=Canceled", []string{"jX"}},
					{"type=overlay.generate", []string{"jC1", "jC2"}},
					{"type=parse", []string{"jQ", "jX"}},
					{"type=compare", []string{"jP"}},
					{"type=vision.legend.parse", []string{"jC3"}},
					{"target_type=block", []string{"jC1", "jC2", "jC3"}},
					{"target_type=drawing", []string{"jP", "jX"}},
					{"target_type=sheet", []string{"jQ"}},
					{"target_type=overlay", []string{"jO"}},
					{"target_id={bB1}", []string{"jC1"}},
					{"target_id={o1}", []string{"jO"}},
					{"target_type=drawing&target_id={dC}", []string{"jX"}},
					{"parent_id={jP}", []string{"jC1", "jC2", "jC3"}},
					{"parent_id={jC1}", nil},
					{"parent_id={jP}&status=Completed", []string{"jC1"}},
					{"project_id={p1}&type=parse&status=Queued", []string{"jQ"}},
					{"created_after={@jC1}&created_before={@jQ}", []string{"jC2", "jC3"}},
					{"created_before={@jP}", nil},
					{"created_after={@jX}", []string{"jO"}},
				})
				var j jobRec
				s.Get(t, key, "/v1/jobs/"+f.id["jC2"]).ExpectStatus(t, http.StatusOK).JSON(t, &j)
				if j.Type != "overlay.generate" || j.Status != "Failed" || j.Target == nil || *j.Target != (jobTarget{"block", f.id["bB3"]}) ||
					j.ParentID == nil || *j.ParentID != f.id["jP"] || !j.CreatedAt.Equal(f.at["jC2"]) {
					t.Errorf("job representation: %+v", j)
				}
			})

			t.Run("invalid filters", func(t *testing.T) {
				cases := []struct{ path, field string }{
					{"/v1/blocks?type=Window", "type"},
					{"/v1/blocks?type=plan", "type"},
					{"/v1/overlays?has_changes=maybe", "has_changes"},
					{"/v1/overlays?has_changes=1", "has_changes"},
					{"/v1/jobs?status=Done", "status"},
					{"/v1/jobs?status=PENDING", "status"},
					{"/v1/jobs?target_type=room", "target_type"},
					{"/v1/sheets?created_after=yesterday", "created_after"},
					{"/v1/overlays?created_before=2026-13-45", "created_before"},
					{"/v1/sheets?colour=red", "colour"},
					{"/v1/blocks?drawing_id=" + f.id["dA"], "drawing_id"},
					{"/v1/sheets?limit=0", "limit"},
				}
				for _, tc := range cases {
					t.Run(tc.path, func(t *testing.T) {
						expectNamed(t, s.Get(t, key, tc.path).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR"), tc.field)
					})
				}
			})

			t.Run("expand", func(t *testing.T) {
				all := []string{"block_a", "block_b", "job", "block_a.sheet", "block_b.sheet", "block_a.sheet.drawing", "block_b.sheet.drawing"}
				cases := []struct {
					list   string   // list path (with required filters)
					single []string // fixture names to GET one by one
					expand string
					want   []string
					absent []string
				}{
					{"/v1/overlays?", []string{"o1", "o4"}, "", nil, []string{"block_a", "block_b", "job"}},
					{"/v1/overlays?", []string{"o1", "o4"}, "block_a", []string{"block_a"}, []string{"block_b", "job", "block_a.sheet"}},
					{"/v1/overlays?", []string{"o1"}, "block_b", []string{"block_b"}, []string{"block_a", "job", "block_b.sheet"}},
					{"/v1/overlays?", []string{"o1", "o4"}, "job", []string{"job"}, []string{"block_a", "block_b", "job.parent"}},
					{"/v1/overlays?", []string{"o1"}, "block_a.sheet", []string{"block_a.sheet"}, []string{"block_b", "job", "block_a.sheet.drawing"}},
					{"/v1/overlays?", []string{"o3"}, "block_b.sheet", []string{"block_b.sheet"}, []string{"block_a", "job", "block_b.sheet.drawing"}},
					{"/v1/overlays?", []string{"o1"}, "block_a.sheet.drawing", []string{"block_a.sheet.drawing"}, []string{"block_b", "job", "block_a.sheet.drawing.file"}},
					{"/v1/overlays?", []string{"o4"}, "block_b.sheet.drawing", []string{"block_b.sheet.drawing"}, []string{"block_a", "job"}},
					{"/v1/overlays?", []string{"o1"}, "block_a.sheet.drawing,block_b.sheet,job", []string{"block_a.sheet.drawing", "block_b.sheet", "job"}, []string{"block_b.sheet.drawing"}},
					{"/v1/overlays?", []string{"o2"}, "block_b.sheet.drawing,block_a", []string{"block_b.sheet.drawing", "block_a"}, []string{"block_a.sheet", "job"}},
					{"/v1/overlays?", []string{"o1", "o2", "o3", "o4"}, strings.Join(all, ","), all, nil},
					{"/v1/sheets?", []string{"sA1", "sC1"}, "", nil, []string{"drawing"}},
					{"/v1/sheets?", []string{"sA1", "sC1"}, "drawing", []string{"drawing"}, []string{"drawing.file"}},
					{"/v1/blocks?", []string{"bA1"}, "", nil, []string{"sheet"}},
					{"/v1/blocks?", []string{"bA1", "bC1"}, "sheet", []string{"sheet"}, []string{"sheet.drawing"}},
					{"/v1/blocks?", []string{"bA1", "bC1"}, "sheet.drawing", []string{"sheet.drawing"}, []string{"sheet.drawing.file"}},
					{"/v1/drawings?project_id={p1}&", []string{"dA"}, "file", []string{"file"}, nil},
					{"/v1/drawings?project_id={p2}&", []string{"dC"}, "file", []string{"file"}, nil},
					{"/v1/drawings?project_id={p1}&", []string{"dB"}, "", nil, []string{"file"}},
					{"/v1/jobs?", []string{"jP", "jC1"}, "parent", []string{"parent"}, []string{"parent.parent"}},
					{"/v1/jobs?", []string{"jC1"}, "", nil, []string{"parent"}},
				}
				for _, tc := range cases {
					list := f.q(tc.list)
					resource := strings.TrimPrefix(list[:strings.Index(list, "?")], "/v1/")
					t.Run(resource+" expand="+tc.expand, func(t *testing.T) {
						q := ""
						if tc.expand != "" {
							q = "expand=" + url.QueryEscape(tc.expand)
						}
						items := rawItems(t, s, key, list+q)
						if len(items) == 0 {
							t.Fatalf("%s%s is empty", list, q)
						}
						check := func(what string, it map[string]any) {
							for _, w := range tc.want {
								expectExpanded(t, what, it, w)
							}
							for _, a := range tc.absent {
								expectNotExpanded(t, what, it, a)
							}
						}
						for _, it := range items {
							check(fmt.Sprintf("%s %v", resource, f.name[fmt.Sprint(it["id"])]), it)
						}
						for _, n := range tc.single {
							path := "/v1/" + resource + "/" + f.id[n]
							if q != "" {
								path += "?" + q
							}
							check("GET "+n, s.Get(t, key, path).ExpectStatus(t, http.StatusOK).Object(t))
						}
					})
				}

				// the expanded objects are the records' own representations
				o1 := s.Get(t, key, "/v1/overlays/"+f.id["o1"]+"?expand="+url.QueryEscape(strings.Join(all, ","))).ExpectStatus(t, http.StatusOK).Object(t)
				ba, _ := o1["block_a"].(map[string]any)
				sh, _ := ba["sheet"].(map[string]any)
				dr, _ := sh["drawing"].(map[string]any)
				jb, _ := o1["job"].(map[string]any)
				if ba["type"] != "Plan" || sh["sheet_number"] != "A-101" || dr["name"] != "Tower Rev A" || jb["status"] != "Completed" || jb["type"] != "overlay.generate" {
					t.Errorf("expanded o1: block_a %v sheet %v drawing %v job %v", ba, sh, dr, jb)
				}
				if bb, _ := o1["block_b"].(map[string]any); bb["sheet"].(map[string]any)["drawing"].(map[string]any)["name"] != "Tower Rev B" {
					t.Errorf("expanded o1 block_b: %v", bb)
				}
				jc := s.Get(t, key, "/v1/jobs/"+f.id["jC3"]+"?expand=parent").ExpectStatus(t, http.StatusOK).Object(t)
				if par, _ := jc["parent"].(map[string]any); par["type"] != "compare" || par["status"] != "Completed" {
					t.Errorf("expanded parent of jC3: %v", jc["parent"])
				}
			})

			t.Run("invalid expand", func(t *testing.T) {
				cases := []struct {
					path    string
					allowed []string // names the message must list; nil for the depth limit
				}{
					{"/v1/overlays?expand=block_a.sheet.drawing.file", nil},
					{"/v1/overlays/" + f.id["o1"] + "?expand=block_b.sheet.drawing.file", nil},
					{"/v1/blocks?expand=sheet.drawing.file.project", nil},
					{"/v1/overlays?expand=project", []string{"block_a", "block_b", "job", "block_a.sheet", "block_b.sheet", "block_a.sheet.drawing", "block_b.sheet.drawing"}},
					{"/v1/overlays/" + f.id["o1"] + "?expand=block_a,blocks", []string{"block_a", "block_b", "job"}},
					{"/v1/overlays?expand=block_a.drawing", []string{"block_a.sheet"}},
					{"/v1/sheets?expand=blocks", []string{"drawing"}},
					{"/v1/sheets/" + f.id["sA1"] + "?expand=drawing.file", []string{"drawing"}},
					{"/v1/blocks?expand=features", []string{"sheet", "sheet.drawing"}},
					{"/v1/blocks/" + f.id["bA1"] + "?expand=sheet.blocks", []string{"sheet", "sheet.drawing"}},
					{"/v1/drawings?project_id=" + f.p1 + "&expand=sheets", []string{"file"}},
					{"/v1/jobs?expand=children", []string{"parent"}},
					{"/v1/jobs/" + f.id["jC1"] + "?expand=project", []string{"parent"}},
				}
				for _, tc := range cases {
					t.Run(tc.path, func(t *testing.T) {
						pr := s.Get(t, key, tc.path).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
						msgs := strings.Join(pr.Errors["expand"], " ")
						if msgs == "" {
							t.Fatalf("errors %v do not name expand", pr.Errors)
						}
						if tc.allowed == nil && !strings.Contains(msgs, "3") {
							t.Errorf("depth error %q does not state the limit of 3 levels", msgs)
						}
						for _, a := range tc.allowed {
							if !strings.Contains(msgs, a) || !strings.Contains(pr.Detail, a) {
								t.Errorf("message %q / detail %q does not list the allowed %s", msgs, pr.Detail, a)
							}
						}
					})
				}
			})

			t.Run("patch sheet", func(t *testing.T) {
				id := f.id["sA3"]
				var got sheetRec
				s.Send(t, http.MethodPatch, key, "/v1/sheets/"+id, map[string]any{"sheet_number": "P-401", "title": " Plumbing Plan ", "discipline": "plumbing"}).
					ExpectStatus(t, http.StatusOK).JSON(t, &got)
				if got.ID != id || got.SheetNumber != "P-401" || got.Title != "Plumbing Plan" || got.Discipline != "plumbing" || got.DrawingID != f.id["dA"] || !got.CreatedAt.Equal(f.at["sA3"]) {
					t.Errorf("PATCH gave %+v", got)
				}
				s.Send(t, http.MethodPatch, key, "/v1/sheets/"+id, map[string]any{"title": "Plumbing Plan L1"}).ExpectStatus(t, http.StatusOK).JSON(t, &got)
				if got.SheetNumber != "P-401" || got.Title != "Plumbing Plan L1" || got.Discipline != "plumbing" {
					t.Errorf("a partial PATCH changed other fields: %+v", got)
				}
				for _, tc := range []struct {
					body  map[string]any
					field string
				}{
					{map[string]any{"discipline": "wizardry"}, "discipline"},
					{map[string]any{"sheet_number": "X-1", "discipline": "Plumbing"}, "discipline"},
					{map[string]any{"sheet_number": strings.Repeat("9", 33)}, "sheet_number"},
					{map[string]any{"sheet_number": 401}, "sheet_number"},
					{map[string]any{"drawing_id": f.id["dB"]}, "drawing_id"},
				} {
					pr := s.Send(t, http.MethodPatch, key, "/v1/sheets/"+id, tc.body).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
					if len(pr.Errors[tc.field]) == 0 {
						t.Errorf("PATCH %v: errors %v do not name %s", tc.body, pr.Errors, tc.field)
					}
				}
				s.Get(t, key, "/v1/sheets/"+id).ExpectStatus(t, http.StatusOK).JSON(t, &got)
				if got.SheetNumber != "P-401" || got.Discipline != "plumbing" {
					t.Errorf("a refused PATCH changed the sheet: %+v", got)
				}
				if l := idsOf(getList[sheetRec](t, s, key, "/v1/sheets?sheet_number=P-401").Data); !slices.Equal(l, []string{id}) {
					t.Errorf("sheet_number=P-401 gave %v", f.names(l))
				}
				if l := idsOf(getList[sheetRec](t, s, key, "/v1/sheets?discipline=plumbing&drawing_id="+f.id["dA"]).Data); !slices.Equal(l, []string{id}) {
					t.Errorf("discipline=plumbing gave %v", f.names(l))
				}
				if l := getList[sheetRec](t, s, key, "/v1/sheets?sheet_number=M-301").Data; len(l) != 0 {
					t.Errorf("the old sheet number still matches: %v", idsOf(l))
				}
				s.Send(t, http.MethodPatch, key, "/v1/sheets/sht_00000000000000000000000000", map[string]any{"title": "x"}).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			})
		})
	}
}
