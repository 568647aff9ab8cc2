package server_test

// Parse (POST /v1/parse, the parse mutation) through the real HTTPS server
// on every profile: request validation, the job tree on a synthetic sheet
// for every kind of target, the result shape, the features stored, retries
// that add nothing, organization isolation, idempotency and GraphQL parity.
// How well symbols are found is the matcher's and the legend reader's
// business (their benchmarks); here the plumbing is checked.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/block"
	"github.com/plangraph/plangraph/ent/feature"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/jobs"
	"github.com/plangraph/plangraph/jobs/parse"
	"github.com/plangraph/plangraph/vision/geom"
	"github.com/plangraph/plangraph/vision/symbols"
)

// parseResult is a completed parse job as GET /v1/jobs/{id} shows it.
type parseResult struct {
	JobID       string            `json:"job_id"`
	Type        string            `json:"type"`
	Status      string            `json:"status"`
	Target      *jobTarget        `json:"target"`
	Error       *jobstatus.Error  `json:"error"`
	Results     parse.ParseResult `json:"results"`
	CreatedAt   time.Time         `json:"created_at"`
	CompletedAt *time.Time        `json:"completed_at"`
}

// startParse POSTs a parse request, which must be accepted, and returns the job id.
func startParse(t *testing.T, s *testenv.Server, key string, body map[string]any) string {
	t.Helper()
	res := postJSON(t, s, key, "/v1/parse", body).ExpectStatus(t, http.StatusAccepted)
	raw := res.Object(t)
	data, _ := raw["data"].(map[string]any)
	if len(raw) != 1 || data == nil {
		t.Fatalf("202 body is not {data: …}: %s", res.Body)
	}
	id, _ := data["job_id"].(string)
	if !strings.HasPrefix(id, "job_") || data["type"] != "parse" || data["status"] != "PENDING" {
		t.Errorf("202 data %v, want {job_id: job_…, type: parse, status: PENDING}", data)
	}
	if loc := res.Header.Get("Location"); loc != "/v1/jobs/"+id {
		t.Errorf("Location %q", loc)
	}
	return id
}

// waitJob polls GET /v1/jobs/{id} until the job ends.
func waitJobREST(t *testing.T, s *testenv.Server, key, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(6 * time.Minute)
	for time.Now().Before(deadline) {
		raw := s.Get(t, key, "/v1/jobs/"+id).ExpectStatus(t, http.StatusOK).Object(t)
		if jobstatus.Terminal(fmt.Sprint(raw["status"])) {
			return raw
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("job %s did not finish", id)
	return nil
}

// waitParse waits for a parse job, checks that it completed with exactly
// the specification's result shape, and decodes it.
func waitParse(t *testing.T, s *testenv.Server, key, id string, count bool) parseResult {
	t.Helper()
	raw := waitJobREST(t, s, key, id)
	b, _ := json.Marshal(raw)
	var pr parseResult
	if err := json.Unmarshal(b, &pr); err != nil {
		t.Fatal(err)
	}
	if pr.Status != "Completed" {
		t.Fatalf("parse job %s: status %s, error %+v", id, pr.Status, pr.Error)
	}
	if pr.JobID != id || pr.Type != "parse" || pr.Target == nil || pr.CreatedAt.IsZero() || pr.CompletedAt == nil || pr.CompletedAt.Before(pr.CreatedAt) {
		t.Errorf("parse job %s: %+v", id, pr)
	}
	checkParseShape(t, raw["results"], count)
	return pr
}

// keysOf checks that v is an object whose keys are exactly want (plus
// optional ones).
func keysOf(t *testing.T, what string, v any, want []string, optional ...string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is not an object: %v", what, v)
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("%s has no %q: %v", what, k, m)
		}
	}
	for k := range m {
		if !slices.Contains(want, k) && !slices.Contains(optional, k) {
			t.Errorf("%s has an unexpected %q", what, k)
		}
	}
	return m
}

func checkParseShape(t *testing.T, results any, count bool) {
	t.Helper()
	r := keysOf(t, "results", results, []string{"legend", "symbols", "summary"}, "warnings")
	keysOf(t, "results.summary", r["summary"], []string{"total_symbols_searched", "total_instances_found"})
	legend, ok := r["legend"].([]any)
	if !ok {
		t.Fatalf("results.legend is not an array: %v", r["legend"])
	}
	for i, l := range legend {
		lm := keysOf(t, fmt.Sprintf("legend[%d]", i), l, []string{"block_id", "symbols_detected", "symbols_with_graphic", "symbols"}, "source")
		if lm["block_id"] == nil && lm["source"] != "request" {
			t.Errorf("legend[%d] has no block and is not the request's: %v", i, lm)
		}
		for j, s := range lm["symbols"].([]any) {
			keysOf(t, fmt.Sprintf("legend[%d].symbols[%d]", i, j), s, []string{"feature_id", "label", "description", "has_graphic"})
		}
	}
	symbols, ok := r["symbols"].([]any)
	if !ok {
		t.Fatalf("results.symbols is not an array: %v", r["symbols"])
	}
	for i, s := range symbols {
		want := []string{"label", "description", "legend_feature_id", "instance_count", "instances"}
		if count {
			want = want[:4]
		}
		sm := keysOf(t, fmt.Sprintf("symbols[%d]", i), s, want)
		if count {
			continue
		}
		insts, _ := sm["instances"].([]any)
		if len(insts) == 0 || float64(len(insts)) != sm["instance_count"] {
			t.Errorf("symbols[%d]: %d instances, instance_count %v", i, len(insts), sm["instance_count"])
		}
		for j, in := range insts {
			im := keysOf(t, fmt.Sprintf("symbols[%d].instances[%d]", i, j), in, []string{"feature_id", "block_id", "bounds", "confidence"})
			keysOf(t, "bounds", im["bounds"], []string{"x_min", "y_min", "x_max", "y_max"})
			if c, _ := im["confidence"].(float64); c < 0 || c > 1 {
				t.Errorf("confidence %v outside 0..1", im["confidence"])
			}
		}
	}
}

