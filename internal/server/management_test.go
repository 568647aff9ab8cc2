package server_test

// Management interface through the real HTTPS server, on every profile:
// files (signed upload, confirm, download), drawings, sheets, blocks,
// overlays and jobs (every filter and expansion of the specification),
// organization isolation, pagination, idempotency, rate limits and GraphQL
// parity.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/drawing"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/geom"
	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/internal/uploads"
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

type fileRec struct {
	ID          string     `json:"id"`
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

func (f fileRec) ident() string { return f.ID }

type uploadRec struct {
	ID        string            `json:"id"`
	UploadURL string            `json:"upload_url"`
	Method    string            `json:"method"`
	Headers   map[string]string `json:"headers"`
	ExpiresAt time.Time         `json:"expires_at"`
}

type drawingRec struct {
	ID        string    `json:"id"`
	ProjectID string    `json:"project_id"`
	FileID    *string   `json:"file_id"`
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
}

func (d drawingRec) ident() string { return d.ID }

type sheetRec struct {
	ID          string    `json:"id"`
	DrawingID   string    `json:"drawing_id"`
	ProjectID   string    `json:"project_id"`
	SheetNumber string    `json:"sheet_number"`
	Title       string    `json:"title"`
	Discipline  string    `json:"discipline"`
	CreatedAt   time.Time `json:"created_at"`
}

func (s sheetRec) ident() string { return s.ID }

type blockRec struct {
	ID      string   `json:"id"`
	SheetID string   `json:"sheet_id"`
	Type    string   `json:"type"`
	Bounds  geom.Box `json:"bounds"`
}

func (b blockRec) ident() string { return b.ID }

type overlayRec struct {
	ID         string  `json:"id"`
	BlockAID   string  `json:"block_a_id"`
	BlockBID   string  `json:"block_b_id"`
	JobID      *string `json:"job_id"`
	HasChanges bool    `json:"has_changes"`
}

func (o overlayRec) ident() string { return o.ID }

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

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// createUpload is POST /v1/files, which must answer 201.
func createUpload(t *testing.T, s *testenv.Server, key, projectID, filename, ct string, size int) uploadRec {
	t.Helper()
	res := postJSON(t, s, key, "/v1/files", map[string]any{"project_id": projectID, "filename": filename, "content_type": ct, "size": size}).
		ExpectStatus(t, http.StatusCreated)
	var up uploadRec
	res.JSON(t, &up)
	return up
}

// putBytes PUTs data to an upload URL as a client would: no API key, the
// headers the service asked for.
func putBytes(t *testing.T, s *testenv.Server, rawURL string, ct string, data []byte) *testenv.Response {
	t.Helper()
	return s.Do(t, testenv.Request{Method: http.MethodPut, Path: rawURL, Body: data, ContentType: ct})
}

// uploadFile runs the whole upload flow and returns the confirmed file.
func uploadFile(t *testing.T, s *testenv.Server, key, projectID, filename, ct string, data []byte) fileRec {
	t.Helper()
	up := createUpload(t, s, key, projectID, filename, ct, len(data))
	putBytes(t, s, up.UploadURL, ct, data).ExpectStatus(t, http.StatusOK)
	var f fileRec
	postJSON(t, s, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectStatus(t, http.StatusOK).JSON(t, &f)
	if f.Status != "ready" {
		t.Fatalf("confirmed file %+v is not ready", f)
	}
	return f
}

// accepted is the 202 body of POST /v1/drawings.
type accepted struct {
	Data struct {
		JobID   string     `json:"job_id"`
		Type    string     `json:"type"`
		Status  string     `json:"status"`
		Target  *jobTarget `json:"target"`
		Drawing drawingRec `json:"drawing"`
	} `json:"data"`
}

// ---------------------------------------------------------------------------
// fixture: rows inserted with the application's Ent client

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
	keep := func(n, id string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("seed %s: %v", n, err)
		}
		f.id[n], f.name[id] = id, n
	}
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
		if err == nil {
			id = x.ID
		}
		keep(n, id, err)
	}
	mkDrawing := func(n, p, name, fileName string) {
		c := db.Drawing.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetName(name).
			SetStatus(drawing.StatusReady).SetPageCount(3)
		if fileName != "" {
			c.SetFileID(f.id[fileName])
		}
		x, err := c.Save(ctx)
		var id string
		if x != nil {
			id = x.ID
		}
		keep(n, id, err)
	}
	mkSheet := func(n, p, d string, page int, number, title, discipline string) {
		x, err := db.Sheet.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetDrawingID(f.id[d]).
			SetPageNumber(page).SetSheetNumber(number).SetSheetNumberNorm(sheetmeta.Normalize(number)).
			SetTitle(title).SetDiscipline(discipline).SetWidth(3300).SetHeight(2550).SetURI("sheets/" + n + ".png").Save(ctx)
		var id string
		if x != nil {
			id = x.ID
		}
		keep(n, id, err)
	}
	mkBlock := func(n, p, sheet, typ string) {
		x, err := db.Block.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetSheetID(f.id[sheet]).
			SetType(block.Type(typ)).SetTitle(typ + " " + n).SetDescription("block " + n).
			SetBounds(geom.Box{XMin: 10, YMin: 20, XMax: 1010, YMax: 820}).SetURI("blocks/" + n + ".png").Save(ctx)
		var id string
		if x != nil {
			id = x.ID
		}
		keep(n, id, err)
	}
	mkJob := func(n, p, typ, status, targetType, target, parent string) {
		c := db.Job.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetType(typ).SetStatus(job.Status(status)).
			SetTargetType(job.TargetType(targetType)).SetTargetID(f.id[target])
		if parent != "" {
			c.SetParentID(f.id[parent])
		}
		x, err := c.Save(ctx)
		var id string
		if x != nil {
			id = x.ID
		}
		keep(n, id, err)
	}
	mkOverlay := func(n, p, a, b string, changes bool, jobName string) {
		c := db.Overlay.Create().SetCreatedAt(next(n)).SetProjectID(proj(p)).SetBlockAID(f.id[a]).SetBlockBID(f.id[b]).
			SetHasChanges(changes).SetScore(0.75).SetURI("overlays/" + n + ".png")
		if jobName != "" {
			c.SetJobID(f.id[jobName])
		}
		x, err := c.Save(ctx)
		var id string
		if x != nil {
			id = x.ID
		}
		keep(n, id, err)
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

// ---------------------------------------------------------------------------
// 1. files

func TestFileUpload(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := startUnlimited(t, p)
			key := s.CreateKey(t, "acme")
			prj := createProject(t, s, key, "Uploads").ID
			other := createProject(t, s, key, "Elsewhere").ID

			// POST /v1/files
			before := time.Now()
			res := postJSON(t, s, key, "/v1/files", map[string]any{"project_id": prj, "filename": "set.pdf", "content_type": "application/pdf", "size": len(minimalPDF)}).
				ExpectStatus(t, http.StatusCreated)
			var up uploadRec
			res.JSON(t, &up)
			if !strings.HasPrefix(up.ID, "fil_") {
				t.Errorf("id %q does not start with fil_", up.ID)
			}
			if loc := res.Header.Get("Location"); loc != "/v1/files/"+up.ID {
				t.Errorf("Location %q, want /v1/files/%s", loc, up.ID)
			}
			if up.Method != http.MethodPut {
				t.Errorf("method %q, want PUT", up.Method)
			}
			if up.Headers["Content-Type"] != "application/pdf" {
				t.Errorf("headers %v, want Content-Type application/pdf", up.Headers)
			}
			if up.ExpiresAt.Before(before.Add(10*time.Minute)) || up.ExpiresAt.After(time.Now().Add(time.Hour)) {
				t.Errorf("expires_at %v is not a short while from now", up.ExpiresAt)
			}
			u, err := url.Parse(up.UploadURL)
			if err != nil {
				t.Fatalf("upload_url %q: %v", up.UploadURL, err)
			}
			if base, _ := url.Parse(s.URL); u.Scheme != "https" || u.Host != base.Host {
				t.Errorf("upload_url %q is not on the service %s", up.UploadURL, s.URL)
			}
			for _, k := range []string{"size", "expires", "signature"} {
				if u.Query().Get(k) == "" {
					t.Errorf("upload_url %q has no %s", up.UploadURL, k)
				}
			}
			var pending fileRec
			s.Get(t, key, "/v1/files/"+up.ID).ExpectStatus(t, http.StatusOK).JSON(t, &pending)
			if pending.Status != "pending" || pending.DownloadURL != nil || pending.SHA256 != nil || pending.Size != int64(len(minimalPDF)) || pending.ProjectID != prj {
				t.Errorf("GET of a pending file: %+v", pending)
			}

			t.Run("signed URL", func(t *testing.T) {
				with := func(k, v string) string {
					q := u.Query()
					if v == "" {
						q.Del(k)
					} else {
						q.Set(k, v)
					}
					c := *u
					c.RawQuery = q.Encode()
					return c.String()
				}
				sig := u.Query().Get("signature")
				flipped := []byte(sig)
				flipped[3] ^= 1
				exp, _ := strconv.ParseInt(u.Query().Get("expires"), 10, 64)
				cases := []struct {
					name string
					url  string
				}{
					{"tampered signature", with("signature", string(flipped))},
					{"no signature", with("signature", "")},
					{"size raised", with("size", strconv.Itoa(len(minimalPDF)+1))},
					{"size lowered", with("size", strconv.Itoa(len(minimalPDF)-1))},
					{"expired", with("expires", strconv.FormatInt(time.Now().Add(-time.Minute).Unix(), 10))},
					{"expiry extended", with("expires", strconv.FormatInt(exp+3600, 10))},
					{"another file's path", strings.Replace(up.UploadURL, up.ID, ids.New(ids.File), 1)},
				}
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						putBytes(t, s, tc.url, "application/pdf", minimalPDF).ExpectProblem(t, http.StatusForbidden, "INVALID_SIGNATURE")
					})
				}
			})

			t.Run("wrong sizes store nothing", func(t *testing.T) {
				putBytes(t, s, up.UploadURL, "application/pdf", append(slices.Clone(minimalPDF), "trailing"...)).
					ExpectProblem(t, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
				postJSON(t, s, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectProblem(t, http.StatusBadRequest, "UPLOAD_MISSING")

				// the same without Content-Length: the body is cut at size+1
				req, err := http.NewRequest(http.MethodPut, up.UploadURL, io.MultiReader(bytes.NewReader(minimalPDF), strings.NewReader("trailing")))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/pdf")
				hr, err := s.Client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				hr.Body.Close()
				if hr.StatusCode != http.StatusRequestEntityTooLarge {
					t.Errorf("streamed upload of too many bytes: status %d, want 413", hr.StatusCode)
				}
				postJSON(t, s, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectProblem(t, http.StatusBadRequest, "UPLOAD_MISSING")

				pr := putBytes(t, s, up.UploadURL, "application/pdf", minimalPDF[:len(minimalPDF)-5]).ExpectProblem(t, http.StatusBadRequest, "UPLOAD_INCOMPLETE")
				if !strings.Contains(pr.Detail, strconv.Itoa(len(minimalPDF))) {
					t.Errorf("detail %q does not say how many bytes were declared", pr.Detail)
				}
				postJSON(t, s, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectProblem(t, http.StatusBadRequest, "UPLOAD_MISSING")
				var still fileRec
				s.Get(t, key, "/v1/files/"+up.ID).ExpectStatus(t, http.StatusOK).JSON(t, &still)
				if still.Status != "pending" {
					t.Errorf("after failed uploads the file is %q", still.Status)
				}
			})

			// the real upload, then confirm
			putBytes(t, s, up.UploadURL, "application/pdf", minimalPDF).ExpectStatus(t, http.StatusOK)
			var ready fileRec
			postJSON(t, s, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectStatus(t, http.StatusOK).JSON(t, &ready)
			if ready.ID != up.ID || ready.Status != "ready" || ready.SHA256 == nil || *ready.SHA256 != sha256Hex(minimalPDF) ||
				ready.ConfirmedAt == nil || ready.DownloadURL == nil || ready.ContentType != "application/pdf" || ready.Filename != "set.pdf" {
				t.Fatalf("confirm gave %+v (sha256 want %s)", ready, sha256Hex(minimalPDF))
			}
			dl := s.Do(t, testenv.Request{Method: http.MethodGet, Path: *ready.DownloadURL}).ExpectStatus(t, http.StatusOK)
			if !bytes.Equal(dl.Body, minimalPDF) {
				t.Errorf("download gave %d bytes that differ from the %d uploaded", len(dl.Body), len(minimalPDF))
			}
			if ct := dl.Header.Get("Content-Type"); ct != "application/pdf" {
				t.Errorf("download Content-Type %q", ct)
			}
			var again fileRec
			postJSON(t, s, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectStatus(t, http.StatusOK).JSON(t, &again)
			if again.Status != "ready" || again.SHA256 == nil || *again.SHA256 != *ready.SHA256 {
				t.Errorf("confirming twice gave %+v", again)
			}
			putBytes(t, s, up.UploadURL, "application/pdf", minimalPDF).ExpectProblem(t, http.StatusConflict, "FILE_ALREADY_CONFIRMED")
			var got fileRec
			s.Get(t, key, "/v1/files/"+up.ID).ExpectStatus(t, http.StatusOK).JSON(t, &got)
			if got.Status != "ready" || got.DownloadURL == nil || got.SHA256 == nil || *got.SHA256 != sha256Hex(minimalPDF) {
				t.Errorf("GET of a ready file: %+v", got)
			} else if dl := s.Do(t, testenv.Request{Method: http.MethodGet, Path: *got.DownloadURL}).ExpectStatus(t, http.StatusOK); !bytes.Equal(dl.Body, minimalPDF) {
				t.Errorf("GET's download_url gave other bytes")
			}
			tampered := strings.Replace(*got.DownloadURL, "signature=", "signature=x", 1)
			s.Do(t, testenv.Request{Method: http.MethodGet, Path: tampered}).ExpectProblem(t, http.StatusForbidden, "INVALID_SIGNATURE")

			t.Run("content type mismatch", func(t *testing.T) {
				up := createUpload(t, s, key, prj, "really-a.png", "application/pdf", len(minimalPNG))
				putBytes(t, s, up.UploadURL, "application/pdf", minimalPNG).ExpectStatus(t, http.StatusOK)
				pr := postJSON(t, s, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectProblem(t, http.StatusBadRequest, "CONTENT_TYPE_MISMATCH")
				if len(pr.Errors["content_type"]) == 0 {
					t.Errorf("errors %v do not name content_type", pr.Errors)
				}
				var f fileRec
				s.Get(t, key, "/v1/files/"+up.ID).ExpectStatus(t, http.StatusOK).JSON(t, &f)
				if f.Status != "pending" || f.DownloadURL != nil {
					t.Errorf("a mismatched file became %+v", f)
				}
			})

			t.Run("invalid requests", func(t *testing.T) {
				ok := map[string]any{"project_id": prj, "filename": "a.pdf", "content_type": "application/pdf", "size": 10}
				with := func(kv ...any) map[string]any {
					m := map[string]any{}
					for k, v := range ok {
						m[k] = v
					}
					for i := 0; i < len(kv); i += 2 {
						if kv[i+1] == nil {
							delete(m, kv[i].(string))
						} else {
							m[kv[i].(string)] = kv[i+1]
						}
					}
					return m
				}
				cases := []struct {
					name   string
					body   any
					fields []string
				}{
					{"unsupported content_type", with("content_type", "text/plain"), []string{"content_type"}},
					{"size 0", with("size", 0), []string{"size"}},
					{"negative size", with("size", -5), []string{"size"}},
					{"blank filename", with("filename", "  "), []string{"filename"}},
					{"filename with a path", with("filename", "../x.pdf"), []string{"filename"}},
					{"unknown project", with("project_id", "prj_00000000000000000000000000"), []string{"project_id"}},
					{"missing everything", map[string]any{}, []string{"project_id", "filename", "content_type", "size"}},
					{"missing size", with("size", nil), []string{"size"}},
					{"fractional size", with("size", 10.5), []string{"size"}},
					{"size as a string", with("size", "10"), []string{"size"}},
					{"size above the limit", with("size", int64(3)<<30), []string{"size"}},
				}
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						pr := postJSON(t, s, key, "/v1/files", tc.body).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
						for _, f := range tc.fields {
							if len(pr.Errors[f]) == 0 {
								t.Errorf("errors %v do not name %s", pr.Errors, f)
							}
							if !strings.Contains(pr.Detail, f) {
								t.Errorf("detail %q does not name %s", pr.Detail, f)
							}
						}
					})
				}
			})

			t.Run("list", func(t *testing.T) {
				png := uploadFile(t, s, key, prj, "photo.png", "image/png", minimalPNG)
				elsewhere := uploadFile(t, s, key, other, "other.pdf", "application/pdf", minimalPDF)
				pr := s.Get(t, key, "/v1/files").ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
				if len(pr.Errors["project_id"]) == 0 {
					t.Errorf("GET /v1/files without project_id: errors %v do not name project_id", pr.Errors)
				}
				all := getList[fileRec](t, s, key, "/v1/files?project_id="+prj)
				// newest first: png, the mismatched one, set.pdf
				if len(all.Data) != 3 || all.Data[0].ID != png.ID || all.Data[2].ID != up.ID {
					t.Errorf("files of the project: %+v", all.Data)
				}
				for _, f := range all.Data {
					if f.ProjectID != prj {
						t.Errorf("file %s of project %s listed under %s", f.ID, f.ProjectID, prj)
					}
				}
				for _, tc := range []struct {
					query string
					want  []string
				}{
					{"project_id=" + prj + "&content_type=image/png", []string{png.ID}},
					{"project_id=" + prj + "&content_type=image/tiff", nil},
					{"project_id=" + other, []string{elsewhere.ID}},
					{"project_id=" + other + "&content_type=image/png", nil},
					{"project_id=" + prj + "&limit=1", []string{png.ID}},
				} {
					if got := idsOf(getList[fileRec](t, s, key, "/v1/files?"+tc.query).Data); !slices.Equal(got, tc.want) {
						t.Errorf("GET /v1/files?%s gave %v, want %v", tc.query, got, tc.want)
					}
				}
				pdfs := getList[fileRec](t, s, key, "/v1/files?project_id="+prj+"&content_type="+url.QueryEscape("application/pdf")).Data
				if len(pdfs) != 2 {
					t.Errorf("application/pdf files: %v", idsOf(pdfs))
				}
			})

			t.Run("delete", func(t *testing.T) {
				f := uploadFile(t, s, key, prj, "gone.pdf", "application/pdf", minimalPDF)
				res := s.Send(t, http.MethodDelete, key, "/v1/files/"+f.ID, nil).ExpectStatus(t, http.StatusNoContent)
				if len(res.Body) != 0 {
					t.Errorf("204 with a body %q", res.Body)
				}
				s.Get(t, key, "/v1/files/"+f.ID).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				s.Send(t, http.MethodDelete, key, "/v1/files/"+f.ID, nil).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				postJSON(t, s, key, "/v1/files/"+f.ID+"/confirm", nil).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				if dl := s.Do(t, testenv.Request{Method: http.MethodGet, Path: *f.DownloadURL}); dl.Status != http.StatusNotFound {
					t.Errorf("download of a deleted file: status %d, want 404", dl.Status)
				}
				if l := getList[fileRec](t, s, key, "/v1/files?project_id="+prj+"&limit=100"); slices.Contains(idsOf(l.Data), f.ID) {
					t.Errorf("deleted file still listed")
				}
			})
		})
	}
}

