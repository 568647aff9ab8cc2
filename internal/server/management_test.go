package server_test

// Management interface through the real HTTPS server, on every profile:
// the resources' representations and the requests every management test
// uses, and what holds across the resources: organization isolation,
// idempotency and rate limits. The resources' own tests are in
// files_test.go (files and drawings), filters_test.go (sheets, blocks,
// overlays and jobs, and the fixture), jobs_test.go (pagination) and
// graphql_test.go (GraphQL parity).

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/vision/geom"
)

// ---------------------------------------------------------------------------
// test data and representations

// minimalPDF is a minimal PDF: enough for any reader's header sniffing.
var minimalPDF = []byte("%PDF-1.4\n" +
	"1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n" +
	"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
	"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n" +
	"trailer<</Root 1 0 R>>\n%%EOF\n")

// minimalPNG starts like a PNG image.
var minimalPNG = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 17)...)

// idRec is the id of every record but a job's.
type idRec struct {
	ID string `json:"id"`
}

func (r idRec) ident() string { return r.ID }

type fileRec struct {
	idRec
	ProjectID   string     `json:"project_id"`
	Filename    string     `json:"filename"`
	ContentType string     `json:"content_type"`
	Size        int64      `json:"size"`
	SHA256      *string    `json:"sha256"`
	Status      string     `json:"status"`
	CreatedAt   time.Time  `json:"created_at"`
	ConfirmedAt *time.Time `json:"confirmed_at"`
	DownloadURL *string    `json:"download_url"`
}

type uploadRec struct {
	ID        string            `json:"id"`
	UploadURL string            `json:"upload_url"`
	Method    string            `json:"method"`
	Headers   map[string]string `json:"headers"`
	ExpiresAt time.Time         `json:"expires_at"`
}

type drawingRec struct {
	idRec
	ProjectID string    `json:"project_id"`
	FileID    *string   `json:"file_id"`
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
}

type sheetRec struct {
	idRec
	DrawingID   string    `json:"drawing_id"`
	ProjectID   string    `json:"project_id"`
	SheetNumber string    `json:"sheet_number"`
	Title       string    `json:"title"`
	Discipline  string    `json:"discipline"`
	CreatedAt   time.Time `json:"created_at"`
}

type blockRec struct {
	idRec
	SheetID string   `json:"sheet_id"`
	Type    string   `json:"type"`
	Bounds  geom.Box `json:"bounds"`
}

type overlayRec struct {
	idRec
	BlockAID   string  `json:"block_a_id"`
	BlockBID   string  `json:"block_b_id"`
	JobID      *string `json:"job_id"`
	HasChanges bool    `json:"has_changes"`
}

type jobTarget struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

type jobRec struct {
	JobID     string     `json:"job_id"`
	Type      string     `json:"type"`
	Status    string     `json:"status"`
	Target    *jobTarget `json:"target"`
	ProjectID *string    `json:"project_id"`
	ParentID  *string    `json:"parent_id"`
	CreatedAt time.Time  `json:"created_at"`
}

func (j jobRec) ident() string { return j.JobID }

type identified interface{ ident() string }

func idsOf[T identified](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.ident()
	}
	return out
}

// listing is the list envelope of any resource.
type listing[T any] struct {
	Data []T `json:"data"`
	Meta struct {
		Next  *string `json:"next"`
		Prev  *string `json:"prev"`
		Limit int     `json:"limit"`
	} `json:"_meta"`
}

// getList GETs a list, checks the envelope (exactly data and
// _meta{next, prev, limit}) and decodes it.
func getList[T any](t *testing.T, s *testenv.Server, key, path string) listing[T] {
	t.Helper()
	res := s.Get(t, key, path).ExpectStatus(t, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("GET %s: Content-Type %q, want application/json", path, ct)
	}
	raw := res.Object(t)
	if _, ok := raw["data"].([]any); !ok {
		t.Fatalf("GET %s: no data array: %s", path, res.Body)
	}
	meta, ok := raw["_meta"].(map[string]any)
	if !ok || len(raw) != 2 || len(meta) != 3 {
		t.Errorf("GET %s: envelope is not {data, _meta{next, prev, limit}}: %s", path, res.Body)
	}
	var l listing[T]
	res.JSON(t, &l)
	return l
}

