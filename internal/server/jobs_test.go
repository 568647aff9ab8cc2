package server_test

// Pagination of the jobs list (another list than projects), on every
// profile.

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent/job"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
)

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