// ---------------------------------------------------------------------------
// 2. drawings

func TestDrawings(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := startUnlimited(t, p)
			key := s.CreateKey(t, "acme")
			prj := createProject(t, s, key, "Tower").ID
			other := createProject(t, s, key, "Annex").ID
			f1 := uploadFile(t, s, key, prj, "tower-rev1.pdf", "application/pdf", minimalPDF)
			f2 := uploadFile(t, s, key, prj, "tower-rev2.pdf", "application/pdf", minimalPDF)
			fOther := uploadFile(t, s, key, other, "annex.pdf", "application/pdf", minimalPDF)
			pendingUp := createUpload(t, s, key, prj, "pending.pdf", "application/pdf", len(minimalPDF))

			start := time.Now().Add(-time.Minute)
			res := postJSON(t, s, key, "/v1/drawings", map[string]any{"project_id": prj, "file_id": f1.ID, "name": "Tower A – Rev 1"}).
				ExpectStatus(t, http.StatusAccepted)
			var acc accepted
			res.JSON(t, &acc)
			if raw := res.Object(t); len(raw) != 1 || raw["data"] == nil {
				t.Errorf("202 body is not {data: …}: %s", res.Body)
			}
			d := acc.Data
			if !strings.HasPrefix(d.JobID, "job_") || d.Type != "drawing_preprocess" || d.Status != "PENDING" {
				t.Errorf("202 job: %+v, want job_… drawing_preprocess PENDING", d)
			}
			if d.Target == nil || d.Target.Type != "drawing" || !strings.HasPrefix(d.Target.ID, "drw_") {
				t.Fatalf("202 target %+v, want {drawing, drw_…}", d.Target)
			}
			if d.Drawing.ID != d.Target.ID || d.Drawing.ProjectID != prj || d.Drawing.FileID == nil || *d.Drawing.FileID != f1.ID ||
				d.Drawing.Name != "Tower A – Rev 1" || d.Drawing.CreatedAt.Before(start) {
				t.Errorf("202 drawing: %+v", d.Drawing)
			}
			if loc := res.Header.Get("Location"); loc != "/v1/jobs/"+d.JobID {
				t.Errorf("Location %q, want /v1/jobs/%s", loc, d.JobID)
			}
			drw1 := d.Drawing.ID

			var j jobRec
			s.Get(t, key, "/v1/jobs/"+d.JobID).ExpectStatus(t, http.StatusOK).JSON(t, &j)
			// the record spells statuses Queued…Canceled, never PENDING; a
			// worker may already have picked the job up
			if j.JobID != d.JobID || j.Type != "drawing_preprocess" || !slices.Contains(jobstatus.All, j.Status) || j.Target == nil ||
				*j.Target != (jobTarget{"drawing", drw1}) || j.CreatedAt.Before(start) || j.ProjectID == nil || *j.ProjectID != prj {
				t.Errorf("GET /v1/jobs/%s: %+v, want a record status (Queued until a worker takes it), target drawing %s", d.JobID, j, drw1)
			}
			// the drawing's job, and — once a worker has split it — its
			// per-page children, which target the drawing until their sheet exists
			ofDrawing := getList[jobRec](t, s, key, "/v1/jobs?target_type=drawing&target_id="+drw1).Data
			if !slices.Contains(idsOf(ofDrawing), d.JobID) {
				t.Errorf("jobs of the drawing %v lack its job %s", idsOf(ofDrawing), d.JobID)
			}
			for _, oj := range ofDrawing {
				if oj.JobID != d.JobID && (oj.ParentID == nil || *oj.ParentID != d.JobID) {
					t.Errorf("job %s (%s) of the drawing is neither its job nor a child of it", oj.JobID, oj.Type)
				}
			}
			if got := idsOf(getList[jobRec](t, s, key, "/v1/jobs?target_type=drawing&target_id="+drw1+"&type=drawing_preprocess").Data); !slices.Equal(got, []string{d.JobID}) {
				t.Errorf("drawing_preprocess jobs of the drawing: %v", got)
			}

			// without a name the drawing is named after the file
			var acc2 accepted
			postJSON(t, s, key, "/v1/drawings", map[string]any{"project_id": prj, "file_id": f2.ID}).ExpectStatus(t, http.StatusAccepted).JSON(t, &acc2)
			drw2 := acc2.Data.Drawing.ID
			if acc2.Data.Drawing.Name != "tower-rev2.pdf" || acc2.Data.JobID == d.JobID {
				t.Errorf("second drawing: %+v", acc2.Data)
			}
			var acc3 accepted
			postJSON(t, s, key, "/v1/drawings", map[string]any{"project_id": other, "file_id": fOther.ID, "name": "Annex"}).ExpectStatus(t, http.StatusAccepted).JSON(t, &acc3)
			drwOther := acc3.Data.Drawing.ID

			t.Run("invalid creates", func(t *testing.T) {
				cases := []struct {
					name   string
					body   any
					code   string
					fields []string
				}{
					{"missing fields", map[string]any{}, "VALIDATION_ERROR", []string{"project_id", "file_id"}},
					{"missing file_id", map[string]any{"project_id": prj}, "VALIDATION_ERROR", []string{"file_id"}},
					{"missing project_id", map[string]any{"file_id": f1.ID}, "VALIDATION_ERROR", []string{"project_id"}},
					{"unconfirmed file", map[string]any{"project_id": prj, "file_id": pendingUp.ID}, "FILE_NOT_READY", []string{"file_id"}},
					{"file of another project", map[string]any{"project_id": prj, "file_id": fOther.ID}, "VALIDATION_ERROR", []string{"file_id"}},
					{"unknown file", map[string]any{"project_id": prj, "file_id": "fil_00000000000000000000000000"}, "VALIDATION_ERROR", []string{"file_id"}},
					{"unknown project", map[string]any{"project_id": "prj_00000000000000000000000000", "file_id": f1.ID}, "VALIDATION_ERROR", []string{"project_id"}},
					{"blank name", map[string]any{"project_id": prj, "file_id": f1.ID, "name": "  "}, "VALIDATION_ERROR", []string{"name"}},
					{"unknown field", map[string]any{"project_id": prj, "file_id": f1.ID, "colour": "red"}, "VALIDATION_ERROR", []string{"colour"}},
				}
				for _, tc := range cases {
					t.Run(tc.name, func(t *testing.T) {
						pr := postJSON(t, s, key, "/v1/drawings", tc.body).ExpectProblem(t, http.StatusBadRequest, tc.code)
						for _, f := range tc.fields {
							if len(pr.Errors[f]) == 0 {
								t.Errorf("errors %v do not name %s", pr.Errors, f)
							}
						}
					})
				}
				if l := getList[drawingRec](t, s, key, "/v1/drawings?project_id="+prj); len(l.Data) != 2 {
					t.Errorf("failed creates made drawings: %v", idsOf(l.Data))
				}
				if l := getList[jobRec](t, s, key, "/v1/jobs?type=drawing_preprocess"); len(l.Data) != 3 {
					t.Errorf("failed creates made jobs: %v", idsOf(l.Data))
				}
			})

			t.Run("list", func(t *testing.T) {
				// LIKE wildcards are literal; case folding is not only ASCII
				var acc4 accepted
				postJSON(t, s, key, "/v1/drawings", map[string]any{"project_id": other, "file_id": fOther.ID, "name": "Étage 100%_CD"}).ExpectStatus(t, http.StatusAccepted).JSON(t, &acc4)
				drwEtage := acc4.Data.Drawing.ID
				pr := s.Get(t, key, "/v1/drawings").ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
				if len(pr.Errors["project_id"]) == 0 {
					t.Errorf("errors %v do not name project_id", pr.Errors)
				}
				cases := []struct {
					query string
					want  []string
				}{
					{"project_id=" + prj, []string{drw2, drw1}},
					{"project_id=" + other, []string{drwEtage, drwOther}},
					{"project_id=" + other + "&name=annex", []string{drwOther}},
					{"project_id=" + other + "&name=%25", []string{drwEtage}},
					{"project_id=" + other + "&name=_", []string{drwEtage}},
					{"project_id=" + other + "&name=0%25_c", []string{drwEtage}},
					{"project_id=" + other + "&name=" + url.QueryEscape("éTAGE"), []string{drwEtage}},
					{"project_id=" + other + "&name=" + url.QueryEscape("Étage"), []string{drwEtage}},
					{"project_id=" + other + "&name=" + url.QueryEscape("tage 100"), []string{drwEtage}},
					{"project_id=" + other + "&name=x", []string{drwOther}},
					{"project_id=" + other + "&name=n_x", nil},
					{"project_id=" + prj + "&name=tower", []string{drw2, drw1}},
					{"project_id=" + prj + "&name=TOWER+A", []string{drw1}},
					{"project_id=" + prj + "&name=rEv2", []string{drw2}},
					{"project_id=" + prj + "&name=" + url.QueryEscape("– rev 1"), []string{drw1}},
					{"project_id=" + prj + "&name=annex", nil},
					{"project_id=" + prj + "&name=rev&limit=1", []string{drw2}},
					{"project_id=" + prj + "&created_after=" + url.QueryEscape(acc.Data.Drawing.CreatedAt.Format(time.RFC3339Nano)), []string{drw2}},
					{"project_id=" + prj + "&created_before=" + url.QueryEscape(acc2.Data.Drawing.CreatedAt.Format(time.RFC3339Nano)), []string{drw1}},
					{"project_id=prj_00000000000000000000000000", nil},
				}
				for _, tc := range cases {
					if got := idsOf(getList[drawingRec](t, s, key, "/v1/drawings?"+tc.query).Data); !slices.Equal(got, tc.want) {
						t.Errorf("GET /v1/drawings?%s gave %v, want %v", tc.query, got, tc.want)
					}
				}
				items := rawItems(t, s, key, "/v1/drawings?project_id="+prj+"&expand=file")
				want := map[string]string{drw1: f1.ID, drw2: f2.ID}
				for _, it := range items {
					expectExpanded(t, "drawing "+fmt.Sprint(it["id"]), it, "file")
					if fm, _ := it["file"].(map[string]any); fm == nil || fm["id"] != want[it["id"].(string)] || fm["status"] != "ready" || fm["content_type"] != "application/pdf" {
						t.Errorf("expanded file of %v: %v", it["id"], it["file"])
					}
				}
				for _, it := range rawItems(t, s, key, "/v1/drawings?project_id="+prj) {
					if _, ok := it["file"]; ok {
						t.Errorf("file expanded without expand: %v", it)
					}
				}
			})

			t.Run("get, patch, delete", func(t *testing.T) {
				var got drawingRec
				s.Get(t, key, "/v1/drawings/"+drw1).ExpectStatus(t, http.StatusOK).JSON(t, &got)
				if got.ID != drw1 || got.Name != "Tower A – Rev 1" || got.FileID == nil || *got.FileID != f1.ID || got.ProjectID != prj {
					t.Errorf("GET drawing: %+v", got)
				}
				one := s.Get(t, key, "/v1/drawings/"+drw1+"?expand=file").ExpectStatus(t, http.StatusOK).Object(t)
				expectExpanded(t, "drawing", one, "file")
				s.Get(t, key, "/v1/drawings/"+drw1+"?expand=sheets").ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")

				var patched drawingRec
				s.Send(t, http.MethodPatch, key, "/v1/drawings/"+drw1, map[string]any{"name": "  Tower A – Rev 1b "}).ExpectStatus(t, http.StatusOK).JSON(t, &patched)
				if patched.ID != drw1 || patched.Name != "Tower A – Rev 1b" || !patched.CreatedAt.Equal(got.CreatedAt) {
					t.Errorf("PATCH gave %+v", patched)
				}
				s.Get(t, key, "/v1/drawings/"+drw1).ExpectStatus(t, http.StatusOK).JSON(t, &got)
				if got.Name != "Tower A – Rev 1b" {
					t.Errorf("after PATCH the name is %q", got.Name)
				}
				pr := s.Send(t, http.MethodPatch, key, "/v1/drawings/"+drw1, map[string]any{"name": ""}).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
				if len(pr.Errors["name"]) == 0 {
					t.Errorf("errors %v do not name name", pr.Errors)
				}
				s.Send(t, http.MethodPatch, key, "/v1/drawings/"+drw1, map[string]any{"file_id": f2.ID}).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")

				// a file a drawing uses cannot be deleted
				s.Send(t, http.MethodDelete, key, "/v1/files/"+f1.ID, nil).ExpectProblem(t, http.StatusConflict, "FILE_IN_USE")

				s.Send(t, http.MethodDelete, key, "/v1/drawings/"+drw1, nil).ExpectStatus(t, http.StatusNoContent)
				for _, req := range []testenv.Request{
					{Method: http.MethodGet, Path: "/v1/drawings/" + drw1},
					{Method: http.MethodPatch, Path: "/v1/drawings/" + drw1, Body: map[string]any{"name": "ghost"}},
					{Method: http.MethodDelete, Path: "/v1/drawings/" + drw1},
					{Method: http.MethodGet, Path: "/v1/drawings/drw_00000000000000000000000000"},
				} {
					req.Key = key
					s.Do(t, req).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				}
				if got := idsOf(getList[drawingRec](t, s, key, "/v1/drawings?project_id="+prj).Data); !slices.Equal(got, []string{drw2}) {
					t.Errorf("after DELETE the list is %v, want [%s]", got, drw2)
				}
				s.Send(t, http.MethodDelete, key, "/v1/files/"+f1.ID, nil).ExpectStatus(t, http.StatusNoContent)
			})
		})
	}
}

