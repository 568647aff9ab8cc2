package search_test

// Search and ask on both profiles over a project seeded from a synthetic
// set's ground truth (internal/tools/synth): sheets with their numbers,
// titles and disciplines, blocks, legend entries, symbol instances linked
// to their entries, and the texts of the sheets as stored words. The vision
// pipeline that produces these rows from a PDF is tested elsewhere; here the
// index, the retrievers and the answers are checked against the truth.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"gocloud.dev/blob"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/blobs"
	"github.com/plangraph/plangraph/internal/search/index"
	"github.com/plangraph/plangraph/internal/service/base"
	"github.com/plangraph/plangraph/internal/service/search"
	"github.com/plangraph/plangraph/internal/sheetmeta"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
	"github.com/plangraph/plangraph/internal/testenv"
	"github.com/plangraph/plangraph/internal/tools/synth"
	"github.com/plangraph/plangraph/internal/tools/synthdb"
)

// fixture is a seeded project and what the truth says about it.
type fixture struct {
	svc     *search.Service
	ctx     context.Context
	project string
	drawing string
	truth   synth.Truth
	sheets  []*ent.Sheet   // by truth page
	blocks  [][]*ent.Block // by truth page, block index
	// unparsed is the page (index) seeded without symbol search
	unparsed int
}

const orgA, orgB = "org_search_a", "org_search_b"

func open(t *testing.T, databaseURL string) (*store.Store, *blob.Bucket) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, databaseURL, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	bucket, err := blobs.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bucket.Close(); st.Close() })
	return st, bucket
}

// seed stores the set as org's project: every sheet ingested, every
// sheet but the last parsed (its instances stored, a completed symbol
// match job per plan block), then builds the index.
func seed(t *testing.T, st *store.Store, bucket *blob.Bucket, org string, set *synth.Set) *fixture {
	t.Helper()
	f := seedUnindexed(t, st, bucket, org, set)
	if err := f.svc.Index().RebuildProject(f.ctx, f.project); err != nil {
		t.Fatal(err)
	}
	return f
}

// seedUnindexed is seed without the index; a one-sheet set's sheet is
// parsed.
func seedUnindexed(t *testing.T, st *store.Store, bucket *blob.Bucket, org string, set *synth.Set) *fixture {
	t.Helper()
	ctx := tenant.WithOrg(context.Background(), org)
	db := st.Client
	f := &fixture{svc: &search.Service{Deps: &base.Deps{DB: db, Blobs: bucket}}, ctx: ctx, truth: set.Truth}
	p := db.Project.Create().SetName("synthetic").SaveX(ctx)
	f.project = p.ID
	f.unparsed = len(set.Truth.Sheets) - 1
	if len(set.Truth.Sheets) == 1 {
		f.unparsed = -1
	}
	d, err := synthdb.Drawing(ctx, db, bucket, p.ID, "set.pdf", set.Truth, f.unparsed)
	if err != nil {
		t.Fatal(err)
	}
	f.drawing, f.sheets, f.blocks = d.ID, d.Sheets, d.Blocks
	return f
}