// pngDataURL encodes img as a data: URL.
func pngDataURL(t *testing.T, img image.Image) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// framed is a w×h white image with a black frame (a "symbol").
func framed(w, h int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for x := 0; x < w; x++ {
		for d := 0; d < 3; d++ {
			img.SetGray(x, d, color.Gray{}) // top and bottom rules
			img.SetGray(x, h-1-d, color.Gray{})
		}
	}
	for y := 0; y < h; y++ {
		for d := 0; d < 3; d++ {
			img.SetGray(d, y, color.Gray{})
			img.SetGray(w-1-d, y, color.Gray{})
		}
	}
	return img
}

// parseFixture is one ingested synthetic sheet.
type parseFixture struct {
	s       *testenv.Server
	key     string
	org     string
	project string
	drawing string
	sheet   string
	legend  string   // the legend block
	views   []string // the view blocks
	pdf     []byte
}

func (f *parseFixture) ctx() context.Context { return tenant.WithOrg(context.Background(), f.org) }

// features are the stored features of kind, by id.
func (f *parseFixture) features(t *testing.T, kind feature.Kind, where ...func(*ent.FeatureQuery)) map[string]*ent.Feature {
	t.Helper()
	q := f.s.App.Store.Client.Feature.Query().Where(feature.KindEQ(kind))
	for _, w := range where {
		w(q)
	}
	fs, err := q.All(f.ctx())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ent.Feature{}
	for _, x := range fs {
		out[x.ID] = x
	}
	return out
}

func sortedIDs[T any](m map[string]T) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// startPipelines starts a server on p for the pipelines' tests: no rate
// limits, and pages rendered at 150 DPI (a quarter of the pixels: the
// plumbing is the same).
func startPipelines(t *testing.T, p testenv.Profile) *testenv.Server {
	t.Helper()
	cfg := p.Config
	cfg.RateManagement, cfg.BurstManagement = 100000, 100000
	cfg.RateVision, cfg.BurstVision = 100000, 100000
	cfg.RenderDPI = 150
	s := testenv.StartServer(t, cfg)
	s.App.Uploads.PublicURL = s.URL
	return s
}

func newParseFixture(t *testing.T, p testenv.Profile, pdf []byte) *parseFixture {
	t.Helper()
	s := startPipelines(t, p)
	key, rec := s.CreateKeyRecord(t, "acme")
	f := &parseFixture{s: s, key: key, org: rec.OrgID, pdf: pdf}
	f.project = createProject(t, s, key, "Parse").ID
	fl := uploadFile(t, s, key, f.project, "set.pdf", "application/pdf", pdf)
	var acc accepted
	postJSON(t, s, key, "/v1/drawings", map[string]any{"project_id": f.project, "file_id": fl.ID}).ExpectStatus(t, http.StatusAccepted).JSON(t, &acc)
	if raw := waitJobREST(t, s, key, acc.Data.JobID); raw["status"] != "Completed" {
		t.Fatalf("ingest: %v", raw)
	}
	f.drawing = acc.Data.Drawing.ID
	sheets := getList[sheetRec](t, s, key, "/v1/sheets?drawing_id="+f.drawing).Data
	if len(sheets) != 1 {
		t.Fatalf("%d sheets", len(sheets))
	}
	f.sheet = sheets[0].ID
	for _, b := range getList[blockRec](t, s, key, "/v1/blocks?limit=100&sheet_id="+f.sheet).Data {
		switch b.Type {
		case "Legend":
			if f.legend == "" {
				f.legend = b.ID
			}
		case "Plan", "Elevation", "Section", "Detail", "Diagram":
			f.views = append(f.views, b.ID)
		}
	}
	if f.legend == "" || len(f.views) == 0 {
		t.Fatalf("the synthetic sheet has no legend or no view block (legend %q, views %v)", f.legend, f.views)
	}
	return f
}