// ---------------------------------------------------------------------------
// 3. sheets, blocks, overlays, jobs: filters and expansions

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
			s := startUnlimited(t, p)
			key, rec := s.CreateKeyRecord(t, "acme")
			f := seedManagement(t, s, key, rec)

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
						pr := s.Get(t, key, tc.path).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
						if len(pr.Errors[tc.field]) == 0 {
							t.Errorf("errors %v do not name %s", pr.Errors, tc.field)
						}
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

// ---------------------------------------------------------------------------
// 4. organizations

func TestManagementOrganizationIsolation(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := startUnlimited(t, p)
			keyA, recA := s.CreateKeyRecord(t, "acme")
			keyB := s.CreateKey(t, "globex")
			f := seedManagement(t, s, keyA, recA)
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
// 5. pagination of another list

func TestJobsPagination(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := startUnlimited(t, p)
			key, rec := s.CreateKeyRecord(t, "acme")
			p1 := createProject(t, s, key, "Paged").ID
			p2 := createProject(t, s, key, "Other").ID
			ctx := tenant.WithOrg(context.Background(), rec.OrgID)
			db := s.App.Store.Client
			base := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
			var want, completed []string // newest first
			mk := func(i int, prj string, status job.Status) string {
				j, err := db.Job.Create().SetProjectID(prj).SetType("compare").SetStatus(status).
					SetCreatedAt(base.Add(time.Duration(i) * time.Second)).Save(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return j.ID
			}
			for i := range 25 {
				st := job.StatusQueued
				if i%3 == 0 {
					st = job.StatusCompleted
				}
				id := mk(i, p1, st)
				want = append([]string{id}, want...)
				if st == job.StatusCompleted {
					completed = append([]string{id}, completed...)
				}
			}
			for i := range 5 { // interleaved jobs of another project
				mk(100+i, p2, job.StatusCompleted)
			}
			// two sheets, for a cursor of another list
			d, err := db.Drawing.Create().SetProjectID(p1).SetName("d").Save(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 2; i++ {
				if _, err := db.Sheet.Create().SetProjectID(p1).SetDrawingID(d.ID).SetPageNumber(i).Save(ctx); err != nil {
					t.Fatal(err)
				}
			}

			jobsPage := func(path string) listing[jobRec] { return getList[jobRec](t, s, key, path) }
			byCursor := func(c *string) listing[jobRec] {
				t.Helper()
				if c == nil {
					t.Fatal("no cursor to follow")
				}
				return jobsPage("/v1/jobs?cursor=" + url.QueryEscape(*c))
			}

			// forward, passing only the cursor: the project filter travels in it
			pg1 := jobsPage("/v1/jobs?project_id=" + p1 + "&limit=10")
			pg2 := byCursor(pg1.Meta.Next)
			pg3 := byCursor(pg2.Meta.Next)
			for i, tc := range []struct {
				pg         listing[jobRec]
				want       []string
				next, prev bool
			}{
				{pg1, want[0:10], true, false},
				{pg2, want[10:20], true, true},
				{pg3, want[20:25], false, true},
			} {
				if got := idsOf(tc.pg.Data); !slices.Equal(got, tc.want) {
					t.Errorf("page %d: %v\nwant %v", i+1, got, tc.want)
				}
				if (tc.pg.Meta.Next != nil) != tc.next || (tc.pg.Meta.Prev != nil) != tc.prev || tc.pg.Meta.Limit != 10 {
					t.Errorf("page %d: next %v prev %v limit %d; want next %v prev %v limit 10", i+1, tc.pg.Meta.Next != nil, tc.pg.Meta.Prev != nil, tc.pg.Meta.Limit, tc.next, tc.prev)
				}
			}
			// and back
			back2 := byCursor(pg3.Meta.Prev)
			if got := idsOf(back2.Data); !slices.Equal(got, want[10:20]) {
				t.Errorf("prev of page 3: %v\nwant %v", got, want[10:20])
			}
			back1 := byCursor(back2.Meta.Prev)
			if got := idsOf(back1.Data); !slices.Equal(got, want[0:10]) {
				t.Errorf("prev of page 2: %v\nwant %v", got, want[0:10])
			}
			if back1.Meta.Prev != nil || back1.Meta.Next == nil {
				t.Errorf("first page reached backwards: prev %v next %v, want null and a cursor", back1.Meta.Prev, back1.Meta.Next)
			}
			if fwd := byCursor(back2.Meta.Next); !slices.Equal(idsOf(fwd.Data), want[20:25]) {
				t.Errorf("next after going back: %v, want %v", idsOf(fwd.Data), want[20:25])
			}

			// a status filter carried by the cursor, in pages of 4
			var walked []string
			pg := jobsPage("/v1/jobs?project_id=" + p1 + "&status=Completed&limit=4")
			for i := 0; i < 5; i++ {
				for _, j := range pg.Data {
					if j.Status != "Completed" || j.ProjectID == nil || *j.ProjectID != p1 {
						t.Errorf("page %d has %+v: the cursor lost the filters", i+1, j)
					}
				}
				walked = append(walked, idsOf(pg.Data)...)
				if pg.Meta.Next == nil {
					break
				}
				pg = byCursor(pg.Meta.Next)
			}
			if !slices.Equal(walked, completed) {
				t.Errorf("walking status=Completed gave %v\nwant %v", walked, completed)
			}

			// a cursor belongs to its list
			sheetCur := getList[sheetRec](t, s, key, "/v1/sheets?limit=1").Meta.Next
			if sheetCur == nil {
				t.Fatal("no sheets cursor")
			}
			pr := s.Get(t, key, "/v1/jobs?cursor="+url.QueryEscape(*sheetCur)).ExpectProblem(t, http.StatusBadRequest, "INVALID_CURSOR")
			if len(pr.Errors["cursor"]) == 0 {
				t.Errorf("errors %v do not name cursor", pr.Errors)
			}
			s.Get(t, key, "/v1/sheets?cursor="+url.QueryEscape(*pg1.Meta.Next)).ExpectProblem(t, http.StatusBadRequest, "INVALID_CURSOR")
			s.Get(t, key, "/v1/overlays?cursor="+url.QueryEscape(*pg1.Meta.Next)).ExpectProblem(t, http.StatusBadRequest, "INVALID_CURSOR")
			s.Get(t, key, "/v1/jobs?cursor="+url.QueryEscape((*pg1.Meta.Next)[2:])).ExpectProblem(t, http.StatusBadRequest, "INVALID_CURSOR")
			keyB := s.CreateKey(t, "globex")
			s.Get(t, keyB, "/v1/jobs?cursor="+url.QueryEscape(*pg1.Meta.Next)).ExpectProblem(t, http.StatusBadRequest, "INVALID_CURSOR")
		})
	}
}