func genSet(t *testing.T) *synth.Set {
	t.Helper()
	set, err := synth.Generate(synth.Options{Seed: 11, Sheets: 8})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestSearchAndAsk(t *testing.T) {
	set := genSet(t)
	for _, p := range []struct{ name, url string }{{"embedded", ""}, {"postgres", testenv.Postgres(t)}} {
		t.Run(p.name, func(t *testing.T) {
			st, bucket := open(t, p.url)
			f := seed(t, st, bucket, orgA, set)
			t.Run("counts", func(t *testing.T) { testCounts(t, f) })
			t.Run("sheets", func(t *testing.T) { testSheetLists(t, f) })
			t.Run("lookup", func(t *testing.T) { testLookups(t, f) })
			t.Run("search", func(t *testing.T) { testSearch(t, f) })
			t.Run("rebuild", func(t *testing.T) { testRebuild(t, f) })
			t.Run("bad input", func(t *testing.T) { testBadInput(t, f) })
			t.Run("isolation", func(t *testing.T) { testIsolation(t, st, bucket, f) })
			t.Run("revisions", func(t *testing.T) { testRevisions(t, f) })
			t.Run("changes", func(t *testing.T) { testChanges(t, f) })
		})
	}
}

// kindCount is the truth's count of the instances of legend entries with
// description desc on the parsed sheets, per sheet number, on the blocks
// whose title (else whose sheet's title) passes onFloor.
func (f *fixture) kindCount(desc string, onFloor func(string) bool) (int, map[string]int) {
	per := map[string]int{}
	total := 0
	for pi, st := range f.truth.Sheets {
		if pi == f.unparsed {
			continue
		}
		for _, in := range st.Instances {
			e := st.Blocks[in.LegendBlock].Entries[in.LegendEntry]
			if e.Description != desc {
				continue
			}
			title := st.Blocks[in.Block].Title
			if !strings.Contains(title, "FLOOR") {
				title = st.Title
			}
			if onFloor != nil && !onFloor(title) {
				continue
			}
			per[st.SheetNumber]++
			total++
		}
	}
	return total, per
}

func ask(t *testing.T, f *fixture, q string) *search.Answer {
	t.Helper()
	a, err := f.svc.Ask(f.ctx, f.project, search.AskInput{Question: q, MaxSources: 20})
	if err != nil {
		t.Fatalf("ask %q: %v", q, err)
	}
	if a.AnsweredBy != "index" {
		t.Errorf("ask %q: answered_by %q", q, a.AnsweredBy)
	}
	return a
}

func testCounts(t *testing.T, f *fixture) {
	// every symbol kind the truth places on the parsed sheets whose
	// description is not contained in another kind's
	descs := map[string]bool{}
	for pi, st := range f.truth.Sheets {
		for _, in := range st.Instances {
			if pi != f.unparsed {
				descs[st.Blocks[in.LegendBlock].Entries[in.LegendEntry].Description] = true
			}
		}
	}
	all := all2map(f)
	checked := 0
	for desc := range descs {
		if contained(desc, all) {
			continue
		}
		want, per := f.kindCount(desc, nil)
		a := ask(t, f, "How many "+strings.ToLower(desc)+"?")
		if a.QuestionType != "count" || !strings.HasPrefix(a.Answer, fmt.Sprint(want)+" ") {
			t.Errorf("how many %s: %q, want %d", desc, a.Answer, want)
			continue
		}
		checkCountSources(t, a, per, desc)
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d symbol kinds checked", checked)
	}
	// a floor: a kind placed on the second floor and elsewhere
	second := func(title string) bool { return strings.Contains(title, "SECOND FLOOR") }
	floors := 0
	for desc := range descs {
		want, per := f.kindCount(desc, second)
		if all, _ := f.kindCount(desc, nil); contained(desc, all2map(f)) || want == 0 || want == all {
			continue
		}
		for _, q := range []string{"how many " + strings.ToLower(desc) + " on the second floor?", "How many " + strings.ToLower(desc) + "s are there on the 2nd floor?"} {
			a := ask(t, f, q)
			if !strings.HasPrefix(a.Answer, fmt.Sprint(want)+" ") || a.Confidence < 0.5 {
				t.Errorf("%q: %q (confidence %.1f), want %d", q, a.Answer, a.Confidence, want)
			}
			checkCountSources(t, a, per, desc)
		}
		floors++
	}
	if floors < 2 {
		t.Fatalf("only %d kinds tested on a floor", floors)
	}
	// exhaust fans by their vocabulary name and abbreviation
	all2, per := f.kindCount("CEILING EXHAUST FAN", nil)
	if all2 == 0 {
		t.Fatal("the set has no exhaust fan")
	}
	for _, q := range []string{"how many exhaust fans?", "How many EFs are there?", "how many EF"} {
		a := ask(t, f, q)
		if !strings.HasPrefix(a.Answer, fmt.Sprint(all2)+" ") {
			t.Errorf("%q: %q, want %d", q, a.Answer, all2)
		}
		checkCountSources(t, a, per, "CEILING EXHAUST FAN")
	}
	// a sheet that was never parsed is named, not counted
	un := f.truth.Sheets[f.unparsed]
	a := ask(t, f, "how many exhaust fans?")
	if !strings.HasPrefix(a.Answer, fmt.Sprint(all2)+" ") || !strings.Contains(a.Answer, "never parsed") || !strings.Contains(a.Answer, un.SheetNumber) {
		t.Errorf("how many exhaust fans: %q, want %d and sheet %s named as never parsed", a.Answer, all2, un.SheetNumber)
	}
	// something no legend has: no number
	a = ask(t, f, "how many unicorn stables?")
	if a.Confidence != 0 || len(a.Sources) != 0 || strings.ContainsAny(a.Answer, "0123456789") {
		t.Errorf("unknown symbol: %+v", a)
	}
}

// contained says whether desc's words are all words of another description
// (asking for it would rightly count both).
// all2map lists every legend description of the set.
func all2map(f *fixture) map[string]bool {
	all := map[string]bool{}
	for _, st := range f.truth.Sheets {
		for _, b := range st.Blocks {
			for _, e := range b.Entries {
				all[e.Description] = true
			}
		}
	}
	return all
}

func contained(desc string, all map[string]bool) bool {
	words := strings.FieldsFunc(desc, func(r rune) bool { return r == ' ' || r == ',' })
	for o := range all {
		if o == desc {
			continue
		}
		ow := strings.FieldsFunc(o, func(r rune) bool { return r == ' ' || r == ',' })
		in := true
		for _, w := range words {
			in = in && slices.Contains(ow, w)
		}
		if in {
			return true
		}
	}
	return false
}

// checkCountSources: the sources are symbol rows of the kind whose counts
// are the truth's per sheet.
func checkCountSources(t *testing.T, a *search.Answer, per map[string]int, desc string) {
	t.Helper()
	got := map[string]int{}
	for _, s := range a.Sources {
		if s.SourceType != "symbol" || s.Count == nil || !strings.Contains(unmark(s.Snippet), desc) {
			t.Errorf("source %+v is not a count of %s", s, desc)
			continue
		}
		got[s.SheetNumber] += *s.Count
	}
	for sh, n := range per {
		if got[sh] != n {
			t.Errorf("%s: sources count %d on %s, truth %d (answer %q)", desc, got[sh], sh, n, a.Answer)
		}
		if !strings.Contains(a.Answer, fmt.Sprintf("%d on %s", n, sh)) {
			t.Errorf("%s: answer %q does not give %d on %s", desc, a.Answer, n, sh)
		}
	}
}

// unmark removes the marks of matched words.
func unmark(s string) string { return strings.NewReplacer("«", "", "»", "").Replace(s) }

func testSheetLists(t *testing.T, f *fixture) {
	for _, disc := range []string{"electrical", "mechanical"} {
		var want []string
		for _, st := range f.truth.Sheets {
			if st.Discipline == disc {
				want = append(want, st.SheetNumber)
			}
		}
		if len(want) == 0 {
			t.Fatalf("the set has no %s sheet", disc)
		}
		a := ask(t, f, "Which sheets are "+disc+"?")
		if a.QuestionType != "sheets" || !strings.HasPrefix(a.Answer, fmt.Sprint(len(want))+" ") {
			t.Errorf("%s sheets: %q, want %v", disc, a.Answer, want)
		}
		var got []string
		for _, s := range a.Sources {
			got = append(got, s.SheetNumber)
			if s.SourceType != "sheet" {
				t.Errorf("source %+v is not a sheet", s)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s sheets cited %v, want %v", disc, got, want)
		}
	}
}

func testLookups(t *testing.T, f *fixture) {
	// a schedule by its title
	found := false
	for pi, st := range f.truth.Sheets {
		for bi, bt := range st.Blocks {
			if bt.Type != "Schedule" || bt.Title == "" || found {
				continue
			}
			found = true
			a := ask(t, f, "Where is the "+strings.ToLower(bt.Title)+"?")
			if a.QuestionType != "lookup" || len(a.Sources) == 0 || !strings.Contains(a.Answer, st.SheetNumber) || a.Confidence < 0.5 {
				t.Errorf("where is %s: %+v", bt.Title, a)
				continue
			}
			// the block is cited (another block of the same title may come too)
			ids := []string{}
			for _, s := range a.Sources {
				ids = append(ids, s.SourceID)
			}
			if !slices.Contains(ids, f.blocks[pi][bi].ID) {
				t.Errorf("where is %s: sources %v lack block %s", bt.Title, ids, f.blocks[pi][bi].ID)
			}
		}
	}
	if !found {
		t.Fatal("the set has no titled schedule")
	}
	// a sheet that does not exist
	if a := ask(t, f, "what is detail 5 on Z-999?"); a.Confidence != 0 || !strings.Contains(a.Answer, "could not find sheet") {
		t.Errorf("detail on a missing sheet: %+v", a)
	}
	if a := ask(t, f, "where is the zeppelin hangar?"); a.Confidence > 0 || len(a.Sources) > 0 && a.Confidence >= 0.5 {
		t.Errorf("where is a missing thing: %+v", a)
	}
}

func testSearch(t *testing.T, f *fixture) {
	// a sheet by its number in every spelling
	st := f.truth.Sheets[0]
	n := sheetmeta.Normalize(st.SheetNumber)
	i := strings.IndexFunc(n, func(r rune) bool { return r >= '0' && r <= '9' })
	for _, q := range []string{st.SheetNumber, n, n[:i] + " " + n[i:], strings.ToLower(n[:i]) + "-" + n[i:]} {
		res, err := f.svc.Search(f.ctx, f.project, search.Input{Query: q, Types: []string{"sheet"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].SheetID != f.sheets[0].ID || !slices.Contains(res.Hits[0].Why, "structure") {
			t.Errorf("search %q: %+v, want sheet %s first by structure", q, res.Hits, st.SheetNumber)
		}
	}
	// "exhaust fan" finds the legend entry and its counts per block; "EF" too, by vocabulary and label
	_, per := f.kindCount("CEILING EXHAUST FAN", nil)
	for _, q := range []string{"exhaust fan", "EF"} {
		res, err := f.svc.Search(f.ctx, f.project, search.Input{Query: q, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		legend := false
		for _, h := range res.Hits {
			switch h.SourceType {
			case "symbol":
				if strings.Contains(unmark(h.Snippet), "CEILING EXHAUST FAN") {
					got[h.SheetNumber] += *h.Count
				}
			case "legend_entry":
				legend = legend || strings.Contains(unmark(h.Snippet), "CEILING EXHAUST FAN")
			}
			if h.Bounds == nil || !h.Bounds.Valid() {
				t.Errorf("%q: result without bounds %+v", q, h)
			}
		}
		if !legend || fmt.Sprint(got) != fmt.Sprint(per) {
			t.Errorf("search %q: legend entry found %v, counts %v, truth %v", q, legend, got, per)
		}
		if q == "EF" && (!slices.Contains(res.Meta.Retrievers, "vocabulary") || len(res.Meta.Expanded) == 0) {
			t.Errorf("search EF: meta %+v, want the vocabulary used", res.Meta)
		}
		if res.Meta.Semantic || res.Meta.Visual {
			t.Errorf("meta %+v claims semantic or visual search", res.Meta)
		}
	}
	// an OCR-damaged word: trigram similarity on PostgreSQL with pg_trgm; elsewhere no such retriever, and an empty result that says why
	res, err := f.svc.Search(f.ctx, f.project, search.Input{Query: "EXHAUSTT", Types: []string{"legend_entry"}})
	if err != nil {
		t.Fatal(err)
	}
	if f.svc.Index().Dialect(f.ctx) == index.Postgres {
		if !slices.Contains(res.Meta.Retrievers, "trigram") || len(res.Hits) == 0 || !strings.Contains(unmark(res.Hits[0].Snippet), "EXHAUST") {
			t.Errorf("EXHAUSTT on PostgreSQL: %+v", res)
		}
	} else if slices.Contains(res.Meta.Retrievers, "trigram") || len(res.Hits) != 0 || res.Meta.Reason == "" {
		t.Errorf("EXHAUSTT on SQLite: %+v", res)
	}
	// matched words are marked
	res, err = f.svc.Search(f.ctx, f.project, search.Input{Query: "exhaust fan", Types: []string{"legend_entry"}, Limit: 1})
	if err != nil || len(res.Hits) != 1 || !strings.Contains(res.Hits[0].Snippet, "«EXHAUST»") || !strings.Contains(res.Hits[0].Snippet, "«FAN»") {
		t.Errorf("snippet: %+v %v", res, err)
	}
	// filters: only the first sheet's rows
	res, err = f.svc.Search(f.ctx, f.project, search.Input{Query: "plan", Filters: &search.Filters{SheetNumber: st.SheetNumber}, Limit: 100})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("filtered search: %+v %v", res, err)
	}
	for _, h := range res.Hits {
		if h.SheetID != f.sheets[0].ID {
			t.Errorf("filter sheet_number %s let through %+v", st.SheetNumber, h)
		}
	}
}

func testRebuild(t *testing.T, f *fixture) {
	x := f.svc.Index()
	before, err := x.Count(f.ctx, index.Scope{ProjectID: f.project})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.RebuildSheet(f.ctx, f.sheets[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := x.RebuildDrawing(f.ctx, f.drawing); err != nil {
		t.Fatal(err)
	}
	// rebuilds of one sheet at the same time (two parse finalizers) leave one set of rows
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() { errs <- x.RebuildSheet(f.ctx, f.sheets[1].ID) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	after, _ := x.Count(f.ctx, index.Scope{ProjectID: f.project})
	if before != after || before < 100 {
		t.Errorf("rows before a rebuild %d, after %d", before, after)
	}
}

func status(err error) int {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae.Status()
	}
	return 0
}

func testBadInput(t *testing.T, f *fixture) {
	img := "data:image/png;base64,AAAA"
	for name, in := range map[string]search.Input{
		"empty":      {Query: "  "},
		"10 kB":      {Query: strings.Repeat("receptacle ", 1000)},
		"limit":      {Query: "fan", Limit: 101},
		"type":       {Query: "fan", Types: []string{"unicorn"}},
		"image":      {Query: "fan", ImageURL: &img},
		"discipline": {Query: "fan", Filters: &search.Filters{Discipline: "astrology"}},
		"drawing":    {Query: "fan", Filters: &search.Filters{DrawingID: "drw_missing"}},
		"block type": {Query: "fan", Filters: &search.Filters{BlockType: "Kitchen"}},
	} {
		if _, err := f.svc.Search(f.ctx, f.project, in); status(err) != http.StatusBadRequest {
			t.Errorf("%s: %v, want 400", name, err)
		}
	}
	for _, q := range []string{`"exhaust`, `fan*`, `exhaust NEAR fan`, `O'Brien's fan`, `fan) OR (1=1`, `a & b | !c <-> d:*`, `"*"`} {
		if _, err := f.svc.Search(f.ctx, f.project, search.Input{Query: q}); err != nil {
			t.Errorf("search %q: %v", q, err)
		}
		if _, err := f.svc.Ask(f.ctx, f.project, search.AskInput{Question: q}); err != nil {
			t.Errorf("ask %q: %v", q, err)
		}
	}
	res, err := f.svc.Search(f.ctx, f.project, search.Input{Query: `"*"`})
	if err != nil || len(res.Hits) != 0 || res.Meta.Reason == "" {
		t.Errorf(`search "*": %+v %v, want an empty result that says why`, res, err)
	}
	if _, err := f.svc.Ask(f.ctx, f.project, search.AskInput{Question: ""}); status(err) != http.StatusBadRequest {
		t.Errorf("empty question: %v", err)
	}
	if _, err := f.svc.Ask(f.ctx, f.project, search.AskInput{Question: "how many fans", DrawingID: "drw_missing"}); status(err) != http.StatusBadRequest {
		t.Errorf("ask in a missing drawing: %v", err)
	}
	if _, err := f.svc.Ask(f.ctx, f.project, search.AskInput{Question: "how many fans", MaxSources: 21}); status(err) != http.StatusBadRequest {
		t.Errorf("max_sources 21: %v", err)
	}
	if _, err := f.svc.Search(f.ctx, "prj_missing", search.Input{Query: "fan"}); status(err) != http.StatusNotFound {
		t.Errorf("missing project: %v", err)
	}
	// a project with nothing ingested: an empty answer that says why
	empty := f.svc.DB.Project.Create().SetName("empty").SaveX(f.ctx)
	res, err = f.svc.Search(f.ctx, empty.ID, search.Input{Query: "fan"})
	if err != nil || len(res.Hits) != 0 || res.Meta.Indexed != 0 || !strings.Contains(res.Meta.Reason, "nothing is indexed") {
		t.Errorf("empty project: %+v %v", res, err)
	}
	a, err := f.svc.Ask(f.ctx, empty.ID, search.AskInput{Question: "how many fans?"})
	if err != nil || a.Confidence != 0 || len(a.Sources) != 0 || !strings.Contains(a.Answer, "Nothing is indexed") {
		t.Errorf("ask on an empty project: %+v %v", a, err)
	}
}

// testIsolation: another organization's project with the same drawings is
// 404 to this one, and its rows never appear in this one's results.
func testIsolation(t *testing.T, st *store.Store, bucket *blob.Bucket, f *fixture) {
	set, err := synth.Generate(synth.Options{Seed: 11, Sheets: 2})
	if err != nil {
		t.Fatal(err)
	}
	g := seed(t, st, bucket, orgB, set)
	if _, err := f.svc.Search(f.ctx, g.project, search.Input{Query: "plan"}); status(err) != http.StatusNotFound {
		t.Errorf("search of another organization's project: %v, want 404", err)
	}
	if _, err := f.svc.Ask(f.ctx, g.project, search.AskInput{Question: "which sheets are electrical?"}); status(err) != http.StatusNotFound {
		t.Errorf("ask of another organization's project: %v, want 404", err)
	}
	// B's rows are all B's: none is in A's project, and A reads none of B's
	if n, err := f.svc.Index().Count(f.ctx, index.Scope{ProjectID: g.project}); err != nil || n != 0 {
		t.Errorf("organization A reads %d rows of B's project (%v)", n, err)
	}
	res, err := f.svc.Search(f.ctx, f.project, search.Input{Query: "plan", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string]bool{}
	for _, s := range f.sheets {
		mine[s.ID] = true
	}
	for _, h := range res.Hits {
		if !mine[h.SheetID] || h.DrawingID != f.drawing {
			t.Errorf("result %+v is not of organization A's project", h)
		}
	}
}

// testRevisions: a second drawing (a revision) with the same sheet ties with
// the first on every retriever; the newest drawing comes first. (Runs last:
// it adds rows.)
func testRevisions(t *testing.T, f *fixture) {
	db := f.svc.DB
	old := f.sheets[0]
	d := db.Drawing.Create().SetProjectID(f.project).SetName("rev2.pdf").SetStatus("ready").SaveX(f.ctx)
	s := db.Sheet.Create().SetProjectID(f.project).SetDrawingID(d.ID).SetPageNumber(1).SetSheetNumber(old.SheetNumber).
		SetSheetNumberNorm(old.SheetNumberNorm).SetTitle(old.Title).SetDiscipline(old.Discipline).SetWidth(old.Width).SetHeight(old.Height).SaveX(f.ctx)
	if err := f.svc.Index().RebuildDrawing(f.ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.Search(f.ctx, f.project, search.Input{Query: old.SheetNumber + " " + old.Title, Types: []string{"sheet"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) < 2 || res.Hits[0].SheetID != s.ID || res.Hits[1].SheetID != old.ID || res.Hits[0].Score != res.Hits[1].Score {
		t.Errorf("revisions: %+v, want the new sheet %s then the old %s with equal scores", res.Hits, s.ID, old.ID)
	}
}