// rawItems GETs a list and returns its items as JSON objects.
func rawItems(t *testing.T, s *testenv.Server, key, path string) []map[string]any {
	t.Helper()
	return getList[map[string]any](t, s, key, path).Data
}

// startServer starts a server on p whose rate limits are far above what a
// test sends (the rate limit test sets its own).
func startUnlimited(t *testing.T, p testenv.Profile) *testenv.Server {
	t.Helper()
	cfg := p.Config
	cfg.RateManagement, cfg.BurstManagement = 100000, 100000
	s := testenv.StartServer(t, cfg)
	// testenv.StartServer learns the port after server.Open and updates
	// App.Cfg.PublicURL, but the upload service copied the URL (with port
	// 0) at Open: point signed URLs at the listening port.
	s.App.Uploads.PublicURL = s.URL
	return s
}

func postJSON(t *testing.T, s *testenv.Server, key, path string, body any) *testenv.Response {
	t.Helper()
	return s.Send(t, http.MethodPost, key, path, body)
}

// startWithProjects starts a server on p (startUnlimited) and makes a key
// of the organization "acme" and two projects of it, named first and
// second.
func startWithProjects(t *testing.T, p testenv.Profile, first, second string) (s *testenv.Server, key, prj, other string) {
	t.Helper()
	s = startUnlimited(t, p)
	key = s.CreateKey(t, "acme")
	prj = createProject(t, s, key, first).ID
	other = createProject(t, s, key, second).ID
	return s, key, prj, other
}

// expectNamed checks that the problem's errors name each of fields.
func expectNamed(t *testing.T, pr testenv.Problem, fields ...string) {
	t.Helper()
	for _, f := range fields {
		if len(pr.Errors[f]) == 0 {
			t.Errorf("errors %v do not name %s", pr.Errors, f)
		}
	}
}

// ---------------------------------------------------------------------------
// organizations