// ---------------------------------------------------------------------------
// 6. idempotency

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
// 7. rate limits

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

// ---------------------------------------------------------------------------
// 8. GraphQL parity

func TestManagementGraphQL(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s := startUnlimited(t, p)
			key, rec := s.CreateKeyRecord(t, "acme")
			keyB := s.CreateKey(t, "globex")
			f := seedManagement(t, s, key, rec)

			// where-filters give what the REST filters give
			t.Run("filters", func(t *testing.T) {
				cases := []struct {
					rest string
					conn string
					typ  string
					wh   map[string]any
				}{
					{"/v1/sheets?drawing_id={dA}", "sheets", "Sheet", map[string]any{"drawingID": f.id["dA"]}},
					{"/v1/sheets?project_id={p1}", "sheets", "Sheet", map[string]any{"projectID": f.p1}},
					{"/v1/sheets?discipline=architectural", "sheets", "Sheet", map[string]any{"discipline": "architectural"}},
					{"/v1/sheets?sheet_number=A-101", "sheets", "Sheet", map[string]any{"sheetNumber": "A-101"}},
					{"/v1/sheets?created_after={@sA2}", "sheets", "Sheet", map[string]any{"createdAtGT": f.at["sA2"]}},
					{"/v1/blocks?sheet_id={sA1}", "blocks", "Block", map[string]any{"sheetID": f.id["sA1"]}},
					{"/v1/blocks?type=Plan", "blocks", "Block", map[string]any{"type": "Plan"}},
					{"/v1/overlays?project_id={p1}", "overlays", "Overlay", map[string]any{"projectID": f.p1}},
					{"/v1/overlays?job_id={jC1}", "overlays", "Overlay", map[string]any{"jobID": f.id["jC1"]}},
					{"/v1/overlays?has_changes=true", "overlays", "Overlay", map[string]any{"hasChanges": true}},
					{"/v1/overlays?has_changes=false", "overlays", "Overlay", map[string]any{"hasChanges": false}},
					{"/v1/overlays?drawing_id={dA}", "overlays", "Overlay", map[string]any{"or": []any{
						map[string]any{"hasBlockAWith": []any{map[string]any{"hasSheetWith": []any{map[string]any{"drawingID": f.id["dA"]}}}}},
						map[string]any{"hasBlockBWith": []any{map[string]any{"hasSheetWith": []any{map[string]any{"drawingID": f.id["dA"]}}}}},
					}}},
					{"/v1/jobs?project_id={p1}", "jobs", "Job", map[string]any{"projectID": f.p1}},
					{"/v1/jobs?status=Completed", "jobs", "Job", map[string]any{"status": "Completed"}},
					{"/v1/jobs?type=overlay.generate", "jobs", "Job", map[string]any{"type": "overlay.generate"}},
					{"/v1/jobs?target_type=block", "jobs", "Job", map[string]any{"targetType": "block"}},
					{"/v1/jobs?target_id={dB}", "jobs", "Job", map[string]any{"targetID": f.id["dB"]}},
					{"/v1/jobs?parent_id={jP}", "jobs", "Job", map[string]any{"parentID": f.id["jP"]}},
				}
				for _, tc := range cases {
					t.Run(tc.rest, func(t *testing.T) {
						restIDs := []string{}
						for _, it := range rawItems(t, s, key, f.q(tc.rest)+"&limit=100") {
							id, _ := it["id"].(string)
							if id == "" {
								id, _ = it["job_id"].(string)
							}
							restIDs = append(restIDs, id)
						}
						var d map[string]struct {
							TotalCount int
							Edges      []struct{ Node struct{ ID string } }
						}
						s.GraphQL(t, key, fmt.Sprintf(`query($w: %sWhereInput) { %s(first: 100, where: $w) { totalCount edges { node { id } } } }`, tc.typ, tc.conn),
							map[string]any{"w": tc.wh}).DataInto(t, &d)
						var gqlIDs []string
						for _, e := range d[tc.conn].Edges {
							gqlIDs = append(gqlIDs, e.Node.ID)
						}
						slices.Sort(restIDs)
						slices.Sort(gqlIDs)
						if len(restIDs) == 0 || !slices.Equal(restIDs, gqlIDs) || d[tc.conn].TotalCount != len(restIDs) {
							t.Errorf("REST %v, GraphQL %v (totalCount %d)", f.names(restIDs), f.names(gqlIDs), d[tc.conn].TotalCount)
						}
					})
				}
			})

			t.Run("node", func(t *testing.T) {
				for _, tc := range []struct{ name, typename string }{
					{"sA1", "Sheet"}, {"bA1", "Block"}, {"o1", "Overlay"}, {"jC1", "Job"}, {"dA", "Drawing"}, {"fA", "File"},
				} {
					id := f.id[tc.name]
					var d struct {
						Node *struct {
							Typename string `json:"__typename"`
							ID       string
						}
					}
					s.GraphQL(t, key, `query($id: ID!) { node(id: $id) { __typename id } }`, map[string]any{"id": id}).DataInto(t, &d)
					if d.Node == nil || d.Node.ID != id || d.Node.Typename != tc.typename {
						t.Errorf("node(%s) = %+v, want %s %s", tc.name, d.Node, tc.typename, id)
					}
					var other struct{ Node *struct{ ID string } }
					s.GraphQL(t, keyB, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id}).DataInto(t, &other)
					if other.Node != nil {
						t.Errorf("org B resolves node(%s) to %+v", tc.name, other.Node)
					}
				}
				var typed struct {
					Overlay *struct {
						BlockA struct {
							Sheet struct{ Drawing struct{ ID string } }
						}
						Job *struct{ ID string }
					}
					Sheet *struct{ ID string }
				}
				s.GraphQL(t, key, `query($o: ID!, $s: ID!) { overlay(id: $o) { blockA { sheet { drawing { id } } } job { id } } sheet(id: $s) { id } }`,
					map[string]any{"o": f.id["o1"], "s": f.id["sA1"]}).DataInto(t, &typed)
				if typed.Overlay == nil || typed.Overlay.BlockA.Sheet.Drawing.ID != f.id["dA"] || typed.Overlay.Job == nil || typed.Overlay.Job.ID != f.id["jC1"] || typed.Sheet == nil {
					t.Errorf("overlay/sheet by id: %+v", typed)
				}
				var none struct {
					Overlay, Sheet, Block, Job, Drawing, File *struct{ ID string }
				}
				s.GraphQL(t, keyB, `query($o: ID!, $s: ID!, $b: ID!, $j: ID!, $d: ID!, $f: ID!) {
					overlay(id: $o) { id } sheet(id: $s) { id } block(id: $b) { id } job(id: $j) { id } drawing(id: $d) { id } file(id: $f) { id }
				}`, map[string]any{"o": f.id["o1"], "s": f.id["sA1"], "b": f.id["bA1"], "j": f.id["jP"], "d": f.id["dA"], "f": f.id["fA"]}).DataInto(t, &none)
				if none.Overlay != nil || none.Sheet != nil || none.Block != nil || none.Job != nil || none.Drawing != nil || none.File != nil {
					t.Errorf("org B reads org A's records: %+v", none)
				}
				for _, m := range []string{
					`mutation($id: ID!) { updateSheet(id: $id, input: {title: "stolen"}) { id } }`,
					`mutation($id: ID!) { deleteDrawing(id: $id) }`,
					`mutation($id: ID!) { confirmFile(id: $id) { id } }`,
				} {
					id := map[bool]string{true: f.id["sA1"], false: f.id["dA"]}[strings.Contains(m, "updateSheet")]
					if strings.Contains(m, "confirmFile") {
						id = f.id["fA"]
					}
					g := s.GraphQL(t, keyB, m, map[string]any{"id": id})
					if len(g.Errors) != 1 || g.Errors[0].Extensions["code"] != "NOT_FOUND" {
						t.Errorf("%s as org B: %+v, want one NOT_FOUND", m, g.Errors)
					}
				}
			})
			// the mutations, in a project of their own so that the worker's
			// processing of the new drawing cannot touch the fixture
			t.Run("mutations", func(t *testing.T) {
				p3 := createProject(t, s, key, "GraphQL").ID
				// upload, confirm, createDrawing
				var up struct {
					CreateFileUpload struct {
						File struct {
							ID, Status, ContentType string
							Size                    int
						}
						UploadURL string
						Method    string
						Headers   map[string]string
						ExpiresAt time.Time
					}
				}
				s.GraphQL(t, key, `mutation($in: CreateFileUploadInput!) {
					createFileUpload(input: $in) { file { id status contentType size } uploadURL method headers expiresAt }
				}`, map[string]any{"in": map[string]any{"projectID": p3, "filename": "gql.pdf", "contentType": "application/pdf", "size": len(minimalPDF)}}).DataInto(t, &up)
				u := up.CreateFileUpload
				if !strings.HasPrefix(u.File.ID, "fil_") || u.File.Status != "pending" || u.Method != "PUT" || u.Headers["Content-Type"] != "application/pdf" ||
					u.File.Size != len(minimalPDF) || u.ExpiresAt.Before(time.Now()) {
					t.Fatalf("createFileUpload gave %+v", u)
				}
				putBytes(t, s, u.UploadURL, "application/pdf", minimalPDF).ExpectStatus(t, http.StatusOK)
				var conf struct {
					ConfirmFile struct {
						ID, Status string
						Sha256     *string
					}
				}
				s.GraphQL(t, key, `mutation($id: ID!) { confirmFile(id: $id) { id status sha256 } }`, map[string]any{"id": u.File.ID}).DataInto(t, &conf)
				if conf.ConfirmFile.Status != "ready" || conf.ConfirmFile.Sha256 == nil || *conf.ConfirmFile.Sha256 != sha256Hex(minimalPDF) {
					t.Errorf("confirmFile gave %+v", conf.ConfirmFile)
				}
				var viaREST fileRec
				s.Get(t, key, "/v1/files/"+u.File.ID).ExpectStatus(t, http.StatusOK).JSON(t, &viaREST)
				if viaREST.Status != "ready" || viaREST.DownloadURL == nil {
					t.Errorf("REST sees the GraphQL upload as %+v", viaREST)
				}

				// a mismatched upload fails the same way
				var bad struct {
					CreateFileUpload struct {
						File      struct{ ID string }
						UploadURL string
					}
				}
				s.GraphQL(t, key, `mutation($in: CreateFileUploadInput!) { createFileUpload(input: $in) { file { id } uploadURL } }`,
					map[string]any{"in": map[string]any{"projectID": p3, "filename": "x.pdf", "contentType": "application/pdf", "size": len(minimalPNG)}}).DataInto(t, &bad)
				putBytes(t, s, bad.CreateFileUpload.UploadURL, "application/pdf", minimalPNG).ExpectStatus(t, http.StatusOK)
				expectGraphQLError(t, s.GraphQL(t, key, `mutation($id: ID!) { confirmFile(id: $id) { id } }`, map[string]any{"id": bad.CreateFileUpload.File.ID}), "CONTENT_TYPE_MISMATCH", "content_type")
				expectGraphQLError(t, s.GraphQL(t, key, `mutation($in: CreateFileUploadInput!) { createFileUpload(input: $in) { file { id } } }`,
					map[string]any{"in": map[string]any{"projectID": p3, "filename": "x.txt", "contentType": "text/plain", "size": 0}}), "VALIDATION_ERROR", "content_type", "size")

				var cd struct {
					CreateDrawing struct {
						Drawing struct {
							ID, Name, Status, ProjectID string
							FileID                      *string
						}
						Job struct {
							ID, Type, Status, TargetType, TargetID string
							ProjectID                              *string
						}
					}
				}
				s.GraphQL(t, key, `mutation($in: CreateDrawingInput!) {
					createDrawing(input: $in) { drawing { id name status projectID fileID } job { id type status targetType targetID projectID } }
				}`, map[string]any{"in": map[string]any{"projectID": p3, "fileID": u.File.ID, "name": "GraphQL Rev"}}).DataInto(t, &cd)
				dr, jb := cd.CreateDrawing.Drawing, cd.CreateDrawing.Job
				if !strings.HasPrefix(dr.ID, "drw_") || dr.Name != "GraphQL Rev" || dr.FileID == nil || *dr.FileID != u.File.ID || dr.ProjectID != p3 {
					t.Errorf("createDrawing drawing %+v", dr)
				}
				if !strings.HasPrefix(jb.ID, "job_") || jb.Type != "drawing_preprocess" || jb.Status != "Queued" || jb.TargetType != "drawing" || jb.TargetID != dr.ID {
					t.Errorf("createDrawing job %+v", jb)
				}
				var rj jobRec
				s.Get(t, key, "/v1/jobs/"+jb.ID).ExpectStatus(t, http.StatusOK).JSON(t, &rj)
				if rj.Type != "drawing_preprocess" || rj.Target == nil || rj.Target.ID != dr.ID {
					t.Errorf("REST sees the GraphQL job as %+v", rj)
				}
				pending := createUpload(t, s, key, p3, "p.pdf", "application/pdf", len(minimalPDF))
				expectGraphQLError(t, s.GraphQL(t, key, `mutation($in: CreateDrawingInput!) { createDrawing(input: $in) { drawing { id } } }`,
					map[string]any{"in": map[string]any{"projectID": p3, "fileID": pending.ID}}), "FILE_NOT_READY", "file_id")

				var ud struct{ UpdateDrawing struct{ ID, Name string } }
				s.GraphQL(t, key, `mutation($id: ID!) { updateDrawing(id: $id, input: {name: "GraphQL Rev 2"}) { id name } }`, map[string]any{"id": dr.ID}).DataInto(t, &ud)
				var rd drawingRec
				s.Get(t, key, "/v1/drawings/"+dr.ID).ExpectStatus(t, http.StatusOK).JSON(t, &rd)
				if ud.UpdateDrawing.Name != "GraphQL Rev 2" || rd.Name != "GraphQL Rev 2" {
					t.Errorf("updateDrawing: %+v, REST %+v", ud.UpdateDrawing, rd)
				}

				var us struct {
					UpdateSheet struct{ ID, SheetNumber, Title, Discipline string }
				}
				s.GraphQL(t, key, `mutation($id: ID!) { updateSheet(id: $id, input: {sheetNumber: "E-501", title: "Lighting", discipline: "electrical"}) { id sheetNumber title discipline } }`,
					map[string]any{"id": f.id["sA3"]}).DataInto(t, &us)
				var rs sheetRec
				s.Get(t, key, "/v1/sheets/"+f.id["sA3"]).ExpectStatus(t, http.StatusOK).JSON(t, &rs)
				if us.UpdateSheet.SheetNumber != "E-501" || rs.SheetNumber != "E-501" || rs.Title != "Lighting" || rs.Discipline != "electrical" {
					t.Errorf("updateSheet: %+v, REST %+v", us.UpdateSheet, rs)
				}
				expectGraphQLError(t, s.GraphQL(t, key, `mutation($id: ID!) { updateSheet(id: $id, input: {discipline: "wizardry"}) { id } }`,
					map[string]any{"id": f.id["sA3"]}), "VALIDATION_ERROR", "discipline")

				expectGraphQLError(t, s.GraphQL(t, key, `mutation($id: ID!) { deleteFile(id: $id) }`, map[string]any{"id": u.File.ID}), "FILE_IN_USE", "")
				var dd struct{ DeleteDrawing string }
				s.GraphQL(t, key, `mutation($id: ID!) { deleteDrawing(id: $id) }`, map[string]any{"id": dr.ID}).DataInto(t, &dd)
				if dd.DeleteDrawing != dr.ID {
					t.Errorf("deleteDrawing returned %q", dd.DeleteDrawing)
				}
				s.Get(t, key, "/v1/drawings/"+dr.ID).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				var df struct{ DeleteFile string }
				s.GraphQL(t, key, `mutation($id: ID!) { deleteFile(id: $id) }`, map[string]any{"id": u.File.ID}).DataInto(t, &df)
				if df.DeleteFile != u.File.ID {
					t.Errorf("deleteFile returned %q", df.DeleteFile)
				}
				s.Get(t, key, "/v1/files/"+u.File.ID).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")

			})
		})
	}
}

// expectGraphQLError checks for one error with extensions.code code naming
// fields in extensions.fields.
func expectGraphQLError(t *testing.T, g testenv.GraphQLResponse, code string, fields ...string) {
	t.Helper()
	if len(g.Errors) != 1 {
		t.Errorf("errors %+v, want one %s", g.Errors, code)
		return
	}
	e := g.Errors[0]
	if e.Extensions["code"] != code {
		t.Errorf("extensions.code %v, want %s (%s)", e.Extensions["code"], code, e.Message)
	}
	fs, _ := e.Extensions["fields"].(map[string]any)
	for _, f := range fields {
		if f != "" && fs[f] == nil {
			t.Errorf("extensions.fields %v do not name %s", e.Extensions["fields"], f)
		}
	}
}