func TestParse(t *testing.T) {
	set, pdf := synthPDF(t, 5)
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			f := newParseFixture(t, p, pdf)
			s, key := f.s, f.key
			t.Run("validation", func(t *testing.T) { parseValidation(t, f) })

			// by sheet: the legend is read, every view block searched
			id := startParse(t, s, key, map[string]any{"features": []string{"symbols"}, "sheet_id": f.sheet})
			pr := waitParse(t, s, key, id, false)
			if *pr.Target != (jobTarget{"sheet", f.sheet}) {
				t.Errorf("target %+v", pr.Target)
			}
			res := pr.Results
			if len(res.Legend) != 1 || res.Legend[0].BlockID == nil || *res.Legend[0].BlockID != f.legend {
				t.Fatalf("results.legend %+v, want the sheet's legend %s", res.Legend, f.legend)
			}
			lg := res.Legend[0]
			if lg.SymbolsDetected == 0 || lg.SymbolsWithGraphic == 0 || lg.SymbolsDetected != len(lg.Symbols) {
				t.Errorf("legend read %d entries, %d with a graphic: %+v", lg.SymbolsDetected, lg.SymbolsWithGraphic, lg)
			}
			entries := f.features(t, feature.KindLegendEntry, func(q *ent.FeatureQuery) { q.Where(feature.BlockID(f.legend)) })
			if len(entries) != lg.SymbolsDetected {
				t.Errorf("%d legend-entry features stored, the result lists %d", len(entries), lg.SymbolsDetected)
			}
			for _, sym := range lg.Symbols {
				e := entries[sym.FeatureID]
				if e == nil || e.Label != sym.Label || e.HasGraphic != sym.HasGraphic {
					t.Errorf("legend symbol %+v is stored as %+v", sym, e)
				}
			}
			// the instances: stored, linked to their legend entry, on the view blocks
			instances := f.features(t, feature.KindSymbolInstance)
			total := 0
			for _, sym := range res.Symbols {
				total += sym.InstanceCount
				if entries[sym.LegendFeatureID] == nil {
					t.Errorf("symbol %q: legend_feature_id %s is not a legend entry of the sheet", sym.Label, sym.LegendFeatureID)
				}
				for _, in := range sym.Instances {
					st := instances[in.FeatureID]
					if st == nil {
						t.Errorf("instance %s is not stored", in.FeatureID)
						continue
					}
					if st.DefinedByID != sym.LegendFeatureID || st.BlockID != in.BlockID || !slices.Contains(f.views, in.BlockID) ||
						st.Bounds != in.Bounds || !in.Bounds.Valid() {
						t.Errorf("instance %+v is stored as %+v", in, st)
					}
				}
			}
			if total != res.Summary.TotalInstancesFound || len(res.Symbols) != res.Summary.TotalSymbolsSearched || total != len(instances) {
				t.Errorf("summary %+v, %d instances listed, %d stored", res.Summary, total, len(instances))
			}
			// the sheet is a PDF drawn as geometry: the symbols are matched as
			// geometry, and each one the generator drew is found where it drew it
			if total == 0 {
				t.Errorf("no instance found on a synthetic sheet with %d drawn; warnings %+v", len(set.Truth.Sheets[0].Instances), res.Warnings)
			}
			origin := map[string]geom.Box{}
			for _, b := range getList[blockRec](t, s, key, "/v1/blocks?limit=100&sheet_id="+f.sheet).Data {
				origin[b.ID] = b.Bounds
			}
			var dets []symbols.Detection
			for _, sym := range res.Symbols {
				for _, in := range sym.Instances {
					o := origin[in.BlockID]
					dets = append(dets, symbols.Detection{Label: sym.Label, Confidence: in.Confidence,
						Box: in.Bounds.Translate(math.Floor(o.XMin), math.Floor(o.YMin))})
				}
			}
			var truth []symbols.Truth
			const scale = 150.0 / 300 // the truth is in 300 DPI pixels
			for _, in := range set.Truth.Sheets[0].Instances {
				b := in.Box
				truth = append(truth, symbols.Truth{Label: in.Label, Box: geom.Box{XMin: b.XMin * scale, YMin: b.YMin * scale, XMax: b.XMax * scale, YMax: b.YMax * scale}})
			}
			var c symbols.Counts
			for _, lc := range symbols.Score(dets, truth, 0.5) {
				c.Add(lc)
			}
			if c.FN != 0 || c.FP != 0 {
				t.Errorf("sheet parse against the generator's %d instances: TP %d FP %d FN %d", len(truth), c.TP, c.FP, c.FN)
			}
			t.Logf("sheet parse: %d legend entries (%d with graphic), %d instances of %d symbols in %s; warnings %+v",
				lg.SymbolsDetected, lg.SymbolsWithGraphic, total, len(res.Symbols), pr.CompletedAt.Sub(pr.CreatedAt), res.Warnings)

			// the job tree: one legend child, one match child per view block, each with its block result
			children := getList[jobRec](t, s, key, "/v1/jobs?limit=100&parent_id="+id).Data
			var legendJobs, matchJobs []jobRec
			for _, c := range children {
				switch c.Type {
				case jobs.TypeLegendParse:
					legendJobs = append(legendJobs, c)
				case jobs.TypeSymbolMatch:
					matchJobs = append(matchJobs, c)
				default:
					t.Errorf("unexpected child %+v", c)
				}
			}
			if len(legendJobs) != 1 || len(matchJobs) != len(f.views) {
				t.Fatalf("%d legend and %d match children, want 1 and %d", len(legendJobs), len(matchJobs), len(f.views))
			}
			legendJob := legendJobs[0].JobID
			for _, c := range matchJobs {
				raw := s.Get(t, key, "/v1/jobs/"+c.JobID).ExpectStatus(t, http.StatusOK).Object(t)
				r := keysOf(t, "block result", raw["results"], []string{"block_id", "symbols", "summary"}, "warnings")
				if raw["status"] != "Completed" || c.Target == nil || r["block_id"] != c.Target.ID {
					t.Errorf("match child %s: %v", c.JobID, raw)
				}
			}

			// the legend's own symbols, to send back as supplied symbols
			var graphic *ent.Feature
			for _, id := range sortedIDs(entries) {
				if e := entries[id]; e.HasGraphic && e.Bounds.Valid() && (graphic == nil || e.Label < graphic.Label) {
					graphic = e
				}
			}
			if graphic == nil {
				t.Fatal("no legend entry with a graphic")
			}
			exemplar, err := blobs.GetPNG(f.ctx(), s.App.Blobs, blobs.FeatureKey(f.org, graphic.ID)+".png")
			if err != nil {
				t.Fatal(err)
			}
			oneSymbol := map[string]any{"legend": []map[string]any{{"label": graphic.Label, "image_url": pngDataURL(t, exemplar)}}}

			// The other targets search for one supplied symbol, or search the
			// (small) legend block itself: the matcher's cost is the sheet
			// parse's, the plumbing differs.
			t.Run("by drawing, with a supplied symbol", func(t *testing.T) {
				id := startParse(t, s, key, map[string]any{"features": []string{"symbols"}, "drawing_id": f.drawing,
					"options": map[string]any{"symbols": oneSymbol}})
				pr := waitParse(t, s, key, id, false)
				if *pr.Target != (jobTarget{"drawing", f.drawing}) || len(pr.Results.Legend) != 1 || pr.Results.Legend[0].Source != "request" {
					t.Fatalf("target %+v, legend %+v", pr.Target, pr.Results.Legend)
				}
				sup := pr.Results.Legend[0].Symbols[0]
				stored := f.features(t, feature.KindSymbolInstance, func(q *ent.FeatureQuery) { q.Where(feature.DefinedByID(sup.FeatureID)) })
				if len(pr.Results.Symbols) != 1 || pr.Results.Symbols[0].LegendFeatureID != sup.FeatureID || len(stored) != pr.Results.Symbols[0].InstanceCount {
					t.Errorf("symbols %+v, %d stored", pr.Results.Symbols, len(stored))
				}
				if len(f.features(t, feature.KindLegendEntry, func(q *ent.FeatureQuery) { q.Where(feature.BlockID(f.legend)) })) != len(entries) {
					t.Error("legend detection ran with supplied symbols")
				}

				t.Run("retries add nothing", func(t *testing.T) {
					// run finished tasks again, as a redelivered task would
					kids := getList[jobRec](t, s, key, "/v1/jobs?limit=100&parent_id="+id).Data
					if len(kids) != len(f.views) {
						t.Fatalf("%d children, %d view blocks", len(kids), len(f.views))
					}
					rerun(t, f, kids[0].JobID)
					rerun(t, f, legendJob)
					after := f.features(t, feature.KindSymbolInstance, func(q *ent.FeatureQuery) { q.Where(feature.DefinedByID(sup.FeatureID)) })
					if !slices.Equal(sortedIDs(after), sortedIDs(stored)) {
						t.Errorf("after a retry %d instances, before %d", len(after), len(stored))
					}
					if e := f.features(t, feature.KindLegendEntry, func(q *ent.FeatureQuery) { q.Where(feature.BlockID(f.legend)) }); !slices.Equal(sortedIDs(e), sortedIDs(entries)) {
						t.Errorf("after a retry %d legend entries, before %d", len(e), len(entries))
					}
					if n := len(f.features(t, feature.KindSymbolInstance)); n != total+len(stored) {
						t.Errorf("%d instances stored, want %d + %d", n, total, len(stored))
					}
				})
			})

			t.Run("by block with legend_block_id, count only", func(t *testing.T) {
				id := startParse(t, s, key, map[string]any{"features": []string{"symbols"}, "block_id": f.legend,
					"options": map[string]any{"symbols": map[string]any{"legend_block_id": f.legend, "count": true}}})
				pr := waitParse(t, s, key, id, true)
				if *pr.Target != (jobTarget{"block", f.legend}) || len(pr.Results.Legend) != 1 || pr.Results.Legend[0].SymbolsDetected != len(entries) {
					t.Errorf("target %+v, legend %+v", pr.Target, pr.Results.Legend)
				}
				for _, sym := range pr.Results.Symbols {
					if sym.Instances != nil || sym.InstanceCount == 0 {
						t.Errorf("count: true gave %+v", sym)
					}
				}
				// the legend's graphics are its own symbols
				if pr.Results.Summary.TotalInstancesFound == 0 {
					t.Errorf("no legend symbol found on the legend itself: %+v", pr.Results)
				}
			})

			t.Run("supplied legend and exemplars", func(t *testing.T) {
				var lb blockRec
				s.Get(t, key, "/v1/blocks/"+f.legend).ExpectStatus(t, http.StatusOK).JSON(t, &lb)
				region := graphic.Bounds.Translate(lb.Bounds.XMin, lb.Bounds.YMin)
				huge := framed(2*int(lb.Bounds.Width())+20, 2*int(lb.Bounds.Height())+20)
				var pngBuf bytes.Buffer
				if err := png.Encode(&pngBuf, exemplar); err != nil {
					t.Fatal(err)
				}
				symbolFile := uploadFile(t, s, key, f.project, "symbol.png", "image/png", pngBuf.Bytes())
				id := startParse(t, s, key, map[string]any{"features": []string{"symbols"}, "block_id": f.legend,
					"options": map[string]any{"symbols": map[string]any{
						"legend": []map[string]any{
							{"label": graphic.Label, "description": "sent as a data URL", "image_url": pngDataURL(t, exemplar)},
							{"label": "TEXT ONLY", "description": "no image"},
							{"label": "HUGE", "image_url": pngDataURL(t, huge)},
							{"label": "FILE", "image_url": "/v1/files/" + symbolFile.ID},
						},
						"exemplars": []map[string]any{
							{"label": graphic.Label + " (cut)", "source": map[string]any{"sheet_id": f.sheet, "bounds": region}},
							{"label": "BLOCK", "image_url": s.URL + "/v1/blocks/" + f.legend + "/image"},
						},
					}}})
				pr := waitParse(t, s, key, id, false)
				if len(pr.Results.Legend) != 1 {
					t.Fatalf("legend %+v, want one item of supplied symbols", pr.Results.Legend)
				}
				sup := pr.Results.Legend[0]
				if sup.BlockID != nil || sup.Source != "request" || sup.SymbolsDetected != 6 || sup.SymbolsWithGraphic != 5 {
					t.Errorf("supplied legend item %+v", sup)
				}
				got := f.features(t, feature.KindLegendEntry, func(q *ent.FeatureQuery) { q.Where(feature.JobID(id)) })
				for _, sym := range sup.Symbols {
					e := got[sym.FeatureID]
					if e == nil || e.BlockID != "" || e.HasGraphic != sym.HasGraphic {
						t.Errorf("supplied %+v stored as %+v", sym, e)
					}
				}
				skipped := false
				for _, w := range pr.Results.Warnings {
					skipped = skipped || (w.Code == parse.WarnSymbolSkipped && w.Label == "HUGE")
				}
				if !skipped {
					t.Errorf("a symbol larger than the block was not reported skipped: %+v", pr.Results.Warnings)
				}
				found := map[string]int{}
				for _, sym := range pr.Results.Symbols {
					found[sym.Label] = sym.InstanceCount
					for _, in := range sym.Instances {
						if in.BlockID != f.legend {
							t.Errorf("instance on block %s, the target is %s", in.BlockID, f.legend)
						}
					}
				}
				// the same image supplied three ways (data URL, file, sheet
				// region) is three identical symbols: the legend's one graphic
				// goes to one of them (cross-symbol suppression keeps one
				// detection per place), and none of them is skipped
				if found[graphic.Label]+found["FILE"]+found[graphic.Label+" (cut)"] == 0 {
					t.Errorf("the legend's own symbol, sent back, was not found on the legend: %v", found)
				}
				for _, w := range pr.Results.Warnings {
					if w.Code == parse.WarnSymbolSkipped && (w.Label == graphic.Label || w.Label == "FILE" || w.Label == graphic.Label+" (cut)") {
						t.Errorf("supplied symbol %s skipped: %+v", w.Label, w)
					}
				}
				t.Logf("supplied symbols found on the legend: %v", found)
			})

			t.Run("by file", func(t *testing.T) {
				fl := uploadFile(t, s, key, f.project, "again.pdf", "application/pdf", f.pdf)
				id := startParse(t, s, key, map[string]any{"features": []string{"symbols"}, "file_id": fl.ID,
					"options": map[string]any{"symbols": map[string]any{"count": true, "legend": oneSymbol["legend"]}}})
				pr := waitParse(t, s, key, id, true)
				if pr.Target.Type != "drawing" || pr.Target.ID == f.drawing {
					t.Fatalf("target %+v, want the new drawing", pr.Target)
				}
				var d drawingRec
				s.Get(t, key, "/v1/drawings/"+pr.Target.ID).ExpectStatus(t, http.StatusOK).JSON(t, &d)
				if d.Status != "ready" || d.FileID == nil || *d.FileID != fl.ID {
					t.Errorf("drawing made from the file: %+v", d)
				}
				if len(pr.Results.Symbols) != 1 || pr.Results.Symbols[0].InstanceCount == 0 {
					t.Errorf("symbols %+v", pr.Results.Symbols)
				}
				kids := getList[jobRec](t, s, key, "/v1/jobs?limit=100&parent_id="+id).Data
				if !slices.ContainsFunc(kids, func(j jobRec) bool { return j.Type == jobs.TypeDrawingPreprocess }) {
					t.Errorf("no drawing_preprocess child: %+v", kids)
				}
			})

			t.Run("idempotency", func(t *testing.T) {
				// a text-only symbol: nothing to search, a quick job
				body := map[string]any{"features": []string{"symbols"}, "block_id": f.legend,
					"options": map[string]any{"symbols": map[string]any{"legend": []map[string]any{{"label": "NIC", "description": "not in contract"}}}}}
				send := func() *testenv.Response {
					return s.Do(t, testenv.Request{Method: http.MethodPost, Path: "/v1/parse", Key: key, Body: body,
						Header: http.Header{"Idempotency-Key": {"parse-once"}}}).ExpectStatus(t, http.StatusAccepted)
				}
				a, b := send(), send()
				if !bytes.Equal(a.Body, b.Body) || b.Header.Get("Idempotency-Status") != "hit" {
					t.Errorf("repeat: %s / %s (%s)", a.Body, b.Body, b.Header.Get("Idempotency-Status"))
				}
				var acc accepted
				a.JSON(t, &acc)
				pr := waitParse(t, s, key, acc.Data.JobID, false)
				if len(pr.Results.Legend) != 1 || pr.Results.Legend[0].SymbolsWithGraphic != 0 || len(pr.Results.Symbols) != 0 {
					t.Errorf("a text-only legend: %+v", pr.Results)
				}
				if n := len(getList[jobRec](t, s, key, "/v1/jobs?limit=100&type=parse&target_id="+f.legend).Data); n == 0 {
					t.Error("no parse job of the legend block")
				}
			})

			t.Run("another organization", func(t *testing.T) {
				other := s.CreateKey(t, "globex")
				for _, body := range []map[string]any{
					{"features": []string{"symbols"}, "sheet_id": f.sheet},
					{"features": []string{"symbols"}, "drawing_id": f.drawing},
					{"features": []string{"symbols"}, "block_id": f.views[0], "options": map[string]any{"symbols": map[string]any{"legend_block_id": f.legend}}},
				} {
					postJSON(t, s, other, "/v1/parse", body).ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				}
				otherPrj := createProject(t, s, other, "Globex").ID
				otherFile := uploadFile(t, s, other, otherPrj, "g.pdf", "application/pdf", minimalPDF)
				postJSON(t, s, key, "/v1/parse", map[string]any{"features": []string{"symbols"}, "file_id": otherFile.ID}).
					ExpectProblem(t, http.StatusNotFound, "NOT_FOUND")
				// its block may not be used as a symbol image either
				p := postJSON(t, s, other, "/v1/parse", map[string]any{"features": []string{"symbols"}, "file_id": otherFile.ID,
					"options": map[string]any{"symbols": map[string]any{"legend": []map[string]any{{"label": "X", "image_url": "/v1/blocks/" + f.legend + "/image"}}}}}).
					ExpectProblem(t, http.StatusBadRequest, "VALIDATION_ERROR")
				if p.Errors["options.symbols.legend[0].image_url"] == nil {
					t.Errorf("errors %v", p.Errors)
				}
				// and its key sees nothing of this organization's features
				g := s.GraphQL(t, other, `query($id: ID!) { sheet(id: $id) { id } features { totalCount } }`, map[string]any{"id": f.sheet})
				var out struct {
					Sheet    *struct{ ID string }
					Features struct{ TotalCount int }
				}
				g.DataInto(t, &out)
				if out.Sheet != nil || out.Features.TotalCount != 0 {
					t.Errorf("another organization sees %+v", out)
				}
			})

			t.Run("a drawing ingested before geometry was kept", func(t *testing.T) {
				// the parse reads the page's geometry from the PDF, keeps it
				// and finds what it found with it
				vk := blobs.VectorsKey(blobs.SheetKey(f.org, f.drawing, 1))
				if err := s.App.Blobs.Delete(f.ctx(), vk); err != nil {
					t.Fatal(err)
				}
				id := startParse(t, s, key, map[string]any{"features": []string{"symbols"}, "sheet_id": f.sheet})
				again := waitParse(t, s, key, id, false).Results
				if ok, err := s.App.Blobs.Exists(f.ctx(), vk); !ok || err != nil {
					t.Errorf("the sheet's geometry was not stored again (%v)", err)
				}
				if again.Summary != res.Summary {
					t.Errorf("summary %+v, the first parse %+v", again.Summary, res.Summary)
				}
			})

			t.Run("graphql", func(t *testing.T) { parseGraphQL(t, f, oneSymbol) })

			t.Run("the blob sweep keeps what rows name", func(t *testing.T) { sweepKeepsNamed(t, f) })

			// last: deletions take what the drawings stored with them
			t.Run("deleting removes stored images", func(t *testing.T) { deleteStored(t, f) })
		})
	}
}