func TestManagementOrganizationIsolation(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, f := startSeeded(t, p)
			keyA, keyB := f.key, s.CreateKey(t, "globex")
			readyA := uploadFile(t, s, keyA, f.p1, "a.pdf", "application/pdf", minimalPDF)
			pendingA := createUpload(t, s, keyA, f.p1, "a-pending.pdf", "application/pdf", len(minimalPDF))
			putBytes(t, s, pendingA.UploadURL, "application/pdf", minimalPDF).ExpectStatus(t, http.StatusOK)
			pB := createProject(t, s, keyB, "Globex").ID
			readyB := uploadFile(t, s, keyB, pB, "b.pdf", "application/pdf", minimalPDF)

			patch := func(path string, body any) testenv.Request {
				return testenv.Request{Method: http.MethodPatch, Path: path, Body: body}
			}
			get := func(path string) testenv.Request { return testenv.Request{Method: http.MethodGet, Path: path} }
			del := func(path string) testenv.Request { return testenv.Request{Method: http.MethodDelete, Path: path} }
			reqs := []testenv.Request{
				get("/v1/projects/" + f.p1),
				patch("/v1/projects/"+f.p1, map[string]any{"name": "stolen"}),
				del("/v1/projects/" + f.p1),
				get("/v1/files/" + readyA.ID),
				get("/v1/files/" + f.id["fA"]),
				del("/v1/files/" + readyA.ID),
				{Method: http.MethodPost, Path: "/v1/files/" + pendingA.ID + "/confirm"},
				{Method: http.MethodPost, Path: "/v1/files/" + readyA.ID + "/confirm"},
				get("/v1/drawings/" + f.id["dA"]),
				get("/v1/drawings/" + f.id["dA"] + "?expand=file"),
				patch("/v1/drawings/"+f.id["dA"], map[string]any{"name": "stolen"}),
				del("/v1/drawings/" + f.id["dA"]),
				get("/v1/sheets/" + f.id["sA1"]),
				get("/v1/sheets/" + f.id["sA1"] + "?expand=drawing"),
				patch("/v1/sheets/"+f.id["sA1"], map[string]any{"title": "stolen", "sheet_number": "X-1", "discipline": "civil"}),
				get("/v1/blocks/" + f.id["bA1"]),
				get("/v1/blocks/" + f.id["bA1"] + "?expand=sheet.drawing"),
				get("/v1/overlays/" + f.id["o1"]),
				get("/v1/overlays/" + f.id["o1"] + "?expand=block_a.sheet.drawing,job"),
				get("/v1/jobs/" + f.id["jP"]),
				get("/v1/jobs/" + f.id["jC1"] + "?expand=parent"),
			}
			for _, req := range reqs {
				req.Key = keyB
				t.Run(req.Method+" "+req.Path, func(t *testing.T) {
					pr := s.Do(t, req).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
					for _, leak := range []string{"Tower", "First Floor", "a.pdf"} {
						if strings.Contains(pr.Detail, leak) {
							t.Errorf("the problem leaks %q: %s", leak, pr.Detail)
						}
					}
				})
			}

			lists := []string{
				"/v1/projects",
				"/v1/files?project_id=" + f.p1,
				"/v1/files?project_id=" + f.p1 + "&content_type=application/pdf",
				"/v1/drawings?project_id=" + f.p1,
				"/v1/drawings?project_id=" + f.p2 + "&name=annex",
				"/v1/sheets",
				"/v1/sheets?drawing_id=" + f.id["dA"],
				"/v1/sheets?project_id=" + f.p1,
				"/v1/sheets?sheet_number=A-101",
				"/v1/sheets?discipline=architectural",
				"/v1/blocks",
				"/v1/blocks?sheet_id=" + f.id["sA1"],
				"/v1/blocks?type=Plan",
				"/v1/overlays",
				"/v1/overlays?project_id=" + f.p1,
				"/v1/overlays?drawing_id=" + f.id["dA"],
				"/v1/overlays?job_id=" + f.id["jC1"],
				"/v1/overlays?has_changes=true",
				"/v1/jobs",
				"/v1/jobs?project_id=" + f.p1,
				"/v1/jobs?parent_id=" + f.id["jP"],
				"/v1/jobs?target_id=" + f.id["dB"],
				"/v1/jobs?status=Completed",
			}
			for _, path := range lists {
				t.Run("GET "+path, func(t *testing.T) {
					for _, it := range rawItems(t, s, keyB, path+map[bool]string{true: "&", false: "?"}[strings.Contains(path, "?")]+"limit=100") {
						id, _ := it["id"].(string)
						if id == "" {
							id, _ = it["job_id"].(string)
						}
						if id != pB && id != readyB.ID {
							t.Errorf("org B sees %v", it)
						}
					}
				})
			}

			t.Run("create with org A's ids", func(t *testing.T) {
				for _, body := range []map[string]any{
					{"project_id": f.p1, "file_id": readyA.ID},
					{"project_id": pB, "file_id": readyA.ID},
					{"project_id": f.p1, "file_id": readyB.ID},
					{"project_id": f.p1, "file_id": f.id["fA"]},
				} {
					res := postJSON(t, s, keyB, "/v1/drawings", body)
					if res.Status != http.StatusBadRequest && res.Status != http.StatusNotFound {
						t.Errorf("POST /v1/drawings %v as org B: status %d, want 400 or 404: %s", body, res.Status, res.Body)
					}
				}
				pr := postJSON(t, s, keyB, "/v1/files", map[string]any{"project_id": f.p1, "filename": "x.pdf", "content_type": "application/pdf", "size": 10}).
					ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
				if len(pr.Errors["project_id"]) == 0 {
					t.Errorf("errors %v do not name project_id", pr.Errors)
				}
				if l := getList[drawingRec](t, s, keyB, "/v1/drawings?project_id="+pB).Data; len(l) != 0 {
					t.Errorf("org B has drawings %v", idsOf(l))
				}
				if l := getList[jobRec](t, s, keyB, "/v1/jobs").Data; len(l) != 0 {
					t.Errorf("org B has jobs %v", idsOf(l))
				}
			})

			// org A's data is untouched
			var pa project
			s.Get(t, keyA, "/v1/projects/"+f.p1).ExpectStatus(t, http.StatusOK).JSON(t, &pa)
			var dA drawingRec
			s.Get(t, keyA, "/v1/drawings/"+f.id["dA"]).ExpectStatus(t, http.StatusOK).JSON(t, &dA)
			var sA sheetRec
			s.Get(t, keyA, "/v1/sheets/"+f.id["sA1"]).ExpectStatus(t, http.StatusOK).JSON(t, &sA)
			var fa, fp fileRec
			s.Get(t, keyA, "/v1/files/"+readyA.ID).ExpectStatus(t, http.StatusOK).JSON(t, &fa)
			s.Get(t, keyA, "/v1/files/"+pendingA.ID).ExpectStatus(t, http.StatusOK).JSON(t, &fp)
			if pa.Name != "Tower" || dA.Name != "Tower Rev A" || sA.Title != "First Floor Plan" || sA.SheetNumber != "A-101" || fa.Status != "ready" || fp.Status != "pending" {
				t.Errorf("org B changed org A's data: project %+v drawing %+v sheet %+v files %+v %+v", pa, dA, sA, fa, fp)
			}
			if l := getList[drawingRec](t, s, keyA, "/v1/drawings?project_id="+f.p1).Data; len(l) != 2 {
				t.Errorf("org A's drawings are now %v", f.names(idsOf(l)))
			}
			if l := getList[jobRec](t, s, keyA, "/v1/jobs?limit=100").Data; len(l) != 7 {
				t.Errorf("org A's jobs are now %v", f.names(idsOf(l)))
			}
		})
	}
}

