package server_test

// Files and the drawings made of them, through the real HTTPS server, on
// every profile: signed upload, confirm, download, list and delete of
// files; create (and its job), list, get, patch and delete of drawings.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/ids"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/testenv"
)

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

func TestFileUpload(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key, prj, other := startWithProjects(t, p, "Uploads", "Elsewhere")

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

			t.Run("an upload running at confirm changes nothing", func(t *testing.T) {
				up := createUpload(t, s, key, prj, "raced.pdf", "application/pdf", len(minimalPDF))
				putBytes(t, s, up.UploadURL, "application/pdf", minimalPDF).ExpectStatus(t, http.StatusOK)
				// a second upload of other bytes of the same size, half sent
				other := slices.Clone(minimalPDF)
				copy(other[len(other)-12:], "% replaced\n ")
				pr, pw := io.Pipe()
				req, err := http.NewRequest(http.MethodPut, up.UploadURL, pr)
				if err != nil {
					t.Fatal(err)
				}
				req.ContentLength = int64(len(other))
				req.Header.Set("Content-Type", "application/pdf")
				done := make(chan int, 1)
				go func() {
					hr, err := s.Client.Do(req)
					if err != nil {
						done <- 0
						return
					}
					hr.Body.Close()
					done <- hr.StatusCode
				}()
				if _, err := pw.Write(other[:len(other)/2]); err != nil {
					t.Fatal(err)
				}
				var ready fileRec
				postJSON(t, s, key, "/v1/files/"+up.ID+"/confirm", nil).ExpectStatus(t, http.StatusOK).JSON(t, &ready)
				if _, err := pw.Write(other[len(other)/2:]); err != nil {
					t.Fatal(err)
				}
				pw.Close()
				if code := <-done; code != http.StatusConflict {
					t.Errorf("the upload finishing after confirm: status %d, want 409", code)
				}
				var got fileRec
				s.Get(t, key, "/v1/files/"+up.ID).ExpectStatus(t, http.StatusOK).JSON(t, &got)
				if got.SHA256 == nil || *got.SHA256 != sha256Hex(minimalPDF) || got.DownloadURL == nil {
					t.Fatalf("after the late upload: %+v", got)
				}
				if dl := s.Do(t, testenv.Request{Method: http.MethodGet, Path: *got.DownloadURL}).ExpectStatus(t, http.StatusOK); !bytes.Equal(dl.Body, minimalPDF) {
					t.Errorf("the confirmed file's bytes changed after confirm")
				}
				s.Send(t, http.MethodDelete, key, "/v1/files/"+up.ID, nil).ExpectStatus(t, http.StatusNoContent)
			})

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
// drawings

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

func TestDrawings(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key, prj, other := startWithProjects(t, p, "Tower", "Annex")
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
						expectNamed(t, postJSON(t, s, key, "/v1/drawings", tc.body).ExpectProblem(t, http.StatusBadRequest, tc.code), tc.fields...)
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