// deleteStored deletes the fixture's drawing, then its project, and checks
// that the stored page images, tiles, block images, words and exemplars
// (and then the project's file bytes) go with them.
func deleteStored(t *testing.T, f *parseFixture) {
	ctx := f.ctx()
	bucket := f.s.App.Blobs
	keys := func(prefix string) []string {
		// a file deleted while the listing walks past it (the deletion
		// task runs as this polls) fails the listing: list again
		for attempt := 0; ; attempt++ {
			var out []string
			it := bucket.List(&blob.ListOptions{Prefix: prefix})
			for {
				o, err := it.Next(context.Background())
				if err == io.EOF {
					return out
				}
				if gcerrors.Code(err) == gcerrors.NotFound && attempt < 20 {
					time.Sleep(20 * time.Millisecond)
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, o.Key)
			}
		}
	}
	db := f.s.App.Store.Client
	exemplars := f.features(t, feature.KindLegendEntry, func(q *ent.FeatureQuery) { q.Where(feature.HasBlockWith(block.SheetID(f.sheet))) })
	mine := []string{blobs.DrawingKeyPrefix(f.org, f.drawing), blobs.BlockKey(f.org, f.legend) + "."}
	for _, v := range f.views {
		mine = append(mine, blobs.BlockKey(f.org, v)+".")
	}
	for id, x := range exemplars {
		if x.HasGraphic {
			mine = append(mine, blobs.FeatureKey(f.org, id)+".")
		}
	}
	for _, p := range mine {
		if len(keys(p)) == 0 {
			t.Fatalf("nothing stored under %s before the deletion", p)
		}
	}
	others := len(keys("sheets/" + f.org + "/"))
	f.s.Send(t, http.MethodDelete, f.key, "/v1/drawings/"+f.drawing, nil).ExpectStatus(t, http.StatusNoContent)
	waitFor(t, time.Minute, "the deleted drawing's images are removed", func() bool {
		for _, p := range mine {
			if len(keys(p)) > 0 {
				return false
			}
		}
		return true
	})
	// the project's other drawing (made by "by file") keeps its images
	if n := len(keys("sheets/" + f.org + "/")); n == 0 || n >= others {
		t.Errorf("page images of the organization: %d before, %d after deleting one drawing", others, n)
	}
	files, err := db.File.Query().Where(file.ProjectID(f.project)).All(ctx)
	if err != nil || len(files) == 0 {
		t.Fatalf("files of the project: %d, %v", len(files), err)
	}
	f.s.Send(t, http.MethodDelete, f.key, "/v1/projects/"+f.project, nil).ExpectStatus(t, http.StatusNoContent)
	waitFor(t, time.Minute, "the deleted project's images, exemplars and files are removed", func() bool {
		for _, p := range []string{"sheets/" + f.org + "/", "blocks/" + f.org + "/", "features/" + f.org + "/"} {
			if len(keys(p)) > 0 {
				return false
			}
		}
		for _, fl := range files {
			if ok, _ := bucket.Exists(context.Background(), fl.StorageKey); ok {
				return false
			}
		}
		return true
	})
}