// ---------------------------------------------------------------------------
// idempotency

func TestManagementIdempotency(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := startUnlimited(t, p)
			key := s.CreateKey(t, "acme")
			keyB := s.CreateKey(t, "globex")
			withKey := func(k, idem, path string, body any) *testenv.Response {
				h := http.Header{}
				if idem != "" {
					h.Set("Idempotency-Key", idem)
				}
				return s.Do(t, testenv.Request{Method: http.MethodPost, Path: path, Key: k, Body: body, Header: h})
			}

			first := withKey(key, "create-tower-1", "/v1/projects", map[string]any{"name": "Tower"}).ExpectStatus(t, http.StatusCreated)
			second := withKey(key, "create-tower-1", "/v1/projects", map[string]any{"name": "Tower"}).ExpectStatus(t, http.StatusCreated)
			if a, b := first.Header.Get("Idempotency-Status"), second.Header.Get("Idempotency-Status"); a != "miss" || b != "hit" {
				t.Errorf("Idempotency-Status %q then %q, want miss then hit", a, b)
			}
			if !bytes.Equal(first.Body, second.Body) {
				t.Errorf("replayed body differs:\n%s\n%s", first.Body, second.Body)
			}
			if a, b := first.Header.Get("Location"), second.Header.Get("Location"); a == "" || a != b {
				t.Errorf("Location %q then %q", a, b)
			}
			if ct := second.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("replayed Content-Type %q", ct)
			}
			var prj project
			first.JSON(t, &prj)
			if l := list(t, s, key, "/v1/projects"); !slices.Equal(l.ids(), []string{prj.ID}) {
				t.Errorf("two requests with one key made projects %v", l.ids())
			}
			if res := postJSON(t, s, key, "/v1/projects", map[string]any{"name": "No key"}).ExpectStatus(t, http.StatusCreated); res.Header.Get("Idempotency-Status") != "" {
				t.Errorf("a request without a key has Idempotency-Status %q", res.Header.Get("Idempotency-Status"))
			}

			// another organization may reuse the key
			other := withKey(keyB, "create-tower-1", "/v1/projects", map[string]any{"name": "Tower"}).ExpectStatus(t, http.StatusCreated)
			var prjB project
			other.JSON(t, &prjB)
			if other.Header.Get("Idempotency-Status") != "miss" || prjB.ID == prj.ID {
				t.Errorf("org B's first use of the key: %s %s", other.Header.Get("Idempotency-Status"), other.Body)
			}

			// a 4xx is replayed too
			bad1 := withKey(key, "bad-project", "/v1/projects", map[string]any{"name": " "})
			bad1.ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			bad2 := withKey(key, "bad-project", "/v1/projects", map[string]any{"name": " "})
			bad2.ExpectStatus(t, http.StatusBadRequest)
			if bad2.Header.Get("Idempotency-Status") != "hit" || !bytes.Equal(bad1.Body, bad2.Body) {
				t.Errorf("a failed request's key: second answer %s %s", bad2.Header.Get("Idempotency-Status"), bad2.Body)
			}

			// drawings: one job for two requests
			f := uploadFile(t, s, key, prj.ID, "tower.pdf", "application/pdf", minimalPDF)
			body := map[string]any{"project_id": prj.ID, "file_id": f.ID, "name": "Tower"}
			d1 := withKey(key, "drawing_tower_v1", "/v1/drawings", body).ExpectStatus(t, http.StatusAccepted)
			d2 := withKey(key, "drawing_tower_v1", "/v1/drawings", body).ExpectStatus(t, http.StatusAccepted)
			var a1, a2 accepted
			d1.JSON(t, &a1)
			d2.JSON(t, &a2)
			if a1.Data.JobID == "" || a1.Data.JobID != a2.Data.JobID || a1.Data.Drawing.ID != a2.Data.Drawing.ID {
				t.Errorf("two drawing requests with one key: jobs %s and %s", a1.Data.JobID, a2.Data.JobID)
			}
			if d2.Header.Get("Idempotency-Status") != "hit" || !bytes.Equal(d1.Body, d2.Body) || d2.Header.Get("Location") != "/v1/jobs/"+a1.Data.JobID {
				t.Errorf("replayed 202: %s Location %q %s", d2.Header.Get("Idempotency-Status"), d2.Header.Get("Location"), d2.Body)
			}
			if l := getList[jobRec](t, s, key, "/v1/jobs?type=drawing_preprocess").Data; !slices.Equal(idsOf(l), []string{a1.Data.JobID}) {
				t.Errorf("jobs after the repeat: %v, want only %s", idsOf(l), a1.Data.JobID)
			}
			if l := getList[drawingRec](t, s, key, "/v1/drawings?project_id="+prj.ID).Data; len(l) != 1 {
				t.Errorf("drawings after the repeat: %v", idsOf(l))
			}

			// concurrent repeats still make one job
			t.Run("concurrent", func(t *testing.T) {
				body, _ := json.Marshal(map[string]any{"project_id": prj.ID, "file_id": f.ID, "name": "Concurrent"})
				type answer struct {
					status int
					body   []byte
					err    error
				}
				const n = 6
				answers := make(chan answer, n)
				for range n {
					go func() {
						req, err := http.NewRequest(http.MethodPost, s.URL+"/v1/drawings", bytes.NewReader(body))
						if err != nil {
							answers <- answer{err: err}
							return
						}
						req.Header.Set("Authorization", "Bearer "+key)
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set("Idempotency-Key", "concurrent-drawing")
						res, err := s.Client.Do(req)
						if err != nil {
							answers <- answer{err: err}
							return
						}
						defer res.Body.Close()
						b, err := io.ReadAll(res.Body)
						answers <- answer{res.StatusCode, b, err}
					}()
				}
				jobIDs := map[string]bool{}
				for range n {
					a := <-answers
					if a.err != nil {
						t.Fatal(a.err)
					}
					if a.status != http.StatusAccepted {
						t.Errorf("concurrent repeat: status %d: %s", a.status, a.body)
						continue
					}
					var acc accepted
					if err := json.Unmarshal(a.body, &acc); err != nil {
						t.Fatal(err)
					}
					jobIDs[acc.Data.JobID] = true
				}
				if len(jobIDs) != 1 {
					t.Errorf("%d concurrent requests with one key got jobs %v, want one", n, jobIDs)
				}
				if l := getList[drawingRec](t, s, key, "/v1/drawings?project_id="+prj.ID+"&name=concurrent").Data; len(l) != 1 {
					t.Errorf("concurrent requests made drawings %v", idsOf(l))
				}
			})

			// conflicts and invalid keys
			cases := []struct {
				name   string
				idem   string
				path   string
				body   any
				status int
				code   string
			}{
				{"same key, other body", "drawing_tower_v1", "/v1/drawings", map[string]any{"project_id": prj.ID, "file_id": f.ID, "name": "Tower 2"}, 409, "IDEMPOTENCY_CONFLICT"},
				{"same key, other path", "create-tower-1", "/v1/drawings", body, 409, "IDEMPOTENCY_CONFLICT"},
				{"same key, other project name", "create-tower-1", "/v1/projects", map[string]any{"name": "Tower B"}, 409, "IDEMPOTENCY_CONFLICT"},
				{"key with a space", "bad key", "/v1/projects", map[string]any{"name": "x"}, 400, "VALIDATION_ERROR"},
				{"key with punctuation", "key!", "/v1/projects", map[string]any{"name": "x"}, 400, "VALIDATION_ERROR"},
				{"key too long", strings.Repeat("k", 257), "/v1/projects", map[string]any{"name": "x"}, 400, "VALIDATION_ERROR"},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					pr := withKey(key, tc.idem, tc.path, tc.body).ExpectProblem(t, tc.status, tc.code)
					if tc.status == 400 && len(pr.Errors["Idempotency-Key"]) == 0 {
						t.Errorf("errors %v do not name Idempotency-Key", pr.Errors)
					}
				})
			}
			withKey(key, strings.Repeat("k", 256), "/v1/projects", map[string]any{"name": "Long key"}).ExpectStatus(t, http.StatusCreated)
			if l := list(t, s, key, "/v1/projects?limit=100"); len(l.Data) != 3 {
				t.Errorf("projects %v: conflicts or invalid keys created some", l.ids())
			}
			if l := getList[jobRec](t, s, key, "/v1/jobs?type=drawing_preprocess").Data; len(l) != 2 {
				t.Errorf("jobs %v after the conflicts, want the two keyed requests' own", idsOf(l))
			}
		})
	}
}

