package server_test

// Search and ask through the real HTTPS server on both profiles: the REST
// envelope and Problem Details, visual search's input, another
// organization's project, and GraphQL parity. What the answers contain is
// tested in internal/service/search over a synthetic set.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/vision/geom"
)

// seedSearch stores a sheet with a legend entry EF and three of its
// instances in a project of key's organization and indexes it.
func seedSearch(t *testing.T, s *testenv.Server, key, org string) string {
	t.Helper()
	p := createProject(t, s, key, "Search")
	ctx := tenant.WithOrg(context.Background(), org)
	db := s.App.Store.Client
	d := db.Drawing.Create().SetProjectID(p.ID).SetName("m.pdf").SetStatus("ready").SaveX(ctx)
	sh := db.Sheet.Create().SetProjectID(p.ID).SetDrawingID(d.ID).SetPageNumber(1).SetSheetNumber("M-201").
		SetSheetNumberNorm("M201").SetTitle("SECOND FLOOR HVAC PLAN").SetDiscipline("mechanical").SetWidth(3000).SetHeight(2000).SaveX(ctx)
	lg := db.Block.Create().SetProjectID(p.ID).SetSheetID(sh.ID).SetType(block.TypeLegend).SetTitle("LEGEND").
		SetBounds(geom.Box{XMin: 2000, YMin: 100, XMax: 2900, YMax: 900}).SaveX(ctx)
	plan := db.Block.Create().SetProjectID(p.ID).SetSheetID(sh.ID).SetType(block.TypePlan).SetTitle("SECOND FLOOR HVAC PLAN").
		SetBounds(geom.Box{XMin: 100, YMin: 100, XMax: 1900, YMax: 1900}).SaveX(ctx)
	ef := db.Feature.Create().SetBlockID(lg.ID).SetKind(feature.KindLegendEntry).SetLabel("EF").SetDescription("CEILING EXHAUST FAN").
		SetBounds(geom.Box{XMin: 10, YMin: 10, XMax: 400, YMax: 60}).SetDedupeKey(org + ":ef").SaveX(ctx)
	for i := range 3 {
		x := float64(100 + 200*i)
		db.Feature.Create().SetBlockID(plan.ID).SetKind(feature.KindSymbolInstance).SetLabel("EF").SetDefinedByID(ef.ID).
			SetBounds(geom.Box{XMin: x, YMin: 100, XMax: x + 40, YMax: 140}).SetDedupeKey(org + ":i" + string(rune('0'+i))).SaveX(ctx)
	}
	if err := index.New(db, s.App.Blobs).RebuildProject(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func TestSearchAPI(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			p.Config.RateVision, p.Config.BurstVision = 1000, 1000 // (the vision limit is tested elsewhere)
			s := startUnlimited(t, p)
			key, rec := s.CreateKeyRecord(t, "acme")
			other := s.CreateKey(t, "globex")
			prj := seedSearch(t, s, key, rec.OrgID)

			var sr struct {
				Data []map[string]any `json:"data"`
				Meta map[string]any   `json:"_meta"`
			}
			res := postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"query": "exhaust fan", "limit": 10}).ExpectStatus(t, http.StatusOK)
			res.JSON(t, &sr)
			if len(sr.Data) == 0 || sr.Meta["semantic"] != false || sr.Meta["visual"] != false {
				t.Fatalf("search: %s", res.Body)
			}
			var sym map[string]any
			for _, h := range sr.Data {
				if h["source_type"] == "symbol" {
					sym = h
				}
			}
			if sym == nil || sym["count"] != 3.0 || sym["sheet_number"] != "M-201" || !strings.Contains(sym["snippet"].(string), "«EXHAUST»") {
				t.Errorf("the symbol result: %v (all: %s)", sym, res.Body)
			}
			// sheet pixels: the instances' union moved by the plan's origin
			if b, _ := sym["bounds"].(map[string]any); b["x_min"] != 200.0 || b["x_max"] != 640.0 || b["y_min"] != 200.0 {
				t.Errorf("symbol bounds %v", sym["bounds"])
			}
			// refusals
			postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"query": "fan", "image_url": "data:image/png;base64,AA"}).
				ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"region": map[string]any{"sheet_id": "sht_x", "bounds": map[string]any{"x_min": 0, "y_min": 0, "x_max": 5, "y_max": 5}}}).
				ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			// a picture over a project whose legend entries have no stored graphic: an empty answer that says why
			var vr struct {
				Data []map[string]any `json:"data"`
				Meta struct {
					Visual bool     `json:"visual"`
					Notes  []string `json:"notes"`
				} `json:"_meta"`
			}
			postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"image_url": squarePNG(t)}).ExpectStatus(t, http.StatusOK).JSON(t, &vr)
			if !vr.Meta.Visual || len(vr.Data) != 0 || len(vr.Meta.Notes) == 0 || !strings.Contains(vr.Meta.Notes[0], "no legend symbol") {
				t.Errorf("visual search without legend graphics: %+v", vr)
			}
			postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"query": ""}).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"query": strings.Repeat("x", 10<<10)}).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"query": "fan", "nonsense": 1}).ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
			postJSON(t, s, other, "/v1/projects/"+prj+"/search", map[string]any{"query": "fan"}).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			postJSON(t, s, other, "/v1/projects/"+prj+"/ask", map[string]any{"question": "how many fans?"}).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
			postJSON(t, s, key, "/v1/projects/"+prj+"/search", map[string]any{"query": `"exhaust" NEAR fan*'`}).ExpectStatus(t, http.StatusOK)

			var ar struct {
				Data struct {
					Answer     string           `json:"answer"`
					Sources    []map[string]any `json:"sources"`
					Confidence float64          `json:"confidence"`
					AnsweredBy string           `json:"answered_by"`
				} `json:"data"`
			}
			res = postJSON(t, s, key, "/v1/projects/"+prj+"/ask", map[string]any{"question": "How many exhaust fans on the second floor?"}).ExpectStatus(t, http.StatusOK)
			res.JSON(t, &ar)
			if !strings.HasPrefix(ar.Data.Answer, "3 ") || ar.Data.AnsweredBy != "index" || len(ar.Data.Sources) != 1 || ar.Data.Sources[0]["count"] != 3.0 {
				t.Errorf("ask: %s", res.Body)
			}

			// GraphQL: the same service
			g := s.GraphQL(t, key, `query($p: ID!) {
				search(projectID: $p, input: {query: "exhaust fan", limit: 10}) { hits { sourceType count sheetNumber why } meta { retrievers semantic } }
				ask(projectID: $p, input: {question: "How many exhaust fans on the second floor?"}) { answer answeredBy sources { sourceType count } }
			}`, map[string]any{"p": prj})
			if len(g.Errors) > 0 {
				t.Fatalf("graphql: %+v", g.Errors)
			}
			var gd struct {
				Search struct {
					Hits []map[string]any `json:"hits"`
				} `json:"search"`
				Ask struct {
					Answer string `json:"answer"`
				} `json:"ask"`
			}
			if err := json.Unmarshal(g.Data, &gd); err != nil {
				t.Fatal(err)
			}
			if len(gd.Search.Hits) != len(sr.Data) || gd.Ask.Answer != ar.Data.Answer {
				t.Errorf("graphql %s differs from REST (%d results, %q)", g.Data, len(sr.Data), ar.Data.Answer)
			}
			g = s.GraphQL(t, key, `query($p: ID!, $u: String!) { search(projectID: $p, input: {imageURL: $u}) { hits { sourceID } meta { visual notes } } }`,
				map[string]any{"p": prj, "u": squarePNG(t)})
			if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"visual":true`) || !strings.Contains(string(g.Data), "no legend symbol") {
				t.Errorf("visual search over GraphQL: %s %+v", g.Data, g.Errors)
			}
			g = s.GraphQL(t, other, `query($p: ID!) { search(projectID: $p, input: {query: "fan"}) { hits { sourceID } } }`, map[string]any{"p": prj})
			if string(g.Data) != `{"search":null}` {
				t.Errorf("another organization's search over GraphQL: %s %+v", g.Data, g.Errors)
			}
		})
	}
}

// squarePNG is a data: URL of a small drawn square.
func squarePNG(t *testing.T) string {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 40, 40))
	for y := range 40 {
		for x := range 40 {
			img.Pix[y*40+x] = 255
			if (x >= 8 && x < 32 && (y == 8 || y == 31)) || (y >= 8 && y < 32 && (x == 8 || x == 31)) {
				img.Pix[y*40+x] = 0
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}