// rerun runs a finished job's task again, as a redelivered or retried task.
func rerun(t *testing.T, f *parseFixture, id string) {
	t.Helper()
	testenv.Redeliver(t, f.ctx(), f.s.App.Store.Client, f.s.App.Queue, id)
	if raw := waitJobREST(t, f.s, f.key, id); raw["status"] != "Completed" {
		t.Errorf("rerun of %s: %v", id, raw)
	}
}

func parseValidation(t *testing.T, f *parseFixture) {
	s, key := f.s, f.key
	sheet := map[string]any{"sheet_id": f.sheet}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{"features": []string{"symbols"}, "sheet_id": f.sheet}
		for k, v := range extra {
			if v == nil {
				delete(out, k)
			} else {
				out[k] = v
			}
		}
		return out
	}
	symbolsOpt := func(o map[string]any) map[string]any { return map[string]any{"options": map[string]any{"symbols": o}} }
	blank := image.NewGray(image.Rect(0, 0, 40, 40))
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	cases := []struct {
		name   string
		body   any
		status int
		code   string
		fields []string
		says   string
	}{
		{"features missing", sheet, 400, "VALIDATION_ERROR", []string{"features"}, "required"},
		{"features empty", with(map[string]any{"features": []string{}}), 400, "VALIDATION_ERROR", []string{"features"}, ""},
		{"coming soon: legend", with(map[string]any{"features": []string{"symbols", "legend"}}), 400, "VALIDATION_ERROR", []string{"features"}, `"legend" is coming soon`},
		{"coming soon: rooms", with(map[string]any{"features": []string{"rooms"}}), 400, "VALIDATION_ERROR", []string{"features"}, `"rooms" is coming soon`},
		{"coming soon: title_block", with(map[string]any{"features": []string{"title_block"}}), 400, "VALIDATION_ERROR", []string{"features"}, "coming soon"},
		{"unknown feature", with(map[string]any{"features": []string{"walls"}}), 400, "VALIDATION_ERROR", []string{"features"}, "not a parse feature"},
		{"no target", map[string]any{"features": []string{"symbols"}}, 400, "VALIDATION_ERROR", []string{"sheet_id", "block_id", "drawing_id", "file_id"}, ""},
		{"two targets", with(map[string]any{"drawing_id": f.drawing}), 400, "VALIDATION_ERROR", []string{"sheet_id", "drawing_id"}, ""},
		{"block without a legend", map[string]any{"features": []string{"symbols"}, "block_id": f.views[0]}, 400, "VALIDATION_ERROR", []string{"options.symbols.legend_block_id"}, ""},
		{"mep system", with(map[string]any{"options": map[string]any{"mep": map[string]any{"systems": []string{"gas"}}}}), 400, "VALIDATION_ERROR", []string{"options.mep.systems"}, ""},
		{"dimension units", with(map[string]any{"options": map[string]any{"dimensions": map[string]any{"units": "cubits"}}}), 400, "VALIDATION_ERROR", []string{"options.dimensions.units"}, ""},
		{"annotation type", with(map[string]any{"options": map[string]any{"annotations": map[string]any{"types": []string{"doodle"}}}}), 400, "VALIDATION_ERROR", []string{"options.annotations.types"}, ""},
		{"text region", with(map[string]any{"options": map[string]any{"text": map[string]any{"regions": []string{"margins"}}}}), 400, "VALIDATION_ERROR", []string{"options.text.regions"}, ""},
		{"unknown option", with(map[string]any{"options": map[string]any{"colour": true}}), 400, "VALIDATION_ERROR", []string{"colour"}, ""},
		{"legend label missing", with(symbolsOpt(map[string]any{"legend": []map[string]any{{"description": "x"}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.legend[0].label"}, "required"},
		{"exemplar without image", with(symbolsOpt(map[string]any{"exemplars": []map[string]any{{"label": "A"}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.exemplars[0]"}, ""},
		{"exemplar bounds", with(symbolsOpt(map[string]any{"exemplars": []map[string]any{{"label": "A", "source": map[string]any{"sheet_id": f.sheet,
			"bounds": geom.Box{XMin: 10, YMin: 10, XMax: 5, YMax: 20}}}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.exemplars[0].source.bounds"}, ""},
		{"exemplar outside the sheet", with(symbolsOpt(map[string]any{"exemplars": []map[string]any{{"label": "A", "source": map[string]any{"sheet_id": f.sheet,
			"bounds": geom.Box{XMin: 10, YMin: 10, XMax: 1e6, YMax: 20}}}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.exemplars[0].source.bounds"}, ""},
		{"unreadable data URL", with(symbolsOpt(map[string]any{"legend": []map[string]any{{"label": "A", "image_url": "data:image/png;base64,bm90IGEgcG5n"}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.legend[0].image_url"}, ""},
		{"bad base64", with(symbolsOpt(map[string]any{"legend": []map[string]any{{"label": "A", "image_url": "data:image/png;base64,%%%"}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.legend[0].image_url"}, ""},
		{"blank image", with(symbolsOpt(map[string]any{"legend": []map[string]any{{"label": "A", "image_url": pngDataURL(t, blank)}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.legend[0].image_url"}, "blank"},
		{"a PDF is no symbol", with(symbolsOpt(map[string]any{"legend": []map[string]any{{"label": "A", "image_url": "data:application/pdf;base64," + base64.StdEncoding.EncodeToString(minimalPDF)}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.legend[0].image_url"}, ""},
		{"foreign URL", with(symbolsOpt(map[string]any{"legend": []map[string]any{{"label": "A", "image_url": "https://example.com/door.png"}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.legend[0].image_url"}, "allowed no hosts"},
		{"metadata URL", with(symbolsOpt(map[string]any{"legend": []map[string]any{{"label": "A", "image_url": "http://169.254.169.254/latest/meta-data/"}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.legend[0].image_url"}, ""},
		{"own URL of another resource", with(symbolsOpt(map[string]any{"legend": []map[string]any{{"label": "A", "image_url": "/v1/projects/" + f.project}}})), 400, "VALIDATION_ERROR", []string{"options.symbols.legend[0].image_url"}, ""},
		{"missing sheet", with(map[string]any{"sheet_id": "sht_00000000000000000000000000"}), 404, "NOT_FOUND", nil, ""},
		{"missing legend block", with(symbolsOpt(map[string]any{"legend_block_id": "blk_00000000000000000000000000"})), 404, "NOT_FOUND", nil, ""},
		{"missing file", map[string]any{"features": []string{"symbols"}, "file_id": "fil_00000000000000000000000000"}, 404, "NOT_FOUND", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := postJSON(t, s, key, "/v1/parse", tc.body).ExpectProblem(t, tc.status, tc.code)
			expectNamed(t, p, tc.fields...)
			if tc.says != "" && !strings.Contains(strings.ToLower(fmt.Sprint(p.Errors)+p.Detail), strings.ToLower(tc.says)) {
				t.Errorf("the problem does not say %q: %+v", tc.says, p)
			}
		})
	}
	// a file not yet confirmed
	up := createUpload(t, s, key, f.project, "pending.pdf", "application/pdf", len(minimalPDF))
	postJSON(t, s, key, "/v1/parse", map[string]any{"features": []string{"symbols"}, "file_id": up.ID}).ExpectProblem(t, http.StatusBadRequest, "FILE_NOT_READY")
	// nothing was queued by any of them
	if n := len(getList[jobRec](t, s, key, "/v1/jobs?type=parse").Data); n != 0 {
		t.Errorf("%d parse jobs after invalid requests", n)
	}
}

func parseGraphQL(t *testing.T, f *parseFixture, oneSymbol map[string]any) {
	s, key := f.s, f.key
	// the mutation validates as REST does
	g := s.GraphQL(t, key, `mutation($in: ParseInput!) { parse(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"features": []string{"notes"}, "sheetID": f.sheet}})
	expectGraphQLError(t, g, "VALIDATION_ERROR", "features")
	g = s.GraphQL(t, key, `mutation($in: ParseInput!) { parse(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"features": []string{"symbols"}, "sheetID": "sht_00000000000000000000000000"}})
	expectGraphQLError(t, g, "NOT_FOUND")
	// the legend block searched for one of its own symbols (small and quick)
	sym := oneSymbol["legend"].([]map[string]any)[0]
	var started struct {
		Parse struct {
			ID, Type, Status, TargetType, TargetID string
		}
	}
	s.GraphQL(t, key, `mutation($in: ParseInput!) { parse(input: $in) { id type status targetType targetID } }`,
		map[string]any{"in": map[string]any{"features": []string{"symbols"}, "blockID": f.legend,
			"options": map[string]any{"symbols": map[string]any{"count": true, "legend": []map[string]any{{"label": sym["label"], "imageURL": sym["image_url"]}}}}}}).DataInto(t, &started)
	if started.Parse.Type != "parse" || started.Parse.TargetType != "block" || started.Parse.TargetID != f.legend {
		t.Errorf("parse mutation: %+v", started)
	}
	pr := waitParse(t, s, key, started.Parse.ID, true)

	// legend entries and instances on sheets and blocks, linked by definedBy
	var out struct {
		Sheet struct {
			LegendEntries   conn `json:"legendEntries"`
			SymbolInstances conn `json:"symbolInstances"`
		}
		Legend struct {
			LegendEntries   conn `json:"legendEntries"`
			SymbolInstances conn `json:"symbolInstances"`
		}
		Job struct {
			Result parse.ParseResult
		}
	}
	s.GraphQL(t, key, `query($sheet: ID!, $legend: ID!, $job: ID!) {
		sheet(id: $sheet) {
			legendEntries(first: 100) { totalCount edges { node { id label hasGraphic kind blockID } } }
			symbolInstances(first: 5) { totalCount edges { node { id kind blockID } } }
		}
		legend: block(id: $legend) {
			legendEntries { totalCount }
			symbolInstances(first: 100) { totalCount edges { node { id kind blockID confidence bounds { xMin yMin xMax yMax } definedBy { id label kind } } } }
		}
		job(id: $job) { result }
	}`, map[string]any{"sheet": f.sheet, "legend": f.legend, "job": started.Parse.ID}).DataInto(t, &out)
	entries := f.features(t, feature.KindLegendEntry, func(q *ent.FeatureQuery) { q.Where(feature.BlockID(f.legend)) })
	if out.Sheet.LegendEntries.TotalCount != len(entries) || out.Legend.LegendEntries.TotalCount != len(entries) {
		t.Errorf("legend entries: sheet %d, block %d; stored %d", out.Sheet.LegendEntries.TotalCount, out.Legend.LegendEntries.TotalCount, len(entries))
	}
	for _, e := range out.Sheet.LegendEntries.Edges {
		if e.Node.Kind != "legend_entry" || entries[e.Node.ID] == nil || e.Node.BlockID == nil || *e.Node.BlockID != f.legend {
			t.Errorf("legend entry %+v", e.Node)
		}
	}
	onSheet := f.features(t, feature.KindSymbolInstance, func(q *ent.FeatureQuery) { q.Where(feature.HasBlockWith(block.SheetID(f.sheet))) })
	if out.Sheet.SymbolInstances.TotalCount != len(onSheet) {
		t.Errorf("sheet symbolInstances %d, stored %d", out.Sheet.SymbolInstances.TotalCount, len(onSheet))
	}
	onLegend := f.features(t, feature.KindSymbolInstance, func(q *ent.FeatureQuery) { q.Where(feature.BlockID(f.legend)) })
	if out.Legend.SymbolInstances.TotalCount != len(onLegend) || len(onLegend) == 0 {
		t.Errorf("legend block symbolInstances %d, stored %d", out.Legend.SymbolInstances.TotalCount, len(onLegend))
	}
	for _, e := range out.Legend.SymbolInstances.Edges {
		st := onLegend[e.Node.ID]
		if e.Node.Kind != "symbol_instance" || e.Node.DefinedBy == nil || e.Node.DefinedBy.Kind != "legend_entry" || e.Node.Confidence == nil ||
			st == nil || st.DefinedByID != e.Node.DefinedBy.ID || e.Node.Bounds == nil || e.Node.Bounds.XMax != st.Bounds.XMax {
			t.Errorf("instance %+v", e.Node)
		}
	}
	if out.Job.Result.Summary != pr.Results.Summary || len(out.Job.Result.Symbols) != len(pr.Results.Symbols) {
		t.Errorf("job.result through GraphQL %+v, REST %+v", out.Job.Result.Summary, pr.Results.Summary)
	}
}

type conn struct {
	TotalCount int `json:"totalCount"`
	Edges      []struct {
		Node struct {
			ID         string
			Kind       string
			Label      string
			HasGraphic bool
			BlockID    *string
			Confidence *float64
			Bounds     *struct{ XMin, YMin, XMax, YMax float64 }
			DefinedBy  *struct{ ID, Label, Kind string }
		}
	}
}
