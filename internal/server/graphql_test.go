package server_test

// GraphQL parity of the management interface, on every profile: filters,
// nodes, and the mutations against what REST sees.

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/testenv"
)

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

func TestManagementGraphQL(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, f := startSeeded(t, p)
			key, keyB := f.key, s.CreateKey(t, "globex")

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