// ---------------------------------------------------------------------------
// rate limits

func TestManagementRateLimits(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			cfg := p.Config
			cfg.RateManagement, cfg.BurstManagement = 1, 3
			s := testenv.StartServer(t, cfg)
			key1 := s.CreateKey(t, "acme")
			key2 := s.CreateKey(t, "acme")

			var remaining []int
			for i := range 3 {
				res := s.Get(t, key1, "/v1/projects").ExpectStatus(t, http.StatusOK)
				if res.Header.Get("RateLimit-Limit") != "3" {
					t.Errorf("request %d: RateLimit-Limit %q, want 3", i+1, res.Header.Get("RateLimit-Limit"))
				}
				n, err := strconv.Atoi(res.Header.Get("RateLimit-Remaining"))
				if err != nil {
					t.Fatalf("request %d: RateLimit-Remaining %q", i+1, res.Header.Get("RateLimit-Remaining"))
				}
				remaining = append(remaining, n)
				if r, err := strconv.Atoi(res.Header.Get("RateLimit-Reset")); err != nil || r < 0 || r > 3 {
					t.Errorf("request %d: RateLimit-Reset %q", i+1, res.Header.Get("RateLimit-Reset"))
				}
			}
			if !slices.Equal(remaining, []int{2, 1, 0}) {
				t.Errorf("RateLimit-Remaining %v, want [2 1 0]", remaining)
			}
			res := s.Get(t, key1, "/v1/projects")
			pr := res.ExpectProblem(t, http.StatusTooManyRequests, "RATE_LIMITED")
			retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
			if err != nil || retry < 1 {
				t.Errorf("Retry-After %q, want whole seconds ≥ 1", res.Header.Get("Retry-After"))
			}
			if !strings.HasSuffix(pr.Type, "/rate-limit") {
				t.Errorf("type %q, want …/rate-limit", pr.Type)
			}
			if !strings.Contains(pr.Detail, "retry") || pr.Instance != "/v1/projects" {
				t.Errorf("problem %+v does not say when to retry", pr)
			}
			if res.Header.Get("RateLimit-Limit") != "3" || res.Header.Get("RateLimit-Remaining") != "0" {
				t.Errorf("429 RateLimit headers: limit %q remaining %q", res.Header.Get("RateLimit-Limit"), res.Header.Get("RateLimit-Remaining"))
			}
			// a limited POST does nothing
			postJSON(t, s, key1, "/v1/projects", map[string]any{"name": "blocked"}).ExpectProblem(t, http.StatusTooManyRequests, "RATE_LIMITED")

			// another key of the same organization has its own budget
			res2 := s.Get(t, key2, "/v1/projects").ExpectStatus(t, http.StatusOK)
			if res2.Header.Get("RateLimit-Remaining") != "2" {
				t.Errorf("second key: RateLimit-Remaining %q, want 2", res2.Header.Get("RateLimit-Remaining"))
			}
			var l listing[project]
			res2.JSON(t, &l)
			if len(l.Data) != 0 {
				t.Errorf("the rate-limited POST created %v", l.Data)
			}
		})
	}
}
